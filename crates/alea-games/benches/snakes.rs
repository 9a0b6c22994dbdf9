//! Snakes and Ladders: the classic board by the engine in f64 and in
//! exact rationals, its distribution over 1,000 spins, and a random board of 1,000
//! squares with 100 snakes and ladders (seed 1) in f64.

use alea_core::{Exact, Limits};
use alea_games::snakes::{expected_spins, finished_within, Board, Link, Piece, Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    divan::main();
}

/// `links` snakes and ladders on `n` squares, no two sharing a square.
fn random_board(n: u32, links: usize, seed: u64) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut used = vec![false; n as usize + 1];
    let mut list = Vec::new();
    while list.len() < links {
        let (from, to) = (rng.gen_range(1..n), rng.gen_range(1..=n));
        if from == to || used[from as usize] || used[to as usize] {
            continue;
        }
        used[from as usize] = true;
        used[to as usize] = true;
        let piece = if from < to {
            Piece::Ladder
        } else {
            Piece::Snake
        };
        list.push(Link { piece, from, to });
    }
    Board::new(u64::from(n), list).unwrap()
}

#[divan::bench(sample_count = 200)]
fn classic_f64(bencher: divan::Bencher) {
    let board = Board::classic();
    bencher.bench(|| {
        expected_spins::<f64>(
            divan::black_box(&board),
            &Rules::default(),
            &Limits::default(),
        )
        .unwrap()
    });
}

#[divan::bench(sample_count = 30)]
fn classic_exact(bencher: divan::Bencher) {
    let board = Board::classic();
    bencher.bench(|| {
        expected_spins::<Exact>(
            divan::black_box(&board),
            &Rules::default(),
            &Limits::default(),
        )
        .unwrap()
    });
}

#[divan::bench(sample_count = 100)]
fn classic_distribution_1000_spins(bencher: divan::Bencher) {
    let board = Board::classic();
    bencher.bench(|| finished_within(divan::black_box(&board), &Rules::default(), 1000));
}

#[divan::bench(sample_count = 20)]
fn random_1000_squares_f64(bencher: divan::Bencher) {
    let board = random_board(1000, 100, 1);
    bencher.bench(|| {
        expected_spins::<f64>(
            divan::black_box(&board),
            &Rules::default(),
            &Limits::default(),
        )
        .unwrap()
    });
}
