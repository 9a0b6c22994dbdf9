//! Games described node by node (a [`Game`], or a [`Model`] explored into one), solved by
//! the engine's solvers: chance nodes, choices made at random, and one or two players
//! who maximise and minimise, cycles anywhere.
//!
//! What a value means. A game is one of two classes, told apart by its rewards:
//! - a *payoff* game: every node but the terminals has reward 0. A state's value is the
//!   expected reward of the terminal the game ends in, and a game that never ends is
//!   worth 0 (a win probability: a game that goes on forever is not won).
//! - a *total-reward* game: some other node has a reward (a throw costs a minute). A
//!   state's value is the expected sum of the rewards of the nodes passed, the
//!   terminal's included; a game that may go on forever is worth infinitely much, and
//!   solving stops with [`Error::InfiniteReward`] naming such a state, rather than
//!   printing a large number.
//!
//! How. The payoffs (or rewards) of one sign are the engine's own questions: the payoff of
//! the target reached first (a probability with other values than 1), or the reward
//! gathered until a terminal, whose own reward is its value as a target. Payoffs or
//! rewards all at most 0 are negated and the players' goals exchanged. Values of both
//! signs are defined, and solved, wherever the players cannot keep the game going for
//! ever (no end component among the states whose value is not 0 already): payoffs are
//! then shifted to be at least 0, which changes every value by the same amount, and
//! rewards solved exactly (and rounded, for `f64`). Elsewhere values of both signs are
//! refused with [`Error::Signs`]. In a total-reward game where the players could stay on
//! a cycle of zero rewards, the interval iteration finds no upper bound: such a game is
//! solved exactly by strategy improvement (`improve`, as a model file's `R [F]`), and
//! rounded for `f64`.

use num_traits::Signed;

use super::{exact, improve, interval, setup, Goal};
use crate::analysis::graph::Graph;
use crate::error::{Error, Result};
use crate::form::build::Game;
use crate::form::explore::explore;
use crate::guard::{Limits, Stop};
use crate::model::{Kind, Model};
use crate::numeric::value::{Exact, Value};
use crate::solution::Solution;

/// What a solve may use and how close an `f64` answer must be.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The resource guard: the most states explored.
    pub limits: Limits,
    /// The largest error allowed on any `f64` value: absolute, and relative to values
    /// above 1. Below 1e-15 it is taken as 1e-15.
    pub precision: f64,
    /// Raised, it stops the solve with [`Error::Stopped`].
    pub stop: Stop,
    /// A precision that rounding keeps the bounds from meeting is an error
    /// ([`Error::NotConverged`]); otherwise the bounds are as close as rounding allows,
    /// and the error bound says how close.
    pub strict: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            limits: Limits::default(),
            precision: 1e-12,
            stop: Stop::default(),
            strict: true,
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

/// The values of a game's states in `f64`, with a certified bound.
#[derive(Clone, Debug)]
pub struct Bounded {
    pub values: Vec<f64>,
    /// No value is further than this from the true value.
    pub error_bound: f64,
    pub sweeps: u64,
}

/// The two meanings of a value (see the module's comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Payoff,
    TotalReward,
}

/// A game turned into one of the engine's questions.
struct Posed {
    class: Class,
    /// The goal of the form's first player, after any exchange of roles.
    goal: Goal,
    /// Values and goals were negated and exchanged (every payoff or reward at most 0).
    negated: bool,
    /// Added to every payoff to make it at least 0 (values of both signs, no end
    /// component among the states left open); taken off every value at the end.
    /// Integers throughout: wide enough that no shift or negation overflows.
    shift: i128,
    /// Rewards of both signs: solved exactly (and rounded for `f64`).
    signed: bool,
    /// The targets: terminals (for payoffs: those worth more than 0 once shifted, and
    /// the states that can reach no payoff other than 0).
    target: Vec<bool>,
    /// Each target's value; for a payoff, the targets worth the greatest payoff.
    values: Vec<i128>,
    top: Vec<bool>,
    /// Each choice's reward (total rewards only).
    rew: Vec<i128>,
}

