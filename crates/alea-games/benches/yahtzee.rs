//! The judge's Yahtzee: 1000 random games (seed 1) by the split into upper and lower
//! sections, on one thread and in parallel, and by the classic table over (categories
//! used, upper total) for comparison.
//!
//! Solitaire Yahtzee: the whole game solved (free joker, f64, mean and second moment),
//! 20,000 and a million optimal games from a solved table (seed 1), and advice for one
//! position.

use alea_games::yahtzee::solitaire::{
    self, advise, parse_dice, Book, Card, Dice, Player, Rules, Start,
};
use alea_games::yahtzee::{best_assignment, best_total_by_table, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

fn main() {
    divan::main();
}

fn games(count: usize, seed: u64) -> Vec<Game> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| rng.gen_range(1..=6))))
        .collect()
}

#[divan::bench(sample_count = 20)]
fn games_1000(bencher: divan::Bencher) {
    let games = games(1000, 1);
    bencher.bench(|| {
        games
            .par_iter()
            .map(|g| best_assignment(divan::black_box(g), false).total)
            .sum::<u32>()
    });
}

#[divan::bench(sample_count = 20)]
fn games_1000_one_thread(bencher: divan::Bencher) {
    let games = games(1000, 1);
    bencher.bench(|| {
        games
            .iter()
            .map(|g| best_assignment(divan::black_box(g), false).total)
            .sum::<u32>()
    });
}

#[divan::bench(sample_count = 3)]
fn games_1000_by_the_classic_table_one_thread(bencher: divan::Bencher) {
    let games = games(1000, 1);
    bencher.bench(|| {
        games
            .iter()
            .map(|g| best_total_by_table(divan::black_box(g), false))
            .sum::<u32>()
    });
}

#[divan::bench(sample_count = 10)]
fn solitaire_solve_free_joker() -> f64 {
    solitaire::solve(Rules::FreeJoker).expected_score().0
}

#[divan::bench(sample_count = 10)]
fn solitaire_simulate_20000_games(bencher: divan::Bencher) {
    let table = solitaire::solve(Rules::FreeJoker);
    let player = Player::new(&table);
    bencher.bench(|| solitaire::simulate(&player, 20_000, 1, &|_| {}).games());
}

/// A million games from the table in memory; the book of decisions starts empty each
/// time, so working out the positions met is part of the time.
#[divan::bench(sample_count = 7)]
fn solitaire_simulate_1000000_games(bencher: divan::Bencher) {
    let table = solitaire::solve(Rules::FreeJoker);
    let player = Player::new(&table);
    bencher.bench(|| solitaire::simulate(&player, 1_000_000, 1, &|_| {}).games());
}

/// The same games again with the book kept from a first run: the play alone.
#[divan::bench(sample_count = 7)]
fn solitaire_simulate_1000000_games_book_kept(bencher: divan::Bencher) {
    let table = solitaire::solve(Rules::FreeJoker);
    let player = Player::new(&table);
    let mut book = Book::new();
    let start = Start::game();
    solitaire::simulate_with(&player, &mut book, &start, 1_000_000, 1, &|_| {});
    bencher.bench_local(|| {
        solitaire::simulate_with(&player, &mut book, &start, 1_000_000, 1, &|_| {}).games()
    });
}

#[divan::bench(sample_count = 50)]
fn solitaire_advise_one_position(bencher: divan::Bencher) {
    let table = solitaire::solve(Rules::FreeJoker);
    let player = Player::new(&table);
    let card = Card::parse("ones=3,fours=12,full-house=25,chance=22", &Dice::new()).unwrap();
    let dice = parse_dice("3,3,5,1,6").unwrap();
    bencher.bench(|| advise(&player, &card, Some((dice, 2))).unwrap().value);
}
