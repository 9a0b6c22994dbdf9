//! Invariants across the games on random input, with fixed seeds so that CI repeats
//! itself (change a seed to explore): parsers take any bytes without panicking and read
//! every judge input the same in any whitespace layout; jenga's
//! kernel equals the engine and exact arithmetic; the judge's Yahtzee equals the
//! classic table; mahjong's three arithmetics agree; solitaire advice is ranked and
//! consistent with the table.

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use alea_core::{Exact, Value};
use alea_games::jenga::{self, parse_tower, solve_tower, Kernel, Tower};
use alea_games::mahjong::{parse_hand, Hand, Solver};
use alea_games::yahtzee::solitaire::{
    self, advise, parse_dice, Card, Choice, Dice, Player, Rules, Table, BOXES,
};
use alea_games::yahtzee::{best_assignment, best_total_by_table, parse_games, Game};
use alea_games::{dice, patience};

fn config(cases: u32, seed: u64) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| solitaire::solve(Rules::FreeJoker))
}

fn mahjong_solver() -> &'static Solver {
    static SOLVER: OnceLock<Solver> = OnceLock::new();
    SOLVER.get_or_init(Solver::new)
}

/// Bytes that look like judge input more often than noise does: digits, blanks,
/// signs, dots, letters of cards and colours, and anything else now and then.
fn judgeish() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        8 => prop::sample::select(b"0123456789".to_vec()),
        4 => prop::sample::select(b" \n\n\t\r".to_vec()),
        2 => prop::sample::select(b"+-.e6789TJQKASHDCRGB".to_vec()),
        1 => any::<u8>(),
    ];
    prop::collection::vec(byte, 0..400)
}

