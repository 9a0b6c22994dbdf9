//! States packed into a few `u64` words, kept in one flat arena and deduplicated by a hash
//! table of state ids: no allocation per state, and a state costs its packed words plus
//! a slot of the table.
//!
//! Each variable takes `ceil(log2(high - low + 1))` bits holding `value - low`; a variable
//! never straddles two words, so reading or writing one is a shift and a mask.

use crate::program::Var;

/// Where a variable lives in a packed state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub word: u32,
    pub shift: u32,
    /// The mask of the value's bits, before shifting.
    pub mask: u64,
    pub low: i64,
    pub high: i64,
}

/// How the variables of a program are packed.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub words: usize,
    pub slots: Vec<Slot>,
    /// Whether a packed state fits in 32 bits (then the table holds the states
    /// themselves).
    pub small: bool,
}

impl Layout {
    pub fn new(vars: &[Var]) -> Layout {
        let mut slots = Vec::with_capacity(vars.len());
        let (mut word, mut used) = (0u32, 0u32);
        for v in vars {
            // The number of values, in 128 bits: a range may span all of i64.
            let count = (v.high as i128 - v.low as i128 + 1).max(1) as u128;
            let bits = 128 - (count - 1).leading_zeros();
            if used + bits > 64 {
                word += 1;
                used = 0;
            }
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            slots.push(Slot {
                word,
                shift: used,
                mask,
                low: v.low,
                high: v.high,
            });
            used += bits;
        }
        // At least one word, so that every state has a key (a program without variables
        // has one state).
        let words = if used == 0 && word == 0 {
            1
        } else {
            word as usize + 1
        };
        Layout {
            words,
            slots,
            small: words == 1 && used <= 32,
        }
    }

    /// Unpacks `state` into `out` (one value per variable).
    #[inline]
    pub fn unpack(&self, state: &[u64], out: &mut [i64]) {
        for (o, s) in out.iter_mut().zip(&self.slots) {
            let raw = (state[s.word as usize] >> s.shift) & s.mask;
            *o = s.low.wrapping_add(raw as i64);
        }
    }

    /// Packs `vals` (each within its variable's range) into `out`.
    pub fn pack(&self, vals: &[i64], out: &mut [u64]) {
        out.fill(0);
        for (&v, s) in vals.iter().zip(&self.slots) {
            out[s.word as usize] |= (v.wrapping_sub(s.low) as u64 & s.mask) << s.shift;
        }
    }
}

/// A good cheap hash of a packed state. Packed states differ in few low bits, so every
/// input bit must reach both the low bits (the bucket) and the high bits (the tag): two
/// rounds of multiply and xor-shift per word.
#[inline(always)]
pub(crate) fn hash(words: &[u64]) -> u64 {
    let mut h: u64 = 0x243f_6a88_85a3_08d3;
    for &w in words {
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 32;
        h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
        h ^= h >> 32;
    }
    h
}