/// The sign of a state's payoff or reward: the states that break the sign rule are
/// named in an error.
fn signs(game: &Game, class: Class) -> (Option<usize>, Option<usize>) {
    let counts = |s: usize| match class {
        Class::Payoff => game.kind[s] == Kind::Terminal,
        Class::TotalReward => true,
    };
    let n = game.states();
    let positive = (0..n).find(|&s| counts(s) && game.reward[s] > 0);
    let negative = (0..n).find(|&s| counts(s) && game.reward[s] < 0);
    (positive, negative)
}

/// Whether the players together could keep the game going forever among the states
/// `open`: the first state of such an end component.
fn may_stay(g: &Graph, open: &[bool]) -> Option<usize> {
    g.end_components(open, |_| true)
        .map(|e| e.get(0)[0] as usize)
}

fn pose(game: &Game, g: &Graph, names: &dyn Fn(usize) -> String) -> Result<Posed> {
    let n = game.states();
    let form = &game.form;
    let terminal: Vec<bool> = game.kind.iter().map(|&k| k == Kind::Terminal).collect();
    let class = if (0..n).any(|s| !terminal[s] && game.reward[s] != 0) {
        Class::TotalReward
    } else {
        Class::Payoff
    };
    let (positive, negative) = signs(game, class);
    let negated = positive.is_none() && negative.is_some();
    let sign = |r: i64| i128::from(r) * if negated { -1 } else { 1 };
    let goal = if negated {
        game.goal.opposite()
    } else {
        game.goal
    };
    let mixed = positive.is_some() && negative.is_some();
    let refuse = |stay: usize, what: &str| {
        let (p, q) = (positive.expect("mixed"), negative.expect("mixed"));
        Error::Signs(format!(
            "{what} {} is worth {} and {} is worth {}, and from state {} the players could \
             keep the game going forever, {}; alea solves values of both signs only where \
             every game ends",
            names(p),
            game.reward[p],
            names(q),
            game.reward[q],
            names(stay),
            match class {
                Class::Payoff => "which is worth 0",
                Class::TotalReward => "which makes the sum of rewards meaningless",
            }
        ))
    };
    let mut posed = Posed {
        class,
        goal,
        negated,
        shift: 0,
        signed: false,
        target: terminal.clone(),
        values: (0..n)
            .map(|s| if terminal[s] { sign(game.reward[s]) } else { 0 })
            .collect(),
        top: Vec::new(),
        rew: Vec::new(),
    };
    match class {
        Class::Payoff => {
            let nonzero: Vec<bool> = (0..n).map(|s| terminal[s] && game.reward[s] != 0).collect();
            if mixed {
                // The states from which no payoff but 0 can be reached are worth 0 however
                // the game goes; from the others every game must end.
                let through: Vec<bool> = terminal.iter().map(|&t| !t).collect();
                let can = g.exists_reach(&nonzero, &through, |_, _| {});
                let open: Vec<bool> = (0..n).map(|s| can[s] && !terminal[s]).collect();
                if let Some(stay) = may_stay(g, &open) {
                    return Err(refuse(stay, "terminal"));
                }
                let least = game.reward[negative.expect("mixed")];
                let least = (0..n)
                    .filter(|&s| terminal[s])
                    .map(|s| game.reward[s])
                    .fold(least, i64::min);
                posed.shift = -i128::from(least);
                // Shifted, every terminal and every state worth 0 is a target worth at
                // least the shift, which is more than 0.
                posed.target = (0..n).map(|s| terminal[s] || !can[s]).collect();
                posed.values = (0..n)
                    .map(|s| {
                        let base = if terminal[s] { game.reward[s] } else { 0 };
                        i128::from(base) - i128::from(least)
                    })
                    .collect();
            } else {
                posed.target = nonzero;
            }
            let best = (0..n)
                .filter(|&s| posed.target[s])
                .map(|s| posed.values[s])
                .max()
                .unwrap_or(0);
            posed.top = (0..n)
                .map(|s| posed.target[s] && posed.values[s] == best)
                .collect();
        }
        Class::TotalReward => {
            if mixed {
                let open: Vec<bool> = terminal.iter().map(|&t| !t).collect();
                if let Some(stay) = may_stay(g, &open) {
                    return Err(refuse(stay, "state"));
                }
                posed.signed = true;
            }
            posed.rew = (0..form.choice_count())
                .map(|c| {
                    let s = g.owner[c] as usize;
                    if terminal[s] {
                        0
                    } else {
                        sign(game.reward[s])
                    }
                })
                .collect();
        }
    }
    Ok(posed)
}

