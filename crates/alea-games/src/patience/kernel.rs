//! The judge's question, the random player's win probability in `f64`, answered by a
//! hand-written search.
//!
//! The engine's general solver pays for what this game never needs (cycle checks, an
//! edge arena, rewards, weights). This search recurses at most 18 moves deep, carries the
//! piles' top cards along instead of recomputing them, and sums the successors in the
//! same order as the engine, so the two agree to the last bit (a test holds them to it).
//!
//! Most positions of a deal are worth exactly 0 or exactly 1, and two facts of the game
//! find many of them without searching below them, still to the last bit:
//!
//! - Cards leave in pairs of one rank. Once a rank is down to its last two cards, those
//!   two leave together, after every card above either of them. When ranks down to their
//!   last pair wait for each other in a cycle (a card of each lies above a card of the
//!   next), no line of play clears the table: the position is worth 0, and the engine
//!   gets 0 too, every sum below it being a sum of zeros.
//! - When every rank left is down to its last pair and no such cycle exists, every line
//!   of play clears the table: some pair waits for no other, so both its cards are on
//!   top. The position is worth 1, and the engine gets 1 too, each sum being n ones
//!   divided by n.
//!
//! Cycles can only appear when a rank comes down to its last pair (removing cards only
//! removes waits), so the search looks for one exactly then. On random deals this cuts
//! the positions searched from about 950 a deal to about 300.

use super::deal::{Deal, PILES, PILE_CARDS};
use super::model::{after_move, height, pair_mask, pair_of_bit, Heights, Tops, FIELD};

/// Ranks in the deck.
const RANKS: usize = 9;
/// Bits per rank in a count word: the number of cards of each rank still on the table.
const COUNT_BITS: usize = 4;
/// In a count word, the bit that is set exactly for the ranks with all four cards left
/// (a regular position has 0, 2 or 4 of each rank).
const FOURS: u64 = 0x4_4444_4444;

/// A position as the search needs it: the rank of each card, pile by pile from the
/// bottom, and the pile heights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tableau {
    ranks: [[u8; PILE_CARDS]; PILES],
    heights: [u8; PILES],
}

impl Tableau {
    /// Nine piles of at most four ranks (0 to 8) each, bottom first.
    pub(crate) fn from_ranks(ranks: [[u8; PILE_CARDS]; PILES], heights: [u8; PILES]) -> Self {
        Tableau { ranks, heights }
    }
}

impl From<&Deal> for Tableau {
    /// # Panics
    /// When a pile holds more than four cards, as no deal read from text does.
    fn from(deal: &Deal) -> Self {
        let mut t = Tableau::default();
        for (p, pile) in deal.piles.iter().enumerate() {
            assert!(pile.len() <= PILE_CARDS, "a pile holds at most four cards");
            for (h, card) in pile.iter().enumerate() {
                t.ranks[p][h] = card.rank;
            }
            t.heights[p] = pile.len() as u8;
        }
        t
    }
}

/// One card of the deal, as the search reads it when the card is on top.
#[derive(Clone, Copy, Default)]
struct Top {
    /// Its pile's field in a [`Tops`] word while it is on top.
    field: Tops,
    rank: u8,
    /// Which of its rank's cards it is, as one of four bits.
    slot: u8,
}

/// The random player's evaluator, with its tables kept between deals.
pub struct Kernel {
    memo: Memo,
    /// `tops[p][h]`: the top card of pile `p` when it is `h` high (for `h = 0`, only the
    /// field of the empty pile, which matches no other).
    tops: [[Top; PILE_CARDS + 1]; PILES],
    /// `below[r][gone]`: the ranks of the cards under rank `r`'s cards still on the
    /// table, when the cards of `r` marked in `gone` have left.
    below: [[u16; 16]; RANKS],
}

impl Default for Kernel {
    fn default() -> Self {
        Kernel {
            memo: Memo::new(),
            tops: [[Top::default(); PILE_CARDS + 1]; PILES],
            below: [[0; 16]; RANKS],
        }
    }
}

impl Kernel {
    /// The random player's win probability and the number of positions evaluated.
    ///
    /// # Panics
    /// When a pile holds more than four cards, as no deal read from text does.
    pub fn random_play(&mut self, deal: &Deal) -> (f64, usize) {
        self.solve(&Tableau::from(deal))
    }

