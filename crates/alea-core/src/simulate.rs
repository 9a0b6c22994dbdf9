//! Monte Carlo play of a model with a seeded random generator: an estimate that is
//! independent of the solvers, used to check them and to show players a distribution.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::model::{Edge, Expansion, Kind, Model, Pick};
use crate::numeric::value::Value;
use crate::solution::{improves, Solution};

/// Games played by one random stream. The split depends on the number of games only, so
/// the result is the same whatever the number of threads.
const CHUNK: u64 = 1024;

/// The normal quantile for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A sample mean with its spread and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub games: u64,
    pub mean: f64,
    /// The sample standard deviation of one game's outcome.
    pub std_dev: f64,
}

impl Estimate {
    /// Half the width of the 95% interval for the mean.
    pub fn half_width(&self) -> f64 {
        if self.games < 2 {
            return f64::INFINITY;
        }
        Z95 * self.std_dev / (self.games as f64).sqrt()
    }

    /// The 95% interval for the mean.
    pub fn interval(&self) -> (f64, f64) {
        let h = self.half_width();
        (self.mean - h, self.mean + h)
    }

    /// Whether `x` lies in the 95% interval.
    pub fn contains(&self, x: f64) -> bool {
        let (lo, hi) = self.interval();
        lo <= x && x <= hi
    }
}

/// Running count, mean and sum of squared deviations (Welford), mergeable in order.
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    fn merge(self, other: Moments) -> Moments {
        if self.n == 0 {
            return other;
        }
        if other.n == 0 {
            return self;
        }
        let n = self.n + other.n;
        let d = other.mean - self.mean;
        Moments {
            n,
            mean: self.mean + d * other.n as f64 / n as f64,
            m2: self.m2 + other.m2 + d * d * (self.n as f64 * other.n as f64) / n as f64,
        }
    }
}

/// How choices are made while playing.
pub enum Player<'a, S, V> {
    /// Maximising and minimising choices follow the solved values (the first best option
    /// on ties); uniform choices are drawn at random.
    Best(&'a Solution<S, V>),
    /// Uniform choices are drawn at random; a maximising or minimising choice is an
    /// error, as nothing says which option is best.
    Random,
}

/// Plays `games` games from the model's start and reports the mean outcome (rewards on
/// the way plus the terminal value). A game longer than `max_steps` is an error.
pub fn simulate<M: Model, V: Value>(
    model: &M,
    player: &Player<'_, M::State, V>,
    games: u64,
    seed: u64,
    max_steps: u64,
) -> Result<Estimate> {
    let chunks = games.div_ceil(CHUNK);
    let parts: Vec<Moments> = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(chunk);
            let count = CHUNK.min(games - chunk * CHUNK);
            let mut buf = Expansion::default();
            let mut m = Moments::default();
            for _ in 0..count {
                m.push(play_one(model, player, &mut rng, &mut buf, max_steps)?);
            }
            Ok(m)
        })
        .collect::<Result<_>>()?;
    let total = parts.into_iter().fold(Moments::default(), Moments::merge);
    let std_dev = if total.n > 1 {
        (total.m2 / (total.n - 1) as f64).sqrt()
    } else {
        0.0
    };
    Ok(Estimate {
        games: total.n,
        mean: total.mean,
        std_dev,
    })
}

/// Plays one game and returns its outcome.
pub fn play_one<M: Model, V: Value>(
    model: &M,
    player: &Player<'_, M::State, V>,
    rng: &mut impl Rng,
    buf: &mut Expansion<M::State>,
    max_steps: u64,
) -> Result<f64> {
    let mut state = model.start();
    let mut total = 0.0;
    for _ in 0..=max_steps {
        model.expand(model.canonical(state), buf);
        total += buf.reward as f64;
        let next = match buf.kind {
            Kind::Terminal => return Ok(total),
            Kind::Chance | Kind::Choice(Pick::Uniform) => draw(&buf.edges, rng),
            Kind::Choice(pick) => match player {
                Player::Best(solution) => best(model, solution, pick, &buf.edges)?,
                Player::Random => {
                    return Err(Error::Unsolved(format!("{:?}", model.canonical(state))))
                }
            },
        };
        state = next.ok_or_else(|| Error::no_successors(format!("{state:?}"), buf.kind))?;
    }
    Err(Error::StepLimit(max_steps))
}

