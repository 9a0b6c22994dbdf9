//! Canonical Jenga positions packed into one `u128`, and the moves between them.
//!
//! Only what can still matter is kept. Levels below the top are interchangeable, so a
//! position keeps how many levels of each kind there are. A level's mirror image plays
//! the same, and a level that can never give a block again (one middle block, or two
//! side blocks) is dropped. What is left:
//! - a full level, known by its middle colour and the unordered pair of its side
//!   colours (18 kinds): a side block can go, leaving a two-block level, or the middle
//!   one, leaving a dead level;
//! - a two-block level with the middle block and one side block (3 kinds): only the
//!   side block can still go, so only its colour matters.
//!
//! The top level is kept in full (up to mirror), since the blocks placed on it decide
//! what kind of level it becomes once a new level starts above it.
//!
//! Layout: bits `5k..5k+5` count the levels of kind `k` (0..18 full, 18..21 two-block);
//! bits 105..111 hold the top ([`Top`]); bits 111..113 the colour being decided, for
//! the engine's choice nodes (0 for a throw of the die).

/// A packed position.
pub type Packed = u128;

const COUNT_BITS: u32 = 5;
const COUNT_MAX: u128 = (1 << COUNT_BITS) - 1;
/// The bit of each count's field that is lowest, for checking all counts at once.
const COUNT_LOW_BITS: u128 = {
    let mut bits = 0;
    let mut kind = 0;
    while kind < KINDS {
        bits |= 1 << (COUNT_BITS as usize * kind);
        kind += 1;
    }
    bits
};
/// Towers of this many levels or fewer never come to hold more levels of one kind than a
/// count records: a tower of n levels never has more than n full levels or 3n/2
/// two-block levels. Taller towers are checked position by position ([`has_room`]).
pub const ALWAYS_FITS: usize = 20;
/// Kinds of full levels and of two-block levels.
pub const FULL_KINDS: usize = 18;
pub const KINDS: usize = FULL_KINDS + 3;
const TOP_SHIFT: u32 = COUNT_BITS * KINDS as u32;
const TOP_MASK: u128 = 63;
const DECIDE_SHIFT: u32 = TOP_SHIFT + 6;

/// The index of an unordered pair of colours: RR RG RB GG GB BB.
fn pair_index(a: u8, c: u8) -> usize {
    let (lo, hi) = if a <= c { (a, c) } else { (c, a) };
    match (lo, hi) {
        (0, 0) => 0,
        (0, 1) => 1,
        (0, 2) => 2,
        (1, 1) => 3,
        (1, 2) => 4,
        _ => 5,
    }
}

/// The pair of colours with index `i`.
fn pair_of(i: usize) -> (u8, u8) {
    [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)][i]
}

/// The kind of the full level `left middle right`.
pub fn full_kind(left: u8, middle: u8, right: u8) -> usize {
    usize::from(middle) * 6 + pair_index(left, right)
}

/// The kind of a two-block level whose side block has `colour`.
pub fn half_kind(colour: u8) -> usize {
    FULL_KINDS + usize::from(colour)
}

/// The top level, up to mirror image. Encoded in six bits:
/// 0..18 a full top of that kind; 18 + c one block of colour c at a side; 21 + c one
/// block in the middle; 24 + 3a + b a side block a and the middle block b; 33 + pair
/// the two side blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Top {
    Full(usize),
    OneSide(u8),
    OneMiddle(u8),
    SideAndMiddle(u8, u8),
    TwoSides(usize),
}

impl Top {
    fn code(self) -> u128 {
        (match self {
            Top::Full(k) => k,
            Top::OneSide(c) => 18 + usize::from(c),
            Top::OneMiddle(c) => 21 + usize::from(c),
            Top::SideAndMiddle(a, b) => 24 + 3 * usize::from(a) + usize::from(b),
            Top::TwoSides(pair) => 33 + pair,
        }) as u128
    }

    fn from_code(code: u128) -> Top {
        let code = code as usize;
        match code {
            0..=17 => Top::Full(code),
            18..=20 => Top::OneSide((code - 18) as u8),
            21..=23 => Top::OneMiddle((code - 21) as u8),
            24..=32 => Top::SideAndMiddle(((code - 24) / 3) as u8, ((code - 24) % 3) as u8),
            _ => Top::TwoSides(code - 33),
        }
    }
}