    /// [`Kernel::random_play`] of a position read by ranks.
    pub fn solve(&mut self, table: &Tableau) -> (f64, usize) {
        self.memo.clear();
        let mut start: Heights = 0;
        let mut counts = [0u64; RANKS];
        let mut places = [[(0usize, 0usize); 4]; RANKS];
        let mut regular = true;
        let mut tops: Tops = 0;
        for p in 0..PILES {
            let shift = FIELD as usize * p;
            self.tops[p][0] = Top {
                field: (16 + p as Tops) << shift,
                ..Top::default()
            };
            for h in 0..usize::from(table.heights[p]) {
                let rank = table.ranks[p][h];
                let r = usize::from(rank);
                // More than four cards of a rank, or a rank outside the deck, only in
                // a deal made by hand: the facts about last pairs need neither.
                let n = if r < RANKS && counts[r] < 4 {
                    places[r][counts[r] as usize] = (p, h);
                    counts[r] += 1;
                    counts[r] as u8 - 1
                } else {
                    regular = false;
                    0
                };
                self.tops[p][h + 1] = Top {
                    field: Tops::from(rank) << shift,
                    rank,
                    slot: 1 << n,
                };
            }
            start |= Heights::from(table.heights[p]) << (3 * p);
            tops += self.tops[p][usize::from(table.heights[p])].field;
        }
        if start == 0 {
            return (1.0, 1);
        }
        if !regular {
            let p = self.plain(start, tops);
            return (p, self.memo.len + 1);
        }
        if counts.iter().any(|&c| c % 2 == 1) {
            // A card that can never be paired stays on the table.
            return (0.0, 1);
        }

        // Ranks of the cards under each card.
        let mut under = [[0u16; PILE_CARDS]; PILES];
        for (pile, ranks) in under.iter_mut().zip(&table.ranks) {
            for h in 1..PILE_CARDS {
                pile[h] = pile[h - 1] | 1 << ranks[h - 1];
            }
        }
        let mut left = 0u64;
        let mut last_pairs = 0u16;
        let mut waits = Waits::default();
        for r in 0..RANKS {
            let n = counts[r] as usize;
            // The union over each subset of the rank's cards, one OR a subset (a filter
            // over the cards for each subset cost a mispredicted branch in four).
            let mut union = [0u16; 16];
            for kept in 1..1usize << n {
                let k = kept.trailing_zeros() as usize;
                union[kept] = union[kept & (kept - 1)] | under[places[r][k].0][places[r][k].1];
            }
            for gone in 0..16 {
                self.below[r][gone] = union[!gone & ((1 << n) - 1)];
            }
            left |= counts[r] << (COUNT_BITS * r);
            if n == 2 {
                // A position in progress may start with ranks down to their last pair.
                let (cycle, added) = waits.add(last_pairs, r, self.below[r][0]);
                if cycle {
                    return (0.0, 1);
                }
                waits = added;
                last_pairs |= 1 << r;
            }
        }
        if left & FOURS == 0 {
            return (1.0, 1);
        }
        let p = self.win(start, tops, left, last_pairs, waits);
        (p, self.memo.len + 1)
    }

    /// The value of a position with at least one rank that still has all four cards,
    /// and no cycle of waits. `left` counts the cards of each rank on the table;
    /// `last_pairs` marks the ranks down to two, and `waits` what they wait for.
    fn win(&mut self, state: Heights, tops: Tops, left: u64, last_pairs: u16, waits: Waits) -> f64 {
        // The same moves in the same order as `moves_of_tops`, walked without a closure
        // or a buffer.
        let mut pairs = pair_mask(tops);
        let n = pairs.count_ones();
        let mut sum = 0.0;
        while pairs != 0 {
            let (a, b) = pair_of_bit(pairs.trailing_zeros());
            pairs &= pairs - 1;
            let next = after_move(state, a, b);
            let value = match self.memo.get(next) {
                Some(v) => v,
                None => {
                    let (ha, hb) = (height(state, a), height(state, b));
                    let (x, y) = (self.tops[a][ha], self.tops[b][hb]);
                    let r = usize::from(x.rank);
                    let next_left = left - (2 << (COUNT_BITS * r));
                    // Whether the rank comes down to its last pair (else its last pair
                    // leaves): the only time a cycle of waits can appear, and the only
                    // time every rank can come down to its last pair. Both ways are
                    // computed and one is kept, which costs less than a branch the
                    // processor cannot guess.
                    let to_last_pair = left >> (COUNT_BITS * r) & 4 != 0;
                    let (cycle, added) =
                        waits.add(last_pairs, r, self.below[r][usize::from(x.slot | y.slot)]);
                    let dead = to_last_pair & cycle;
                    let won = next_left & FOURS == 0;
                    let v = if dead | won {
                        if dead {
                            0.0
                        } else {
                            1.0
                        }
                    } else {
                        let next_tops = tops - x.field - y.field
                            + self.tops[a][ha - 1].field
                            + self.tops[b][hb - 1].field;
                        let next_waits = if to_last_pair { added } else { waits };
                        self.win(next, next_tops, next_left, last_pairs ^ 1 << r, next_waits)
                    };
                    self.memo.insert(next, v);
                    v
                }
            };
            sum += value;
        }
        if n == 0 {
            0.0
        } else {
            sum / f64::from(n)
        }
    }

