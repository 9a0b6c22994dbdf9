//! `alea.pig`: two-player Pig as `alea pig` solves it: the first player's chance under
//! best play, a hint at one position, the optimal policy, and the best answer to a
//! "hold at H" opponent. A `PigGame` is one solve, kept for many hints.

use std::sync::{Arc, OnceLock};

use num_bigint::BigInt;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use alea_core::{Exact, Value};
use alea_games::pig::{
    against, certify, certify_against, exact_words, solve, solve_within, Certificate, Die,
    OverBudget, RuleError, Rules, Solved, MAX_FACES, MAX_GOAL,
};

use crate::errors;
use crate::work::interruptible;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pig_check, m)?)?;
    m.add_function(wrap_pyfunction!(pig_against, m)?)?;
    m.add_class::<PigGame>()?;
    Ok(())
}

/// The rules of `goal` and `faces` (or Piglet's coin), naming the argument at fault.
fn rules_of(goal: u64, faces: u64, piglet: bool) -> PyResult<Rules> {
    let goal = u32::try_from(goal).map_err(|_| {
        PyValueError::new_err(format!("goal: the goal is 1 to {MAX_GOAL}, not {goal}"))
    })?;
    let faces = u32::try_from(faces).map_err(|_| {
        PyValueError::new_err(format!(
            "faces: a die has 2 to {MAX_FACES} faces, not {faces} (face 1 loses the turn \
             total, so another face is needed)"
        ))
    })?;
    let die = if piglet { Die::Coin } else { Die::Faces(faces) };
    Rules::new(goal, die).map_err(|e| {
        let name = match e {
            RuleError::Goal(_) => "goal",
            RuleError::Faces(_) => "faces",
        };
        PyValueError::new_err(format!("{name}: {e}"))
    })
}

/// The guard checked before starting: `factor` games of the size of `rules`.
fn check_work(py: Python<'_>, rules: &Rules, max_work: u64, factor: u128) -> PyResult<()> {
    let work = rules.work() * factor;
    if work > u128::from(max_work) {
        return Err(errors::limit(
            py,
            &format!(
                "the goal {} with {} takes {work} steps ({} positions x {} outcomes{}), above \
                 max_work {max_work}; raise max_work to compute it (the work grows with the \
                 cube of the goal)",
                rules.goal(),
                rules.die(),
                rules.states() * factor,
                rules.outcomes(),
                if factor > 1 { ", both seats" } else { "" },
            ),
            "max_work",
        ));
    }
    Ok(())
}

fn over_budget(py: Python<'_>, e: OverBudget) -> PyErr {
    errors::limit(
        py,
        &format!(
            "exact arithmetic passed max_exact_work {} word operations before the end (the \
             fractions grow with the goal); raise max_exact_work to go on",
            e.budget
        ),
        "max_exact_work",
    )
}

fn unsettled() -> PyErr {
    PyRuntimeError::new_err("the exact solve did not settle; this is a bug, please report it")
}

/// An exact value as `(numerator, denominator)`.
fn ratio(q: &Exact) -> (BigInt, BigInt) {
    (q.numer().clone(), q.denom().clone())
}

/// Checks a position against the rules, naming the argument at fault.
fn check_position(rules: &Rules, me: u64, opponent: u64, turn: u64) -> PyResult<()> {
    let bad = |m: String| Err(PyValueError::new_err(m));
    let g = u64::from(rules.goal());
    for (name, score) in [("me", me), ("opponent", opponent)] {
        if score >= g {
            return bad(format!(
                "{name} {score}: a banked score is below the goal ({g}); at the goal the \
                 game is over"
            ));
        }
    }
    if turn == 0 {
        return bad(format!(
            "turn 0: a turn starts with a throw, so there is nothing to decide yet; give the \
             turn total after a throw ({} or more)",
            rules.first_total()
        ));
    }
    if !rules.reachable(turn) {
        let which = match rules.die() {
            Die::Faces(2) => "with a 2-sided die a turn total is even".to_string(),
            die => format!(
                "with {die} a 1 loses the turn total, so a turn's totals are 0 and 2 or more"
            ),
        };
        return bad(format!("turn {turn}: no turn reaches that total ({which})"));
    }
    // `turn` comes from Python unbounded: checked on its own first, so the sum cannot
    // overflow.
    if turn >= g || me + turn >= g {
        return bad(format!(
            "me {me} turn {turn}: {} reaches the goal ({g}), so the player has already won; \
             the banked score plus the turn total must be below the goal",
            u128::from(me) + u128::from(turn)
        ));
    }
    Ok(())
}

