//! Double Patience on 2000 random deals (seed 1): the whole judge job in process (parse,
//! solve in parallel, format), the hand-written kernel on one thread, and the general
//! engine on one thread for comparison.

use std::fmt::Write;

use alea_games::patience::{parse_deals, random_deals, random_play, random_play_all, Kernel};

fn main() {
    divan::main();
}

const DEALS: usize = 2000;
const SEED: u64 = 1;

fn deals_text() -> String {
    random_deals(DEALS, SEED)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[divan::bench(sample_count = 30)]
fn judge_job_2000_deals(bencher: divan::Bencher) {
    let text = deals_text();
    bencher.bench(|| {
        let deals = parse_deals(divan::black_box(text.as_bytes())).unwrap();
        let mut out = String::with_capacity(9 * DEALS);
        for p in random_play_all(&deals, &|| {}).unwrap() {
            writeln!(out, "{p:.6}").unwrap();
        }
        out
    });
}

#[divan::bench(sample_count = 10)]
fn kernel_one_thread_2000_deals(bencher: divan::Bencher) {
    let deals = random_deals(DEALS, SEED);
    let mut kernel = Kernel::default();
    bencher.bench_local(|| {
        deals
            .iter()
            .map(|d| kernel.random_play(divan::black_box(d)).0)
            .sum::<f64>()
    });
}

#[divan::bench(sample_count = 10)]
fn engine_one_thread_2000_deals(bencher: divan::Bencher) {
    let deals = random_deals(DEALS, SEED);
    bencher.bench(|| {
        deals
            .iter()
            .map(|d| random_play::<f64>(divan::black_box(d)).unwrap().0)
            .sum::<f64>()
    });
}
