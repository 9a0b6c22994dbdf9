//! `alea dice`: the One Person Game, from the judge format or for any dice.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;

use alea_core::{decimal, fraction, Exact, Value};
use alea_games::dice::{expected_throws, expected_throws_exact, over_within, parse_cases, Game};

use crate::failure::Failure;
use crate::input::Input;

/// Decimal places of the judge's output.
const PLACES: u32 = 15;

#[derive(Debug, Args)]
#[command(after_help = concat!(
        "\
Input: whitespace-separated numbers in any layout (a case may span lines or share one): \
T, then T cases `n K1 K2 K3 a b c`: three dice with K1, K2, K3 faces; the ordered \
throw (a, b, c) resets the counter to 0, any other throw adds its sum; the game ends when \
the counter exceeds n.

Any other game from the command line: --faces gives the dice, --reset each reset \
combination (repeat it), --limit the n:
  alea dice --faces 4,5 --reset 1,1 --reset 4,5 --limit 30",
        "\n\n",
        exit_codes!()
    ))]
pub struct DiceArgs {
    /// Cases in the judge format; standard input when absent or `-`.
    #[arg(conflicts_with = "faces")]
    file: Option<PathBuf>,
    /// The dice of one game, as numbers of faces (1 to 8 dice, 2 to 100 faces each).
    #[arg(long, value_delimiter = ',', value_name = "K1,K2,...")]
    faces: Option<Vec<u32>>,
    /// A throw that resets the counter to 0, one face per die in order (repeatable).
    #[arg(long, value_name = "F1,F2,...", requires = "faces")]
    reset: Vec<String>,
    /// The limit the counter must exceed to end the game.
    #[arg(long, requires = "faces", value_name = "N")]
    limit: Option<u64>,
    /// Expectations as reduced fractions p/q, in exact arithmetic.
    #[arg(long)]
    exact: bool,
    /// One JSON object per game: expected_throws (and expected_throws_exact with --exact,
    /// distribution with --distribution).
    #[arg(long)]
    json: bool,
    /// With --json: the probability that the game is over within t throws, t = 1..K.
    #[arg(long, value_name = "K", requires = "json")]
    distribution: Option<usize>,
    /// The most steps (counters x sums) the whole input may take in floating point;
    /// 10^10 steps take about 20 seconds.
    #[arg(long, default_value_t = 10_000_000_000, value_name = "N")]
    max_work: u64,
    /// The most word operations the whole input may take in exact arithmetic, where
    /// numbers grow with the limit; 2 x 10^9 take a few seconds.
    #[arg(long, default_value_t = 2_000_000_000, value_name = "N")]
    max_exact_work: u64,
    /// The most steps `--distribution` may take over the whole input (throws x states
    /// x sums).
    #[arg(long, default_value_t = 2_000_000_000, value_name = "N")]
    max_distribution_work: u64,
    /// The most memory, in MiB, the tables of `--distribution` may take.
    #[arg(long, default_value_t = 1024, value_name = "MIB")]
    max_distribution_mib: u64,
}

/// One game's answer, in the forms asked for.
struct Answer {
    expected: f64,
    /// The decimal to print: from `f64`, or from the exact value when `f64` could not
    /// hold it.
    text: String,
    exact: Option<Exact>,
    distribution: Option<Vec<f64>>,
}

pub fn run(args: &DiceArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let games = match &args.faces {
        Some(faces) => vec![game_from_flags(args, faces)?],
        None => {
            let input = Input::read(args.file.as_deref())?;
            parse_cases(&input.bytes).map_err(|e| input.error(e))?
        }
    };
    check_limits(args, &games)?;
    let answers: Vec<Answer> = games
        .par_iter()
        .enumerate()
        .map(|(i, g)| answer(args, g, i, games.len()))
        .collect::<Result<_, _>>()?;
    for a in &answers {
        if args.json {
            // Beyond the range of f64 the number is null; the exact fraction and the
            // decimal text carry it.
            let mut o = json!({ "expected_throws": a.expected });
            if let Some(q) = &a.exact {
                o["expected_throws_exact"] = json!(fraction(q));
            }
            if !a.expected.is_finite() {
                o["expected_throws_decimal"] = json!(a.text);
            }
            if let Some(d) = &a.distribution {
                o["distribution"] = json!(d);
            }
            writeln!(out, "{o}")?;
        } else if let Some(q) = a.exact.as_ref().filter(|_| args.exact) {
            writeln!(out, "{}", fraction(q))?;
        } else {
            writeln!(out, "{}", a.text)?;
        }
    }
    Ok(())
}

