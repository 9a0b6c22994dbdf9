//! The answers to a list of games, as they are asked for, and the resource guards that
//! stop the work before it starts when it would take too long or too much memory.
//!
//! Every front end asks the same questions under the same guards; only the way it names
//! its settings differs (the command line's `--max-work 10`, Python's `max_work=10`). So
//! the guards and their messages live here, and a front end supplies how a setting is
//! written.

use std::fmt;

use alea_core::{decimal, Exact, Value};
use rayon::prelude::*;

use super::distribution::over_within;
use super::kernel::{expected_throws, expected_throws_exact};
use super::rules::Game;

/// Decimal places of the judge's output.
pub const PLACES: u32 = 15;

/// What is asked of every game, and how much work the guards allow for all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The expectations as exact fractions too.
    pub exact: bool,
    /// The probability that the game is over within `t` throws, for `t = 1..=k`.
    pub distribution: Option<usize>,
    /// The most steps of the floating-point passes (counters x sums).
    pub max_work: u64,
    /// The most word operations of the exact passes.
    pub max_exact_work: u64,
    /// The most steps of the distributions (throws x counters x sums).
    pub max_distribution_work: u64,
    /// The most memory, in MiB, of the tables of a distribution.
    pub max_distribution_mib: u64,
}

/// A guard stopped the work: which game it stopped at, which guard, and its figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitError {
    /// The game at fault, from 0, among `cases`: messages name it when there are several.
    pub case: usize,
    pub cases: usize,
    pub guard: Guard,
}

/// Which guard stopped the work, and the figures it compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// `max_work`: the floating-point passes of the games so far take `total` steps;
    /// the game at fault alone takes `steps`, `limit + 1` counters by `sums` sums.
    Work {
        total: u64,
        steps: u64,
        limit: u64,
        sums: usize,
        max: u64,
    },
    /// `max_exact_work`: the exact passes of the games so far take about `total` word
    /// operations, the game at fault alone `own`.
    ExactWork {
        total: u64,
        own: u64,
        limit: u64,
        max: u64,
    },
    /// `max_distribution_work`: the distributions of `throws` throws of the games so far
    /// take `total` steps.
    DistributionWork { throws: usize, total: u64, max: u64 },
    /// `max_distribution_mib`: the distribution of `throws` throws of the game at fault,
    /// whose limit is `limit`, needs about `mib` MiB.
    DistributionMib {
        throws: usize,
        limit: u64,
        mib: u64,
        max: u64,
    },
}

impl Guard {
    /// The setting that raises the guard, in snake case: the name both front ends
    /// derive theirs from.
    pub fn setting(&self) -> &'static str {
        match self {
            Guard::Work { .. } => "max_work",
            Guard::ExactWork { .. } => "max_exact_work",
            Guard::DistributionWork { .. } => "max_distribution_work",
            Guard::DistributionMib { .. } => "max_distribution_mib",
        }
    }
}

impl LimitError {
    /// The setting that raises the guard that stopped the work, as [`Guard::setting`].
    pub fn setting(&self) -> &'static str {
        self.guard.setting()
    }

    /// What stopped the work and how to go on. `named` writes a setting, given its name
    /// in snake case and, when the message shows it, its value: `--max-work 10` and
    /// `--max-work` on the command line, `max_work=10` and `max_work` in Python.
    pub fn message(&self, named: impl Fn(&str, Option<u64>) -> String) -> String {
        let which = which(self.case, self.cases);
        let setting = self.setting();
        match self.guard {
            Guard::Work {
                total,
                steps,
                limit,
                sums,
                max,
            } => {
                // Past the guard only with the games before it: say so, not this one's.
                let what = if steps <= max {
                    format!("the first {} cases take {total} steps", self.case + 1)
                } else {
                    format!(
                        "{which}the limit {limit} takes {steps} steps ({} counters x {sums} \
                         sums)",
                        limit.saturating_add(1)
                    )
                };
                format!(
                    "{what}, above {}; raise {} to compute it (time grows linearly with the \
                     limit)",
                    named(setting, Some(max)),
                    named(setting, None)
                )
            }
            Guard::ExactWork {
                total,
                own,
                limit,
                max,
            } => {
                let what = if self.cases > 1 && total > own {
                    format!("the first {} cases", self.case + 1)
                } else {
                    format!("{which}the limit {limit}")
                };
                format!(
                    "exact arithmetic for {what} would take about {total} word operations, \
                     above {}; raise {} to compute it (the numbers grow with the limit)",
                    named(setting, Some(max)),
                    named(setting, None)
                )
            }
            Guard::DistributionWork { throws, total, max } => format!(
                "{which}{} would take {total} steps, above {}; raise it to compute it",
                named("distribution", Some(throws as u64)),
                named(setting, Some(max))
            ),
            Guard::DistributionMib {
                throws,
                limit,
                mib,
                max,
            } => format!(
                "{which}{} with the limit {limit} needs about {mib} MiB, above {}; raise it \
                 to compute it",
                named("distribution", Some(throws as u64)),
                named(setting, Some(max))
            ),
        }
    }
}

