//! The interning of exact probabilities, with the products, sums and quotients that
//! exploration needs memoised, so that a model with a handful of distinct probabilities
//! does a handful of big-number operations. (Exact values of expressions come from
//! [`crate::eval`].)

use alea_core::Exact;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive};
use rustc_hash::FxHashMap;
use std::collections::HashMap;

/// The nearest `f64` of a rational.
pub(crate) fn to_f64(q: &Exact) -> f64 {
    q.to_f64().unwrap_or(f64::NAN)
}

/// The distinct exact probabilities met in exploration, each with its nearest `f64`.
pub(crate) struct Interner {
    pub values: Vec<Exact>,
    pub approx: Vec<f64>,
    ids: HashMap<Exact, u32>,
    mul: FxHashMap<(u32, u32), u32>,
    add: FxHashMap<(u32, u32), u32>,
    div: FxHashMap<(u32, u32), u32>,
    ratio: FxHashMap<(u32, u32), u32>,
    /// The id of 1.
    pub one: u32,
}

impl Interner {
    pub fn new() -> Interner {
        let mut interner = Interner {
            values: Vec::new(),
            approx: Vec::new(),
            ids: HashMap::new(),
            mul: FxHashMap::default(),
            add: FxHashMap::default(),
            div: FxHashMap::default(),
            ratio: FxHashMap::default(),
            one: 0,
        };
        interner.one = interner.intern(Exact::one());
        interner
    }

    pub fn intern(&mut self, q: Exact) -> u32 {
        if let Some(&id) = self.ids.get(&q) {
            return id;
        }
        let id = self.values.len() as u32;
        self.approx.push(to_f64(&q));
        self.values.push(q.clone());
        self.ids.insert(q, id);
        id
    }

    pub fn mul(&mut self, a: u32, b: u32) -> u32 {
        if a == self.one {
            return b;
        }
        if b == self.one {
            return a;
        }
        let key = (a.min(b), a.max(b));
        if let Some(&id) = self.mul.get(&key) {
            return id;
        }
        let id = self.intern(&self.values[a as usize] * &self.values[b as usize]);
        self.mul.insert(key, id);
        id
    }

    pub fn add(&mut self, a: u32, b: u32) -> u32 {
        let key = (a.min(b), a.max(b));
        if let Some(&id) = self.add.get(&key) {
            return id;
        }
        let id = self.intern(&self.values[a as usize] + &self.values[b as usize]);
        self.add.insert(key, id);
        id
    }

    /// `a / k` for a whole `k > 0`.
    pub fn div(&mut self, a: u32, k: u32) -> u32 {
        if k == 1 {
            return a;
        }
        if let Some(&id) = self.div.get(&(a, k)) {
            return id;
        }
        let id = self.intern(&self.values[a as usize] / Exact::from_integer(BigInt::from(k)));
        self.div.insert((a, k), id);
        id
    }

    /// `a / b` for `b` not 0.
    pub fn ratio(&mut self, a: u32, b: u32) -> u32 {
        if b == self.one {
            return a;
        }
        if let Some(&id) = self.ratio.get(&(a, b)) {
            return id;
        }
        let id = self.intern(&self.values[a as usize] / &self.values[b as usize]);
        self.ratio.insert((a, b), id);
        id
    }

    pub fn is_negative(&self, a: u32) -> bool {
        self.values[a as usize].is_negative()
    }
}
