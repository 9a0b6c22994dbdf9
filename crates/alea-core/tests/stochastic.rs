//! The solver of cycles through choices (`solve_exact`, `solve_certified`) against
//! values worked out by hand and against a brute force over random Markov decision
//! processes and two-player games: exact values equal, `f64` values within their
//! certified bound, and the refusals (rewards of both signs, infinite expected reward,
//! zero-reward cycles) where the contract asks for them. The `brute_force_*` tests check
//! the brute force and the hand values on their own, without the solver.

mod brute_force;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::OnceLock;

use alea_core::{
    solve, solve_certified, solve_exact, solve_game, Error, Exact, Limits, Settings, Solution,
};
use num_rational::BigRational;
use num_traits::{One, Signed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use brute_force::{
    analyse, chance, int, max, min, random_model, ratio, terminal, uniform, Analysis, Class,
    Expect, Explicit, Family, Id, Players, Role, Val,
};

/// Models with more positional profiles than this are not enumerated.
const MAX_PROFILES: usize = 2000;

/// The precisions asked of the certified solver: the default and a coarse one.
const PRECISIONS: [f64; 2] = [1e-12, 1e-6];

fn settings(precision: f64) -> Settings {
    Settings {
        precision,
        ..Settings::default()
    }
}

// ---------------------------------------------------------------------------------
// What a model should give, and the check of both solvers against it.
// ---------------------------------------------------------------------------------

/// The right answer for one model.
struct Want {
    start: u16,
    reachable: Vec<u16>,
    expect: Expect,
    /// Every reachable state's value (for `Values` and `ZeroCycle`).
    values: BTreeMap<u16, BigRational>,
    /// The states of infinite value (for `Infinite`).
    infinite: Vec<u16>,
    /// The states whose rewards break the sign rule.
    culprits: Vec<u16>,
}

impl Want {
    fn from_analysis(model: &Explicit, a: &Analysis) -> Option<Want> {
        let expect = a.expect()?;
        let values = a
            .values
            .iter()
            .flatten()
            .filter_map(|(&s, v)| match v {
                Val::Fin(q) => Some((s, q.clone())),
                Val::Inf => None,
            })
            .collect();
        Some(Want {
            start: a.start,
            reachable: a.reachable.clone(),
            expect,
            values,
            infinite: a.infinite_states(),
            culprits: a.sign_culprits(model),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Both solvers returned values, and they were right.
    Compared,
    /// The expected error, from both solvers.
    Refused,
}

/// Whether the error's text names one of `states` (contains its `Debug` form).
fn names_one_of(text: &str, states: &[u16]) -> bool {
    states
        .iter()
        .any(|&s| text.contains(&format!("{:?}", Id(s))))
}

/// Checks an exact solution against the wanted values.
fn check_exact(solution: &Solution<Id, Exact>, want: &Want, label: &str) {
    assert_eq!(solution.start(), Id(want.start), "{label}: start");
    assert_eq!(
        solution.len(),
        want.reachable.len(),
        "{label}: the exact solution should hold every reachable state, and only those"
    );
    for &s in &want.reachable {
        let got = solution
            .get(&Id(s))
            .unwrap_or_else(|| panic!("{label}: no exact value for reachable state {s}"));
        let right = &want.values[&s];
        assert_eq!(
            got,
            right,
            "{label}: exact value of state {s} is {}/{}, should be {}/{}",
            got.numer(),
            got.denom(),
            right.numer(),
            right.denom()
        );
    }
}

/// The slack allowed on the precision for the rounding of the final `f64`s: a relative
/// 1e-9 of the precision, far below anything an iteration could gain from.
const ROUNDING_SLACK: f64 = 1.0 + 1e-9;

/// Checks a certified `f64` solution. `error_bound` is absolute ("no value is further
/// than this from the true value"), while the precision is absolute up to 1 and
/// relative above (as `Settings::precision` says). So: every value is within
/// `error_bound` of the truth, every value is within `precision * max(1, |truth|)` of
/// it, and `error_bound` is at most `precision * max(1, largest |value|)`. The
/// comparisons are exact: each `f64` is converted to a rational.
fn check_certified(certified: &alea_core::Certified<Id>, precision: f64, want: &Want, label: &str) {
    let bound = certified.error_bound;
    let largest = want
        .values
        .values()
        .map(|v| v.abs())
        .max()
        .unwrap_or_else(BigRational::one)
        .max(BigRational::one());
    let allowed = |scale: &BigRational| {
        BigRational::from_float(precision * ROUNDING_SLACK).expect("finite precision") * scale
    };
    assert!(
        bound.is_finite() && bound >= 0.0,
        "{label}: error bound {bound}"
    );
    let bound_q = BigRational::from_float(bound).expect("finite bound");
    assert!(
        bound_q <= allowed(&largest),
        "{label}: error bound {bound:e} for precision {precision:e}, values up to {:e}",
        alea_core::Value::to_f64(&largest)
    );
    assert_eq!(
        certified.states,
        want.reachable.len(),
        "{label}: states explored"
    );
    assert_eq!(certified.solution.start(), Id(want.start), "{label}: start");
    assert_eq!(
        certified.solution.len(),
        want.reachable.len(),
        "{label}: the certified solution should hold every reachable state"
    );
    for &s in &want.reachable {
        let got = *certified
            .solution
            .get(&Id(s))
            .unwrap_or_else(|| panic!("{label}: no f64 value for reachable state {s}"));
        assert!(got.is_finite(), "{label}: f64 value {got} at state {s}");
        let truth = &want.values[&s];
        let got_q = BigRational::from_float(got).expect("finite value");
        let error = (&got_q - truth).abs();
        let show = |q: &BigRational| alea_core::Value::to_f64(q);
        assert!(
            error <= bound_q,
            "{label}: f64 value {got:e} at state {s} is {:e} away from {}/{}, beyond the certified bound {bound:e}",
            show(&error),
            truth.numer(),
            truth.denom()
        );
        assert!(
            error <= allowed(&truth.abs().max(BigRational::one())),
            "{label}: f64 value {got:e} at state {s} is {:e} away from {}/{}, beyond the precision {precision:e}",
            show(&error),
            truth.numer(),
            truth.denom()
        );
    }
}

/// Checks that `err` is the refusal `want` asks for, naming a state it should name. (A
/// cycle of zero rewards is solved, not refused: an error for it fails.)
fn check_error(err: &Error, want: &Want, label: &str, solver: &str) {
    let text = err.to_string();
    match (want.expect, err) {
        (Expect::Signs, Error::Signs(_)) => {
            assert!(
                names_one_of(&text, &want.culprits),
                "{label}: {solver}: the sign error should name one of the states {:?}: {text}",
                want.culprits
            );
        }
        (Expect::Infinite { .. }, Error::InfiniteReward(state, _)) => {
            assert!(
                names_one_of(state, &want.infinite),
                "{label}: {solver}: the infinite state named, {state}, is not one of {:?}: {text}",
                want.infinite
            );
            assert!(text.contains(state.as_str()), "{label}: {solver}: {text}");
        }
        _ => panic!(
            "{label}: {solver}: expected {:?}, got the error {err:?} ({text})",
            want.expect
        ),
    }
}

/// Runs `solve_exact` and `solve_certified` (at both precisions) on `model` and checks
/// every answer against `want`.
fn check(model: &Explicit, want: &Want, label: &str) -> Outcome {
    let values_expected = matches!(want.expect, Expect::Values | Expect::ZeroCycle);
    match solve_exact(model, &Settings::default()) {
        Ok(solution) => {
            assert!(
                values_expected,
                "{label}: solve_exact returned values, expected {:?}",
                want.expect
            );
            check_exact(&solution, want, label);
        }
        Err(err) => check_error(&err, want, label, "solve_exact"),
    }
    for precision in PRECISIONS {
        match solve_certified(model, &settings(precision)) {
            Ok(certified) => {
                assert!(
                    values_expected,
                    "{label}: solve_certified returned values, expected {:?}",
                    want.expect
                );
                check_certified(&certified, precision, want, label);
            }
            Err(err) => check_error(&err, want, label, "solve_certified"),
        }
    }
    if values_expected {
        Outcome::Compared
    } else {
        Outcome::Refused
    }
}

// ---------------------------------------------------------------------------------
// Hand-made models.
// ---------------------------------------------------------------------------------

enum HandExpect {
    /// The value of every reachable state.
    Values(Vec<(u16, BigRational)>),
    /// As `Values`, through a zero-reward end component (strategy improvement).
    ZeroCycle(Vec<(u16, BigRational)>),
    /// The states of infinite value.
    Infinite(Vec<u16>),
    Signs,
}

struct Hand {
    name: &'static str,
    model: Explicit,
    expect: HandExpect,
}

impl Hand {
    fn want(&self) -> Want {
        // The structure only (reachability, components, culprits): no profiles.
        let a = analyse(&self.model, 0);
        let listed = |values: &[(u16, BigRational)]| {
            let map: BTreeMap<u16, BigRational> = values.iter().cloned().collect();
            assert_eq!(
                map.keys().copied().collect::<Vec<_>>(),
                a.reachable,
                "{}: the hand values should list every reachable state",
                self.name
            );
            map
        };
        let (expect, values, infinite) = match &self.expect {
            HandExpect::Values(v) => (Expect::Values, listed(v), Vec::new()),
            HandExpect::ZeroCycle(v) => {
                assert!(!a.zero_component.is_empty(), "{}", self.name);
                (Expect::ZeroCycle, listed(v), Vec::new())
            }
            HandExpect::Infinite(states) => {
                let start = states.contains(&self.model.start);
                (Expect::Infinite { start }, BTreeMap::new(), states.clone())
            }
            HandExpect::Signs => (Expect::Signs, BTreeMap::new(), Vec::new()),
        };
        Want {
            start: self.model.start,
            reachable: a.reachable.clone(),
            expect,
            values,
            infinite,
            culprits: a.sign_culprits(&self.model),
        }
    }

    /// Checks both solvers on this model.
    fn check(&self) -> Outcome {
        check(&self.model, &self.want(), self.name)
    }
}

/// (1) An end component of maximising choices with two exits.
fn max_end_component() -> Hand {
    // 0 A: max -> 1 (stay) or 3 (exit worth 1/2)
    // 1 B: chance -> 0 (1/3), 2 (2/3)
    // 2 C: max -> 0 (stay) or 4 (exit worth 3/10)
    // 3: chance 1:1 win/loss = 1/2;  4: chance 3:7 win/loss = 3/10;  5 win;  6 loss.
    // Max can circle {A, B, C} forever (worth 0) but prefers leaving by the better exit:
    // from C back to A, from B either way to A, at A out: A = B = C = 1/2. Both the
    // greatest fixed point of the equations (everything 1) and staying (0) are wrong.
    Hand {
        name: "max end component",
        model: Explicit::new(vec![
            max(0, &[1, 3]),
            chance(0, &[(0, 1), (2, 2)]),
            max(0, &[0, 4]),
            chance(0, &[(5, 1), (6, 1)]),
            chance(0, &[(5, 3), (6, 7)]),
            terminal(1),
            terminal(0),
        ]),
        expect: HandExpect::Values(vec![
            (0, ratio(1, 2)),
            (1, ratio(1, 2)),
            (2, ratio(1, 2)),
            (3, ratio(1, 2)),
            (4, ratio(3, 10)),
            (5, int(1)),
            (6, int(0)),
        ]),
    }
}

/// (2) An end component of minimising choices that Min never leaves.
fn min_end_component() -> Hand {
    // 0 S: max -> 1 (the Min component) or 4 (exit worth 1/5)
    // 1 A: min -> 2 or 3 (exit worth 7/10);  2 B: min -> 1 or 3
    // 3: chance 7:3 win/loss = 7/10;  4: chance 1:4 = 1/5;  5 win;  6 loss.
    // Min circles A <-> B forever: the game never ends, worth 0 < 7/10. So A = B = 0,
    // and S = max(0, 1/5) = 1/5 (a solver that thinks A is worth 7/10 sends Max there).
    Hand {
        name: "min end component",
        model: Explicit::new(vec![
            max(0, &[1, 4]),
            min(0, &[2, 3]),
            min(0, &[1, 3]),
            chance(0, &[(5, 7), (6, 3)]),
            chance(0, &[(5, 1), (6, 4)]),
            terminal(1),
            terminal(0),
        ]),
        expect: HandExpect::Values(vec![
            (0, ratio(1, 5)),
            (1, int(0)),
            (2, int(0)),
            (3, ratio(7, 10)),
            (4, ratio(1, 5)),
            (5, int(1)),
            (6, int(0)),
        ]),
    }
}

/// (3) A cycle on which Max and Min alternate, each with an exit, in the payoff class.
fn alternating_payoff() -> Hand {
    // 0 A1: max -> 1 or exit 4 (3/10);  1 B1: min -> 2 or exit 5 (9/10)
    // 2 A2: max -> 3 or exit 6 (1/2);   3 B2: min -> 0 or exit 7 (1/5)
    // 8 win, 9 loss. Going round forever (both staying) is worth 0.
    // B2 = min(A1, 1/5) <= 1/5, so A2 = max(B2, 1/2) = 1/2 (Max leaves at A2);
    // B1 = min(A2, 9/10) = 1/2 (Min stays); A1 = max(B1, 3/10) = 1/2 (Max stays);
    // B2 = min(1/2, 1/5) = 1/5 (Min leaves).
    Hand {
        name: "alternating end component, payoff",
        model: Explicit::new(vec![
            max(0, &[1, 4]),
            min(0, &[2, 5]),
            max(0, &[3, 6]),
            min(0, &[0, 7]),
            chance(0, &[(8, 3), (9, 7)]),
            chance(0, &[(8, 9), (9, 1)]),
            chance(0, &[(8, 1), (9, 1)]),
            chance(0, &[(8, 1), (9, 4)]),
            terminal(1),
            terminal(0),
        ]),
        expect: HandExpect::Values(vec![
            (0, ratio(1, 2)),
            (1, ratio(1, 2)),
            (2, ratio(1, 2)),
            (3, ratio(1, 5)),
            (4, ratio(3, 10)),
            (5, ratio(9, 10)),
            (6, ratio(1, 2)),
            (7, ratio(1, 5)),
            (8, int(1)),
            (9, int(0)),
        ]),
    }
}

/// (3) The same shape in the total-reward class: staying forever is now what Max wants.
fn alternating_total() -> Hand {
    // 0 A: max, reward 1 -> 1 or terminal 2 (worth 2)
    // 1 B: min, reward 1 -> 0 or terminal 3 (worth 5)
    // If Min goes back to A, Max goes to B again and the game never ends (infinite), so
    // Min leaves: B = 1 + 5 = 6, and A = 1 + max(6, 2) = 7.
    Hand {
        name: "alternating end component, total reward",
        model: Explicit::new(vec![
            max(1, &[1, 2]),
            min(1, &[0, 3]),
            terminal(2),
            terminal(5),
        ]),
        expect: HandExpect::Values(vec![(0, int(7)), (1, int(6)), (2, int(2)), (3, int(5))]),
    }
}

/// (4) A chance node that loops to itself with probability 1, payoff class.
fn chance_loop_payoff() -> Hand {
    // 0: chance 1:1 -> 1 or 2
    // 1: max -> 3 (loops forever, worth 0) or 4 (worth 1/3)  = 1/3
    // 2: min -> 3 or 4                                        = 0
    // 3: chance -> 3 with weight 1 (never ends)               = 0
    // 4: chance 1:2 -> win 5 / loss 6                         = 1/3
    // 0 = (1/3 + 0) / 2 = 1/6.
    Hand {
        name: "chance self-loop, payoff",
        model: Explicit::new(vec![
            chance(0, &[(1, 1), (2, 1)]),
            max(0, &[3, 4]),
            min(0, &[3, 4]),
            chance(0, &[(3, 1)]),
            chance(0, &[(5, 1), (6, 2)]),
            terminal(1),
            terminal(0),
        ]),
        expect: HandExpect::Values(vec![
            (0, ratio(1, 6)),
            (1, ratio(1, 3)),
            (2, int(0)),
            (3, int(0)),
            (4, ratio(1, 3)),
            (5, int(1)),
            (6, int(0)),
        ]),
    }
}

/// (4) A chance node that loops to itself with probability 1, total-reward class.
fn chance_loop_total() -> Hand {
    // 0: chance, reward 1, 1:1 -> 1 or terminal 2;  1: chance, reward 1 -> 1 only.
    // 1 never ends: infinite; 0 reaches it with probability 1/2: infinite too.
    Hand {
        name: "chance self-loop, total reward",
        model: Explicit::new(vec![
            chance(1, &[(1, 1), (2, 1)]),
            chance(1, &[(1, 1)]),
            terminal(0),
        ]),
        expect: HandExpect::Infinite(vec![0, 1]),
    }
}

/// (4) The loop of (4) with reward 0 on it: a zero-reward end component, but also an
/// infinite value, which takes precedence in the contract.
fn chance_loop_total_zero() -> Hand {
    // 0: chance, reward 1, 1:1 -> 1 or terminal 2;  1: chance, reward 0 -> 1 only.
    Hand {
        name: "zero-reward chance self-loop, total reward",
        model: Explicit::new(vec![
            chance(1, &[(1, 1), (2, 1)]),
            chance(0, &[(1, 1)]),
            terminal(0),
        ]),
        expect: HandExpect::Infinite(vec![0, 1]),
    }
}

/// (5) Max keeps a total-reward game going by looping to himself.
fn max_self_loop() -> Hand {
    // 0: max, reward 1 -> 0 (itself) or terminal 1 (worth 0). Only state 0 is infinite.
    Hand {
        name: "max self-loop, total reward",
        model: Explicit::new(vec![max(1, &[0, 1]), terminal(0)]),
        expect: HandExpect::Infinite(vec![0]),
    }
}

/// (5) Max keeps a total-reward game going round a two-state cycle.
fn max_cycle() -> Hand {
    // 0: chance, reward 1, 1:1 -> 1 or terminal 3
    // 1: max, reward 1 -> 2 or terminal 3;  2: max, reward 2 -> 1 or terminal 4 (6)
    // Max circles 1 <-> 2 forever: 1 and 2 infinite, and 0 reaches them.
    Hand {
        name: "max cycle, total reward",
        model: Explicit::new(vec![
            chance(1, &[(1, 1), (3, 1)]),
            max(1, &[2, 3]),
            max(2, &[1, 4]),
            terminal(0),
            terminal(6),
        ]),
        expect: HandExpect::Infinite(vec![0, 1, 2]),
    }
}

/// (5) A Max cycle that chance always may leave: finite.
fn max_returns_by_chance() -> Hand {
    // 0: max, reward 1 -> 1 or terminal 2 (0);  1: chance, reward 1, 1:1 -> 0 or 2.
    // Going to 1 ends the game with probability 1/2 each time round, so it ends surely:
    // a = 1 + b, b = 1 + a/2, so a = 4, b = 3 (better for Max than a = 1 by leaving).
    Hand {
        name: "max cycle left by chance, total reward",
        model: Explicit::new(vec![
            max(1, &[1, 2]),
            chance(1, &[(0, 1), (2, 1)]),
            terminal(0),
        ]),
        expect: HandExpect::Values(vec![(0, int(4)), (1, int(3)), (2, int(0))]),
    }
}

/// (5) Min can avoid the costly loop, so must leave it.
fn min_leaves_loop() -> Hand {
    // 0: min, reward 1 -> 1 or terminal 2 (5);  1: min, reward 1 -> 0 or terminal 3 (2)
    // Circling is infinite, so Min leaves; the cheapest way is from 1: b = 1 + 2 = 3,
    // a = 1 + min(b, 5) = 4.
    Hand {
        name: "min leaves a costly loop",
        model: Explicit::new(vec![
            min(1, &[1, 2]),
            min(1, &[0, 3]),
            terminal(5),
            terminal(2),
        ]),
        expect: HandExpect::Values(vec![(0, int(4)), (1, int(3)), (2, int(5)), (3, int(2))]),
    }
}

/// (5) The start is finite, but a state Min avoids is infinite.
fn infinite_off_the_path() -> Hand {
    // 0: min, reward 1 -> 1 or terminal 2 (3);  1: max, reward 1 -> 1 (itself) or 2.
    // 1 is infinite; 0 = 1 + min(inf, 3) = 4 is not, yet the model is refused for 1.
    Hand {
        name: "infinite state off the optimal path",
        model: Explicit::new(vec![min(1, &[1, 2]), max(1, &[1, 2]), terminal(3)]),
        expect: HandExpect::Infinite(vec![1]),
    }
}

/// (5) Min must leave a loop of zero rewards: the solver may refuse it.
fn min_leaves_zero_loop() -> Hand {
    // 0: chance, reward 1 -> 1
    // 1: min, reward 0 -> 2 or terminal 3 (5);  2: min, reward 0 -> 1 or terminal 4 (2)
    // Circling 1 <-> 2 costs nothing but never ends (infinite), so Min leaves at 2:
    // 2 = 2, 1 = min(2, 5) = 2, 0 = 1 + 2 = 3.
    Hand {
        name: "min leaves a zero-reward loop",
        model: Explicit::new(vec![
            chance(1, &[(1, 1)]),
            min(0, &[2, 3]),
            min(0, &[1, 4]),
            terminal(5),
            terminal(2),
        ]),
        expect: HandExpect::ZeroCycle(vec![
            (0, int(3)),
            (1, int(2)),
            (2, int(2)),
            (3, int(5)),
            (4, int(2)),
        ]),
    }
}

/// (7) Gambler's ruin: a chance-only cycle, with choices outside it.
fn gamblers_ruin() -> Hand {
    // 0: max -> 1 or 2 (where to start)
    // 1, 2, 3: the walk, up with weight 1, down with weight 2; down from 1 is bust (5),
    // up from 3 is 4: min -> 6 (win, 1) or 7 (chance 1:1 win/bust = 1/2) = 1/2.
    // Reaching the top from i with ratio 2 is (2^i - 1) / (2^4 - 1), times 1/2:
    // 1 -> 1/30, 2 -> 3/30 = 1/10, 3 -> 7/30; 0 = max(1/30, 1/10) = 1/10.
    Hand {
        name: "gambler's ruin",
        model: Explicit::new(vec![
            max(0, &[1, 2]),
            chance(0, &[(2, 1), (5, 2)]),
            chance(0, &[(3, 1), (1, 2)]),
            chance(0, &[(4, 1), (2, 2)]),
            min(0, &[6, 7]),
            terminal(0),
            terminal(1),
            chance(0, &[(6, 1), (5, 1)]),
        ]),
        expect: HandExpect::Values(vec![
            (0, ratio(1, 10)),
            (1, ratio(1, 30)),
            (2, ratio(1, 10)),
            (3, ratio(7, 30)),
            (4, ratio(1, 2)),
            (5, int(0)),
            (6, int(1)),
            (7, ratio(1, 2)),
        ]),
    }
}

/// (7) Three heads in a row: a chance-only cycle of total rewards.
fn three_heads() -> Hand {
    // 0: min -> 1 (throw for three heads in a row) or terminal 5 (13)
    // 1, 2, 3: heads in a row so far 0, 1, 2; reward 1 a throw; heads goes on, tails
    // back to 1 (from 1 itself: a self-loop); 4: done (0).
    // E2 = 1 + E0/2, E1 = 1 + (E2 + E0)/2, E0 = 1 + (E1 + E0)/2: E0 = 14, E1 = 12,
    // E2 = 8. Min prefers 13.
    Hand {
        name: "three heads in a row",
        model: Explicit::new(vec![
            min(0, &[1, 5]),
            chance(1, &[(2, 1), (1, 1)]),
            chance(1, &[(3, 1), (1, 1)]),
            chance(1, &[(4, 1), (1, 1)]),
            terminal(0),
            terminal(13),
        ]),
        expect: HandExpect::Values(vec![
            (0, int(13)),
            (1, int(14)),
            (2, int(12)),
            (3, int(8)),
            (4, int(0)),
            (5, int(13)),
        ]),
    }
}

/// (7) An acyclic model with all three kinds of choice.
fn acyclic() -> Hand {
    // 0: max -> 1 or 2;  1: chance 1:1 -> 3 (3) or 4 (0) = 3/2
    // 2: min -> 5 (2) or 6;  6: uniform 1:1:1 -> 3, 4, 5 = 5/3;  2 = 5/3;  0 = 5/3.
    Hand {
        name: "acyclic",
        model: Explicit::new(vec![
            max(0, &[1, 2]),
            chance(0, &[(3, 1), (4, 1)]),
            min(0, &[5, 6]),
            terminal(3),
            terminal(0),
            terminal(2),
            uniform(0, &[(3, 1), (4, 1), (5, 1)]),
        ]),
        expect: HandExpect::Values(vec![
            (0, ratio(5, 3)),
            (1, ratio(3, 2)),
            (2, ratio(5, 3)),
            (3, int(3)),
            (4, int(0)),
            (5, int(2)),
            (6, ratio(5, 3)),
        ]),
    }
}

/// Terminal payoffs of both signs.
fn mixed_payoffs() -> Hand {
    // 0: max -> 1 (+1) or 2 (-1). Every game ends: 0 = 1.
    Hand {
        name: "payoffs of both signs",
        model: Explicit::new(vec![max(0, &[1, 2]), terminal(1), terminal(-1)]),
        expect: HandExpect::Values(vec![(0, int(1)), (1, int(1)), (2, int(-1))]),
    }
}

/// A negative reward on a chance node of a total-reward model.
fn negative_cost() -> Hand {
    // 0: min -> 1 or 2 (4);  1: chance, reward -1 -> 2. Every game ends: 0 = 1 = 3.
    Hand {
        name: "negative reward",
        model: Explicit::new(vec![min(0, &[1, 2]), chance(-1, &[(2, 1)]), terminal(4)]),
        expect: HandExpect::Values(vec![(0, int(3)), (1, int(3)), (2, int(4))]),
    }
}

/// Payoffs of both signs where Max could keep the game going forever (worth 0).
fn mixed_payoffs_forever() -> Hand {
    // 0: max -> 1 or 2 (-1);  1: max -> 0 or 3 (+1). Max may circle 0 -> 1 -> 0.
    Hand {
        name: "payoffs of both signs, a game that may not end",
        model: Explicit::new(vec![
            max(0, &[1, 2]),
            max(0, &[0, 3]),
            terminal(-1),
            terminal(1),
        ]),
        expect: HandExpect::Signs,
    }
}

/// Rewards of both signs where Max could keep the game going forever.
fn mixed_costs_forever() -> Hand {
    // 0: max -> 1 or 2 (+4);  1: chance, reward -1 -> 0. Max may circle 0 -> 1 -> 0.
    Hand {
        name: "rewards of both signs, a game that may not end",
        model: Explicit::new(vec![max(0, &[1, 2]), chance(-1, &[(0, 1)]), terminal(4)]),
        expect: HandExpect::Signs,
    }
}

/// Only reachable rewards count for the sign rule.
fn unreachable_sign() -> Hand {
    // 0: max with both options leading to 1 (+1); 2 (-1) cannot be reached. 0 = 1.
    Hand {
        name: "unreachable payoff of the other sign",
        model: Explicit::new(vec![max(0, &[1, 1]), terminal(1), terminal(-1)]),
        expect: HandExpect::Values(vec![(0, int(1)), (1, int(1))]),
    }
}

/// Payoffs all at most 0: Max keeps away from them, forever if he can.
fn losses_only() -> Hand {
    // 0: max -> 1 or 6;  6: max -> 0 or terminal 2 (-2)
    // 1: chance 1:1 -> 0 or 3
    // 3: min -> terminal 4 (-1) or 5;  5: max -> 3 or terminal 2 (-2)
    // Max circles 0 <-> 6 forever: the game never ends, worth 0, the best there is:
    // 0 = 6 = 0. At 3 Min must leave: going to 5 lets Max send it back to 3 for ever
    // (0), so 3 = -1 and 5 = max(-1, -2) = -1. 1 = (0 + -1)/2 = -1/2.
    Hand {
        name: "losses only",
        model: Explicit::new(vec![
            max(0, &[1, 6]),
            chance(0, &[(0, 1), (3, 1)]),
            terminal(-2),
            min(0, &[4, 5]),
            terminal(-1),
            max(0, &[3, 2]),
            max(0, &[0, 2]),
        ]),
        expect: HandExpect::Values(vec![
            (0, int(0)),
            (1, ratio(-1, 2)),
            (2, int(-2)),
            (3, int(-1)),
            (4, int(-1)),
            (5, int(-1)),
            (6, int(0)),
        ]),
    }
}

// ---------------------------------------------------------------------------------
// Piglet.
// ---------------------------------------------------------------------------------

/// A position of Piglet. `mover` is 0 for the first player (who maximises her win
/// probability) and 1 for the second (who minimises it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pig {
    /// The mover is about to flip, with `turn` points at risk.
    Flip {
        banked: [u8; 2],
        turn: u8,
        mover: u8,
    },
    /// After heads: flip again or hold.
    Decide {
        banked: [u8; 2],
        turn: u8,
        mover: u8,
    },
    Won(u8),
}

/// Piglet to `goal` as an explicit model: each turn starts with a flip; tails loses the
/// turn total and passes the turn; heads adds 1, and the mover chooses to flip again
/// or to hold (bank the turn total and pass). Reaching the goal with banked plus turn
/// total wins at once. The value is the first player's win probability.
fn piglet(goal: u8) -> (Explicit, HashMap<Pig, u16>) {
    let start = Pig::Flip {
        banked: [0, 0],
        turn: 0,
        mover: 0,
    };
    fn id_of(p: Pig, ids: &mut HashMap<Pig, u16>, queue: &mut VecDeque<Pig>) -> u16 {
        let next = ids.len() as u16;
        *ids.entry(p).or_insert_with(|| {
            queue.push_back(p);
            next
        })
    }
    let mut ids: HashMap<Pig, u16> = HashMap::new();
    let mut queue = VecDeque::new();
    id_of(start, &mut ids, &mut queue);
    // Discovery order is the order of ids, and the queue hands states out in it.
    let mut edges_of: Vec<(Pig, Vec<u16>)> = Vec::new();
    while let Some(p) = queue.pop_front() {
        let succ: Vec<Pig> = match p {
            Pig::Flip {
                banked,
                turn,
                mover,
            } => {
                // Tails: the turn total is lost, the other player flips.
                let tails = Pig::Flip {
                    banked,
                    turn: 0,
                    mover: 1 - mover,
                };
                let heads = if banked[mover as usize] + turn + 1 >= goal {
                    Pig::Won(mover)
                } else {
                    Pig::Decide {
                        banked,
                        turn: turn + 1,
                        mover,
                    }
                };
                vec![tails, heads]
            }
            Pig::Decide {
                banked,
                turn,
                mover,
            } => {
                let mut held = banked;
                held[mover as usize] += turn;
                vec![
                    Pig::Flip {
                        banked,
                        turn,
                        mover,
                    },
                    Pig::Flip {
                        banked: held,
                        turn: 0,
                        mover: 1 - mover,
                    },
                ]
            }
            Pig::Won(_) => Vec::new(),
        };
        let succ_ids = succ
            .into_iter()
            .map(|s| id_of(s, &mut ids, &mut queue))
            .collect();
        edges_of.push((p, succ_ids));
    }
    let nodes = edges_of
        .into_iter()
        .map(|(p, succ)| match p {
            Pig::Flip { .. } => chance(0, &[(succ[0], 1), (succ[1], 1)]),
            Pig::Decide { mover: 0, .. } => max(0, &succ),
            Pig::Decide { .. } => min(0, &succ),
            Pig::Won(w) => terminal(if w == 0 { 1 } else { 0 }),
        })
        .collect();
    (Explicit::new(nodes), ids)
}

/// `W(a, b, k)` of the table below, as numerator and denominator.
type PigletEntry = ((u8, u8, u8), (i64, i64));

/// Every Piglet state's value (the first player's win probability) from the table of
/// `W(a, b, k)`: the mover's win probability about to flip, with `a` banked against
/// `b` and `k` at risk.
fn piglet_values(ids: &HashMap<Pig, u16>, w: &[PigletEntry]) -> Vec<(u16, BigRational)> {
    let w: HashMap<(u8, u8, u8), BigRational> =
        w.iter().map(|&(k, (n, d))| (k, ratio(n, d))).collect();
    let one = BigRational::one();
    // The mover's win probability at a decision: flip again, or hold and hand over.
    let decide = |a: u8, b: u8, k: u8| {
        let flip = w[&(a, b, k)].clone();
        let hold = &one - &w[&(b, a + k, 0)];
        flip.max(hold)
    };
    let mut values: Vec<(u16, BigRational)> = ids
        .iter()
        .map(|(&p, &id)| {
            let v = match p {
                Pig::Won(m) => int(if m == 0 { 1 } else { 0 }),
                Pig::Flip {
                    banked: [i, j],
                    turn,
                    mover: 0,
                } => w[&(i, j, turn)].clone(),
                Pig::Flip {
                    banked: [i, j],
                    turn,
                    ..
                } => &one - &w[&(j, i, turn)],
                Pig::Decide {
                    banked: [i, j],
                    turn,
                    mover: 0,
                } => decide(i, j, turn),
                Pig::Decide {
                    banked: [i, j],
                    turn,
                    ..
                } => &one - decide(j, i, turn),
            };
            (id, v)
        })
        .collect();
    values.sort();
    values
}

/// (6) Piglet to 2.
fn piglet_two() -> Hand {
    // W(a, b, k): the mover's win probability about to flip. Heads with a + k + 1 = 2
    // wins; every game ends (two heads in a row end it), so W(b, a, 0) is the
    // opponent's and tails is worth 1 - W(b, a, 0).
    // W(1,1,0) = 1/2 + (1 - W(1,1,0))/2                            -> 2/3.
    // W(1,0,0) = 1/2 + (1 - W(0,1,0))/2
    // W(0,1,1) = 1/2 + (1 - W(1,0,0))/2
    // W(0,1,0) = (1 - W(1,0,0))/2 + max(W(0,1,1), 1 - W(1,1,0) = 1/3)/2
    //   with y = W(1,0,0): W(0,1,0) = 1 - 3y/4, y = 1 - W(0,1,0)/2 -> y = 4/5,
    //   W(0,1,0) = 2/5, W(0,1,1) = 3/5 (> 1/3: flip).
    // W(0,0,1) = 1/2 + (1 - W(0,0,0))/2
    // W(0,0,0) = (1 - W(0,0,0))/2 + max(W(0,0,1), 1 - W(0,1,0) = 3/5)/2
    //   flipping: w = 1 - 3w/4 -> w = 4/7, W(0,0,1) = 5/7 (> 3/5: flip).
    // The first player wins Piglet to 2 with probability 4/7.
    let (model, ids) = piglet(2);
    let table = [
        ((0, 0, 0), (4, 7)),
        ((0, 0, 1), (5, 7)),
        ((0, 1, 0), (2, 5)),
        ((0, 1, 1), (3, 5)),
        ((1, 0, 0), (4, 5)),
        ((1, 1, 0), (2, 3)),
    ];
    let values = piglet_values(&ids, &table);
    Hand {
        name: "piglet to 2",
        model,
        expect: HandExpect::Values(values),
    }
}

/// The table of Piglet to 3 (see `piglet_three`).
const PIGLET_THREE: [PigletEntry; 18] = [
    ((0, 0, 0), (6, 11)),
    ((0, 0, 1), (61, 99)),
    ((0, 0, 2), (8, 11)),
    ((0, 1, 0), (4, 11)),
    ((0, 1, 1), (5, 11)),
    ((0, 1, 2), (7, 11)),
    ((0, 2, 0), (2, 9)),
    ((0, 2, 1), (1, 3)),
    ((0, 2, 2), (5, 9)),
    ((1, 0, 0), (8, 11)),
    ((1, 0, 1), (9, 11)),
    ((1, 1, 0), (4, 7)),
    ((1, 1, 1), (5, 7)),
    ((1, 2, 0), (2, 5)),
    ((1, 2, 1), (3, 5)),
    ((2, 0, 0), (8, 9)),
    ((2, 1, 0), (4, 5)),
    ((2, 2, 0), (2, 3)),
];

/// (6) Piglet to 3.
fn piglet_three() -> Hand {
    // W(a, b, k) as in Piglet to 2. The optimal policy holds at (0,0,1) and (0,0,2)
    // (nothing banked on either side) and flips everywhere else; solved backwards:
    // W(2,2,0) = 1/2 + (1 - W(2,2,0))/2 = 2/3.
    // (2,1,0), (1,2,*): W(1,2,1) = 1/2 + (1 - W(2,1,0))/2,
    //   W(1,2,0) = (1 - W(2,1,0))/2 + W(1,2,1)/2 = 1 - 3 W(2,1,0)/4,
    //   W(2,1,0) = 1/2 + (1 - W(1,2,0))/2 -> W(2,1,0) = 4/5, W(1,2,0) = 2/5,
    //   W(1,2,1) = 3/5 (hold would give 1 - W(2,2,0) = 1/3).
    // (2,0,0), (0,2,*): with u = 1 - W(2,0,0): W(0,2,2) = 1/2 + u/2,
    //   W(0,2,1) = 1/4 + 3u/4, W(0,2,0) = 1/8 + 7u/8, W(2,0,0) = 1/2 + (1 - W(0,2,0))/2
    //   -> W(2,0,0) = 8/9, W(0,2,0) = 2/9, W(0,2,1) = 1/3, W(0,2,2) = 5/9
    //   (holding gives 1 - W(2,1,0) = 1/5 and 1 - W(2,2,0) = 1/3: worse).
    // (1,1,*): W(1,1,1) = 1 - W(1,1,0)/2, W(1,1,0) = 1 - 3 W(1,1,0)/4 -> 4/7, 5/7
    //   (hold at (1,1,1): 1 - W(1,2,0) = 3/5 < 5/7).
    // (1,0,*), (0,1,*): with q = W(0,1,0), v = 1 - W(1,0,0): W(1,0,1) = 1 - q/2,
    //   W(1,0,0) = 1 - 3q/4, W(0,1,2) = 1/2 + v/2, W(0,1,1) = 1/4 + 3v/4,
    //   q = 1/8 + 7v/8 -> v = 3/11: W(1,0,0) = 8/11, W(0,1,0) = 4/11, W(1,0,1) = 9/11,
    //   W(0,1,2) = 7/11, W(0,1,1) = 5/11 (holds: 7/9, 3/5, 3/7, all worse).
    // (0,0,*): holding at (0,0,1) gives 1 - W(0,1,0) = 7/11, at (0,0,2)
    //   1 - W(0,2,0) = 7/9. W(0,0,0) = (1 - W(0,0,0))/2 + (7/11)/2 -> 6/11;
    //   W(0,0,1) = (5/11)/2 + (7/9)/2 = 61/99 (< 7/11: hold);
    //   W(0,0,2) = (5/11)/2 + 1/2 = 8/11 (< 7/9: hold).
    // The first player wins Piglet to 3 with probability 6/11.
    let (model, ids) = piglet(3);
    let values = piglet_values(&ids, &PIGLET_THREE);
    Hand {
        name: "piglet to 3",
        model,
        expect: HandExpect::Values(values),
    }
}

/// Every hand-made model (Piglet to 3 has too many profiles for the brute force and is
/// checked on its own).
fn hand_cases() -> Vec<Hand> {
    vec![
        max_end_component(),
        min_end_component(),
        alternating_payoff(),
        alternating_total(),
        chance_loop_payoff(),
        chance_loop_total(),
        chance_loop_total_zero(),
        max_self_loop(),
        max_cycle(),
        max_returns_by_chance(),
        min_leaves_loop(),
        infinite_off_the_path(),
        min_leaves_zero_loop(),
        gamblers_ruin(),
        three_heads(),
        acyclic(),
        mixed_payoffs(),
        negative_cost(),
        mixed_payoffs_forever(),
        mixed_costs_forever(),
        unreachable_sign(),
        losses_only(),
        piglet_two(),
    ]
}

// ---------------------------------------------------------------------------------
// Random models.
// ---------------------------------------------------------------------------------

struct Case {
    label: String,
    model: Explicit,
    analysis: Analysis,
}

/// The random models and their brute-force analyses, built once for all the tests that
/// use them. Fixed seeds, so that every run sees the same models.
fn random_cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let plan: [(Family, Players, u64, usize); 16] = [
            (Family::Wins, Players::Both, 11, 900),
            (Family::Wins, Players::MaxOnly, 12, 120),
            (Family::Wins, Players::MinOnly, 13, 120),
            (Family::Losses, Players::Both, 21, 120),
            (Family::Losses, Players::MaxOnly, 22, 40),
            (Family::Losses, Players::MinOnly, 23, 40),
            (Family::Mixed, Players::Both, 31, 80),
            (Family::Costs, Players::Both, 41, 900),
            (Family::Costs, Players::MinOnly, 42, 300),
            (Family::Costs, Players::MaxOnly, 43, 80),
            (Family::NegativeCost, Players::Both, 51, 60),
            (Family::NegativeCost, Players::MinOnly, 52, 40),
            // Values of both signs where every game ends, and where it may not.
            (Family::Mixed, Players::MaxOnly, 32, 150),
            (Family::Mixed, Players::MinOnly, 33, 150),
            (Family::NegativeCost, Players::MaxOnly, 53, 150),
            (Family::NegativeCost, Players::Both, 54, 150),
        ];
        let mut cases = Vec::new();
        for (family, players, seed, count) in plan {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for i in 0..count {
                let model = random_model(&mut rng, family, players);
                let analysis = analyse(&model, MAX_PROFILES);
                let label = format!("{family:?}/{players:?} seed {seed} model {i}: {model:?}");
                cases.push(Case {
                    label,
                    model,
                    analysis,
                });
            }
        }
        cases
    })
}

