//! Judge input in any whitespace layout gives the same output, byte for byte: every
//! sample and known input, its tokens joined by random runs of spaces, tabs, CR, LF and
//! CRLF (from a fixed seed), through every judge command. Patience positions in
//! progress keep one pile per line, with any blanks around and between.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use common::{alea, assert_fails, data, stdout};

/// Re-layouts of each input.
const LAYOUTS: usize = 6;

/// A run of whitespace: one to four of space, tab, LF, CRLF or a lone CR.
fn blanks(rng: &mut ChaCha8Rng) -> String {
    let pieces = [" ", "  ", "\t", "\n", "\r\n", "\r", "\n\n"];
    (0..rng.gen_range(1..=4))
        .map(|_| pieces[rng.gen_range(0..pieces.len())])
        .collect()
}

/// `input`'s tokens laid out anew; layout 0 puts them all on one line.
fn relayout(input: &str, layout: usize, rng: &mut ChaCha8Rng) -> String {
    let tokens: Vec<&str> = input.split_ascii_whitespace().collect();
    if layout == 0 {
        return tokens.join(" ");
    }
    let mut out = if rng.gen_bool(0.5) {
        blanks(rng)
    } else {
        String::new()
    };
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            out.push_str(&blanks(rng));
        }
        out.push_str(token);
    }
    if rng.gen_bool(0.5) {
        out.push_str(&blanks(rng));
    }
    out
}

/// Every fixture input of `game` gives, in any layout, what it gives as written.
fn same_output_in_any_layout(game: &str, inputs: &[&str], flags: &[&str], seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for name in inputs {
        let input = std::fs::read_to_string(data(game, name)).unwrap();
        let mut args = vec![game];
        args.extend_from_slice(flags);
        let expected = stdout(&alea(&args, input.as_bytes()));
        assert!(!expected.is_empty());
        for layout in 0..LAYOUTS {
            let laid = relayout(&input, layout, &mut rng);
            let got = stdout(&alea(&args, laid.as_bytes()));
            assert_eq!(
                got, expected,
                "{game} {name} {flags:?} laid out as {laid:?}"
            );
        }
    }
}

#[test]
fn dice_reads_any_layout() {
    same_output_in_any_layout("dice", &["sample.in"], &[], 1);
    same_output_in_any_layout("dice", &["sample.in"], &["--exact"], 2);
}

/// The sample and the known inputs `known_1.in` to `known_{count}.in`.
fn sample_and_known(count: usize) -> Vec<String> {
    let mut names: Vec<String> = (1..=count).map(|i| format!("known_{i}.in")).collect();
    names.push("sample.in".to_string());
    names
}

#[test]
fn jenga_reads_any_layout() {
    let inputs = sample_and_known(10);
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    same_output_in_any_layout("jenga", &inputs, &[], 3);
}

#[test]
fn yahtzee_reads_any_layout() {
    same_output_in_any_layout("yahtzee", &["sample.in", "known.in"], &[], 4);
}

#[test]
fn mahjong_reads_any_layout() {
    let inputs = sample_and_known(5);
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    same_output_in_any_layout("mahjong", &inputs, &[], 5);
    same_output_in_any_layout("mahjong", &["sample.in"], &["--exact"], 6);
}

#[test]
fn patience_deals_read_in_any_layout() {
    same_output_in_any_layout("patience", &["sample.in", "known.in"], &[], 7);
    same_output_in_any_layout("patience", &["sample.in"], &["--exact"], 8);
}

#[test]
fn a_judge_deal_on_one_line_or_split_gives_the_judges_answer() {
    let sample = std::fs::read_to_string(data("patience", "sample.in")).unwrap();
    let expected = std::fs::read_to_string(data("patience", "sample.out")).unwrap();
    let one_line = sample
        .split_ascii_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    // Four cards of the first pile split over two lines.
    let (first, rest) = sample.split_once('\n').unwrap();
    let cards: Vec<&str> = first.split_ascii_whitespace().collect();
    let split = format!(
        "{} {}\n{} {}\n{rest}",
        cards[0], cards[1], cards[2], cards[3]
    );
    for input in [one_line, split] {
        for layout in ["auto", "tokens"] {
            let got = stdout(&alea(&["patience", "--layout", layout], input.as_bytes()));
            assert_eq!(got, expected, "{layout}: {input:?}");
        }
    }
}

