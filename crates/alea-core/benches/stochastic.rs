//! The solver of cycles through choices on random Markov decision processes: a
//! maximiser picks one of two actions in each state, each action a random distribution
//! over three states or a terminal, so that one large component holds almost every state.
//! States per second for the certified `f64` path (a million states) and the exact path
//! (fewer: every cycle is solved as a linear system in rationals).

use alea_core::{solve_certified, solve_exact, Expansion, Model, Pick, Settings};

fn main() {
    divan::main();
}

/// A random MDP of `states` decision states, from a fixed seed: nodes `0..n` decide,
/// `n + 2s + a` is action `a` of state `s`, and `3n`, `3n + 1` are the terminals (won,
/// lost).
struct RandomMdp {
    states: u32,
}

/// A fixed pseudo-random number for `(a, b)`, so that the model stores nothing.
fn mix(a: u64, b: u64) -> u64 {
    let mut x = a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_add(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Model for RandomMdp {
    type State = u32;

    fn start(&self) -> u32 {
        0
    }

    fn expand(&self, s: u32, out: &mut Expansion<u32>) {
        let n = self.states;
        if s >= 3 * n {
            out.terminal(i64::from(s == 3 * n));
            return;
        }
        if s < n {
            out.choice(Pick::Max, 0);
            out.edge(n + 2 * s);
            out.edge(n + 2 * s + 1);
            return;
        }
        out.chance(0);
        for i in 0..3u64 {
            let r = mix(u64::from(s), i);
            out.weighted((r % u64::from(n)) as u32, 1 + (r >> 32) % 4);
        }
        // One action in ten ends the game now and then, won or lost.
        let r = mix(u64::from(s), 7);
        if r.is_multiple_of(10) {
            out.weighted(3 * n + (r >> 40) as u32 % 2, 1 + (r >> 20) % 3);
        }
    }
}

// One sample: a million states take minutes (every successor read is a miss of the
// cache, and this model mixes slowly: some 800 sweeps reach 1e-12).
#[divan::bench(args = [100_000, 1_000_000], sample_count = 1, sample_size = 1)]
fn certified_f64(bencher: divan::Bencher, states: u32) {
    let model = RandomMdp { states };
    bencher
        .counter(divan::counter::ItemsCount::new(states))
        .bench(|| {
            solve_certified(&model, &Settings::default())
                .unwrap()
                .error_bound
        });
}

#[divan::bench(args = [30, 100], sample_count = 3, sample_size = 1)]
fn exact(bencher: divan::Bencher, states: u32) {
    let model = RandomMdp { states };
    bencher
        .counter(divan::counter::ItemsCount::new(states))
        .bench(|| solve_exact(&model, &Settings::default()).unwrap().len());
}
