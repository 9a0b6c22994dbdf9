//! The values of Pig by a dedicated solver, generic over the arithmetic: the same code
//! gives `f64` (then certified by [`super::certify`](mod@super::certify)) and exact rationals.
//!
//! Everything is seen by the player to move: P(i, j, k) is that player's chance of
//! winning with banked score i, the opponent's j and turn total k. Holding gives
//! 1 - P(j, i + k, 0), losing the turn total 1 - P(j, i, 0), a throw that adds r leads to
//! P(i, j, k + r), and a total that reaches the goal wins at once.
//!
//! Scores only grow, so the score pairs are solved in decreasing order of i + j, and a
//! hold always leads to a pair already solved. Within a turn k only grows, so the turn is
//! one backward pass over k. The one cycle is between the two turns of a pair:
//! P(i, j, 0) and P(j, i, 0) hand the turn to each other when a turn total is lost. With
//! the decisions of both turns fixed, every value of a turn is affine in the other turn's
//! start value, `w + p (1 - y)` (p: the chance the turn ends by losing its total), so the
//! pair's two start values solve a 2x2 linear system exactly. Then each turn takes the
//! better option at every total given those values, and the pair is solved again, until
//! no decision changes (policy iteration; two or three rounds).
//!
//! Why the result is the game's value, exactly in rational arithmetic: when no decision
//! changes, every value is the best of its options given the others, so the values solve
//! the game's optimality equations. The game ends with probability one whatever both
//! players do (every turn banks something, or wins, with a chance bounded away from 0,
//! and scores are bounded), and for such a stopping game the optimality equations have
//! exactly one solution, the value. So a settled pair is proven, not approximated.
//!
//! Both players switching at once can in principle cycle in a two-player game; after a
//! number of rounds a pair falls back to rounds in which one player answers the other's
//! fixed decisions best before the other improves (Hoffman and Karp), which always ends.
//!
//! In floating point a decision changes only for an option better by a few units in the
//! last place: options equal but for rounding would otherwise trade places forever in
//! near-decided positions. What that may cost is within the certified bound, which does
//! not trust the decisions.

use std::cmp::Ordering;

use alea_core::{Exact, Value};

use super::rules::Rules;

/// Rounds of simultaneous improvement before a pair falls back to alternating.
const SIMULTANEOUS_ROUNDS: usize = 32;
/// A guard on the alternating rounds (each of one player's rounds, and the other's):
/// they end within a few rounds in practice.
const MAX_ROUNDS: usize = 100;

/// The start-of-turn values of one seat, the mover's banked score i against j at
/// `i * G + j`.
#[derive(Clone, Debug)]
pub(crate) struct Table<V> {
    /// The mover's chance of winning at the start of the turn.
    pub(crate) win: Vec<V>,
    /// 1 - win, stored because a hold into this position is worth it to the one who
    /// holds; reading it saves a subtraction (a costly one in exact arithmetic) per use.
    pub(crate) lose: Vec<V>,
}

impl<V: Value> Table<V> {
    fn new(g: usize) -> Table<V> {
        Table {
            win: vec![V::zero(); g * g],
            lose: vec![V::one(); g * g],
        }
    }
}

/// One turn as the solver sees it.
pub(crate) struct Turn<'a, V> {
    /// `hold[k]`: the mover's chance after holding at turn total k (k from 1; entry 0 is
    /// unused). Its length is the number of turn totals below the goal.
    pub(crate) hold: &'a [V],
    /// `Some(h)`: the mover holds at every total from h on, whatever the values (the
    /// fixed opponent of `--against`); `None`: the mover plays best.
    pub(crate) fixed: Option<usize>,
}

/// The cycle order: every score pair with i <= j (or every ordered pair when the seats
/// differ), in decreasing order of i + j, so that holds lead to pairs already solved.
pub(crate) fn pairs(g: usize, ordered: bool) -> impl Iterator<Item = (usize, usize)> {
    (0..=2 * (g - 1)).rev().flat_map(move |s| {
        let lo = s.saturating_sub(g - 1);
        let hi = if ordered { s.min(g - 1) } else { s / 2 };
        (lo..=hi).map(move |i| (i, s - i))
    })
}

