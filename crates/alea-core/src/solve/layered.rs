//! The layered parallel solver, for models where every move raises a layer number
//! (cards removed, boxes filled): the reachable states are enumerated layer by layer,
//! then each layer is evaluated in parallel, from the last layer back to the first.

use std::collections::BTreeMap;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::{Error, Result};
use crate::guard::Limits;
use crate::model::{Expansion, Kind, Model};
use crate::numeric::value::Value;
use crate::solution::{node_value, Solution};

fn layer_of<M: Model>(model: &M, state: M::State) -> Result<usize> {
    model
        .layer(state)
        .ok_or_else(|| Error::Layer(format!("state {state:?} has no layer")))
}

/// The canonical successors of `state`, each with its layer, checked to lie above
/// `layer`.
fn successors<M: Model>(
    model: &M,
    state: M::State,
    layer: usize,
    buf: &mut Expansion<M::State>,
) -> Result<Vec<(usize, M::State)>> {
    model.expand(state, buf);
    if buf.kind == Kind::Terminal {
        return Ok(Vec::new());
    }
    buf.edges
        .iter()
        .map(|e| {
            let to = model.canonical(e.to);
            let to_layer = layer_of(model, to)?;
            if to_layer <= layer {
                return Err(Error::Layer(format!(
                    "the edge from {state:?} (layer {layer}) to {to:?} (layer {to_layer}) does not raise it"
                )));
            }
            Ok((to_layer, to))
        })
        .collect()
}

/// Every reachable canonical state, grouped by layer, lowest layer first.
fn enumerate<M: Model>(model: &M, limits: &Limits) -> Result<Vec<(usize, Vec<M::State>)>> {
    let start = model.canonical(model.start());
    let mut pending: BTreeMap<usize, FxHashSet<M::State>> = BTreeMap::new();
    pending
        .entry(layer_of(model, start)?)
        .or_default()
        .insert(start);
    let mut layers = Vec::new();
    let mut stored = 0usize;
    while let Some((layer, states)) = pending.pop_first() {
        let states: Vec<M::State> = states.into_iter().collect();
        stored += states.len();
        if stored > limits.max_states {
            return Err(Error::TooManyStates {
                limit: limits.max_states,
            });
        }
        let found: Vec<Vec<(usize, M::State)>> = states
            .par_iter()
            .map_init(Expansion::default, |buf, &s| {
                successors(model, s, layer, buf)
            })
            .collect::<Result<_>>()?;
        for (to_layer, to) in found.into_iter().flatten() {
            pending.entry(to_layer).or_default().insert(to);
        }
        layers.push((layer, states));
    }
    Ok(layers)
}

/// Evaluates every state reachable from the model's start, a layer at a time.
pub fn solve_layered<M: Model, V: Value>(
    model: &M,
    limits: &Limits,
) -> Result<Solution<M::State, V>> {
    let start = model.canonical(model.start());
    let layers = enumerate(model, limits)?;
    let mut values: FxHashMap<M::State, V> = FxHashMap::default();
    values.reserve(layers.iter().map(|(_, l)| l.len()).sum());
    for (_, states) in layers.iter().rev() {
        let done = &values;
        let evaluated: Vec<(M::State, V)> = states
            .par_iter()
            .map_init(Expansion::default, |buf, &s| {
                model.expand(s, buf);
                for e in buf.edges.iter_mut() {
                    e.to = model.canonical(e.to);
                }
                let v = node_value(
                    &s,
                    buf.kind,
                    buf.reward,
                    &buf.edges,
                    |to| &done[to],
                    || format!("{s:?}"),
                )?;
                Ok((s, v))
            })
            .collect::<Result<_>>()?;
        values.extend(evaluated);
    }
    Ok(Solution {
        start: Some(start),
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Pick;
    use crate::numeric::value::{fraction, Exact};
    use crate::solve::acyclic::solve;

    /// A race to a goal: from a total `t < goal`, add 1, 2 or 3 (chance with
    /// weights 1, 2, 3), then choose whether to double the step's worth (costs 1).
    /// Layer: the total.
    struct Race {
        goal: u32,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum S {
        Roll(u32),
        Decide(u32, u32),
    }

    impl Model for Race {
        type State = S;
        fn start(&self) -> S {
            S::Roll(0)
        }
        fn expand(&self, s: S, out: &mut Expansion<S>) {
            match s {
                S::Roll(t) if t >= self.goal => out.terminal(t as i64),
                S::Roll(t) => {
                    out.chance(0);
                    for step in 1..=3 {
                        out.weighted(S::Decide(t, step), u64::from(step));
                    }
                }
                S::Decide(t, step) => {
                    out.choice(Pick::Max, 0);
                    out.edge(S::Roll(t + step));
                    out.edge(S::Roll(t + 2 * step));
                }
            }
        }
        fn layer(&self, s: S) -> Option<usize> {
            Some(match s {
                S::Roll(t) => 2 * t as usize,
                S::Decide(t, _) => 2 * t as usize + 1,
            })
        }
    }

    #[test]
    fn layered_agrees_with_depth_first() {
        let model = Race { goal: 12 };
        let a = solve::<_, Exact>(&model, &Limits::default()).unwrap();
        let b = solve_layered::<_, Exact>(&model, &Limits::default()).unwrap();
        assert_eq!(fraction(a.start_value()), fraction(b.start_value()));
        assert_eq!(a.len(), b.len());
    }

    #[test]
    fn hand_computed_small_race() {
        // goal 1: one roll; doubling is always better, so the value is the mean of
        // 2*step with weights 1, 2, 3: (2 + 8 + 18) / 6 = 14/3.
        let s = solve_layered::<_, Exact>(&Race { goal: 1 }, &Limits::default()).unwrap();
        assert_eq!(fraction(s.start_value()), "14/3");
    }

    struct Flat;
    impl Model for Flat {
        type State = u8;
        fn start(&self) -> u8 {
            0
        }
        fn expand(&self, s: u8, out: &mut Expansion<u8>) {
            if s == 2 {
                out.terminal(1);
            } else {
                out.chance(0);
                out.edge(s + 1);
            }
        }
        fn layer(&self, _: u8) -> Option<usize> {
            Some(0)
        }
    }

    #[test]
    fn an_edge_that_keeps_its_layer_is_refused() {
        let err = solve_layered::<_, f64>(&Flat, &Limits::default()).unwrap_err();
        assert!(matches!(err, Error::Layer(_)), "{err}");
    }

    #[test]
    fn the_state_limit_applies() {
        let err =
            solve_layered::<_, f64>(&Race { goal: 30 }, &Limits { max_states: 20 }).unwrap_err();
        assert_eq!(err, Error::TooManyStates { limit: 20 });
    }
}
