//! Searches over the graph of a form, before any arithmetic: the states that reach a set
//! with some strategy or with every strategy (in a game: the attractor of one player
//! against the other), the classic sets of probability 0 and 1 built from them, and the
//! maximal end components of a region (the largest sets of states in which some strategy
//! keeps the process forever, and each of whose states it can reach from the others).
//!
//! Every search runs backwards from a set over the predecessor lists, once per state and
//! transition, except the nested fixed point for "probability 1 under the best strategy"
//! and the end-component refinement, which repeat a linear pass until nothing changes
//! (a few times on real models).

use super::components::components;
use crate::form::Form;
use crate::solve::Goal;

/// No state, choice or component.
pub(crate) const NONE: u32 = u32::MAX;

/// A model with the reverse edges: for each state, the choices that may move into it.
pub(crate) struct Graph<'a> {
    pub m: &'a Form,
    /// The state each choice belongs to.
    pub owner: Vec<u32>,
    /// `pred[pred_start[t]..pred_start[t + 1]]`: choices with a transition into `t`,
    /// ascending (a choice appears once per transition into `t`).
    pred_start: Vec<usize>,
    pred: Vec<u32>,
    /// Every state has one choice: a Markov chain.
    pub markov: bool,
    /// Both players have a state with more than one choice: a two-player game. (When
    /// only one of them has, the form is a decision process for that player's goal; see
    /// [`Graph::goal`].)
    pub game: bool,
    /// Only the second player has choices to make.
    second_only: bool,
}

impl<'a> Graph<'a> {
    pub fn new(m: &'a Form) -> Self {
        let n = m.states();
        let nc = m.choice_count();
        let mut owner = vec![0u32; nc];
        for s in 0..n {
            for c in m.choices_of(s) {
                owner[c] = s as u32;
            }
        }
        // A counting sort by target: first the end of each target's block, then the
        // transitions placed from the back, which leaves each block's start behind and
        // each block ascending.
        let mut pred_start = vec![0usize; n + 1];
        for &t in &m.to {
            pred_start[t as usize] += 1;
        }
        for i in 1..=n {
            pred_start[i] += pred_start[i - 1];
        }
        let mut pred = vec![0u32; m.to.len()];
        for c in (0..nc).rev() {
            for t in m.transitions_of(c).rev() {
                let slot = &mut pred_start[m.to[t] as usize];
                *slot -= 1;
                pred[*slot] = c as u32;
            }
        }
        let markov = (0..n).all(|s| m.choices[s + 1] - m.choices[s] == 1);
        let chooses = |second: bool| {
            (0..n).any(|s| {
                m.choices[s + 1] - m.choices[s] > 1
                    && (!m.opponent.is_empty() && m.opponent[s]) == second
            })
        };
        let (first, second) = if m.opponent.is_empty() {
            (!markov, false)
        } else {
            (chooses(false), chooses(true))
        };
        Graph {
            m,
            owner,
            pred_start,
            pred,
            markov,
            game: first && second,
            second_only: second && !first,
        }
    }

    /// Whether state `s` belongs to the second player.
    #[inline]
    pub fn against(&self, s: usize) -> bool {
        !self.m.opponent.is_empty() && self.m.opponent[s]
    }

    /// The goal of the one player who chooses, given the first player's: in a form whose
    /// every choice is the second player's, the other goal. (In a game, see
    /// [`Graph::goal_at`].)
    pub fn goal(&self, first: Goal) -> Goal {
        if self.second_only {
            first.opposite()
        } else {
            first
        }
    }

    /// The goal of the player who chooses at `s`.
    #[inline]
    pub fn goal_at(&self, first: Goal, s: usize) -> Goal {
        if self.against(s) {
            first.opposite()
        } else {
            first
        }
    }

