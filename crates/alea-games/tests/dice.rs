//! The One Person Game checked against independent sources: the textbook recurrence in
//! exact rationals, the engine against the one-pass kernel, the
//! distribution against the expectation, and simulation against exact values.

use alea_core::{fraction, simulate, Exact, Player, Value};
use alea_games::dice::{
    expected_throws, expected_throws_exact, over_within, solve_expected, DiceModel, Game,
};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The textbook solution, by brute enumeration of every face combination rather than
/// the sum distribution: `E_c = A_c + B_c E_0`, with
/// `A_c = 1 + sum p A_{c+s}`, `B_c = p_reset + sum p B_{c+s}`, `E_0 = A_0 / (1 - B_0)`.
fn textbook(game: &Game) -> Exact {
    let mut outcomes: Vec<Vec<u32>> = vec![vec![]];
    for &k in &game.faces {
        outcomes = outcomes
            .into_iter()
            .flat_map(|o| {
                (1..=k).map(move |f| {
                    let mut o = o.clone();
                    o.push(f);
                    o
                })
            })
            .collect();
    }
    let p = Exact::from_ratio(1, outcomes.len() as u64);
    let n = game.limit as usize;
    let mut a = vec![Exact::zero(); n + 2];
    let mut b = vec![Exact::zero(); n + 2];
    for c in (0..=n).rev() {
        let (mut ac, mut bc) = (Exact::one(), Exact::zero());
        for o in &outcomes {
            if game.resets.contains(o) {
                bc = bc.add(&p);
                continue;
            }
            let next = c + o.iter().sum::<u32>() as usize;
            if next <= n {
                ac = ac.add(&p.mul(&a[next]));
                bc = bc.add(&p.mul(&b[next]));
            }
        }
        a[c] = ac;
        b[c] = bc;
    }
    a[0].div(&Exact::one().sub(&b[0]))
}

fn random_game(rng: &mut ChaCha8Rng, max_limit: u64) -> Game {
    let dice = rng.gen_range(1..=3);
    let faces: Vec<u32> = (0..dice).map(|_| rng.gen_range(2..=6)).collect();
    let resets = (0..rng.gen_range(0..=3))
        .map(|_| faces.iter().map(|&k| rng.gen_range(1..=k)).collect())
        .collect();
    let limit = rng.gen_range(0..=max_limit);
    // A game whose every outcome resets is refused; draw again.
    Game::new(faces, resets, limit).unwrap_or_else(|_| random_game(rng, max_limit))
}

#[test]
fn the_samples_exactly() {
    for (k, want) in [(2, "8/7"), (6, "216/215")] {
        let game = Game::new(vec![k; 3], vec![vec![1, 1, 1]], 0).unwrap();
        let (q, _) = solve_expected::<Exact>(&game).unwrap();
        assert_eq!(fraction(&q), want);
        assert_eq!(fraction(&expected_throws_exact(&game.throw(), 0)), want);
        assert_eq!(fraction(&textbook(&game)), want);
    }
}

#[test]
fn the_engine_agrees_with_the_textbook_recurrence() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for _ in 0..150 {
        let game = random_game(&mut rng, 40);
        let (engine, states) = solve_expected::<Exact>(&game).unwrap();
        assert_eq!(fraction(&engine), fraction(&textbook(&game)), "{game:?}");
        // The integer kernel to the last digit.
        let integer = expected_throws_exact(&game.throw(), game.limit);
        assert_eq!(fraction(&integer), fraction(&engine), "{game:?}");
        assert!(states as u64 <= game.limit + 2);
        // The kernel in f64 to 1e-12.
        let fast = expected_throws(&game.throw(), game.limit);
        assert!(fast.trusted());
        let want = engine.to_f64();
        assert!((fast.expected - want).abs() <= 1e-12 * want, "{game:?}");
        // And the engine in f64.
        let (float, _) = solve_expected::<f64>(&game).unwrap();
        assert!((float - want).abs() <= 1e-12 * want, "{game:?}");
    }
}