fn draw<S: Copy>(edges: &[Edge<S>], rng: &mut impl Rng) -> Option<S> {
    let total = edges
        .iter()
        .try_fold(0u64, |sum, e| sum.checked_add(e.weight))?;
    if total == 0 {
        return None;
    }
    let mut r = rng.gen_range(0..total);
    for e in edges {
        if r < e.weight {
            return Some(e.to);
        }
        r -= e.weight;
    }
    None
}

fn best<M: Model, V: Value>(
    model: &M,
    solution: &Solution<M::State, V>,
    pick: Pick,
    edges: &[Edge<M::State>],
) -> Result<Option<M::State>> {
    let mut chosen: Option<(M::State, &V)> = None;
    for e in edges {
        let c = model.canonical(e.to);
        let v = solution
            .get(&c)
            .ok_or_else(|| Error::Unsolved(format!("{c:?}")))?;
        let better = match chosen {
            None => true,
            Some((_, incumbent)) => improves(pick, v, incumbent)?,
        };
        if better {
            chosen = Some((e.to, v));
        }
    }
    Ok(chosen.map(|(s, _)| s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::Limits;
    use crate::model::Nodes;
    use crate::solve::acyclic::solve;

    /// Roll a fair die; on 1..=3 stop with that score, otherwise choose to stop with 4
    /// or to roll once more for the face (mean 3.5). Best play: stop. Value:
    /// (1 + 2 + 3 + 3 * 4) / 6 = 3.
    const STOP: Nodes = Nodes(|s, out| match s {
        0 => {
            out.chance(0);
            for f in 1..=6 {
                out.edge(if f <= 3 { 10 + f } else { 7 });
            }
        }
        7 => {
            out.choice(Pick::Max, 0);
            out.edge(14);
            out.edge(8);
        }
        8 => {
            out.chance(0);
            for f in 1..=6 {
                out.edge(10 + f);
            }
        }
        t => out.terminal(i64::from(t) - 10),
    });

    #[test]
    fn simulation_brackets_the_exact_value_and_is_repeatable() {
        let s = solve::<_, f64>(&STOP, &Limits::default()).unwrap();
        assert_eq!(*s.start_value(), 3.0);
        let e = simulate(&STOP, &Player::Best(&s), 20_000, 7, 100).unwrap();
        assert_eq!(e.games, 20_000);
        assert!(e.contains(3.0), "{e:?}");
        assert!(e.half_width() < 0.05);
        let again = simulate(&STOP, &Player::Best(&s), 20_000, 7, 100).unwrap();
        assert_eq!(e, again);
    }

    #[test]
    fn the_thread_count_does_not_change_the_result() {
        let s = solve::<_, f64>(&STOP, &Limits::default()).unwrap();
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| simulate(&STOP, &Player::Best(&s), 5_000, 11, 100).unwrap())
        };
        assert_eq!(run(1), run(2));
    }

    #[test]
    fn random_player_cannot_make_best_choices() {
        let err = simulate::<_, f64>(&STOP, &Player::Random, 100, 1, 100).unwrap_err();
        assert!(matches!(err, Error::Unsolved(_)), "{err}");
    }

    #[test]
    fn moments_merge_like_one_pass() {
        let xs = [1.0, 4.0, 2.0, 8.0, 5.0, 7.0];
        let mut one = Moments::default();
        xs.iter().for_each(|&x| one.push(x));
        let (mut a, mut b) = (Moments::default(), Moments::default());
        xs[..2].iter().for_each(|&x| a.push(x));
        xs[2..].iter().for_each(|&x| b.push(x));
        let merged = a.merge(b);
        assert_eq!(merged.n, one.n);
        assert!((merged.mean - one.mean).abs() < 1e-12);
        assert!((merged.m2 - one.m2).abs() < 1e-9);
    }
}