    /// In a game, where the first player's goal is `first`: the states of `seed`, and
    /// those of `through` from which the player whose goal is `reacher` reaches `seed`
    /// with positive probability, whatever the other does (some choice of the reacher's
    /// states, every choice of the other's, leads into the set).
    pub fn attract(
        &self,
        seed: &[bool],
        through: &[bool],
        first: Goal,
        reacher: Goal,
    ) -> Vec<bool> {
        self.counting(seed, through, |s| self.goal_at(first, s) == reacher)
    }

    /// The states of `seed`, and those of `through` that reach it with positive
    /// probability through `through` by some choice where `any(s)`, by every choice
    /// elsewhere: each state joins once as many of its choices lead into the set as it
    /// needs (one, or all).
    fn counting(&self, seed: &[bool], through: &[bool], any: impl Fn(usize) -> bool) -> Vec<bool> {
        let m = self.m;
        let mut reached = seed.to_vec();
        let mut left: Vec<u32> = (0..self.states())
            .map(|s| {
                if any(s) {
                    1
                } else {
                    (m.choices[s + 1] - m.choices[s]) as u32
                }
            })
            .collect();
        let mut hit = vec![false; m.choice_count()];
        let mut stack: Vec<u32> = (0..self.states() as u32)
            .filter(|&s| seed[s as usize])
            .collect();
        while let Some(t) = stack.pop() {
            for &c in self.preds(t as usize) {
                let s = self.owner[c as usize] as usize;
                if reached[s] || !through[s] || hit[c as usize] {
                    continue;
                }
                hit[c as usize] = true;
                left[s] -= 1;
                if left[s] == 0 {
                    reached[s] = true;
                    stack.push(s as u32);
                }
            }
        }
        reached
    }

    /// In a game, where the first player's goal is `first`: the states from which the
    /// player whose goal is `reacher` reaches `seed` with probability 1 through `through`,
    /// whatever the other does (`seed` included). `via[s]` receives, for each such state
    /// of the reacher in `through`, a choice that keeps probability 1 and moves nearer
    /// `seed`.
    ///
    /// The nested fixed point: keep the candidates `z` (at first every state); find the
    /// states that reach `seed` with positive probability over choices that stay among
    /// the candidates (the reacher's: one such choice; the other's: every choice must be
    /// one); those are the new candidates; repeat until they stay the same.
    ///
    /// A choice leaves the candidates once a successor does, and stays leaving (they only
    /// shrink): that is kept per choice rather than looked up again. After each round,
    /// the states that must follow the ones dropped are dropped at once (those where the
    /// other player has a leaving choice, and the reacher's whose choices all leave),
    /// each choice looked at once over all rounds: the next round would drop them anyway,
    /// one layer a round.
    ///
    /// `positive`, when given, receives [`Graph::attract`] for the same sets where the
    /// first round finds it (no choice leaves the candidates at the start, which makes
    /// that round the same search), and is left empty otherwise.
    pub fn almost_sure(
        &self,
        seed: &[bool],
        through: &[bool],
        first: Goal,
        reacher: Goal,
        via: &mut [u32],
        mut positive: Option<&mut Vec<bool>>,
    ) -> Vec<bool> {
        let m = self.m;
        let n = self.states();
        let mut z: Vec<bool> = (0..n).map(|s| seed[s] || through[s]).collect();
        let mut leaves: Vec<bool> = (0..m.choice_count())
            .map(|c| m.to[m.transitions_of(c)].iter().any(|&t| !z[t as usize]))
            .collect();
        let reaches = |s: usize| self.goal_at(first, s) == reacher;
        let mut round_one = !leaves.contains(&true);
        loop {
            let mut left: Vec<u32> = (0..n)
                .map(|s| {
                    if !z[s] || seed[s] {
                        0
                    } else if reaches(s) {
                        1
                    } else if m.choices_of(s).all(|c| !leaves[c]) {
                        (m.choices[s + 1] - m.choices[s]) as u32
                    } else {
                        // The other player leaves the candidates: never joins.
                        u32::MAX
                    }
                })
                .collect();
            let mut y = seed.to_vec();
            let mut hit = vec![false; m.choice_count()];
            let mut stack: Vec<u32> = (0..n as u32).filter(|&s| seed[s as usize]).collect();
            while let Some(t) = stack.pop() {
                for &c in self.preds(t as usize) {
                    let (c, s) = (c as usize, self.owner[c as usize] as usize);
                    if y[s] || !z[s] || !through[s] || hit[c] || left[s] == u32::MAX {
                        continue;
                    }
                    hit[c] = true;
                    if leaves[c] {
                        continue;
                    }
                    left[s] -= 1;
                    if left[s] == 0 {
                        y[s] = true;
                        via[s] = c as u32;
                        stack.push(s as u32);
                    }
                }
            }
            if let Some(positive) = positive.as_deref_mut().filter(|_| round_one) {
                positive.clone_from(&y);
            }
            round_one = false;
            if y == z {
                return y;
            }
            // Drop the states that must follow those not reached: the reacher's choices
            // that stay, counted, and every choice into a dropped state leaving.
            let mut stays: Vec<u32> = (0..n)
                .map(|s| {
                    if y[s] && reaches(s) {
                        m.choices_of(s).filter(|&c| !leaves[c]).count() as u32
                    } else {
                        0
                    }
                })
                .collect();
            let mut dropped: Vec<u32> = (0..n as u32)
                .filter(|&s| z[s as usize] && !y[s as usize])
                .collect();
            while let Some(t) = dropped.pop() {
                for &c in self.preds(t as usize) {
                    let (c, s) = (c as usize, self.owner[c as usize] as usize);
                    if leaves[c] {
                        continue;
                    }
                    leaves[c] = true;
                    if !y[s] || seed[s] {
                        continue;
                    }
                    let out = if reaches(s) {
                        stays[s] -= 1;
                        stays[s] == 0
                    } else {
                        true
                    };
                    if out {
                        y[s] = false;
                        dropped.push(s as u32);
                    }
                }
            }
            z = y;
        }
    }

