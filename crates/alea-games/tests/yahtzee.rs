//! The judge's Yahtzee checked against independent sources: an exhaustive search over
//! every assignment (factored by which rounds go to the upper section), the classic
//! table over (categories used, upper total), and the validity of every printed line.

use alea_games::yahtzee::{
    best_assignment, best_total_by_table, bonus_for, score, Game, Round, ROUNDS, UPPER,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every permutation of `items`, by Heap's algorithm.
fn permutations(items: &mut Vec<usize>, k: usize, visit: &mut impl FnMut(&[usize])) {
    if k <= 1 {
        visit(items);
        return;
    }
    for i in 0..k {
        permutations(items, k - 1, visit);
        let j = if k.is_multiple_of(2) { i } else { 0 };
        items.swap(j, k - 1);
    }
}

/// The best total over all 13! assignments. For a fixed set of six upper rounds the two
/// sections do not interact and the bonus only rewards a larger upper sum, so trying
/// every permutation within each section, for every set, covers every assignment.
fn exhaustive(game: &Game, strict: bool) -> u32 {
    let mut best = 0;
    for set in 0usize..1 << ROUNDS {
        if set.count_ones() as usize != UPPER {
            continue;
        }
        let mut up: Vec<usize> = (0..ROUNDS).filter(|r| set & (1 << r) != 0).collect();
        let mut down: Vec<usize> = (0..ROUNDS).filter(|r| set & (1 << r) == 0).collect();
        let mut upper = 0;
        permutations(&mut up, UPPER, &mut |p| {
            let s: u32 = p
                .iter()
                .enumerate()
                .map(|(c, &r)| score(c, &game[r], strict))
                .sum();
            upper = upper.max(s);
        });
        let mut lower = 0;
        permutations(&mut down, ROUNDS - UPPER, &mut |p| {
            let s: u32 = p
                .iter()
                .enumerate()
                .map(|(c, &r)| score(UPPER + c, &game[r], strict))
                .sum();
            lower = lower.max(s);
        });
        best = best.max(upper + bonus_for(upper) + lower);
    }
    best
}

/// Random games; with `lucky`, rounds lean to one face so that bonuses, kinds and full
/// houses come up often.
fn random_game(rng: &mut ChaCha8Rng, lucky: bool) -> Game {
    std::array::from_fn(|_| {
        let mut round: Round = std::array::from_fn(|_| rng.gen_range(1..=6));
        if lucky {
            let face = rng.gen_range(1..=6);
            let n = rng.gen_range(2..=5);
            round[..n].fill(face);
            round.shuffle(rng);
        }
        round
    })
}

/// The assignment is one-to-one, its scores are the rounds' scores, and the bonus and
/// total add up.
fn assert_valid(game: &Game, strict: bool) -> u32 {
    let a = best_assignment(game, strict);
    let mut used = a.rounds;
    used.sort_unstable();
    assert_eq!(used, std::array::from_fn(|i| i), "one round per category");
    for c in 0..ROUNDS {
        assert_eq!(a.scores[c], score(c, &game[a.rounds[c]], strict));
    }
    let upper: u32 = a.scores[..UPPER].iter().sum();
    assert_eq!(a.bonus, if upper >= 63 { 35 } else { 0 });
    assert_eq!(a.total, a.scores.iter().sum::<u32>() + a.bonus);
    a.total
}

#[test]
fn exhaustive_search_agrees() {
    let mut rng = ChaCha8Rng::seed_from_u64(10149);
    for case in 0..6 {
        let game = random_game(&mut rng, case % 2 == 0);
        let strict = case % 3 == 0;
        assert_eq!(
            assert_valid(&game, strict),
            exhaustive(&game, strict),
            "{game:?}"
        );
    }
}

#[test]
fn the_classic_table_agrees() {
    let mut rng = ChaCha8Rng::seed_from_u64(63);
    let mut bonuses = 0;
    for case in 0..60 {
        let game = random_game(&mut rng, case % 2 == 0);
        for strict in [false, true] {
            let total = assert_valid(&game, strict);
            assert_eq!(total, best_total_by_table(&game, strict), "{game:?}");
        }
        bonuses += usize::from(best_assignment(&game, false).bonus > 0);
    }
    // Both sides of the bonus must be exercised for the check to mean anything.
    assert!(bonuses > 6 && bonuses < 54, "{bonuses}");
}

#[test]
fn strict_full_house_only_matters_with_five_of_a_kind() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..200 {
        let game = random_game(&mut rng, true);
        let yahtzee = game.iter().any(|r| r.iter().all(|&d| d == r[0]));
        let (loose, strict) = (best_assignment(&game, false), best_assignment(&game, true));
        assert!(strict.total <= loose.total);
        if !yahtzee {
            assert_eq!(strict.total, loose.total);
        }
    }
}
