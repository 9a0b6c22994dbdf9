//! The states whose value the graph alone decides, before any arithmetic: for the
//! probability of `stay U target` (or the payoff of the target reached), those of value
//! 0 and of the greatest value; for the expected reward until `target`, the target
//! itself and the states of infinite value. The rest are left to the numbers, together
//! with the strategies that the searches prove right in the decided states.
//!
//! In a two-player game the searches are attractors: the player who wants the target
//! reached (the maximiser of a probability, the minimiser of a cost) against the other.

use super::graph::{Graph, NONE};
use crate::solve::Goal;

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
/// Worth exactly the greatest value a target has (1 for a probability).
pub(crate) const ONE: u8 = 2;
/// Worth infinitely much.
pub(crate) const INFINITE: u8 = 3;
/// A target worth what the question says it is worth (neither 0 nor the greatest).
pub(crate) const TARGET: u8 = 4;

pub(crate) struct Setup {
    pub kind: Kind,
    /// The goal of the player who chooses (of the first player, in a game).
    pub goal: Goal,
    /// Whether both players choose: then the goal of each state is its owner's.
    pub game: bool,
    /// [`UNKNOWN`], [`ZERO`], [`ONE`], [`INFINITE`] or [`TARGET`] for each state.
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

    /// The goal of the player who chooses at `s`.
    #[inline]
    pub fn goal_at(&self, g: &Graph, s: usize) -> Goal {
        if self.game {
            g.goal_at(self.goal, s)
        } else {
            self.goal
        }
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

/// The probability of `stay U target`, or the payoff of the target reached first through
/// `stay`: `top`, when given, marks the targets worth the greatest payoff (the others are
/// worth less, but more than 0); a target worth 0 is not a target here, but a state where
/// the game ends worth nothing. `goal` is the first player's.
///
/// - Max: 0 where no strategy reaches `target` through `stay`; the greatest value where
///   the nested fixed point keeps the state (its noted choices reach the top targets
///   surely).
/// - Min: 0 where some strategy keeps away from `target` forever (or leaves `stay`) for
///   sure, which is where not every strategy can reach it; below the greatest value
///   exactly where such a state, or a lesser target, can be reached first.
/// - A game: the same for the maximiser's attractors against the minimiser.
pub(crate) fn until(
    g: &Graph,
    goal: Goal,
    stay: &[bool],
    target: &[bool],
    top: Option<&[bool]>,
) -> Setup {
    let n = g.states();
    let through: Vec<bool> = (0..n).map(|s| stay[s] && !target[s]).collect();
    let top = top.unwrap_or(target);
    let mut class = vec![UNKNOWN; n];
    let mut strategy = vec![0u32; n];
    let goal = g.goal(goal);
    if g.game || goal == Goal::Max {
        let mut via = vec![NONE; n];
        let (can, sure) = if g.game {
            // Where the targets are all worth the most, the first round of the nested fixed
            // point is often the attractor itself.
            let mut can = Vec::new();
            let once = std::ptr::eq(top, target).then_some(&mut can);
            let sure = g.almost_sure(top, &through, goal, Goal::Max, &mut via, once);
            if can.is_empty() {
                can = g.attract(target, &through, goal, Goal::Max);
            }
            (can, sure)
        } else {
            let can = g.exists_reach(target, &through, |_, _| {});
            let can_top = if std::ptr::eq(top, target) {
                can.clone()
            } else {
                g.exists_reach(top, &through, |_, _| {})
            };
            let sure = g.prob1_max(top, &through, &can_top, &mut via);
            (can, sure)
        };
        let zero: Vec<bool> = can.iter().map(|&c| !c).collect();
        for s in 0..n {
            if sure[s] {
                class[s] = ONE;
                if via[s] != NONE {
                    strategy[s] = offset(g, s, via[s]);
                }
            } else if zero[s] {
                class[s] = ZERO;
                if g.game && through[s] && g.goal_at(goal, s) == Goal::Min {
                    strategy[s] = staying(g, s, &zero);
                }
            }
        }
    } else {
        let all = g.forall_reach(target, &through);
        let avoid: Vec<bool> = all.iter().map(|&a| !a).collect();
        // Below the greatest value: where keeping away, or a lesser target, can
        // be reached first.
        let lesser: Vec<bool> = (0..n).map(|s| avoid[s] || (target[s] && !top[s])).collect();
        let below_one = g.exists_reach(&lesser, &through, |_, _| {});
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
    for s in 0..n {
        if target[s] && !top[s] {
            class[s] = TARGET;
        }
    }
    Setup {
        kind: Kind::Until,
        goal,
        game: g.game,
        class,
        strategy,
        toward: Vec::new(),
    }
}

/// The expected reward until `target`: a target is worth its own value (given by the
/// question, 0 in a model checker's reward); a state is worth infinitely much where the
/// optimising strategy misses the target with positive probability. `goal` is the first
/// player's.
///
/// - Min: finite exactly where the best strategy reaches the target with probability 1.
/// - Max: infinite where some strategy misses the target with positive probability
///   (the least probability of reaching it is below 1).
/// - A game: finite exactly where the minimiser reaches the target with probability 1
///   whatever the maximiser does.
pub(crate) fn reward(g: &Graph, goal: Goal, target: &[bool]) -> Setup {
    let n = g.states();
    let through: Vec<bool> = target.iter().map(|&t| !t).collect();
    let mut class = vec![UNKNOWN; n];
    let mut strategy = vec![0u32; n];
    let mut toward = Vec::new();
    let goal = g.goal(goal);
    if g.game || goal == Goal::Min {
        toward = vec![NONE; n];
        let finite = if g.game {
            g.almost_sure(target, &through, goal, Goal::Min, &mut toward, None)
        } else {
            let can = g.exists_reach(target, &through, |_, _| {});
            g.prob1_max(target, &through, &can, &mut toward)
        };
        let infinite: Vec<bool> = finite.iter().map(|&f| !f).collect();
        for s in 0..n {
            if target[s] {
                class[s] = TARGET;
            } else if infinite[s] {
                class[s] = INFINITE;
                if g.game && g.goal_at(goal, s) == Goal::Max {
                    strategy[s] = staying(g, s, &infinite);
                }
            } else if g.game && toward[s] != NONE && g.goal_at(goal, s) == Goal::Min {
                strategy[s] = offset(g, s, toward[s]);
            }
        }
    } else {
        let all = g.forall_reach(target, &through);
        let avoid: Vec<bool> = all.iter().map(|&a| !a).collect();
        let mut via = vec![NONE; n];
        let below_one = g.exists_reach(&avoid, &through, |s, c| via[s] = c);
        for s in 0..n {
            if target[s] {
                class[s] = TARGET;
            } else if avoid[s] {
                class[s] = INFINITE;
                strategy[s] = staying(g, s, &avoid);
            } else if below_one[s] {
                class[s] = INFINITE;
                strategy[s] = offset(g, s, via[s]);
            }
        }
    }
    Setup {
        kind: Kind::Reward,
        goal,
        game: g.game,
        class,
        strategy,
        toward,
    }
}
