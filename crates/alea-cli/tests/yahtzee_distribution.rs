//! `alea yahtzee distribution` as a user runs it: its JSON and text, the same games as
//! `simulate`, the exact distribution of late positions, targets and their mistakes,
//! the guard on games, the same answer on any number of threads, and its endpoint.

mod common;
mod server;

use common::{alea, assert_fails, stdout};

use serde_json::Value as Json;

fn json(args: &[&str]) -> Json {
    let mut all = vec!["yahtzee", "distribution"];
    all.extend_from_slice(args);
    all.push("--json");
    let mut o: Json = serde_json::from_str(&stdout(&alea(&all, b""))).unwrap();
    o.as_object_mut().unwrap().remove("seconds");
    o
}

fn text(args: &[&str]) -> String {
    let mut all = vec!["yahtzee", "distribution"];
    all.extend_from_slice(args);
    stdout(&alea(&all, b""))
}

fn pair(v: &Json) -> (f64, f64) {
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// Late in the game: full house and chance open, the Yahtzee box holding 50.
const LATE: &str = "ones=2,twos=6,threes=9,fours=12,fives=15,sixes=12,three-of-a-kind=22,\
                    four-of-a-kind=0,small-straight=30,large-straight=0,yahtzee=50";

#[test]
fn a_simulation_from_the_start_in_json() {
    let o = json(&[
        "--games",
        "20000",
        "--seed",
        "3",
        "--target",
        "200,250, 300",
    ]);
    let keys: Vec<&str> = o.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "rules",
            "exact",
            "games",
            "seed",
            "mean",
            "mean_interval",
            "std_dev",
            "std_dev_interval",
            "exact_mean",
            "exact_std_dev",
            "card_points",
            "dice",
            "rolls_left",
            "percentiles",
            "min",
            "max",
            "targets",
            "bins"
        ]
    );
    assert_eq!(o["rules"], "free-joker");
    assert_eq!(o["exact"], false);
    assert_eq!(
        (o["games"].as_u64(), o["seed"].as_u64()),
        (Some(20000), Some(3))
    );
    let exact = o["exact_mean"].as_f64().unwrap();
    assert!((exact - 254.5896095).abs() < 1e-6);
    let (lo, hi) = pair(&o["mean_interval"]);
    assert!(lo <= exact && exact <= hi, "{o}");
    let sd = o["exact_std_dev"].as_f64().unwrap();
    assert!((sd - 59.6117).abs() < 1e-4);
    let (lo, hi) = pair(&o["std_dev_interval"]);
    let std_dev = o["std_dev"].as_f64().unwrap();
    assert!(lo < std_dev && std_dev < hi && lo <= sd && sd <= hi, "{o}");

    let p = &o["percentiles"];
    let keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["1", "5", "25", "50", "75", "95", "99"]);
    let values: Vec<u64> = keys.iter().map(|k| p[k].as_u64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] <= w[1]), "{p}");

    // Every score played, once, in order; the counts add up to the games.
    let bins = o["bins"].as_array().unwrap();
    let scores: Vec<u64> = bins.iter().map(|b| b["score"].as_u64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(Some(scores[0]), o["min"].as_u64());
    assert_eq!(scores.last().copied(), o["max"].as_u64());
    let mut games = 0;
    for b in bins {
        let count = b["count"].as_u64().unwrap();
        assert!(count > 0);
        games += count;
        let p = b["probability"].as_f64().unwrap();
        assert_eq!(p, count as f64 / 20000.0);
        let (lo, hi) = pair(&b["interval"]);
        assert!(0.0 < lo && lo < p && p < hi && hi < 1.0, "{b}");
    }
    assert_eq!(games, 20000);

    // At least each target: the games from it up.
    let targets = o["targets"].as_array().unwrap();
    let at: Vec<u64> = targets
        .iter()
        .map(|t| t["score"].as_u64().unwrap())
        .collect();
    assert_eq!(at, [200, 250, 300]);
    for t in targets {
        let from = t["score"].as_u64().unwrap();
        let count: u64 = bins
            .iter()
            .filter(|b| b["score"].as_u64().unwrap() >= from)
            .map(|b| b["count"].as_u64().unwrap())
            .sum();
        assert_eq!(t["count"].as_u64(), Some(count));
        let p = t["probability"].as_f64().unwrap();
        assert_eq!(p, count as f64 / 20000.0);
        let (lo, hi) = pair(&t["interval"]);
        assert!(lo < p && p < hi, "{t}");
    }
    let probability = |i: usize| targets[i]["probability"].as_f64().unwrap();
    assert!(probability(0) > probability(1) && probability(1) > probability(2));

    // The games of `simulate` with the same seed, die for die.
    let mut s: Json = serde_json::from_str(&stdout(&alea(
        &[
            "yahtzee", "simulate", "--games", "20000", "--seed", "3", "--json",
        ],
        b"",
    )))
    .unwrap();
    let counts = s["counts"].take();
    for b in bins {
        let score = b["score"].as_u64().unwrap() as usize;
        assert_eq!(counts[score], b["count"]);
    }
    assert_eq!(s["mean"], o["mean"]);
    assert_eq!(s["std_dev"], o["std_dev"]);
    assert_eq!(s["interval"], o["mean_interval"]);
}

