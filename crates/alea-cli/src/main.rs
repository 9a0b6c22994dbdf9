//! `alea`: exact odds, expected values and best plays of games of chance.
//!
//! This crate only reads arguments and input, calls the games, and prints: no rule of
//! any game lives here.

/// The exit statuses, at the end of every command's help (a macro, so that commands
/// can `concat!` it after their own text).
macro_rules! exit_codes {
    () => {
        "\
Exit status:
  0  success
  1  an unexpected failure (for example, the output could not be written)
  2  bad input or a bad command line: `error: FILE:LINE:COL: ...` on stderr, nothing on stdout
  3  a resource guard stopped the work; the message names the limit and how to raise it"
    };
}

mod check;
mod cluster;
mod dice;
mod failure;
mod input;
mod jenga;
mod mahjong;
mod patience;
mod pig;
mod progress;
mod serve;
mod show;
mod snakes;
mod solitaire;
mod yahtzee;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use failure::Failure;

#[derive(Debug, Parser)]
#[command(
    name = "alea",
    version,
    about = "Exact odds, expected values and best plays of games of chance",
    long_about = "Exact odds, expected values and best plays of games of chance, by dynamic \
                  programming over game states. Each game reads its judge format (from FILE, \
                  or standard input when FILE is absent or `-`) and answers in the judge's \
                  output format; options go further.",
    after_help = exit_codes!()
)]
struct Cli {
    /// Threads to use, 1 to 256 (default: one per core). Results do not depend on it.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    #[command(subcommand)]
    game: Game,
}

#[derive(Debug, Subcommand)]
enum Game {
    /// Double Patience: the random player's win probability, winnability, best moves.
    Patience(patience::PatienceArgs),
    /// One Person Game: expected throws with resets, exactly, for any dice.
    Dice(dice::DiceArgs),
    /// Colored Jenga: the least expected game length and the best move.
    Jenga(jenga::JengaArgs),
    /// Mahjong: the expected draws to a winning hand, modulo a prime, exactly, in f64.
    Mahjong(mahjong::MahjongArgs),
    /// Yahtzee: the judge's assignment of rounds to categories; the solitaire game
    /// solved, advice, simulation.
    Yahtzee(yahtzee::YahtzeeArgs),
    /// Pig: the first player's chance under best play, advice, the optimal policy.
    Pig(pig::PigArgs),
    /// Snakes and Ladders: the expected number of spins, exactly, on any board.
    Snakes(snakes::SnakesArgs),
    /// Any game in a file: a PRISM-language model's properties, exactly or certified.
    Check(check::CheckArgs),
    /// A local web page for every game and model, and its JSON API.
    Serve(serve::ServeArgs),
}

fn run(cli: &Cli, out: &mut dyn Write) -> Result<(), Failure> {
    if let Some(threads) = cli.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(threads))
            .build_global()
            .map_err(|e| Failure::other(format!("cannot start {threads} threads: {e}")))?;
    }
    match &cli.game {
        Game::Patience(args) => patience::run(args, out),
        Game::Dice(args) => dice::run(args, out),
        Game::Jenga(args) => jenga::run(args, out),
        Game::Mahjong(args) => mahjong::run(args, out),
        Game::Yahtzee(args) => yahtzee::run(args, out),
        Game::Pig(args) => pig::run(args, out),
        Game::Snakes(args) => snakes::run(args, out),
        Game::Check(args) => check::run(args, out),
        Game::Serve(args) => serve::run(args, out),
    }
}

impl Cli {
    /// Whether the command writes to stdout as it goes instead of all at the end.
    fn streams(&self) -> bool {
        match &self.game {
            Game::Patience(args) => args.streams(),
            Game::Dice(_) | Game::Jenga(_) | Game::Mahjong(_) | Game::Yahtzee(_) => false,
            Game::Pig(_) | Game::Snakes(_) => false,
            // Each property's answer as soon as it is known, each a complete line: a
            // later property that fails must not take away answers that took hours.
            Game::Check(_) => true,
            // It prints the address to open, then serves until stopped.
            Game::Serve(_) => true,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = if cli.streams() {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        run(&cli, &mut stdout).and_then(|()| stdout.flush().map_err(Failure::from))
    } else {
        // The whole answer is gathered before anything is printed, so a failure part way
        // leaves stdout empty instead of holding a partial answer that looks complete.
        let mut out = Vec::new();
        run(&cli, &mut out).and_then(|()| {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(&out)
                .and_then(|()| stdout.flush())
                .map_err(Failure::from)
        })
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) if failure.broken_pipe => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::from(failure.code)
        }
    }
}
