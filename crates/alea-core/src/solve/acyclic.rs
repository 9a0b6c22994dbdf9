//! The memoised depth-first solver for acyclic models.
//!
//! It keeps its own stack instead of recursing, so deep games (a long dice race, a tall
//! tower) cannot overflow the thread's stack, and it reports a cycle instead of looping.
//! A self-loop (a throw that changes nothing) is not a cycle: it is eliminated in closed
//! form.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::{Error, Result};
use crate::guard::Limits;
use crate::model::{Edge, Expansion, Kind, Model};
use crate::numeric::value::Value;
use crate::solution::{node_value, Solution};

pub(crate) struct Frame<S> {
    state: S,
    /// Where this node's edges start in the shared edge arena, once expanded.
    edges_from: usize,
    kind: Kind,
    reward: i64,
    expanded: bool,
}

impl<S> Frame<S> {
    fn new(state: S) -> Self {
        Frame {
            state,
            edges_from: 0,
            kind: Kind::Terminal,
            reward: 0,
            expanded: false,
        }
    }
}

/// Evaluates every state reachable from the model's start.
pub fn solve<M: Model, V: Value>(model: &M, limits: &Limits) -> Result<Solution<M::State, V>> {
    let mut workspace = Workspace::default();
    workspace.solve(model, limits)?;
    Ok(workspace.solution)
}

/// The solver's memory, kept between solves: solving many small models (one per deal)
/// then reuses its tables instead of growing new ones each time.
pub struct Workspace<S, V> {
    solution: Solution<S, V>,
    /// States expanded but not yet evaluated: exactly the current path, so meeting one
    /// again means the model has a cycle.
    open: FxHashSet<S>,
    arena: Vec<Edge<S>>,
    stack: Vec<Frame<S>>,
    buf: Expansion<S>,
}

impl<S, V> Default for Workspace<S, V> {
    fn default() -> Self {
        Workspace {
            solution: Solution {
                start: None,
                values: FxHashMap::default(),
            },
            open: FxHashSet::default(),
            arena: Vec::new(),
            stack: Vec::new(),
            buf: Expansion::default(),
        }
    }
}

impl<S: Copy + Eq + std::hash::Hash + std::fmt::Debug, V: Value> Workspace<S, V> {
    /// Evaluates every state reachable from the model's start; the result stays in the
    /// workspace until the next solve.
    pub fn solve<M: Model<State = S>>(
        &mut self,
        model: &M,
        limits: &Limits,
    ) -> Result<&Solution<S, V>> {
        let start = model.canonical(model.start());
        let Workspace {
            solution,
            open,
            arena,
            stack,
            buf,
        } = self;
        solution.start = None;
        solution.values.clear();
        open.clear();
        arena.clear();
        stack.clear();
        let values = &mut solution.values;
        stack.push(Frame::new(start));

        while let Some(top) = stack.len().checked_sub(1) {
            if stack[top].expanded {
                let frame = stack.pop().expect("stack is not empty");
                let edges = &arena[frame.edges_from..];
                let v = node_value(
                    &frame.state,
                    frame.kind,
                    frame.reward,
                    edges,
                    |s| &values[s],
                    || format!("{:?}", frame.state),
                )?;
                arena.truncate(frame.edges_from);
                open.remove(&frame.state);
                values.insert(frame.state, v);
                continue;
            }

            let state = stack[top].state;
            if values.contains_key(&state) {
                // Pushed twice by two parents; the other copy was evaluated first.
                stack.pop();
                continue;
            }
            if values.len() + open.len() >= limits.max_states {
                return Err(Error::TooManyStates {
                    limit: limits.max_states,
                });
            }
            model.expand(state, buf);
            if buf.kind == Kind::Terminal {
                // Evaluated at once: nothing to wait for, and no need to mark it open.
                stack.pop();
                values.insert(state, V::from_int(buf.reward));
                continue;
            }
            let frame = &mut stack[top];
            frame.expanded = true;
            frame.kind = buf.kind;
            frame.reward = buf.reward;
            frame.edges_from = arena.len();
            open.insert(state);
            for e in &buf.edges {
                let to = model.canonical(e.to);
                arena.push(Edge {
                    to,
                    weight: e.weight,
                });
                // A self-loop is solved in closed form by `node_value`.
                if to == state || values.contains_key(&to) {
                    continue;
                }
                if open.contains(&to) {
                    return Err(Error::Cycle(format!("{to:?}")));
                }
                stack.push(Frame::new(to));
            }
        }

        solution.start = Some(start);
        Ok(solution)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Nodes, Pick};
    use crate::numeric::value::{fraction, Exact};

    /// A fair coin is tossed until it shows heads or `n` tosses are made; the state is
    /// the number of tails so far. Worth 1 when heads came up.
    struct Coin {
        n: u32,
    }

    impl Model for Coin {
        type State = u32;
        fn start(&self) -> u32 {
            0
        }
        fn expand(&self, tails: u32, out: &mut Expansion<u32>) {
            if tails == u32::MAX {
                out.terminal(1); // heads
            } else if tails == self.n {
                out.terminal(0);
            } else {
                out.chance(0);
                out.edge(u32::MAX);
                out.edge(tails + 1);
            }
        }
    }