/// How the random models fall into the categories the tests need.
#[derive(Debug, Default)]
struct Census {
    models: usize,
    /// Too many profiles to enumerate.
    skipped: usize,
    payoff_values: usize,
    /// Values wanted (either class) with at least 5 reachable states.
    large_values: usize,
    /// Both players present and a choice on a cycle.
    payoff_games_choice_cycle: usize,
    /// One player only and a choice on a cycle.
    payoff_mdps_choice_cycle: usize,
    /// Payoffs at most 0, some negative.
    payoff_losses: usize,
    total_values: usize,
    total_choice_cycle: usize,
    total_games: usize,
    signs: usize,
    /// Values wanted where payoffs or rewards have both signs.
    mixed_values: usize,
    infinite_start: usize,
    infinite_elsewhere: usize,
    zero_cycle: usize,
    /// A maximising or minimising choice with an edge to itself.
    choice_self_loops: usize,
}

/// Whether the reachable payoffs (or rewards) of a model have both signs.
fn mixed(model: &Explicit, a: &Analysis) -> bool {
    let counted = |s: u16| {
        let node = &model.nodes[s as usize];
        (a.class == Class::Total || node.role == Role::Terminal).then_some(node.reward)
    };
    let rewards: Vec<i64> = a.reachable.iter().filter_map(|&s| counted(s)).collect();
    rewards.iter().any(|&r| r > 0) && rewards.iter().any(|&r| r < 0)
}

