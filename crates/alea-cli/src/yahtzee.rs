//! `alea yahtzee`: the judge's category assignment, and the whole solitaire game (see
//! [`crate::solitaire`]).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use rayon::prelude::*;
use serde_json::json;

use alea_games::yahtzee::{best_assignment, parse_games, Assignment, CATEGORIES};

use crate::failure::Failure;
use crate::input::Input;
use crate::progress;
use crate::solitaire::{
    run_advise, run_distribution, run_simulate, run_solve, AdviseArgs, DistributionArgs,
    SimulateArgs, SolveArgs,
};

#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = concat!(
        "\
Input: whitespace-separated dice (1 to 6) in any layout, 65 a game (13 rounds of five), \
games until the end of the input; the usual layout is a round per line. Output per game: the 13 category scores (ones to sixes, chance, three of a kind, \
four of a kind, five of a kind, short straight, long straight, full house), the bonus and \
the total, for an assignment with the largest total.",
        "\n\n",
        exit_codes!()
    )
)]
pub struct YahtzeeArgs {
    #[command(subcommand)]
    action: Option<Action>,
    /// Games in the judge format; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Score a full house only for three of one value and two of another (by default
    /// five of a kind is a full house too).
    #[arg(long)]
    strict_full_house: bool,
    /// One JSON object per game: scores, bonus, total, and rounds (the 1-based round
    /// assigned to each category).
    #[arg(long)]
    json: bool,
}

/// The solitaire game: thirteen turns of up to three rolls, American scoring.
#[derive(Debug, Subcommand)]
enum Action {
    /// Solve the whole solitaire game for the largest expected score.
    Solve(SolveArgs),
    /// The value of a position and of every option from it, best first.
    Advise(AdviseArgs),
    /// Play whole games optimally with seeded dice: mean, spread, percentiles.
    Simulate(SimulateArgs),
    /// The distribution of the final score under optimal play from a position: a
    /// seeded simulation (exact with few boxes open), percentiles, targets, histogram.
    Distribution(DistributionArgs),
}

pub fn run(args: &YahtzeeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    match &args.action {
        Some(Action::Solve(a)) => return run_solve(a, out),
        Some(Action::Advise(a)) => return run_advise(a, out),
        Some(Action::Simulate(a)) => return run_simulate(a, out),
        Some(Action::Distribution(a)) => return run_distribution(a, out),
        None => {}
    }
    let input = Input::read(args.file.as_deref())?;
    let games = parse_games(&input.bytes).map_err(|e| input.error(e))?;
    let bar = progress::bar(games.len() as u64, "games");
    let assignments: Vec<Assignment> = games
        .par_iter()
        .map(|g| {
            let a = best_assignment(g, args.strict_full_house);
            bar.inc(1);
            a
        })
        .collect();
    bar.finish_and_clear();
    for a in &assignments {
        if args.json {
            let by_name: serde_json::Map<String, serde_json::Value> = CATEGORIES
                .iter()
                .zip(&a.scores)
                .map(|(name, s)| (name.to_string(), json!(s)))
                .collect();
            let o = json!({
                "scores": a.scores,
                "bonus": a.bonus,
                "total": a.total,
                "rounds": a.rounds.map(|r| r + 1),
                "by_category": by_name,
            });
            writeln!(out, "{o}")?;
        } else {
            let mut line = String::with_capacity(64);
            for s in a.scores.iter().chain([&a.bonus, &a.total]) {
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(&s.to_string());
            }
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}
