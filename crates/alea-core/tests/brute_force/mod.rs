//! What the stochastic solver is checked against: a small explicit model type, a seeded
//! generator of random games, and a brute-force evaluation that shares nothing with the
//! engine. It enumerates every positional strategy profile, solves each profile's Markov
//! chain in exact rationals with its own elimination, and takes max-min over the
//! profiles (asserting that min-max agrees, which is what makes positional strategies
//! the whole story).

use std::collections::BTreeMap;
use std::fmt;

use alea_core::{Expansion, Model, Pick};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rand::Rng;

/// A state of an [`Explicit`] model. A newtype rather than a bare integer so that its
/// `Debug` text (`Id(3)`) is distinctive enough to look for in an error message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(pub u16);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Terminal,
    Chance,
    Uniform,
    Max,
    Min,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub role: Role,
    pub reward: i64,
    /// Successor and weight; the weight only matters for chance nodes and uniform
    /// choices.
    pub edges: Vec<(u16, u64)>,
}

/// A model written out node by node, state `i` being `nodes[i]`.
#[derive(Clone, Debug)]
pub struct Explicit {
    pub nodes: Vec<Node>,
    pub start: u16,
    /// The symmetry map, `canonical[i]` for state `i`; empty for the identity.
    pub canonical: Vec<u16>,
}

impl Explicit {
    pub fn new(nodes: Vec<Node>) -> Self {
        Explicit {
            nodes,
            start: 0,
            canonical: Vec::new(),
        }
    }
}

impl Model for Explicit {
    type State = Id;

    fn start(&self) -> Id {
        Id(self.start)
    }

    fn expand(&self, state: Id, out: &mut Expansion<Id>) {
        let node = &self.nodes[state.0 as usize];
        match node.role {
            Role::Terminal => out.terminal(node.reward),
            Role::Chance => out.chance(node.reward),
            Role::Uniform => out.choice(Pick::Uniform, node.reward),
            Role::Max => out.choice(Pick::Max, node.reward),
            Role::Min => out.choice(Pick::Min, node.reward),
        }
        if node.role != Role::Terminal {
            for &(to, weight) in &node.edges {
                out.weighted(Id(to), weight);
            }
        }
    }

    fn canonical(&self, state: Id) -> Id {
        match self.canonical.get(state.0 as usize) {
            Some(&c) => Id(c),
            None => state,
        }
    }
}

pub fn terminal(reward: i64) -> Node {
    Node {
        role: Role::Terminal,
        reward,
        edges: Vec::new(),
    }
}

pub fn chance(reward: i64, edges: &[(u16, u64)]) -> Node {
    Node {
        role: Role::Chance,
        reward,
        edges: edges.to_vec(),
    }
}

pub fn uniform(reward: i64, edges: &[(u16, u64)]) -> Node {
    Node {
        role: Role::Uniform,
        reward,
        edges: edges.to_vec(),
    }
}

pub fn max(reward: i64, to: &[u16]) -> Node {
    Node {
        role: Role::Max,
        reward,
        edges: to.iter().map(|&t| (t, 1)).collect(),
    }
}

pub fn min(reward: i64, to: &[u16]) -> Node {
    Node {
        role: Role::Min,
        reward,
        edges: to.iter().map(|&t| (t, 1)).collect(),
    }
}

pub fn ratio(num: i64, den: i64) -> BigRational {
    BigRational::new(BigInt::from(num), BigInt::from(den))
}

pub fn int(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

/// A value in the extended reals that these games need: `Inf` sorts above every number.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Val {
    Fin(BigRational),
    Inf,
}

impl fmt::Debug for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Fin(q) => write!(f, "{}/{}", q.numer(), q.denom()),
            Val::Inf => write!(f, "+inf"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Only terminals have rewards: a value is the expected payoff of the terminal
    /// reached, 0 for a game that never ends.
    Payoff,
    /// Some other reachable node has a reward: a value is the expected sum of rewards,
    /// infinite for a game that may not end.
    Total,
}