impl Census {
    fn record(&mut self, case: &Case, expect: Option<Expect>) {
        let a = &case.analysis;
        self.models += 1;
        let self_loop = case.model.nodes.iter().enumerate().any(|(i, n)| {
            a.reachable.contains(&(i as u16))
                && matches!(n.role, Role::Max | Role::Min)
                && n.edges.iter().any(|&(t, _)| t as usize == i)
        });
        self.choice_self_loops += usize::from(self_loop);
        if expect == Some(Expect::Values) && a.reachable.len() >= 5 {
            self.large_values += 1;
        }
        match expect {
            None => self.skipped += 1,
            Some(Expect::Signs) => self.signs += 1,
            Some(Expect::Infinite { start: true }) => self.infinite_start += 1,
            Some(Expect::Infinite { start: false }) => self.infinite_elsewhere += 1,
            Some(Expect::ZeroCycle) => self.zero_cycle += 1,
            Some(Expect::Values) if mixed(&case.model, a) => {
                self.mixed_values += 1;
                match a.class {
                    Class::Payoff => self.payoff_values += 1,
                    Class::Total => self.total_values += 1,
                }
            }
            Some(Expect::Values) => match a.class {
                Class::Payoff => {
                    self.payoff_values += 1;
                    if a.choice_on_cycle && a.has_max && a.has_min {
                        self.payoff_games_choice_cycle += 1;
                    } else if a.choice_on_cycle {
                        self.payoff_mdps_choice_cycle += 1;
                    }
                    let negative = a
                        .values
                        .iter()
                        .flatten()
                        .any(|(_, v)| matches!(v, Val::Fin(q) if q.is_negative()));
                    self.payoff_losses += usize::from(negative);
                }
                Class::Total => {
                    self.total_values += 1;
                    self.total_choice_cycle += usize::from(a.choice_on_cycle);
                    self.total_games += usize::from(a.has_max && a.has_min);
                }
            },
        }
    }