/// Buffers reused by every pass.
struct Scratch<V> {
    w: Vec<V>,
    p: Vec<V>,
    holds: [Vec<bool>; 2],
}

/// The start values of a pair.
struct PairValues<V> {
    x: V,
    y: V,
}

/// The solver's state: the rules, the buffers, and how the pairs went.
struct Solver<'r, V> {
    rules: &'r Rules,
    n: V,
    scratch: Scratch<V>,
    rounds: usize,
    settled: bool,
    /// Rounds of both players improving at once before a pair falls back to
    /// alternating (0 in a test of the fallback).
    simultaneous: usize,
    /// Work done so far and the most allowed, in word operations.
    work: u64,
    budget: u64,
    /// How much better the other option must be for a decision to change: a few units
    /// of the arithmetic's precision in floating point, where options equal but for
    /// rounding would otherwise trade places round after round (near-decided positions
    /// are full of them); none in exact arithmetic.
    slack: Option<V>,
}

/// A few units of the arithmetic's precision: the first 2^-k that 1 no longer feels,
/// times 16; `None` when 1 + 2^-k stays above 1 as far as 2^-1100 (exact arithmetic).
fn slack<V: Value>() -> Option<V> {
    let one = V::one();
    let half = V::from_ratio(1, 2);
    let mut tiny = half.clone();
    for _ in 0..1100 {
        if one.add(&tiny).compare(&one) != Some(Ordering::Greater) {
            return Some(tiny.mul(&V::from_int(16)));
        }
        tiny = tiny.mul(&half);
    }
    None
}

