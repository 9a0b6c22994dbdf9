//! Snakes and Ladders checked against independent sources: the published value of the
//! classic board, a dense linear solve in exact rationals with its own reading of the
//! rules, floating point against exact, seeded simulation, and the distribution of the
//! game's length against the expectation.

use alea_core::{decimal, fraction, simulate, Exact, Limits, Player, Value};
use alea_games::snakes::{
    exact_work, expected_spins, finished_within, parse_board, Board, GameError, Link, Overshoot,
    Piece, Rules, SnakesModel, SolveError,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const RULES: [Overshoot; 3] = [Overshoot::Stay, Overshoot::Bounce, Overshoot::Finish];

fn rules(spinner: u32, overshoot: Overshoot) -> Rules {
    Rules { spinner, overshoot }
}

fn exact(board: &Board, rules: &Rules) -> Result<Exact, SolveError> {
    expected_spins::<Exact>(board, rules, &Limits::default())
}

fn float(board: &Board, rules: &Rules) -> Result<f64, SolveError> {
    expected_spins::<f64>(board, rules, &Limits::default())
}

/// The game written again from the rules, apart from the library: the squares and a
/// list of (from, to) jumps, and where a spin of `face` from `square` ends.
struct Plain {
    n: usize,
    jumps: Vec<(usize, usize)>,
    spinner: usize,
    overshoot: Overshoot,
}

impl Plain {
    fn of(board: &Board, rules: &Rules) -> Plain {
        Plain {
            n: board.squares() as usize,
            jumps: board
                .links()
                .iter()
                .map(|l| (l.from as usize, l.to as usize))
                .collect(),
            spinner: rules.spinner as usize,
            overshoot: rules.overshoot,
        }
    }

    fn step(&self, square: usize, face: usize) -> usize {
        let target = square + face;
        let landed = if target <= self.n {
            target
        } else {
            match self.overshoot {
                Overshoot::Stay => return square,
                Overshoot::Finish => return self.n,
                Overshoot::Bounce => 2 * self.n - target,
            }
        };
        match self.jumps.iter().find(|j| j.0 == landed) {
            Some(&(_, to)) => to,
            None => landed,
        }
    }

    /// The squares the start leads to, the last one excepted, in increasing order.
    fn reachable(&self) -> Vec<usize> {
        let mut seen = vec![false; self.n + 1];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(s) = stack.pop() {
            if s == self.n {
                continue;
            }
            for face in 1..=self.spinner {
                let t = self.step(s, face);
                if !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
        (0..self.n).filter(|&s| seen[s]).collect()
    }

    /// The expected number of spins from square 0 by Gaussian elimination of
    /// `E_s - (1/k) sum_faces E_step(s, face) = 1` over the reachable squares, in exact
    /// rationals; `None` when the system is singular (some reachable square can never
    /// finish).
    fn dense(&self) -> Option<Exact> {
        let squares = self.reachable();
        let index = |s: usize| squares.binary_search(&s).ok();
        let m = squares.len();
        let p = Exact::from_ratio(1, self.spinner as u64);
        let mut rows: Vec<Vec<Exact>> = vec![vec![Exact::zero(); m + 1]; m];
        for (i, &s) in squares.iter().enumerate() {
            rows[i][i] = Exact::one();
            rows[i][m] = Exact::one();
            for face in 1..=self.spinner {
                if let Some(j) = index(self.step(s, face)) {
                    rows[i][j] = rows[i][j].sub(&p);
                }
            }
        }
        // Forward elimination, then back substitution.
        for col in 0..m {
            let pivot = (col..m).find(|&r| rows[r][col] != Exact::zero())?;
            rows.swap(col, pivot);
            let (done, rest) = rows.split_at_mut(col + 1);
            let pivot_row = &done[col];
            for row in rest.iter_mut() {
                if row[col] != Exact::zero() {
                    let f = row[col].div(&pivot_row[col]);
                    for c in col..=m {
                        row[c] = row[c].sub(&f.mul(&pivot_row[c]));
                    }
                }
            }
        }
        let mut x: Vec<Exact> = vec![Exact::zero(); m];
        for i in (0..m).rev() {
            let mut v = rows[i][m].clone();
            for j in i + 1..m {
                if rows[i][j] != Exact::zero() {
                    v = v.sub(&rows[i][j].mul(&x[j]));
                }
            }
            x[i] = v.div(&rows[i][i]);
        }
        Some(x[0].clone())
    }
}

/// A random board of `n` squares with up to `most` snakes and ladders; some of them
/// can never be finished under some rules.
fn random_board(rng: &mut ChaCha8Rng, n: u32, most: usize) -> Board {
    let links = rng.gen_range(0..=most);
    let mut used = vec![false; n as usize + 1];
    let mut list = Vec::new();
    for _ in 0..links * 20 {
        if list.len() == links {
            break;
        }
        let from = rng.gen_range(1..n);
        let to = rng.gen_range(1..=n);
        if from == to || used[from as usize] || used[to as usize] {
            continue;
        }
        used[from as usize] = true;
        used[to as usize] = true;
        let piece = if from < to {
            Piece::Ladder
        } else {
            Piece::Snake
        };
        list.push(Link { piece, from, to });
    }
    Board::new(u64::from(n), list).expect("links never share a square")
}

#[test]
fn the_classic_board_gives_the_published_value() {
    // Althoen, King and Schilling (1993): about 39.225122308234960 spins.
    let board = Board::classic();
    let q = exact(&board, &Rules::default()).unwrap();
    assert_eq!(decimal(&q, 15), "39.225122308234960");
    assert_eq!(
        fraction(&q),
        "225837582538403273407117496273279920181931269186581786048583/\
         5757472998140039232950575874628786131130999406013041613400"
    );
    assert_eq!(
        fraction(&Plain::of(&board, &Rules::default()).dense().unwrap()),
        fraction(&q)
    );
    let f = float(&board, &Rules::default()).unwrap();
    assert!((f - q.to_f64()).abs() <= 1e-13 * f, "{f}");
    // The board as a file reads the same.
    let file = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/snakes.txt"
    ))
    .unwrap();
    assert_eq!(parse_board(&file).unwrap(), board);
}

#[test]
fn the_classic_board_under_every_rule_matches_a_dense_solve() {
    let board = Board::classic();
    for spinner in [2, 6, 10] {
        for overshoot in RULES {
            let r = rules(spinner, overshoot);
            let q = exact(&board, &r).unwrap();
            let dense = Plain::of(&board, &r).dense().unwrap();
            assert_eq!(fraction(&q), fraction(&dense), "{r:?}");
            let f = float(&board, &r).unwrap();
            assert!((f - q.to_f64()).abs() <= 1e-12 * f, "{r:?}");
        }
    }
}

#[test]
fn random_boards_match_a_dense_exact_solve() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let (mut solved, mut endless) = (0, 0);
    for case in 0..240 {
        let n = rng.gen_range(2..=40);
        let board = random_board(&mut rng, n, n as usize / 3);
        let r = rules(rng.gen_range(2..=7), RULES[case % 3]);
        if r.overshoot == Overshoot::Bounce && r.spinner > n {
            assert!(matches!(
                exact(&board, &r),
                Err(SolveError::Game(GameError::SpinnerBeyondBoard { .. }))
            ));
            continue;
        }
        match (exact(&board, &r), Plain::of(&board, &r).dense()) {
            (Ok(q), Some(dense)) => {
                assert_eq!(fraction(&q), fraction(&dense), "{board:?} {r:?}");
                let f = float(&board, &r).unwrap();
                let want = q.to_f64();
                assert!((f - want).abs() <= 1e-12 * want, "{board:?} {r:?}");
                solved += 1;
            }
            // A singular system is exactly a game that may never end.
            (Err(SolveError::Game(GameError::NeverFinishes { .. })), None) => endless += 1,
            (got, dense) => panic!("{board:?} {r:?}: {got:?} against {dense:?}"),
        }
    }
    assert!(
        solved >= 150 && endless >= 3,
        "{solved} solved, {endless} endless"
    );
}

