//! `alea mahjong` as a user runs it: the sample and the known answers byte for byte,
//! through a file and standard input, exact fractions, JSON, large hands, bad input.

mod common;

use common::{alea, assert_fails, stdout};

use serde_json::Value as Json;

fn data(name: &str) -> String {
    common::data("mahjong", name)
}

#[test]
fn sample_and_known_answers_byte_for_byte() {
    for name in [
        "sample", "known_1", "known_2", "known_3", "known_4", "known_5",
    ] {
        let want = std::fs::read_to_string(data(&format!("{name}.out"))).unwrap();
        let path = data(&format!("{name}.in"));
        assert_eq!(stdout(&alea(&["mahjong", &path], b"")), want, "{name}");
        let input = std::fs::read(&path).unwrap();
        assert_eq!(stdout(&alea(&["mahjong", "-"], &input)), want, "{name}");
    }
}

#[test]
fn exact_fractions_and_json() {
    for (name, fraction) in [
        ("known_1", "1/1"),
        ("known_2", "9/7"),
        ("known_3", "104/55"),
        ("known_4", "15/11"),
        ("known_5", "73/35"),
    ] {
        let path = data(&format!("{name}.in"));
        let exact = stdout(&alea(&["mahjong", "--exact", &path], b""));
        assert_eq!(exact, format!("{fraction}\n"));
        let o: Json = serde_json::from_str(&stdout(&alea(
            &["mahjong", "--json", "--exact", &path],
            b"",
        )))
        .unwrap();
        assert_eq!(o["expected_draws_exact"], fraction);
        let judge = std::fs::read_to_string(data(&format!("{name}.out"))).unwrap();
        assert_eq!(o["expected_draws_mod_p"].to_string(), judge.trim());
        let (p, q) = fraction.split_once('/').unwrap();
        let value = p.parse::<f64>().unwrap() / q.parse::<f64>().unwrap();
        assert!((o["expected_draws"].as_f64().unwrap() - value).abs() < 1e-12);
        let n = o["ranks"].as_u64().unwrap() as usize;
        let p_not_won = o["p_not_won"].as_array().unwrap();
        assert_eq!(p_not_won.len(), 4 * n - 13 + 1);
        let sum: f64 = p_not_won.iter().map(|p| p.as_f64().unwrap()).sum();
        assert!((sum - value).abs() < 1e-12);
        assert_eq!(o["automaton_states"]["explored"], 2092);
        assert_eq!(o["automaton_states"]["minimal"], 567);
    }
}

/// A hand over `n` ranks: ranks 1 to 13 once each, the first copy.
fn spread_hand(n: usize) -> String {
    let mut text = format!("{n}\n");
    for w in 1..=13 {
        text.push_str(&format!("{} 1\n", w * n / 14 + 1));
    }
    text
}

#[test]
fn hands_over_hundreds_of_ranks() {
    for n in [100, 400] {
        let input = spread_hand(n);
        let o: Json =
            serde_json::from_str(&stdout(&alea(&["mahjong", "--json"], input.as_bytes()))).unwrap();
        let e = o["expected_draws"].as_f64().unwrap();
        assert!(e > 1.0 && e < (4 * n - 13) as f64, "{n}: {e}");
        let plain = stdout(&alea(&["mahjong"], input.as_bytes()));
        assert_eq!(plain.trim(), o["expected_draws_mod_p"].to_string());
    }
}

#[test]
fn bad_input_is_refused_precisely() {
    let sample = std::fs::read_to_string(data("sample.in")).unwrap();
    let cases = [
        ("4\n".to_string(), "<stdin>:1:1: n = 4 is too small"),
        (
            "1001\n".to_string(),
            "<stdin>:1:1: `1001` is too large for the number of ranks n",
        ),
        (
            sample.replacen("5 1", "10 1", 1),
            "<stdin>:8:1: `10` is too large for a rank from 1 to n = 9 (at most 9)",
        ),
        (
            sample.replacen("5 1", "5 0", 1),
            "<stdin>:8:3: copy 0 is outside 1 to 4",
        ),
        (
            sample.replacen("5 1", "1 1", 1),
            "<stdin>:8:1: tile `1 1` is listed twice (first at line 2, column 1)",
        ),
        (
            sample.replacen("9 3\n", "", 1),
            "<stdin>:14:1: the input ends inside the hand: it needs 13 tiles `w t` (26 \
             numbers after n), the input ends after 24",
        ),
        (
            format!("{sample}2 2\n"),
            "<stdin>:15:1: a hand is 13 tiles, but more follows: `2`",
        ),
        (String::new(), "<stdin>:1:1: the input is empty"),
    ];
    for (input, expected) in cases {
        assert_fails(
            &["mahjong"],
            input.as_bytes(),
            2,
            &format!("error: {expected}"),
        );
        assert_fails(
            &["mahjong", "--json", "--exact"],
            input.as_bytes(),
            2,
            &format!("error: {expected}"),
        );
    }
    assert_fails(
        &["mahjong", "no-such-file.in"],
        b"",
        2,
        "error: no-such-file.in: cannot read",
    );
}
