//! Two-player games in model files (`smg`) against a brute force on random small
//! turn-based games. Step-bounded paths: backward induction over the tree of histories,
//! the coalition's player taking the best branch and the other the worst (a finite game
//! of perfect information, so that is its value). Unbounded paths and expected rewards:
//! every pair of positional strategies, each pair's Markov chain solved exactly by
//! elimination, the value the best the coalition can guarantee (turn-based stochastic
//! games of reachability have positional optimal strategies on both sides). The checker
//! must agree exactly with `--exact`, and within its certified bound in `f64`.

mod support;

use alea_core::Exact;
use alea_prism::check::Number;
use num_traits::{One, Zero};
use proptest::prelude::*;
use support::within;

/// A random game: `choices[s]` lists the choices of state `s`, each a list of
/// (successor, numerator) with probabilities numerator / 4; `first[s]` whether state `s`
/// is the first player's turn; `a` and `b` are labels.
#[derive(Clone, Debug)]
struct Game {
    choices: support::Choices,
    first: Vec<bool>,
    a: Vec<bool>,
    b: Vec<bool>,
}

impl Game {
    fn text(&self) -> String {
        let n = self.choices.len();
        // A player's block names its action only where some command has it.
        let owns = |first: bool, action: &str| {
            if self.first.contains(&first) {
                format!("[{action}]")
            } else {
                String::new()
            }
        };
        let mut t = format!(
            "smg\nplayer one {} endplayer\nplayer two {} endplayer\nmodule m\n  s : [0..{}] init 0;\n",
            owns(true, "one"),
            owns(false, "two"),
            n - 1
        );
        t.push_str(&support::commands(&self.choices, |s| {
            if self.first[s] {
                "one"
            } else {
                "two"
            }
        }));
        t.push_str(&support::labels(&self.a, &self.b));
        // A reward of 1 in every state and 1 more in those of `a`, and 2 for each of the
        // second player's moves. (Every cycle costs something: a game where the players
        // could stay on a cycle of zero reward is refused, so far.)
        t.push_str(&format!(
            "rewards \"r\"\n  true : 1;\n  {} : 1;\n{}endrewards\n",
            support::states(&self.a),
            if self.first.contains(&false) {
                "  [two] true : 2;\n"
            } else {
                ""
            }
        ));
        t
    }

    /// Whether `s` is a turn of the coalition: the first player's when it is `one`.
    fn ours(&self, s: usize, one: bool) -> bool {
        self.first[s] == one
    }

    /// The reward of leaving `s` by one of its choices.
    fn reward(&self, s: usize) -> Exact {
        Exact::from_integer((1 + u8::from(self.a[s]) + 2 * u8::from(!self.first[s])).into())
    }
}

fn game() -> impl Strategy<Value = Game> {
    (2usize..=4).prop_flat_map(|n| {
        let state = prop::collection::vec(support::choice(n), 1..=2);
        (
            prop::collection::vec(state, n),
            prop::collection::vec(any::<bool>(), n),
            prop::collection::vec(any::<bool>(), n),
            prop::collection::vec(any::<bool>(), n),
        )
            .prop_map(|(choices, first, a, b)| Game {
                choices,
                first,
                a,
                b,
            })
    })
}

/// A property's paths: `F<=k b`, `a U<=k b` and `G<=k a`, or without a bound.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Eventually,
    Until,
    Globally,
}

impl Shape {
    fn text(self, bound: Option<u64>) -> String {
        let steps = bound.map_or(String::new(), |k| format!("<={k}"));
        match self {
            Shape::Eventually => format!("F{steps} \"b\""),
            Shape::Until => format!("\"a\" U{steps} \"b\""),
            Shape::Globally => format!("G{steps} \"a\""),
        }
    }

    /// Whether a path satisfies the shape for good at state `s`, or fails for good;
    /// `None` while it is open.
    fn settled(self, g: &Game, s: usize) -> Option<bool> {
        match self {
            Shape::Eventually => g.b[s].then_some(true),
            Shape::Until if g.b[s] => Some(true),
            Shape::Until => (!g.a[s]).then_some(false),
            Shape::Globally => (!g.a[s]).then_some(false),
        }
    }

    /// The value of a path still open after its last step.
    fn at_end(self) -> bool {
        matches!(self, Shape::Globally)
    }
}

/// The value of a step-bounded path from `s` with `k` steps left, the coalition (`one`:
/// the first player) maximising when `max`, the other player against it.
fn bounded(g: &Game, shape: Shape, one: bool, max: bool, s: usize, k: u64) -> Exact {
    if let Some(v) = shape.settled(g, s) {
        return if v { Exact::one() } else { Exact::zero() };
    }
    if k == 0 {
        return if shape.at_end() {
            Exact::one()
        } else {
            Exact::zero()
        };
    }
    let values = g.choices[s].iter().map(|choice| {
        choice.iter().fold(Exact::zero(), |acc, &(t, p)| {
            acc + Exact::new(p.into(), 4.into()) * bounded(g, shape, one, max, t, k - 1)
        })
    });
    pick(values, g.ours(s, one) == max)
}