    /// The floors that keep the random tests from passing vacuously.
    fn assert_enough(&self) {
        let floors = [
            ("models", self.models, 1500),
            ("payoff values", self.payoff_values, 500),
            ("values with 5 or more states", self.large_values, 400),
            (
                "payoff games with a choice on a cycle",
                self.payoff_games_choice_cycle,
                200,
            ),
            (
                "payoff MDPs with a choice on a cycle",
                self.payoff_mdps_choice_cycle,
                80,
            ),
            ("payoff losses", self.payoff_losses, 50),
            ("total-reward values", self.total_values, 100),
            (
                "total-reward values with a choice on a cycle",
                self.total_choice_cycle,
                50,
            ),
            ("total-reward games", self.total_games, 30),
            ("sign errors", self.signs, 30),
            ("values of both signs", self.mixed_values, 80),
            ("infinite at the start", self.infinite_start, 100),
            ("infinite elsewhere only", self.infinite_elsewhere, 20),
            ("zero-reward cycles", self.zero_cycle, 30),
            ("choice self-loops", self.choice_self_loops, 200),
        ];
        for (what, got, floor) in floors {
            assert!(
                got >= floor,
                "only {got} random models of kind '{what}' (want {floor}): {self:?}"
            );
        }
        assert!(
            self.skipped * 20 <= self.models,
            "too many skipped: {self:?}"
        );
    }
}

