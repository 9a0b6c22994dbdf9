//! `alea pig` as a user runs it: the published figures, exact fractions, JSON fields,
//! hints, the policy table, the fixed opponent, bad command lines and the guards.

mod common;

use common::{alea, assert_fails, stdout};

use serde_json::Value as Json;

fn json(args: &[&str]) -> Json {
    serde_json::from_str(stdout(&alea(args, b"")).trim()).unwrap()
}

#[test]
fn the_standard_game() {
    assert_eq!(stdout(&alea(&["pig"], b"")), "0.530592725273747\n");
    let o = json(&["pig", "--json"]);
    let p = o["first_player_wins"].as_f64().unwrap();
    assert_eq!(format!("{p:.15}"), "0.530592725273747");
    let bound = o["error_bound"].as_f64().unwrap();
    assert!(bound > 0.0 && bound <= 1e-12, "{bound}");
    assert_eq!(o["states"], 505_000);
    assert!(o.get("first_player_wins_exact").is_none());
}

#[test]
fn exact_fractions() {
    let run = |args: &[&str]| stdout(&alea(args, b""));
    assert_eq!(
        run(&["pig", "--goal", "20", "--exact"]),
        "15116544/24557443\n"
    );
    assert_eq!(
        run(&["pig", "--piglet", "--goal", "3", "--exact"]),
        "6/11\n"
    );
    assert_eq!(run(&["pig", "--piglet", "--goal", "2", "--exact"]), "4/7\n");
    // Goal 1 with a two-sided die: any 2 wins, x = 1/2 + (1 - x)/2.
    assert_eq!(
        run(&["pig", "--goal", "1", "--faces", "2", "--exact"]),
        "2/3\n"
    );
    let o = json(&["pig", "--piglet", "--goal", "10", "--exact", "--json"]);
    let q = o["first_player_wins_exact"].as_str().unwrap();
    assert_eq!(q, "5556238701119487884/10634368774326171875");
    assert_eq!(o["error_bound"], 0.0);
    let (n, d) = q.split_once('/').unwrap();
    let f = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
    assert!((o["first_player_wins"].as_f64().unwrap() - f).abs() < 1e-15);
    // The floating-point answer agrees within its certified bound.
    let float = json(&["pig", "--piglet", "--goal", "10", "--json"]);
    let bound = float["error_bound"].as_f64().unwrap();
    assert!((float["first_player_wins"].as_f64().unwrap() - f).abs() <= bound + 1e-16);
}

#[test]
fn hints_at_41_against_49() {
    // The published strategy holds at 22 to 26 and throws again at 27.
    for (turn, best) in [
        ("21", "roll"),
        ("22", "hold"),
        ("26", "hold"),
        ("27", "roll"),
    ] {
        let o = json(&[
            "pig",
            "hint",
            "--me",
            "41",
            "--opponent",
            "49",
            "--turn",
            turn,
            "--json",
        ]);
        assert_eq!(o["best"], best, "turn {turn}");
        let (roll, hold) = (o["roll"].as_f64().unwrap(), o["hold"].as_f64().unwrap());
        let loss = o["loss"].as_f64().unwrap();
        assert!((loss - (roll - hold).abs()).abs() < 1e-15);
        assert_eq!(best == "hold", hold >= roll);
        assert!(o["error_bound"].as_f64().unwrap() <= 1e-12);
    }
    let text = stdout(&alea(
        &[
            "pig",
            "hint",
            "--me",
            "41",
            "--opponent",
            "49",
            "--turn",
            "27",
        ],
        b"",
    ));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("banked 41, opponent 49, turn total 27 (goal 100"));
    assert!(
        lines[2].trim_start().starts_with("roll    0.6555"),
        "{text}"
    );
    assert!(
        lines[3].trim_start().starts_with("hold    0.6553"),
        "{text}"
    );
    assert_eq!(lines[4], "best: roll");
}

#[test]
fn exact_hints() {
    let o = json(&[
        "pig",
        "hint",
        "--piglet",
        "--goal",
        "2",
        "--me",
        "0",
        "--opponent",
        "0",
        "--turn",
        "1",
        "--exact",
        "--json",
    ]);
    // Piglet to 2 (Neller and Presser): after one head, throwing again is worth 5/7;
    // holding, 1 - P(0, 1, 0) = 3/5.
    assert_eq!(o["roll_exact"], "5/7");
    assert_eq!(o["hold_exact"], "3/5");
    assert_eq!(o["loss_exact"], "4/35");
    assert_eq!(o["best"], "roll");
    assert_eq!(o["error_bound"], 0.0);
}