#[test]
fn the_judges_largest_answer_keeps_its_digits() {
    // n = 500 with three two-faced dice: about 1.2e7 throws.
    let game = Game::new(vec![2, 2, 2], vec![vec![1, 1, 1]], 500).unwrap();
    let (exact, _) = solve_expected::<Exact>(&game).unwrap();
    assert_eq!(expected_throws_exact(&game.throw(), game.limit), exact);
    let fast = expected_throws(&game.throw(), game.limit);
    let want = exact.to_f64();
    assert!(want > 1.2e7 && want < 1.21e7, "{want}");
    assert!((fast.expected - want).abs() / want < 1e-13);
}

#[test]
fn expectations_beyond_f64_are_detected() {
    // One coin, reset on heads: k tails in a row are needed, E = 2^(k+1) - 2.
    let game = Game::new(vec![2], vec![vec![1]], 2200).unwrap();
    let fast = expected_throws(&game.throw(), game.limit);
    assert!(!fast.trusted());
    let (exact, _) = solve_expected::<Exact>(&game).unwrap();
    let k = 1101u32;
    let want = num_bigint::BigInt::from(2).pow(k + 1) - 2;
    assert_eq!(fraction(&exact), format!("{want}/1"));
    // Just inside the range of f64, the kernel is still right.
    let game = Game::new(vec![2], vec![vec![1]], 2000).unwrap();
    let fast = expected_throws(&game.throw(), game.limit);
    assert!(fast.trusted());
    let want = 2f64.powi(1002) - 2.0;
    assert!((fast.expected - want).abs() / want < 1e-12);
}

#[test]
fn the_distribution_sums_to_the_expectation() {
    // E = sum over t >= 0 of P(T > t) = sum (1 - P(T <= t)).
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..40 {
        let game = random_game(&mut rng, 30);
        let e = expected_throws(&game.throw(), game.limit).expected;
        let over = over_within(&game.throw(), game.limit, 4000);
        assert!(over.windows(2).all(|w| w[0] <= w[1]), "{game:?}");
        let tail = 1.0 - over.last().unwrap();
        if tail > 1e-13 {
            continue; // too slow a game to sum in 4000 throws
        }
        let sum: f64 = 1.0 + over.iter().map(|p| 1.0 - p).sum::<f64>();
        assert!((sum - e).abs() <= 1e-9 * e, "{game:?}: {sum} vs {e}");
    }
}

#[test]
fn simulation_agrees_with_exact_values() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let (mut games, mut covered) = (0, 0);
    for seed in 0..140 {
        let game = random_game(&mut rng, 25);
        let e = expected_throws(&game.throw(), game.limit).expected;
        if e > 1000.0 {
            // Heavy-tailed games take too long to simulate well; the exact checks above
            // cover them.
            continue;
        }
        let model = DiceModel::new(&game);
        let estimate = simulate::<_, f64>(&model, &Player::Random, 3000, seed, 1_000_000).unwrap();
        games += 1;
        if estimate.contains(e) {
            covered += 1;
        }
    }
    // 95% intervals: 5% misses expected; more than 12% would be over 3 standard
    // deviations out for a correct simulator.
    assert!(games >= 100, "{games}");
    assert!(
        covered * 100 >= games * 88,
        "only {covered} of {games} intervals contain the exact value"
    );
}

proptest! {
    // A fixed seed keeps CI repeatable; change it to explore other cases.
    #![proptest_config(ProptestConfig {
        cases: 48,
        rng_seed: RngSeed::Fixed(3329),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn kernel_matches_exact_for_any_dice(
        faces in prop::collection::vec(2u32..=12, 1..=4),
        limit in 0u64..60,
        reset_seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(reset_seed);
        let resets: Vec<Vec<u32>> = (0..rng.gen_range(0..=2))
            .map(|_| faces.iter().map(|&k| rng.gen_range(1..=k)).collect())
            .collect();
        // A game whose every outcome resets is refused (tested elsewhere): skip it.
        let game = Game::new(faces, resets, limit);
        prop_assume!(game.is_ok());
        let game = game.unwrap();
        let (exact, _) = solve_expected::<Exact>(&game).unwrap();
        prop_assert_eq!(&expected_throws_exact(&game.throw(), game.limit), &exact);
        let fast = expected_throws(&game.throw(), game.limit);
        let want = exact.to_f64();
        prop_assert!(want >= 1.0);
        prop_assert!((fast.expected - want).abs() <= 1e-12 * want);
    }
}