impl<'r, V: Value> Solver<'r, V> {
    fn new(rules: &'r Rules) -> Solver<'r, V> {
        Solver {
            rules,
            n: V::from_int(i64::from(rules.outcomes())),
            scratch: Scratch {
                w: Vec::new(),
                p: Vec::new(),
                holds: [Vec::new(), Vec::new()],
            },
            rounds: 0,
            settled: true,
            simultaneous: SIMULTANEOUS_ROUNDS,
            work: 0,
            budget: u64::MAX,
            slack: slack(),
        }
    }

    /// Counts the work of the pair just solved: every round passed over both turns,
    /// each total looking at every outcome, on numbers of `words` machine words.
    fn charge(
        &mut self,
        rounds_before: usize,
        lengths: usize,
        words: u64,
    ) -> Result<(), OverBudget> {
        let rounds = (self.rounds - rounds_before) as u64;
        let steps = rounds * lengths as u64 * u64::from(self.rules.outcomes());
        self.work = self.work.saturating_add(steps.saturating_mul(words.max(1)));
        if self.work > self.budget {
            return Err(OverBudget {
                budget: self.budget,
            });
        }
        Ok(())
    }

    /// Solves the pair of turns `a` and `b` (`None`: the pair of a score with itself,
    /// whose lost total hands the same position to the opponent), starting from guesses
    /// of their start values.
    fn pair(&mut self, a: &Turn<V>, b: Option<&Turn<V>>, guess: (V, V)) -> PairValues<V> {
        for (side, turn) in [Some(a), b].into_iter().enumerate() {
            let holds = &mut self.scratch.holds[side];
            holds.clear();
            if let Some(t) = turn {
                holds.extend((0..t.hold.len()).map(|k| t.fixed.is_some_and(|h| k >= h)));
            }
        }
        let greedy_a = a.fixed.is_none();
        let greedy_b = b.is_some_and(|t| t.fixed.is_none());
        let (mut x, mut y) = guess;
        let mut last = None;
        for round in 0..self.simultaneous {
            let za = greedy_a.then(|| V::one().sub(&y));
            let zb = greedy_b.then(|| V::one().sub(&x));
            let (v, changed) = self.evaluate(a, b, za.as_ref(), zb.as_ref());
            if round > 0 && !changed[0] && !changed[1] {
                return v;
            }
            x = v.x.clone();
            y = v.y.clone();
            last = Some(v);
        }
        if !(greedy_a && greedy_b) {
            if let Some(v) = last {
                // One player improving alone always settles in exact arithmetic; only
                // rounding can keep two equal options trading places.
                self.settled = false;
                return v;
            }
        }
        for _ in 0..MAX_ROUNDS {
            // B's best answer to A's decisions as they stand...
            for inner in 0..MAX_ROUNDS {
                let z = V::one().sub(&x);
                let (v, changed) = self.evaluate(a, b, None, greedy_b.then_some(&z));
                x = v.x;
                y = v.y;
                if !changed[1] && inner > 0 {
                    break;
                }
            }
            // ...then A improves against it, until A has nothing to improve.
            let z = V::one().sub(&y);
            let (v, changed) = self.evaluate(a, b, greedy_a.then_some(&z), None);
            if !changed[0] {
                return v;
            }
            x = v.x.clone();
            y = v.y.clone();
            last = Some(v);
        }
        self.settled = false;
        last.expect("at least one round")
    }

    /// Chooses the decisions of each turn given `z` (the mover's chance right after
    /// losing the turn total; `None`: keep the decisions), evaluates both turns, and
    /// solves the pair. Also says which turn changed a decision.
    fn evaluate(
        &mut self,
        a: &Turn<V>,
        b: Option<&Turn<V>>,
        za: Option<&V>,
        zb: Option<&V>,
    ) -> (PairValues<V>, [bool; 2]) {
        self.rounds += 1;
        let s = &mut self.scratch;
        let how = Throws {
            gains: self.rules.gains(),
            n: &self.n,
            slack: self.slack.as_ref(),
        };
        let changed_a = pass(&how, a, za, &mut s.holds[0], &mut s.w, &mut s.p);
        let (wa, pa) = (s.w[0].clone(), s.p[0].clone());
        let Some(b) = b else {
            // x = w + p (1 - x).
            let x = wa.add(&pa).div(&V::one().add(&pa));
            return (PairValues { y: x.clone(), x }, [changed_a, false]);
        };
        let changed_b = pass(&how, b, zb, &mut s.holds[1], &mut s.w, &mut s.p);
        let (wb, pb) = (&s.w[0], &s.p[0]);
        // x = wa + pa (1 - y) and y = wb + pb (1 - x).
        let one = V::one();
        let x = wa
            .add(&pa.mul(&one.sub(wb).sub(pb)))
            .div(&one.sub(&pa.mul(pb)));
        let y = wb.add(&pb.mul(&one.sub(&x)));
        (PairValues { x, y }, [changed_a, changed_b])
    }
}

/// What a pass needs besides the turn: the gains of a throw, the number of outcomes,
/// and the slack a decision needs to change.
struct Throws<'a, V> {
    gains: &'a [usize],
    n: &'a V,
    slack: Option<&'a V>,
}

/// One backward pass over a turn. With `z`, each total takes the better option given
/// that a lost total is worth `z` (a decision changes only for an option better by more
/// than `slack`, and on a tie stays, so that improvement ends); without, the decisions
/// stay as they are. Leaves in `w` and `p` every total's value as `w + p z`, and says
/// whether a decision changed.
fn pass<V: Value>(
    how: &Throws<V>,
    turn: &Turn<V>,
    z: Option<&V>,
    holds: &mut [bool],
    w: &mut Vec<V>,
    p: &mut Vec<V>,
) -> bool {
    let len = turn.hold.len();
    w.clear();
    w.resize(len, V::zero());
    p.clear();
    p.resize(len, V::zero());
    let mut changed = false;
    for k in (0..len).rev() {
        let (roll_w, roll_p) = roll(how.gains, how.n, k, w, p);
        let hold = if k == 0 {
            false
        } else if let Some(z) = z {
            let roll_value = roll_w.add(&roll_p.mul(z));
            let (current, other) = if holds[k] {
                (&turn.hold[k], &roll_value)
            } else {
                (&roll_value, &turn.hold[k])
            };
            let better = match how.slack {
                Some(slack) => other.compare(&current.add(slack)),
                None => other.compare(current),
            };
            let hold = holds[k] != (better == Some(Ordering::Greater));
            changed |= hold != holds[k];
            holds[k] = hold;
            hold
        } else {
            holds[k]
        };
        if hold {
            w[k] = turn.hold[k].clone();
        } else {
            w[k] = roll_w;
            p[k] = roll_p;
        }
    }
    changed
}