/// The greatest (`high`) or least of some values.
fn pick(values: impl Iterator<Item = Exact>, high: bool) -> Exact {
    values
        .reduce(|x, y| if (y > x) == high { y } else { x })
        .expect("every state has a choice")
}

/// Every positional strategy of the states where `mine` holds: a choice per state (0
/// elsewhere).
fn strategies(g: &Game, mine: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
    let mut all = vec![vec![0; g.choices.len()]];
    for s in 0..g.choices.len() {
        if mine(s) {
            all = all
                .into_iter()
                .flat_map(|sigma| {
                    (0..g.choices[s].len()).map(move |c| {
                        let mut next = sigma.clone();
                        next[s] = c;
                        next
                    })
                })
                .collect();
        }
    }
    all
}

/// The solution of `x = c + P x` on the states of `open` (others fixed at `fixed`), by
/// elimination in rationals; `P` is the chain of the strategy `sigma`.
fn solve(g: &Game, sigma: &[usize], open: &[bool], fixed: &[Exact], c: &[Exact]) -> Vec<Exact> {
    let n = g.choices.len();
    let index: Vec<usize> = (0..n).filter(|&s| open[s]).collect();
    let k = index.len();
    // Rows of (I - P) x = c + P_fixed.
    let mut a = vec![vec![Exact::zero(); k + 1]; k];
    for (i, &s) in index.iter().enumerate() {
        a[i][i] = Exact::one();
        a[i][k] = c[s].clone();
        for &(t, p) in &g.choices[s][sigma[s]] {
            let p = Exact::new(p.into(), 4.into());
            match index.iter().position(|&u| u == t) {
                Some(j) => a[i][j] -= &p,
                None => a[i][k] += p * &fixed[t],
            }
        }
    }
    for col in 0..k {
        let pivot = (col..k)
            .find(|&r| !a[r][col].is_zero())
            .expect("the open states leave with probability one");
        a.swap(col, pivot);
        let lead = a[col][col].clone();
        for x in a[col].iter_mut() {
            *x /= &lead;
        }
        for r in 0..k {
            if r != col && !a[r][col].is_zero() {
                let f = a[r][col].clone();
                let pivot_row = a[col].clone();
                for (x, y) in a[r].iter_mut().zip(&pivot_row) {
                    *x -= &f * y;
                }
            }
        }
    }
    let mut x = fixed.to_vec();
    for (i, &s) in index.iter().enumerate() {
        x[s] = a[i][k].clone();
    }
    x
}

/// The states from which the chain of `sigma` reaches `target` through `through`.
fn reaching(g: &Game, sigma: &[usize], through: &[bool], target: &[bool]) -> Vec<bool> {
    let n = g.choices.len();
    let mut can = target.to_vec();
    loop {
        let mut grew = false;
        for s in 0..n {
            if !can[s] && through[s] && g.choices[s][sigma[s]].iter().any(|&(t, _)| can[t]) {
                can[s] = true;
                grew = true;
            }
        }
        if !grew {
            return can;
        }
    }
}

/// The probability of `through U target` from state 0 in the chain of `sigma`.
fn chain_until(g: &Game, sigma: &[usize], through: &[bool], target: &[bool]) -> Exact {
    let n = g.choices.len();
    let can = reaching(g, sigma, through, target);
    let open: Vec<bool> = (0..n).map(|s| can[s] && !target[s]).collect();
    let fixed: Vec<Exact> = (0..n)
        .map(|s| {
            if target[s] {
                Exact::one()
            } else {
                Exact::zero()
            }
        })
        .collect();
    solve(g, sigma, &open, &fixed, &vec![Exact::zero(); n])[0].clone()
}

/// The expected reward until `b` from state 0 in the chain of `sigma`; `None` where `b`
/// may be missed.
fn chain_reward(g: &Game, sigma: &[usize]) -> Option<Exact> {
    let n = g.choices.len();
    let all = vec![true; n];
    let can = reaching(g, sigma, &all, &g.b);
    // Reaching `b` surely: no state reachable from 0 that cannot reach it.
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    while let Some(s) = stack.pop() {
        if seen[s] {
            continue;
        }
        seen[s] = true;
        if !can[s] {
            return None;
        }
        if !g.b[s] {
            stack.extend(g.choices[s][sigma[s]].iter().map(|&(t, _)| t));
        }
    }
    let open: Vec<bool> = (0..n).map(|s| can[s] && !g.b[s]).collect();
    let c: Vec<Exact> = (0..n).map(|s| g.reward(s)).collect();
    Some(solve(g, sigma, &open, &vec![Exact::zero(); n], &c)[0].clone())
}

