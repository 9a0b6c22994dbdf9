//! Pig: the standard game in f64 (with and without its certified bound), Pig to 20 and
//! Piglet to 10 in exact rationals, and the best answer to a "hold at 20" opponent.

use alea_core::Exact;
use alea_games::pig::{against, certify, solve, Rules};

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 20)]
fn pig_to_100(bencher: divan::Bencher) {
    let rules = Rules::standard();
    bencher.bench(|| *solve::<f64>(divan::black_box(&rules)).first_player_wins());
}

#[divan::bench(sample_count = 20)]
fn pig_to_100_certified(bencher: divan::Bencher) {
    let rules = Rules::standard();
    bencher.bench(|| certify(&solve::<f64>(divan::black_box(&rules))).error_bound);
}

#[divan::bench(sample_count = 10)]
fn pig_to_20_exact(bencher: divan::Bencher) {
    let rules = Rules::new(20, alea_games::pig::Die::Faces(6)).unwrap();
    bencher.bench(|| {
        solve::<Exact>(divan::black_box(&rules))
            .first_player_wins()
            .clone()
    });
}

#[divan::bench(sample_count = 10)]
fn piglet_to_10_exact(bencher: divan::Bencher) {
    let rules = Rules::piglet(10).unwrap();
    bencher.bench(|| {
        solve::<Exact>(divan::black_box(&rules))
            .first_player_wins()
            .clone()
    });
}

#[divan::bench(sample_count = 10)]
fn pig_to_100_against_hold_at_20(bencher: divan::Bencher) {
    let rules = Rules::standard();
    bencher.bench(|| {
        *against::<f64>(divan::black_box(&rules), 20, &|_| 1, u64::MAX)
            .unwrap()
            .moving_first()
    });
}