/// Throwing at total k, as `w + p z`: each outcome is one of `n`; the losing one is worth
/// z, a gain that reaches the goal (the end of the arrays) 1.
fn roll<V: Value>(gains: &[usize], n: &V, k: usize, w: &[V], p: &[V]) -> (V, V) {
    let len = w.len();
    let mut sw = V::zero();
    let mut sp = V::one();
    let mut wins = 0;
    for &r in gains {
        let t = k + r;
        if t >= len {
            wins += 1;
        } else {
            sw = sw.add(&w[t]);
            sp = sp.add(&p[t]);
        }
    }
    if wins > 0 {
        sw = sw.add(&V::from_int(wins));
    }
    (sw.div(n), sp.div(n))
}

/// Every total's value for the mover, throwing and best, given z (the value of a lost
/// total): `(roll, best)` for k = 0 .. the goal; at 0 the turn must throw.
fn turn_values<V: Value>(gains: &[usize], n: &V, turn: &Turn<V>, z: &V) -> Vec<(V, V)> {
    let len = turn.hold.len();
    let mut best: Vec<V> = vec![V::zero(); len];
    let mut out = vec![(V::zero(), V::zero()); len];
    for k in (0..len).rev() {
        let mut s = z.clone();
        let mut wins = 0;
        for &r in gains {
            let t = k + r;
            if t >= len {
                wins += 1;
            } else {
                s = s.add(&best[t]);
            }
        }
        if wins > 0 {
            s = s.add(&V::from_int(wins));
        }
        let roll = s.div(n);
        let hold = if k == 0 {
            false
        } else {
            match turn.fixed {
                Some(h) => k >= h,
                None => turn.hold[k].compare(&roll) == Some(Ordering::Greater),
            }
        };
        best[k] = if hold {
            turn.hold[k].clone()
        } else {
            roll.clone()
        };
        out[k] = (roll, best[k].clone());
    }
    out
}

/// A first guess at a start value from a neighbouring pair already solved.
fn near<V: Value>(t: &Table<V>, g: usize, i: usize, j: usize) -> V {
    if j + 1 < g {
        t.win[i * g + j + 1].clone()
    } else if i + 1 < g {
        t.win[(i + 1) * g + j].clone()
    } else {
        V::from_ratio(1, 2)
    }
}

/// Both players playing best: the value of every position.
#[derive(Clone, Debug)]
pub struct Solved<V> {
    rules: Rules,
    pub(crate) table: Table<V>,
    /// Evaluations of a pair, summed over pairs (two or three a pair).
    pub rounds: usize,
    /// Every pair's improvement came to an end (always, but for the theoretical case of
    /// rounding trading equal options forever in `f64`, which the certificate covers).
    pub settled: bool,
}

/// The two options at a position where the mover decides, as the mover's chance of
/// winning after each.
#[derive(Clone, Debug, PartialEq)]
pub struct Options<V> {
    pub roll: V,
    pub hold: V,
}

impl<V: Value> Options<V> {
    /// Whether holding is best; on a tie holding is chosen (it ends the turn).
    pub fn holds(&self) -> bool {
        self.hold.compare(&self.roll) != Some(Ordering::Less)
    }

    /// The best option's chance.
    pub fn best(&self) -> &V {
        if self.holds() {
            &self.hold
        } else {
            &self.roll
        }
    }

    /// How much the worse option gives up.
    pub fn loss(&self) -> V {
        if self.holds() {
            self.hold.sub(&self.roll)
        } else {
            self.roll.sub(&self.hold)
        }
    }
}

/// The solve did more work than allowed (see [`solve_within`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverBudget {
    pub budget: u64,
}

/// Machine words of an exact value, what one operation on it costs, roughly: in exact
/// arithmetic the time depends on how large the fractions grow, which no count of
/// positions foretells (Piglet's grow far faster than Pig's), so the guard counts them.
pub fn exact_words(q: &Exact) -> u64 {
    (q.numer().bits() + q.denom().bits()) / 64 + 1
}

