//! Double Patience as an engine model.
//!
//! Which cards are left is fixed by the pile heights alone (cards go from the top), so a
//! state is the nine heights packed three bits each into a `u32`.

use alea_core::{Expansion, Model, Pick};

use super::deal::{Deal, PILES, PILE_CARDS};

/// Who makes the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Picks uniformly among all pairs of piles whose tops match: the judge's player.
    Random,
    /// Picks the pair that wins most often; the value is then 1 exactly when the
    /// position can be cleared.
    Best,
}

/// Packed pile heights: pile `i` holds `(state >> 3i) & 7` cards.
pub type Heights = u32;

/// The height of pile `pile` in a packed state.
pub fn height(state: Heights, pile: usize) -> usize {
    ((state >> (3 * pile)) & 7) as usize
}

/// The packed state after removing the top cards of piles `a` and `b`.
pub fn after_move(state: Heights, a: usize, b: usize) -> Heights {
    state - (1 << (3 * a)) - (1 << (3 * b))
}

/// The piles (0-based, `a < b`) whose heights differ between a state and its successor.
pub fn move_between(from: Heights, to: Heights) -> Option<(usize, usize)> {
    let mut changed = (0..PILES).filter(|&p| height(from, p) != height(to, p));
    let a = changed.next()?;
    let b = changed.next()?;
    changed.next().is_none().then_some((a, b))
}

/// Bits per pile in a [`Tops`] word: five for the value and a guard bit above them.
pub(crate) const FIELD: u32 = 6;
/// The low bit of every pile's field.
const LOW: u64 = 0o010101010101010101;
/// The guard bit of every pile's field.
const GUARD: u64 = LOW << (FIELD - 1);

/// The top card of every pile in one word, six bits a pile: the rank (0 to 8) of a
/// non-empty pile, or 16 + the pile's number for an empty one, so that no two empty
/// piles look alike. Two piles can be paired exactly when their fields are equal, which
/// [`moves_of_tops`] finds for all pairs at once.
pub type Tops = u64;

/// The fields of piles `a` that equal the field of pile `a + k`, as the low bit of each
/// field. Field a of the xor is zero exactly when piles a and a + k match; setting each
/// guard before subtracting one per field keeps borrows inside their field, and the
/// guard survives unless the field was zero.
#[inline]
fn equal_at_distance(tops: Tops, k: usize) -> u64 {
    let diff = tops ^ (tops >> (FIELD as usize * k));
    let in_range = GUARD >> (FIELD as usize * k);
    (!((diff | GUARD) - LOW) & in_range) >> (FIELD - 1)
}

/// Every matching pair of piles as one bit: pair (a, a + k) is bit `6a + k - 1` for
/// k <= 6; the three pairs at distance 7 and 8 take bits 54, 55 (k = 7, a = 0, 1) and 56.
/// One mask lets [`moves_of_tops`] visit the pairs in a single loop.
#[inline]
pub fn pair_mask(tops: Tops) -> u64 {
    let mut mask = 0;
    for k in 1..=6 {
        mask |= equal_at_distance(tops, k) << (k - 1);
    }
    let seven = equal_at_distance(tops, 7);
    let eight = equal_at_distance(tops, 8);
    mask | (seven & 1) << 54 | (seven >> FIELD & 1) << 55 | (eight & 1) << 56
}

/// The piles `(a, b)` of each bit of a [`pair_mask`].
const PAIR_OF_BIT: [(u8, u8); 57] = {
    let mut table = [(0, 0); 57];
    let mut a = 0;
    while a < PILES {
        let mut k = 1;
        while k <= 6 && a + k < PILES {
            table[6 * a + k - 1] = (a as u8, (a + k) as u8);
            k += 1;
        }
        a += 1;
    }
    table[54] = (0, 7);
    table[55] = (1, 8);
    table[56] = (0, 8);
    table
};

/// The piles `(a, b)` of bit `bit` of a [`pair_mask`].
#[inline]
pub fn pair_of_bit(bit: u32) -> (usize, usize) {
    let (a, b) = PAIR_OF_BIT[bit as usize];
    (usize::from(a), usize::from(b))
}

