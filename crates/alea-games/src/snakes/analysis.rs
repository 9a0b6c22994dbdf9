//! A board's answer, as it is asked for: the expected number of spins, exactly when that
//! is affordable, and how long games last; and the resource guards that stop the work
//! before it starts when it would take too long or too much memory.
//!
//! Every front end asks the same questions under the same guards; only the way it names
//! its settings differs (the command line's `--max-exact-work 10`, Python's
//! `max_exact_work=10`). So the guards and their messages live here, and a front end
//! supplies how a setting is written.

use alea_core::{decimal, Exact, Limits, Value};

use super::distribution::finished_within;
use super::model::{exact_work, expected_spins, SolveError};
use super::rules::{check, Board, Rules};

/// Decimal places of the answer's text, as the One Person Game prints its own.
pub const PLACES: u32 = crate::dice::PLACES;

/// What is asked of a board, and how much work the guards allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The expectation as an exact fraction: past `max_exact_work` it stops rather than
    /// fall back on floating point.
    pub exact: bool,
    /// The probability that the game is over within `t` spins, for `t = 1..=spins`.
    pub distribution: Option<usize>,
    /// The most work of exact arithmetic, in the units of [`exact_work`]: within it the
    /// answer is computed exactly, asked or not.
    pub max_exact_work: u64,
    /// The most steps of the distribution (spins x squares x faces).
    pub max_distribution_work: u64,
    /// The most memory, in MiB, of the tables of the distribution.
    pub max_distribution_mib: u64,
}

/// A guard stopped the work: which one, and the figures it compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitError {
    /// `max_exact_work`, with the exact fraction asked for: it would take about `work`.
    ExactWork { work: u64, max: u64 },
    /// `max_exact_work`, though the fraction was not asked for: the expectation is
    /// beyond the range of `f64`, so only exact arithmetic can give it.
    BeyondFloat { work: u64, max: u64 },
    /// `max_distribution_work`: `spins` spins on `squares` squares with a spinner of
    /// `spinner` faces take `steps` steps.
    DistributionWork {
        spins: usize,
        squares: u32,
        spinner: u32,
        steps: u64,
        max: u64,
    },
    /// `max_distribution_mib`: the distribution of `spins` spins needs about `mib` MiB.
    DistributionMib { spins: usize, mib: u64, max: u64 },
}

impl LimitError {
    /// The setting that raises the guard, in snake case: the name both front ends
    /// derive theirs from.
    pub fn setting(&self) -> &'static str {
        match self {
            LimitError::ExactWork { .. } | LimitError::BeyondFloat { .. } => "max_exact_work",
            LimitError::DistributionWork { .. } => "max_distribution_work",
            LimitError::DistributionMib { .. } => "max_distribution_mib",
        }
    }

    /// What stopped the work and how to go on. `named` writes a setting, given its name
    /// in snake case and, when the message shows it, its value: `--max-exact-work 10`
    /// and `--max-exact-work` on the command line, `max_exact_work=10` and
    /// `max_exact_work` in Python.
    pub fn message(&self, named: impl Fn(&str, Option<u64>) -> String) -> String {
        let setting = self.setting();
        match *self {
            LimitError::ExactWork { work, max } => format!(
                "exact arithmetic for this board would take about {work} units of work, \
                 above {}; raise {} to compute it (the work grows with the cube of the \
                 number of squares)",
                named(setting, Some(max)),
                named(setting, None)
            ),
            LimitError::BeyondFloat { work, max } => format!(
                "the expected number of spins is beyond the range of floating point, and \
                 exact arithmetic would take about {work} units of work, above {}; raise {} \
                 to compute it",
                named(setting, Some(max)),
                named(setting, None)
            ),
            LimitError::DistributionWork {
                spins,
                squares,
                spinner,
                steps,
                max,
            } => format!(
                "{} would take {steps} steps ({spins} spins x {squares} squares x {spinner} \
                 faces), above {}; raise it to compute it",
                named("distribution", Some(spins as u64)),
                named(setting, Some(max))
            ),
            LimitError::DistributionMib { spins, mib, max } => format!(
                "{} needs about {mib} MiB, above {}; raise it to compute it",
                named("distribution", Some(spins as u64)),
                named(setting, Some(max))
            ),
        }
    }
}