/// What the solver is expected to do with a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Refuse it with `Error::Signs`.
    Signs,
    /// Refuse it with `Error::InfiniteReward`; `start` says whether the start state
    /// itself is infinite (otherwise only some other reachable state is).
    Infinite { start: bool },
    /// Return the right values, through a zero-reward end component.
    ZeroCycle,
    /// Return the right values.
    Values,
}

/// Everything the brute force learnt about a model.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub start: u16,
    /// The states reachable from the start, ascending.
    pub reachable: Vec<u16>,
    pub class: Class,
    /// The rewards break the sign rule of the class.
    pub sign_error: bool,
    pub has_max: bool,
    pub has_min: bool,
    /// A reachable maximising or minimising choice lies on a cycle.
    pub choice_on_cycle: bool,
    /// The union of all zero-reward end components (total-reward class only).
    pub zero_component: Vec<u16>,
    /// How many positional profiles there are (saturating).
    pub profiles: usize,
    /// The value of every reachable state; `None` when the sign rule is broken or
    /// there were too many profiles to enumerate.
    pub values: Option<BTreeMap<u16, Val>>,
    /// Under every profile, from every reachable state, the game ends with probability
    /// one (meaningful only when `values` is known).
    pub always_terminates: bool,
}

impl Analysis {
    /// `None` when the values are needed but were not computed.
    pub fn expect(&self) -> Option<Expect> {
        if self.sign_error {
            return Some(Expect::Signs);
        }
        let values = self.values.as_ref()?;
        // An infinite value is refused as such even when a zero-reward end component is
        // what makes it infinite (Max staying on it forever): the contract puts the
        // infinite reward first, and allows the zero-cycle refusal only where every
        // value is finite.
        if self.class == Class::Total && values.values().any(|v| *v == Val::Inf) {
            let start = values[&self.start] == Val::Inf;
            return Some(Expect::Infinite { start });
        }
        if self.class == Class::Total && !self.zero_component.is_empty() {
            return Some(Expect::ZeroCycle);
        }
        Some(Expect::Values)
    }

    /// The reachable states whose value is infinite.
    pub fn infinite_states(&self) -> Vec<u16> {
        match &self.values {
            Some(values) => values
                .iter()
                .filter(|(_, v)| **v == Val::Inf)
                .map(|(&s, _)| s)
                .collect(),
            None => Vec::new(),
        }
    }

    /// The reachable states that take part in breaking the sign rule: terminals with a
    /// nonzero payoff in the payoff class, negative rewards in the total-reward class.
    pub fn sign_culprits(&self, model: &Explicit) -> Vec<u16> {
        self.reachable
            .iter()
            .copied()
            .filter(|&s| {
                let node = &model.nodes[s as usize];
                match self.class {
                    Class::Payoff => node.role == Role::Terminal && node.reward != 0,
                    Class::Total => node.reward < 0,
                }
            })
            .collect()
    }
}

/// The states reachable from `from`, as flags.
fn reach_from(model: &Explicit, from: u16) -> Vec<bool> {
    let mut seen = vec![false; model.nodes.len()];
    let mut stack = vec![from];
    seen[from as usize] = true;
    while let Some(s) = stack.pop() {
        let node = &model.nodes[s as usize];
        if node.role == Role::Terminal {
            continue;
        }
        for &(t, _) in &node.edges {
            if !seen[t as usize] {
                seen[t as usize] = true;
                stack.push(t);
            }
        }
    }
    seen
}