/// Which game a message is about: nothing when there is one.
fn which(case: usize, cases: usize) -> String {
    if cases > 1 {
        format!("case {}: ", case + 1)
    } else {
        String::new()
    }
}

/// The guards, on all the games at once: time grows with every game. Each guard counts
/// the games in order, so the error names the first game that takes the total past it.
pub fn check_limits(games: &[Game], asked: &Asked) -> Result<(), LimitError> {
    let cases = games.len();
    let stop = |case, guard| LimitError { case, cases, guard };
    let (mut work, mut exact_work, mut distribution_work) = (0u64, 0u64, 0u64);
    for (i, g) in games.iter().enumerate() {
        let throw = g.throw();
        let steps = throw.work(g.limit);
        work = work.saturating_add(steps);
        if work > asked.max_work {
            return Err(stop(
                i,
                Guard::Work {
                    total: work,
                    steps,
                    limit: g.limit,
                    sums: throw.sums.len(),
                    max: asked.max_work,
                },
            ));
        }
        if asked.exact {
            exact_work = exact_work.saturating_add(throw.exact_work(g.limit));
            check_exact(g, i, cases, exact_work, asked)?;
        }
        if let Some(k) = asked.distribution {
            distribution_work = distribution_work.saturating_add((k as u64).saturating_mul(steps));
            if distribution_work > asked.max_distribution_work {
                return Err(stop(
                    i,
                    Guard::DistributionWork {
                        throws: k,
                        total: distribution_work,
                        max: asked.max_distribution_work,
                    },
                ));
            }
            // Two tables of the counter's distribution, and the answer as text.
            let bytes = g
                .limit
                .saturating_add(1)
                .saturating_mul(16)
                .saturating_add((k as u64).saturating_mul(32));
            let mib = bytes.div_ceil(1 << 20);
            if mib > asked.max_distribution_mib {
                return Err(stop(
                    i,
                    Guard::DistributionMib {
                        throws: k,
                        limit: g.limit,
                        mib,
                        max: asked.max_distribution_mib,
                    },
                ));
            }
        }
    }
    Ok(())
}

/// Checks the exact pass of game `case` of `cases`, given the exact work of the games so
/// far (its own alone when it is computed exactly only because `f64` cannot hold it).
fn check_exact(
    g: &Game,
    case: usize,
    cases: usize,
    so_far: u64,
    asked: &Asked,
) -> Result<(), LimitError> {
    if so_far > asked.max_exact_work {
        return Err(LimitError {
            case,
            cases,
            guard: Guard::ExactWork {
                total: so_far,
                own: g.throw().exact_work(g.limit),
                limit: g.limit,
                max: asked.max_exact_work,
            },
        });
    }
    Ok(())
}

/// A game whose expectation is beyond what `f64` can hold (the chance of finishing
/// without a reset underflowed), so it is computed exactly though not asked to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Beyond {
    /// The game, from 0, among `cases`: the message names it when there are several.
    pub case: usize,
    pub cases: usize,
    /// The chance of a game without a reset, as `f64` computed it.
    pub no_reset: f64,
}

impl fmt::Display for Beyond {
    /// Says why, not what is done about it: a front end adds that, in its own tense.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}the expectation is too large for floating point (the chance of a game \
             without a reset is {:e})",
            which(self.case, self.cases),
            self.no_reset
        )
    }
}

