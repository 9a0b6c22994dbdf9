//! `alea`: exact odds, expected values and best plays of games of chance.
//!
//! This crate only reads arguments and input, calls the games, and prints: no rule of
//! any game lives here.

mod failure;
mod input;
mod patience;
mod progress;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use failure::Failure;

const EXIT_CODES: &str = "\
Exit status:
  0  success
  1  an unexpected failure (for example, the output could not be written)
  2  bad input or a bad command line: `error: FILE:LINE:COL: ...` on stderr, nothing on stdout
  3  a resource guard stopped the work; the message names the limit and how to raise it";

#[derive(Debug, Parser)]
#[command(
    name = "alea",
    version,
    about = "Exact odds, expected values and best plays of games of chance",
    long_about = "Exact odds, expected values and best plays of games of chance, by dynamic \
                  programming over game states. Each game reads its judge format (from FILE, \
                  or standard input when FILE is absent or `-`) and answers it byte for byte; \
                  options go further.",
    after_help = EXIT_CODES
)]
struct Cli {
    /// Threads to use (default: one per core). Results do not depend on it.
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
    #[command(subcommand)]
    game: Game,
}

#[derive(Debug, Subcommand)]
enum Game {
    /// Double Patience: the random player's win probability, winnability, best moves.
    #[command(after_help = EXIT_CODES)]
    Patience(patience::PatienceArgs),
}

fn run(cli: &Cli, out: &mut Vec<u8>) -> Result<(), Failure> {
    if let Some(threads) = cli.threads {
        if threads == 0 {
            return Err(Failure::bad_input("--threads must be at least 1"));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .map_err(|e| Failure::other(format!("cannot start {threads} threads: {e}")))?;
    }
    match &cli.game {
        Game::Patience(args) => patience::run(args, out),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The whole answer is gathered before anything is printed, so a failure part way
    // leaves stdout empty instead of holding a partial answer that looks complete.
    let mut out = Vec::new();
    match run(&cli, &mut out) {
        Ok(()) => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(&out).and_then(|()| stdout.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe (`alea ... | head`) is the reader's choice, not a failure.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write the output: {e}");
                    ExitCode::from(failure::OTHER)
                }
            }
        }
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::from(failure.code)
        }
    }
}