    pub fn states(&self) -> usize {
        self.m.states()
    }

    /// The choices with a transition into `t`.
    #[inline]
    pub fn preds(&self, t: usize) -> &[u32] {
        &self.pred[self.pred_start[t]..self.pred_start[t + 1]]
    }

    /// The states of `seed`, and those of `through` from which some strategy reaches
    /// `seed` with positive probability while staying in `through`. `note(s, c)` hears
    /// of each state added and a choice of it that moves to a state added before it, so
    /// that following the noted choices reaches `seed` with positive probability.
    pub fn exists_reach(
        &self,
        seed: &[bool],
        through: &[bool],
        note: impl FnMut(usize, u32),
    ) -> Vec<bool> {
        self.exists_reach_by(seed, through, |_| true, note)
    }

    /// [`Graph::exists_reach`] by the choices `take` allows alone (a strategy's).
    pub fn exists_reach_by(
        &self,
        seed: &[bool],
        through: &[bool],
        take: impl Fn(u32) -> bool,
        mut note: impl FnMut(usize, u32),
    ) -> Vec<bool> {
        let mut reached = seed.to_vec();
        let mut stack: Vec<u32> = (0..self.states() as u32)
            .filter(|&s| seed[s as usize])
            .collect();
        while let Some(t) = stack.pop() {
            for &c in self.preds(t as usize) {
                let s = self.owner[c as usize] as usize;
                if !reached[s] && through[s] && take(c) {
                    reached[s] = true;
                    note(s, c);
                    stack.push(s as u32);
                }
            }
        }
        reached
    }

    /// The states of `seed`, and those of `through` from which every strategy reaches
    /// `seed` with positive probability while staying in `through` (the others can keep
    /// away from `seed` forever, or leave `through` first).
    pub fn forall_reach(&self, seed: &[bool], through: &[bool]) -> Vec<bool> {
        self.counting(seed, through, |_| false)
    }

