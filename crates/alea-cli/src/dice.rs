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
#[command(after_help = "\
Input: T, then T lines `n K1 K2 K3 a b c`: three dice with K1, K2, K3 faces; the ordered \
throw (a, b, c) resets the counter to 0, any other throw adds its sum; the game ends when \
the counter exceeds n.

Any other game from the command line: --faces gives the dice, --reset each reset \
combination (repeat it), --limit the n:
  alea dice --faces 4,5 --reset 1,1 --reset 4,5 --limit 30")]
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
    /// The most steps (counters x sums) a game may take in floating point; 10^10 steps
    /// take about 20 seconds.
    #[arg(long, default_value_t = 10_000_000_000, value_name = "N")]
    max_work: u64,
    /// The most word operations a game may take in exact arithmetic, where numbers grow
    /// with the limit; 2 x 10^9 take a few seconds.
    #[arg(long, default_value_t = 2_000_000_000, value_name = "N")]
    max_exact_work: u64,
    /// The most steps `--distribution` may take (throws x states x sums).
    #[arg(long, default_value_t = 2_000_000_000, value_name = "N")]
    max_distribution_work: u64,
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
    for (i, g) in games.iter().enumerate() {
        check_limits(args, g, i, games.len())?;
    }
    let answers: Vec<Answer> = games
        .par_iter()
        .enumerate()
        .map(|(i, g)| answer(args, g, i, games.len()))
        .collect::<Result<_, _>>()?;
    for a in &answers {
        if args.json {
            let mut o = json!({ "expected_throws": a.expected });
            if let Some(q) = &a.exact {
                o["expected_throws_exact"] = json!(fraction(q));
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

fn check_limits(args: &DiceArgs, g: &Game, i: usize, of: usize) -> Result<(), Failure> {
    let throw = g.throw();
    let work = throw.work(g.limit);
    if work > args.max_work {
        return Err(Failure::limit(format!(
            "{}the limit {} takes {work} steps ({} counters x {} sums), above --max-work {}; \
             raise --max-work to compute it (time grows linearly with the limit)",
            which(i, of),
            g.limit,
            g.limit.saturating_add(1),
            throw.sums.len(),
            args.max_work
        )));
    }
    if args.exact {
        check_exact(args, g, i, of)?;
    }
    if let Some(k) = args.distribution {
        let work = (k as u64).saturating_mul(work);
        if work > args.max_distribution_work {
            return Err(Failure::limit(format!(
                "{}--distribution {k} would take {work} steps, above \
                 --max-distribution-work {}; raise it to compute it",
                which(i, of),
                args.max_distribution_work
            )));
        }
    }
    Ok(())
}

fn check_exact(args: &DiceArgs, g: &Game, i: usize, of: usize) -> Result<(), Failure> {
    let work = g.throw().exact_work(g.limit);
    if work > args.max_exact_work {
        return Err(Failure::limit(format!(
            "{}exact arithmetic for the limit {} would take about {work} word operations, \
             above --max-exact-work {}; raise --max-exact-work to compute it (the numbers \
             grow with the limit)",
            which(i, of),
            g.limit,
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
    check_exact(args, g, i, of)?;
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
        exact: None,
        distribution,
    })
}