#[test]
fn floating_point_agrees_with_exact_on_larger_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for case in 0..24 {
        let n = rng.gen_range(50..=150);
        let board = random_board(&mut rng, n, 12);
        let r = rules(rng.gen_range(2..=12), RULES[case % 3]);
        let (Ok(q), Ok(f)) = (exact(&board, &r), float(&board, &r)) else {
            continue;
        };
        let want = q.to_f64();
        assert!(
            (f - want).abs() <= 1e-12 * want,
            "{board:?} {r:?}: {f} vs {want}"
        );
    }
}

#[test]
fn a_board_without_snakes_or_ladders() {
    // Two squares, a spinner of 2, overshoot stays: from 0, a 2 wins and a 1 leads to
    // square 1, from where one spin in two wins: E0 = 1 + E1 / 2, E1 = 2, so E0 = 2.
    let board = Board::new(2, vec![]).unwrap();
    assert_eq!(
        fraction(&exact(&board, &rules(2, Overshoot::Stay)).unwrap()),
        "2/1"
    );
    // Finishing on any overshoot: from square 1 every spin wins, so E0 = 1 + 1/2.
    assert_eq!(
        fraction(&exact(&board, &rules(2, Overshoot::Finish)).unwrap()),
        "3/2"
    );
    // With the classic spinner on an empty board of 100 squares, every square from 94
    // on needs 6 spins on average, whatever the rule for overshooting but `finish`.
    let board = Board::new(100, vec![]).unwrap();
    let stay = exact(&board, &Rules::default()).unwrap();
    let bounce = exact(&board, &rules(6, Overshoot::Bounce)).unwrap();
    assert_eq!(stay, bounce);
}