    /// The states from which the best strategy reaches `seed` with probability 1 while
    /// staying in `through` (`seed` included). `via[s]` receives, for each such state of
    /// `through`, a choice that keeps probability 1 and moves nearer `seed`: following
    /// them reaches `seed` with probability 1. `can` is the result of
    /// [`Graph::exists_reach`] for the same sets.
    ///
    /// The nested fixed point: keep the candidates `u` (at first, those that can reach
    /// `seed`); search back from `seed` over the choices whose every successor is in `u`;
    /// the states found are the new candidates; repeat until they stay the same.
    pub fn prob1_max(
        &self,
        seed: &[bool],
        through: &[bool],
        can: &[bool],
        via: &mut [u32],
    ) -> Vec<bool> {
        let m = self.m;
        let n = self.states();
        if self.markov {
            // One choice each: probability 1 unless a state that cannot reach `seed`
            // can be reached first.
            let cannot: Vec<bool> = (0..n).map(|s| !can[s] && !seed[s]).collect();
            let spoiled = self.exists_reach(&cannot, through, |_, _| {});
            let sure: Vec<bool> = (0..n).map(|s| can[s] && !spoiled[s]).collect();
            for s in 0..n {
                if sure[s] && through[s] {
                    via[s] = m.choices[s] as u32;
                }
            }
            return sure;
        }
        // Each round searches only among the candidates, over their own predecessor
        // lists (built once: a candidate may have many predecessors outside), and only
        // the choices into the states just dropped turn bad.
        let mut u = can.to_vec();
        let open_states: Vec<u32> = (0..n as u32)
            .filter(|&s| u[s as usize] && through[s as usize])
            .collect();
        let mut local = vec![NONE; n];
        for (i, &s) in open_states.iter().enumerate() {
            local[s as usize] = i as u32;
        }
        let k = open_states.len();
        let mut bad = vec![false; m.choice_count()];
        for &s in &open_states {
            for c in m.choices_of(s as usize) {
                bad[c] = m.to[m.transitions_of(c)].iter().any(|&t| !u[t as usize]);
            }
        }
        // Predecessors among the candidates: (choice, its state's local index).
        let inside = |t: usize| {
            self.preds(t).iter().filter_map(|&c| {
                let l = local[self.owner[c as usize] as usize];
                (l != NONE).then_some((c, l))
            })
        };
        let mut start = vec![0usize; k + 1];
        for (i, &t) in open_states.iter().enumerate() {
            start[i + 1] = start[i] + inside(t as usize).count();
        }
        let mut inner: Vec<(u32, u32)> = Vec::with_capacity(start[k]);
        for &t in &open_states {
            inner.extend(inside(t as usize));
        }
        // The choices of candidates that move into `seed`: every round starts from them.
        let mut first: Vec<(u32, u32)> = (0..n).filter(|&t| seed[t]).flat_map(inside).collect();
        // Good choices left to each candidate; a candidate without one is dropped, and
        // every choice into a dropped state turns bad, which may drop more at once.
        let mut good: Vec<u32> = open_states
            .iter()
            .map(|&s| m.choices_of(s as usize).filter(|&c| !bad[c]).count() as u32)
            .collect();
        let mut alive = vec![true; k];
        let mut dying: Vec<u32> = (0..k as u32).filter(|&i| good[i as usize] == 0).collect();
        let mut lists = Peel {
            open: &open_states,
            local: &local,
            bad: &mut bad,
            good: &mut good,
        };
        lists.drop(self, &mut dying, &mut alive, &mut u);
        let mut left = alive.iter().filter(|&&a| a).count();
        // The round in which each candidate was last reached (0: never).
        let mut reached = vec![0u32; k];
        let mut stack: Vec<u32> = Vec::new();
        for round in 1u32.. {
            let mut found = 0;
            stack.clear();
            let mut reach = |c: u32, l: u32, stack: &mut Vec<u32>| {
                let i = l as usize;
                if alive[i] && !lists.bad[c as usize] && reached[i] != round {
                    reached[i] = round;
                    via[open_states[i] as usize] = c;
                    stack.push(l);
                    found += 1;
                }
            };
            for &(c, l) in &first {
                reach(c, l, &mut stack);
            }
            while let Some(t) = stack.pop() {
                for &(c, l) in &inner[start[t as usize]..start[t as usize + 1]] {
                    reach(c, l, &mut stack);
                }
            }
            if found == left {
                return u;
            }
            dying.extend(
                (0..k as u32).filter(|&i| alive[i as usize] && reached[i as usize] != round),
            );
            lists.drop(self, &mut dying, &mut alive, &mut u);
            let now = alive.iter().filter(|&&a| a).count();
            // Once most candidates are gone, the lists are mostly dead entries: keep
            // only those of live states through good choices.
            if now < left / 2 {
                let mut kept = 0;
                for i in 0..k {
                    let from = kept;
                    for e in start[i]..start[i + 1] {
                        let (c, l) = inner[e];
                        if alive[i] && alive[l as usize] && !lists.bad[c as usize] {
                            inner[kept] = (c, l);
                            kept += 1;
                        }
                    }
                    start[i] = from;
                }
                start[k] = kept;
                inner.truncate(kept);
                first.retain(|&(c, l)| alive[l as usize] && !lists.bad[c as usize]);
            }
            left = now;
        }
        unreachable!("the rounds end when no candidate is dropped")
    }