/// Why a board has no answer: it cannot be played with the rules, the solver stopped,
/// or a guard did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    Solve(SolveError),
    Limit(LimitError),
}

impl From<SolveError> for AnalysisError {
    fn from(e: SolveError) -> Self {
        AnalysisError::Solve(e)
    }
}

impl From<LimitError> for AnalysisError {
    fn from(e: LimitError) -> Self {
        AnalysisError::Limit(e)
    }
}

/// A board's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The expected number of spins (rounded from the exact value when there is one).
    pub expected: f64,
    /// The expectation with [`PLACES`] decimals, from the exact value when there is one.
    pub text: String,
    /// The exact expectation, whenever it was within `max_exact_work`, asked or not.
    pub exact: Option<Exact>,
    /// The probability that the game is over within `t` spins, when asked.
    pub distribution: Option<Vec<f64>>,
}

/// The expected number of spins on `board`: exactly within `max_exact_work`, in floating
/// point beyond it unless the fraction is asked for, and the distribution when asked. A
/// board that cannot be played is reported before any guard: that is bad input, which
/// raising a limit would not mend.
pub fn analyse(board: &Board, rules: &Rules, asked: &Asked) -> Result<Analysis, AnalysisError> {
    check(board, rules).map_err(SolveError::Game)?;
    let work = exact_work(board, rules);
    if asked.exact && work > asked.max_exact_work {
        return Err(LimitError::ExactWork {
            work,
            max: asked.max_exact_work,
        }
        .into());
    }
    if let Some(spins) = asked.distribution {
        check_distribution(board, rules, spins, asked)?;
    }
    let (expected, text, exact) = if work <= asked.max_exact_work {
        let q = expected_spins::<Exact>(board, rules, &Limits::default())?;
        (q.to_f64(), decimal(&q, PLACES), Some(q))
    } else {
        match expected_spins::<f64>(board, rules, &Limits::default()) {
            Ok(e) if e.is_finite() => (e, format!("{:.*}", PLACES as usize, e), None),
            // The board can be finished (checked first), so an endless game here means
            // a probability too small for floating point.
            Ok(_) | Err(SolveError::Engine(alea_core::Error::NeverEnds(_))) => {
                return Err(LimitError::BeyondFloat {
                    work,
                    max: asked.max_exact_work,
                }
                .into())
            }
            Err(e) => return Err(e.into()),
        }
    };
    let distribution = asked
        .distribution
        .map(|spins| finished_within(board, rules, spins));
    Ok(Analysis {
        expected,
        text,
        exact,
        distribution,
    })
}