fn exacts(v: &[i128]) -> Vec<Exact> {
    v.iter().map(|&v| Exact::from_integer(v.into())).collect()
}

/// Integers to `f64`, each rounded to the nearest. Below 2^53 (all but huge values) from
/// their two halves, exactly: `as f64` on a 128-bit integer is a slow library call, and
/// the compiler turns any narrower conversion of it back into that call.
fn floats(v: &[i128]) -> Vec<f64> {
    const EXACT: i128 = 1 << 53;
    v.iter()
        .map(|&v| match v {
            v if (-EXACT..EXACT).contains(&v) => {
                ((v >> 32) as i64 as f64) * 4_294_967_296.0 + f64::from(v as u32)
            }
            v => v as f64,
        })
        .collect()
}

/// The engine's setup of a posed game.
fn setup_of(g: &Graph, posed: &Posed) -> setup::Setup {
    match posed.class {
        Class::Payoff => {
            let stay = vec![true; posed.target.len()];
            setup::until(g, posed.goal, &stay, &posed.target, Some(&posed.top))
        }
        Class::TotalReward => setup::reward(g, posed.goal, &posed.target),
    }
}

/// The first state of infinite value, as the error that names it.
fn infinite(class: &[u8], names: &dyn Fn(usize) -> String) -> Result<()> {
    match class.iter().position(|&c| c == setup::INFINITE) {
        Some(s) => Err(Error::InfiniteReward(
            names(s),
            "from there the game may go on forever with positive probability (the \
             minimising player, if any, cannot make it end with probability one)"
                .to_string(),
        )),
        None => Ok(()),
    }
}

/// The exact values of every state of `game` (state 0 its start). `names` names a state
/// in an error.
pub fn exact_values(
    game: &Game,
    stop: &Stop,
    names: &(dyn Fn(usize) -> String + Sync),
) -> Result<Vec<Exact>> {
    let form = &game.form;
    let g = Graph::new(form);
    let posed = pose(game, &g, names)?;
    let setup = setup_of(&g, &posed);
    infinite(&setup.class, names)?;
    let values_f64 = floats(&posed.values);
    let rew_f64 = floats(&posed.rew);
    let values = exacts(&posed.values);
    let rew = exacts(&posed.rew);
    let answer = if posed.class == Class::TotalReward
        && interval::zero_cycle(&g, &setup, &rew_f64).is_some()
    {
        zero_cycles(&g, &posed, &values, &rew, stop, names)?
    } else {
        // Rewards of both signs are no question for the `f64` iteration that gives exact
        // strategy iteration its first strategy: it starts from every state's first
        // choice.
        let first = vec![0u32; game.states()];
        exact::solve(
            &g,
            form.exact_probs()?,
            &exact::Job {
                setup: &setup,
                rew: (posed.class == Class::TotalReward).then_some((&rew[..], &rew_f64[..])),
                values: (&values, &values_f64),
                start: posed.signed.then_some(&first[..]),
                stop,
                names,
            },
        )?
    };
    Ok(answer
        .values
        .into_iter()
        .map(|v| {
            let v = v.expect("no state is infinite") - Exact::from_integer(posed.shift.into());
            if posed.negated {
                -v
            } else {
                v
            }
        })
        .collect())
}

