//! Models whose cycles pass through maximising and minimising choices: Markov decision
//! processes (one player) and turn-based two-player zero-sum stochastic games (one player
//! maximises, the other minimises the same value).
//!
//! What a value means. A model is one of two classes, told apart by its rewards:
//! - a *payoff* model: every node but the terminals has reward 0. A state's value is the
//!   expected reward of the terminal the game ends in, and a game that never ends is
//!   worth 0 (a win probability: a game that goes on forever is not won). Terminal
//!   rewards must all be of one sign.
//! - a *total-reward* model: some other node has a reward (a throw costs a minute). A
//!   state's value is the expected sum of the rewards of the nodes passed, the
//!   terminal's included, and a game that may go on forever is worth infinitely much.
//!   Every reward must be at least 0. Where a state's value is infinite (the maximiser
//!   can keep the game going with positive probability, or the minimiser cannot make it
//!   end with probability one), solving stops with [`Error::InfiniteReward`](crate::Error::InfiniteReward) naming it,
//!   rather than printing a large number; a cycle of zero rewards on which the players
//!   could stay forever stops with [`Error::ZeroRewardCycle`](crate::Error::ZeroRewardCycle).
//!
//! How it is solved. The reachable states are explored into an explicit sparse form
//! (states numbered densely, each state's successors in one compressed row), split into
//! strongly connected components, and the components are solved one at a time, each after
//! every component it leads to. A component without a cycle is one node, worked out from
//! its successors as the acyclic solver does. A cyclic component is solved by a sound
//! iteration that keeps a lower and an upper bound on every value and stops when they are
//! within the requested precision, so that every `f64` answer comes with a certified error
//! bound. For exact answers, the strategy read off the bounds is evaluated in exact
//! rationals (a linear solve per component) and checked: no option of any state improves
//! on it; otherwise the strategy is improved and evaluated again (strategy iteration).

mod analysis;
mod bounds;
pub(crate) mod components;
mod exact;
mod graph;

use rustc_hash::FxHashMap;

use self::analysis::{check_finite, classify, worth_zero, Class, Reverse};
use self::bounds::solve_bounds;
use self::components::{components, Components};
use self::exact::solve_exact_values;
use self::graph::{explore, Graph};
use crate::acyclic::Limits;
use crate::error::Result;
use crate::model::Model;
use crate::solution::Solution;
use crate::value::Exact;

/// What a solve may use and how close an `f64` answer must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The resource guard: the most states explored.
    pub limits: Limits,
    /// The largest error allowed on any `f64` value: absolute, and relative to values
    /// above 1. Below 1e-15 it is taken as 1e-15.
    pub precision: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            limits: Limits::default(),
            precision: 1e-12,
        }
    }
}

/// A solution in `f64` whose every value is within `error_bound` of the true value.
#[derive(Clone, Debug)]
pub struct Certified<S> {
    pub solution: Solution<S, f64>,
    /// No value of the solution is further than this from the true value.
    pub error_bound: f64,
    /// Distinct states explored (terminals, chance and choice nodes).
    pub states: usize,
    /// Sweeps of the iteration over all components.
    pub sweeps: u64,
}

/// The model explored and analysed, ready for numbers.
struct Prepared<S> {
    graph: Graph<S>,
    class: Class,
    /// Values and roles were negated and exchanged (payoffs at most 0).
    flipped: bool,
    /// In a payoff model, the states worth exactly 0.
    zero: Option<Vec<bool>>,
    comps: Components,
}

fn prepare<M: Model>(model: &M, settings: &Settings) -> Result<Prepared<M::State>> {
    let mut graph = explore(model, &settings.limits)?;
    let (class, flipped) = classify(&mut graph)?;
    let rev = Reverse::new(&graph);
    let zero = match class {
        Class::Payoff => Some(worth_zero(&graph, &rev)),
        Class::TotalReward => {
            check_finite(&graph, &rev)?;
            None
        }
    };
    let comps = components(graph.len(), [0], |v, out| {
        out.extend_from_slice(graph.succ(v as usize))
    });
    Ok(Prepared {
        graph,
        class,
        flipped,
        zero,
        comps,
    })
}

impl<S: Copy + Eq + std::hash::Hash> Prepared<S> {
    /// The solution with the values of each node, signs put back.
    fn solution<V>(&self, values: Vec<V>, negate: impl Fn(V) -> V) -> Solution<S, V> {
        let mut map = FxHashMap::default();
        map.reserve(values.len());
        for (v, x) in values.into_iter().enumerate() {
            let x = if self.flipped { negate(x) } else { x };
            map.insert(self.graph.states[v], x);
        }
        Solution {
            start: Some(self.graph.states[0]),
            values: map,
        }
    }
}

/// Solves every state reachable from the model's start in `f64`, with a certified bound.
pub fn solve_certified<M: Model>(model: &M, settings: &Settings) -> Result<Certified<M::State>> {
    let p = prepare(model, settings)?;
    let precision = settings.precision.max(1e-15);
    let b = solve_bounds(
        &p.graph,
        &p.comps,
        p.class,
        p.zero.as_deref(),
        precision,
        true,
    )?;
    let n = p.graph.len();
    let values: Vec<f64> = (0..n).map(|v| b.mid(v)).collect();
    // The midpoint is rounded too: measure from it, and cover that subtraction's rounding.
    let error_bound = (0..n)
        .map(|v| {
            let e = (b.hi(v) - values[v]).max(values[v] - b.lo(v));
            e * (1.0 + 4.0 * f64::EPSILON) + f64::EPSILON * values[v].abs()
        })
        .fold(0.0, f64::max);
    Ok(Certified {
        solution: p.solution(values, |x| -x),
        error_bound,
        states: n,
        sweeps: b.sweeps,
    })
}