    /// The value by plain memoised search, for positions the facts above do not cover.
    fn plain(&mut self, state: Heights, tops: Tops) -> f64 {
        if state == 0 {
            return 1.0;
        }
        if let Some(p) = self.memo.get(state) {
            return p;
        }
        let mut pairs = pair_mask(tops);
        let n = pairs.count_ones();
        let mut sum = 0.0;
        while pairs != 0 {
            let (a, b) = pair_of_bit(pairs.trailing_zeros());
            pairs &= pairs - 1;
            let (ha, hb) = (height(state, a), height(state, b));
            let next_tops = tops - self.tops[a][ha].field - self.tops[b][hb].field
                + self.tops[a][ha - 1].field
                + self.tops[b][hb - 1].field;
            sum += self.plain(after_move(state, a, b), next_tops);
        }
        let p = if n == 0 { 0.0 } else { sum / f64::from(n) };
        self.memo.insert(state, p);
        p
    }
}

/// Lane `u` of a [`Waits`] word, nine bits from bit `9u`, for each rank `u`.
const LANE_LOW: u128 = lanes(0);
/// Bit `u` of lane `u`.
const DIAGONAL: u128 = lanes(1);

const fn lanes(step: u32) -> u128 {
    let mut x = 0;
    let mut u = 0;
    while u < RANKS as u32 {
        x |= 1 << ((9 + step) * u);
        u += 1;
    }
    x
}

/// For each rank down to its last pair, the ranks that wait for it, directly or through
/// other such ranks: nine lanes of nine bits. Rank `t` is in lane `u` when a chain of
/// last pairs, each with a card above a card of the next, leads from `u` to a card of
/// `t` (`t` ends the chain if it is not down to its last pair). One word instead of a
/// graph search makes the check for a cycle a few operations without branches.
///
/// The lanes of ranks not down to their last pair are 0 until they are; a rank whose
/// last pair has left keeps its lane, but no rank on the table reaches it any more (its
/// cards left only after every card above them), so the lane is never read again.
#[derive(Clone, Copy, Default)]
struct Waits(u128);

impl Waits {
    /// Adds rank `r`, now down to its last pair with `below` the ranks of the cards
    /// under its two cards, to the ranks `last_pairs` already there. Also says whether
    /// `r` now waits for itself: a cycle.
    #[inline]
    fn add(self, last_pairs: u16, r: usize, below: u16) -> (bool, Waits) {
        // The lanes of the last pairs under r, all ones (lane u holds 2^u when u is
        // marked; adding 255 carries into the lane's top bit exactly then)...
        let marked = (u128::from(below & last_pairs) * LANE_LOW) & DIAGONAL;
        let under = (((marked + LANE_LOW * 0xff) >> 8) & LANE_LOW) * 0x1ff;
        // ... and their union with `below`: what waits for r.
        let x = self.0 & under;
        let folded = x | x >> 36;
        let folded = folded | folded >> 18;
        let folded = folded | folded >> 9;
        let waiting = ((folded | x >> 72) & 0x1ff) as u16 | below;
        // What waits for r now also waits for every last pair that r waits for.
        let waited = ((self.0 >> r) & LANE_LOW) * 0x1ff;
        let spread = u128::from(waiting) * LANE_LOW;
        let added = self.0 | (waited & spread) | u128::from(waiting) << (9 * r);
        (waiting >> r & 1 != 0, Waits(added))
    }
}

/// Packed heights take 27 bits; the key's top bits hold the deal's generation.
const GENERATION_SHIFT: u32 = 27;
const HEIGHTS_MASK: u32 = (1 << GENERATION_SHIFT) - 1;
/// Generations 1 to 31 fit above the heights; 0 marks a slot never used.
const GENERATIONS: u32 = 32;