#[test]
fn games_that_never_end_are_refused_before_solving() {
    // Snakes on the six squares before the last one.
    let trap: Vec<Link> = (4..10)
        .map(|from| Link {
            piece: Piece::Snake,
            from,
            to: 1,
        })
        .collect();
    let board = Board::new(10, trap).unwrap();
    for overshoot in RULES {
        let r = rules(6, overshoot);
        assert!(matches!(
            exact(&board, &r),
            Err(SolveError::Game(GameError::NeverFinishes { from: 0, .. }))
        ));
        assert!(Plain::of(&board, &r).dense().is_none());
    }
    // A spinner of 7 jumps the trap.
    assert!(exact(&board, &rules(7, Overshoot::Stay)).is_ok());
}

#[test]
fn simulation_agrees_with_exact_values() {
    let board = Board::classic();
    for (seed, overshoot) in (10..).zip(RULES) {
        let r = rules(6, overshoot);
        let want = exact(&board, &r).unwrap().to_f64();
        let model = SnakesModel::new(&board, &r);
        let estimate =
            simulate::<_, f64>(&model, &Player::Random, 40_000, seed, 1_000_000).unwrap();
        assert!(
            estimate.contains(want),
            "{overshoot:?}: {estimate:?} against {want}"
        );
    }
    // Random boards: the 95% intervals cover the exact value at about that rate.
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let (mut boards, mut covered) = (0, 0);
    for seed in 0..200 {
        let n = rng.gen_range(10..=60);
        let board = random_board(&mut rng, n, 6);
        let r = rules(rng.gen_range(2..=8), RULES[seed % 3]);
        let Ok(q) = exact(&board, &r) else { continue };
        let want = q.to_f64();
        if want > 500.0 {
            continue; // slow games take too long to simulate well
        }
        let model = SnakesModel::new(&board, &r);
        let estimate =
            simulate::<_, f64>(&model, &Player::Random, 2000, seed as u64, 1_000_000).unwrap();
        boards += 1;
        covered += usize::from(estimate.contains(want));
    }
    assert!(boards >= 100, "{boards}");
    assert!(
        covered * 100 >= boards * 88,
        "only {covered} of {boards} intervals contain the exact value"
    );
}

#[test]
fn the_distribution_sums_to_the_expectation() {
    // E = sum over t >= 0 of P(not over after t spins) = 1 + sum_{t >= 1} (1 - F(t)).
    let mut cases: Vec<(Board, Rules)> = RULES
        .iter()
        .map(|&o| (Board::classic(), rules(6, o)))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    while cases.len() < 40 {
        let n = rng.gen_range(2..=80);
        let board = random_board(&mut rng, n, 8);
        let r = rules(rng.gen_range(2..=8), RULES[cases.len() % 3]);
        if exact(&board, &r).is_ok() {
            cases.push((board, r));
        }
    }
    for (board, r) in cases {
        let e = float(&board, &r).unwrap();
        let f = finished_within(&board, &r, 20_000);
        assert_eq!(f.len(), 20_000);
        assert!(f.iter().all(|p| (0.0..=1.0).contains(p)), "{board:?} {r:?}");
        assert!(f.windows(2).all(|w| w[0] <= w[1]), "{board:?} {r:?}");
        if 1.0 - f.last().unwrap() > 1e-14 {
            continue; // too slow a game to sum in 20,000 spins
        }
        let sum = 1.0 + f.iter().map(|p| 1.0 - p).sum::<f64>();
        assert!((sum - e).abs() <= 1e-9 * e, "{board:?} {r:?}: {sum} vs {e}");
    }
}

