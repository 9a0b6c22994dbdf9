//! `alea yahtzee solve | advise | simulate` as a user runs them: the published optimum,
//! a saved table read back (and refused when damaged or foreign), advice and its
//! identities, simulation against the exact mean, and every kind of bad input.

mod common;

use common::{alea, assert_fails, stdout};

use serde_json::Value as Json;

fn json(args: &[&str]) -> Json {
    serde_json::from_str(&stdout(&alea(args, b""))).unwrap()
}

/// A scratch folder for one test, removed with what it holds when the test ends.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("alea-solitaire-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn solve_prints_the_optimum_and_saves_a_table_advice_can_read() {
    let scratch = Scratch::new("table");
    let file = scratch.file("free.table");
    let o = json(&["yahtzee", "solve", "--save", &file, "--json"]);
    assert!((o["expected_score"].as_f64().unwrap() - 254.5896095).abs() < 1e-6);
    assert!((o["std_dev"].as_f64().unwrap() - 59.6117).abs() < 1e-4);
    assert_eq!(o["states"], 536_320);
    assert_eq!(o["rules"], "free-joker");
    assert!(o["seconds"].as_f64().unwrap() > 0.0);

    // The empty card at the start of a turn, from the saved table.
    let a = json(&["yahtzee", "advise", "--table", &file, "--json"]);
    assert!((a["value"].as_f64().unwrap() - 254.5896095).abs() < 1e-6);
    assert_eq!(a["options"].as_array().unwrap().len(), 0);

    // A first roll: every distinct keep, best first, losses from zero up.
    let a = json(&[
        "yahtzee",
        "advise",
        "--table",
        &file,
        "--dice",
        "3,3,5,1,6",
        "--json",
    ]);
    let options = a["options"].as_array().unwrap();
    assert_eq!(options.len(), 24); // 2 * 2 * 2 * 3 sub-multisets of {1, 3, 3, 5, 6}
    assert_eq!(options[0]["loss"], 0.0);
    assert_eq!(options[0]["value"], a["value"]);
    assert_eq!(options[0]["keep"], serde_json::json!([3, 3]));
    for w in options.windows(2) {
        assert!(w[0]["value"].as_f64() >= w[1]["value"].as_f64());
    }
    // The same advice, solved afresh instead of read.
    let fresh = json(&["yahtzee", "advise", "--dice", "3,3,5,1,6", "--json"]);
    assert_eq!(fresh, a);

    // Only chance open: 70/3 at the start of a turn.
    let card = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three-of-a-kind=0,\
                four-of-a-kind=0,full-house=0,small-straight=0,large-straight=0,yahtzee=0";
    let a = json(&[
        "yahtzee", "advise", "--table", &file, "--card", card, "--json",
    ]);
    assert!((a["value"].as_f64().unwrap() - 70.0 / 3.0).abs() < 1e-12);
    // ... and with no rolls left, the only option is worth the sum of the dice.
    let a = json(&[
        "yahtzee",
        "advise",
        "--table",
        &file,
        "--card",
        card,
        "--dice",
        "6,6,5,1,2",
        "--rolls-left",
        "0",
        "--json",
    ]);
    assert_eq!(a["value"], 20.0);
    assert_eq!(
        a["options"],
        serde_json::json!([{"box": "chance", "points": 20, "earned": 20, "value": 20.0, "loss": 0.0}])
    );

    // The text form names the card and lists the options.
    let text = stdout(&alea(
        &["yahtzee", "advise", "--table", &file, "--dice", "6,6,6,6,6"],
        b"",
    ));
    assert!(text.contains("dice: 6 6 6 6 6, 2 rolls to come"), "{text}");
    assert!(text.contains("keep all"), "{text}");

    // A table for other rules is refused when those rules are asked for.
    assert_fails(
        &["yahtzee", "advise", "--table", &file, "--rules", "no-bonus"],
        b"",
        2,
        &format!("error: {file}: a table for free-joker, but --rules no-bonus was asked for"),
    );

    // Damaged and foreign tables are refused.
    let bytes = std::fs::read(&file).unwrap();
    let damaged = scratch.file("damaged.table");
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    std::fs::write(&damaged, &flipped).unwrap();
    assert_fails(
        &["yahtzee", "advise", "--table", &damaged],
        b"",
        2,
        &format!("error: {damaged}: damaged table: the checksum does not match"),
    );
    std::fs::write(&damaged, &bytes[..bytes.len() - 8]).unwrap();
    assert_fails(
        &["yahtzee", "simulate", "--table", &damaged],
        b"",
        2,
        &format!(
            "error: {damaged}: damaged table: {} bytes; a table is {} bytes",
            bytes.len() - 8,
            bytes.len()
        ),
    );
    std::fs::write(&damaged, b"ones=3\n").unwrap();
    assert_fails(
        &["yahtzee", "advise", "--table", &damaged],
        b"",
        2,
        &format!("error: {damaged}: not an alea Yahtzee table"),
    );
    let missing = scratch.file("missing.table");
    assert_fails(
        &["yahtzee", "advise", "--table", &missing],
        b"",
        2,
        &format!("error: {missing}: cannot read"),
    );
}

