//! Double Patience: the random player's win probability over 2000 random deals (seed 1),
//! the whole judge job without reading and printing.

use alea_games::patience::{random_deals, random_play, random_play_all, Deal};

fn main() {
    divan::main();
}

const DEALS: usize = 2000;
const SEED: u64 = 1;

#[divan::bench(sample_count = 20)]
fn random_play_2000_deals(bencher: divan::Bencher) {
    let deals = random_deals(DEALS, SEED);
    bencher.bench(|| random_play_all(divan::black_box(&deals), &|| {}).unwrap());
}

#[divan::bench(sample_count = 20)]
fn random_play_one_thread(bencher: divan::Bencher) {
    let deals: Vec<Deal> = random_deals(DEALS, SEED);
    bencher.bench(|| {
        deals
            .iter()
            .map(|d| random_play::<f64>(divan::black_box(d)).unwrap().0)
            .sum::<f64>()
    });
}