#[inline(always)]
pub(crate) fn same(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The states found so far, numbered in order of discovery.
///
/// The table is open addressing with linear probing over `u64` slots, each holding a
/// state's id plus one (so that 0 is an empty slot) in its low half. The high half holds
/// the state itself when states fit in 32 bits; otherwise the high half of its hash, and
/// the arena is compared only when those 32-bit tags agree (for a different state, about
/// once in four billion times). A probe reads one slot, usually one cache line. Exploration probes many targets at once in passes ([`Store::touch`],
/// [`Store::touch_candidate`], then [`Store::insert_hashed`]) so that the cache misses
/// of different targets overlap.
pub(crate) struct Store {
    pub words: usize,
    pub arena: Vec<u64>,
    slots: Vec<u64>,
    mask: usize,
    /// States of at most 32 bits, kept in the slots.
    small: bool,
}

/// The result of [`Store::insert`].
pub(crate) enum Found {
    Old(u32),
    New(u32),
    /// The state is new but the store is full.
    Full,
}

/// The table grows past this fill, in eighths: linear probing stays short below it.
const MAX_FILL_EIGHTHS: usize = 6;

impl Store {
    pub fn new(layout: &Layout) -> Store {
        Store {
            words: layout.words,
            arena: Vec::new(),
            slots: vec![0; 1024],
            mask: 1023,
            small: layout.small,
        }
    }

    /// What a slot holds in its high half for `key` with hash `h`.
    #[inline(always)]
    fn tag(&self, key: &[u64], h: u64) -> u64 {
        if self.small {
            key[0]
        } else {
            h >> 32
        }
    }

    pub fn len(&self) -> usize {
        self.arena.len() / self.words
    }

    #[inline]
    pub fn get(&self, id: u32) -> &[u64] {
        let w = self.words;
        &self.arena[id as usize * w..id as usize * w + w]
    }

    /// Loads the first slot `h` probes, so that a later probe finds it in the cache.
    #[inline(always)]
    pub fn touch(&self, h: u64) {
        std::hint::black_box(self.slots[h as usize & self.mask]);
    }

    /// Loads the stored state a probe for `h` would compare with, if any.
    #[inline]
    pub fn touch_candidate(&self, h: u64) {
        if self.small {
            return;
        }
        let tag = h >> 32;
        let mut i = h as usize & self.mask;
        loop {
            let e = self.slots[i];
            if e == 0 {
                return;
            }
            if e >> 32 == tag {
                let id = (e as u32 - 1) as usize;
                std::hint::black_box(self.arena[id * self.words]);
                return;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The id of `key`, or the empty slot where it would go.
    #[inline(always)]
    fn probe(&self, key: &[u64], h: u64) -> Result<u32, usize> {
        let w = self.words;
        let tag = self.tag(key, h);
        let mut i = h as usize & self.mask;
        loop {
            let e = self.slots[i];
            if e == 0 {
                return Err(i);
            }
            if e >> 32 == tag {
                let id = e as u32 - 1;
                if self.small || same(&self.arena[id as usize * w..id as usize * w + w], key) {
                    return Ok(id);
                }
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The id of `key`, adding it (unless there are `limit` states already).
    #[inline]
    pub fn insert(&mut self, key: &[u64], limit: usize) -> Found {
        self.insert_hashed(key, hash(key), limit)
    }

    /// [`Store::insert`] of a key whose hash is `h`.
    #[inline]
    pub fn insert_hashed(&mut self, key: &[u64], h: u64, limit: usize) -> Found {
        let slot = match self.probe(key, h) {
            Ok(id) => return Found::Old(id),
            Err(slot) => slot,
        };
        let id = self.len();
        // Ids leave room for the `+ 1` of the slots.
        if id >= limit || id >= u32::MAX as usize - 1 {
            return Found::Full;
        }
        self.slots[slot] = self.tag(key, h) << 32 | (id as u64 + 1);
        self.arena.extend_from_slice(key);
        if (id + 1) * 8 > self.slots.len() * MAX_FILL_EIGHTHS {
            self.grow();
        }
        Found::New(id as u32)
    }

    /// Doubles the table, re-inserting the states in order from the arena.
    #[cold]
    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = Vec::new();
        self.slots = vec![0; size];
        self.mask = size - 1;
        let w = self.words;
        for (id, key) in self.arena.chunks_exact(w).enumerate() {
            let h = hash(key);
            let mut i = h as usize & self.mask;
            while self.slots[i] != 0 {
                i = (i + 1) & self.mask;
            }
            self.slots[i] = self.tag(key, h) << 32 | (id as u64 + 1);
        }
    }

    /// The arena alone: the table is only needed while states are being added.
    pub fn into_arena(self) -> Vec<u64> {
        let mut arena = self.arena;
        arena.shrink_to_fit();
        arena
    }

    /// Bytes held by the arena and the table.
    pub fn bytes(&self) -> usize {
        self.arena.capacity() * 8 + self.slots.capacity() * 8
    }
}

/// The id of `key` in an arena of states of `words` words each, by a linear scan (used
/// rarely, after exploration, when the table is gone).
pub(crate) fn scan(arena: &[u64], words: usize, key: &[u64]) -> Option<u32> {
    arena
        .chunks_exact(words)
        .position(|s| same(s, key))
        .map(|i| i as u32)
}