/// Neller's optimal Piglet policies, rows by the mover's score.
const PIGLET: [(&str, &str); 3] = [
    ("3", "1 3 3 / 2 2 2 / 1 1 1"),
    (
        "6",
        "2 2 2 2 2 6 / 1 2 2 2 2 5 / 1 1 2 2 2 4 / 1 1 1 1 3 3 / 1 1 1 2 2 2 / 1 1 1 1 1 1",
    ),
    (
        "9",
        "2 2 2 2 2 2 3 3 9 / 1 2 2 2 2 2 2 3 8 / 1 1 2 2 2 2 2 3 7 / 1 1 1 2 2 2 2 2 6 / \
         1 1 1 1 2 2 2 2 5 / 1 1 1 1 1 2 2 2 4 / 1 1 1 1 1 1 1 3 3 / 1 1 1 1 1 1 2 2 2 / \
         1 1 1 1 1 1 1 1 1",
    ),
];

#[test]
fn piglet_policies_as_published() {
    for (goal, table) in PIGLET {
        let rows: Vec<Vec<u64>> = table
            .split(" / ")
            .map(|r| r.split(' ').map(|x| x.parse().unwrap()).collect())
            .collect();
        for exact in [false, true] {
            let mut args = vec!["pig", "policy", "--piglet", "--goal", goal, "--json"];
            if exact {
                args.push("--exact");
            }
            let o = json(&args);
            let got: Vec<Vec<u64>> = o["threshold"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    r.as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_u64().unwrap())
                        .collect()
                })
                .collect();
            assert_eq!(got, rows, "goal {goal}");
            assert_eq!(o["exceptions"], Json::Array(vec![]));
            assert_eq!(o["uncertain"], Json::Array(vec![]));
        }
        // The text table: a header, then a row per score, its thresholds after the bar.
        let text = stdout(&alea(&["pig", "policy", "--piglet", "--goal", goal], b""));
        let body: Vec<Vec<u64>> = text
            .lines()
            .skip(2)
            .take(rows.len())
            .map(|l| {
                let (_, cells) = l.split_once('|').unwrap();
                cells
                    .split_whitespace()
                    .map(|x| x.parse().unwrap())
                    .collect()
            })
            .collect();
        assert_eq!(body, rows, "goal {goal}");
    }
}

#[test]
fn the_standard_policy_marks_what_is_not_a_threshold() {
    let o = json(&["pig", "policy", "--json"]);
    assert_eq!(o["goal"], 100);
    assert_eq!(o["threshold"][41][49], 22);
    assert_eq!(o["threshold"].as_array().unwrap().len(), 100);
    let exceptions = o["exceptions"].as_array().unwrap();
    let at = exceptions
        .iter()
        .find(|e| e["me"] == 41 && e["opponent"] == 49)
        .unwrap();
    assert_eq!(at["holds"], serde_json::json!([[22, 26], [28, 56]]));
    assert_eq!(o["uncertain"], Json::Array(vec![]));
    let text = stdout(&alea(&["pig", "policy"], b""));
    let row = text.lines().find(|l| l.starts_with(" 41 |")).unwrap();
    let cell = row.split_once('|').unwrap().1;
    // Column 49 of row 41: the threshold 22 marked * (holds, throws, holds again).
    let cells: Vec<&str> = cell.split_whitespace().collect();
    assert_eq!(cells[49], "22*");
    assert!(text.contains("\n  41 against 49: holds at 22-26, 28-56\n"));
}