/// Checks the rules and a position without solving (a hint's arguments are checked
/// before its solve).
#[pyfunction]
fn pig_check(
    goal: u64,
    faces: u64,
    piglet: bool,
    me: u64,
    opponent: u64,
    turn: u64,
) -> PyResult<()> {
    let rules = rules_of(goal, faces, piglet)?;
    check_position(&rules, me, opponent, turn)
}

/// `alea pig --against hold-at-H --json`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn pig_against<'py>(
    py: Python<'py>,
    goal: u64,
    faces: u64,
    piglet: bool,
    hold_at: u32,
    exact: bool,
    max_work: u64,
    max_exact_work: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_of(goal, faces, piglet)?;
    if hold_at == 0 {
        return Err(PyValueError::new_err(
            "against: expected hold-at-H with H a whole number from 1 on, not hold-at-0",
        ));
    }
    check_work(py, &rules, max_work, 2)?;
    let o = PyDict::new(py);
    o.set_item("against", format!("hold-at-{hold_at}"))?;
    let states = rules.states() * 2;
    if exact {
        let r = rules.clone();
        let s = interruptible(py, move || {
            against::<Exact>(&r, hold_at, &exact_words, max_exact_work)
        })?
        .map_err(|e| over_budget(py, e))?;
        if !s.settled {
            return Err(unsettled());
        }
        let (first, second) = (s.moving_first(), s.moving_second());
        o.set_item("moving_first", first.to_f64())?;
        o.set_item("moving_second", second.to_f64())?;
        o.set_item("error_bound", 0.0)?;
        o.set_item("states", states)?;
        o.set_item("moving_first_exact", ratio(first))?;
        o.set_item("moving_second_exact", ratio(second))?;
    } else {
        let r = rules.clone();
        let (first, second, bound) = interruptible(py, move || {
            let s = against::<f64>(&r, hold_at, &|_| 1, u64::MAX).expect("no limit");
            (
                *s.moving_first(),
                *s.moving_second(),
                certify_against(&s).error_bound,
            )
        })?;
        o.set_item("moving_first", first)?;
        o.set_item("moving_second", second)?;
        o.set_item("error_bound", bound)?;
        o.set_item("states", states)?;
    }
    Ok(o)
}

/// A solution in the arithmetic asked for.
enum Solution {
    Float(Arc<Solved<f64>>),
    Exact(Arc<Solved<Exact>>),
}

/// One game of Pig solved with both players best: the solve is done once, its
/// certificate of error (floating point only) when first needed.
#[pyclass(frozen, module = "alea._alea")]
pub struct PigGame {
    rules: Rules,
    solution: Solution,
    certificate: OnceLock<Arc<Certificate>>,
}

impl PigGame {
    /// The certificate of the floating-point solve, worked out off the interpreter the
    /// first time.
    fn certificate(&self, py: Python<'_>, s: &Arc<Solved<f64>>) -> PyResult<Arc<Certificate>> {
        if let Some(c) = self.certificate.get() {
            return Ok(c.clone());
        }
        let s = s.clone();
        let c = interruptible(py, move || Arc::new(certify(&s)))?;
        Ok(self.certificate.get_or_init(|| c).clone())
    }
}

#[pymethods]
impl PigGame {
    /// Checks the rules and the guards, and solves.
    #[new]
    #[pyo3(signature = (goal, faces, piglet, exact, max_work, max_exact_work))]
    fn new(
        py: Python<'_>,
        goal: u64,
        faces: u64,
        piglet: bool,
        exact: bool,
        max_work: u64,
        max_exact_work: u64,
    ) -> PyResult<PigGame> {
        let rules = rules_of(goal, faces, piglet)?;
        check_work(py, &rules, max_work, 1)?;
        let r = rules.clone();
        let solution = if exact {
            let s = interruptible(py, move || {
                solve_within::<Exact>(&r, &exact_words, max_exact_work)
            })?
            .map_err(|e| over_budget(py, e))?;
            if !s.settled {
                return Err(unsettled());
            }
            Solution::Exact(Arc::new(s))
        } else {
            Solution::Float(Arc::new(interruptible(py, move || solve::<f64>(&r))?))
        };
        Ok(PigGame {
            rules,
            solution,
            certificate: OnceLock::new(),
        })
    }