    #[test]
    fn coin_until_heads() {
        let s = solve::<_, Exact>(&Coin { n: 3 }, &Limits::default()).unwrap();
        assert_eq!(fraction(s.start_value()), "7/8");
        // 0, 1, 2, 3 tails and the heads state.
        assert_eq!(s.len(), 5);
        let f = solve::<_, f64>(&Coin { n: 3 }, &Limits::default()).unwrap();
        assert_eq!(*f.start_value(), 0.875);
    }

    #[test]
    fn deep_chain_needs_no_recursion() {
        let s = solve::<_, f64>(&Coin { n: 1_000_000 }, &Limits::default()).unwrap();
        assert!((s.start_value() - 1.0).abs() < 1e-12);
    }

    /// Choose a die to roll (weights give an unfair die), score its face; the rewards
    /// are spent on the way.
    struct Dice {
        pick: Pick,
    }

    impl Model for Dice {
        type State = u8;
        fn start(&self) -> u8 {
            0
        }
        fn expand(&self, s: u8, out: &mut Expansion<u8>) {
            match s {
                0 => {
                    out.choice(self.pick, -1); // choosing costs a point
                    out.edge(1);
                    out.edge(2);
                }
                // A fair coin worth 0 or 6: mean 3.
                1 => {
                    out.chance(0);
                    out.edge(10);
                    out.edge(16);
                }
                // 1 with weight 1, 4 with weight 3: mean 13/4.
                2 => {
                    out.chance(0);
                    out.weighted(11, 1);
                    out.weighted(14, 3);
                }
                face => out.terminal(i64::from(face) - 10),
            }
        }
    }

    #[test]
    fn choices_maximise_minimise_or_average() {
        let value = |pick| {
            let s = solve::<_, Exact>(&Dice { pick }, &Limits::default()).unwrap();
            fraction(s.start_value())
        };
        assert_eq!(value(Pick::Max), "9/4"); // 13/4 - 1
        assert_eq!(value(Pick::Min), "2/1"); // 3 - 1
        assert_eq!(value(Pick::Uniform), "17/8"); // (3 + 13/4) / 2 - 1
    }

    /// Throw a die until it shows a six; each throw costs 1: six throws expected.
    const SIX: Nodes = Nodes(|s, out| {
        if s == 1 {
            out.terminal(0);
        } else {
            out.chance(1);
            out.weighted(0, 5);
            out.weighted(1, 1);
        }
    });

    #[test]
    fn self_loops_are_eliminated_in_closed_form() {
        let s = solve::<_, Exact>(&SIX, &Limits::default()).unwrap();
        assert_eq!(fraction(s.start_value()), "6/1");
        assert_eq!(s.len(), 2);
    }

    const LOOP: Nodes = Nodes(|s, out| {
        out.chance(1);
        out.edge((s + 1) % 3);
        out.edge(3);
    });

    #[test]
    fn cycles_are_reported_not_followed() {
        let err = solve::<_, f64>(&LOOP, &Limits::default()).unwrap_err();
        assert!(matches!(err, Error::Cycle(_)), "{err}");
    }

    #[test]
    fn the_state_limit_stops_the_solver() {
        let err = solve::<_, f64>(&Coin { n: 100 }, &Limits { max_states: 10 }).unwrap_err();
        assert_eq!(err, Error::TooManyStates { limit: 10 });
    }

    const EMPTY: Nodes = Nodes(|_, out| {
        out.choice(Pick::Max, 0);
    });

    #[test]
    fn a_choice_without_options_is_an_error() {
        let err = solve::<_, f64>(&EMPTY, &Limits::default()).unwrap_err();
        assert!(matches!(err, Error::NoSuccessors { .. }), "{err}");
    }

    /// Mirror images are one state: position -2..=2 on a line, steps of +-1 at random,
    /// absorbed at the ends; canonical form is the absolute value.
    struct Walk;
    impl Model for Walk {
        type State = i8;
        fn start(&self) -> i8 {
            -1
        }
        fn expand(&self, s: i8, out: &mut Expansion<i8>) {
            if s.abs() == 2 {
                out.terminal(0);
            } else if s == 0 {
                out.chance(1);
                out.edge(1);
                out.edge(-1);
            } else {
                // From +-1: step out to the end, or back to 0, which we forbid from
                // stepping back (to stay acyclic) by making 0 step outward only.
                out.chance(1);
                out.edge(s.signum() * 2);
            }
        }
        fn canonical(&self, s: i8) -> i8 {
            s.abs()
        }
    }

    #[test]
    fn canonical_states_are_stored_once() {
        let s = solve::<_, f64>(&Walk, &Limits::default()).unwrap();
        assert_eq!(*s.start_value(), 1.0);
        assert_eq!(s.len(), 2); // 1 and 2; -1 maps to 1
        assert!(s.get(&-1).is_none());
    }
}
