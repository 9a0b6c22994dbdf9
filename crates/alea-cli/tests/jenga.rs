//! `alea jenga` as a user runs it: the sample and known answers, JSON, hints, exact
//! fractions, bad input and the state guard.

mod common;

use common::{alea, assert_fails, stdout};

use serde_json::Value as Json;

fn data(name: &str) -> String {
    common::data("jenga", name)
}

fn number(path: &str) -> f64 {
    std::fs::read_to_string(path)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn sample_and_known_answers() {
    let got: f64 = stdout(&alea(&["jenga", &data("sample.in")], b""))
        .trim()
        .parse()
        .unwrap();
    assert!((got - number(&data("sample.out"))).abs() < 1e-6);
    for i in 1..=10 {
        let out = stdout(&alea(&["jenga", &data(&format!("known_{i}.in"))], b""));
        let (_, decimals) = out.trim().split_once('.').unwrap();
        assert!(decimals.len() >= 12);
        let got: f64 = out.trim().parse().unwrap();
        let want = number(&data(&format!("known_{i}.out")));
        assert!((got - want).abs() < 1e-9, "known_{i}: {got} vs {want}");
    }
}

#[test]
fn json_and_exact_agree() {
    let input = std::fs::read(data("known_9.in")).unwrap();
    let o: Json = serde_json::from_str(stdout(&alea(&["jenga", "--json"], &input)).trim()).unwrap();
    let e = o["expected_minutes"].as_f64().unwrap();
    assert_eq!(o["states"], 5985);
    let exact = stdout(&alea(&["jenga", "--exact"], &input));
    let (p, q) = exact.trim().split_once('/').unwrap();
    assert!((p.parse::<f64>().unwrap() / q.parse::<f64>().unwrap() - e).abs() < 1e-12 * e);
    let both: Json =
        serde_json::from_str(stdout(&alea(&["jenga", "--json", "--exact"], &input)).trim())
            .unwrap();
    assert_eq!(
        both["expected_minutes_exact"].as_str().unwrap(),
        exact.trim()
    );
    assert_eq!(both["states"], 5985);
}

#[test]
fn hints_reproduce_the_expectation() {
    let input = std::fs::read(data("known_10.in")).unwrap();
    let o: Json =
        serde_json::from_str(stdout(&alea(&["jenga", "--hint", "--json"], &input)).trim()).unwrap();
    let e = o["expected_minutes"].as_f64().unwrap();
    let (mut sum, mut moving) = (6.0, 0.0);
    for (colour, w) in [("R", 1.0), ("G", 2.0), ("B", 2.0)] {
        let moves = o["colors"][colour].as_array().unwrap();
        for m in moves {
            assert!(m["take"]["level"].as_u64().unwrap() >= 1);
            assert!(["left", "middle", "right"].contains(&m["take"]["slot"].as_str().unwrap()));
            assert!(["left", "middle", "right"].contains(&m["place"].as_str().unwrap()));
        }
        let values: Vec<f64> = moves
            .iter()
            .map(|m| m["expected"].as_f64().unwrap())
            .collect();
        assert!(values.windows(2).all(|w| w[0] <= w[1]), "best first");
        if let Some(best) = values.first() {
            sum += w * best;
            moving += w;
        }
    }
    assert!((sum / moving - e).abs() < 1e-12 * e);
    let text = stdout(&alea(&["jenga", "--hint"], &input));
    assert!(text.starts_with("expected minutes with best play: 14.3448066595355"));
    // Levels are numbered from 1 at the bottom; the top (level 4) never gives a block.
    assert!(!text.contains("level 4"));
}

#[test]
fn bad_input_is_reported_precisely() {
    assert_fails(
        &["jenga"],
        b"2\nRGB\nRYB\n",
        2,
        "error: <stdin>:3:2: `Y` is not a colour",
    );
    assert_fails(
        &["jenga"],
        b"2\nRGB\nRGBR\n",
        2,
        "error: <stdin>:3:1: `RGBR` is not a level",
    );
    assert_fails(
        &["jenga"],
        b"3\nRGB\nRGB\n",
        2,
        "error: <stdin>:4:1: the input ends after 2 of the 3",
    );
    assert_fails(
        &["jenga"],
        b"1\nRGB\n",
        2,
        "error: <stdin>:1:1: a tower has 2 to 1000 levels",
    );
    assert_fails(&["jenga"], b"", 2, "error: <stdin>:1:1: the input is empty");
}

#[test]
fn the_state_guard_stops_with_status_3() {
    let input = std::fs::read(data("sample.in")).unwrap();
    assert_fails(
        &["jenga", "--max-states", "1000"],
        &input,
        3,
        "error: the tower needs more than 1000 positions; raise --max-states",
    );
    for extra in ["--exact", "--hint"] {
        assert_fails(
            &["jenga", "--max-states", "1000", extra],
            &input,
            3,
            "error: the tower needs more than 1000 positions and choice nodes; raise --max-states",
        );
    }
}
