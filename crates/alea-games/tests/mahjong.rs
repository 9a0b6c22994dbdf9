//! Mahjong's expected draws against the judge's sample and known answers, an
//! independent brute force over draw orders in exact rationals (n = 5 to 7), and the
//! three arithmetics against each other.

use alea_core::{fraction, solve, Automaton, Exact, Expansion, Limits, Model, Value};
use alea_games::mahjong::{parse_hand, Hand, Hands, Solver};
use num_bigint::BigInt;
use num_rational::BigRational;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn fixture(name: &str) -> (Hand, String) {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../alea-cli/tests/data/mahjong"
    );
    let input = std::fs::read(format!("{dir}/{name}.in")).unwrap();
    let output = std::fs::read_to_string(format!("{dir}/{name}.out")).unwrap();
    (parse_hand(&input).unwrap(), output.trim().to_string())
}

#[test]
fn the_sample_and_the_known_answers() {
    let solver = Solver::new();
    for (name, exact) in [
        ("sample", "1/1"),
        ("known_1", "1/1"),
        ("known_2", "9/7"),
        ("known_3", "104/55"),
        ("known_4", "15/11"),
        ("known_5", "73/35"),
    ] {
        let (hand, judge) = fixture(name);
        assert_eq!(solver.expected_mod_p(&hand).to_string(), judge, "{name}");
        assert_eq!(fraction(&solver.expected_exact(&hand)), exact, "{name}");
    }
}