/// Calls `visit(a, b)` for every pair of piles `a < b` whose fields in `tops` are
/// equal, in the order of their bits in [`pair_mask`].
#[inline]
pub fn moves_of_tops(tops: Tops, mut visit: impl FnMut(usize, usize)) {
    let mut mask = pair_mask(tops);
    while mask != 0 {
        let (a, b) = pair_of_bit(mask.trailing_zeros());
        visit(a, b);
        mask &= mask - 1;
    }
}

/// A position to solve, with the ranks of its cards laid out for fast lookup.
#[derive(Clone, Debug)]
pub struct Patience {
    /// `top_field[p][h]` is pile `p`'s field in a [`Tops`] word when it is `h` high.
    top_field: [[Tops; PILE_CARDS + 1]; PILES],
    start: Heights,
    player: Player,
}

impl Patience {
    pub fn new(deal: &Deal, player: Player) -> Patience {
        let mut top_field = [[0; PILE_CARDS + 1]; PILES];
        let mut start = 0;
        for (p, pile) in deal.piles.iter().enumerate() {
            let shift = FIELD as usize * p;
            top_field[p][0] = (16 + p as Tops) << shift;
            for (h, card) in pile.iter().enumerate() {
                top_field[p][h + 1] = Tops::from(card.rank) << shift;
            }
            start |= (pile.len() as u32) << (3 * p);
        }
        Patience {
            top_field,
            start,
            player,
        }
    }

    /// The top cards of every pile at `state`.
    #[inline]
    pub fn tops(&self, state: Heights) -> Tops {
        (0..PILES)
            .map(|p| self.top_field[p][height(state, p)])
            .sum()
    }

    /// `tops` after the move that takes piles `a` and `b` from `state`, without
    /// recomputing the other seven piles.
    #[inline]
    pub fn tops_after(&self, tops: Tops, state: Heights, a: usize, b: usize) -> Tops {
        let (ha, hb) = (height(state, a), height(state, b));
        tops - self.top_field[a][ha] - self.top_field[b][hb]
            + self.top_field[a][ha - 1]
            + self.top_field[b][hb - 1]
    }

    /// Every legal move at `state` as a pair of 0-based piles `a < b`, in the order of
    /// [`moves_of_tops`].
    #[inline]
    pub fn moves(&self, state: Heights, visit: impl FnMut(usize, usize)) {
        moves_of_tops(self.tops(state), visit);
    }
}

impl Model for Patience {
    type State = Heights;

    fn start(&self) -> Heights {
        self.start
    }

    fn expand(&self, state: Heights, out: &mut Expansion<Heights>) {
        if state == 0 {
            out.terminal(1);
            return;
        }
        out.choice(
            match self.player {
                Player::Random => Pick::Uniform,
                Player::Best => Pick::Max,
            },
            0,
        );
        self.moves(state, |a, b| out.edge(after_move(state, a, b)));
        if out.edges.is_empty() {
            out.terminal(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patience::random_deals;

    /// Every pair of piles with equal top ranks, by plain comparison.
    fn pairs_by_hand(deal: &Deal) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for b in 0..PILES {
            for a in 0..b {
                let (x, y) = (deal.piles[a].last(), deal.piles[b].last());
                if let (Some(x), Some(y)) = (x, y) {
                    if x.rank == y.rank {
                        pairs.push((a, b));
                    }
                }
            }
        }
        pairs
    }

    #[test]
    fn packed_tops_find_exactly_the_matching_pairs() {
        for mut deal in random_deals(300, 9) {
            // Thin the piles at random-looking places so empty piles appear too.
            for (p, pile) in deal.piles.iter_mut().enumerate() {
                pile.truncate((p * 7 + pile[0].index()) % 5);
            }
            let model = Patience::new(&deal, Player::Random);
            let mut found = Vec::new();
            model.moves(model.start, |a, b| found.push((a, b)));
            found.sort_by_key(|&(a, b)| (b, a));
            assert_eq!(found, pairs_by_hand(&deal), "{deal}");
        }
    }

    #[test]
    fn tops_follow_moves() {
        for deal in random_deals(50, 4) {
            let model = Patience::new(&deal, Player::Random);
            let s = model.start;
            model.moves(s, |a, b| {
                let next = after_move(s, a, b);
                assert_eq!(model.tops_after(model.tops(s), s, a, b), model.tops(next));
                assert_eq!(move_between(s, next), Some((a, b)));
            });
        }
    }
}
