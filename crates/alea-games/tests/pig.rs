//! Pig checked against published figures and independent methods: Neller and Presser's
//! value and Piglet policies, a plain value iteration over every position, a policy
//! enumeration in exact rationals, the kernel in double-double arithmetic for the last
//! printed digits, exact values inside the certified intervals, and seeded simulations
//! of best play and of play against a fixed "hold at h" opponent.

use std::cmp::Ordering;

use alea_core::{fraction, Exact, Value};
use alea_games::pig::{
    against, certify, certify_against, exact_words, solve, solve_within, Die, Policy, Rules, Shape,
};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a throw adds when it does not lose, read from the rules' statement.
fn gains(die: Die) -> Vec<usize> {
    match die {
        Die::Faces(n) => (2..=n as usize).collect(),
        Die::Coin => vec![1],
    }
}

/// Small games of every kind: dice of 2, 3, 6 and 10 faces and the coin.
fn small_games() -> Vec<Rules> {
    let mut games = Vec::new();
    for goal in [1, 2, 5, 10, 17] {
        for die in [
            Die::Faces(2),
            Die::Faces(3),
            Die::Faces(6),
            Die::Faces(10),
            Die::Coin,
        ] {
            games.push(Rules::new(goal, die).unwrap());
        }
    }
    games.push(Rules::new(24, Die::Faces(6)).unwrap());
    games.push(Rules::piglet(12).unwrap());
    games
}

#[test]
fn standard_pig_reproduces_the_published_value() {
    let s = solve::<f64>(&Rules::standard());
    let p = *s.first_player_wins();
    // Neller and Presser (2004): the first player wins 53.06% of games under best play.
    assert_eq!(format!("{p:.4}"), "0.5306");
    assert_eq!(format!("{p:.15}"), "0.530592725273747");
    assert!(s.settled);
    let c = certify(&s);
    assert!(c.error_bound <= 1e-12, "{}", c.error_bound);
    let (lo, hi) = c.interval(0, 0);
    assert!(lo <= p && p <= hi && hi - lo <= 2e-12);
}

#[test]
fn at_41_against_49_the_policy_is_not_a_threshold() {
    // The published strategy holds at 22 to 26 but throws again at 27.
    let s = solve::<f64>(&Rules::standard());
    for k in 22..=26 {
        assert!(s.options(41, 49, k).unwrap().holds(), "{k}");
    }
    for k in [20, 21, 27] {
        assert!(!s.options(41, 49, k).unwrap().holds(), "{k}");
    }
    let p = s.policy();
    let h = p.at(41, 49);
    assert_eq!(h.threshold(), 22);
    assert_eq!(h.shape(), Shape::Gaps);
    assert_eq!(h.runs, vec![(22, 26), (28, 56)]);
    // The start of a game is a plain threshold at 25... up to the goal's end game.
    assert!(p.at(0, 0).threshold() >= 20);
}

#[test]
fn small_exact_values() {
    let s = solve::<Exact>(&Rules::new(20, Die::Faces(6)).unwrap());
    assert_eq!(fraction(s.first_player_wins()), "15116544/24557443");
    assert!(s.settled);
    let s = solve::<Exact>(&Rules::piglet(3).unwrap());
    assert_eq!(fraction(s.first_player_wins()), "6/11");
    // Piglet to 2, solved in Neller and Presser's paper: every position's value.
    let s = solve::<Exact>(&Rules::piglet(2).unwrap());
    let at = |i, j, k| fraction(&s.turn_values(i, j)[k]);
    assert_eq!(at(0, 0, 0), "4/7");
    assert_eq!(at(0, 0, 1), "5/7");
    assert_eq!(at(0, 1, 0), "2/5");
    assert_eq!(at(0, 1, 1), "3/5");
    assert_eq!(at(1, 0, 0), "4/5");
    assert_eq!(at(1, 1, 0), "2/3");
    // Goal 1: any throw but a 1 wins, so x = (n - 1) / n + (1 - x) / n.
    for die in [Die::Faces(2), Die::Faces(6), Die::Coin] {
        let rules = Rules::new(1, die).unwrap();
        let n = i64::from(rules.outcomes());
        let s = solve::<Exact>(&rules);
        assert_eq!(*s.first_player_wins(), Exact::from_ratio(n, (n + 1) as u64));
    }
}