/// How many levels of `kind` the position has.
#[inline]
pub fn count(p: Packed, kind: usize) -> u32 {
    ((p >> (COUNT_BITS * kind as u32)) & COUNT_MAX) as u32
}

#[inline]
fn one(kind: usize) -> Packed {
    1 << (COUNT_BITS * kind as u32)
}

/// The top level of a position.
pub fn top(p: Packed) -> Top {
    Top::from_code((p >> TOP_SHIFT) & TOP_MASK)
}

fn with_top(p: Packed, t: Top) -> Packed {
    (p & !(TOP_MASK << TOP_SHIFT)) | (t.code() << TOP_SHIFT)
}

/// The position without the decision marker.
pub fn position(p: Packed) -> Packed {
    p & !(3 << DECIDE_SHIFT)
}

/// The choice node "colour `c` came up at position `p`".
pub fn deciding(p: Packed, colour: u8) -> Packed {
    position(p) | (u128::from(colour) + 1) << DECIDE_SHIFT
}

/// The colour being decided, if `p` is a choice node.
pub fn decided_colour(p: Packed) -> Option<u8> {
    match (p >> DECIDE_SHIFT) & 3 {
        0 => None,
        c => Some(c as u8 - 1),
    }
}

/// The canonical position of a tower of full levels (the judge's input), or `None` when
/// more levels of one kind stand below the top than a count records.
pub fn start(levels: &[[u8; 3]]) -> Option<Packed> {
    let (top_level, below) = levels.split_last().expect("a tower has levels");
    let mut counts = [0u128; FULL_KINDS];
    for l in below {
        counts[full_kind(l[0], l[1], l[2])] += 1;
    }
    if counts.iter().any(|&c| c > COUNT_MAX) {
        return None;
    }
    let p = (0..FULL_KINDS).map(|k| counts[k] * one(k)).sum();
    Some(with_top(
        p,
        Top::Full(full_kind(top_level[0], top_level[1], top_level[2])),
    ))
}

/// Whether every move from `p` can be recorded: a move adds at most one level to a
/// count, so no count may be full (31) yet; positions are thus solved with at most 30
/// levels of each kind.
#[inline]
pub fn has_room(p: Packed) -> bool {
    // A field is full when all its five bits are set.
    let mut all = p;
    for shift in 1..COUNT_BITS {
        all &= p >> shift;
    }
    all & COUNT_LOW_BITS == 0
}

/// Calls `visit` with the position after each way of taking a block of `colour` out of
/// a level below the top (the top is unchanged; distinct results only).
#[inline]
pub fn removals(p: Packed, colour: u8, mut visit: impl FnMut(Packed)) {
    for kind in 0..FULL_KINDS {
        if count(p, kind) == 0 {
            continue;
        }
        let middle = (kind / 6) as u8;
        let (a, c) = pair_of(kind % 6);
        if a == colour || c == colour {
            let other = if a == colour { c } else { a };
            visit(p - one(kind) + one(half_kind(other)));
        }
        if middle == colour {
            visit(p - one(kind));
        }
    }
    let half = half_kind(colour);
    if count(p, half) > 0 {
        visit(p - one(half));
    }
}

/// Whether some block of `colour` can be taken.
pub fn can_take(p: Packed, colour: u8) -> bool {
    let mut any = false;
    removals(p, colour, |_| any = true);
    any
}

/// Calls `visit` with the position after each way of putting a block of `colour` on
/// top (distinct results only, mirror images being one).
#[inline]
pub fn placements(p: Packed, colour: u8, mut visit: impl FnMut(Packed)) {
    match top(p) {
        Top::Full(kind) => {
            // A new level starts; the old top becomes a level like any other.
            let below = p + one(kind);
            visit(with_top(below, Top::OneSide(colour)));
            visit(with_top(below, Top::OneMiddle(colour)));
        }
        Top::OneSide(a) => {
            visit(with_top(p, Top::SideAndMiddle(a, colour)));
            visit(with_top(p, Top::TwoSides(pair_index(a, colour))));
        }
        Top::OneMiddle(b) => visit(with_top(p, Top::SideAndMiddle(colour, b))),
        Top::SideAndMiddle(a, b) => visit(with_top(p, Top::Full(full_kind(a, b, colour)))),
        Top::TwoSides(pair) => {
            let (a, c) = pair_of(pair);
            visit(with_top(p, Top::Full(full_kind(a, colour, c))));
        }
    }
}