// ---------------------------------------------------------------------------------
// Self-checks of the brute force and the hand values (no call to the new solver).
// ---------------------------------------------------------------------------------

#[test]
fn brute_force_reproduces_hand_values() {
    for hand in hand_cases() {
        let want = hand.want();
        let a = analyse(&hand.model, MAX_PROFILES);
        let values = a.values.clone().unwrap_or_default();
        match &hand.expect {
            HandExpect::Signs => assert_eq!(a.expect(), Some(Expect::Signs), "{}", hand.name),
            HandExpect::Infinite(states) => {
                assert_eq!(a.expect(), Some(want.expect), "{}", hand.name);
                assert_eq!(&a.infinite_states(), states, "{}", hand.name);
            }
            HandExpect::Values(_) | HandExpect::ZeroCycle(_) => {
                assert_eq!(a.expect(), Some(want.expect), "{}", hand.name);
                for (s, v) in &want.values {
                    assert_eq!(values[s], Val::Fin(v.clone()), "{}: state {s}", hand.name);
                }
            }
        }
    }
}

#[test]
fn brute_force_piglet_three_table_satisfies_the_optimality_equations() {
    // Too many profiles to enumerate (2^18), but every game of Piglet ends with
    // probability one whatever the players do, so the optimality equations have one
    // solution: checking that the hand table satisfies them proves it.
    let hand = piglet_three();
    let HandExpect::Values(values) = &hand.expect else {
        unreachable!()
    };
    let values: BTreeMap<u16, BigRational> = values.iter().cloned().collect();
    assert_eq!(values.len(), hand.model.nodes.len());
    for (i, node) in hand.model.nodes.iter().enumerate() {
        let succ = || node.edges.iter().map(|&(t, _)| values[&t].clone());
        let right = match node.role {
            Role::Terminal => int(node.reward),
            Role::Chance | Role::Uniform => {
                let total: u64 = node.edges.iter().map(|&(_, w)| w).sum();
                node.edges
                    .iter()
                    .map(|&(t, w)| &values[&t] * ratio(w as i64, total as i64))
                    .sum()
            }
            Role::Max => succ().max().unwrap(),
            Role::Min => succ().min().unwrap(),
        };
        assert_eq!(values[&(i as u16)], right, "piglet to 3, state {i}");
    }
    assert_eq!(values[&0], ratio(6, 11));
}

