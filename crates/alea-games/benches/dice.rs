//! One Person Game: 300 random judge cases (seed 1), the largest judge case, and the
//! limit 1,000,000 with three six-sided dice, by the one-pass kernel; the judge cases
//! also by the engine in f64 (certified) for comparison.

use alea_games::dice::{expected_throws, solve_expected, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    divan::main();
}

/// Judge-format cases: n in 0..=500, three dice of 2 to 6 faces, one reset throw.
fn judge_cases(count: usize, seed: u64) -> Vec<Game> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let faces: Vec<u32> = (0..3).map(|_| rng.gen_range(2..=6)).collect();
            let reset = faces.iter().map(|&k| rng.gen_range(1..=k)).collect();
            Game::new(faces, vec![reset], rng.gen_range(0..=500)).unwrap()
        })
        .collect()
}

#[divan::bench(sample_count = 50)]
fn judge_300_cases(bencher: divan::Bencher) {
    let games = judge_cases(300, 1);
    bencher.bench(|| {
        games
            .iter()
            .map(|g| expected_throws(&g.throw(), divan::black_box(g.limit)).expected)
            .sum::<f64>()
    });
}

#[divan::bench(sample_count = 10)]
fn judge_300_cases_by_the_engine(bencher: divan::Bencher) {
    let games = judge_cases(300, 1);
    bencher.bench(|| {
        games
            .iter()
            .map(|g| solve_expected::<f64>(divan::black_box(g)).unwrap().0)
            .sum::<f64>()
    });
}

#[divan::bench(sample_count = 20)]
fn three_d6_limit_1_000_000(bencher: divan::Bencher) {
    let game = Game::new(vec![6, 6, 6], vec![vec![1, 1, 1]], 1_000_000).unwrap();
    let throw = game.throw();
    bencher.bench(|| expected_throws(&throw, divan::black_box(game.limit)).expected);
}