/// A total-reward game where the players could stay on a cycle of zero rewards, solved
/// exactly by strategy improvement (`improve`, as a model file's `R [F]`): a target's
/// value is gathered by the choices that reach it, as part of their reward.
fn zero_cycles(
    g: &Graph,
    posed: &Posed,
    values: &[Exact],
    rew: &[Exact],
    stop: &Stop,
    names: &(dyn Fn(usize) -> String + Sync),
) -> Result<super::ExactAnswer> {
    let m = g.m;
    let ex = m.exact_probs()?;
    let zero = Exact::zero();
    let worth = |t: usize| Some(if posed.target[t] { &values[t] } else { &zero });
    let arriving: Vec<Exact> = (0..m.choice_count())
        .map(|c| exact::choice_value_exact(m, ex, c, Some(rew), worth).expect("finite"))
        .collect();
    let cx = super::Context {
        precision: 1e-12,
        stop: stop.clone(),
        names,
    };
    let mut answer =
        improve::reach_reward_game_exact(g, posed.goal, &posed.target, &arriving, &cx)?;
    for (s, v) in answer.values.iter_mut().enumerate() {
        if posed.target[s] {
            *v = Some(values[s].clone());
        }
    }
    Ok(answer)
}

/// The values of every state of `game` in `f64`, each within the certified bound of the
/// true value, to `precision` (absolute, relative above 1; with `strict` off, as close as
/// rounding allows when it allows no closer).
pub fn certified_values(
    game: &Game,
    precision: f64,
    strict: bool,
    stop: &Stop,
    names: &(dyn Fn(usize) -> String + Sync),
) -> Result<Bounded> {
    let form = &game.form;
    let g = Graph::new(form);
    let posed = pose(game, &g, names)?;
    if posed.signed {
        return rounded(&exact_values(game, stop, names)?);
    }
    let setup = setup_of(&g, &posed);
    infinite(&setup.class, names)?;
    let values_f64: Vec<[f64; 2]> = floats(&posed.values).into_iter().map(|v| [v, v]).collect();
    let rew_f64 = floats(&posed.rew);
    // A cycle of zero rewards: solved exactly (see `zero_cycles`), and rounded.
    if posed.class == Class::TotalReward && interval::zero_cycle(&g, &setup, &rew_f64).is_some() {
        return rounded(&exact_values(game, stop, names)?);
    }
    let job = interval::Job {
        setup: &setup,
        rew: &rew_f64,
        values: &values_f64,
        precision: precision.max(1e-15),
        above: false,
        strict,
        stop,
        names,
    };
    let solved = interval::solve(&g, &job)?;
    let shift = posed.shift as f64;
    let mut error_bound: f64 = 0.0;
    let values = solved
        .x
        .iter()
        .map(|&[lo, hi]| {
            // Taking the shift off rounds once more: move each bound outward past it.
            let (mut lo, mut hi) = if shift == 0.0 {
                (lo, hi)
            } else {
                ((lo - shift).next_down(), (hi - shift).next_up())
            };
            if posed.negated {
                (lo, hi) = (-hi, -lo);
            }
            let v = lo + (hi - lo) / 2.0;
            // The midpoint is rounded too: measure from it, and cover that subtraction's
            // rounding.
            let e = (hi - v).max(v - lo);
            error_bound = error_bound.max(e * (1.0 + 4.0 * f64::EPSILON) + f64::EPSILON * v.abs());
            v
        })
        .collect();
    Ok(Bounded {
        values,
        error_bound,
        sweeps: solved.sweeps,
    })
}

/// Exact values rounded to `f64`, with the largest rounding error as their bound.
fn rounded(exact: &[Exact]) -> Result<Bounded> {
    let mut error_bound: f64 = 0.0;
    let values = exact
        .iter()
        .map(|q| {
            let f = q.to_f64();
            if f.is_finite() {
                let gap = (Exact::from_float(f).expect("finite") - q).abs();
                error_bound = error_bound.max(gap.to_f64().next_up());
            } else {
                // A value beyond `f64` has no bound to give.
                error_bound = f64::INFINITY;
            }
            f
        })
        .collect();
    Ok(Bounded {
        values,
        error_bound,
        sweeps: 0,
    })
}

/// Solves every state reachable from the model's start in `f64`, with a certified bound.
pub fn solve_certified<M: Model>(model: &M, settings: &Settings) -> Result<Certified<M::State>> {
    let explored = explore(model, &settings.limits, &settings.stop)?;
    let names = |s: usize| explored.name(s);
    let b = certified_values(
        &explored.game,
        settings.precision,
        settings.strict,
        &settings.stop,
        &names,
    )?;
    Ok(Certified {
        states: explored.states.len(),
        solution: Solution::from_values(explored.states.iter().copied(), b.values),
        error_bound: b.error_bound,
        sweeps: b.sweeps,
    })
}