fn game_from_flags(args: &DiceArgs, faces: &[u32]) -> Result<Game, Failure> {
    let mut resets = Vec::new();
    for text in &args.reset {
        let faces: Result<Vec<u32>, _> = text.split(',').map(|f| f.trim().parse()).collect();
        resets.push(faces.map_err(|_| {
            Failure::bad_input(format!(
                "--reset {text}: expected faces separated by commas, like 1,1"
            ))
        })?);
    }
    let limit = args
        .limit
        .ok_or_else(|| Failure::bad_input("--faces needs --limit N"))?;
    Game::new(faces.to_vec(), resets, limit).map_err(|e| Failure::bad_input(e.to_string()))
}

/// Which game a message is about: nothing when there is one.
fn which(i: usize, of: usize) -> String {
    if of > 1 {
        format!("case {}: ", i + 1)
    } else {
        String::new()
    }
}

/// The guards, on the whole input: time grows with every case.
fn check_limits(args: &DiceArgs, games: &[Game]) -> Result<(), Failure> {
    let of = games.len();
    let (mut work, mut exact_work, mut distribution_work) = (0u64, 0u64, 0u64);
    for (i, g) in games.iter().enumerate() {
        let throw = g.throw();
        let steps = throw.work(g.limit);
        work = work.saturating_add(steps);
        if work > args.max_work {
            let what = if steps <= args.max_work {
                format!("the first {} cases take {work} steps", i + 1)
            } else {
                format!(
                    "{}the limit {} takes {steps} steps ({} counters x {} sums)",
                    which(i, of),
                    g.limit,
                    g.limit.saturating_add(1),
                    throw.sums.len()
                )
            };
            return Err(Failure::limit(format!(
                "{what}, above --max-work {}; raise --max-work to compute it (time grows \
                 linearly with the limit)",
                args.max_work
            )));
        }
        if args.exact {
            exact_work = exact_work.saturating_add(throw.exact_work(g.limit));
            check_exact(args, g, i, of, exact_work)?;
        }
        if let Some(k) = args.distribution {
            distribution_work = distribution_work.saturating_add((k as u64).saturating_mul(steps));
            if distribution_work > args.max_distribution_work {
                return Err(Failure::limit(format!(
                    "{}--distribution {k} would take {distribution_work} steps, above \
                     --max-distribution-work {}; raise it to compute it",
                    which(i, of),
                    args.max_distribution_work
                )));
            }
            // Two tables of the counter's distribution, and the answer as JSON text.
            let bytes = g
                .limit
                .saturating_add(1)
                .saturating_mul(16)
                .saturating_add((k as u64).saturating_mul(32));
            let mib = bytes.div_ceil(1 << 20);
            if mib > args.max_distribution_mib {
                return Err(Failure::limit(format!(
                    "{}--distribution {k} with the limit {} needs about {mib} MiB, above \
                     --max-distribution-mib {}; raise it to compute it",
                    which(i, of),
                    g.limit,
                    args.max_distribution_mib
                )));
            }
        }
    }
    Ok(())
}

/// Checks the exact pass of case `i`, given the exact work of the cases so far.
fn check_exact(args: &DiceArgs, g: &Game, i: usize, of: usize, so_far: u64) -> Result<(), Failure> {
    if so_far > args.max_exact_work {
        let what = if of > 1 && so_far > g.throw().exact_work(g.limit) {
            format!("the first {} cases", i + 1)
        } else {
            format!("{}the limit {}", which(i, of), g.limit)
        };
        return Err(Failure::limit(format!(
            "exact arithmetic for {what} would take about {so_far} word operations, \
             above --max-exact-work {}; raise --max-exact-work to compute it (the numbers \
             grow with the limit)",
            args.max_exact_work
        )));
    }
    Ok(())
}

fn answer(args: &DiceArgs, g: &Game, i: usize, of: usize) -> Result<Answer, Failure> {
    let throw = g.throw();
    let distribution = args.distribution.map(|k| over_within(&throw, g.limit, k));
    if args.exact {
        let q = expected_throws_exact(&throw, g.limit);
        return Ok(Answer {
            expected: q.to_f64(),
            text: decimal(&q, PLACES),
            exact: Some(q),
            distribution,
        });
    }
    let e = expected_throws(&throw, g.limit);
    if e.trusted() {
        return Ok(Answer {
            expected: e.expected,
            text: format!("{:.*}", PLACES as usize, e.expected),
            exact: None,
            distribution,
        });
    }
    // The expectation is beyond what f64 can hold (the chance of finishing without a
    // reset underflowed): compute it exactly when that is affordable, and say so.
    check_exact(args, g, i, of, throw.exact_work(g.limit))?;
    eprintln!(
        "warning: {}the expectation is too large for floating point (the chance of a \
         game without a reset is {:e}); computing it in exact arithmetic",
        which(i, of),
        e.no_reset
    );
    let q = expected_throws_exact(&throw, g.limit);
    Ok(Answer {
        expected: q.to_f64(),
        text: decimal(&q, PLACES),
        // Kept for JSON, where the f64 field cannot hold the value.
        exact: Some(q),
        distribution,
    })
}
