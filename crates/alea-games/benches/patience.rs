//! Double Patience on 2000 random deals (seed 1): the whole judge job in process (read,
//! solve in parallel, format) as `alea patience` does it, the hand-written kernel on one
//! thread, and the general engine on one thread for comparison.

use alea_games::patience::{
    judge_tableaus, push_fixed6_line, random_deals, random_play, random_play_tableaus, Kernel,
    Tableau,
};

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
        let tableaus = judge_tableaus(divan::black_box(text.as_bytes())).unwrap();
        let mut out = Vec::with_capacity(9 * DEALS);
        for p in random_play_tableaus(&tableaus, &|| {}) {
            push_fixed6_line(&mut out, p);
        }
        out
    });
}

#[divan::bench(sample_count = 30)]
fn read_2000_deals(bencher: divan::Bencher) {
    let text = deals_text();
    bencher.bench(|| judge_tableaus(divan::black_box(text.as_bytes())).unwrap());
}

#[divan::bench(sample_count = 10)]
fn kernel_one_thread_2000_deals(bencher: divan::Bencher) {
    let tableaus: Vec<Tableau> = random_deals(DEALS, SEED)
        .iter()
        .map(Tableau::from)
        .collect();
    let mut kernel = Kernel::default();
    bencher.bench_local(|| {
        tableaus
            .iter()
            .map(|t| kernel.solve(divan::black_box(t)).0)
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
