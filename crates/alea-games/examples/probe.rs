use alea_games::patience::{random_deals, Kernel};
fn main() {
    let deals = random_deals(2000, 1);
    let t = std::time::Instant::now();
    let mut k = Kernel::default();
    let mut s = 0.0; let mut n = 0;
    for _ in 0..5 { for d in &deals { let (p, c) = k.random_play(d); s += p; n += c; } }
    println!("{:?} per 2000, {} {}", t.elapsed() / 5, s, n / 5);
}
#[allow(dead_code)]
fn count() {}