#[test]
fn the_automaton_before_and_after_minimisation() {
    let explored = Automaton::explore(&Hands, &Limits::default()).unwrap();
    let minimal = explored.minimise();
    assert_eq!(explored.states(), 2092);
    assert_eq!(minimal.states(), 567);
    assert_eq!(minimal.accepting.iter().filter(|&&a| a).count(), 1);
    // The same verdict on every sequence of counts over up to six ranks, and on random
    // longer ones.
    let mut words = vec![vec![]];
    for _ in 0..6 {
        words = words
            .iter()
            .flat_map(|w: &Vec<usize>| {
                (0..5).map(move |c| {
                    let mut w = w.clone();
                    w.push(c);
                    w
                })
            })
            .collect();
        for w in &words {
            assert_eq!(minimal.accepts(w), explored.accepts(w), "{w:?}");
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..20_000 {
        let w: Vec<usize> = (0..12)
            .map(|_| *[0, 1, 1, 2, 3, 4].choose(&mut rng).unwrap())
            .collect();
        assert_eq!(minimal.accepts(&w), explored.accepts(&w), "{w:?}");
        assert_eq!(minimal.accepts(&w), wins(&w), "{w:?}");
    }
}

/// Whether tiles with these counts per rank hold a winning 14-tile set, by search:
/// seven ranks with a pair, or a pair and four melds among the tiles.
fn wins(counts: &[usize]) -> bool {
    if counts.iter().filter(|&&c| c >= 2).count() >= 7 {
        return true;
    }
    fn melds(c: &mut [usize], need: usize) -> bool {
        if need == 0 {
            return true;
        }
        let Some(i) = c.iter().position(|&x| x > 0) else {
            return false;
        };
        let mut found = false;
        if c[i] >= 3 {
            c[i] -= 3;
            found = melds(c, need - 1);
            c[i] += 3;
        }
        if !found && i + 2 < c.len() && c[i + 1] > 0 && c[i + 2] > 0 {
            c[i..i + 3].iter_mut().for_each(|x| *x -= 1);
            found = melds(c, need - 1);
            c[i..i + 3].iter_mut().for_each(|x| *x += 1);
        }
        if !found {
            // Leave one tile of this rank unused.
            c[i] -= 1;
            found = melds(c, need);
            c[i] += 1;
        }
        found
    }
    (0..counts.len()).any(|p| {
        counts[p] >= 2 && {
            let mut c = counts.to_vec();
            c[p] -= 2;
            melds(&mut c, 4)
        }
    })
}

/// The game itself for the engine: the tiles drawn so far (a count per rank, three bits
/// each); each draw costs one, and a tile of rank `w` comes with weight the copies of it
/// still in the wall.
struct Draws {
    hand: Vec<usize>,
}

impl Model for Draws {
    type State = u64;

    fn start(&self) -> u64 {
        0
    }

    fn expand(&self, drawn: u64, out: &mut Expansion<u64>) {
        let count = |w: usize| ((drawn >> (3 * w)) & 7) as usize;
        let all: Vec<usize> = (0..self.hand.len())
            .map(|w| self.hand[w] + count(w))
            .collect();
        if wins(&all) {
            out.terminal(0);
            return;
        }
        out.chance(1);
        for (w, &held) in all.iter().enumerate() {
            out.weighted(drawn + (1 << (3 * w)), (4 - held) as u64);
        }
    }
}

fn random_hand(n: usize, rng: &mut ChaCha8Rng) -> Hand {
    let mut tiles: Vec<usize> = (0..4 * n).collect();
    tiles.shuffle(rng);
    let mut counts = vec![0u8; n];
    for &t in &tiles[..13] {
        counts[t / 4] += 1;
    }
    Hand { counts }
}

#[test]
fn a_brute_force_over_draws_in_exact_rationals() {
    let solver = Solver::new();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for n in 5..=7 {
        for _ in 0..[0, 0, 0, 0, 0, 12, 6, 3][n] {
            let hand = random_hand(n, &mut rng);
            let model = Draws {
                hand: hand.counts.iter().map(|&c| usize::from(c)).collect(),
            };
            let brute = solve::<_, Exact>(&model, &Limits::default()).unwrap();
            let exact = solver.expected_exact(&hand);
            assert_eq!(exact, *brute.start_value(), "{:?}", hand.counts);
        }
    }
}

#[test]
fn residues_fractions_and_floats_agree() {
    let solver = Solver::new();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for n in [5, 6, 8, 9, 13, 20, 34, 55, 100] {
        for _ in 0..3 {
            let hand = random_hand(n, &mut rng);
            let exact = solver.expected_exact(&hand);
            // The residue of the fraction is the judge's answer.
            assert_eq!(
                residue(&exact),
                solver.expected_mod_p(&hand).to_string(),
                "n = {n}"
            );
            // Floating point to 1e-12, term by term and in sum.
            let p_not_won = solver.p_not_won(&hand);
            assert_eq!(p_not_won.len(), hand.wall() + 1);
            assert_eq!(p_not_won[0], 1.0);
            // Never more likely to be still waiting after more draws (up to rounding).
            for (i, w) in p_not_won.windows(2).enumerate() {
                assert!(w[1] <= w[0] * (1.0 + 1e-14) && w[1] >= 0.0, "{i}: {w:?}");
            }
            let sum: f64 = p_not_won.iter().sum();
            let e = exact.to_f64();
            assert!((sum - e).abs() < 1e-12 * e, "n = {n}: {sum} vs {e}");
            let counts = solver.not_won_counts(&hand, &|| {});
            let wall = hand.wall();
            for (k, count) in counts.iter().enumerate() {
                let q =
                    BigRational::new(BigInt::from(count.clone()), BigInt::from(binomial(wall, k)));
                assert!(
                    (q.to_f64() - p_not_won[k]).abs() < 1e-13,
                    "n = {n}, k = {k}"
                );
            }
        }
    }
}

/// `a * b^-1` modulo the judges' prime, for the fraction `a/b`.
fn residue(q: &BigRational) -> String {
    let p = BigInt::from(alea_core::JUDGE_PRIME);
    let inverse = (q.denom() % &p).modpow(&(&p - 2u32), &p);
    (q.numer() % &p * inverse % &p).to_string()
}

fn binomial(n: usize, k: usize) -> num_bigint::BigUint {
    (0..k).fold(num_bigint::BigUint::from(1u32), |b, i| {
        b * (n - i) / (i + 1)
    })
}

#[test]
fn four_hundred_ranks_in_all_three_arithmetics() {
    let solver = Solver::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let hand = random_hand(400, &mut rng);
    let exact = solver.expected_exact(&hand);
    assert_eq!(residue(&exact), solver.expected_mod_p(&hand).to_string());
    let e: f64 = solver.p_not_won(&hand).iter().sum();
    assert!((e - exact.to_f64()).abs() < 1e-12 * e, "{e}");
    assert!(e > 1.0 && e < hand.wall() as f64);
}
