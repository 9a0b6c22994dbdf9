//! Colored Jenga checked against independent sources: a brute force on the physical
//! tower with no canonical forms, exact against floating point, the kernel against the
//! engine, the advice against the expectation, and simulated best play.

use std::collections::HashMap;

use alea_core::{fraction, simulate, Exact, Player, Value};
use alea_games::jenga::{advise, solve_tower, Kernel, Tower, FACES, WEIGHTS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A physical tower: every level kept, in order, slot by slot; the last is the top.
type Physical = Vec<[Option<u8>; 3]>;

/// The rules read straight from the statement, on the physical tower, memoised on its
/// exact layout (no mirror images, no interchangeable levels, no dropped levels).
fn brute_force<V: Value>(tower: &mut Physical, memo: &mut HashMap<Physical, V>) -> V {
    if let Some(v) = memo.get(tower) {
        return v.clone();
    }
    let mut sum = V::zero();
    let mut moving = 0;
    let top = tower.len() - 1;
    for colour in 0..3u8 {
        let mut best: Option<V> = None;
        for level in 0..top {
            for slot in 0..3 {
                if tower[level][slot] != Some(colour) {
                    continue;
                }
                tower[level][slot] = None;
                let l = tower[level];
                let stands = l.iter().any(Option::is_some)
                    && (l[1].is_some() || (l[0].is_some() && l[2].is_some()));
                if stands {
                    // Put the block on top: an empty slot of an incomplete top, or any
                    // slot of a new level.
                    let full = tower[top].iter().all(Option::is_some);
                    for place in 0..3 {
                        let v = if full {
                            let mut new = [None; 3];
                            new[place] = Some(colour);
                            tower.push(new);
                            let v = brute_force(tower, memo);
                            tower.pop();
                            v
                        } else if tower[top][place].is_none() {
                            tower[top][place] = Some(colour);
                            let v = brute_force(tower, memo);
                            tower[top][place] = None;
                            v
                        } else {
                            continue;
                        };
                        if best
                            .as_ref()
                            .is_none_or(|b| v.compare(b) == Some(std::cmp::Ordering::Less))
                        {
                            best = Some(v);
                        }
                    }
                }
                tower[level][slot] = Some(colour);
            }
        }
        if let Some(b) = best {
            let w = WEIGHTS[usize::from(colour)];
            sum = sum.add(&b.mul(&V::from_int(w as i64)));
            moving += w;
        }
    }
    let v = if moving == 0 {
        V::zero()
    } else {
        sum.add(&V::from_int(FACES as i64))
            .div(&V::from_int(moving as i64))
    };
    memo.insert(tower.clone(), v.clone());
    v
}

fn physical(tower: &Tower) -> Physical {
    tower
        .levels
        .iter()
        .map(|l| [Some(l[0]), Some(l[1]), Some(l[2])])
        .collect()
}

fn random_tower(rng: &mut ChaCha8Rng, levels: usize) -> Tower {
    Tower {
        levels: (0..levels)
            .map(|_| {
                [
                    rng.gen_range(0..3),
                    rng.gen_range(0..3),
                    rng.gen_range(0..3),
                ]
            })
            .collect(),
    }
}

#[test]
fn brute_force_agrees_on_small_towers() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    for case in 0..60 {
        let tower = random_tower(&mut rng, 2 + case % 2);
        let want = brute_force::<f64>(&mut physical(&tower), &mut HashMap::new());
        let (fast, _) = Kernel::new(usize::MAX).expected(&tower).unwrap();
        assert!((fast - want).abs() < 1e-12, "{tower}: {fast} vs {want}");
        if case % 4 == 0 {
            let exact = brute_force::<Exact>(&mut physical(&tower), &mut HashMap::new());
            let solved = solve_tower::<Exact>(&tower, usize::MAX).unwrap();
            assert_eq!(fraction(solved.expected()), fraction(&exact), "{tower}");
        }
    }
}

#[test]
fn brute_force_agrees_on_four_levels() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..3 {
        let tower = random_tower(&mut rng, 4);
        let want = brute_force::<f64>(&mut physical(&tower), &mut HashMap::new());
        let (fast, _) = Kernel::new(usize::MAX).expected(&tower).unwrap();
        assert!((fast - want).abs() < 1e-12, "{tower}: {fast} vs {want}");
    }
}

#[test]
fn kernel_equals_the_engine_and_exact_agrees() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for case in 0..12 {
        let tower = random_tower(&mut rng, 2 + case % 4);
        let (fast, positions) = Kernel::new(usize::MAX).expected(&tower).unwrap();
        let engine = solve_tower::<f64>(&tower, usize::MAX).unwrap();
        assert_eq!(fast.to_bits(), engine.expected().to_bits(), "{tower}");
        assert_eq!(positions, engine.positions(), "{tower}");
        let exact = solve_tower::<Exact>(&tower, usize::MAX).unwrap();
        assert!((exact.expected().to_f64() - fast).abs() < 1e-12 * fast);
    }
}

#[test]
fn the_best_moves_reproduce_the_expectation() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for case in 0..12 {
        let tower = random_tower(&mut rng, 2 + case % 4);
        let solved = solve_tower::<Exact>(&tower, usize::MAX).unwrap();
        let advice = advise(&tower, &solved);
        // E = (6 + sum over colours with a move of w_c * best) / (sum of those w_c).
        let mut sum = Exact::from_int(FACES as i64);
        let mut moving = 0;
        for (c, moves) in advice.iter().enumerate() {
            assert!(moves.windows(2).all(|w| w[0].expected <= w[1].expected));
            if let Some(best) = moves.first() {
                sum = sum.add(&best.expected.mul(&Exact::from_int(WEIGHTS[c] as i64)));
                moving += WEIGHTS[c];
            }
        }
        let e = sum.div(&Exact::from_int(moving as i64));
        assert_eq!(&e, solved.expected(), "{tower}");
    }
}

#[test]
fn simulated_best_play_agrees() {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let (mut towers, mut covered) = (0, 0);
    for seed in 0..60 {
        let tower = random_tower(&mut rng, 3);
        let solved = solve_tower::<f64>(&tower, usize::MAX).unwrap();
        let e = *solved.expected();
        let estimate = simulate(
            &solved.model,
            &Player::Best(&solved.solution),
            3000,
            seed,
            100_000,
        )
        .unwrap();
        towers += 1;
        if estimate.contains(e) {
            covered += 1;
        }
        assert!((estimate.mean - e).abs() < 0.1 * e, "{tower}");
    }
    // 95% intervals: 3 misses in 60 expected; more than 9 would be over 2.5 standard
    // deviations out.
    assert!(
        covered >= towers - 9,
        "only {covered} of {towers} intervals contain the exact value"
    );
}

#[test]
fn the_state_guard_stops_tall_towers() {
    let tower = random_tower(&mut ChaCha8Rng::seed_from_u64(1), 6);
    assert!(Kernel::new(1000).expected(&tower).is_err());
    assert!(solve_tower::<f64>(&tower, 1000).is_err());
}