/// Solves the game with both players playing best.
pub fn solve<V: Value>(rules: &Rules) -> Solved<V> {
    solve_within(rules, &|_| 1, u64::MAX).expect("no limit")
}

/// Solves the game with both players playing best, stopping once the work passes
/// `budget`: positions times outcomes times the `size` of the values, in words.
pub fn solve_within<V: Value>(
    rules: &Rules,
    size: &dyn Fn(&V) -> u64,
    budget: u64,
) -> Result<Solved<V>, OverBudget> {
    solve_with(rules, size, budget, SIMULTANEOUS_ROUNDS)
}

fn solve_with<V: Value>(
    rules: &Rules,
    size: &dyn Fn(&V) -> u64,
    budget: u64,
    simultaneous: usize,
) -> Result<Solved<V>, OverBudget> {
    let g = rules.g();
    let mut t = Table::new(g);
    let mut solver = Solver::<V>::new(rules);
    solver.budget = budget;
    solver.simultaneous = simultaneous;
    for (i, j) in pairs(g, false) {
        let guess = (near(&t, g, i, j), near(&t, g, j, i));
        let before = solver.rounds;
        let v = {
            let a = Turn {
                hold: &t.lose[j * g + i..(j + 1) * g],
                fixed: None,
            };
            let b = Turn {
                hold: &t.lose[i * g + j..(i + 1) * g],
                fixed: None,
            };
            solver.pair(&a, (i != j).then_some(&b), guess)
        };
        let lengths = if i == j { g - i } else { 2 * g - i - j };
        solver.charge(before, lengths, size(&v.x).max(size(&v.y)))?;
        t.lose[i * g + j] = V::one().sub(&v.x);
        t.lose[j * g + i] = V::one().sub(&v.y);
        t.win[i * g + j] = v.x;
        t.win[j * g + i] = v.y;
    }
    Ok(Solved {
        rules: rules.clone(),
        table: t,
        rounds: solver.rounds,
        settled: solver.settled,
    })
}

impl<V: Value> Solved<V> {
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The first player's chance of winning.
    pub fn first_player_wins(&self) -> &V {
        &self.table.win[0]
    }

    /// The chance of winning of the player about to start a turn with banked score `me`
    /// against `opponent` (both below the goal).
    pub fn start_value(&self, me: usize, opponent: usize) -> &V {
        &self.table.win[me * self.rules.g() + opponent]
    }

    fn turn(&self, me: usize, opponent: usize) -> Vec<(V, V)> {
        let g = self.rules.g();
        let turn = Turn {
            hold: &self.table.lose[opponent * g + me..(opponent + 1) * g],
            fixed: None,
        };
        let n = V::from_int(i64::from(self.rules.outcomes()));
        turn_values(
            self.rules.gains(),
            &n,
            &turn,
            &self.table.lose[opponent * g + me],
        )
    }

    /// Both options with banked score `me`, the opponent's `opponent` and turn total
    /// `turn` (from 1, with `me + turn` below the goal); `None` outside those bounds.
    pub fn options(&self, me: usize, opponent: usize, turn: usize) -> Option<Options<V>> {
        let g = self.rules.g();
        if me >= g || opponent >= g || turn == 0 || me + turn >= g {
            return None;
        }
        let (roll, _) = self.turn(me, opponent).swap_remove(turn);
        Some(Options {
            roll,
            hold: self.table.lose[opponent * g + me + turn].clone(),
        })
    }

    /// The chance of winning of the player to move at every turn total of a turn, best
    /// play: entry k for k = 0 .. goal - me.
    pub fn turn_values(&self, me: usize, opponent: usize) -> Vec<V> {
        self.turn(me, opponent)
            .into_iter()
            .map(|(_, best)| best)
            .collect()
    }

    /// Where the optimal player holds, for every score pair (ties hold).
    pub fn policy(&self) -> Policy {
        policy_against(&self.rules, &self.table)
    }
}

