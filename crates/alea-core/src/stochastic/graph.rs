//! The explicit sparse form of a model: the reachable states numbered densely from the
//! start (0), each with its node and its successors in one compressed row.

use rustc_hash::FxHashMap;

use crate::acyclic::Limits;
use crate::error::{Error, Result};
use crate::model::{Expansion, Kind, Model, Pick};
use crate::solution::total_weight;

/// How a node's value follows from its successors'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Worth its reward.
    Terminal,
    /// The weighted mean of the successors: a chance node or a uniform choice.
    Average,
    /// The greatest successor.
    Max,
    /// The least successor.
    Min,
}

impl Node {
    /// The node with the players' roles exchanged.
    pub(crate) fn swapped(self) -> Node {
        match self {
            Node::Max => Node::Min,
            Node::Min => Node::Max,
            other => other,
        }
    }
}

/// Every reachable state with its node, reward and successors.
pub(crate) struct Graph<S> {
    pub states: Vec<S>,
    pub node: Vec<Node>,
    pub reward: Vec<i64>,
    /// `row[v]..row[v + 1]` are `v`'s edges in `to` and `weight`.
    pub row: Vec<usize>,
    pub to: Vec<u32>,
    pub weight: Vec<u64>,
    /// The sum of an averaging node's weights (0 for other nodes).
    pub total: Vec<u64>,
}

impl<S> Graph<S> {
    pub fn len(&self) -> usize {
        self.node.len()
    }

    /// The successors of `v`.
    #[inline]
    pub fn succ(&self, v: usize) -> &[u32] {
        &self.to[self.row[v]..self.row[v + 1]]
    }

    /// The weights of `v`'s edges, in the order of [`Graph::succ`].
    #[inline]
    pub fn weights(&self, v: usize) -> &[u64] {
        &self.weight[self.row[v]..self.row[v + 1]]
    }
}

/// Explores every state reachable from the model's start, breadth first.
pub(crate) fn explore<M: Model>(model: &M, limits: &Limits) -> Result<Graph<M::State>> {
    let start = model.canonical(model.start());
    let mut ids: FxHashMap<M::State, u32> = FxHashMap::default();
    ids.insert(start, 0);
    let mut g = Graph {
        states: vec![start],
        node: Vec::new(),
        reward: Vec::new(),
        row: vec![0],
        to: Vec::new(),
        weight: Vec::new(),
        total: Vec::new(),
    };
    let mut buf = Expansion::default();
    let mut next = 0;
    while next < g.states.len() {
        let state = g.states[next];
        next += 1;
        model.expand(state, &mut buf);
        let describe = || format!("{state:?}");
        let node = match buf.kind {
            Kind::Terminal => Node::Terminal,
            Kind::Chance | Kind::Choice(Pick::Uniform) => Node::Average,
            Kind::Choice(Pick::Max) => Node::Max,
            Kind::Choice(Pick::Min) => Node::Min,
        };
        g.node.push(node);
        g.reward.push(buf.reward);
        let mut total = 0;
        if node != Node::Terminal {
            if buf.edges.is_empty() {
                return Err(Error::NoSuccessors {
                    state: describe(),
                    kind: if buf.kind == Kind::Chance {
                        "chance"
                    } else {
                        "choice"
                    },
                });
            }
            if node == Node::Average {
                total = total_weight(&buf.edges, describe)?;
            }
            for e in &buf.edges {
                let to = model.canonical(e.to);
                let id = match ids.get(&to) {
                    Some(&id) => id,
                    None => {
                        if g.states.len() >= limits.max_states.min(u32::MAX as usize) {
                            return Err(Error::TooManyStates {
                                limit: limits.max_states,
                            });
                        }
                        let id = g.states.len() as u32;
                        ids.insert(to, id);
                        g.states.push(to);
                        id
                    }
                };
                g.to.push(id);
                g.weight.push(e.weight);
            }
        }
        g.total.push(total);
        g.row.push(g.to.len());
    }
    Ok(g)
}
