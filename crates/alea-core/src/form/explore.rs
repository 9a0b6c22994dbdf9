//! A game described by callbacks (a [`Model`]) explored into the form: its reachable
//! canonical states numbered breadth first from the start (0), each node built as
//! [`Builder`] builds it.

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use super::build::{Builder, Game, Node, SMALL};
use crate::error::{Error, Result};
use crate::guard::{Limits, Stop};
use crate::model::{Expansion, Kind, Model};

/// How often exploration looks at the stop flag, in states.
const LOOK_EVERY: usize = 4096;

/// A model explored: the game built, and the model's state behind each number.
#[derive(Clone, Debug)]
pub struct Explored<S> {
    pub game: Game,
    pub states: Vec<S>,
}

impl<S: std::fmt::Debug> Explored<S> {
    /// A state's name in messages: its `Debug` text.
    pub fn name(&self, s: usize) -> String {
        format!("{:?}", self.states[s])
    }
}

/// Explores every state reachable from the model's start, breadth first.
pub fn explore<M: Model>(model: &M, limits: &Limits, stop: &Stop) -> Result<Explored<M::State>> {
    let start = model.canonical(model.start());
    let mut ids: FxHashMap<M::State, u32> = FxHashMap::default();
    ids.reserve(SMALL);
    ids.insert(start, 0);
    let mut states = Vec::with_capacity(SMALL);
    states.push(start);
    let mut builder = Builder::new();
    let mut buf = Expansion::default();
    let mut edges: Vec<(u32, u64)> = Vec::new();
    let most = limits.max_states.min(u32::MAX as usize);
    while builder.len() < states.len() {
        let state = states[builder.len()];
        if builder.len() % LOOK_EVERY == LOOK_EVERY - 1 {
            stop.check()?;
        }
        model.expand(state, &mut buf);
        edges.clear();
        if buf.kind != Kind::Terminal {
            for e in &buf.edges {
                let to = model.canonical(e.to);
                let id = match ids.entry(to) {
                    Entry::Occupied(o) => *o.get(),
                    Entry::Vacant(v) => {
                        if states.len() >= most {
                            return Err(Error::TooManyStates {
                                limit: limits.max_states,
                            });
                        }
                        let id = states.len() as u32;
                        v.insert(id);
                        states.push(to);
                        id
                    }
                };
                edges.push((id, e.weight));
            }
        }
        let node = Node {
            kind: buf.kind,
            reward: buf.reward,
            edges: &edges,
        };
        builder.push(node, || format!("{state:?}"))?;
    }
    Ok(Explored {
        game: builder.finish(),
        states,
    })
}