#[test]
fn brute_force_piglet_two_is_four_sevenths() {
    let hand = piglet_two();
    let a = analyse(&hand.model, MAX_PROFILES);
    assert_eq!(a.profiles, 16);
    assert_eq!(a.values.unwrap()[&0], Val::Fin(ratio(4, 7)));
}

#[test]
fn brute_force_agrees_with_the_engine_and_covers_every_category() {
    let mut census = Census::default();
    let mut cross_checked = 0;
    for case in random_cases() {
        census.record(case, case.analysis.expect());
        let a = &case.analysis;
        // Where no choice is on a cycle and every game ends, the engine's exact values
        // equal the brute force's: a check of the chains and of the max-min.
        let Some(values) = &a.values else { continue };
        if a.choice_on_cycle || !a.always_terminates {
            continue;
        }
        let solution = solve_game::<_, Exact>(&case.model, &Settings::default())
            .unwrap_or_else(|e| panic!("{}: solve_game: {e}", case.label));
        for (s, v) in values {
            assert_eq!(
                Val::Fin(solution.get(&Id(*s)).unwrap().clone()),
                *v,
                "{}: state {s}",
                case.label
            );
        }
        cross_checked += 1;
    }
    eprintln!("census of the random models: {census:?}; cross-checked {cross_checked}");
    census.assert_enough();
    assert!(cross_checked >= 100, "only {cross_checked} cross-checked");
}