/// The values of the positions of one deal: open addressing on the packed heights.
///
/// A key carries the generation of its deal, so starting a deal empties the table
/// without touching it (a slot of another generation reads as free); the slots are
/// wiped once every 31 deals, when generations start over. Keys and values in separate
/// arrays keep the probed keys dense in the cache.
struct Memo {
    keys: Vec<u32>,
    values: Vec<f64>,
    shift: u32,
    generation: u32,
    len: usize,
}

impl Memo {
    /// Enough for nearly every deal: a random deal has about 450 positions to keep.
    const START_BITS: u32 = 12;

    fn new() -> Memo {
        Memo {
            keys: vec![0; 1 << Self::START_BITS],
            values: vec![0.0; 1 << Self::START_BITS],
            shift: 32 - Self::START_BITS,
            generation: 0,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.generation += 1;
        if self.generation == GENERATIONS {
            self.keys.fill(0);
            self.generation = 1;
        }
        self.len = 0;
    }

    #[inline]
    fn home(&self, state: Heights) -> usize {
        (state.wrapping_mul(0x9e37_79b1) >> self.shift) as usize
    }

    #[inline]
    fn get(&self, state: Heights) -> Option<f64> {
        let key = state | self.generation << GENERATION_SHIFT;
        let mask = self.keys.len() - 1;
        let mut i = self.home(state);
        loop {
            let k = self.keys[i];
            if k == key {
                return Some(self.values[i]);
            }
            if k >> GENERATION_SHIFT != self.generation {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Stores the value of a position not yet stored.
    #[inline]
    fn insert(&mut self, state: Heights, value: f64) {
        let mask = self.keys.len() - 1;
        let mut i = self.home(state);
        while self.keys[i] >> GENERATION_SHIFT == self.generation {
            i = (i + 1) & mask;
        }
        self.keys[i] = state | self.generation << GENERATION_SHIFT;
        self.values[i] = value;
        self.len += 1;
        if self.len * 2 > self.keys.len() {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let size = self.keys.len() * 2;
        let keys = std::mem::replace(&mut self.keys, vec![0; size]);
        let values = std::mem::replace(&mut self.values, vec![0.0; size]);
        self.shift -= 1;
        self.len = 0;
        for (k, v) in keys.into_iter().zip(values) {
            if k >> GENERATION_SHIFT == self.generation {
                self.insert(k & HEIGHTS_MASK, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_keeps_deals_apart_and_grows() {
        let mut memo = Memo::new();
        for deal in 0..100u32 {
            memo.clear();
            // More positions than the first table holds, in some deals.
            let count = if deal % 7 == 0 { 5000 } else { 300 };
            for s in 1..=count {
                assert_eq!(memo.get(s * 8 + deal), None);
                memo.insert(s * 8 + deal, f64::from(s + deal));
            }
            for s in 1..=count {
                assert_eq!(memo.get(s * 8 + deal), Some(f64::from(s + deal)));
            }
            assert_eq!(memo.len, count as usize);
        }
    }

    #[test]
    fn waits_find_the_cycles_a_graph_search_finds() {
        // Random graphs on the nine ranks, their nodes added one by one: `add` reports a
        // cycle exactly when the nodes added so far have one through the new node.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let density = next() % 4;
            let edges: [u16; RANKS] =
                std::array::from_fn(|_| (0..density).fold(0x1ff, |m, _| m & next() as u16));
            let (mut waits, mut added) = (Waits::default(), 0u16);
            for r in 0..RANKS {
                let (cycle, w) = waits.add(added, r, edges[r]);
                added |= 1 << r;
                // From r along edges between added nodes, back to r?
                let mut reached = edges[r] & added;
                loop {
                    let more = (0..RANKS)
                        .filter(|&u| reached >> u & 1 == 1)
                        .fold(reached, |m, u| m | edges[u] & added);
                    if more == reached {
                        break;
                    }
                    reached = more;
                }
                assert_eq!(cycle, reached >> r & 1 == 1, "{edges:?} at {r}");
                if cycle {
                    break;
                }
                waits = w;
            }
        }
    }

    #[test]
    fn fours_marks_the_ranks_with_four_cards() {
        for r in 0..RANKS {
            let four = 4u64 << (COUNT_BITS * r);
            let two = 2u64 << (COUNT_BITS * r);
            assert_eq!(four & FOURS, four);
            assert_eq!(two & FOURS, 0);
        }
    }
}
