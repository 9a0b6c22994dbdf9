//! `alea patience` as a user runs it: the judge's sample and known answers byte for
//! byte, every output mode, and bad input.

mod common;

use common::{alea, stdout};

use alea_games::patience::{parse_deals, replays_to_empty};
use serde_json::Value as Json;

fn data(name: &str) -> String {
    common::data("patience", name)
}

#[test]
fn sample_and_known_answers_byte_for_byte() {
    for case in ["sample", "known"] {
        let expected = std::fs::read_to_string(data(&format!("{case}.out"))).unwrap();
        let got = stdout(&alea(&["patience", &data(&format!("{case}.in"))], b""));
        assert_eq!(got, expected, "{case}");
        // The same through standard input, both ways of asking for it.
        let input = std::fs::read(data(&format!("{case}.in"))).unwrap();
        assert_eq!(stdout(&alea(&["patience"], &input)), expected);
        assert_eq!(stdout(&alea(&["patience", "-"], &input)), expected);
    }
}

#[test]
fn exact_fractions_agree_with_decimals() {
    let input = data("known.in");
    let decimals = stdout(&alea(&["patience", &input], b""));
    let fractions = stdout(&alea(&["patience", "--exact", &input], b""));
    for (d, f) in decimals.lines().zip(fractions.lines()) {
        let (p, q) = f.split_once('/').expect("p/q");
        let value = p.parse::<f64>().unwrap() / q.parse::<f64>().unwrap();
        assert_eq!(format!("{value:.6}"), d);
    }
    assert_eq!(fractions.lines().count(), 4);
}

#[test]
fn json_reports_a_winning_line_that_wins() {
    let input = std::fs::read(data("known.in")).unwrap();
    let deals = parse_deals(&input).unwrap();
    let out = stdout(&alea(&["patience", "--json", "--exact"], &input));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), deals.len());
    for (line, deal) in lines.iter().zip(&deals) {
        let o: Json = serde_json::from_str(line).unwrap();
        let p = o["random_play"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p));
        assert!(o["states"].as_u64().unwrap() > 0);
        assert!(o["random_play_exact"].as_str().unwrap().contains('/'));
        if o["solvable"].as_bool().unwrap() {
            let moves: Vec<(usize, usize)> = o["winning_line"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m[0].as_u64().unwrap() as usize,
                        m[1].as_u64().unwrap() as usize,
                    )
                })
                .collect();
            assert_eq!(moves.len(), 18);
            assert!(replays_to_empty(deal, &moves));
        } else {
            assert!(o["winning_line"].is_null());
            assert_eq!(p, 0.0, "random play cannot win an unwinnable deal");
        }
    }
}