    /// The maximal end components within `region` made of the choices that `candidate`
    /// accepts (each must also keep every successor in the region): `None` when there
    /// is none.
    ///
    /// First the states that cannot stay at all are pruned (a state with no choice left,
    /// and every choice into a pruned state); then, while anything changes, the rest is
    /// split into strongly connected components and every choice that leaves its own
    /// component is dropped (it cannot be taken forever), pruning again.
    pub fn end_components(
        &self,
        region: &[bool],
        candidate: impl Fn(usize) -> bool,
    ) -> Option<EndComponents> {
        let m = self.m;
        let n = self.states();
        let mut live_choice = vec![false; m.choice_count()];
        let mut left = vec![0u32; n];
        let mut live = vec![false; n];
        let mut dead: Vec<u32> = Vec::new();
        for s in 0..n {
            if !region[s] {
                continue;
            }
            for c in m.choices_of(s) {
                if candidate(c)
                    && m.to[m.transitions_of(c)]
                        .iter()
                        .all(|&t| region[t as usize])
                {
                    live_choice[c] = true;
                    left[s] += 1;
                }
            }
            // A region state without a candidate choice is dead from the start: choices
            // into it die with it.
            live[s] = left[s] > 0;
            if !live[s] {
                dead.push(s as u32);
            }
        }
        let prune =
            |dead: &mut Vec<u32>, live: &mut [bool], live_choice: &mut [bool], left: &mut [u32]| {
                while let Some(t) = dead.pop() {
                    for &c in self.preds(t as usize) {
                        if live_choice[c as usize] {
                            live_choice[c as usize] = false;
                            let s = self.owner[c as usize] as usize;
                            left[s] -= 1;
                            if left[s] == 0 && live[s] {
                                live[s] = false;
                                dead.push(s as u32);
                            }
                        }
                    }
                }
            };
        prune(&mut dead, &mut live, &mut live_choice, &mut left);
        let mut comp = vec![NONE; n];
        loop {
            if !live.contains(&true) {
                return None;
            }
            // Each state's successors by its live choices, in one list.
            let mut start = vec![0usize; n + 1];
            let mut succ: Vec<u32> = Vec::new();
            for s in 0..n {
                for c in m.choices_of(s).filter(|&c| live_choice[c]) {
                    succ.extend_from_slice(&m.to[m.transitions_of(c)]);
                }
                start[s + 1] = succ.len();
            }
            let roots = (0..n as u32).filter(|&s| live[s as usize]);
            let range = |v: u32| start[v as usize]..start[v as usize + 1];
            let sccs = components(n, roots, range, |t| succ[t]);
            for k in 0..sccs.count() {
                for &s in sccs.get(k) {
                    comp[s as usize] = k as u32;
                }
            }
            let mut dropped = false;
            for s in 0..n {
                if !live[s] {
                    continue;
                }
                for c in m.choices_of(s) {
                    if live_choice[c]
                        && m.to[m.transitions_of(c)]
                            .iter()
                            .any(|&t| comp[t as usize] != comp[s])
                    {
                        live_choice[c] = false;
                        left[s] -= 1;
                        dropped = true;
                    }
                }
                if left[s] == 0 {
                    live[s] = false;
                    dead.push(s as u32);
                }
            }
            prune(&mut dead, &mut live, &mut live_choice, &mut left);
            if !dropped {
                // Every live state keeps a choice inside its component: the components
                // are the end components. Number them by their least state; `start`
                // holds each one's size one place on, then (summed) where each starts.
                let mut of = vec![NONE; n];
                let mut id_of_comp = vec![NONE; sccs.count()];
                let mut start = vec![0usize];
                for s in (0..n).filter(|&s| live[s]) {
                    let k = comp[s] as usize;
                    if id_of_comp[k] == NONE {
                        id_of_comp[k] = (start.len() - 1) as u32;
                        start.push(0);
                    }
                    of[s] = id_of_comp[k];
                    start[of[s] as usize + 1] += 1;
                }
                for i in 1..start.len() {
                    start[i] += start[i - 1];
                }
                let mut members = vec![0u32; start[start.len() - 1]];
                let mut fill = start.clone();
                for s in (0..n).filter(|&s| of[s] != NONE) {
                    let slot = &mut fill[of[s] as usize];
                    members[*slot] = s as u32;
                    *slot += 1;
                }
                return Some(EndComponents { of, start, members });
            }
        }
    }
}

