//! `alea snakes` as a user runs it: the classic board's published value, board files in
//! any layout, JSON with the distribution, precise errors, and resource guards.

mod common;

use common::{alea, assert_fails, stdout};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value as Json;

/// The classic board as a file, in the repository's examples.
const CLASSIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/snakes.txt");
/// Its expected number of spins, as published (Althoen, King and Schilling, 1993).
const PUBLISHED: &str = "39.225122308234960\n";
const CLASSIC_EXACT: &str = "225837582538403273407117496273279920181931269186581786048583/\
                             5757472998140039232950575874628786131130999406013041613400\n";

#[test]
fn the_classic_board_gives_the_published_value() {
    assert_eq!(stdout(&alea(&["snakes"], b"")), PUBLISHED);
    assert_eq!(
        stdout(&alea(&["snakes", "--board", "classic"], b"")),
        PUBLISHED
    );
    assert_eq!(stdout(&alea(&["snakes", CLASSIC], b"")), PUBLISHED);
    let file = std::fs::read(CLASSIC).unwrap();
    assert_eq!(stdout(&alea(&["snakes", "-"], &file)), PUBLISHED);
    assert_eq!(stdout(&alea(&["snakes", "--exact"], b"")), CLASSIC_EXACT);
    assert_eq!(
        stdout(&alea(&["snakes", "--exact", CLASSIC], b"")),
        CLASSIC_EXACT
    );
}

#[test]
fn overshoot_rules_and_spinners() {
    let run = |args: &[&str]| stdout(&alea(&[&["snakes"], args].concat(), b""));
    assert_eq!(run(&["--overshoot", "stay"]), PUBLISHED);
    assert_eq!(run(&["--overshoot", "bounce"]), "43.324597441726594\n");
    assert_eq!(run(&["--overshoot", "finish"]), "35.834938413695473\n");
    // A larger spinner gets there sooner; the fraction matches the decimal.
    let decimal: f64 = run(&["--spinner", "10"]).trim().parse().unwrap();
    let exact = run(&["--spinner", "10", "--exact"]);
    let (p, q) = exact.trim().split_once('/').unwrap();
    let value = p.parse::<f64>().unwrap() / q.parse::<f64>().unwrap();
    assert!((decimal - value).abs() < 1e-12 * value);
    assert!(decimal < 39.0);
}

#[test]
fn json_with_the_distribution() {
    let args = ["snakes", "--json", "--exact", "--distribution", "3000"];
    let o: Json = serde_json::from_str(stdout(&alea(&args, b"")).trim()).unwrap();
    let e = o["expected_spins"].as_f64().unwrap();
    assert_eq!(e, 39.225_122_308_234_96);
    assert_eq!(
        o["expected_spins_exact"].as_str().unwrap(),
        CLASSIC_EXACT.trim()
    );
    assert_eq!(o["squares"], 100);
    assert_eq!(o["spinner"], 6);
    assert_eq!(o["overshoot"], "stay");
    let d: Vec<f64> = o["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .collect();
    assert_eq!(d.len(), 3000);
    // Seven spins at the least.
    assert!(d[..6].iter().all(|&p| p == 0.0) && d[6] > 0.0);
    assert!(d.windows(2).all(|w| w[0] <= w[1]) && d[2999] <= 1.0);
    let sum = 1.0 + d.iter().map(|p| 1.0 - p).sum::<f64>();
    assert!((sum - e).abs() < 1e-9 * e, "{sum}");
    // Without --exact, no fraction.
    let o: Json = serde_json::from_str(stdout(&alea(&["snakes", "--json"], b"")).trim()).unwrap();
    assert!(o.get("expected_spins_exact").is_none());
    assert!(o.get("distribution").is_none());
    assert_eq!(o["expected_spins"].as_f64().unwrap(), e);
}

/// A run of whitespace, or a comment: what may separate two words of a board.
fn blanks(rng: &mut ChaCha8Rng) -> String {
    let pieces = [
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\n\n",
        " # a comment\n",
    ];
    (0..rng.gen_range(1..=4))
        .map(|_| pieces[rng.gen_range(0..pieces.len())])
        .collect()
}

#[test]
fn any_layout_gives_the_same_answer() {
    let text = std::fs::read_to_string(CLASSIC).unwrap();
    let words: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap())
        .flat_map(str::split_ascii_whitespace)
        .collect();
    assert_eq!(words.len(), 1 + 3 * 19);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for layout in 0..8 {
        let laid = if layout == 0 {
            words.join(" ")
        } else {
            let mut s = blanks(&mut rng);
            for w in &words {
                s.push_str(w);
                s.push_str(&blanks(&mut rng));
            }
            s
        };
        for flags in [&[][..], &["--exact"], &["--overshoot", "bounce"]] {
            let args = [&["snakes", "-"][..], flags].concat();
            let want = stdout(&alea(&[&["snakes"][..], flags].concat(), b""));
            assert_eq!(stdout(&alea(&args, laid.as_bytes())), want, "{laid:?}");
        }
    }
}

