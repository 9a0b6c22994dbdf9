//! `alea patience`: Double Patience deals from the judge format, and random deals.

use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use rayon::prelude::*;
use serde_json::{json, Value as Json};

use alea_core::{fraction, Exact};
use alea_games::patience::{
    analyse, hints, judge_tableaus, parse_deals_in, push_fixed6_line, random_play, random_play_all,
    random_play_tableaus, stats, Analysis, Deal, DealBlocks, DealFigures, Layout, MoveHint,
    RandomDeals, Stats, Sums, BINS, BLOCK_DEALS,
};

use alea_cluster::batch::{self, Blocks};
use alea_cluster::fingerprint;

use crate::cluster::{self, ClusterArgs};
use crate::failure::Failure;
use crate::input::Input;
use crate::progress;
use crate::show::{table, Shown};

#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = concat!(
        "Input: two layouts. A deal of 36 cards (rank 6789TJQKA, suit SHDC, like TD) is \
                  read as whitespace-separated cards in any layout, four to a pile, bottom \
                  to top, pile after pile: the judge's format. A position in progress, \
                  where a pile may hold fewer than four cards, is written one pile per \
                  line, cards bottom to top, nine lines a deal, `-` for an empty pile. \
                  With --layout auto an input is read by cards when it is whole deals that \
                  way (every token a card, 36 different cards a deal), and one pile per \
                  line otherwise; a fresh deal written a pile a line reads the same both \
                  ways.",
        "\n\n",
        exit_codes!()
    )
)]
pub struct PatienceArgs {
    #[command(subcommand)]
    action: Option<Action>,
    /// Deals to solve, in the judge format; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Print each probability as a reduced fraction p/q (exact arithmetic).
    #[arg(long)]
    exact: bool,
    /// One JSON object per deal: random_play, solvable, winning_line, states.
    #[arg(long)]
    json: bool,
    /// For each legal move: the random player's chance after it and whether the deal
    /// stays winnable, best first.
    #[arg(long)]
    hint: bool,
    /// How deals are laid out: by cards in any layout (36 a deal), one pile per line,
    /// or auto (by cards when the whole input reads so, else one pile per line).
    #[arg(long, value_enum, default_value = "auto")]
    layout: LayoutArg,
}

/// `--layout`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum LayoutArg {
    Auto,
    Tokens,
    Lines,
}

impl From<LayoutArg> for Layout {
    fn from(layout: LayoutArg) -> Layout {
        match layout {
            LayoutArg::Auto => Layout::Auto,
            LayoutArg::Tokens => Layout::Tokens,
            LayoutArg::Lines => Layout::Lines,
        }
    }
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Shuffle random deals and report how the random player fares on them.
    Stats(StatsArgs),
    /// Print random deals in the judge format (the deals `stats` uses for a seed).
    Shuffle(ShuffleArgs),
}

#[derive(Debug, Args)]
#[command(after_help = exit_codes!())]
struct StatsArgs {
    /// How many deals to shuffle.
    #[arg(long, default_value_t = 1000)]
    deals: usize,
    /// The most deals one call may shuffle.
    #[arg(long, default_value_t = DEFAULT_MAX_DEALS, value_name = "N")]
    max_deals: usize,
    /// The seed of the shuffles: the same seed gives the same deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One JSON object instead of the report.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    cluster: ClusterArgs,
}