/// A position in progress: short piles and an empty one, one pile per line.
const POSITION: &str = "AS 9S 6C\n-\n7S JD KD\nQS TS\n6D TD 8S\nQC TH KC 8D\n\
                        8C TC 7C\n9C 7H JH 7D\n8H 6S AH 6H\n";

#[test]
fn positions_in_progress_read_one_pile_per_line() {
    let expected = stdout(&alea(&["patience", "--exact"], POSITION.as_bytes()));
    assert!(expected.contains('/'), "{expected}");
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..LAYOUTS {
        // Blanks of any kind inside a line, blank lines between and around.
        let mut laid = String::new();
        for line in POSITION.lines() {
            for _ in 0..rng.gen_range(0..3) {
                laid.push_str(["\n", "\r\n", " \t\n"][rng.gen_range(0..3)]);
            }
            let cards: Vec<&str> = line.split_ascii_whitespace().collect();
            // Within a line, any blank but a line ending (a lone CR ends a line).
            laid.push_str(&[" ", "\t", "\x0c"][rng.gen_range(0..3)].repeat(rng.gen_range(0..3)));
            for (i, card) in cards.iter().enumerate() {
                if i > 0 {
                    laid.push_str([" ", "\t", " \x0b "][rng.gen_range(0..3)]);
                }
                laid.push_str(card);
            }
            laid.push_str(["\n", "\r\n", " \n"][rng.gen_range(0..3)]);
        }
        let got = stdout(&alea(&["patience", "--exact"], laid.as_bytes()));
        assert_eq!(got, expected, "{laid:?}");
        let lines = stdout(&alea(
            &["patience", "--exact", "--layout", "lines"],
            laid.as_bytes(),
        ));
        assert_eq!(lines, expected);
    }
    // Read by tokens, a position is not a deal.
    assert_fails(
        &["patience", "--layout", "tokens"],
        POSITION.as_bytes(),
        2,
        "error: <stdin>:2:1: `-` (an empty pile) is read only one pile per line",
    );
}

#[test]
fn a_short_input_names_what_is_missing() {
    let sample = std::fs::read_to_string(data("yahtzee", "sample.in")).unwrap();
    let tokens: Vec<&str> = sample.split_ascii_whitespace().collect();
    let cut = tokens[..65 + 63].join(" ");
    assert_fails(
        &["yahtzee"],
        cut.as_bytes(),
        2,
        "error: <stdin>:1:256: the input ends inside the game that starts at line 1: a \
         game needs 65 dice, the input ends after 63",
    );
    assert_fails(
        &["dice"],
        b"2 0 2 2 2 1 1 1 0 6 6",
        2,
        "error: <stdin>:1:22: the input ends inside case 2 of the 2 announced: a case is \
         `n K1 K2 K3 a b c`, 7 numbers, and it has 3",
    );
    assert_fails(
        &["jenga"],
        b"3 RGB\r\nGRG",
        2,
        "error: <stdin>:2:4: the input ends after 2 of the 3 announced levels",
    );
}

#[test]
fn a_tall_tower_is_a_question_of_resources() {
    // Forty levels of mixed colours: far more positions than the limit allows.
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let mut tower = String::from("40\n");
    for _ in 0..40 {
        let level: String = (0..3)
            .map(|_| ['R', 'G', 'B'][rng.gen_range(0..3)])
            .collect();
        tower.push_str(&level);
        tower.push('\n');
    }
    for extra in [&[][..], &["--exact"], &["--hint"]] {
        let mut args = vec!["jenga", "--max-states", "20000"];
        args.extend_from_slice(extra);
        assert_fails(
            &args,
            tower.as_bytes(),
            3,
            "error: the tower needs more than 20000 positions; raise --max-states",
        );
    }
    // Forty levels of one kind: fewer positions, but more levels of a kind than a
    // position records.
    let uniform = format!("40\n{}", "RRR\n".repeat(40));
    assert_fails(
        &["jenga"],
        uniform.as_bytes(),
        3,
        "error: the tower would come to hold more than 30 levels of one kind",
    );
    let too_tall = format!("1001\n{}", "RGB\n".repeat(1001));
    assert_fails(
        &["jenga"],
        too_tall.as_bytes(),
        2,
        "error: <stdin>:1:1: `1001` is too large for the number of levels n (at most 1000)",
    );
}