#[test]
fn bad_boards_are_reported_precisely() {
    let cases: [(&str, &str); 12] = [
        (
            "",
            "error: <stdin>:1:1: the board is empty; expected the number of squares N, then \
             `ladder FROM TO` and `snake FROM TO` entries",
        ),
        (
            "1",
            "error: <stdin>:1:1: a board of 1 square; a board has 2 to 10000 squares",
        ),
        (
            "# big\n20000\n",
            "error: <stdin>:2:1: `20000` is too large for the number of squares N (at most 10000)",
        ),
        (
            "10\nladder 2 7\nsnak 9 4\n",
            "error: <stdin>:3:1: `snak` is neither `ladder` nor `snake`; expected `ladder FROM \
             TO` or `snake FROM TO`",
        ),
        (
            "10\nladder 2 7\nsnake 9",
            "error: <stdin>:3:8: the input ends inside `snake 9`; expected TO, the square the \
             snake ends on",
        ),
        (
            "10\nladder 2 11\n",
            "error: <stdin>:2:10: `11` is not a square of the board; expected TO, the square \
             the ladder ends on, from 1 to 10",
        ),
        (
            "10\nladder 2 x7\n",
            "error: <stdin>:2:10: `x7` is not a whole number; expected TO",
        ),
        (
            "10\n\tsnake 3 8\n",
            "error: <stdin>:2:2: `snake 3 8` goes up; a snake goes down, FROM above TO",
        ),
        (
            "10 ladder 9 10 snake 10 1",
            "error: <stdin>:1:22: `snake 10 1` starts on the last square",
        ),
        (
            "10\nladder 2 7\nsnake 2 1\n",
            "error: <stdin>:3:7: `snake 2 1` starts on square 2, where `ladder 2 7` starts \
             already; a square starts at most one snake or ladder (`ladder 2 7` is at 2:1)",
        ),
        (
            "10\nladder 2 7\nsnake 7 1\n",
            "error: <stdin>:2:10: `ladder 2 7` ends on square 7, where `snake 7 1` starts; \
             chains are not allowed",
        ),
        (
            "# the six squares before the last are snakes\n\n  10\n\
             snake 4 1 snake 5 1 snake 6 1 snake 7 1 snake 8 1 snake 9 1\n",
            "error: <stdin>:3:3: no sequence of spins leads from the start to the last square \
             10, so the expected number of spins is infinite",
        ),
    ];
    for (input, expected) in cases {
        assert_fails(&["snakes", "-"], input.as_bytes(), 2, expected);
    }
    // A file is named by its path.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.txt");
    std::fs::write(&path, "10\nladder 7 2\n").unwrap();
    let name = path.to_str().unwrap();
    assert_fails(
        &["snakes", name],
        b"",
        2,
        &format!("error: {name}:2:1: `ladder 7 2` goes down; a ladder goes up, FROM below TO"),
    );
    assert_fails(
        &["snakes", "no/such/board.txt"],
        b"",
        2,
        "error: no/such/board.txt: cannot read",
    );
}