proptest! {
    #![proptest_config(config(400, 41))]

    #[test]
    fn parsers_take_any_bytes(bytes in judgeish()) {
        let _ = patience::parse_deals(&bytes);
        let _ = dice::parse_cases(&bytes);
        let _ = parse_tower(&bytes);
        let _ = parse_games(&bytes);
        if let Ok(hand) = parse_hand(&bytes) {
            prop_assert_eq!(hand.counts.iter().map(|&c| usize::from(c)).sum::<usize>(), 13);
            prop_assert!(hand.counts.iter().all(|&c| c <= 4));
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = Card::parse(&text, &Dice::new());
        if let Ok(d) = parse_dice(&text) {
            prop_assert_eq!(d.iter().map(|&c| u32::from(c)).sum::<u32>(), 5);
        }
    }
}

/// Every sample and known input of the judge commands, as `(game, text)`.
fn judge_inputs() -> Vec<(&'static str, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../alea-cli/tests/data");
    let mut inputs = Vec::new();
    for game in ["patience", "dice", "jenga", "yahtzee", "mahjong"] {
        let mut names: Vec<_> = std::fs::read_dir(format!("{dir}/{game}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "in"))
            .collect();
        names.sort();
        for path in names {
            inputs.push((game, std::fs::read_to_string(path).unwrap()));
        }
    }
    assert!(inputs.len() >= 20, "{} inputs", inputs.len());
    inputs
}

/// What a parser makes of `text`, as a string to compare.
fn parsed(game: &str, text: &[u8]) -> String {
    match game {
        "patience" => format!("{:?}", patience::parse_deals(text)),
        "dice" => format!("{:?}", dice::parse_cases(text)),
        "jenga" => format!("{:?}", parse_tower(text)),
        "yahtzee" => format!("{:?}", parse_games(text)),
        _ => format!("{:?}", parse_hand(text)),
    }
}

proptest! {
    #![proptest_config(config(300, 61))]

    /// The judges read whitespace-separated tokens: any runs of spaces, tabs, CR and LF
    /// between them read the same.
    #[test]
    fn judge_inputs_read_the_same_in_any_layout(
        which in 0usize..1000,
        runs in prop::collection::vec(
            prop::collection::vec(prop::sample::select(vec![" ", "\t", "\n", "\r\n", "\r"]), 1..4),
            600,
        ),
    ) {
        let inputs = judge_inputs();
        let (game, text) = &inputs[which % inputs.len()];
        let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
        prop_assert!(tokens.len() < runs.len());
        let mut laid = runs[0].concat();
        for (token, run) in tokens.iter().zip(&runs[1..]) {
            laid.push_str(token);
            laid.push_str(&run.concat());
        }
        let expected = parsed(game, text.as_bytes());
        prop_assert!(expected.starts_with("Ok("), "{}", expected);
        prop_assert_eq!(parsed(game, laid.as_bytes()), expected, "{}: {:?}", game, laid);
    }
}

fn tower() -> impl Strategy<Value = Tower> {
    prop::collection::vec(prop::array::uniform3(0u8..3), 2..=4).prop_map(|levels| Tower { levels })
}

proptest! {
    #![proptest_config(config(24, 43))]

    #[test]
    fn jenga_kernel_engine_and_exact_agree(tower in tower()) {
        let (kernel, _) = Kernel::new(1_000_000).expected(&tower).unwrap();
        let engine = solve_tower::<f64>(&tower, 1_000_000).unwrap();
        prop_assert_eq!(kernel, *engine.expected());
        let exact = solve_tower::<Exact>(&tower, 1_000_000).unwrap();
        prop_assert!((exact.expected().to_f64() - kernel).abs() <= 1e-12 * kernel.max(1.0));
        prop_assert!(kernel >= 0.0);
        // Each colour's moves come best (fewest minutes left) first.
        for moves in jenga::advise(&tower, &engine) {
            for w in moves.windows(2) {
                prop_assert!(w[0].expected <= w[1].expected);
            }
        }
    }
}

fn game() -> impl Strategy<Value = Game> {
    prop::array::uniform13(prop::array::uniform5(1u8..=6))
}

proptest! {
    #![proptest_config(config(16, 47))]

    #[test]
    fn yahtzee_split_equals_the_classic_table(game in game(), strict in any::<bool>()) {
        let a = best_assignment(&game, strict);
        prop_assert_eq!(a.total, best_total_by_table(&game, strict));
        prop_assert_eq!(a.total, a.scores.iter().sum::<u32>() + a.bonus);
    }
}

fn hand() -> impl Strategy<Value = Hand> {
    (5usize..=16)
        .prop_flat_map(|n| {
            (
                Just(n),
                prop::sample::subsequence((0..4 * n).collect::<Vec<_>>(), 13),
            )
        })
        .prop_map(|(n, tiles)| {
            let mut counts = vec![0u8; n];
            for t in tiles {
                counts[t / 4] += 1;
            }
            Hand { counts }
        })
}

proptest! {
    #![proptest_config(config(32, 53))]

    #[test]
    fn mahjong_arithmetics_agree(hand in hand()) {
        let solver = mahjong_solver();
        let exact = solver.expected_exact(&hand);
        let p = num_bigint::BigInt::from(alea_core::JUDGE_PRIME);
        let inverse = (exact.denom() % &p).modpow(&(&p - 2u32), &p);
        let residue = exact.numer() % &p * inverse % &p;
        prop_assert_eq!(residue.to_string(), solver.expected_mod_p(&hand).to_string());
        let p_not_won = solver.p_not_won(&hand);
        prop_assert_eq!(p_not_won[0], 1.0);
        let sum: f64 = p_not_won.iter().sum();
        prop_assert!((sum - exact.to_f64()).abs() <= 1e-12 * sum);
        // A 14-tile hand wins or not: one draw never makes the chance of waiting grow.
        for w in p_not_won.windows(2) {
            prop_assert!(w[1] <= w[0] * (1.0 + 1e-14));
        }
    }
}

/// A card with some boxes filled with scores they can hold, and dice.
fn position() -> impl Strategy<Value = (Card, [u8; 5], usize)> {
    (
        prop::collection::vec((any::<bool>(), any::<prop::sample::Index>()), 13),
        prop::array::uniform5(1u8..=6),
        0usize..=2,
    )
        .prop_map(|(boxes, dice, rolls_left)| {
            let all = Dice::new();
            let mut card = Card::default();
            for (b, (filled, pick)) in boxes.into_iter().enumerate() {
                let scores: Vec<u32> = solitaire::advise::possible_scores(&all, b)
                    .into_iter()
                    .collect();
                if filled {
                    card.scores[b] = Some(*pick.get(&scores));
                }
            }
            // Leave at least one box open.
            card.scores[12] = None;
            (card, dice, rolls_left)
        })
}

proptest! {
    #![proptest_config(config(48, 59))]

    #[test]
    fn solitaire_advice_is_ranked_and_consistent(
        (card, dice, rolls_left) in position()
    ) {
        let player = Player::new(table());
        let text: Vec<String> = dice.iter().map(u8::to_string).collect();
        let counts = parse_dice(&text.join(",")).unwrap();
        let advice = advise(&player, &card, Some((counts, rolls_left))).unwrap();
        prop_assert!(!advice.options.is_empty());
        prop_assert_eq!(advice.options[0].value, advice.value);
        prop_assert_eq!(advice.options[0].loss, 0.0);
        for w in advice.options.windows(2) {
            prop_assert!(w[0].value >= w[1].value && w[1].loss >= 0.0);
        }
        let at = card.position();
        for o in &advice.options {
            match &o.choice {
                Choice::Score(b) => {
                    // The box's points now, then the table's value of what follows.
                    prop_assert_eq!(rolls_left, 0);
                    prop_assert!(card.scores[b.index].is_none(), "{}", BOXES[b.index]);
                    let mut next = card.clone();
                    next.scores[b.index] = Some(b.points);
                    let future = if next.is_full() { 0.0 } else { table().get(next.position()).mean };
                    prop_assert!((o.value - (f64::from(b.earned) + future)).abs() < 1e-9);
                }
                Choice::Keep(kept) => {
                    prop_assert!(rolls_left > 0);
                    prop_assert!(kept.len() <= 5);
                }
            }
        }
        // At the start of the turn, the table's value.
        let start = advise(&player, &card, None).unwrap().value;
        prop_assert!((start - table().get(at).mean).abs() < 1e-12);
    }
}