#[test]
fn the_other_rules_reach_their_published_optima() {
    for (rules, published) in [
        ("forced-joker", 254.5877287),
        ("no-joker", 253.9702412),
        ("no-bonus", 245.8707745),
    ] {
        let o = json(&["yahtzee", "solve", "--rules", rules, "--json"]);
        assert_eq!(o["rules"], rules);
        assert!((o["expected_score"].as_f64().unwrap() - published).abs() < 1e-6);
    }
    let text = stdout(&alea(&["yahtzee", "solve"], b""));
    assert!(text.starts_with("rules: free-joker\nexpected score: 254.5896095\n"));
}

#[test]
fn simulation_is_seeded_and_agrees_with_the_exact_mean() {
    let run = || {
        let mut o = json(&[
            "yahtzee", "simulate", "--games", "5000", "--seed", "3", "--json",
        ]);
        o.as_object_mut().unwrap().remove("seconds");
        o.as_object_mut().unwrap().remove("play_seconds");
        o.as_object_mut().unwrap().remove("games_per_second");
        o
    };
    let o = run();
    assert_eq!(run(), o);
    assert_eq!(o["games"], 5000);
    let (lo, hi) = (
        o["interval"][0].as_f64().unwrap(),
        o["interval"][1].as_f64().unwrap(),
    );
    let exact = o["exact_mean"].as_f64().unwrap();
    assert!(lo <= exact && exact <= hi, "{o}");
    let p = &o["percentiles"];
    let keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["1", "5", "10", "25", "50", "75", "90", "95", "99"]);
    let values: Vec<u64> = keys.iter().map(|k| p[k].as_u64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] <= w[1]), "{p}");
    assert!(o["min"].as_u64() <= Some(values[0]) && Some(values[8]) <= o["max"].as_u64());
    // Another thread count, the same games.
    let mut one = json(&[
        "--threads",
        "1",
        "yahtzee",
        "simulate",
        "--games",
        "5000",
        "--seed",
        "3",
        "--json",
    ]);
    one.as_object_mut().unwrap().remove("seconds");
    one.as_object_mut().unwrap().remove("play_seconds");
    one.as_object_mut().unwrap().remove("games_per_second");
    assert_eq!(one, o);
}