/// Neller's optimal Piglet policies: row i (the mover's score), column j (the
/// opponent's), the smallest turn total at which the mover holds.
const PIGLET_3: &str = "1 3 3 / 2 2 2 / 1 1 1";
const PIGLET_6: &str = "2 2 2 2 2 6 / 1 2 2 2 2 5 / 1 1 2 2 2 4 / 1 1 1 1 3 3 / 1 1 1 2 2 2 / \
                        1 1 1 1 1 1";
const PIGLET_9: &str = "2 2 2 2 2 2 3 3 9 / 1 2 2 2 2 2 2 3 8 / 1 1 2 2 2 2 2 3 7 / \
                        1 1 1 2 2 2 2 2 6 / 1 1 1 1 2 2 2 2 5 / 1 1 1 1 1 2 2 2 4 / \
                        1 1 1 1 1 1 1 3 3 / 1 1 1 1 1 1 2 2 2 / 1 1 1 1 1 1 1 1 1";

fn table(policy: &Policy) -> String {
    let g = policy.goal() as usize;
    (0..g)
        .map(|i| {
            (0..g)
                .map(|j| policy.at(i, j).threshold().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" / ")
}

#[test]
fn piglet_policies_match_the_published_tables() {
    for (goal, published) in [(3, PIGLET_3), (6, PIGLET_6), (9, PIGLET_9)] {
        let published = published.split_whitespace().collect::<Vec<_>>().join(" ");
        let rules = Rules::piglet(goal).unwrap();
        let exact = solve::<Exact>(&rules).policy();
        assert_eq!(table(&exact), published, "goal {goal}");
        let float = solve::<f64>(&rules).policy();
        assert_eq!(float, exact, "goal {goal}");
        for i in 0..goal as usize {
            for j in 0..goal as usize {
                assert!(exact.at(i, j).is_threshold());
            }
        }
    }
}

/// The rules read straight from the statement, by value iteration over every position:
/// P(i, j, k) for the mover, swept in place until no value moves beyond rounding.
/// Index (i G + j) G + k.
/// Each sweep visits the scores in decreasing order of i + j, so that it mostly reads
/// values already swept (plain Gauss-Seidel).
fn value_iteration(goal: usize, gains: &[usize]) -> Vec<f64> {
    let g = goal;
    let n = (gains.len() + 1) as f64;
    let at = |i: usize, j: usize, k: usize| (i * g + j) * g + k;
    let mut p = vec![0.5; g * g * g];
    let mut last = f64::INFINITY;
    for _ in 0..20_000 {
        let mut delta: f64 = 0.0;
        for sum in (0..2 * g - 1).rev() {
            for i in sum.saturating_sub(g - 1)..=sum.min(g - 1) {
                let j = sum - i;
                for k in (0..g - i).rev() {
                    let mut roll = 1.0 - p[at(j, i, 0)];
                    for &r in gains {
                        roll += if i + k + r >= g {
                            1.0
                        } else {
                            p[at(i, j, k + r)]
                        };
                    }
                    roll /= n;
                    let v = if k == 0 {
                        roll
                    } else {
                        roll.max(1.0 - p[at(j, i + k, 0)])
                    };
                    delta = delta.max((v - p[at(i, j, k)]).abs());
                    p[at(i, j, k)] = v;
                }
            }
        }
        // Down at rounding level a value may flip between two neighbours forever.
        if delta == 0.0 || (delta < 1e-13 && delta >= last) {
            break;
        }
        last = delta;
    }
    p
}

#[test]
fn value_iteration_agrees_on_small_games() {
    for rules in small_games() {
        let g = rules.goal() as usize;
        let vi = value_iteration(g, &gains(rules.die()));
        let s = solve::<f64>(&rules);
        for i in 0..g {
            for j in 0..g {
                let values = s.turn_values(i, j);
                for (k, v) in values.iter().enumerate() {
                    let want = vi[(i * g + j) * g + k];
                    assert!(
                        (v - want).abs() < 1e-13,
                        "{rules:?} ({i}, {j}, {k}): {v} vs {want}"
                    );
                }
            }
        }
    }
}

#[test]
fn value_iteration_agrees_on_standard_pig() {
    let vi = value_iteration(100, &gains(Die::Faces(6)));
    let s = solve::<f64>(&Rules::standard());
    let mut worst: f64 = 0.0;
    for i in 0..100 {
        for j in 0..100 {
            for (k, v) in s.turn_values(i, j).iter().enumerate() {
                worst = worst.max((v - vi[(i * 100 + j) * 100 + k]).abs());
            }
        }
    }
    assert!(worst < 1e-13, "{worst}");
    let start = vi[0];
    assert_eq!(format!("{start:.12}"), "0.530592725274");
}

/// Policy enumeration for Piglet to 3: every pure strategy (the same for both seats, the
/// game being symmetric) is evaluated exactly by Gaussian elimination; the value is the
/// one solution of the optimality equations, so a strategy that no single change
/// improves gives it.
#[test]
fn policy_enumeration_gives_the_exact_values_of_piglet_to_3() {
    const G: usize = 3;
    let states: Vec<(usize, usize, usize)> = (0..G)
        .flat_map(|i| (0..G).flat_map(move |j| (0..G - i).map(move |k| (i, j, k))))
        .collect();
    let index = |s: (usize, usize, usize)| states.iter().position(|&t| t == s).unwrap();
    let decisions: Vec<usize> = (0..states.len()).filter(|&s| states[s].2 >= 1).collect();
    let half = Exact::from_ratio(1, 2);
    let one = <Exact as Value>::one();
    // The option values at state s given all values.
    let options = |values: &[Exact], s: usize| {
        let (i, j, k) = states[s];
        let after_loss = &one - &values[index((j, i, 0))];
        let after_head = if i + k + 1 >= G {
            one.clone()
        } else {
            values[index((i, j, k + 1))].clone()
        };
        let roll = &half * (after_loss + after_head);
        let hold = (k >= 1).then(|| &one - &values[index((j, i + k, 0))]);
        (roll, hold)
    };
    let mut found = Vec::new();
    for strategy in 0u32..1 << decisions.len() {
        let holds = |s: usize| {
            decisions
                .iter()
                .position(|&d| d == s)
                .is_some_and(|bit| strategy >> bit & 1 == 1)
        };
        // Row s: P(s) - sum of coefficients = constant.
        let m = states.len();
        let mut a = vec![vec![<Exact as Value>::zero(); m + 1]; m];
        for (s, row) in a.iter_mut().enumerate() {
            let (i, j, k) = states[s];
            row[s] += &one;
            if holds(s) {
                row[m] += &one;
                row[index((j, i + k, 0))] += &one;
            } else {
                row[m] += &half;
                row[index((j, i, 0))] += &half;
                if i + k + 1 >= G {
                    row[m] += &half;
                } else {
                    row[index((i, j, k + 1))] -= &half;
                }
            }
        }
        let values = gauss(a);
        let stable = decisions.iter().all(|&s| {
            let (roll, hold) = options(&values, s);
            let hold = hold.unwrap();
            if holds(s) {
                hold >= roll
            } else {
                roll >= hold
            }
        });
        if stable {
            found.push(values);
        }
    }
    assert!(!found.is_empty());
    let kernel = solve::<Exact>(&Rules::piglet(3).unwrap());
    for values in &found {
        assert_eq!(
            values, &found[0],
            "the optimality equations have one solution"
        );
        for (s, &(i, j, k)) in states.iter().enumerate() {
            assert_eq!(kernel.turn_values(i, j)[k], values[s], "({i}, {j}, {k})");
        }
    }
    assert_eq!(fraction(&found[0][index((0, 0, 0))]), "6/11");
}

/// Solves a square system given as rows [coefficients | constant] exactly.
fn gauss(mut a: Vec<Vec<Exact>>) -> Vec<Exact> {
    let m = a.len();
    for c in 0..m {
        let pivot = (c..m).find(|&r| !a[r][c].is_zero()).expect("regular");
        a.swap(c, pivot);
        let p = a[c][c].clone();
        for x in a[c].iter_mut() {
            *x /= &p;
        }
        for r in 0..m {
            if r != c && !a[r][c].is_zero() {
                let f = a[r][c].clone();
                let (top, rest) = if r < c {
                    let (x, y) = a.split_at_mut(c);
                    (&y[0], &mut x[r])
                } else {
                    let (x, y) = a.split_at_mut(r);
                    (&x[c], &mut y[0])
                };
                for (t, v) in rest.iter_mut().zip(top) {
                    *t -= &f * v;
                }
            }
        }
    }
    a.into_iter().map(|row| row[m].clone()).collect()
}

#[test]
fn exact_values_lie_in_the_certified_intervals() {
    for rules in small_games() {
        let g = rules.goal() as usize;
        let exact = solve::<Exact>(&rules);
        let float = solve::<f64>(&rules);
        let c = certify(&float);
        assert!(c.error_bound < 1e-14, "{rules:?}: {}", c.error_bound);
        for i in 0..g {
            for j in 0..g {
                let (lo, hi) = c.interval(i, j);
                let q = exact.start_value(i, j);
                assert!(
                    lo <= hi
                        && to_exact(lo) <= *q
                        && *q <= to_exact(hi)
                        && (float.start_value(i, j) - q.to_f64()).abs() <= hi - lo,
                    "{rules:?} ({i}, {j})"
                );
            }
        }
        assert_eq!(exact.policy(), float.policy(), "{rules:?}");
        assert!(c.uncertain_decisions(&float).is_empty(), "{rules:?}");
    }
}

fn to_exact(x: f64) -> Exact {
    Exact::from_float(x).unwrap()
}

#[test]
fn the_standard_policy_is_certain() {
    let s = solve::<f64>(&Rules::standard());
    assert!(certify(&s).uncertain_decisions(&s).is_empty());
}

/// Double-double numbers (an unevaluated sum of two f64, about 106 bits): the kernel in
/// this arithmetic settles the printed digits, which an f64 solve and its certified
/// bound alone leave a few units of the 15th decimal apart.
#[derive(Clone, Copy, Debug)]
struct Dd(f64, f64);

fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let v = s - a;
    Dd(s, (a - (s - v)) + (b - v))
}

fn quick(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd(s, b - (s - a))
}

impl Value for Dd {
    const NAME: &'static str = "double-double";
    fn zero() -> Self {
        Dd(0.0, 0.0)
    }
    fn one() -> Self {
        Dd(1.0, 0.0)
    }
    fn from_int(n: i64) -> Self {
        Dd(n as f64, 0.0)
    }
    fn from_ratio(num: i64, den: u64) -> Self {
        Dd(num as f64, 0.0).div(&Dd(den as f64, 0.0))
    }
    fn add(&self, o: &Self) -> Self {
        let s = two_sum(self.0, o.0);
        let t = two_sum(self.1, o.1);
        let s = quick(s.0, s.1 + t.0);
        quick(s.0, s.1 + t.1)
    }
    fn sub(&self, o: &Self) -> Self {
        self.add(&Dd(-o.0, -o.1))
    }
    fn mul(&self, o: &Self) -> Self {
        let p = self.0 * o.0;
        let e = self.0.mul_add(o.0, -p) + (self.0 * o.1 + self.1 * o.0);
        quick(p, e)
    }
    fn div(&self, o: &Self) -> Self {
        let q1 = self.0 / o.0;
        let r = self.sub(&o.mul(&Dd(q1, 0.0)));
        let q2 = r.0 / o.0;
        let r = r.sub(&o.mul(&Dd(q2, 0.0)));
        let q3 = r.0 / o.0;
        quick(q1, q2).add(&Dd(q3, 0.0))
    }
    fn compare(&self, o: &Self) -> Option<Ordering> {
        let d = self.sub(o);
        d.0.partial_cmp(&0.0)
    }
    fn to_f64(&self) -> f64 {
        self.0 + self.1
    }
}

#[test]
fn double_double_settles_the_printed_digits() {
    let dd = solve::<Dd>(&Rules::standard());
    let float = solve::<f64>(&Rules::standard());
    let bound = certify(&float).error_bound;
    let p = *dd.first_player_wins();
    let f = *float.first_player_wins();
    assert!((p.to_f64() - f).abs() <= bound);
    // The 15-decimal text is far from a rounding boundary at double-double accuracy.
    let scaled = p.mul(&Dd(1e15, 0.0));
    let frac = scaled.sub(&Dd(scaled.0.floor(), 0.0)).to_f64();
    assert!((0.05..0.95).contains(&frac), "{frac}");
    assert_eq!(format!("{:.15}", p.to_f64()), "0.530592725273747");
    assert_eq!(dd.policy(), float.policy());
    // Double-double agrees with exact arithmetic far beyond f64 on a small game.
    let rules = Rules::new(20, Die::Faces(6)).unwrap();
    let dd = solve::<Dd>(&rules);
    let exact = solve::<Exact>(&rules);
    let diff = dd
        .first_player_wins()
        .sub(&Dd(exact.first_player_wins().to_f64(), 0.0));
    assert!(diff.to_f64().abs() < 1e-16);
    let q = exact.first_player_wins();
    let err = to_exact(dd.first_player_wins().0) + to_exact(dd.first_player_wins().1) - q;
    assert!(err.abs() < Exact::new(BigInt::from(1), BigInt::from(10).pow(26)));
}

#[test]
fn values_are_consistent() {
    for rules in small_games().into_iter().chain([Rules::standard()]) {
        let g = rules.goal() as usize;
        let s = solve::<f64>(&rules);
        assert!(s.settled);
        assert!(*s.first_player_wins() > 0.5, "moving first helps");
        for i in 0..g {
            for j in 0..g {
                let v = *s.start_value(i, j);
                assert!((0.0..=1.0).contains(&v));
                // More banked is never worse; the opponent's more never better.
                if i + 1 < g {
                    assert!(*s.start_value(i + 1, j) >= v - 1e-15, "{rules:?}");
                }
                if j + 1 < g {
                    assert!(*s.start_value(i, j + 1) <= v + 1e-15, "{rules:?}");
                }
                let turn = s.turn_values(i, j);
                for (k, t) in turn.iter().enumerate().skip(1) {
                    // Every value is the better of its two options.
                    let o = s.options(i, j, k).unwrap();
                    assert_eq!(*t, *o.best(), "{rules:?}");
                    assert!(o.loss() >= 0.0);
                }
            }
        }
        assert!(s.options(0, 0, 0).is_none());
        assert!(s.options(g - 1, 0, 1).is_none());
        assert!(s.options(0, g, 1).is_none());
    }
}

/// Plays one game with each seat deciding by `holds(seat, mine, theirs, turn)`; true when
/// the first player wins.
fn play(
    goal: usize,
    gains: &[usize],
    holds: &dyn Fn(usize, usize, usize, usize) -> bool,
    rng: &mut ChaCha8Rng,
) -> bool {
    let mut score = [0usize; 2];
    let mut mover = 0;
    loop {
        let mut turn = 0;
        loop {
            let r = rng.gen_range(0..=gains.len());
            if r == 0 {
                break;
            }
            turn += gains[r - 1];
            if score[mover] + turn >= goal {
                return mover == 0;
            }
            if holds(mover, score[mover], score[1 - mover], turn) {
                score[mover] += turn;
                break;
            }
        }
        mover = 1 - mover;
    }
}

/// The share of games won, and whether `p` lies in its 95% interval.
fn simulate(
    games: u32,
    seed: u64,
    goal: usize,
    gains: &[usize],
    holds: &dyn Fn(usize, usize, usize, usize) -> bool,
    p: f64,
) -> (f64, bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let wins = (0..games)
        .filter(|_| play(goal, gains, holds, &mut rng))
        .count();
    let mean = wins as f64 / f64::from(games);
    let half = 1.96 * (p * (1.0 - p) / f64::from(games)).sqrt();
    (mean, (mean - p).abs() <= half)
}

#[test]
fn simulated_best_play_wins_as_computed() {
    for (rules, seed) in [
        (Rules::standard(), 7),
        (Rules::piglet(10).unwrap(), 8),
        (Rules::new(30, Die::Faces(3)).unwrap(), 9),
    ] {
        let s = solve::<f64>(&rules);
        let policy = s.policy();
        let holds = |_: usize, me: usize, opponent: usize, turn: usize| {
            policy.at(me, opponent).holds(turn as u32)
        };
        let p = *s.first_player_wins();
        let (mean, inside) = simulate(
            200_000,
            seed,
            rules.goal() as usize,
            &gains(rules.die()),
            &holds,
            p,
        );
        assert!(inside, "{rules:?}: simulated {mean}, computed {p}");
    }
}

#[test]
fn against_hold_at_h_by_simulation() {
    let rules = Rules::standard();
    for (h, seed) in [(20, 11), (25, 12)] {
        let a = against::<f64>(&rules, h, &|_| 1, u64::MAX).unwrap();
        assert!(a.settled);
        let bound = certify_against(&a).error_bound;
        assert!(bound <= 1e-12, "{bound}");
        let best = a.policy();
        let (first, second) = (*a.moving_first(), *a.moving_second());
        // The best seat against a fixed one does at least as well as against best play.
        let value = *solve::<f64>(&rules).first_player_wins();
        assert!(first >= value && second >= 1.0 - value);
        for (best_seat, p) in [(0, first), (1, second)] {
            let holds = |seat: usize, me: usize, opponent: usize, turn: usize| {
                if seat == best_seat {
                    best.at(me, opponent).holds(turn as u32)
                } else {
                    turn >= h as usize
                }
            };
            let (mean, inside) = simulate(
                200_000,
                seed + best_seat as u64,
                100,
                &gains(Die::Faces(6)),
                &holds,
                if best_seat == 0 { p } else { 1.0 - p },
            );
            assert!(inside, "hold-at-{h}, best seat {best_seat}: {mean} vs {p}");
        }
    }
}

#[test]
fn against_exact_agrees_with_f64_and_with_fixed_play() {
    for rules in [
        Rules::piglet(6).unwrap(),
        Rules::new(15, Die::Faces(6)).unwrap(),
    ] {
        for h in [1, 2, 4, 50] {
            let exact = against::<Exact>(&rules, h, &exact_words, u64::MAX).unwrap();
            let float = against::<f64>(&rules, h, &|_| 1, u64::MAX).unwrap();
            let bound = certify_against(&float).error_bound;
            assert!(exact.settled);
            for (q, f) in [
                (exact.moving_first(), float.moving_first()),
                (exact.moving_second(), float.moving_second()),
            ] {
                assert!((q.to_f64() - f).abs() <= bound + 1e-16, "{rules:?} {h}");
            }
            // Against a fixed opponent, best play is at least as good as best play
            // against best play.
            let value = solve::<Exact>(&rules);
            let v = value.first_player_wins();
            assert!(exact.moving_first() >= v);
            assert!(*exact.moving_second() >= <Exact as Value>::one() - v);
        }
    }
}

#[test]
fn the_exact_budget_counts_words() {
    let rules = Rules::new(20, Die::Faces(6)).unwrap();
    assert!(solve_within::<Exact>(&rules, &exact_words, 100_000).is_ok());
    assert!(solve_within::<Exact>(&rules, &exact_words, 50_000).is_err());
}