/// The best value the coalition (`one`: the first player) can guarantee, maximising when
/// `max`, over positional strategies of both sides; `value` of a pair's joint strategy.
fn game_value<V: Clone + PartialOrd>(
    g: &Game,
    one: bool,
    max: bool,
    value: impl Fn(&[usize]) -> V,
) -> V {
    let ours = strategies(g, |s| g.ours(s, one));
    let theirs = strategies(g, |s| !g.ours(s, one));
    let better = |x: &V, y: &V| if max { x > y } else { x < y };
    let mut best: Option<V> = None;
    for mine in &ours {
        // The others' best answer to this strategy.
        let mut worst: Option<V> = None;
        for other in &theirs {
            let joint: Vec<usize> = (0..g.choices.len())
                .map(|s| if g.ours(s, one) { mine[s] } else { other[s] })
                .collect();
            let v = value(&joint);
            if worst.as_ref().is_none_or(|w| better(w, &v)) {
                worst = Some(v);
            }
        }
        let worst = worst.expect("a strategy of the others");
        if best.as_ref().is_none_or(|b| better(&worst, b)) {
            best = Some(worst);
        }
    }
    best.expect("a strategy of the coalition")
}

/// An expected reward, infinity above every finite value.
#[derive(Clone, Debug, PartialEq, PartialOrd)]
enum Reward {
    Finite(Exact),
    Infinite,
}

fn coalition(one: bool) -> &'static str {
    if one {
        "<<one>>"
    } else {
        "<<2>>"
    }
}

fn goal(max: bool) -> &'static str {
    if max {
        "max"
    } else {
        "min"
    }
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Eventually),
        Just(Shape::Until),
        Just(Shape::Globally)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn step_bounded_paths_match_the_tree_of_histories(
        g in game(), shape in shape(), k in 0u64..=4, one in any::<bool>(), max in any::<bool>()
    ) {
        let property = format!("{} P{}=? [ {} ]", coalition(one), goal(max), shape.text(Some(k)));
        let want = bounded(&g, shape, one, max, 0, k);
        let (exact, float, _) = support::check(&g.text(), &property, false);
        prop_assert_eq!(&exact, &Number::Exact(Some(want)), "{} on\n{}", property, g.text());
        prop_assert!(within(&exact, &float), "{} on\n{}: {:?} against {:?}", property, g.text(), float, exact);
    }

    #[test]
    fn unbounded_paths_match_every_pair_of_positional_strategies(
        g in game(), shape in shape(), one in any::<bool>(), max in any::<bool>()
    ) {
        let property = format!("{} P{}=? [ {} ]", coalition(one), goal(max), shape.text(None));
        let n = g.choices.len();
        let all = vec![true; n];
        let not_a: Vec<bool> = g.a.iter().map(|&x| !x).collect();
        let want = match shape {
            Shape::Eventually => game_value(&g, one, max, |sigma| chain_until(&g, sigma, &all, &g.b)),
            Shape::Until => game_value(&g, one, max, |sigma| chain_until(&g, sigma, &g.a, &g.b)),
            // Always `a`: never reaching a state outside `a`.
            Shape::Globally => game_value(&g, one, max, |sigma| {
                Exact::one() - chain_until(&g, sigma, &all, &not_a)
            }),
        };
        let (exact, float, _) = support::check(&g.text(), &property, false);
        prop_assert_eq!(&exact, &Number::Exact(Some(want)), "{} on\n{}", property, g.text());
        prop_assert!(within(&exact, &float), "{} on\n{}: {:?} against {:?}", property, g.text(), float, exact);
    }

    #[test]
    fn expected_rewards_match_every_pair_of_positional_strategies(
        g in game(), one in any::<bool>(), max in any::<bool>()
    ) {
        let property = format!("{} R{{\"r\"}}{}=? [ F \"b\" ]", coalition(one), goal(max));
        let want = game_value(&g, one, max, |sigma| match chain_reward(&g, sigma) {
            Some(v) => Reward::Finite(v),
            None => Reward::Infinite,
        });
        let (exact, float, _) = support::check(&g.text(), &property, false);
        match want {
            Reward::Infinite => {
                prop_assert_eq!(&exact, &Number::Exact(None), "{} on\n{}", property, g.text());
            }
            Reward::Finite(v) => {
                prop_assert_eq!(&exact, &Number::Exact(Some(v)), "{} on\n{}", property, g.text());
                prop_assert!(within(&exact, &float), "{} on\n{}: {:?} against {:?}", property, g.text(), float, exact);
            }
        }
    }
}