#[test]
fn against_a_fixed_opponent() {
    let text = stdout(&alea(&["pig", "--against", "hold-at-20"], b""));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    let first: f64 = lines[0]
        .strip_prefix("moving first: ")
        .unwrap()
        .parse()
        .unwrap();
    let second: f64 = lines[1]
        .strip_prefix("moving second: ")
        .unwrap()
        .parse()
        .unwrap();
    // Better than against a best opponent, from both seats.
    assert!(first > 0.530592725273747 && second > 1.0 - 0.530592725273747);
    let o = json(&["pig", "--against", "hold-at-20", "--json"]);
    assert_eq!(o["against"], "hold-at-20");
    assert_eq!(
        format!("{:.15}", o["moving_first"].as_f64().unwrap()),
        lines[0][14..]
    );
    assert!(o["error_bound"].as_f64().unwrap() <= 1e-12);
    assert_eq!(o["states"], 1_010_000);
    let exact = json(&[
        "pig",
        "--piglet",
        "--goal",
        "5",
        "--against",
        "hold-at-2",
        "--exact",
        "--json",
    ]);
    for seat in ["moving_first", "moving_second"] {
        let q = exact[format!("{seat}_exact")].as_str().unwrap();
        let (n, d) = q.split_once('/').unwrap();
        let f = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
        assert!((exact[seat].as_f64().unwrap() - f).abs() < 1e-15);
    }
}

#[test]
fn bad_command_lines_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["pig", "--faces", "1"],
            "error: --faces: a die has 2 to 1000000 faces, not 1",
        ),
        (
            &["pig", "--goal", "0"],
            "error: --goal: the goal is 1 to 1000000, not 0",
        ),
        (&["pig", "--piglet", "--faces", "6"], "error: the argument"),
        (&["pig", "--against", "hold-at-0"], "error: invalid value"),
        (&["pig", "--against", "hold-20"], "error: invalid value"),
        (
            &["pig", "hint", "--me", "1", "--opponent", "2"],
            "error: the following required",
        ),
        (
            &["pig", "hint", "--me", "0", "--opponent", "0", "--turn", "0"],
            "error: --turn 0: a turn starts with a throw",
        ),
        (
            &["pig", "hint", "--me", "0", "--opponent", "0", "--turn", "1"],
            "error: --turn 1: no turn reaches that total",
        ),
        (
            &[
                "pig",
                "hint",
                "--faces",
                "2",
                "--me",
                "0",
                "--opponent",
                "0",
                "--turn",
                "5",
            ],
            "error: --turn 5: no turn reaches that total (with a 2-sided die a turn total is even)",
        ),
        (
            &[
                "pig",
                "hint",
                "--me",
                "100",
                "--opponent",
                "0",
                "--turn",
                "2",
            ],
            "error: --me 100: a banked score is below the goal (100)",
        ),
        (
            &[
                "pig",
                "hint",
                "--me",
                "0",
                "--opponent",
                "250",
                "--turn",
                "2",
            ],
            "error: --opponent 250:",
        ),
        (
            &[
                "pig",
                "hint",
                "--me",
                "90",
                "--opponent",
                "0",
                "--turn",
                "15",
            ],
            "error: --me 90 --turn 15: 105 reaches the goal (100)",
        ),
        (&["pig", "--goal", "-3"], "error: unexpected argument"),
        (&["pig", "--exact", "hint"], "error: "),
    ];
    for (args, expected) in cases {
        assert_fails(args, b"", 2, expected);
    }
    // Piglet reaches every total: turn 1 is fine there.
    let o = json(&[
        "pig",
        "hint",
        "--piglet",
        "--goal",
        "10",
        "--me",
        "0",
        "--opponent",
        "0",
        "--turn",
        "1",
        "--json",
    ]);
    assert_eq!(o["best"], "roll");
}

#[test]
fn guards_exit_3_naming_the_option() {
    assert_fails(
        &["pig", "--goal", "2000"],
        b"",
        3,
        "error: the goal 2000 with a 6-sided die takes",
    );
    let out = alea(&["pig", "--goal", "2000"], b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("raise --max-work"));
    assert_fails(
        &["pig", "--goal", "20", "--exact", "--max-exact-work", "1000"],
        b"",
        3,
        "error: exact arithmetic passed --max-exact-work 1000",
    );
    assert_fails(
        &["pig", "policy", "--goal", "30", "--max-work", "1000"],
        b"",
        3,
        "error: the goal 30",
    );
    assert_fails(
        &["pig", "--against", "hold-at-20", "--max-work", "1000000"],
        b"",
        3,
        "error: the goal 100 with a 6-sided die takes 6060000 steps (1010000 positions x 6 \
         outcomes, both seats)",
    );
    // Raising the limit lets the work through.
    let out = stdout(&alea(
        &[
            "pig",
            "--goal",
            "20",
            "--exact",
            "--max-exact-work",
            "100000",
        ],
        b"",
    ));
    assert_eq!(out, "15116544/24557443\n");
}
