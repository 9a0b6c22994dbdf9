//! Best play read off a solved model: every option of a position with its value and its
//! loss against the best, and the line of play that follows the best options.

use std::cmp::Ordering;

use crate::error::{Error, Result};
use crate::model::{Expansion, Kind, Model, Pick};
use crate::numeric::value::Value;
use crate::solution::{improves, Solution};
use crate::solve::Goal;

/// The pick that ranks options for `goal`: greatest value first (probabilities, scores)
/// or least first (expected times).
fn pick(goal: Goal) -> Pick {
    match goal {
        Goal::Max => Pick::Max,
        Goal::Min => Pick::Min,
    }
}

/// One option of a position: its edge as the model listed it, where it leads, the value
/// of the position it leads to, and how much worse that is than the best option.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored<S, V> {
    pub edge: usize,
    pub to: S,
    pub value: V,
    pub loss: V,
}

/// Every successor of `state`, best first for `goal` (ties keep the model's order).
/// The value of an option is the value of the position it leads to, without the node's
/// own reward. A terminal state has no options.
pub fn options<M: Model, V: Value>(
    model: &M,
    solution: &Solution<M::State, V>,
    state: M::State,
    goal: Goal,
) -> Result<Vec<Scored<M::State, V>>> {
    let mut buf = Expansion::default();
    model.expand(model.canonical(state), &mut buf);
    if buf.kind == Kind::Terminal {
        return Ok(Vec::new());
    }
    if buf.edges.is_empty() {
        return Err(Error::no_successors(format!("{state:?}"), buf.kind));
    }
    let mut scored = Vec::with_capacity(buf.edges.len());
    for (edge, e) in buf.edges.iter().enumerate() {
        let canonical = model.canonical(e.to);
        let value = solution
            .get(&canonical)
            .ok_or_else(|| Error::Unsolved(format!("{canonical:?}")))?
            .clone();
        scored.push(Scored {
            edge,
            to: e.to,
            loss: V::zero(),
            value,
        });
    }
    // Find the best first, so an unordered arithmetic fails before sorting.
    let mut best = scored[0].value.clone();
    for s in &scored[1..] {
        if improves(pick(goal), &s.value, &best)? {
            best = s.value.clone();
        }
    }
    for s in scored.iter_mut() {
        s.loss = match goal {
            Goal::Max => best.sub(&s.value),
            Goal::Min => s.value.sub(&best),
        };
    }
    // Rank by the values themselves: two losses can round to the same number in
    // floating point when the values differ.
    scored.sort_by(|a, b| {
        let ord = a.value.compare(&b.value).unwrap_or(Ordering::Equal);
        let ord = match goal {
            Goal::Max => ord.reverse(),
            Goal::Min => ord,
        };
        ord.then(a.edge.cmp(&b.edge))
    });
    Ok(scored)
}

/// From the start, follow the best option at every choice until a terminal or chance
/// node: the principal line of play, as (edge index, state reached) pairs.
pub fn best_line<M: Model, V: Value>(
    model: &M,
    solution: &Solution<M::State, V>,
    goal: Goal,
) -> Result<Vec<(usize, M::State)>> {
    let mut line = Vec::new();
    let mut state = model.start();
    let mut buf = Expansion::default();
    loop {
        model.expand(model.canonical(state), &mut buf);
        if !matches!(buf.kind, Kind::Choice(_)) {
            return Ok(line);
        }
        let best = options(model, solution, state, goal)?
            .into_iter()
            .next()
            .ok_or_else(|| Error::no_successors(format!("{state:?}"), buf.kind))?;
        line.push((best.edge, best.to));
        state = best.to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::Limits;
    use crate::model::Nodes;
    use crate::numeric::value::{fraction, Exact};
    use crate::solve::acyclic::solve;

    /// From 0, choose among three chances: a sure 2, a coin between 0 and 6, or go to
    /// state 4, a choice between a sure 1 and a sure 5.
    const MENU: Nodes = Nodes(|s, out| match s {
        0 => {
            out.choice(Pick::Max, 0);
            out.edge(1);
            out.edge(2);
            out.edge(4);
        }
        2 => {
            out.chance(0);
            out.edge(10);
            out.edge(16);
        }
        4 => {
            out.choice(Pick::Max, 0);
            out.edge(11);
            out.edge(15);
        }
        1 => out.terminal(2),
        t => out.terminal(i64::from(t) - 10),
    });

    #[test]
    fn options_are_ranked_with_their_loss() {
        let s = solve::<_, Exact>(&MENU, &Limits::default()).unwrap();
        let opts = options(&MENU, &s, 0, Goal::Max).unwrap();
        let seen: Vec<(usize, String, String)> = opts
            .iter()
            .map(|o| (o.edge, fraction(&o.value), fraction(&o.loss)))
            .collect();
        assert_eq!(
            seen,
            vec![
                (2, "5/1".into(), "0/1".into()),
                (1, "3/1".into(), "2/1".into()),
                (0, "2/1".into(), "3/1".into()),
            ]
        );
        let worst_first = options(&MENU, &s, 0, Goal::Min).unwrap();
        assert_eq!(worst_first[0].edge, 0);
        assert_eq!(fraction(&worst_first[2].loss), "3/1");
    }

    #[test]
    fn best_line_follows_choices_to_the_end() {
        let s = solve::<_, f64>(&MENU, &Limits::default()).unwrap();
        assert_eq!(
            best_line(&MENU, &s, Goal::Max).unwrap(),
            vec![(2, 4), (1, 15)]
        );
        assert!(options(&MENU, &s, 15, Goal::Max).unwrap().is_empty());
    }

    /// Values too close for their losses to differ in f64 still rank in order.
    const TINY: Nodes = Nodes(|s, out| {
        match s {
            0 => {
                out.choice(Pick::Max, 0);
                out.edge(1);
                out.edge(2);
                out.edge(3);
            }
            // A chance of 1 in 2^k to score 1: values 1/2, 2^-62, 2^-61.
            1 => out.terminal(0),
            _ => {
                out.chance(0);
                out.weighted(10, 1);
                out.weighted(11, [0, 0, 1u64 << 62, 1 << 61][s as usize]);
            }
        }
    });

    #[test]
    fn ranking_uses_values_not_rounded_losses() {
        const WRAP: Nodes = Nodes(|s, out| match s {
            1 => {
                out.chance(0);
                out.edge(10);
                out.edge(11);
            }
            10 => out.terminal(1),
            11 => out.terminal(0),
            s => TINY.expand(s, out),
        });
        let s = solve::<_, f64>(&WRAP, &Limits::default()).unwrap();
        let order: Vec<usize> = options(&WRAP, &s, 0, Goal::Max)
            .unwrap()
            .iter()
            .map(|o| o.edge)
            .collect();
        assert_eq!(order, vec![0, 2, 1]);
    }

    #[test]
    fn a_choice_without_options_is_an_error_not_a_panic() {
        const EMPTY: Nodes = Nodes(|_, out| {
            out.choice(Pick::Max, 0);
        });
        let s = Solution {
            start: Some(0u8),
            values: Default::default(),
        };
        let err = options::<_, f64>(&EMPTY, &s, 0, Goal::Max).unwrap_err();
        assert!(matches!(err, Error::NoSuccessors { .. }), "{err}");
    }
}