/// Solves every state reachable from the model's start in exact rationals, proven.
pub fn solve_exact<M: Model>(model: &M, settings: &Settings) -> Result<Solution<M::State, Exact>> {
    let p = prepare(model, settings)?;
    // A first guess in floating point, only to start from good strategies.
    let b = solve_bounds(&p.graph, &p.comps, p.class, p.zero.as_deref(), 1e-9, false)?;
    let hint: Vec<f64> = (0..p.graph.len()).map(|v| b.mid(v)).collect();
    let values = solve_exact_values(&p.graph, &p.comps, p.class, p.zero.as_deref(), &hint)?;
    Ok(p.solution(values, |x| -x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Expansion, Pick};
    use crate::value::fraction;

    /// Piglet to `goal`: a coin instead of a die. State: scores, turn total, the player to
    /// move (0 first), and whether the coin is about to be flipped.
    struct Piglet {
        goal: u8,
    }

    type PigletState = (u8, u8, u8, u8, bool);

    impl Model for Piglet {
        type State = PigletState;
        fn start(&self) -> PigletState {
            (0, 0, 0, 0, true)
        }
        fn expand(&self, s: PigletState, out: &mut Expansion<PigletState>) {
            let (a, b, k, p, flip) = s;
            let mine = if p == 0 { a } else { b };
            if flip {
                out.chance(0);
                out.weighted((a, b, 0, 1 - p, true), 1);
                if mine + k + 1 >= self.goal {
                    // A win: a terminal state of its own.
                    out.weighted((self.goal, p, 0, 9, false), 1);
                } else {
                    out.weighted((a, b, k + 1, p, false), 1);
                }
                return;
            }
            if p == 9 {
                out.terminal(i64::from(b == 0));
                return;
            }
            out.choice(if p == 0 { Pick::Max } else { Pick::Min }, 0);
            out.edge((a, b, k, p, true));
            let banked = if p == 0 { (a + k, b) } else { (a, b + k) };
            out.edge((banked.0, banked.1, 0, 1 - p, true));
        }
    }

    #[test]
    fn piglet_to_three_is_six_elevenths() {
        let settings = Settings::default();
        let exact = solve_exact(&Piglet { goal: 3 }, &settings).unwrap();
        assert_eq!(fraction(exact.start_value()), "6/11");
        let f = solve_certified(&Piglet { goal: 3 }, &settings).unwrap();
        assert!(f.error_bound <= 1e-12, "{}", f.error_bound);
        assert!((f.solution.start_value() - 6.0 / 11.0).abs() <= f.error_bound);
    }

    #[test]
    fn best_play_is_read_off_and_simulated() {
        use crate::policy::{options, Goal};
        use crate::simulate::{simulate, Player};
        let model = Piglet { goal: 3 };
        let exact = solve_exact(&model, &Settings::default()).unwrap();
        // After a first head: hold (bank 1) or flip again, with their values and losses.
        let scored = options(&model, &exact, (0, 0, 1, 0, false), Goal::Maximise).unwrap();
        assert_eq!(scored.len(), 2);
        assert!(scored[0].value >= scored[1].value);
        assert_eq!(scored[1].loss, &scored[0].value - &scored[1].value);
        let f = solve_certified(&model, &Settings::default()).unwrap();
        let estimate = simulate(&model, &Player::Best(&f.solution), 40_000, 5, 10_000).unwrap();
        assert!(estimate.contains(6.0 / 11.0), "{estimate:?}");
    }

    /// 0: the maximiser goes to 1 or takes 3 (worth 1/2); 1: a coin between 0 and 2;
    /// 2: the maximiser goes to 1 or takes 4 (worth 3/10). The players can stay in
    /// {0, 1, 2} forever, worth 0, so the value is 1/2 throughout, not 1.
    struct Stay;

    impl Model for Stay {
        type State = u8;
        fn start(&self) -> u8 {
            0
        }
        fn expand(&self, s: u8, out: &mut Expansion<u8>) {
            match s {
                0 => {
                    out.choice(Pick::Max, 0);
                    out.edge(1);
                    out.edge(3);
                }
                1 => {
                    out.chance(0);
                    out.edge(0);
                    out.edge(2);
                }
                2 => {
                    out.choice(Pick::Max, 0);
                    out.edge(1);
                    out.edge(4);
                }
                3 => out.terminal(5),
                _ => out.terminal(3),
            }
        }
    }

    #[test]
    fn an_end_component_is_worth_its_best_exit() {
        let exact = solve_exact(&Stay, &Settings::default()).unwrap();
        for s in 0..3 {
            assert_eq!(fraction(exact.get(&s).unwrap()), "5/1", "{s}");
        }
        let f = solve_certified(&Stay, &Settings::default()).unwrap();
        assert!((f.solution.start_value() - 5.0).abs() <= f.error_bound);
        assert!(f.error_bound <= 1e-12 * 5.0);
    }
}
