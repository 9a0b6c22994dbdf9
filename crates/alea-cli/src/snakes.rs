//! `alea snakes`: Snakes and Ladders for one player, on the classic board or on a board
//! read from a file: the expected number of spins, exactly, and how long games last.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::json;

use alea_core::fraction;
use alea_games::snakes::{
    analyse, parse_board, squares_position, Analysis, AnalysisError, Asked, Board, GameError,
    Overshoot, Rules, SolveError,
};
use alea_games::ParseError;

use crate::dice::option;
use crate::failure::Failure;
use crate::input::Input;

#[derive(Debug, Args)]
#[command(after_help = concat!(
        "\
Input: a board file (FILE, or standard input for `-`); without FILE, the board named by \
--board (the classic 100-square board). A board file is whitespace-separated words in any \
layout: the number of squares N (2 to 10000), then any number of entries `ladder FROM TO` \
(FROM below TO) and `snake FROM TO` (FROM above TO), squares numbered 1 to N. `#` starts a \
comment that runs to the end of its line. At most one snake or ladder starts on a square, \
no snake starts on the last square, and none ends where another starts (chains are \
refused: point the first at where the chain ends). Every square the counter can reach must \
be able to go on to the last square; otherwise the expected number of spins is infinite \
and the board is refused.

The player starts off the board (square 0) and spins 1 to 6 (--spinner) each turn; the \
game ends on reaching square N. Output: the expected number of spins, with 15 decimals, \
rounded from the exact value when exact arithmetic is within --max-exact-work (the classic \
board and most boards of up to a few hundred squares), from floating point otherwise.
  alea snakes
  alea snakes --overshoot bounce --exact
  alea snakes board.txt --json --distribution 200",
        "\n\n",
        exit_codes!()
    ))]
pub struct SnakesArgs {
    /// A board file (`-` for standard input); without it, the board named by --board.
    file: Option<PathBuf>,
    /// The built-in board to play when no FILE is given.
    #[arg(long, value_enum, default_value = "classic", conflicts_with = "file")]
    board: BoardName,
    /// The spinner shows 1 to N, each equally likely (2 to 100).
    #[arg(long, default_value_t = 6, value_name = "N",
          value_parser = clap::value_parser!(u32).range(2..=100))]
    spinner: u32,
    /// A spin that would pass the last square: `stay` does not move (the classic rule),
    /// `bounce` goes back by the excess, `finish` wins.
    #[arg(long, value_enum, default_value = "stay")]
    overshoot: OvershootArg,
    /// Print the expectation as a reduced fraction p/q.
    #[arg(long)]
    exact: bool,
    /// One JSON object: expected_spins, squares, spinner, overshoot (and
    /// expected_spins_exact with --exact, distribution with --distribution).
    #[arg(long)]
    json: bool,
    /// With --json: the probability that the game is over within t spins, t = 1..T.
    #[arg(long, value_name = "T", requires = "json")]
    distribution: Option<usize>,
    /// The most work exact arithmetic may take, in units of about 0.3 microseconds (the
    /// classic board takes 170,000; the default, a few seconds): within it the answer is
    /// computed exactly, beyond it in floating point, and --exact stops.
    #[arg(long, default_value_t = 10_000_000, value_name = "N")]
    max_exact_work: u64,
    /// The most steps `--distribution` may take (spins x squares x faces).
    #[arg(long, default_value_t = 2_000_000_000, value_name = "N")]
    max_distribution_work: u64,
    /// The most memory, in MiB, the tables of `--distribution` may take.
    #[arg(long, default_value_t = 1024, value_name = "MIB")]
    max_distribution_mib: u64,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum BoardName {
    /// The classic 100-square Milton Bradley board: 9 ladders, 10 snakes.
    Classic,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum OvershootArg {
    Stay,
    Bounce,
    Finish,
}

impl From<OvershootArg> for Overshoot {
    fn from(o: OvershootArg) -> Self {
        match o {
            OvershootArg::Stay => Overshoot::Stay,
            OvershootArg::Bounce => Overshoot::Bounce,
            OvershootArg::Finish => Overshoot::Finish,
        }
    }
}

/// Where the board came from, to place errors about it.
enum Source {
    Builtin(BoardName),
    File(Input),
}

impl Source {
    /// An error about the board as a whole: in a file, at its number of squares.
    fn error(&self, message: String) -> Failure {
        match self {
            Source::Builtin(BoardName::Classic) => {
                Failure::bad_input(format!("the classic board: {message}"))
            }
            Source::File(input) => {
                let (line, col) = squares_position(&input.bytes);
                input.error(ParseError::at(line, col, message))
            }
        }
    }
}

pub fn run(args: &SnakesArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (board, source) = match &args.file {
        Some(path) => {
            let input = Input::read(Some(path))?;
            let board = parse_board(&input.bytes).map_err(|e| input.error(e))?;
            (board, Source::File(input))
        }
        None => match args.board {
            BoardName::Classic => (Board::classic(), Source::Builtin(args.board)),
        },
    };
    let rules = Rules {
        spinner: args.spinner,
        overshoot: args.overshoot.into(),
    };
    let asked = Asked {
        exact: args.exact,
        distribution: args.distribution,
        max_exact_work: args.max_exact_work,
        max_distribution_work: args.max_distribution_work,
        max_distribution_mib: args.max_distribution_mib,
    };
    let Analysis {
        expected,
        text,
        exact,
        distribution,
    } = analyse(&board, &rules, &asked).map_err(|e| match e {
        AnalysisError::Solve(e) => failure(e, &source),
        AnalysisError::Limit(e) => Failure::limit(e.message(option)),
    })?;

    if args.json {
        // Beyond the range of f64 the number is null; the decimal text carries it.
        let mut o = json!({ "expected_spins": expected });
        if !expected.is_finite() {
            o["expected_spins_decimal"] = json!(text);
        }
        if let Some(q) = exact.as_ref().filter(|_| args.exact) {
            o["expected_spins_exact"] = json!(fraction(q));
        }
        o["squares"] = json!(board.squares());
        o["spinner"] = json!(rules.spinner);
        o["overshoot"] = json!(rules.overshoot.name());
        if let Some(d) = &distribution {
            o["distribution"] = json!(d);
        }
        writeln!(out, "{o}")?;
    } else if let Some(q) = exact.as_ref().filter(|_| args.exact) {
        writeln!(out, "{}", fraction(q))?;
    } else {
        writeln!(out, "{text}")?;
    }
    Ok(())
}

/// A board that cannot be played is bad input; the engine's own failures keep their
/// statuses.
fn failure(e: SolveError, source: &Source) -> Failure {
    match e {
        SolveError::Game(e @ GameError::NeverFinishes { .. }) => source.error(e.to_string()),
        SolveError::Game(e) => Failure::bad_input(e.to_string()),
        SolveError::Engine(e @ alea_core::Error::NeverEnds(_)) => source.error(e.to_string()),
        SolveError::Engine(e) => Failure::from(e),
    }
}
