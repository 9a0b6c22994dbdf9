//! The judge's question, the random player's win probability in `f64`, answered by a
//! hand-written loop.
//!
//! The engine's general solver pays for what this game never needs (cycle checks, an
//! edge arena, rewards, weights); this loop recurses at most 18 moves deep, carries the
//! piles' top cards along instead of recomputing them, keeps one hash table per thread,
//! and sums the successors in the same order as the engine, so the two agree to the
//! last bit (a test holds them to it).

use rustc_hash::FxHashMap;

use super::deal::Deal;
use super::model::{after_move, pair_mask, pair_of_bit, Heights, Patience, Player, Tops};

/// The random player's evaluator, with a table kept between deals.
#[derive(Default)]
pub struct Kernel {
    memo: FxHashMap<Heights, f64>,
}

impl Kernel {
    /// The random player's win probability and the number of positions evaluated.
    pub fn random_play(&mut self, deal: &Deal) -> (f64, usize) {
        let model = Patience::new(deal, Player::Random);
        self.memo.clear();
        let start = alea_core::Model::start(&model);
        let p = self.win(&model, start, model.tops(start));
        // The empty table is never stored; count it when it was reached.
        (p, self.memo.len() + usize::from(p > 0.0))
    }

    fn win(&mut self, model: &Patience, state: Heights, tops: Tops) -> f64 {
        if state == 0 {
            return 1.0;
        }
        if let Some(&p) = self.memo.get(&state) {
            return p;
        }
        // The same moves in the same order as `moves_of_tops`, walked without a closure
        // or a buffer.
        let mut pairs = pair_mask(tops);
        let n = pairs.count_ones();
        let mut sum = 0.0;
        while pairs != 0 {
            let (a, b) = pair_of_bit(pairs.trailing_zeros());
            pairs &= pairs - 1;
            let next = after_move(state, a, b);
            sum += self.win(model, next, model.tops_after(tops, state, a, b));
        }
        let p = if n == 0 { 0.0 } else { sum / f64::from(n) };
        self.memo.insert(state, p);
        p
    }
}
