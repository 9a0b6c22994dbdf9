//! Colored Jenga: random 6-level towers (seed 1) by the kernel, and one by the engine
//! for comparison.

use alea_games::jenga::{solve_tower, Kernel, Tower};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    divan::main();
}

fn towers(count: usize, seed: u64) -> Vec<Tower> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| Tower {
            levels: (0..6)
                .map(|_| {
                    [
                        rng.gen_range(0..3),
                        rng.gen_range(0..3),
                        rng.gen_range(0..3),
                    ]
                })
                .collect(),
        })
        .collect()
}

#[divan::bench(args = [0, 1, 2, 3, 4], sample_count = 10)]
fn six_levels(bencher: divan::Bencher, which: usize) {
    let tower = &towers(5, 1)[which];
    bencher.bench(|| {
        Kernel::new(usize::MAX)
            .expected(divan::black_box(tower))
            .unwrap()
    });
}

#[divan::bench(sample_count = 5)]
fn six_levels_by_the_engine(bencher: divan::Bencher) {
    let tower = &towers(5, 1)[0];
    bencher.bench(|| {
        *solve_tower::<f64>(divan::black_box(tower), usize::MAX)
            .unwrap()
            .expected()
    });
}