/// The best mover's holds at every score pair, when holding into a position of `other`
/// (the opponent's seat) is worth its `lose` entry.
fn policy_against<V: Value>(rules: &Rules, other: &Table<V>) -> Policy {
    let g = rules.g();
    let n = V::from_int(i64::from(rules.outcomes()));
    let mut holds = Vec::with_capacity(g * g);
    for me in 0..g {
        for opponent in 0..g {
            let turn = Turn {
                hold: &other.lose[opponent * g + me..(opponent + 1) * g],
                fixed: None,
            };
            let values = turn_values(rules.gains(), &n, &turn, &other.lose[opponent * g + me]);
            holds.push(HoldSet::new(rules, me, |k| {
                turn.hold[k].compare(&values[k].0) != Some(Ordering::Less)
            }));
        }
    }
    Policy {
        goal: rules.goal(),
        holds,
    }
}

/// The turn totals at which the player holds, for one score pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoldSet {
    /// Runs of reachable totals at which the player holds, `(from, to)` inclusive,
    /// ascending; unreachable totals inside a run do not split it.
    pub runs: Vec<(u32, u32)>,
    /// The totals a turn can reach below the goal run up to this one (0 when the turn
    /// cannot reach any total above 0 short of the goal).
    last: u32,
    /// The smallest total that reaches the goal.
    to_goal: u32,
}

impl HoldSet {
    fn new(rules: &Rules, me: usize, holds_at: impl Fn(usize) -> bool) -> HoldSet {
        let len = rules.g() - me;
        let mut runs: Vec<(u32, u32)> = Vec::new();
        let mut last = 0;
        let mut open = false;
        for k in 1..len {
            if !rules.reachable(k as u64) {
                continue;
            }
            last = k as u32;
            if holds_at(k) {
                match runs.last_mut() {
                    Some(run) if open => run.1 = k as u32,
                    _ => runs.push((k as u32, k as u32)),
                }
                open = true;
            } else {
                open = false;
            }
        }
        HoldSet {
            runs,
            last,
            to_goal: len as u32,
        }
    }

    /// The smallest turn total at which the player holds; the total that reaches the
    /// goal when the player never holds short of it.
    pub fn threshold(&self) -> u32 {
        self.runs.first().map_or(self.to_goal, |r| r.0)
    }

    /// How the hold set looks beside a threshold.
    pub fn shape(&self) -> Shape {
        match self.runs.as_slice() {
            [] => Shape::Threshold,
            [(_, to)] if *to == self.last => Shape::Threshold,
            [_] => Shape::ThrowsOnNearGoal,
            _ => Shape::Gaps,
        }
    }

    /// Whether the player holds exactly at the totals from the threshold on.
    pub fn is_threshold(&self) -> bool {
        self.shape() == Shape::Threshold
    }

    pub fn holds(&self, k: u32) -> bool {
        self.runs.iter().any(|&(from, to)| from <= k && k <= to)
    }
}

/// How a hold set compares with "hold at t".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The player holds at every total from the threshold on.
    Threshold,
    /// The player holds from the threshold up to some total, and above it throws on to
    /// the goal (near the goal, where most throws win outright).
    ThrowsOnNearGoal,
    /// Between totals at which the player holds, it throws again at others (at 41
    /// against 49 in standard Pig: holds at 22 to 26, throws at 27, holds from 28).
    Gaps,
}

/// The optimal player's holds for every score pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    goal: u32,
    holds: Vec<HoldSet>,
}

impl Policy {
    pub fn goal(&self) -> u32 {
        self.goal
    }

    /// The holds with banked score `me` against `opponent`.
    pub fn at(&self, me: usize, opponent: usize) -> &HoldSet {
        &self.holds[me * self.goal as usize + opponent]
    }
}

/// A best player against a fixed "hold at h or at the goal" opponent.
#[derive(Clone, Debug)]
pub struct Against<V> {
    rules: Rules,
    pub hold_at: u32,
    /// The best player to move: banked i against the opponent's j.
    pub(crate) best: Table<V>,
    /// The fixed opponent to move: its banked i against the best player's j.
    pub(crate) fixed: Table<V>,
    pub rounds: usize,
    pub settled: bool,
}

