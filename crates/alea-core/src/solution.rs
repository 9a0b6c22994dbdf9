//! The values of a solved model, and the one rule every solver uses to compute a node's
//! value from its successors'.

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::model::{Edge, Kind, Pick};
use crate::numeric::value::Value;

/// Every canonical state a solver evaluated, with its value.
#[derive(Clone, Debug)]
pub struct Solution<S, V> {
    /// `None` only inside a workspace between solves.
    pub(crate) start: Option<S>,
    pub(crate) values: FxHashMap<S, V>,
}

impl<S: Copy + Eq + std::hash::Hash, V> Solution<S, V> {
    /// The states, the first of them the start, each with its value.
    pub fn from_values(states: impl IntoIterator<Item = S>, values: Vec<V>) -> Self {
        let mut map = FxHashMap::default();
        map.reserve(values.len());
        let mut start = None;
        for (s, v) in states.into_iter().zip(values) {
            start.get_or_insert(s);
            map.insert(s, v);
        }
        Solution { start, values: map }
    }

    /// The value of the (canonical) start state.
    pub fn start_value(&self) -> &V {
        &self.values[&self.start()]
    }

    /// The canonical start state.
    pub fn start(&self) -> S {
        self.start.expect("a solution always has a start")
    }

    /// The value of a canonical state, if the solver reached it.
    pub fn get(&self, state: &S) -> Option<&V> {
        self.values.get(state)
    }

    /// How many distinct canonical states were evaluated.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Every evaluated state, in no particular order.
    pub fn states(&self) -> impl Iterator<Item = &S> {
        self.values.keys()
    }
}

/// The value of `state`, a node of `kind` earning `reward`, given its edges and a way to
/// read each other successor's value. Weighted means divide once, at the end, so exact
/// arithmetic stays exact and floating point loses as little as it can.
///
/// Edges back to `state` itself (a throw that changes nothing) are eliminated in closed
/// form: with weights `w`, total `W` and self weight `w_s`,
/// `v = (W reward + sum_{others} w v) / (W - w_s)`, exact in integers. A maximising or
/// minimising choice may not loop to itself.
pub(crate) fn node_value<'a, S: PartialEq, V: Value>(
    state: &S,
    kind: Kind,
    reward: i64,
    edges: &[Edge<S>],
    mut value_of: impl FnMut(&S) -> &'a V,
    describe: impl Fn() -> String,
) -> Result<V> {
    if kind == Kind::Terminal {
        return Ok(V::from_int(reward));
    }
    if edges.is_empty() {
        return Err(Error::no_successors(describe(), kind));
    }
    match kind {
        Kind::Terminal => unreachable!("handled above"),
        Kind::Chance | Kind::Choice(Pick::Uniform) => {
            let total_weight = total_weight(edges.iter().map(|e| e.weight), &describe)?;
            let mut self_weight = 0;
            let mut sum = V::zero();
            for e in edges {
                if e.to == *state {
                    self_weight += e.weight;
                    continue;
                }
                let v = value_of(&e.to);
                sum = if e.weight == 1 {
                    sum.add(v)
                } else {
                    sum.add(&v.mul(&V::from_int(e.weight as i64)))
                };
            }
            if self_weight == 0 {
                let mean = sum.div(&V::from_int(total_weight as i64));
                return Ok(if reward == 0 {
                    mean
                } else {
                    mean.add(&V::from_int(reward))
                });
            }
            if self_weight == total_weight {
                return Err(Error::NeverEnds(describe()));
            }
            let spent = V::from_int(reward).mul(&V::from_int(total_weight as i64));
            Ok(sum
                .add(&spent)
                .div(&V::from_int((total_weight - self_weight) as i64)))
        }
        Kind::Choice(pick) => {
            if edges.iter().any(|e| e.to == *state) {
                return Err(Error::ChoiceCycle(describe()));
            }
            let mut best = value_of(&edges[0].to).clone();
            for e in &edges[1..] {
                let v = value_of(&e.to);
                if improves(pick, v, &best)? {
                    best = v.clone();
                }
            }
            Ok(if reward == 0 {
                best
            } else {
                best.add(&V::from_int(reward))
            })
        }
    }
}

/// The sum of the edge weights, checked to fit the `i64` that arithmetic backends take.
pub(crate) fn total_weight(
    mut weights: impl Iterator<Item = u64>,
    describe: impl Fn() -> String,
) -> Result<u64> {
    weights
        .try_fold(0u64, |sum, w| sum.checked_add(w))
        .filter(|&t| t <= i64::MAX as u64)
        .ok_or_else(|| Error::Weights(describe()))
}

/// Whether `candidate` is strictly better than `incumbent` for a maximising or
/// minimising pick (a uniform pick has no better option: always false).
pub(crate) fn improves<V: Value>(pick: Pick, candidate: &V, incumbent: &V) -> Result<bool> {
    use std::cmp::Ordering::{Greater, Less};
    let ord = candidate
        .compare(incumbent)
        .ok_or(Error::Unordered(V::NAME))?;
    Ok(match pick {
        Pick::Max => ord == Greater,
        Pick::Min => ord == Less,
        Pick::Uniform => false,
    })
}
