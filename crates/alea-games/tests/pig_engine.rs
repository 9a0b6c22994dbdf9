//! Pig's dedicated kernel against the engine's solver of cycles through choices, on the
//! same game written as an engine model: exact values equal, fraction for fraction, at
//! every position; `f64` values within both certified bounds; the options of every
//! decision equal; the fixed "hold at h" opponent both ways; and the engine's own
//! simulation of best play within its interval of the value.

use alea_core::{
    options, simulate, solve_certified, solve_exact, Exact, Goal, Player, Settings, Value,
};
use alea_games::pig::{against, certify, exact_words, solve, Die, Pig, Rules};

fn exact_games() -> Vec<Rules> {
    vec![
        Rules::new(10, Die::Faces(6)).unwrap(),
        Rules::new(20, Die::Faces(6)).unwrap(),
        Rules::piglet(3).unwrap(),
        Rules::piglet(6).unwrap(),
        Rules::piglet(10).unwrap(),
    ]
}

/// The first player's chance from `P(i, j, k)` of the kernel (the mover's view): the
/// same when the first player moves, its complement otherwise.
fn first_view(player: u64, mover_value: &Exact) -> Exact {
    if player == 0 {
        mover_value.clone()
    } else {
        <Exact as Value>::one() - mover_value
    }
}

#[test]
fn exact_values_equal_the_kernel_everywhere() {
    for rules in exact_games() {
        let g = rules.goal() as u64;
        let kernel = solve::<Exact>(&rules);
        let model = Pig::new(&rules);
        let engine = solve_exact(&model, &Settings::default()).unwrap();
        assert_eq!(
            engine.start_value(),
            kernel.first_player_wins(),
            "{rules:?}"
        );
        for player in 0..2u64 {
            for mine in 0..g {
                for theirs in 0..g {
                    let (first, second) = if player == 0 {
                        (mine, theirs)
                    } else {
                        (theirs, mine)
                    };
                    let turn = kernel.turn_values(mine as usize, theirs as usize);
                    for k in 0..g - mine {
                        let state = if k == 0 {
                            Pig::throw(player, first, second, 0)
                        } else {
                            Pig::decide(player, first, second, k)
                        };
                        // Only positions reachable from the start are solved.
                        let Some(v) = engine.get(&state) else {
                            continue;
                        };
                        assert_eq!(
                            *v,
                            first_view(player, &turn[k as usize]),
                            "{rules:?} {state:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn options_equal_the_kernel_hints() {
    for rules in exact_games() {
        let g = rules.goal() as u64;
        let kernel = solve::<Exact>(&rules);
        let model = Pig::new(&rules);
        let engine = solve_exact(&model, &Settings::default()).unwrap();
        let mut seen = 0;
        for mine in 0..g {
            for theirs in 0..g {
                for k in 1..g - mine {
                    let state = Pig::decide(0, mine, theirs, k);
                    if engine.get(&state).is_none() {
                        continue;
                    }
                    seen += 1;
                    let hint = kernel
                        .options(mine as usize, theirs as usize, k as usize)
                        .unwrap();
                    let ranked = options(&model, &engine, state, Goal::Max).unwrap();
                    assert_eq!(ranked.len(), 2);
                    // The model lists hold first, then throw again.
                    let value = |edge: usize| {
                        ranked
                            .iter()
                            .find(|o| o.edge == edge)
                            .map(|o| o.value.clone())
                            .unwrap()
                    };
                    assert_eq!(value(0), hint.hold, "{rules:?} {state:?}");
                    assert_eq!(value(1), hint.roll, "{rules:?} {state:?}");
                    assert_eq!(ranked[0].edge == 0, hint.holds(), "{rules:?} {state:?}");
                    assert_eq!(ranked[1].loss, hint.loss());
                }
            }
        }
        assert!(seen > 0);
    }
}

#[test]
fn f64_values_agree_within_both_certified_bounds() {
    for rules in [
        Rules::new(50, Die::Faces(6)).unwrap(),
        Rules::piglet(30).unwrap(),
    ] {
        let g = rules.goal() as u64;
        let kernel = solve::<f64>(&rules);
        let cert = certify(&kernel);
        let model = Pig::new(&rules);
        let engine = solve_certified(&model, &Settings::default()).unwrap();
        assert!(engine.error_bound <= 1e-12, "{}", engine.error_bound);
        let start = engine.solution.start_value();
        assert!(
            (start - kernel.first_player_wins()).abs() <= engine.error_bound + cert.error_bound
        );
        for mine in 0..g {
            for theirs in 0..g {
                for player in 0..2u64 {
                    let (first, second) = if player == 0 {
                        (mine, theirs)
                    } else {
                        (theirs, mine)
                    };
                    let Some(v) = engine.solution.get(&Pig::throw(player, first, second, 0)) else {
                        continue;
                    };
                    let (lo, hi) = cert.interval(mine as usize, theirs as usize);
                    let (lo, hi) = if player == 0 {
                        (lo, hi)
                    } else {
                        (1.0 - hi, 1.0 - lo)
                    };
                    let slack = engine.error_bound + 1e-15;
                    assert!(
                        lo - slack <= *v && *v <= hi + slack,
                        "{rules:?} ({player}, {mine}, {theirs}): {v} not in [{lo}, {hi}]"
                    );
                }
            }
        }
    }
}

#[test]
fn a_fixed_opponent_gives_the_kernels_chances() {
    for rules in [
        Rules::piglet(6).unwrap(),
        Rules::new(15, Die::Faces(6)).unwrap(),
    ] {
        for h in [1, 3, 20] {
            let kernel = against::<Exact>(&rules, h, &exact_words, u64::MAX).unwrap();
            // The second seat holds at h: the best player moves first.
            let first = solve_exact(&Pig::with_fixed(&rules, 1, h), &Settings::default()).unwrap();
            assert_eq!(first.start_value(), kernel.moving_first(), "{rules:?} {h}");
            // The first seat holds at h: the engine's value is the fixed player's chance.
            let second = solve_exact(&Pig::with_fixed(&rules, 0, h), &Settings::default()).unwrap();
            assert_eq!(
                <Exact as Value>::one() - second.start_value(),
                *kernel.moving_second(),
                "{rules:?} {h}"
            );
        }
    }
}

#[test]
fn the_engines_simulation_of_best_play_brackets_the_value() {
    let rules = Rules::new(30, Die::Faces(6)).unwrap();
    let model = Pig::new(&rules);
    let engine = solve_certified(&model, &Settings::default()).unwrap();
    let value = *solve::<f64>(&rules).first_player_wins();
    let estimate = simulate(
        &model,
        &Player::Best(&engine.solution),
        100_000,
        3,
        1_000_000,
    )
    .unwrap();
    assert!(estimate.contains(value), "{estimate:?} vs {value}");
}