/// The top after putting a block of `colour` in `slot` (0 left, 1 middle, 2 right) of a
/// complete top of kind `kind`, and the position it gives: the move of a physical tower.
pub fn place_on_new_level(p: Packed, colour: u8, slot: usize) -> Packed {
    let Top::Full(kind) = top(p) else {
        unreachable!("a tower of full levels has a full top")
    };
    let below = p + one(kind);
    with_top(
        below,
        if slot == 1 {
            Top::OneMiddle(colour)
        } else {
            Top::OneSide(colour)
        },
    )
}

/// The position after taking the block in `slot` of a full level `level` below the top.
pub fn take_from_full(p: Packed, level: [u8; 3], slot: usize) -> Packed {
    let kind = full_kind(level[0], level[1], level[2]);
    match slot {
        1 => p - one(kind),
        0 => p - one(kind) + one(half_kind(level[2])),
        _ => p - one(kind) + one(half_kind(level[0])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tops_round_trip() {
        for code in 0..39u128 {
            assert_eq!(Top::from_code(code).code(), code);
        }
    }

    #[test]
    fn kinds_are_mirror_images() {
        for l in 0..3 {
            for m in 0..3 {
                for r in 0..3 {
                    assert_eq!(full_kind(l, m, r), full_kind(r, m, l));
                    let kind = full_kind(l, m, r);
                    let (a, c) = pair_of(kind % 6);
                    assert_eq!(pair_index(a, c), kind % 6);
                    assert_eq!((kind / 6) as u8, m);
                }
            }
        }
    }

    #[test]
    fn the_start_counts_every_level_below_the_top() {
        let p = start(&[[0, 1, 2], [2, 1, 0], [1, 1, 1]]).unwrap();
        assert_eq!(count(p, full_kind(0, 1, 2)), 2);
        assert_eq!(top(p), Top::Full(full_kind(1, 1, 1)));
        // Red: a side of either RGB level; green: either middle.
        let mut red = Vec::new();
        removals(p, 0, |q| red.push(q));
        assert_eq!(red.len(), 1);
        assert_eq!(count(red[0], half_kind(2)), 1);
        let mut green = Vec::new();
        removals(p, 1, |q| green.push(q));
        assert_eq!(green, vec![p - one(full_kind(0, 1, 2))]);
        assert!(!can_take(start(&[[1, 1, 1], [0, 0, 0]]).unwrap(), 0));
    }

    #[test]
    fn a_top_fills_up_then_moves_below() {
        let mut p = start(&[[0, 0, 0], [1, 1, 1]]).unwrap();
        let mut next = Vec::new();
        placements(p, 2, |q| next.push(q));
        assert_eq!(next.len(), 2);
        p = next[0]; // B at a side of a new level; GGG is now below
        assert_eq!(count(p, full_kind(1, 1, 1)), 1);
        assert_eq!(top(p), Top::OneSide(2));
        let mut next = Vec::new();
        placements(p, 0, |q| next.push(q));
        assert_eq!(top(next[0]), Top::SideAndMiddle(2, 0));
        assert_eq!(top(next[1]), Top::TwoSides(pair_index(2, 0)));
        let mut full = Vec::new();
        placements(next[1], 1, |q| full.push(q));
        assert_eq!(top(full[0]), Top::Full(full_kind(2, 1, 0)));
    }

    #[test]
    fn counts_are_checked_for_room() {
        let red = [0u8, 0, 0];
        assert!(has_room(start(&[red; 31]).unwrap()));
        let full = start(&[red; 32]).unwrap();
        assert_eq!(count(full, full_kind(0, 0, 0)), 31);
        assert!(!has_room(full));
        assert!(start(&[red; 33]).is_none());
        // A full two-block count, the last field, is seen too.
        let halves = (0..31).fold(start(&[red; 2]).unwrap(), |p, _| p + one(half_kind(2)));
        assert!(!has_room(halves));
        assert!(has_room(halves - one(half_kind(2))));
    }

    #[test]
    fn decisions_are_marked_apart_from_positions() {
        let p = start(&[[0, 1, 2], [2, 2, 2]]).unwrap();
        for c in 0..3 {
            let d = deciding(p, c);
            assert_ne!(d, p);
            assert_eq!(position(d), p);
            assert_eq!(decided_colour(d), Some(c));
        }
        assert_eq!(decided_colour(p), None);
    }
}