/// Solves `a x = b` exactly; `a` must be nonsingular.
fn solve_linear(mut a: Vec<Vec<BigRational>>, mut b: Vec<BigRational>) -> Vec<BigRational> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n)
            .find(|&r| !a[r][col].is_zero())
            .expect("the brute force met a singular system");
        a.swap(col, pivot);
        b.swap(col, pivot);
        // The pivot row is taken out while the others are reduced by it.
        let pivot_row = std::mem::take(&mut a[col]);
        let inv = pivot_row[col].recip();
        for (r, row) in a.iter_mut().enumerate() {
            if r == col || row[col].is_zero() {
                continue;
            }
            let factor = &row[col] * &inv;
            for (c, p) in pivot_row.iter().enumerate().skip(col) {
                if !p.is_zero() {
                    row[c] -= &factor * p;
                }
            }
            let delta = &factor * &b[col];
            b[r] -= delta;
        }
        a[col] = pivot_row;
    }
    (0..n).map(|i| &b[i] / &a[i][i]).collect()
}

/// The states (local indices) from which some state satisfying `target` can be
/// reached, `target` states included.
fn can_reach(succ: &[Vec<(usize, BigRational)>], target: &[bool]) -> Vec<bool> {
    let mut flag = target.to_vec();
    loop {
        let mut changed = false;
        for i in 0..succ.len() {
            if !flag[i] && succ[i].iter().any(|&(t, _)| flag[t]) {
                flag[i] = true;
                changed = true;
            }
        }
        if !changed {
            return flag;
        }
    }
}

/// The values of one profile's Markov chain, and whether the game ends with
/// probability one from every state under it.
fn evaluate_chain(
    roles: &[Role],
    rewards: &[i64],
    succ: &[Vec<(usize, BigRational)>],
    class: Class,
) -> (Vec<Val>, bool) {
    let m = roles.len();
    let is_terminal: Vec<bool> = roles.iter().map(|&r| r == Role::Terminal).collect();
    let reaches_end = can_reach(succ, &is_terminal);
    let stuck: Vec<bool> = reaches_end.iter().map(|&r| !r).collect();
    // From these states the game goes on forever with positive probability.
    let may_not_end = can_reach(succ, &stuck);
    let always = may_not_end.iter().all(|&f| !f);

    let mut values: Vec<Option<Val>> = vec![None; m];
    let mut unknown = Vec::new();
    for i in 0..m {
        if is_terminal[i] {
            values[i] = Some(Val::Fin(int(rewards[i])));
        } else {
            match class {
                Class::Payoff if !reaches_end[i] => values[i] = Some(Val::Fin(BigRational::zero())),
                Class::Total if may_not_end[i] => values[i] = Some(Val::Inf),
                _ => unknown.push(i),
            }
        }
    }
    let mut column = vec![usize::MAX; m];
    for (k, &i) in unknown.iter().enumerate() {
        column[i] = k;
    }
    let u = unknown.len();
    let mut a = vec![vec![BigRational::zero(); u]; u];
    let mut b = vec![BigRational::zero(); u];
    for (k, &i) in unknown.iter().enumerate() {
        a[k][k] += BigRational::one();
        if class == Class::Total {
            b[k] += int(rewards[i]);
        }
        for (t, p) in &succ[i] {
            if column[*t] != usize::MAX {
                a[k][column[*t]] -= p;
            } else {
                match values[*t].as_ref().expect("known successor") {
                    Val::Fin(v) => b[k] += p * v,
                    Val::Inf => unreachable!("a finite state never leads to an infinite one"),
                }
            }
        }
    }
    let x = solve_linear(a, b);
    for (k, &i) in unknown.iter().enumerate() {
        values[i] = Some(Val::Fin(x[k].clone()));
    }
    (values.into_iter().map(|v| v.unwrap()).collect(), always)
}