#[test]
fn boards_that_never_end_under_one_rule_only() {
    // The ladders from the first six squares lead to 18 and 19; only a bounce off the
    // end reaches 17, whose snake leads to 7, from where every spin lands on a snake
    // back to 7.
    let mut board = String::from("20\n");
    for s in 1..=6 {
        board.push_str(&format!("ladder {s} {}\n", 18 + s % 2));
    }
    for s in 8..=13 {
        board.push_str(&format!("snake {s} 7\n"));
    }
    board.push_str("snake 17 7\n");
    let input = board.as_bytes();
    // Staying put: one spin to 18 or 19, then six more on average from either.
    assert_eq!(
        stdout(&alea(&["snakes", "-"], input)),
        "7.000000000000000\n"
    );
    // Finishing on an overshoot: from 19 one spin, from 18 one and a sixth.
    assert_eq!(
        stdout(&alea(
            &["snakes", "-", "--overshoot", "finish", "--exact"],
            input
        )),
        "25/12\n"
    );
    assert_fails(
        &["snakes", "-", "--overshoot", "bounce"],
        input,
        2,
        "error: <stdin>:1:1: the counter can reach square 7, from which no sequence of spins \
         leads to the last square 20, so the game may never end and the expected number of \
         spins is infinite",
    );
}

#[test]
fn bad_command_lines() {
    assert_fails(
        &["snakes", CLASSIC, "--board", "classic"],
        b"",
        2,
        "error: the argument '[FILE]' cannot be used with '--board <BOARD>'",
    );
    assert_fails(
        &["snakes", "--spinner", "1"],
        b"",
        2,
        "error: invalid value '1'",
    );
    assert_fails(
        &["snakes", "--spinner", "101"],
        b"",
        2,
        "error: invalid value '101'",
    );
    assert_fails(
        &["snakes", "--overshoot", "wrap"],
        b"",
        2,
        "error: invalid value 'wrap'",
    );
    assert_fails(
        &["snakes", "--board", "tiny"],
        b"",
        2,
        "error: invalid value 'tiny'",
    );
    assert_fails(
        &["snakes", "--distribution", "5"],
        b"",
        2,
        "error: the following required arguments were not provided:\n  --json",
    );
    assert_fails(
        &["snakes", "-", "--overshoot", "bounce", "--spinner", "8"],
        b"5",
        2,
        "error: a spinner of 8 faces could bounce back past the start of a board of 5 squares",
    );
}

#[test]
fn resource_guards_stop_with_status_3() {
    assert_fails(
        &["snakes", "--json", "--distribution", "10000000"],
        b"",
        3,
        "error: --distribution 10000000 would take 6000000000 steps (10000000 spins x 100 \
         squares x 6 faces), above --max-distribution-work 2000000000; raise it",
    );
    assert_fails(
        &[
            "snakes",
            "--json",
            "--distribution",
            "1000000",
            "--max-distribution-mib",
            "10",
        ],
        b"",
        3,
        "error: --distribution 1000000 needs about 31 MiB, above --max-distribution-mib 10",
    );
    assert_fails(
        &["snakes", "--exact", "--max-exact-work", "1000"],
        b"",
        3,
        "error: exact arithmetic for this board would take about 167584 units of work, above \
         --max-exact-work 1000; raise --max-exact-work",
    );
    // Over the exact limit the decimal comes from floating point: the same value, the
    // last digits of f64.
    let float = stdout(&alea(&["snakes", "--max-exact-work", "1000"], b""));
    assert!(float.starts_with("39.2251223082349"), "{float}");
    // A game whose expectation is beyond the range of f64 (2^-1066 is the chance of
    // getting through 533 snakes in a row) needs exact arithmetic.
    let mut board = String::from("1600\n");
    for s in (3..1600).step_by(3) {
        board.push_str(&format!("snake {s} 1\n"));
    }
    assert_fails(
        &["snakes", "-", "--spinner", "2"],
        board.as_bytes(),
        3,
        "error: the expected number of spins is beyond the range of floating point, and \
         exact arithmetic would take about",
    );
}

#[test]
fn help_describes_the_board_file() {
    // Help may be wrapped to the terminal's width: compare with the blanks folded.
    let help = stdout(&alea(&["snakes", "--help"], b""));
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for words in [
        "Input: a board file",
        "`ladder FROM TO`",
        "`snake FROM TO`",
        "`#` starts a comment",
        "chains are refused",
        "--overshoot",
        "Exit status:",
    ] {
        assert!(help.contains(words), "{words}");
    }
}