#[test]
fn hints_rank_every_move_and_reproduce_the_value() {
    let input = std::fs::read(data("sample.in")).unwrap();
    let out = stdout(&alea(&["patience", "--hint", "--json"], &input));
    let o: Json = serde_json::from_str(out.trim()).unwrap();
    let moves = o["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    let values: Vec<f64> = moves
        .iter()
        .map(|m| m["random_play"].as_f64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "best first");
    // The random player's chance is the mean over its moves.
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    assert!((mean - o["random_play"].as_f64().unwrap()).abs() < 1e-12);
    assert_eq!(moves[0]["loss"].as_f64().unwrap(), 0.0);

    let text = stdout(&alea(&["patience", "--hint"], &input));
    assert!(text.starts_with("deal 1: the random player wins with probability 0.589314"));
    assert_eq!(text.lines().count(), 2 + moves.len());
}

#[test]
fn games_in_progress_are_positions_too() {
    // Two pairs left: 7S/7H on piles 1 and 2, AS/AH on piles 2 and 9.
    let position = b"7S\n7H AS\n-\n-\n-\n-\n-\n-\nAH\n";
    let out = stdout(&alea(&["patience", "--json"], position));
    let o: Json = serde_json::from_str(out.trim()).unwrap();
    // Only AS/AH can go first, then 7S/7H: a sure win.
    assert_eq!(o["random_play"].as_f64().unwrap(), 1.0);
    assert_eq!(o["winning_line"], serde_json::json!([[2, 9], [1, 2]]));
    assert_eq!(o["cards"], 4);
}

#[test]
fn thread_count_does_not_change_the_answer() {
    let deals = stdout(&alea(
        &["patience", "shuffle", "--deals", "300", "--seed", "5"],
        b"",
    ));
    let one = stdout(&alea(&["--threads", "1", "patience"], deals.as_bytes()));
    let two = stdout(&alea(&["patience", "--threads", "2"], deals.as_bytes()));
    assert_eq!(one, two);
    assert_eq!(one.lines().count(), 300);
}

#[test]
fn stats_agree_with_the_shuffled_deals() {
    let deals = stdout(&alea(
        &["patience", "shuffle", "--deals", "200", "--seed", "3"],
        b"",
    ));
    let probabilities: Vec<f64> = stdout(&alea(&["patience"], deals.as_bytes()))
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let out = stdout(&alea(
        &[
            "patience", "stats", "--deals", "200", "--seed", "3", "--json",
        ],
        b"",
    ));
    let o: Json = serde_json::from_str(out.trim()).unwrap();
    let mean = probabilities.iter().sum::<f64>() / 200.0;
    // The file holds six decimals per deal.
    assert!((o["mean_random_play"].as_f64().unwrap() - mean).abs() < 1e-6);
    let counted: u64 = o["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["deals"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 200);
    let winnable = o["winnable"].as_u64().unwrap();
    assert!(probabilities.iter().filter(|&&p| p > 0.0).count() as u64 <= winnable);
    let half = o["half_width_95"].as_f64().unwrap();
    let sd = o["std_dev"].as_f64().unwrap();
    assert!((half - 1.959_963_984_540_054 * sd / 200f64.sqrt()).abs() < 1e-12);
    let report = stdout(&alea(&["patience", "stats", "--deals", "20"], b""));
    assert!(report.contains("winnable deals"));
}

#[test]
fn resource_guards_stop_with_status_3() {
    for cmd in ["stats", "shuffle"] {
        let out = alea(&["patience", cmd, "--deals", "18446744073709551615"], b"");
        assert_eq!(out.status.code(), Some(3), "{cmd}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: --deals 18446744073709551615 is above --max-deals"));
        assert!(err.contains("raise --max-deals"));
    }
    let raised = alea(
        &["patience", "shuffle", "--deals", "3", "--max-deals", "3"],
        b"",
    );
    assert_eq!(stdout(&raised).lines().count(), 27);
}

#[test]
fn thread_counts_out_of_range_are_refused() {
    for bad in ["0", "257", "1000000", "-1"] {
        let out = alea(&["--threads", bad, "patience"], b"");
        assert_eq!(out.status.code(), Some(2), "--threads {bad}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn few_deals_give_clean_figures() {
    let none = stdout(&alea(&["patience", "stats", "--deals", "0", "--json"], b""));
    let o: Json = serde_json::from_str(none.trim()).unwrap();
    assert_eq!(o["mean_random_play"].to_string(), "0.0");
    assert!(o["half_width_95"].is_null());
    let one = stdout(&alea(&["patience", "stats", "--deals", "1"], b""));
    assert!(
        one.contains("no interval from fewer than two deals"),
        "{one}"
    );
    assert!(!one.contains("NaN"));
}

fn assert_bad_input(stdin: &[u8], expected: &str) {
    common::assert_fails(&["patience"], stdin, 2, expected);
}

#[test]
fn bad_input_is_reported_precisely() {
    let sample = std::fs::read_to_string(data("sample.in")).unwrap();
    assert_bad_input(b"AS 9S 6C KX\n", "error: <stdin>:1:10: `KX` is not a card");
    assert_bad_input(
        b"AS 9S 6C KS 7D\n",
        "error: <stdin>:2:1: the input ends inside the deal that starts at line 1: a deal \
         needs 36 cards, the input ends after 5",
    );
    assert_bad_input(
        b"AS\n9S\n",
        "error: <stdin>:3:1: the input ends inside the deal",
    );
    assert_bad_input(b"AS 9S\nKD AS\n", "error: <stdin>:2:4: AS appears twice");
    // A good deal before a bad one still prints nothing.
    let two = format!("{sample}{}", sample.replace("AS 9S", "AS AS"));
    assert_bad_input(
        two.as_bytes(),
        "error: <stdin>:10:4: AS appears twice in the deal that starts at line 10",
    );
    assert_bad_input(b"\xff\xfe\x00garbage", "error: <stdin>:1:1: ");

    let missing = alea(&["patience", "/no/such/file"], b"");
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).starts_with("error: /no/such/file: cannot read")
    );
}

#[test]
fn empty_input_has_no_deals() {
    assert_eq!(stdout(&alea(&["patience"], b"")), "");
    assert_eq!(stdout(&alea(&["patience"], b"\n \n")), "");
}