/// Solves every state reachable from the model's start in exact rationals, proven.
pub fn solve_exact<M: Model>(model: &M, settings: &Settings) -> Result<Solution<M::State, Exact>> {
    solve_game(model, settings)
}

/// The arithmetics a game can be solved in: exactly, or in `f64` (the midpoints of the
/// certified bounds).
pub trait Solvable: Value {
    /// The value of every state of a game built (state 0 its start); `names` names a
    /// state in an error.
    fn values(
        game: &Game,
        settings: &Settings,
        names: &(dyn Fn(usize) -> String + Sync),
    ) -> Result<Vec<Self>>;
}

impl Solvable for Exact {
    fn values(
        game: &Game,
        settings: &Settings,
        names: &(dyn Fn(usize) -> String + Sync),
    ) -> Result<Vec<Self>> {
        exact_values(game, &settings.stop, names)
    }
}

impl Solvable for f64 {
    fn values(
        game: &Game,
        settings: &Settings,
        names: &(dyn Fn(usize) -> String + Sync),
    ) -> Result<Vec<Self>> {
        let (precision, strict) = (settings.precision, settings.strict);
        Ok(certified_values(game, precision, strict, &settings.stop, names)?.values)
    }
}

/// Solves every state reachable from the model's start in the arithmetic `V`: cycles
/// through chance nodes and choices alike.
pub fn solve_game<M: Model, V: Solvable>(
    model: &M,
    settings: &Settings,
) -> Result<Solution<M::State, V>> {
    let explored = explore(model, &settings.limits, &settings.stop)?;
    let values = V::values(&explored.game, settings, &|s| explored.name(s))?;
    Ok(Solution::from_values(explored.states, values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Expansion, Kind, Nodes, Pick};
    use crate::numeric::value::fraction;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

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
        use crate::policy::options;
        use crate::simulate::{simulate, Player};
        let model = Piglet { goal: 3 };
        let exact = solve_exact(&model, &Settings::default()).unwrap();
        // After a first head: hold (bank 1) or flip again, with their values and losses.
        let scored = options(&model, &exact, (0, 0, 1, 0, false), Goal::Max).unwrap();
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
    const STAY: Nodes = Nodes(|s, out| match s {
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
    });

    #[test]
    fn an_end_component_is_worth_its_best_exit() {
        let exact = solve_exact(&STAY, &Settings::default()).unwrap();
        for s in 0..3 {
            assert_eq!(fraction(exact.get(&s).unwrap()), "5/1", "{s}");
        }
        let f = solve_certified(&STAY, &Settings::default()).unwrap();
        assert!((f.solution.start_value() - 5.0).abs() <= f.error_bound);
        assert!(f.error_bound <= 1e-12 * 5.0);
    }

    // Cycles through chance nodes, against a dense exact solve.

    /// A random absorbing chain: states 0..n, each a chance node (or a uniform choice)
    /// with a reward, weighted edges to random states (itself included) and an edge to
    /// the end state `n`, so every state can finish.
    /// A node: its kind, its reward, and its weighted edges.
    type Node = (Kind, i64, Vec<(u32, u64)>);

    struct Chain {
        n: u32,
        nodes: Vec<Node>,
    }

    impl Chain {
        fn random(rng: &mut ChaCha8Rng, n: u32) -> Chain {
            let nodes = (0..n)
                .map(|_| {
                    let kind = if rng.gen_bool(0.3) {
                        Kind::Choice(Pick::Uniform)
                    } else {
                        Kind::Chance
                    };
                    let mut edges: Vec<(u32, u64)> = (0..rng.gen_range(1..4))
                        .map(|_| (rng.gen_range(0..n), rng.gen_range(1..5)))
                        .collect();
                    edges.push((n, rng.gen_range(1..3)));
                    (kind, rng.gen_range(0..6), edges)
                })
                .collect();
            Chain { n, nodes }
        }
    }

    impl Model for Chain {
        type State = u32;
        fn start(&self) -> u32 {
            0
        }
        fn expand(&self, s: u32, out: &mut Expansion<u32>) {
            if s == self.n {
                out.terminal(0);
                return;
            }
            let (kind, reward, edges) = &self.nodes[s as usize];
            match kind {
                Kind::Choice(p) => out.choice(*p, *reward),
                _ => out.chance(*reward),
            }
            for &(to, w) in edges {
                out.weighted(to, w);
            }
        }
    }

    /// The same values by a dense Gauss-Jordan solve of `(I - P) v = r` in exact
    /// arithmetic, written independently of the solver.
    fn dense(chain: &Chain) -> Vec<Exact> {
        let n = chain.n as usize;
        let mut m = vec![vec![<Exact as Value>::zero(); n + 1]; n];
        for (i, (_, reward, edges)) in chain.nodes.iter().enumerate() {
            let total: u64 = edges.iter().map(|e| e.1).sum();
            m[i][i] = Exact::one();
            m[i][n] = Exact::from_int(*reward);
            for &(to, w) in edges {
                if (to as usize) < n {
                    let p = Exact::from_ratio(w as i64, total);
                    m[i][to as usize] = m[i][to as usize].sub(&p);
                }
            }
        }
        for col in 0..n {
            let pivot = (col..n)
                .find(|&r| m[r][col] != <Exact as Value>::zero())
                .expect("absorbing chains are regular");
            m.swap(col, pivot);
            let p = m[col][col].clone();
            for x in m[col].iter_mut() {
                *x = x.div(&p);
            }
            let pivot_row = m[col].clone();
            for (r, row) in m.iter_mut().enumerate() {
                if r != col && row[col] != <Exact as Value>::zero() {
                    let f = row[col].clone();
                    for (x, p) in row.iter_mut().zip(&pivot_row) {
                        *x = x.sub(&f.mul(p));
                    }
                }
            }
        }
        m.into_iter().map(|row| row[n].clone()).collect()
    }

    #[test]
    fn random_cyclic_chains_match_a_dense_solve() {
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        for case in 0..300 {
            let chain = Chain::random(&mut rng, 1 + case % 12);
            let expected = dense(&chain);
            let exact = solve_game::<_, Exact>(&chain, &Settings::default()).unwrap();
            let float = solve_game::<_, f64>(&chain, &Settings::default()).unwrap();
            for (s, want) in expected.iter().enumerate() {
                let s = s as u32;
                // Only states reachable from 0 are solved.
                if let Some(got) = exact.get(&s) {
                    assert_eq!(fraction(got), fraction(want), "case {case} state {s}");
                    let f = float.get(&s).unwrap();
                    assert!((f - want.to_f64()).abs() <= 1e-9 * want.to_f64().max(1.0));
                }
            }
        }
    }

    /// A counter 0..=2 that a die pushes up by 1 or 2, or back to 0 with weight
    /// `reset`; over 2 it ends. Nearly certain resets must not cost digits.
    struct Reset {
        reset: u64,
    }
    impl Model for Reset {
        type State = u8;
        fn start(&self) -> u8 {
            0
        }
        fn expand(&self, s: u8, out: &mut Expansion<u8>) {
            if s > 2 {
                out.terminal(0);
            } else {
                out.chance(1);
                out.weighted(s + 1, 1);
                out.weighted(s + 2, 1);
                out.weighted(0, self.reset);
            }
        }
    }

    #[test]
    fn nearly_certain_resets_keep_their_digits() {
        for reset in [1, 1000, 1_000_000_000] {
            let model = Reset { reset };
            let exact = solve_game::<_, Exact>(&model, &Settings::default()).unwrap();
            let float = solve_game::<_, f64>(&model, &Settings::default()).unwrap();
            let want = exact.start_value().to_f64();
            let rel = (float.start_value() - want).abs() / want;
            assert!(
                rel < 1e-13,
                "reset {reset}: {} vs {want}",
                float.start_value()
            );
        }
    }
}