/// Evaluates every reachable state of `model` by enumerating positional profiles, if
/// there are at most `max_profiles` of them.
pub fn analyse(model: &Explicit, max_profiles: usize) -> Analysis {
    let seen = reach_from(model, model.start);
    let reachable: Vec<u16> = (0..model.nodes.len() as u16)
        .filter(|&s| seen[s as usize])
        .collect();
    let node = |s: u16| &model.nodes[s as usize];

    let class = if reachable
        .iter()
        .any(|&s| node(s).role != Role::Terminal && node(s).reward != 0)
    {
        Class::Total
    } else {
        Class::Payoff
    };
    // The payoffs (terminals) or rewards (every node) whose signs count.
    let counted = |s: u16| class == Class::Total || node(s).role == Role::Terminal;
    let positive = reachable.iter().any(|&s| counted(s) && node(s).reward > 0);
    let negative = reachable.iter().any(|&s| counted(s) && node(s).reward < 0);
    if class == Class::Total && negative && !positive {
        // Costs all at most 0: the negated game with the players exchanged, whose
        // values are the negated values (an infinite one stays infinite, in size).
        return analyse_negated(model, max_profiles);
    }
    // Values of both signs are defined, and wanted, where the players cannot keep the
    // game going forever: for payoffs, among the states that can still reach a payoff
    // other than 0 (the others are worth 0 however the game goes); for rewards, among
    // all states but the terminals.
    let sign_error = positive && negative && {
        let nonzero: Vec<bool> = (0..model.nodes.len())
            .map(|s| model.nodes[s].role == Role::Terminal && model.nodes[s].reward != 0)
            .collect();
        let region: Vec<u16> = reachable
            .iter()
            .copied()
            .filter(|&s| {
                node(s).role != Role::Terminal
                    && (class == Class::Total || {
                        let from = reach_from(model, s);
                        (0..model.nodes.len()).any(|t| from[t] && nonzero[t])
                    })
            })
            .collect();
        !can_stay(model, &region).is_empty()
    };
    let has_max = reachable.iter().any(|&s| node(s).role == Role::Max);
    let has_min = reachable.iter().any(|&s| node(s).role == Role::Min);
    let choice_on_cycle = reachable.iter().any(|&s| {
        matches!(node(s).role, Role::Max | Role::Min)
            && node(s)
                .edges
                .iter()
                .any(|&(t, _)| reach_from(model, t)[s as usize])
    });

    let zero_component = if class == Class::Total {
        zero_reward_component(model, &reachable)
    } else {
        Vec::new()
    };

    // Local numbering of the reachable states.
    let mut local = vec![usize::MAX; model.nodes.len()];
    for (i, &s) in reachable.iter().enumerate() {
        local[s as usize] = i;
    }
    let roles: Vec<Role> = reachable.iter().map(|&s| node(s).role).collect();
    let rewards: Vec<i64> = reachable.iter().map(|&s| node(s).reward).collect();
    // The options of each player's choices: distinct successors.
    let options = |role: Role| -> Vec<(usize, Vec<usize>)> {
        reachable
            .iter()
            .filter(|&&s| node(s).role == role)
            .map(|&s| {
                let mut to: Vec<usize> = node(s)
                    .edges
                    .iter()
                    .map(|&(t, _)| local[t as usize])
                    .collect();
                to.sort_unstable();
                to.dedup();
                (local[s as usize], to)
            })
            .collect()
    };
    let max_options = options(Role::Max);
    let min_options = options(Role::Min);
    let count = |opts: &[(usize, Vec<usize>)]| {
        opts.iter()
            .fold(1usize, |acc, (_, to)| acc.saturating_mul(to.len()))
    };
    let (max_count, min_count) = (count(&max_options), count(&min_options));
    let profiles = max_count.saturating_mul(min_count);

    let mut analysis = Analysis {
        reachable: reachable.clone(),
        class,
        sign_error,
        has_max,
        has_min,
        choice_on_cycle,
        zero_component,
        profiles,
        values: None,
        always_terminates: false,
        start: model.start,
    };
    if sign_error || profiles > max_profiles {
        return analysis;
    }
    assert!(
        reachable
            .iter()
            .all(|&s| node(s).role == Role::Terminal || !node(s).edges.is_empty()),
        "the brute force takes no node without successors"
    );

    // The successors of the nodes nobody chooses at, with probabilities.
    let fixed: Vec<Vec<(usize, BigRational)>> = reachable
        .iter()
        .map(|&s| match node(s).role {
            Role::Chance | Role::Uniform => {
                let total: u64 = node(s).edges.iter().map(|&(_, w)| w).sum();
                node(s)
                    .edges
                    .iter()
                    .map(|&(t, w)| (local[t as usize], ratio(w as i64, total as i64)))
                    .collect()
            }
            _ => Vec::new(),
        })
        .collect();

    let pick =
        |opts: &[(usize, Vec<usize>)], mut code: usize, succ: &mut [Vec<(usize, BigRational)>]| {
            for (i, to) in opts {
                let k = code % to.len();
                code /= to.len();
                succ[*i] = vec![(to[k], BigRational::one())];
            }
        };
    // by_profile[sigma * min_count + tau]: the chain's values.
    let mut by_profile: Vec<Vec<Val>> = Vec::with_capacity(profiles);
    let mut always = true;
    for sigma in 0..max_count {
        for tau in 0..min_count {
            let mut succ = fixed.clone();
            pick(&max_options, sigma, &mut succ);
            pick(&min_options, tau, &mut succ);
            let (values, ends) = evaluate_chain(&roles, &rewards, &succ, class);
            always &= ends;
            by_profile.push(values);
        }
    }

    let mut values = BTreeMap::new();
    for (i, &s) in reachable.iter().enumerate() {
        let at = |sigma: usize, tau: usize| &by_profile[sigma * min_count + tau][i];
        let max_min = (0..max_count)
            .map(|sigma| (0..min_count).map(|tau| at(sigma, tau)).min().unwrap())
            .max()
            .unwrap();
        let min_max = (0..min_count)
            .map(|tau| (0..max_count).map(|sigma| at(sigma, tau)).max().unwrap())
            .min()
            .unwrap();
        assert_eq!(
            max_min, min_max,
            "max-min and min-max differ at state {s}: positional strategies are not enough?"
        );
        values.insert(s, max_min.clone());
    }
    analysis.values = Some(values);
    analysis.always_terminates = always;
    analysis
}