/// One game's answer, in the forms asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The expected number of throws; infinite beyond the range of `f64`.
    pub expected: f64,
    /// The expectation with [`PLACES`] decimals: from `f64`, or rounded from the exact
    /// value when there is one.
    pub text: String,
    /// The exact expectation: asked for, or computed because `f64` could not hold it.
    pub exact: Option<Exact>,
    /// The probability that the game is over within `t` throws, when asked.
    pub distribution: Option<Vec<f64>>,
    /// Why the exact value was computed though not asked for.
    pub beyond: Option<Beyond>,
}

/// Every game's answer, after the guards have passed on all of them together; the
/// games are answered in parallel. A game whose expectation `f64` cannot hold is
/// computed exactly when the exact guard allows it; `before_exact` is told before that
/// pass, which can take seconds, so that a front end can say so while it runs.
pub fn analyse(
    games: &[Game],
    asked: &Asked,
    before_exact: impl Fn(&Beyond) + Sync,
) -> Result<Vec<Answer>, LimitError> {
    check_limits(games, asked)?;
    games
        .par_iter()
        .enumerate()
        .map(|(i, g)| answer(g, i, games.len(), asked, &before_exact))
        .collect()
}

/// Game `case` of `cases`, whose guards have passed, except the exact pass of a game
/// beyond `f64`: that is checked here, where it turns out to be needed.
fn answer(
    g: &Game,
    case: usize,
    cases: usize,
    asked: &Asked,
    before_exact: &(impl Fn(&Beyond) + Sync),
) -> Result<Answer, LimitError> {
    let throw = g.throw();
    let distribution = asked.distribution.map(|k| over_within(&throw, g.limit, k));
    let exact = |distribution, beyond| {
        let q = expected_throws_exact(&throw, g.limit);
        Answer {
            expected: q.to_f64(),
            text: decimal(&q, PLACES),
            exact: Some(q),
            distribution,
            beyond,
        }
    };
    if asked.exact {
        return Ok(exact(distribution, None));
    }
    let e = expected_throws(&throw, g.limit);
    if e.trusted() {
        return Ok(Answer {
            expected: e.expected,
            text: format!("{:.*}", PLACES as usize, e.expected),
            exact: None,
            distribution,
            beyond: None,
        });
    }
    // Only this game's exact pass is run, so only its own work counts.
    check_exact(g, case, cases, throw.exact_work(g.limit), asked)?;
    let beyond = Beyond {
        case,
        cases,
        no_reset: e.no_reset,
    };
    before_exact(&beyond);
    Ok(exact(distribution, Some(beyond)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As the command line writes its options.
    fn option(name: &str, value: Option<u64>) -> String {
        let flag = format!("--{}", name.replace('_', "-"));
        match value {
            Some(v) => format!("{flag} {v}"),
            None => flag,
        }
    }

    /// As Python writes its keyword arguments.
    fn keyword(name: &str, value: Option<u64>) -> String {
        match value {
            Some(v) => format!("{name}={v}"),
            None => name.to_string(),
        }
    }

    const GENEROUS: Asked = Asked {
        exact: false,
        distribution: None,
        max_work: u64::MAX,
        max_exact_work: u64::MAX,
        max_distribution_work: u64::MAX,
        max_distribution_mib: u64::MAX,
    };

    fn games(limits: &[u64]) -> Vec<Game> {
        limits
            .iter()
            .map(|&n| Game::new(vec![6, 6, 6], vec![vec![1, 1, 1]], n).unwrap())
            .collect()
    }

    fn stopped(limits: &[u64], asked: Asked) -> LimitError {
        check_limits(&games(limits), &asked).unwrap_err()
    }

    #[test]
    fn the_work_of_one_game_and_of_the_first_ones() {
        // 3d6 less the one reset throw: sums 3 to 18, of which 3 only by the reset.
        let e = stopped(
            &[100_000_000],
            Asked {
                max_work: 10,
                ..GENEROUS
            },
        );
        assert_eq!(e.setting(), "max_work");
        assert_eq!(
            e.message(option),
            "the limit 100000000 takes 1500000015 steps (100000001 counters x 15 sums), \
             above --max-work 10; raise --max-work to compute it (time grows linearly \
             with the limit)"
        );
        assert_eq!(
            e.message(keyword),
            "the limit 100000000 takes 1500000015 steps (100000001 counters x 15 sums), \
             above max_work=10; raise max_work to compute it (time grows linearly with \
             the limit)"
        );
        let several = Asked {
            max_work: 2000,
            ..GENEROUS
        };
        assert_eq!(
            stopped(&[50, 60, 70], several).message(option),
            "the first 3 cases take 2745 steps, above --max-work 2000; raise --max-work \
             to compute it (time grows linearly with the limit)"
        );
        assert!(stopped(&[50, 6000, 70], several)
            .message(option)
            .starts_with("case 2: the limit 6000 takes 90015 steps (6001 counters x 15 sums)"));
    }

    #[test]
    fn the_exact_work() {
        let exact = |max| Asked {
            exact: true,
            max_exact_work: max,
            ..GENEROUS
        };
        let e = stopped(&[50, 60, 70], exact(3000));
        assert_eq!(e.setting(), "max_exact_work");
        assert_eq!(
            e.message(keyword),
            "exact arithmetic for the first 2 cases would take about 4480 word operations, \
             above max_exact_work=3000; raise max_exact_work to compute it (the numbers \
             grow with the limit)"
        );
        assert!(stopped(&[50, 60, 70], exact(1000))
            .message(option)
            .starts_with("exact arithmetic for case 1: the limit 50 would take about 2040"));
        assert!(stopped(&[50], exact(1000))
            .message(option)
            .starts_with("exact arithmetic for the limit 50 would take"));
    }

    #[test]
    fn the_distribution() {
        let e = stopped(
            &[50, 60],
            Asked {
                distribution: Some(100),
                max_distribution_work: 1000,
                ..GENEROUS
            },
        );
        assert_eq!(e.setting(), "max_distribution_work");
        assert_eq!(
            e.message(option),
            "case 1: --distribution 100 would take 76500 steps, above \
             --max-distribution-work 1000; raise it to compute it"
        );
        let e = stopped(
            &[50],
            Asked {
                distribution: Some(1_000_000),
                max_distribution_mib: 1,
                ..GENEROUS
            },
        );
        assert_eq!(e.setting(), "max_distribution_mib");
        assert_eq!(
            e.message(keyword),
            "distribution=1000000 with the limit 50 needs about 31 MiB, above \
             max_distribution_mib=1; raise it to compute it"
        );
    }

    #[test]
    fn answers_in_the_forms_asked_for() {
        let told = std::sync::atomic::AtomicUsize::new(0);
        let tell = |_: &Beyond| {
            told.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let sample = games(&[0, 0]);
        let plain = analyse(&sample, &GENEROUS, tell).unwrap();
        assert_eq!(plain[1].text, "1.004651162790698");
        assert_eq!((plain[1].exact.as_ref(), plain[1].beyond), (None, None));
        let asked = Asked {
            exact: true,
            distribution: Some(3),
            ..GENEROUS
        };
        let exact = analyse(&sample, &asked, tell).unwrap();
        assert_eq!(exact[1].exact, Some(Exact::from_ratio(216, 215)));
        assert_eq!(exact[1].distribution.as_ref().map(Vec::len), Some(3));
        assert_eq!(told.load(std::sync::atomic::Ordering::Relaxed), 0);
    }

    #[test]
    fn beyond_f64_the_game_is_computed_exactly_and_said_so() {
        // One coin, reset on heads: 1101 tails in a row, E = 2^1102 - 2.
        let coin = [Game::new(vec![2], vec![vec![1]], 2200).unwrap()];
        let told = std::sync::Mutex::new(Vec::new());
        let answers = analyse(&coin, &GENEROUS, |b| told.lock().unwrap().push(*b)).unwrap();
        let beyond = answers[0].beyond.expect("beyond f64");
        assert_eq!(told.into_inner().unwrap(), vec![beyond]);
        assert_eq!(
            beyond.to_string(),
            "the expectation is too large for floating point (the chance of a game \
             without a reset is 0e0)"
        );
        assert!(answers[0].expected.is_infinite());
        assert!(answers[0].text.ends_with("2.000000000000000"));
        // Its exact pass is guarded too, though not asked for.
        let e = analyse(
            &coin,
            &Asked {
                max_exact_work: 1000,
                ..GENEROUS
            },
            |_| {},
        )
        .unwrap_err();
        assert_eq!(e.setting(), "max_exact_work");
        assert!(e
            .message(option)
            .starts_with("exact arithmetic for the limit 2200 would take about"));
    }
}
