//! `alea yahtzee` as a user runs it: the sample checked for validity and optimality (any
//! optimal line is accepted when totals tie), the known totals, JSON, the full-house
//! rule, determinism, and bad input.

mod common;

use common::{alea, stdout};

use alea_games::yahtzee::{best_total_by_table, parse_games, score, Game, ROUNDS};
use serde_json::Value as Json;

fn data(name: &str) -> String {
    common::data("yahtzee", name)
}

/// Checks one printed line against its game: fifteen numbers; the thirteen scores come
/// from a one-to-one assignment of rounds (tried by matching, since any optimal line is
/// accepted); the bonus is 35 exactly when the upper section reaches 63; the total adds
/// up and is the optimum.
fn check_line(line: &str, game: &Game, strict: bool) {
    let numbers: Vec<u32> = line.split(' ').map(|n| n.parse().unwrap()).collect();
    assert_eq!(numbers.len(), 15, "{line}");
    let (scores, bonus, total) = (&numbers[..13], numbers[13], numbers[14]);
    // Some one-to-one assignment of rounds gives exactly these scores.
    fn place(c: usize, used: u16, scores: &[u32], game: &Game, strict: bool) -> bool {
        c == ROUNDS
            || (0..ROUNDS).any(|r| {
                used & (1 << r) == 0
                    && score(c, &game[r], strict) == scores[c]
                    && place(c + 1, used | (1 << r), scores, game, strict)
            })
    }
    assert!(
        place(0, 0, scores, game, strict),
        "no assignment gives {line}"
    );
    let upper: u32 = scores[..6].iter().sum();
    assert_eq!(bonus, if upper >= 63 { 35 } else { 0 }, "{line}");
    assert_eq!(total, scores.iter().sum::<u32>() + bonus, "{line}");
    assert_eq!(
        total,
        best_total_by_table(game, strict),
        "{line} is not optimal"
    );
}

#[test]
fn sample_lines_are_valid_and_optimal() {
    let input = std::fs::read(data("sample.in")).unwrap();
    let games = parse_games(&input).unwrap();
    let out = stdout(&alea(&["yahtzee", &data("sample.in")], b""));
    assert_eq!(out.lines().count(), games.len());
    for (line, game) in out.lines().zip(&games) {
        check_line(line, game, false);
    }
    // The first game has a single optimal line.
    assert_eq!(
        out.lines().next().unwrap(),
        "1 2 3 4 5 0 15 0 0 0 25 35 0 0 90"
    );
}

#[test]
fn known_totals() {
    let input = std::fs::read(data("known.in")).unwrap();
    let games = parse_games(&input).unwrap();
    let out = stdout(&alea(&["yahtzee"], &input));
    let totals = std::fs::read_to_string(data("known_totals.out")).unwrap();
    for ((line, game), want) in out.lines().zip(&games).zip(totals.lines()) {
        check_line(line, game, false);
        assert_eq!(line.rsplit(' ').next().unwrap(), want);
    }
}

#[test]
fn strict_full_house_and_json() {
    // Five sixes in every round: as a full house they score 40 unless strict.
    let input = "6 6 6 6 6\n".repeat(13);
    let games = parse_games(input.as_bytes()).unwrap();
    for strict in [false, true] {
        let args: &[&str] = if strict {
            &["yahtzee", "--strict-full-house"]
        } else {
            &["yahtzee"]
        };
        let line = stdout(&alea(args, input.as_bytes()));
        check_line(line.trim(), &games[0], strict);
        let full_house: u32 = line.split(' ').nth(12).unwrap().parse().unwrap();
        assert_eq!(full_house, if strict { 0 } else { 40 });
    }
    let o: Json = serde_json::from_str(
        stdout(&alea(
            &["yahtzee", "--json"],
            &std::fs::read(data("sample.in")).unwrap(),
        ))
        .lines()
        .nth(1)
        .unwrap(),
    )
    .unwrap();
    assert_eq!(o["total"], 327);
    assert_eq!(o["bonus"], 35);
    let mut rounds: Vec<u64> = o["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=13).collect::<Vec<u64>>());
    assert_eq!(o["scores"].as_array().unwrap().len(), 13);
}

#[test]
fn the_same_line_whatever_the_thread_count() {
    let mut text = String::new();
    let mut state = 12345u64;
    for _ in 0..200 * 13 {
        let dice: Vec<String> = (0..5)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 33) % 6 + 1).to_string()
            })
            .collect();
        text.push_str(&dice.join(" "));
        text.push('\n');
    }
    let one = stdout(&alea(&["--threads", "1", "yahtzee"], text.as_bytes()));
    let two = stdout(&alea(&["--threads", "2", "yahtzee"], text.as_bytes()));
    assert_eq!(one, two);
    assert_eq!(one.lines().count(), 200);
}

fn assert_fails(stdin: &[u8], expected: &str) {
    common::assert_fails(&["yahtzee"], stdin, 2, expected);
}

#[test]
fn bad_input_is_reported_precisely() {
    assert_fails(b"1 2 3 4 7\n", "error: <stdin>:1:9: `7` is not a die");
    assert_fails(
        b"1 2 3 4\n",
        "error: <stdin>:2:1: the input ends inside the game that starts at line 1: a game \
         needs 65 dice, the input ends after 4",
    );
    assert_fails(
        b"1 2 3 4 5\n",
        "error: <stdin>:2:1: the input ends inside the game that starts at line 1",
    );
    let good = "1 2 3 4 5\n".repeat(13);
    assert_fails(
        format!("{good}1 2 x 4 5\n").as_bytes(),
        "error: <stdin>:14:5: `x` is not a die",
    );
}
