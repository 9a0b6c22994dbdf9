//! Mahjong: random hands over 100 ranks (seed 1), modulo the judge's prime, in f64 and
//! exactly, against the classic "DP of DP" on the same machine: the automaton as
//! explored (not minimised), every state at every rank, every `k` up to the wall's
//! size, and the full table `f[rank][state][k]` kept.

use alea_core::{Automaton, Limits, ModP, Value, JUDGE_PRIME};
use alea_games::mahjong::{Hand, Hands, Solver, HAND};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    divan::main();
}

/// Ten random hands over `n` ranks.
fn hands(n: usize, seed: u64) -> Vec<Hand> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..10)
        .map(|_| {
            let mut tiles: Vec<usize> = (0..4 * n).collect();
            tiles.shuffle(&mut rng);
            let mut counts = vec![0u8; n];
            for &t in &tiles[..HAND] {
                counts[t / 4] += 1;
            }
            Hand { counts }
        })
        .collect()
}

#[divan::bench(sample_count = 20)]
fn ten_hands_n100_mod_p(bencher: divan::Bencher) {
    let hands = hands(100, 1);
    bencher.bench(|| {
        let solver = Solver::new();
        hands
            .iter()
            .map(|h| solver.expected_mod_p(h).residue())
            .fold(0u64, |a, r| a + u64::from(r))
    });
}

#[divan::bench(sample_count = 20)]
fn ten_hands_n100_f64(bencher: divan::Bencher) {
    let hands = hands(100, 1);
    let solver = Solver::new();
    bencher.bench(|| {
        hands
            .iter()
            .map(|h| solver.p_not_won(h).iter().sum::<f64>())
            .sum::<f64>()
    });
}

#[divan::bench(sample_count = 10)]
fn ten_hands_n100_exact(bencher: divan::Bencher) {
    let hands = hands(100, 1);
    let solver = Solver::new();
    bencher.bench(|| {
        hands
            .iter()
            .map(|h| solver.expected_exact(h).numer().bits())
            .sum::<u64>()
    });
}

#[divan::bench(sample_count = 10)]
fn one_hand_n400_mod_p(bencher: divan::Bencher) {
    let hands = hands(400, 1);
    let solver = Solver::new();
    bencher.bench(|| solver.expected_mod_p(&hands[0]).residue());
}

#[divan::bench(sample_count = 3)]
fn ten_hands_n100_classic(bencher: divan::Bencher) {
    let hands = hands(100, 1);
    let solver = Solver::new();
    // The same answers, or the comparison means nothing.
    for h in &hands {
        assert_eq!(classic(h), solver.expected_mod_p(h).residue());
    }
    bencher.bench(|| hands.iter().map(|h| u64::from(classic(h))).sum::<u64>());
}

/// The classic method, for comparison only.
fn classic(hand: &Hand) -> u32 {
    let automaton = Automaton::explore(&Hands, &Limits::default()).unwrap();
    let states = automaton.states();
    let n = hand.counts.len();
    let wall = 4 * n - HAND;
    let p = u64::from(JUDGE_PRIME);
    let width = wall + 1;
    // f[rank][state][k], all of it.
    let mut f = vec![0u32; (n + 1) * states * width];
    f[0] = 1;
    for r in 0..n {
        let held = usize::from(hand.counts[r]);
        let (now, next) = f.split_at_mut((r + 1) * states * width);
        let now = &now[r * states * width..];
        for s in 0..states {
            for k in 0..width {
                let v = u64::from(now[s * width + k]);
                if v == 0 {
                    continue;
                }
                for t in 0..=4 - held {
                    let to = automaton.step(s as u32, held + t) as usize;
                    if automaton.accepting[to] || k + t >= width {
                        continue;
                    }
                    let ways = binomial(4 - held, t);
                    let cell = &mut next[to * width + k + t];
                    *cell = ((u64::from(*cell) + v * ways) % p) as u32;
                }
            }
        }
    }
    let last = &f[n * states * width..];
    let mut fact = vec![ModP::one(); wall + 1];
    for i in 1..=wall {
        fact[i] = fact[i - 1].mul(&ModP::from_int(i as i64));
    }
    let mut sum = ModP::zero();
    for k in 0..width {
        let count: u64 = (0..states)
            .map(|s| u64::from(last[s * width + k]))
            .sum::<u64>()
            % p;
        let term = ModP::from_int(count as i64)
            .mul(&fact[k])
            .mul(&fact[wall - k]);
        sum = sum.add(&term);
    }
    sum.div(&fact[wall]).residue()
}

fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1, |b, i| b * (n - i) as u64 / (i as u64 + 1))
}