// ---------------------------------------------------------------------------------
// The solver against the hand-made models.
// ---------------------------------------------------------------------------------

#[test]
fn max_end_component_takes_the_best_exit() {
    assert_eq!(max_end_component().check(), Outcome::Compared);
}

#[test]
fn min_end_component_is_worth_zero() {
    assert_eq!(min_end_component().check(), Outcome::Compared);
}

#[test]
fn alternating_end_components() {
    assert_eq!(alternating_payoff().check(), Outcome::Compared);
    assert_eq!(alternating_total().check(), Outcome::Compared);
}

#[test]
fn chance_self_loop_is_worth_zero_or_infinite() {
    assert_eq!(chance_loop_payoff().check(), Outcome::Compared);
    assert_eq!(chance_loop_total().check(), Outcome::Refused);
    assert_eq!(chance_loop_total_zero().check(), Outcome::Refused);
}

#[test]
fn max_keeping_a_costly_game_going_is_infinite() {
    assert_eq!(max_self_loop().check(), Outcome::Refused);
    // Only state 0 is infinite: the error must name it.
    let err = solve_exact(&max_self_loop().model, &Settings::default()).unwrap_err();
    assert!(
        matches!(&err, Error::InfiniteReward(s, _) if s.contains("Id(0)")),
        "{err}"
    );
    assert_eq!(max_cycle().check(), Outcome::Refused);
    assert_eq!(max_returns_by_chance().check(), Outcome::Compared);
}

#[test]
fn min_leaves_a_costly_loop() {
    assert_eq!(min_leaves_loop().check(), Outcome::Compared);
    assert_eq!(min_leaves_zero_loop().check(), Outcome::Compared);
}

#[test]
fn an_infinite_state_off_the_optimal_path_is_refused() {
    assert_eq!(infinite_off_the_path().check(), Outcome::Refused);
    for result in [
        solve_exact(&infinite_off_the_path().model, &Settings::default()).map(|_| ()),
        solve_certified(&infinite_off_the_path().model, &Settings::default()).map(|_| ()),
    ] {
        let err = result.unwrap_err();
        assert!(
            matches!(&err, Error::InfiniteReward(s, _) if s.contains("Id(1)")),
            "{err}"
        );
    }
}