#[test]
fn the_text_says_it_is_a_simulation_and_shows_the_exact_figures() {
    let t = text(&["--games", "20000", "--seed", "3", "--target", "250"]);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[0], "rules: free-joker");
    assert_eq!(lines[1], "from the start of the game");
    assert_eq!(
        lines[2],
        "simulation: 20000 games played optimally with seed 3: estimates, with 95% intervals"
    );
    assert!(
        lines[3].starts_with("mean: ") && lines[3].ends_with("; exact 254.5896095)"),
        "{t}"
    );
    assert!(lines[3].contains("(95% interval "), "{t}");
    assert!(
        lines[4].starts_with("standard deviation: ") && lines[4].ends_with("; exact 59.6117)"),
        "{t}"
    );
    assert!(lines[5].starts_with("percentiles: 1%: "), "{t}");
    assert!(
        lines[5].contains(", 50%: ") && lines[5].contains(", 99%: "),
        "{t}"
    );
    assert!(lines[6].starts_with("lowest: "), "{t}");
    assert!(lines[7].starts_with("at least 250: 0."), "{t}");
    assert!(lines[7].contains(" (95% interval 0."), "{t}");
    assert_eq!(
        lines[8],
        "histogram: bins of 10 points, the rarest 0.1% at each end in one bin"
    );
    assert!(lines[9].starts_with("  score"), "{t}");
    assert!(lines[9].contains("games  probability  95% interval"), "{t}");
    // The bins cover the scores played, every game in one.
    let games: u64 = lines[10..]
        .iter()
        .map(|l| {
            // A range `a to b`, or a single score, then the games.
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = if words[1] == "to" { 3 } else { 1 };
            words[at].parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(games, 20000);
    assert!(lines[10..].iter().any(|l| l.ends_with(&"#".repeat(40))));
    // Bins of another width; no timing in the text, so a run is repeated to the byte.
    let again = text(&[
        "--games",
        "20000",
        "--seed",
        "3",
        "--target",
        "250",
        "--bin-width",
        "25",
    ]);
    assert!(again.contains("histogram: bins of 25 points"), "{again}");
    assert_eq!(
        text(&["--games", "20000", "--seed", "3", "--target", "250"]),
        t
    );
}

#[test]
fn late_positions_are_worked_out_exactly() {
    let o = json(&["--card", LATE, "--target", "250"]);
    assert_eq!(o["exact"], true);
    assert!(o["games"].is_null() && o["seed"].is_null(), "{o}");
    assert!(o["mean_interval"].is_null() && o["std_dev_interval"].is_null());
    assert_eq!(o["card_points"], 158);
    let advice: Json = serde_json::from_str(&stdout(&alea(
        &["yahtzee", "advise", "--card", LATE, "--json"],
        b"",
    )))
    .unwrap();
    let exact = o["exact_mean"].as_f64().unwrap();
    assert!((exact - 158.0 - advice["value"].as_f64().unwrap()).abs() < 1e-9);
    assert!((o["mean"].as_f64().unwrap() - exact).abs() < 1e-9, "{o}");
    let sd = o["exact_std_dev"].as_f64().unwrap();
    assert!((o["std_dev"].as_f64().unwrap() - sd).abs() < 1e-6, "{o}");
    let bins = o["bins"].as_array().unwrap();
    let total: f64 = bins
        .iter()
        .map(|b| b["probability"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert!(bins
        .iter()
        .all(|b| b["count"].is_null() && b["interval"].is_null()));
    // At least 250: a Yahtzee (100 more and 25 as a full house) and a good chance.
    let t = &o["targets"][0];
    let above: f64 = bins
        .iter()
        .filter(|b| b["score"].as_u64().unwrap() >= 250)
        .map(|b| b["probability"].as_f64().unwrap())
        .sum();
    assert!((t["probability"].as_f64().unwrap() - above).abs() < 1e-15);
    assert!(above > 0.0 && above < 0.2, "{above}");

    // Its text.
    let t = text(&["--card", LATE]);
    assert!(t.contains(
        "card: 158 points, upper total 56 of 63, open: full-house, chance\n\
         at the start of a turn\n\
         exact: worked out over every roll (2 boxes open), no games played\n"
    ));
    assert!(t.contains(&format!("mean: {exact:.7}\n")), "{t}");
    assert!(t.contains("  score"), "{t}");
    assert!(!t.contains("95% interval"), "{t}");

    // The games played all the same: a sample of that distribution.
    let s = json(&["--card", LATE, "--simulate", "--games", "20000"]);
    assert_eq!(s["exact"], false);
    assert_eq!(s["exact_mean"], o["exact_mean"]);
    let (lo, hi) = pair(&s["mean_interval"]);
    assert!(lo <= exact && exact <= hi, "{s}");

    // Within a turn: the dice and the rolls left, the exact spread from the
    // distribution (the table keeps none within a turn).
    let o = json(&["--card", LATE, "--dice", "6,6,6,6,2", "--rolls-left", "1"]);
    assert_eq!(o["exact"], true);
    assert_eq!(o["dice"], serde_json::json!([2, 6, 6, 6, 6]));
    assert_eq!(o["rolls_left"], 1);
    assert_eq!(o["exact_std_dev"], o["std_dev"]);
    // Within a turn by simulation: no exact spread.
    let s = json(&[
        "--card",
        "ones=3",
        "--dice",
        "6,6,6,6,2",
        "--rolls-left",
        "1",
        "--games",
        "2000",
    ]);
    assert_eq!(s["exact"], false);
    assert!(s["exact_std_dev"].is_null(), "{s}");
    let t = text(&[
        "--card",
        "ones=3",
        "--dice",
        "6,6,6,6,2",
        "--rolls-left",
        "1",
        "--games",
        "2000",
    ]);
    assert!(t.contains("dice: 2 6 6 6 6, 1 roll to come\n"), "{t}");
    assert!(t.contains("; exact unknown within a turn)\n"), "{t}");
}

#[test]
fn bad_targets_are_refused_with_their_column() {
    let cases = [
        (
            "200,x",
            "error: --target:1:5: expected a target score (a whole number of points), found `x`",
        ),
        (
            "200,-5",
            "error: --target:1:5: a target score is at least 0, not -5",
        ),
        (
            "-5",
            "error: --target:1:1: a target score is at least 0, not -5",
        ),
        (
            "200,,300",
            "error: --target:1:5: expected a target score between commas",
        ),
        (
            "200, ",
            "error: --target:1:6: expected a target score between commas",
        ),
        (
            "",
            "error: --target:1:1: expected target scores separated by commas, like 200,250,300",
        ),
        (
            "2.5",
            "error: --target:1:1: expected a target score (a whole number of points), found `2.5`",
        ),
        (
            "1,99999999999",
            "error: --target:1:3: 99999999999 is too large for a score (at most 4294967295)",
        ),
    ];
    for (spec, expected) in cases {
        assert_fails(
            &["yahtzee", "distribution", "--target", spec],
            b"",
            2,
            expected,
        );
    }
    assert_fails(
        &["yahtzee", "distribution", "--bin-width", "0"],
        b"",
        2,
        "error: invalid value '0' for '--bin-width <POINTS>'",
    );
    assert_fails(
        &["yahtzee", "distribution", "--card", "ones=3,fulhouse=25"],
        b"",
        2,
        "error: --card:1:8: unknown box `fulhouse`",
    );
}

#[test]
fn the_games_are_guarded() {
    assert_fails(
        &["yahtzee", "distribution", "--games", "20000000"],
        b"",
        3,
        "error: --games 20000000 is above --max-games 10000000; raise --max-games to go on",
    );
    assert_fails(
        &[
            "yahtzee",
            "distribution",
            "--games",
            "1001",
            "--max-games",
            "1000",
        ],
        b"",
        3,
        "error: --games 1001 is above --max-games 1000",
    );
    assert_fails(
        &["yahtzee", "distribution", "--games", "0"],
        b"",
        2,
        "error: invalid value '0' for '--games <GAMES>'",
    );
}

#[test]
fn the_same_answer_on_one_or_two_threads() {
    let run = |threads: &str, extra: &[&str]| {
        let mut args = vec!["--threads", threads, "yahtzee", "distribution"];
        args.extend_from_slice(extra);
        let out = stdout(&alea(&args, b""));
        if extra.contains(&"--json") {
            let mut o: Json = serde_json::from_str(&out).unwrap();
            o.as_object_mut().unwrap().remove("seconds");
            o.to_string()
        } else {
            out
        }
    };
    for extra in [
        &[
            "--games", "5000", "--seed", "9", "--target", "200,300", "--json",
        ][..],
        &["--games", "5000", "--seed", "9", "--target", "200,300"][..],
        &["--card", LATE, "--json"][..],
    ] {
        assert_eq!(run("1", extra), run("2", extra), "{extra:?}");
    }
}

#[test]
fn the_help_describes_every_option() {
    let help = stdout(&alea(&["yahtzee", "distribution", "--help"], b""));
    for option in [
        "--rules",
        "--table",
        "--games",
        "--max-games",
        "--seed",
        "--target",
        "--bin-width",
        "--simulate",
        "--card",
        "--dice",
        "--rolls-left",
        "--json",
        "--threads",
    ] {
        assert!(help.contains(option), "{option}");
    }
    assert!(help.contains("Exit status:\n  0  success"));
}

#[test]
fn the_endpoint_answers_as_the_command_line() {
    let server = server::Server::start(&[]);
    let (status, body) = server.post(
        "/api/yahtzee/distribution",
        &format!(r#"{{"card": "{LATE}", "target": "250"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    let mut o: Json = serde_json::from_str(&body).unwrap();
    o.as_object_mut().unwrap().remove("seconds");
    assert_eq!(o, json(&["--card", LATE, "--target", "250"]));
    // The server's cap on games applies.
    let (status, body) = server.post("/api/yahtzee/distribution", r#"{"games": 2000000}"#);
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("--max-games 1000000"), "{body}");
    let (status, body) = server.post("/api/yahtzee/distribution", r#"{"target": "1,x"}"#);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("--target:1:3"), "{body}");
}
