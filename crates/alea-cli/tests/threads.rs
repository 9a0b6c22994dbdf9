//! The same output whatever `--threads` says, for every command that works in parallel
//! (timings removed from JSON).

mod common;

use common::{alea, stdout};

use serde_json::Value as Json;

/// The output with any `seconds` field of JSON lines removed.
fn without_timings(text: &str) -> String {
    text.lines()
        .map(|line| match serde_json::from_str::<Json>(line) {
            Ok(Json::Object(mut o)) => {
                o.remove("seconds");
                o.remove("play_seconds");
                o.remove("games_per_second");
                Json::Object(o).to_string()
            }
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_command_answers_the_same_on_one_two_or_three_threads() {
    let file = |game: &str| common::data(game, "sample.in");
    let runs: Vec<Vec<String>> = vec![
        vec!["patience".into(), file("patience")],
        vec![
            "patience".into(),
            "--json".into(),
            "--exact".into(),
            file("patience"),
        ],
        vec!["patience".into(), "--hint".into(), file("patience")],
        vec![
            "patience".into(),
            "stats".into(),
            "--deals".into(),
            "3000".into(),
            "--json".into(),
        ],
        vec![
            "dice".into(),
            "--json".into(),
            "--exact".into(),
            file("dice"),
        ],
        vec!["jenga".into(), "--json".into(), file("jenga")],
        vec!["jenga".into(), "--hint".into(), file("jenga")],
        vec!["yahtzee".into(), "--json".into(), file("yahtzee")],
        vec![
            "yahtzee".into(),
            "simulate".into(),
            "--games".into(),
            "3000".into(),
            "--json".into(),
        ],
        vec![
            "yahtzee".into(),
            "distribution".into(),
            "--games".into(),
            "3000".into(),
            "--target".into(),
            "200,300".into(),
        ],
        vec![
            "yahtzee".into(),
            "advise".into(),
            "--dice".into(),
            "1,2,3,3,5".into(),
        ],
        vec![
            "mahjong".into(),
            "--json".into(),
            "--exact".into(),
            file("mahjong"),
        ],
    ];
    for run in &runs {
        let outputs: Vec<String> = ["1", "2", "3"]
            .iter()
            .map(|threads| {
                let mut args = vec!["--threads", threads];
                args.extend(run.iter().map(String::as_str));
                without_timings(&stdout(&alea(&args, b"")))
            })
            .collect();
        assert_eq!(outputs[0], outputs[1], "{run:?}");
        assert_eq!(outputs[0], outputs[2], "{run:?}");
    }
}