#[test]
fn simulation_from_a_position_agrees_with_its_exact_value() {
    // Late in the game, two boxes open: the card's points count in the final score.
    let card = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three-of-a-kind=20,\
                four-of-a-kind=0,full-house=25,small-straight=30,large-straight=40";
    let o = json(&[
        "yahtzee", "simulate", "--games", "20000", "--card", card, "--json",
    ]);
    assert_eq!(o["card_points"], 213);
    let advice = json(&["yahtzee", "advise", "--card", card, "--json"]);
    let exact = o["exact_mean"].as_f64().unwrap();
    assert!((exact - 213.0 - advice["value"].as_f64().unwrap()).abs() < 1e-9);
    let (lo, hi) = (
        o["interval"][0].as_f64().unwrap(),
        o["interval"][1].as_f64().unwrap(),
    );
    assert!(lo <= exact && exact <= hi, "{o}");
    let sd = o["exact_std_dev"].as_f64().unwrap();
    assert!(
        (o["std_dev"].as_f64().unwrap() - sd).abs() < 0.05 * sd,
        "{o}"
    );
    // The counts are the games per final score, none below the card's points.
    let counts: Vec<u64> = o["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 20000);
    assert!(counts[..213].iter().all(|&c| c == 0));
    // Within a turn: the dice on the table and the rolls left; the exact mean is the
    // advice's value, and the table keeps no spread inside a turn.
    let o = json(&[
        "yahtzee",
        "simulate",
        "--games",
        "20000",
        "--card",
        "ones=3",
        "--dice",
        "6,6,6,2,1",
        "--rolls-left",
        "1",
        "--json",
    ]);
    let advice = json(&[
        "yahtzee",
        "advise",
        "--card",
        "ones=3",
        "--dice",
        "6,6,6,2,1",
        "--rolls-left",
        "1",
        "--json",
    ]);
    let exact = o["exact_mean"].as_f64().unwrap();
    assert!((exact - 3.0 - advice["value"].as_f64().unwrap()).abs() < 1e-9);
    let (lo, hi) = (
        o["interval"][0].as_f64().unwrap(),
        o["interval"][1].as_f64().unwrap(),
    );
    assert!(lo <= exact && exact <= hi, "{o}");
    assert!(o["exact_std_dev"].is_null());
    assert_eq!(o["dice"], serde_json::json!([1, 2, 6, 6, 6]));
    // A full card is its score: 63 in the upper boxes, the bonus 35, 135 below.
    let full = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three-of-a-kind=20,\
                four-of-a-kind=0,full-house=25,small-straight=30,large-straight=40,yahtzee=0,chance=20";
    let o = json(&[
        "yahtzee", "simulate", "--games", "10", "--card", full, "--json",
    ]);
    assert_eq!(
        (o["min"].as_u64(), o["max"].as_u64()),
        (Some(233), Some(233))
    );
}

#[test]
fn bad_positions_and_options_are_refused_before_any_work() {
    let cases: [(&[&str], &str); 11] = [
        (
            &["--card", "ones=3,fulhouse=25"],
            "error: --card:1:8: unknown box `fulhouse` (boxes: ones, twos,",
        ),
        (
            &["--card", "fives=7"],
            "error: --card:1:7: 7 is not a possible score of fives (it can hold 0, 5, 10, 15, 20, 25)",
        ),
        (
            &["--card", "full-house=20"],
            "error: --card:1:12: 20 is not a possible score of full-house (it can hold 0, 25)",
        ),
        (
            &["--card", "chance=0"],
            "error: --card:1:8: 0 is not a possible score of chance (it can hold 5 to 30)",
        ),
        (
            &["--card", "ones=2, ones=3"],
            "error: --card:1:9: ones is filled twice",
        ),
        (
            &["--card", "ones=x"],
            "error: --card:1:6: expected the score of ones as a whole number, found `x`",
        ),
        (&["--card", "ones"], "error: --card:1:1: expected `box=score`"),
        (
            &["--dice", "1,2,3,4"],
            "error: --dice:1:8: expected five dice, found 4",
        ),
        (
            &["--dice", "1,2,3,4,5,6"],
            "error: --dice:1:11: expected five dice, found more",
        ),
        (
            &["--dice", "1,2,0,4,5"],
            "error: --dice:1:5: expected a die from 1 to 6, found `0`",
        ),
        (
            &["--dice", "1,2,3,4,5", "--rolls-left", "3"],
            "error: invalid value '3' for '--rolls-left <0|1|2>'",
        ),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["yahtzee", "advise"];
        args.extend_from_slice(extra);
        assert_fails(&args, b"", 2, expected);
    }
    let full = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three-of-a-kind=0,\
                four-of-a-kind=0,full-house=0,small-straight=0,large-straight=0,yahtzee=0,\
                chance=5";
    assert_fails(
        &["yahtzee", "advise", "--card", full, "--dice", "1,2,3,4,5"],
        b"",
        2,
        "error: --card: the card is full",
    );
    assert_fails(
        &["yahtzee", "advise", "--rolls-left", "1"],
        b"",
        2,
        "error: the following required arguments were not provided:\n  --dice",
    );
    assert_fails(
        &["yahtzee", "simulate", "--games", "0"],
        b"",
        2,
        "error: invalid value '0' for '--games <GAMES>'",
    );
    assert_fails(
        &["yahtzee", "simulate", "--games", "20000000"],
        b"",
        3,
        "error: --games 20000000 is above --max-games 10000000; raise --max-games to go on",
    );
    assert_fails(
        &["yahtzee", "solve", "--rules", "house"],
        b"",
        2,
        "error: invalid value 'house' for '--rules <RULES>'",
    );
    // A full card at the start of a turn is worth nothing more.
    let a = json(&["yahtzee", "advise", "--card", full, "--json"]);
    assert_eq!(a["value"], 0.0);
    assert_eq!(a["card_points"], 63 + 35 + 5);
}

#[test]
fn a_save_path_that_cannot_be_written_is_refused_before_the_work() {
    let scratch = Scratch::new("unwritable");
    let file = scratch.file("no-such-folder/table");
    assert_fails(
        &["yahtzee", "solve", "--save", &file],
        b"",
        2,
        &format!(
            "error: --save {file}: the folder {} does not exist",
            scratch.file("no-such-folder")
        ),
    );
    let folder = scratch.file("");
    assert_fails(
        &["yahtzee", "solve", "--save", &folder],
        b"",
        2,
        &format!("error: --save {folder}: a folder; give a file name"),
    );
    // A file that happens to sit where a temporary name might be is left alone.
    let table = scratch.file("t");
    let neighbour = scratch.file("t.part");
    std::fs::write(&neighbour, b"keep me").unwrap();
    stdout(&alea(&["yahtzee", "solve", "--save", &table], b""));
    assert_eq!(std::fs::read(&neighbour).unwrap(), b"keep me");
    let names: Vec<String> = std::fs::read_dir(&scratch.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
}
