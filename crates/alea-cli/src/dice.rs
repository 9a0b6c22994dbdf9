//! `alea dice`: the One Person Game, from the judge format or for any dice.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use alea_core::fraction;
use alea_games::dice::{analyse, parse_cases, Asked, Game};

use crate::failure::Failure;
use crate::input::Input;

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

pub fn run(args: &DiceArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let games = match &args.faces {
        Some(faces) => vec![game_from_flags(args, faces)?],
        None => {
            let input = Input::read(args.file.as_deref())?;
            parse_cases(&input.bytes).map_err(|e| input.error(e))?
        }
    };
    let asked = Asked {
        exact: args.exact,
        distribution: args.distribution,
        max_work: args.max_work,
        max_exact_work: args.max_exact_work,
        max_distribution_work: args.max_distribution_work,
        max_distribution_mib: args.max_distribution_mib,
    };
    // Said while the exact pass runs: it can take seconds.
    let answers = analyse(&games, &asked, |beyond| {
        eprintln!("warning: {beyond}; computing it in exact arithmetic")
    })
    .map_err(|e| Failure::limit(e.message(option)))?;
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

/// A setting as the command line writes it: the option of the setting the library names
/// `max_work` is `--max-work`, followed by its value when the message shows one. `alea
/// snakes` names its guards the same way.
pub(crate) fn option(name: &str, value: Option<u64>) -> String {
    let flag = format!("--{}", name.replace('_', "-"));
    match value {
        Some(v) => format!("{flag} {v}"),
        None => flag,
    }
}