#[test]
fn the_distribution_matches_exact_counting() {
    // The classic board cannot be won in fewer than 7 spins; the first twelve
    // probabilities are counted here in exact rationals, square by square.
    let board = Board::classic();
    let r = Rules::default();
    let plain = Plain::of(&board, &r);
    let f = finished_within(&board, &r, 12);
    let mut at: Vec<Exact> = vec![Exact::zero(); plain.n + 1];
    at[0] = Exact::one();
    let p = Exact::from_ratio(1, 6);
    for (t, &got) in f.iter().enumerate() {
        let mut next = vec![Exact::zero(); plain.n + 1];
        for (s, mass) in at.iter().enumerate().take(plain.n) {
            for face in 1..=6 {
                let to = plain.step(s, face);
                next[to] = next[to].add(&mass.mul(&p));
            }
        }
        next[plain.n] = next[plain.n].add(&at[plain.n]);
        at = next;
        let want = at[plain.n].to_f64();
        assert!(
            (got - want).abs() <= 1e-15,
            "t = {}: {got} vs {want}",
            t + 1
        );
        assert_eq!(got == 0.0, t + 1 < 7, "t = {}", t + 1);
    }
}

#[test]
fn the_exact_work_estimate_orders_boards() {
    let classic = exact_work(&Board::classic(), &Rules::default());
    assert!((100_000..400_000).contains(&classic), "{classic}");
    let big = Board::new(10_000, vec![]).unwrap();
    assert!(exact_work(&big, &Rules::default()) > 10_000_000);
    let largest = rules(100, Overshoot::Bounce);
    assert!(exact_work(&big, &largest) > exact_work(&big, &Rules::default()));
}

#[test]
fn random_bytes_never_panic_the_parser() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let classic = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/snakes.txt"
    ))
    .unwrap();
    for case in 0..3000 {
        let bytes: Vec<u8> = if case % 2 == 0 {
            (0..rng.gen_range(0..40))
                .map(|_| {
                    let alphabet = b"0123456789 \n\t#-laddersnake\r";
                    alphabet[rng.gen_range(0..alphabet.len())]
                })
                .collect()
        } else {
            let mut b = classic.clone();
            for _ in 0..rng.gen_range(1..4) {
                let i = rng.gen_range(0..b.len());
                b[i] = rng.gen();
            }
            b
        };
        if let Ok(board) = parse_board(&bytes) {
            for overshoot in RULES {
                let r = rules(6, overshoot);
                if let Ok(e) = float(&board, &r) {
                    assert!(e >= 1.0, "{bytes:?}");
                }
            }
        }
    }
}

/// The engine's entry points for any model give Snakes and Ladders the same fractions as
/// the game's own `expected_spins`, and `f64` values within the bound they certify of
/// those fractions (on every square, relative above 1).
#[test]
fn the_engines_certified_values_hold_the_exact_fractions() {
    use alea_core::{solve_certified, solve_exact, Settings};
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut boards: Vec<(Board, Rules)> = RULES
        .iter()
        .map(|&o| (Board::classic(), rules(6, o)))
        .collect();
    while boards.len() < 60 {
        let n = rng.gen_range(2..=40);
        let board = random_board(&mut rng, n, n as usize / 3);
        let r = rules(rng.gen_range(2..=7), RULES[boards.len() % 3]);
        if exact(&board, &r).is_ok() {
            boards.push((board, r));
        }
    }
    for (board, r) in &boards {
        let want = exact(board, r).unwrap();
        let model = SnakesModel::new(board, r);
        let settings = Settings::default();
        let got = solve_exact(&model, &settings).unwrap();
        assert_eq!(fraction(got.start_value()), fraction(&want), "{r:?}");
        let certified = solve_certified(&model, &settings).unwrap();
        let f = *certified.solution.start_value();
        assert!(
            (f - want.to_f64()).abs() <= certified.error_bound,
            "{f} {} {r:?}",
            certified.error_bound
        );
        // The bound holds for every square, and is relative to values above 1.
        let largest = certified
            .solution
            .states()
            .map(|s| *certified.solution.get(s).unwrap())
            .fold(1.0, f64::max);
        assert!(certified.error_bound <= 1e-12 * largest, "{r:?}");
    }
}
