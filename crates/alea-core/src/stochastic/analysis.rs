//! What the graph alone says, before any number is computed: which class of values the
//! model has, whether its rewards fit that class, which states are worth exactly 0, and
//! where an expected reward is infinite.

use super::components::{can_stay, SubNode, OUTSIDE};
use super::graph::{Graph, Node};
use crate::error::{Error, Result};

/// The two meanings of a value (see the module above).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// Only terminals have rewards; a game that never ends is worth 0.
    Payoff,
    /// Other nodes have rewards too; a game that may never end is worth infinitely much.
    TotalReward,
}

/// The graph's predecessors, in compressed rows like its successors.
pub(crate) struct Reverse {
    row: Vec<usize>,
    from: Vec<u32>,
}

impl Reverse {
    pub fn new<S>(g: &Graph<S>) -> Reverse {
        let n = g.len();
        let mut row = vec![0usize; n + 1];
        for &t in &g.to {
            row[t as usize + 1] += 1;
        }
        for v in 0..n {
            row[v + 1] += row[v];
        }
        let mut fill = row.clone();
        let mut from = vec![0u32; g.to.len()];
        for v in 0..n {
            for &t in g.succ(v) {
                from[fill[t as usize]] = v as u32;
                fill[t as usize] += 1;
            }
        }
        Reverse { row, from }
    }

    pub fn pred(&self, v: usize) -> &[u32] {
        &self.from[self.row[v]..self.row[v + 1]]
    }
}

/// The class of the model, after checking its rewards against it. When the payoffs are
/// all at most 0, the players' roles and the signs are exchanged (returned `true`), so
/// that the solvers only meet values of at least 0.
pub(crate) fn classify<S: std::fmt::Debug>(g: &mut Graph<S>) -> Result<(Class, bool)> {
    let step = (0..g.len()).find(|&v| g.node[v] != Node::Terminal && g.reward[v] != 0);
    if step.is_some() {
        if let Some(v) = (0..g.len()).find(|&v| g.reward[v] < 0) {
            return Err(Error::Signs(format!(
                "state {:?} has reward {}, and a model of total rewards with choices on \
                 cycles needs every reward to be at least 0",
                g.states[v], g.reward[v]
            )));
        }
        return Ok((Class::TotalReward, false));
    }
    let positive = (0..g.len()).find(|&v| g.node[v] == Node::Terminal && g.reward[v] > 0);
    let negative = (0..g.len()).find(|&v| g.node[v] == Node::Terminal && g.reward[v] < 0);
    match (positive, negative) {
        (Some(p), Some(n)) => Err(Error::Signs(format!(
            "terminal {:?} is worth {} and terminal {:?} is worth {}; with choices on cycles \
             the terminal values must all be of one sign, since a game that never ends is \
             worth 0",
            g.states[p], g.reward[p], g.states[n], g.reward[n]
        ))),
        (None, Some(_)) => {
            for v in 0..g.len() {
                g.reward[v] = -g.reward[v];
                g.node[v] = g.node[v].swapped();
            }
            Ok((Class::Payoff, true))
        }
        _ => Ok((Class::Payoff, false)),
    }
}

/// The attractor of `set` within `region`: nodes join when any successor has joined
/// (`any(node)`) or when every successor inside the region has.
fn attract<S>(
    g: &Graph<S>,
    rev: &Reverse,
    region: &[bool],
    mut set: Vec<bool>,
    any: impl Fn(Node) -> bool,
) -> Vec<bool> {
    let n = g.len();
    // Every edge into the region counts, those into the first set too: each node of the
    // set, old or new, takes its edges off its predecessors' counts once.
    let mut missing: Vec<u32> = (0..n)
        .map(|v| g.succ(v).iter().filter(|&&t| region[t as usize]).count() as u32)
        .collect();
    let mut work: Vec<u32> = (0..n as u32).filter(|&v| set[v as usize]).collect();
    while let Some(t) = work.pop() {
        for &p in rev.pred(t as usize) {
            let p = p as usize;
            if !region[p] || set[p] || g.node[p] == Node::Terminal {
                continue;
            }
            let joins = if any(g.node[p]) {
                true
            } else {
                missing[p] -= 1;
                missing[p] == 0
            };
            if joins {
                set[p] = true;
                work.push(p as u32);
            }
        }
    }
    set
}

/// In a payoff model (payoffs at least 0): the states worth exactly 0, from which the
/// minimising player can keep the game away from every positive payoff forever.
pub(crate) fn worth_zero<S>(g: &Graph<S>, rev: &Reverse) -> Vec<bool> {
    let everywhere = vec![true; g.len()];
    let positive: Vec<bool> = (0..g.len())
        .map(|v| g.node[v] == Node::Terminal && g.reward[v] > 0)
        .collect();
    let reach = attract(g, rev, &everywhere, positive, |node| node != Node::Min);
    reach.iter().map(|&r| !r).collect()
}

/// In a total-reward model: checks that every state's value is finite (the minimising
/// player can make the game end with probability one, whatever the maximising player
/// does) and that no cycle of zero rewards can hold the players forever.
pub(crate) fn check_finite<S: std::fmt::Debug>(g: &Graph<S>, rev: &Reverse) -> Result<()> {
    let n = g.len();
    let terminal: Vec<bool> = (0..n).map(|v| g.node[v] == Node::Terminal).collect();
    // Almost-sure reachability for the minimiser: remove what the maximiser can keep
    // away from the terminals, and what he can force into that, until nothing changes.
    let mut region = vec![true; n];
    loop {
        let reach = attract(g, rev, &region, terminal.clone(), |node| node != Node::Max);
        let lost: Vec<bool> = (0..n).map(|v| region[v] && !reach[v]).collect();
        if !lost.iter().any(|&l| l) {
            break;
        }
        let forced = attract(g, rev, &region, lost, |node| node != Node::Min);
        for v in 0..n {
            if forced[v] {
                region[v] = false;
            }
        }
    }
    if let Some(v) = (0..n).find(|&v| !region[v]) {
        return Err(Error::InfiniteReward(
            format!("{:?}", g.states[v]),
            "from there the game may go on forever with positive probability (the \
             minimising player, if any, cannot make it end with probability one)"
                .to_string(),
        ));
    }
    // Zero-reward nodes where the players could stay together forever.
    let mut local = vec![u32::MAX; n];
    let zero: Vec<usize> = (0..n)
        .filter(|&v| g.node[v] != Node::Terminal && g.reward[v] == 0)
        .collect();
    for (i, &v) in zero.iter().enumerate() {
        local[v] = i as u32;
    }
    let sub: Vec<SubNode> = zero
        .iter()
        .map(|&v| SubNode {
            keeps_all: g.node[v] == Node::Average,
            edges: g
                .succ(v)
                .iter()
                .map(|&t| match local[t as usize] {
                    u32::MAX => OUTSIDE,
                    i => i,
                })
                .collect(),
        })
        .collect();
    if let Some(i) = can_stay(&sub).iter().position(|&s| s) {
        return Err(Error::ZeroRewardCycle(format!("{:?}", g.states[zero[i]])));
    }
    Ok(())
}
