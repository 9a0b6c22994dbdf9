//! The states whose value the graph alone decides, before any arithmetic: for the
//! probability of `stay U target`, those of probability 0 and 1; for the expected reward
//! until `target`, the target itself (worth 0) and the states of infinite value. The rest
//! are left to the numbers, together with the strategies that the searches prove right in
//! the decided states.

use super::graph::{Graph, NONE};
use super::Goal;

/// What is asked: a probability or an expected reward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Until,
    Reward,
}

/// A state's value is left to the numbers.
pub(crate) const UNKNOWN: u8 = 0;
/// Worth exactly 0.
pub(crate) const ZERO: u8 = 1;
/// Worth exactly 1.
pub(crate) const ONE: u8 = 2;
/// Worth infinitely much.
pub(crate) const INFINITE: u8 = 3;

pub(crate) struct Setup {
    pub kind: Kind,
    pub goal: Goal,
    /// [`UNKNOWN`], [`ZERO`], [`ONE`] or [`INFINITE`] for each state.
    pub class: Vec<u8>,
    /// An optimal choice (offset within the state) of each decided state; 0 where every
    /// choice is as good.
    pub strategy: Vec<u32>,
    /// For the least expected reward: a choice (index) of each state of finite value
    /// outside the target that keeps the value finite and moves nearer the target, so
    /// that following them reaches the target with probability 1. Empty otherwise.
    pub toward: Vec<u32>,
}

impl Setup {
    pub fn unknown(&self) -> Vec<bool> {
        self.class.iter().map(|&c| c == UNKNOWN).collect()
    }
}

/// The offset of choice `c` within state `s`.
fn offset(g: &Graph, s: usize, c: u32) -> u32 {
    (c as usize - g.m.choices[s]) as u32
}

/// A choice of `s` all of whose successors are in `inside` (a state of `inside` that
/// every search left there has one), as an offset.
fn staying(g: &Graph, s: usize, inside: &[bool]) -> u32 {
    let m = g.m;
    m.choices_of(s)
        .position(|c| {
            m.to[m.transitions_of(c)]
                .iter()
                .all(|&t| inside[t as usize])
        })
        .unwrap_or(0) as u32
}

/// The probability of `stay U target`.
///
/// - Max: probability 0 where no strategy reaches `target` through `stay`; 1 where the
///   nested fixed point keeps the state (its noted choices reach `target` surely).
/// - Min: probability 0 where some strategy keeps away from `target` forever (or leaves
///   `stay`) for sure, which is where not every strategy can reach it; below 1 exactly
///   where such a state can be reached first; 1 elsewhere.
pub(crate) fn until(g: &Graph, goal: Goal, stay: &[bool], target: &[bool]) -> Setup {
    let n = g.states();
    let through: Vec<bool> = (0..n).map(|s| stay[s] && !target[s]).collect();
    let mut class = vec![UNKNOWN; n];
    let mut strategy = vec![0u32; n];
    match goal {
        Goal::Max => {
            let can = g.exists_reach(target, &through, |_, _| {});
            let mut via = vec![NONE; n];
            let sure = g.prob1_max(target, &through, &can, &mut via);
            for s in 0..n {
                if sure[s] {
                    class[s] = ONE;
                    if via[s] != NONE {
                        strategy[s] = offset(g, s, via[s]);
                    }
                } else if !can[s] {
                    class[s] = ZERO;
                }
            }
        }
        Goal::Min => {
            let all = g.forall_reach(target, &through);
            let avoid: Vec<bool> = all.iter().map(|&a| !a).collect();
            let below_one = g.exists_reach(&avoid, &through, |_, _| {});
            for s in 0..n {
                if avoid[s] {
                    class[s] = ZERO;
                    if through[s] {
                        strategy[s] = staying(g, s, &avoid);
                    }
                } else if !below_one[s] {
                    class[s] = ONE;
                }
            }
        }
    }
    Setup {
        kind: Kind::Until,
        goal,
        class,
        strategy,
        toward: Vec::new(),
    }
}

/// The expected reward until `target`: the target is worth 0; a state is worth
/// infinitely much where the optimising strategy misses the target with positive
/// probability.
///
/// - Min: finite exactly where the best strategy reaches the target with probability 1.
/// - Max: infinite where some strategy misses the target with positive probability
///   (the least probability of reaching it is below 1).
pub(crate) fn reward(g: &Graph, goal: Goal, target: &[bool]) -> Setup {
    let n = g.states();
    let through: Vec<bool> = target.iter().map(|&t| !t).collect();
    let mut class = vec![UNKNOWN; n];
    let mut strategy = vec![0u32; n];
    let mut toward = Vec::new();
    match goal {
        Goal::Min => {
            let can = g.exists_reach(target, &through, |_, _| {});
            toward = vec![NONE; n];
            let sure = g.prob1_max(target, &through, &can, &mut toward);
            for s in 0..n {
                if target[s] {
                    class[s] = ZERO;
                } else if !sure[s] {
                    class[s] = INFINITE;
                }
            }
        }
        Goal::Max => {
            let all = g.forall_reach(target, &through);
            let avoid: Vec<bool> = all.iter().map(|&a| !a).collect();
            let mut via = vec![NONE; n];
            let below_one = g.exists_reach(&avoid, &through, |s, c| via[s] = c);
            for s in 0..n {
                if target[s] {
                    class[s] = ZERO;
                } else if avoid[s] {
                    class[s] = INFINITE;
                    strategy[s] = staying(g, s, &avoid);
                } else if below_one[s] {
                    class[s] = INFINITE;
                    strategy[s] = offset(g, s, via[s]);
                }
            }
        }
    }
    Setup {
        kind: Kind::Reward,
        goal,
        class,
        strategy,
        toward,
    }
}