#[derive(Debug, Args)]
#[command(after_help = exit_codes!())]
struct ShuffleArgs {
    /// How many deals to print.
    #[arg(long, default_value_t = 1)]
    deals: usize,
    /// The most deals one call may shuffle.
    #[arg(long, default_value_t = DEFAULT_MAX_DEALS, value_name = "N")]
    max_deals: usize,
    /// The seed of the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Ten million deals take about five minutes to analyse on two cores.
const DEFAULT_MAX_DEALS: usize = 10_000_000;

fn check_deals(deals: usize, max: usize) -> Result<(), Failure> {
    if deals > max {
        return Err(Failure::limit(format!(
            "--deals {deals} is above --max-deals {max}; raise --max-deals to go on"
        )));
    }
    Ok(())
}

impl PatienceArgs {
    /// Whether the output goes straight to stdout as it is made: only `shuffle`, whose
    /// output can be far larger than memory and cannot fail part way for bad input.
    pub fn streams(&self) -> bool {
        matches!(self.action, Some(Action::Shuffle(_)))
    }
}

pub fn run(args: &PatienceArgs, out: &mut dyn Write) -> Result<(), Failure> {
    match &args.action {
        Some(Action::Stats(s)) => return run_stats(s, out),
        Some(Action::Shuffle(s)) => {
            check_deals(s.deals, s.max_deals)?;
            for deal in RandomDeals::new(s.seed).take(s.deals) {
                write!(out, "{deal}")?;
            }
            return Ok(());
        }
        None => {}
    }
    let input = Input::read(args.file.as_deref())?;
    if !(args.exact || args.json || args.hint || matches!(args.layout, LayoutArg::Lines)) {
        // The judge's own question on the judge's own layout, the common case by far:
        // read by ranks in one pass, with no deal built card by card. Anything else in
        // the input is read in full below, which reads it the same way or says why not.
        if let Some(tableaus) = judge_tableaus(&input.bytes) {
            let bar = progress::bar(tableaus.len() as u64, "deals");
            let solved = random_play_tableaus(&tableaus, &|| bar.inc(1));
            bar.finish_and_clear();
            let mut text = Vec::with_capacity(9 * solved.len());
            for p in solved {
                push_fixed6_line(&mut text, p);
            }
            out.write_all(&text)?;
            return Ok(());
        }
    }
    let deals = parse_deals_in(&input.bytes, args.layout.into()).map_err(|e| input.error(e))?;
    let bar = progress::bar(deals.len() as u64, "deals");
    let tick = || bar.inc(1);
    let result = solve_and_write(&deals, args, &tick, out);
    bar.finish_and_clear();
    result
}

fn solve_and_write(
    deals: &[Deal],
    args: &PatienceArgs,
    tick: &(dyn Fn() + Sync),
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if args.hint {
        return run_hints(deals, args, tick, out);
    }
    if args.json {
        return run_json(deals, args.exact, tick, out);
    }
    if args.exact {
        let exact: Vec<Exact> = deals
            .par_iter()
            .map(|d| {
                let p = random_play::<Exact>(d).map(|(p, _)| p);
                tick();
                p
            })
            .collect::<Result<_, _>>()?;
        for p in &exact {
            writeln!(out, "{}", fraction(p))?;
        }
        return Ok(());
    }
    let mut text = Vec::with_capacity(9 * deals.len());
    for p in random_play_all(deals, tick)? {
        push_fixed6_line(&mut text, p);
    }
    out.write_all(&text)?;
    Ok(())
}

fn moves_json(line: &[(usize, usize)]) -> Json {
    Json::Array(line.iter().map(|&(a, b)| json!([a, b])).collect())
}

fn run_json(
    deals: &[Deal],
    exact: bool,
    tick: &(dyn Fn() + Sync),
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let objects: Vec<Json> = deals
        .par_iter()
        .map(|deal| {
            let a = analyse::<f64>(deal)?;
            let mut o = json!({
                "random_play": a.random_play,
                "solvable": a.solvable,
                "winning_line": a.winning_line.as_deref().map(moves_json),
                "states": a.states,
                "cards": deal.cards(),
            });
            if exact {
                let (q, _) = random_play::<Exact>(deal)?;
                o["random_play_exact"] = json!(fraction(&q));
            }
            tick();
            Ok(o)
        })
        .collect::<Result<_, Failure>>()?;
    for o in objects {
        writeln!(out, "{o}")?;
    }
    Ok(())
}

fn run_hints(
    deals: &[Deal],
    args: &PatienceArgs,
    tick: &(dyn Fn() + Sync),
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if args.exact {
        write_hints::<Exact>(deals, args.json, tick, out)
    } else {
        write_hints::<f64>(deals, args.json, tick, out)
    }
}

fn write_hints<V: Shown>(
    deals: &[Deal],
    json: bool,
    tick: &(dyn Fn() + Sync),
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let hinted: Vec<(Analysis<V>, Vec<MoveHint<V>>)> = deals
        .par_iter()
        .map(|deal| {
            let hinted = (analyse::<V>(deal)?, hints::<V>(deal)?);
            tick();
            Ok(hinted)
        })
        .collect::<Result<_, Failure>>()?;

    for (i, (a, moves)) in hinted.iter().enumerate() {
        if json {
            let moves: Vec<Json> = moves
                .iter()
                .map(|m| {
                    let mut o = json!({
                        "piles": [m.piles.0, m.piles.1],
                        "random_play": m.random_play.to_f64(),
                        "loss": m.loss.to_f64(),
                        "solvable": m.solvable,
                    });
                    if let Some(q) = m.random_play.exact_text() {
                        o["random_play_exact"] = json!(q);
                    }
                    o
                })
                .collect();
            let mut o = json!({
                "random_play": a.random_play.to_f64(),
                "solvable": a.solvable,
                "states": a.states,
                "moves": moves,
            });
            if let Some(q) = a.random_play.exact_text() {
                o["random_play_exact"] = json!(q);
            }
            writeln!(out, "{o}")?;
            continue;
        }
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(
            out,
            "deal {}: the random player wins with probability {}; the deal is {}",
            i + 1,
            a.random_play.text(6),
            if a.solvable {
                "winnable"
            } else {
                "not winnable"
            }
        )?;
        if moves.is_empty() {
            writeln!(out, "  no legal move")?;
            continue;
        }
        let rows: Vec<[String; 4]> = moves
            .iter()
            .map(|m| {
                [
                    format!("{} {}", m.piles.0, m.piles.1),
                    m.random_play.text(6),
                    m.loss.text(6),
                    (if m.solvable { "yes" } else { "no" }).to_string(),
                ]
            })
            .collect();
        table(out, ["piles", "random play", "loss", "winnable"], &rows)?;
    }
    Ok(())
}

fn run_stats(args: &StatsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    check_deals(args.deals, args.max_deals)?;
    let Some(s) = figures(args)? else {
        // Another process of the cluster: process 0 prints.
        return Ok(());
    };
    if args.json {
        let histogram: Vec<Json> = (0..BINS)
            .map(|b| {
                json!({
                    "from": b as f64 / BINS as f64,
                    "to": (b + 1) as f64 / BINS as f64,
                    "deals": s.histogram[b],
                })
            })
            .collect();
        let o = json!({
            "deals": s.deals,
            "seed": args.seed,
            "mean_random_play": s.mean_random_play,
            "std_dev": s.std_dev,
            "half_width_95": s.half_width_95(),
            "winnable": s.winnable,
            "winnable_share": s.winnable_share(),
            "histogram": histogram,
        });
        writeln!(out, "{o}")?;
        return Ok(());
    }
    write_report(&s, args.seed, out)
}

/// The figures of the deals, on this process or on the cluster of `--cluster`: `None`
/// on the cluster's processes but 0.
fn figures(args: &StatsArgs) -> Result<Option<Stats>, Failure> {
    let deals = args.deals as u64;
    // What changes the figures: processes that disagree on it are refused.
    let job = fingerprint(&[
        env!("CARGO_PKG_VERSION").as_bytes(),
        b"patience stats",
        &deals.to_le_bytes(),
        &args.seed.to_le_bytes(),
    ]);
    let Some(cluster) = args.cluster.cluster(job)? else {
        let bar = progress::bar(deals, "deals");
        let s = stats(args.deals, args.seed, &|| bar.inc(1))?;
        bar.finish_and_clear();
        return Ok(Some(s));
    };
    let bar = cluster::bar(&cluster, deals, "deals");
    let shown = bar.clone();
    let seed = args.seed;
    // The figures of every deal as `stats` gives them, to the bit, on process 0.
    let s = batch::on_cluster(&cluster, move |worker| {
        let blocks = Blocks::of(deals, *BLOCK_DEALS.start(), *BLOCK_DEALS.end());
        let mut mine = DealBlocks::new(seed);
        let solve = |range: Range<u64>| mine.solve(range).map_err(|e| e.to_string());
        let merge = |sums: &mut Sums, range: Range<u64>, figures: DealFigures| {
            sums.add(&figures.into());
            shown.inc(range.end - range.start);
        };
        let sums = batch::run_blocks(worker, blocks, solve, Sums::default(), merge)?;
        Ok(sums.map(|s| s.stats()))
    })
    .map_err(cluster::failure)?;
    bar.finish_and_clear();
    Ok(s)
}

fn write_report(s: &Stats, seed: u64, out: &mut dyn Write) -> Result<(), Failure> {
    writeln!(out, "deals                {} (seed {seed})", s.deals)?;
    let interval = match s.half_width_95() {
        Some(h) => format!("95% interval +- {h:.6}"),
        None => "no interval from fewer than two deals".to_string(),
    };
    writeln!(
        out,
        "random player wins   {:.6} on average ({interval}, std dev {:.6})",
        s.mean_random_play, s.std_dev
    )?;
    writeln!(
        out,
        "winnable deals       {} ({:.2}%)",
        s.winnable,
        100.0 * s.winnable_share()
    )?;
    writeln!(out, "random player's win probability per deal:")?;
    let widest = s.histogram.iter().copied().max().unwrap_or(0).max(1);
    for (b, &n) in s.histogram.iter().enumerate() {
        let bar = "#".repeat((n * 50).div_ceil(widest));
        let close = if b + 1 == BINS { ']' } else { ')' };
        writeln!(
            out,
            "  [{:.1}, {:.1}{close} {n:>7}  {bar}",
            b as f64 / BINS as f64,
            (b + 1) as f64 / BINS as f64
        )?;
    }
    Ok(())
}