/// The candidates of [`Graph::prob1_max`] being dropped.
struct Peel<'p> {
    open: &'p [u32],
    local: &'p [u32],
    /// Choices with a successor dropped (or outside from the start).
    bad: &'p mut [bool],
    /// Choices of each candidate not bad.
    good: &'p mut [u32],
}

impl Peel<'_> {
    /// Drops the candidates of `dying`, and every candidate left without a good choice
    /// by the choices that turn bad, and so on.
    fn drop(&mut self, g: &Graph, dying: &mut Vec<u32>, alive: &mut [bool], u: &mut [bool]) {
        for &i in dying.iter() {
            alive[i as usize] = false;
        }
        while let Some(i) = dying.pop() {
            let t = self.open[i as usize] as usize;
            u[t] = false;
            for &c in g.preds(t) {
                if self.bad[c as usize] {
                    continue;
                }
                self.bad[c as usize] = true;
                let l = self.local[g.owner[c as usize] as usize];
                if l != NONE && alive[l as usize] {
                    self.good[l as usize] -= 1;
                    if self.good[l as usize] == 0 {
                        alive[l as usize] = false;
                        dying.push(l);
                    }
                }
            }
        }
    }
}

/// Maximal end components: each a set of states, listed ascending.
pub(crate) struct EndComponents {
    /// The component of each state, or [`NONE`].
    pub of: Vec<u32>,
    start: Vec<usize>,
    members: Vec<u32>,
}

impl EndComponents {
    pub fn count(&self) -> usize {
        self.start.len() - 1
    }

