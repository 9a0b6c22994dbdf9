//! The path quantifiers of CTL on a form: the states from which some path (`E`), or
//! every path (`A`), satisfies `stay U target`, unbounded or within a number of steps.
//! A path moves by any transition of any choice, whatever its probability: these are
//! facts of the graph, not of the numbers (every path reaching a set is more than
//! reaching it with probability one: a loop that could be taken for ever is a path
//! too).

use crate::analysis::graph::Graph;
use crate::form::Form;

/// Which paths a state formula asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// Some path (`E`).
    Some,
    /// Every path (`A`).
    Every,
}

/// The states from which some (every) path stays in `stay` until it reaches `target`
/// (`target` included).
pub fn until(m: &Form, q: Quantifier, stay: &[bool], target: &[bool]) -> Vec<bool> {
    let g = Graph::new(m);
    match q {
        Quantifier::Some => g.exists_reach(target, stay, |_, _| {}),
        Quantifier::Every => every_path_reaches(&g, target, stay),
    }
}

/// The least set containing `seed` and each state of `through` all of whose transitions
/// lead into it: a state joins once every one of its transitions (of every choice) has
/// been seen to lead in, so that a loop keeps a state out.
fn every_path_reaches(g: &Graph, seed: &[bool], through: &[bool]) -> Vec<bool> {
    let m = g.m;
    let mut reached = seed.to_vec();
    let mut left: Vec<usize> = (0..g.states())
        .map(|s| m.row[m.choices[s + 1]] - m.row[m.choices[s]])
        .collect();
    let mut stack: Vec<u32> = (0..g.states() as u32)
        .filter(|&s| seed[s as usize])
        .collect();
    while let Some(t) = stack.pop() {
        // One entry per transition into `t`: each counts once, as `t` joins once.
        for &c in g.preds(t as usize) {
            let s = g.owner[c as usize] as usize;
            if reached[s] || !through[s] {
                continue;
            }
            left[s] -= 1;
            if left[s] == 0 {
                reached[s] = true;
                stack.push(s as u32);
            }
        }
    }
    reached
}

/// `k` steps of a quantifier from `start`: a state of `open` holds at a step when some
/// (every) transition leads to a state that holds at the next; a state outside `open`
/// holds as `start` says when `keep`, and otherwise only at the last step (after the
/// `k`-th, as in [`crate::solve::prefix`]). The states that hold at step 0.
pub fn steps(
    m: &Form,
    q: Quantifier,
    open: &[bool],
    start: &[bool],
    k: u64,
    keep: bool,
) -> Vec<bool> {
    let n = m.states();
    let mut cur = start.to_vec();
    for i in 0..k {
        let next: Vec<bool> = (0..n)
            .map(|s| {
                if !open[s] {
                    return keep && start[s];
                }
                let mut succ = m.choices_of(s).flat_map(|c| &m.to[m.transitions_of(c)]);
                match q {
                    Quantifier::Some => succ.any(|&t| cur[t as usize]),
                    Quantifier::Every => succ.all(|&t| cur[t as usize]),
                }
            })
            .collect();
        let unchanged = next == cur;
        cur = next;
        // A step that changes nothing repeats; the first step of a prefix does change
        // the closed states, so it is never the last by this rule.
        if unchanged && (keep || i > 0) {
            break;
        }
    }
    cur
}

/// `stay U<=k target` for some (every) path.
pub fn bounded_until(m: &Form, q: Quantifier, stay: &[bool], target: &[bool], k: u64) -> Vec<bool> {
    let open: Vec<bool> = (0..m.states()).map(|s| stay[s] && !target[s]).collect();
    steps(m, q, &open, target, k, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::graph::tests::model;

    #[test]
    fn every_path_is_more_than_probability_one() {
        // 0 -> {0, 1} (a coin that may land on itself for ever), 1 absorbing.
        let m = model(&[&[&[(0, 0.5), (1, 0.5)]], &[&[(1, 1.0)]]]);
        let (all, goal) = (vec![true, true], vec![false, true]);
        assert_eq!(until(&m, Quantifier::Some, &all, &goal), vec![true, true]);
        assert_eq!(until(&m, Quantifier::Every, &all, &goal), vec![false, true]);
        // Within one step some path reaches 1 from 0; not every path does.
        assert_eq!(
            bounded_until(&m, Quantifier::Some, &all, &goal, 1),
            vec![true, true]
        );
        assert_eq!(
            bounded_until(&m, Quantifier::Every, &all, &goal, 1),
            vec![false, true]
        );
    }

    #[test]
    fn every_path_counts_each_choice() {
        // 0 has two choices: to 1, or to 2; only 1 is the goal.
        let m = model(&[&[&[(1, 1.0)], &[(2, 1.0)]], &[&[(1, 1.0)]], &[&[(2, 1.0)]]]);
        let (all, goal) = (vec![true; 3], vec![false, true, false]);
        assert_eq!(
            until(&m, Quantifier::Every, &all, &goal),
            vec![false, true, false]
        );
        assert_eq!(
            until(&m, Quantifier::Some, &all, &goal),
            vec![true, true, false]
        );
    }

    #[test]
    fn a_prefix_must_stay_open_until_its_last_step() {
        // A line 0 -> 1 -> 2 -> 2; open {0, 1}; the start holds at 2 only.
        let m = model(&[&[&[(1, 1.0)]], &[&[(2, 1.0)]], &[&[(2, 1.0)]]]);
        let open = vec![true, true, false];
        let start = vec![false, false, true];
        assert_eq!(
            steps(&m, Quantifier::Some, &open, &start, 2, false),
            vec![true, false, false]
        );
        assert_eq!(
            steps(&m, Quantifier::Some, &open, &start, 1, false),
            vec![false, true, false]
        );
        assert_eq!(steps(&m, Quantifier::Some, &open, &start, 0, false), start);
    }
}