    #[getter]
    fn goal(&self) -> u32 {
        self.rules.goal()
    }

    /// The faces of the die; `None` for Piglet's coin.
    #[getter]
    fn faces(&self) -> Option<u32> {
        match self.rules.die() {
            Die::Faces(n) => Some(n),
            Die::Coin => None,
        }
    }

    #[getter]
    fn exact(&self) -> bool {
        matches!(self.solution, Solution::Exact(_))
    }

    /// The die as the command line names it.
    #[getter]
    fn die(&self) -> String {
        self.rules.die().to_string()
    }

    /// The first player's chance (without its certificate).
    fn first_player_wins(&self) -> f64 {
        match &self.solution {
            Solution::Exact(s) => s.first_player_wins().to_f64(),
            Solution::Float(s) => *s.first_player_wins(),
        }
    }

    /// `alea pig --json`.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let o = PyDict::new(py);
        let states = self.rules.states();
        match &self.solution {
            Solution::Exact(s) => {
                let p = s.first_player_wins();
                o.set_item("first_player_wins", p.to_f64())?;
                o.set_item("error_bound", 0.0)?;
                o.set_item("states", states)?;
                o.set_item("first_player_wins_exact", ratio(p))?;
            }
            Solution::Float(s) => {
                let bound = self.certificate(py, s)?.error_bound;
                o.set_item("first_player_wins", *s.first_player_wins())?;
                o.set_item("error_bound", bound)?;
                o.set_item("states", states)?;
            }
        }
        Ok(o)
    }

    /// `alea pig hint --json` at a position.
    fn hint<'py>(
        &self,
        py: Python<'py>,
        me: u64,
        opponent: u64,
        turn: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        check_position(&self.rules, me, opponent, turn)?;
        let (me, opponent, turn) = (me as usize, opponent as usize, turn as usize);
        let o = PyDict::new(py);
        match &self.solution {
            Solution::Exact(s) => {
                let x = s
                    .options(me, opponent, turn)
                    .expect("the position was checked");
                let loss = x.loss();
                o.set_item("roll", x.roll.to_f64())?;
                o.set_item("hold", x.hold.to_f64())?;
                o.set_item("best", if x.holds() { "hold" } else { "roll" })?;
                o.set_item("loss", loss.to_f64())?;
                o.set_item("error_bound", 0.0)?;
                o.set_item("roll_exact", ratio(&x.roll))?;
                o.set_item("hold_exact", ratio(&x.hold))?;
                o.set_item("loss_exact", ratio(&loss))?;
            }
            Solution::Float(s) => {
                let x = s
                    .options(me, opponent, turn)
                    .expect("the position was checked");
                let bound = self
                    .certificate(py, s)?
                    .options_error(s, me, opponent, turn)
                    .expect("the position was checked");
                o.set_item("roll", x.roll)?;
                o.set_item("hold", x.hold)?;
                o.set_item("best", if x.holds() { "hold" } else { "roll" })?;
                o.set_item("loss", x.loss())?;
                o.set_item("error_bound", bound)?;
            }
        }
        Ok(o)
    }

    /// `alea pig policy --json`.
    fn policy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (policy, uncertain) = match &self.solution {
            Solution::Exact(s) => {
                let s = s.clone();
                (interruptible(py, move || s.policy())?, Vec::new())
            }
            Solution::Float(s) => {
                let c = self.certificate(py, s)?;
                let s = s.clone();
                interruptible(py, move || (s.policy(), c.uncertain_decisions(&s)))?
            }
        };
        let g = self.rules.goal() as usize;
        let threshold: Vec<Vec<u32>> = (0..g)
            .map(|i| (0..g).map(|j| policy.at(i, j).threshold()).collect())
            .collect();
        let exceptions = PyList::empty(py);
        for i in 0..g {
            for j in 0..g {
                let h = policy.at(i, j);
                if h.is_threshold() {
                    continue;
                }
                let d = PyDict::new(py);
                d.set_item("me", i)?;
                d.set_item("opponent", j)?;
                d.set_item("holds", h.runs.clone())?;
                exceptions.append(d)?;
            }
        }
        let o = PyDict::new(py);
        o.set_item("goal", self.rules.goal())?;
        o.set_item("threshold", threshold)?;
        o.set_item("exceptions", exceptions)?;
        o.set_item("uncertain", uncertain)?;
        Ok(o)
    }
}