    /// The states of component `k`, ascending.
    #[inline]
    pub fn get(&self, k: u32) -> &[u32] {
        &self.members[self.start[k as usize]..self.start[k as usize + 1]]
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A model from lists of choices, each a list of (successor, probability).
    pub(crate) fn model(states: &[&[&[(u32, f64)]]]) -> Form {
        let mut m = Form {
            choices: vec![0],
            row: vec![0],
            ..Form::default()
        };
        for choices in states {
            for choice in *choices {
                for &(t, p) in *choice {
                    m.to.push(t);
                    m.prob.push(p);
                }
                m.row.push(m.to.len());
            }
            m.choices.push(m.row.len() - 1);
        }
        m.initial = vec![0];
        m
    }

    #[test]
    fn predecessors_are_listed_by_choice() {
        // 0: a -> {1, 2}, b -> {0}; 1: -> {1}; 2: -> {0, 1}
        let m = model(&[
            &[&[(1, 0.5), (2, 0.5)], &[(0, 1.0)]],
            &[&[(1, 1.0)]],
            &[&[(0, 0.5), (1, 0.5)]],
        ]);
        let g = Graph::new(&m);
        assert_eq!(g.preds(0), &[1, 3]);
        assert_eq!(g.preds(1), &[0, 2, 3]);
        assert_eq!(g.preds(2), &[0]);
        assert!(!g.markov);
    }

    #[test]
    fn probability_one_needs_a_choice_that_keeps_it() {
        // 0: a -> 1 surely, b -> {2 (target), 3 (trap)}; 1: -> 0 or -> 2; 3 traps.
        let m = model(&[
            &[&[(1, 1.0)], &[(2, 0.5), (3, 0.5)]],
            &[&[(0, 1.0)], &[(2, 1.0)]],
            &[&[(2, 1.0)]],
            &[&[(3, 1.0)]],
        ]);
        let g = Graph::new(&m);
        let target = [false, false, true, false];
        let through = [true, true, false, true];
        let can = g.exists_reach(&target, &through, |_, _| {});
        assert_eq!(can, vec![true, true, true, false]);
        let mut via = vec![NONE; 4];
        let sure = g.prob1_max(&target, &through, &can, &mut via);
        assert_eq!(sure, vec![true, true, true, false]);
        assert_eq!(via[0], 0);
        assert_eq!(via[1], 3);
        // Every strategy reaches the target from 1? No: 1 may go back to 0 and 0 to 1.
        let all = g.forall_reach(&target, &through);
        assert_eq!(all, vec![false, false, true, false]);
    }

    #[test]
    fn end_components_are_maximal() {
        // 0 <-> 1 by sure moves, 1 also to {2, 3}; 2 -> 2; 3 -> 0.
        let m = model(&[
            &[&[(1, 1.0)]],
            &[&[(0, 1.0)], &[(2, 0.5), (3, 0.5)]],
            &[&[(2, 1.0)]],
            &[&[(0, 1.0)]],
        ]);
        let g = Graph::new(&m);
        let ecs = g.end_components(&[true; 4], |_| true).unwrap();
        // 3 can only go back to 0, and 1 cannot choose to go to 3 without risking 2.
        assert_eq!(ecs.count(), 2);
        assert_eq!(ecs.get(0), &[0, 1]);
        assert_eq!(ecs.get(1), &[2]);
        assert_eq!(ecs.of[3], NONE);
        // Without state 2 the choice into it is not a candidate, and {0, 1} remains.
        let ecs = g
            .end_components(&[true, true, false, true], |_| true)
            .unwrap();
        assert_eq!(ecs.count(), 1);
        assert_eq!(ecs.get(0), &[0, 1]);
        // Without the sure moves back, nothing stays.
        assert!(g.end_components(&[true; 4], |c| c == 0 || c == 2).is_none());
    }

    #[test]
    fn end_components_of_a_small_game() {
        // 0 (choice) -> 1 or 4 (out); 1 (chance) -> 0 and 2; 2 (choice) -> 2 or 4;
        // 3 (chance) -> 0 and 4; 4 ends.
        let m = model(&[
            &[&[(1, 1.0)], &[(4, 1.0)]],
            &[&[(0, 0.5), (2, 0.5)]],
            &[&[(2, 1.0)], &[(4, 1.0)]],
            &[&[(0, 0.5), (4, 0.5)]],
            &[&[(4, 1.0)]],
        ]);
        let g = Graph::new(&m);
        let region = [true, true, true, true, false];
        let ecs = g.end_components(&region, |_| true).unwrap();
        // {2} alone (its self-loop); {0, 1} is no end component, since 1 may go to 2
        // and never come back.
        assert_eq!(ecs.count(), 1);
        assert_eq!(ecs.get(0), &[2]);
        assert_eq!(ecs.of[0], NONE);
        assert_eq!(ecs.of[3], NONE);
    }
}