#[test]
fn piglet_to_two_and_three() {
    assert_eq!(piglet_two().check(), Outcome::Compared);
    assert_eq!(piglet_three().check(), Outcome::Compared);
    let solution = solve_exact(&piglet(3).0, &Settings::default()).unwrap();
    assert_eq!(solution.start_value(), &ratio(6, 11));
}

#[test]
fn payoff_models_with_losses() {
    assert_eq!(losses_only().check(), Outcome::Compared);
}

#[test]
fn sign_rules() {
    assert_eq!(mixed_payoffs().check(), Outcome::Compared);
    assert_eq!(negative_cost().check(), Outcome::Compared);
    assert_eq!(mixed_payoffs_forever().check(), Outcome::Refused);
    assert_eq!(mixed_costs_forever().check(), Outcome::Refused);
    assert_eq!(unreachable_sign().check(), Outcome::Compared);
}

#[test]
fn chance_cycles_agree_with_the_cyclic_solver() {
    for hand in [gamblers_ruin(), three_heads()] {
        assert_eq!(hand.check(), Outcome::Compared, "{}", hand.name);
        let cyclic = solve_game::<_, Exact>(&hand.model, &Settings::default()).unwrap();
        let exact = solve_exact(&hand.model, &Settings::default()).unwrap();
        assert_eq!(cyclic.len(), exact.len(), "{}", hand.name);
        for s in cyclic.states() {
            assert_eq!(cyclic.get(s), exact.get(s), "{}: {s:?}", hand.name);
        }
    }
}

#[test]
fn acyclic_model_agrees_with_the_acyclic_solver() {
    let hand = acyclic();
    assert_eq!(hand.check(), Outcome::Compared);
    let plain = solve::<_, Exact>(&hand.model, &Limits::default()).unwrap();
    let exact = solve_exact(&hand.model, &Settings::default()).unwrap();
    assert_eq!(plain.len(), exact.len());
    for s in plain.states() {
        assert_eq!(plain.get(s), exact.get(s), "{s:?}");
    }
    let plain_f64 = solve::<_, f64>(&hand.model, &Limits::default()).unwrap();
    let certified = solve_certified(&hand.model, &Settings::default()).unwrap();
    for s in plain_f64.states() {
        let (a, b) = (
            plain_f64.get(s).unwrap(),
            certified.solution.get(s).unwrap(),
        );
        assert!((a - b).abs() <= 1e-12 * a.abs().max(1.0), "{s:?}: {a} {b}");
    }
}

#[test]
fn errors_name_a_state() {
    let display_names = |model: &Explicit, states: &[u16]| {
        for err in [
            solve_exact(model, &Settings::default()).map(|_| ()),
            solve_certified(model, &Settings::default()).map(|_| ()),
        ]
        .into_iter()
        .map(|r| r.expect_err("an error"))
        {
            let text = err.to_string();
            assert!(
                names_one_of(&text, states),
                "the message should name one of {states:?}: {text}"
            );
        }
    };
    display_names(&max_self_loop().model, &[0]);
    display_names(&max_cycle().model, &[0, 1, 2]);
    display_names(&infinite_off_the_path().model, &[1]);
    display_names(&mixed_payoffs_forever().model, &[2, 3]);
    display_names(&mixed_costs_forever().model, &[1]);
    // A chance node without successors is an error in the model.
    let empty = Explicit::new(vec![max(0, &[1, 2]), chance(0, &[]), terminal(1)]);
    for result in [
        solve_exact(&empty, &Settings::default()).map(|_| ()),
        solve_certified(&empty, &Settings::default()).map(|_| ()),
    ] {
        let err = result.unwrap_err();
        assert!(matches!(err, Error::NoSuccessors { .. }), "{err:?}");
        assert!(err.to_string().contains("Id(1)"), "{err}");
    }
}

#[test]
fn state_limit_is_respected() {
    // Gambler's ruin has 8 reachable states: a limit of 8 is enough, 7 is not.
    let model = gamblers_ruin().model;
    let limited = |max_states| Settings {
        limits: Limits { max_states },
        ..Settings::default()
    };
    assert!(solve_exact(&model, &limited(8)).is_ok());
    assert!(solve_certified(&model, &limited(8)).is_ok());
    assert_eq!(
        solve_exact(&model, &limited(7)).unwrap_err(),
        Error::TooManyStates { limit: 7 }
    );
    assert_eq!(
        solve_certified(&model, &limited(7)).unwrap_err(),
        Error::TooManyStates { limit: 7 }
    );
}

#[test]
fn symmetric_states_share_one_value() {
    // 0: chance 1:1 -> 1 or 2; 1 and 2: min -> 3 (1) or 4, mirror images (2 is stored
    // as 1); 4: chance 1:1:1 -> 3, 5 (0), 2 (a cycle through the choice).
    // x1 = min(1, x4), x4 = (1 + 0 + x1)/3: Min goes to 4, x1 = x4 = 1/2; 0 = 1/2.
    let mut model = Explicit::new(vec![
        chance(0, &[(1, 1), (2, 1)]),
        min(0, &[3, 4]),
        min(0, &[3, 4]),
        terminal(1),
        chance(0, &[(3, 1), (5, 1), (2, 1)]),
        terminal(0),
    ]);
    model.canonical = vec![0, 1, 1, 3, 4, 5];
    // Only canonical states are stored: 2 is not.
    let values: BTreeMap<u16, BigRational> = [
        (0, ratio(1, 2)),
        (1, ratio(1, 2)),
        (3, int(1)),
        (4, ratio(1, 2)),
        (5, int(0)),
    ]
    .into_iter()
    .collect();
    let want = Want {
        start: 0,
        reachable: values.keys().copied().collect(),
        expect: Expect::Values,
        values,
        infinite: Vec::new(),
        culprits: Vec::new(),
    };
    assert_eq!(check(&model, &want, "symmetric states"), Outcome::Compared);
}

// ---------------------------------------------------------------------------------
// The solver against the brute force on random models.
// ---------------------------------------------------------------------------------

#[test]
fn random_models_are_solved_right() {
    let mut census = Census::default();
    // Every model is checked even after a failure (a panic in the check or in the
    // solver), so that a failing run says how many models fail and of which kinds.
    let mut failures: Vec<(Option<Expect>, String)> = Vec::new();
    for case in random_cases() {
        let expect = case.analysis.expect();
        census.record(case, expect);
        let Some(want) = Want::from_analysis(&case.model, &case.analysis) else {
            continue;
        };
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check(&case.model, &want, &case.label)
        }));
        match checked {
            Ok(_) => {}
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                // The checks' own messages start with the label; the solver's do not.
                if message.starts_with(&case.label) {
                    failures.push((expect, message));
                } else {
                    failures.push((expect, format!("{}: {message}", case.label)));
                }
            }
        }
    }
    eprintln!("random models compared: {census:?}");
    if !failures.is_empty() {
        let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
        for (expect, _) in &failures {
            *by_kind.entry(format!("{expect:?}")).or_default() += 1;
        }
        let first: Vec<&str> = failures.iter().take(5).map(|(_, m)| m.as_str()).collect();
        panic!(
            "{} of {} random models failed, by expected outcome {by_kind:?}; the first:\n{}",
            failures.len(),
            census.models,
            first.join("\n")
        );
    }
    // Every model expected to have values was compared value by value (a refusal
    // would have failed), so the census floors count comparisons.
    census.assert_enough();
}
