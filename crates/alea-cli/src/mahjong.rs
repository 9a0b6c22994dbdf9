//! `alea mahjong`: the expected number of draws to a winning hand, modulo the judge's
//! prime, as a fraction, and in floating point.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use alea_core::{fraction, Value};
use alea_games::mahjong::{parse_hand, Solver};

use crate::failure::Failure;
use crate::input::Input;
use crate::progress;

#[derive(Debug, Args)]
#[command(after_help = concat!(
        "\
Input: whitespace-separated numbers in any layout: n (5 to 1000 ranks, four copies each), then the 13 tiles of the hand as `w t`: copy t (1 to 4) of rank w (1 to n). A hand wins with four melds (three alike, \
or three ranks in a row) and a pair, or with seven pairs of different ranks. Output: the \
expected number of tiles drawn from the shuffled wall until the hand holds a winning \
set, as x * y^-1 modulo 998244353 for the reduced fraction x/y.",
        "\n\n",
        exit_codes!()
    ))]
pub struct MahjongArgs {
    /// The hand, in the judge format; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Print the expectation as a reduced fraction p/q (exact arithmetic: about 2.5 s
    /// at 400 ranks, 20 to 40 s at 1000).
    #[arg(long)]
    exact: bool,
    /// One JSON object: expected_draws_mod_p, expected_draws (f64), p_not_won (for i
    /// draws, i = 0 to 4n - 13), automaton_states (explored and minimal); with
    /// --exact, expected_draws_exact too.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &MahjongArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let input = Input::read(args.file.as_deref())?;
    let hand = parse_hand(&input.bytes).map_err(|e| input.error(e))?;
    let solver = Solver::new();
    let exact = args.exact.then(|| {
        let bar = progress::bar(Solver::primes_needed(&hand) as u64, "primes");
        let e = solver.expected_exact_with_progress(&hand, &|| bar.inc(1));
        bar.finish_and_clear();
        e
    });
    if args.json {
        let p_not_won = solver.p_not_won(&hand);
        let mut o = json!({
            "ranks": hand.ranks(),
            "expected_draws_mod_p": solver.expected_mod_p(&hand).residue(),
            // From the exact fraction when there is one: the sum of rounded terms is
            // only close to it.
            "expected_draws": exact.as_ref().map_or_else(|| p_not_won.iter().sum::<f64>(), Value::to_f64),
            "p_not_won": p_not_won,
            "automaton_states": {
                "explored": solver.explored_states,
                "minimal": solver.minimal_states,
            },
        });
        if let Some(e) = &exact {
            o["expected_draws_exact"] = json!(fraction(e));
        }
        writeln!(out, "{o}")?;
        return Ok(());
    }
    match exact {
        Some(e) => writeln!(out, "{}", fraction(&e))?,
        None => writeln!(out, "{}", solver.expected_mod_p(&hand))?,
    }
    Ok(())
}