/// Solves the game of a best player against one who holds as soon as the turn total
/// reaches `hold_at` (a one-player decision process: only one side chooses), stopping
/// once the work passes `budget` (as [`solve_within`]).
pub fn against<V: Value>(
    rules: &Rules,
    hold_at: u32,
    size: &dyn Fn(&V) -> u64,
    budget: u64,
) -> Result<Against<V>, OverBudget> {
    let g = rules.g();
    let h = hold_at as usize;
    let (mut best, mut fixed) = (Table::new(g), Table::new(g));
    let mut solver = Solver::<V>::new(rules);
    solver.budget = budget;
    for (a, b) in pairs(g, true) {
        let guess = (near(&best, g, a, b), near(&fixed, g, b, a));
        let before = solver.rounds;
        let v = {
            let turn_a = Turn {
                hold: &fixed.lose[b * g + a..(b + 1) * g],
                fixed: None,
            };
            let turn_b = Turn {
                hold: &best.lose[a * g + b..(a + 1) * g],
                fixed: Some(h),
            };
            solver.pair(&turn_a, Some(&turn_b), guess)
        };
        solver.charge(before, 2 * g - a - b, size(&v.x).max(size(&v.y)))?;
        best.lose[a * g + b] = V::one().sub(&v.x);
        fixed.lose[b * g + a] = V::one().sub(&v.y);
        best.win[a * g + b] = v.x;
        fixed.win[b * g + a] = v.y;
    }
    Ok(Against {
        rules: rules.clone(),
        hold_at,
        best,
        fixed,
        rounds: solver.rounds,
        settled: solver.settled,
    })
}

impl<V: Value> Against<V> {
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The best player's chance of winning when it moves first.
    pub fn moving_first(&self) -> &V {
        &self.best.win[0]
    }

    /// The best player's chance of winning when the fixed player moves first.
    pub fn moving_second(&self) -> &V {
        &self.fixed.lose[0]
    }

    /// Where the best player holds, for every score pair (ties hold).
    pub fn policy(&self) -> Policy {
        policy_against(&self.rules, &self.fixed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alea_core::fraction;

    use crate::pig::rules::Die;

    /// The alternating fallback, forced from the first round, reaches the same exact
    /// values as both players improving at once.
    #[test]
    fn the_alternating_fallback_agrees() {
        for rules in [
            Rules::piglet(6).unwrap(),
            Rules::new(12, Die::Faces(6)).unwrap(),
            Rules::new(9, Die::Faces(3)).unwrap(),
        ] {
            let fast = solve::<Exact>(&rules);
            let slow = solve_with::<Exact>(&rules, &|_| 1, u64::MAX, 0).unwrap();
            assert!(fast.settled && slow.settled);
            assert!(slow.rounds > fast.rounds);
            assert_eq!(fast.table.win, slow.table.win, "{rules:?}");
            assert_eq!(
                fraction(fast.first_player_wins()),
                fraction(slow.first_player_wins())
            );
        }
    }

    #[test]
    fn pairs_come_after_every_pair_they_hold_into() {
        for ordered in [false, true] {
            let g = 7;
            let order: Vec<(usize, usize)> = pairs(g, ordered).collect();
            let expected = if ordered { g * g } else { g * (g + 1) / 2 };
            assert_eq!(order.len(), expected);
            for (n, &(i, j)) in order.iter().enumerate() {
                assert!(i < g && j < g && (ordered || i <= j));
                // Every pair with a larger sum comes before.
                for &(a, b) in &order[n..] {
                    assert!(a + b <= i + j);
                }
            }
        }
    }

    #[test]
    fn the_budget_stops_the_work() {
        let rules = Rules::piglet(10).unwrap();
        let all = solve_within::<Exact>(&rules, &exact_words, u64::MAX).unwrap();
        assert!(all.settled);
        let err = solve_within::<Exact>(&rules, &exact_words, 1000).unwrap_err();
        assert_eq!(err, OverBudget { budget: 1000 });
        assert!(against::<f64>(&rules, 2, &|_| 1, 10).is_err());
    }
}