/// The guards of the distribution, before any work starts.
fn check_distribution(
    board: &Board,
    rules: &Rules,
    spins: usize,
    asked: &Asked,
) -> Result<(), LimitError> {
    let squares = board.squares();
    let steps = (spins as u64)
        .saturating_mul(u64::from(squares))
        .saturating_mul(u64::from(rules.spinner));
    if steps > asked.max_distribution_work {
        return Err(LimitError::DistributionWork {
            spins,
            squares,
            spinner: rules.spinner,
            steps,
            max: asked.max_distribution_work,
        });
    }
    // Two tables of the squares' probabilities, the moves, and the answer as text.
    let bytes = u64::from(squares)
        .saturating_mul(16 + 16 * u64::from(rules.spinner))
        .saturating_add((spins as u64).saturating_mul(32));
    let mib = bytes.div_ceil(1 << 20);
    if mib > asked.max_distribution_mib {
        return Err(LimitError::DistributionMib {
            spins,
            mib,
            max: asked.max_distribution_mib,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snakes::{GameError, Link, Overshoot, Piece};

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

    /// The command line's defaults.
    const DEFAULT: Asked = Asked {
        exact: false,
        distribution: None,
        max_exact_work: 10_000_000,
        max_distribution_work: 2_000_000_000,
        max_distribution_mib: 1024,
    };

    fn limit(board: &Board, rules: &Rules, asked: Asked) -> LimitError {
        match analyse(board, rules, &asked) {
            Err(AnalysisError::Limit(e)) => e,
            other => panic!("not stopped by a guard: {other:?}"),
        }
    }

    #[test]
    fn the_classic_board_exactly_or_not() {
        let classic = Board::classic();
        let rules = Rules::default();
        let exact = analyse(&classic, &rules, &DEFAULT).unwrap();
        assert_eq!(exact.text, "39.225122308234960");
        assert!(exact.exact.is_some() && exact.distribution.is_none());
        let float = analyse(
            &classic,
            &rules,
            &Asked {
                max_exact_work: 1000,
                distribution: Some(30),
                ..DEFAULT
            },
        )
        .unwrap();
        assert!(float.text.starts_with("39.2251223082349"), "{}", float.text);
        assert_eq!(float.exact, None);
        assert_eq!(float.distribution.map(|d| d.len()), Some(30));
    }

    #[test]
    fn the_guards() {
        let classic = Board::classic();
        let rules = Rules::default();
        let e = limit(
            &classic,
            &rules,
            Asked {
                exact: true,
                max_exact_work: 1000,
                ..DEFAULT
            },
        );
        assert_eq!(e.setting(), "max_exact_work");
        assert_eq!(
            e.message(option),
            "exact arithmetic for this board would take about 167584 units of work, above \
             --max-exact-work 1000; raise --max-exact-work to compute it (the work grows \
             with the cube of the number of squares)"
        );
        let e = limit(
            &classic,
            &rules,
            Asked {
                distribution: Some(10_000_000),
                ..DEFAULT
            },
        );
        assert_eq!(e.setting(), "max_distribution_work");
        assert_eq!(
            e.message(keyword),
            "distribution=10000000 would take 6000000000 steps (10000000 spins x 100 \
             squares x 6 faces), above max_distribution_work=2000000000; raise it to \
             compute it"
        );
        let e = limit(
            &classic,
            &rules,
            Asked {
                distribution: Some(1_000_000),
                max_distribution_mib: 10,
                ..DEFAULT
            },
        );
        assert_eq!(e.setting(), "max_distribution_mib");
        assert_eq!(
            e.message(option),
            "--distribution 1000000 needs about 31 MiB, above --max-distribution-mib 10; \
             raise it to compute it"
        );
    }

    #[test]
    fn beyond_floating_point_only_exact_arithmetic_will_do() {
        // 2^-1066 is the chance of getting through 533 snakes in a row.
        let snakes = (3..1600).step_by(3).map(|from| Link {
            piece: Piece::Snake,
            from,
            to: 1,
        });
        let board = Board::new(1600, snakes.collect()).unwrap();
        let rules = Rules {
            spinner: 2,
            overshoot: Overshoot::Stay,
        };
        let e = limit(&board, &rules, DEFAULT);
        assert_eq!(e.setting(), "max_exact_work");
        assert!(e.message(keyword).starts_with(
            "the expected number of spins is beyond the range of floating point, and exact \
             arithmetic would take about"
        ));
    }

    #[test]
    fn a_board_that_cannot_be_played_comes_before_the_guards() {
        let rules = Rules {
            spinner: 8,
            overshoot: Overshoot::Bounce,
        };
        let small = Board::new(5, vec![]).unwrap();
        let asked = Asked {
            exact: true,
            max_exact_work: 0,
            ..DEFAULT
        };
        assert_eq!(
            analyse(&small, &rules, &asked),
            Err(AnalysisError::Solve(SolveError::Game(
                GameError::SpinnerBeyondBoard {
                    spinner: 8,
                    squares: 5
                }
            )))
        );
    }
}