/// The union of all zero-reward end components among `reachable`: the largest set of
/// non-terminal zero-reward nodes in which every chance node and uniform choice keeps
/// all its successors and every maximising or minimising choice keeps at least one.
fn zero_reward_component(model: &Explicit, reachable: &[u16]) -> Vec<u16> {
    let zero: Vec<u16> = reachable
        .iter()
        .copied()
        .filter(|&s| {
            let node = &model.nodes[s as usize];
            node.role != Role::Terminal && node.reward == 0
        })
        .collect();
    can_stay(model, &zero)
}

/// The largest set of states of `region` (non-terminals) in which the players together
/// can stay forever: every chance node and uniform choice keeps all its successors
/// inside, every maximising or minimising choice at least one. Empty when they cannot.
fn can_stay(model: &Explicit, region: &[u16]) -> Vec<u16> {
    let mut inside = vec![false; model.nodes.len()];
    for &s in region {
        inside[s as usize] = true;
    }
    let reachable = region;
    loop {
        let mut changed = false;
        for &s in reachable {
            if !inside[s as usize] {
                continue;
            }
            let node = &model.nodes[s as usize];
            let keeps = match node.role {
                Role::Chance | Role::Uniform => node.edges.iter().all(|&(t, _)| inside[t as usize]),
                _ => node.edges.iter().any(|&(t, _)| inside[t as usize]),
            };
            if !keeps {
                inside[s as usize] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    reachable
        .iter()
        .copied()
        .filter(|&s| inside[s as usize])
        .collect()
}

/// [`analyse`] of the model with every reward negated and the players exchanged, its
/// values negated back (an infinite value stays [`Val::Inf`]: infinite in size).
fn analyse_negated(model: &Explicit, max_profiles: usize) -> Analysis {
    let mut flipped = model.clone();
    for node in &mut flipped.nodes {
        node.reward = -node.reward;
        node.role = match node.role {
            Role::Max => Role::Min,
            Role::Min => Role::Max,
            other => other,
        };
    }
    let mut a = analyse(&flipped, max_profiles);
    std::mem::swap(&mut a.has_max, &mut a.has_min);
    if let Some(values) = a.values.as_mut() {
        for v in values.values_mut() {
            if let Val::Fin(q) = v {
                *q = -q.clone();
            }
        }
    }
    a
}

/// The kinds of random models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Payoff class, terminal payoffs at least 0.
    Wins,
    /// Payoff class, terminal payoffs at most 0.
    Losses,
    /// Payoff class, terminal payoffs of both signs (refused where the players could
    /// keep the game going forever).
    Mixed,
    /// Total-reward class, rewards at least 0.
    Costs,
    /// Total-reward class with a negative reward somewhere (refused, with rewards of both
    /// signs, where the players could keep the game going forever).
    NegativeCost,
}

/// Who chooses in a random model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Players {
    MaxOnly,
    MinOnly,
    Both,
}

/// A random model of 2 to 8 states, start 0, edges to any state (self-loops and back
/// edges included, so that cycles through choices are common).
pub fn random_model<R: Rng>(rng: &mut R, family: Family, players: Players) -> Explicit {
    // Larger models are the more telling: the larger of two draws.
    let n = rng.gen_range(2..=8u16).max(rng.gen_range(2..=8u16));
    let mut nodes = Vec::with_capacity(n as usize);
    for i in 0..n {
        // The start is rarely a terminal; the last state often is, so that most models
        // can end somewhere.
        let roll = rng.gen_range(0..10);
        let role = if (i == n - 1 && rng.gen_bool(0.7)) || (i > 0 && roll < 2) {
            Role::Terminal
        } else if roll < 4 {
            Role::Chance
        } else if roll < 5 {
            Role::Uniform
        } else {
            match players {
                Players::MaxOnly => Role::Max,
                Players::MinOnly => Role::Min,
                Players::Both => {
                    if rng.gen_bool(0.5) {
                        Role::Max
                    } else {
                        Role::Min
                    }
                }
            }
        };
        let reward = match (role, family) {
            (Role::Terminal, Family::Wins) => rng.gen_range(0..=4),
            (Role::Terminal, Family::Losses) => -rng.gen_range(0..=4),
            (Role::Terminal, Family::Mixed) => rng.gen_range(-3..=3),
            (Role::Terminal, _) => rng.gen_range(0..=3),
            (_, Family::Costs | Family::NegativeCost) => {
                if rng.gen_bool(0.45) {
                    0
                } else {
                    rng.gen_range(1..=3)
                }
            }
            _ => 0,
        };
        // Most nodes lead on to the next state, so that most states are reachable;
        // the other edges go anywhere.
        let spine = i + 1 < n && rng.gen_bool(0.7);
        let target = |rng: &mut R, j: usize| {
            if j == 0 && spine {
                i + 1
            } else {
                rng.gen_range(0..n)
            }
        };
        let edges: Vec<(u16, u64)> = match role {
            Role::Terminal => Vec::new(),
            Role::Chance | Role::Uniform => {
                let k = rng.gen_range(1..=3);
                let unit = role == Role::Uniform && rng.gen_bool(0.5);
                (0..k)
                    .map(|j| {
                        let t = target(rng, j);
                        (t, if unit { 1 } else { rng.gen_range(1..=4) })
                    })
                    .collect()
            }
            Role::Max | Role::Min => {
                let k = if rng.gen_bool(0.1) {
                    1
                } else {
                    rng.gen_range(2..=3)
                };
                (0..k).map(|j| (target(rng, j), 1)).collect()
            }
        };
        nodes.push(Node {
            role,
            reward,
            edges,
        });
    }
    if family == Family::NegativeCost {
        let i = rng.gen_range(0..n) as usize;
        nodes[i].reward = -rng.gen_range(1..=2);
    }
    Explicit::new(nodes)
}
