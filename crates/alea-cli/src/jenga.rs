//! `alea jenga`: Colored Jenga, the least expected game length and the best move.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::{json, Map, Value as Json};

use alea_core::Exact;
use alea_games::jenga::{
    advise, parse_tower, solve_tower, Advice, EngineStop, Kernel, Stop, Tower, ALWAYS_FITS,
    COLOURS, MAX_LEVELS,
};

use crate::failure::Failure;
use crate::input::Input;
use crate::show::{table, Shown};

/// Decimal places printed (the judge asks for at least 12).
const PLACES: usize = 15;

#[derive(Debug, Args)]
#[command(after_help = concat!(
        "\
Input: whitespace-separated, in any layout: n, then n levels, each three letters from R, \
G, B (left, middle, right), bottom to top: the last level is the top. Towers of 2 to \
1000 levels are read; past 8 or 9 levels the positions outgrow the default \
--max-states, and the command stops with exit status 3 naming it.",
        "\n\n",
        exit_codes!()
    ))]
pub struct JengaArgs {
    /// The tower, in the judge format; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// The expectation as a reduced fraction p/q (exact arithmetic).
    #[arg(long)]
    exact: bool,
    /// JSON: expected_minutes and states (canonical positions stored).
    #[arg(long)]
    json: bool,
    /// Every legal move of each colour with the expected minutes left after it, best
    /// first.
    #[arg(long)]
    hint: bool,
    /// The most positions stored before giving up (exit status 3). With --exact or
    /// --hint the limit counts the choice nodes between positions too, about four nodes
    /// a position, each holding its value (a fraction with --exact).
    #[arg(long, default_value_t = 5_000_000, value_name = "N")]
    max_states: usize,
}

pub fn run(args: &JengaArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let input = Input::read(args.file.as_deref())?;
    let tower = parse_tower(&input.bytes).map_err(|e| input.error(e))?;
    if args.hint || args.exact {
        return if args.exact {
            with_engine::<Exact>(&tower, args, out)
        } else {
            with_engine::<f64>(&tower, args, out)
        };
    }
    let (expected, states) = Kernel::new(args.max_states)
        .expected(&tower)
        .map_err(stopped)?;
    if args.json {
        writeln!(
            out,
            "{}",
            json!({ "expected_minutes": expected, "states": states })
        )?;
    } else {
        writeln!(out, "{expected:.PLACES$}")?;
    }
    Ok(())
}

fn stopped(stop: Stop) -> Failure {
    match stop {
        Stop::TooManyPositions(limit) => Failure::limit(format!(
            "the tower needs more than {limit} positions; raise --max-states to go on \
             (each position takes about 100 bytes)"
        )),
        Stop::TooTall => Failure::limit(format!(
            "the tower would come to hold more than 30 levels of one kind (by colours, up \
             to mirror image), more than a position of this solver records, and no option \
             raises that; towers of up to {ALWAYS_FITS} levels always fit, taller ones (up \
             to the {MAX_LEVELS} read) only while no kind grows so large"
        )),
    }
}

fn with_engine<V: Shown>(
    tower: &Tower,
    args: &JengaArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    // The engine also stores a choice node per colour of a position: the limit counts
    // those too, so that exact fractions cannot take many times the memory.
    let solved = solve_tower::<V>(tower, args.max_states).map_err(|e| match e {
        EngineStop::Kernel(stop) => stopped(stop),
        EngineStop::Engine(alea_core::Error::TooManyStates { .. }) => Failure::limit(format!(
            "the tower needs more than {} positions and choice nodes; raise --max-states \
             to go on",
            args.max_states
        )),
        EngineStop::Engine(other) => other.into(),
    })?;
    let expected = solved.expected();
    if !args.hint {
        if args.json {
            let mut o = json!({
                "expected_minutes": expected.to_f64(),
                "states": solved.positions(),
            });
            if let Some(q) = expected.exact_text() {
                o["expected_minutes_exact"] = json!(q);
            }
            writeln!(out, "{o}")?;
        } else {
            writeln!(out, "{}", expected.text(PLACES))?;
        }
        return Ok(());
    }

    let advice = advise(tower, &solved);
    if args.json {
        let mut colours = Map::new();
        for (c, moves) in advice.iter().enumerate() {
            let list: Vec<Json> = moves.iter().map(move_json).collect();
            colours.insert(COLOURS[c].to_string(), Json::Array(list));
        }
        let mut o = json!({
            "expected_minutes": expected.to_f64(),
            "states": solved.positions(),
            "colors": colours,
        });
        if let Some(q) = expected.exact_text() {
            o["expected_minutes_exact"] = json!(q);
        }
        writeln!(out, "{o}")?;
        return Ok(());
    }
    writeln!(
        out,
        "expected minutes with best play: {}",
        expected.text(PLACES)
    )?;
    for (c, moves) in advice.iter().enumerate() {
        writeln!(out)?;
        writeln!(out, "{}: {}", COLOURS[c], plural(moves.len()))?;
        if moves.is_empty() {
            continue;
        }
        let rows: Vec<[String; 3]> = moves
            .iter()
            .map(|m| {
                [
                    format!("level {} {}", m.level, m.slot),
                    m.place.to_string(),
                    m.expected.text(PLACES),
                ]
            })
            .collect();
        table(out, ["take", "place on top", "expected after"], &rows)?;
    }
    Ok(())
}

fn plural(moves: usize) -> String {
    match moves {
        0 => "no legal move (the minute passes)".to_string(),
        1 => "1 legal move".to_string(),
        n => format!("{n} legal moves, best first"),
    }
}

fn move_json<V: Shown>(m: &Advice<V>) -> Json {
    let mut o = json!({
        "take": { "level": m.level, "slot": m.slot },
        "place": m.place,
        "expected": m.expected.to_f64(),
    });
    if let Some(q) = m.expected.exact_text() {
        o["expected_exact"] = json!(q);
    }
    o
}
