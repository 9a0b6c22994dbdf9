//! `alea yahtzee solve | advise | simulate | distribution`: the whole solitaire game,
//! solved for the largest expected score, advice for any position, optimal games with
//! seeded dice, and the distribution of the final score.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde_json::{json, Value as Json};

use alea_games::yahtzee::solitaire::{
    self, advise, check_games, check_room, distribution, exact_score, parse_dice, parse_targets,
    plays_games, score_distribution, service, simulate_from, simulate_range, solve_with_progress,
    Advice, Bin, Book, Card, Choice, Dice, ExactScore, Kept, Player, Rules, Scores, Start, Table,
    TooManyGames, BLOCK_GAMES, BOXES,
};

use alea_cluster::batch::{self, Blocks};
use alea_cluster::fingerprint;

use crate::cluster::{self, ClusterArgs};
use crate::dice::option;
use crate::failure::Failure;
use crate::progress;
use crate::show;

/// The joker rule, by its name on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// With the Yahtzee box filled, a Yahtzee may go in any open box; once the upper
    /// box of its face is filled too, full house and straights take it at 25/30/40.
    FreeJoker,
    /// The official order: the matching upper box if open, else any open lower box
    /// at joker values, else a zero in an upper box.
    ForcedJoker,
    /// The 100 bonus for further Yahtzees, but no joker.
    NoJoker,
    /// Neither the 100 bonus nor the joker.
    NoBonus,
}

impl From<RulesArg> for Rules {
    fn from(r: RulesArg) -> Rules {
        match r {
            RulesArg::FreeJoker => Rules::FreeJoker,
            RulesArg::ForcedJoker => Rules::ForcedJoker,
            RulesArg::NoJoker => Rules::NoJoker,
            RulesArg::NoBonus => Rules::NoBonus,
        }
    }
}

#[derive(Debug, Args)]
#[command(after_help = exit_codes!())]
pub struct SolveArgs {
    /// The joker rule.
    #[arg(long, value_enum, default_value = "free-joker")]
    rules: RulesArg,
    /// Write the solved table to FILE, for `advise --table` and `simulate --table`.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// One JSON object: rules, expected_score, std_dev, states, seconds.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
#[command(after_help = concat!(
        "\
A card lists its filled boxes as box=score, separated by commas, for example \
--card ones=3,sixes=24,full-house=25,yahtzee=0. Boxes: ones, twos, threes, fours, fives, \
sixes, three-of-a-kind, four-of-a-kind, full-house, small-straight, large-straight, \
yahtzee, chance. The value of a position is the expected number of points still to be \
earned from it under optimal play (points already on the card are not counted). \
card_points in --json counts the card's boxes and upper bonus; a card does not say how \
many 100 bonuses were earned.",
        "\n\n",
        exit_codes!()
    ))]
pub struct AdviseArgs {
    /// The joker rule (default: the table's, or free-joker).
    #[arg(long, value_enum)]
    rules: Option<RulesArg>,
    /// Read the solved table from FILE (written by `solve --save`) instead of solving.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    #[command(flatten)]
    position: PositionArgs,
    /// One JSON object: value, and options with their value and loss.
    #[arg(long)]
    json: bool,
}

/// A position: the card, and within its turn the dice and the rolls left.
#[derive(Debug, Args)]
struct PositionArgs {
    /// The filled boxes and their scores; none by default (the start of the game).
    #[arg(long, value_name = "SPEC", default_value = "")]
    card: String,
    /// The five dice on the table, like 3,3,5,1,6; without them, the position is the
    /// start of a turn.
    #[arg(long, value_name = "a,b,c,d,e")]
    dice: Option<String>,
    /// Rolls still to come in this turn: 2 after the first roll, 0 after the third.
    #[arg(long, value_name = "0|1|2", requires = "dice", default_value_t = 2,
          value_parser = clap::value_parser!(u8).range(0..=2))]
    rolls_left: u8,
}

#[derive(Debug, Args)]
#[command(after_help = exit_codes!())]
pub struct SimulateArgs {
    /// The joker rule (default: the table's, or free-joker).
    #[arg(long, value_enum)]
    rules: Option<RulesArg>,
    /// Read the solved table from FILE (written by `solve --save`) instead of solving.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// How many games to play.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The most games one call may play (some seconds per ten million here).
    #[arg(long, default_value_t = 10_000_000, value_name = "N")]
    max_games: u64,
    /// The seed of the dice: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    // Where the games start; final scores include the card's points.
    #[command(flatten)]
    position: PositionArgs,
    /// One JSON object: mean, std_dev, percentiles, counts (games per final score), and
    /// more.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    cluster: ClusterArgs,
}

#[derive(Debug, Args)]
#[command(after_help = concat!(
        "\
The games start from the position of --card, --dice and --rolls-left (the start of the \
game by default; final scores include the card's points) and are played optimally with \
seeded dice, as by `simulate`: the output depends on the seed and the number of games \
only. Every figure is an estimate with its 95% interval (Wilson's for probabilities), \
beside the exact mean and standard deviation from the solved table (the standard \
deviation at the start of a turn only). With at most five boxes open the distribution \
is worked out exactly over every roll instead, in milliseconds, and no games are played \
(unless --simulate is given).",
        "\n\n",
        exit_codes!()
    ))]
pub struct DistributionArgs {
    /// The joker rule (default: the table's, or free-joker).
    #[arg(long, value_enum)]
    rules: Option<RulesArg>,
    /// Read the solved table from FILE (written by `solve --save`) instead of solving.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// How many games to play.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The most games one call may play: more stop with exit status 3 before any is
    /// played.
    #[arg(long, default_value_t = 10_000_000, value_name = "N")]
    max_games: u64,
    /// The seed of the dice: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Target scores, like 200,250,300: the probability of finishing with at least each.
    #[arg(long, value_name = "SCORES", allow_hyphen_values = true)]
    target: Option<String>,
    /// The width in points of the histogram's bins in the text output (JSON gives
    /// every score).
    #[arg(long, value_name = "POINTS", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    bin_width: u32,
    /// Play the games even when the exact distribution can be worked out (at most
    /// five boxes open).
    #[arg(long)]
    simulate: bool,
    // Where the games start; final scores include the card's points.
    #[command(flatten)]
    position: PositionArgs,
    /// One JSON object: mean, std_dev, their intervals, percentiles, targets, bins (every
    /// score with its count, probability and interval), and more.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    cluster: ClusterArgs,
}

/// The table under `rules`, kept for the rest of the process (the web server shares it
/// between requests): solved once, with a progress bar on a terminal.
pub fn solve_table(rules: Rules) -> &'static Kept {
    service::solved(rules, || {
        let bar = progress::bar(0, "positions");
        let table = solve_with_progress(rules, &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        });
        bar.finish_and_clear();
        table
    })
}

/// Reads the table saved in `path` and keeps it as this process's table for its rules
/// (the web server's `--table`); its rules.
pub fn preload(path: &Path) -> Result<Rules, Failure> {
    let table = read_table(path)
        .map_err(|message| Failure::bad_input(format!("{}: {message}", path.display())))?;
    Ok(keep(table))
}

/// Keeps `table` as this process's table for its rules; its rules.
fn keep(table: Table) -> Rules {
    let rules = table.rules;
    // A table solved already is the same table.
    let _ = service::keep(table);
    rules
}

/// Runs `play` with the player of the table read from `path`, or else of this
/// process's solved table under `rules` (shared by the web server's requests). Either
/// is kept for the rest of the process: the workers of a cluster share it.
fn with_player<R>(
    path: Option<&Path>,
    rules: Option<RulesArg>,
    play: impl FnOnce(&'static Player<'static>) -> Result<R, Failure>,
) -> Result<R, Failure> {
    let rules = match path {
        Some(path) => keep(load(path, rules)?),
        None => rules.map_or(Rules::FreeJoker, Rules::from),
    };
    play(&solve_table(rules).player)
}

/// The table read from `path`, checked against the rules asked for.
fn load(path: &Path, rules: Option<RulesArg>) -> Result<Table, Failure> {
    let table = read_table(path)
        .map_err(|message| Failure::bad_input(format!("{}: {message}", path.display())))?;
    if let Some(asked) = rules {
        let asked = Rules::from(asked);
        if asked != table.rules {
            return Err(Failure::bad_input(format!(
                "{}: a table for {}, but --rules {} was asked for",
                path.display(),
                table.rules.name(),
                asked.name()
            )));
        }
    }
    Ok(table)
}

/// Reads a saved table, refusing a foreign or wrongly sized file before reading it
/// all.
fn read_table(path: &Path) -> Result<Table, String> {
    solitaire::read_table(path).map_err(|e| e.to_string())
}

/// The folder a file goes in: its parent, or the current folder for a bare name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Refuses a `--save` path that cannot be written, before the work.
fn check_save_path(path: &Path) -> Result<(), Failure> {
    let name = path.display();
    if path.is_dir() || path.as_os_str().to_string_lossy().ends_with('/') {
        return Err(Failure::bad_input(format!(
            "--save {name}: a folder; give a file name"
        )));
    }
    let folder = folder_of(path);
    if !folder.is_dir() {
        return Err(Failure::bad_input(format!(
            "--save {name}: the folder {} does not exist",
            folder.display()
        )));
    }
    Ok(())
}

/// Writes `bytes` to `path` through a fresh temporary file beside it, renamed at the
/// end, so that a failure part way never leaves a damaged table under the final name
/// (nor touches any other file).
fn save(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let cannot = |e: &dyn std::fmt::Display| {
        Failure::other(format!("{}: cannot write the table: {e}", path.display()))
    };
    let folder = folder_of(path);
    let mut temporary = tempfile::NamedTempFile::new_in(folder).map_err(|e| cannot(&e))?;
    temporary
        .write_all(bytes)
        .and_then(|()| temporary.as_file().sync_all())
        .map_err(|e| cannot(&e))?;
    temporary.persist(path).map_err(|e| cannot(&e.error))?;
    Ok(())
}

pub fn run_solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if let Some(path) = &args.save {
        check_save_path(path)?;
    }
    let began = Instant::now();
    let table = solve_table(args.rules.into()).table;
    let seconds = began.elapsed().as_secs_f64();
    let (mean, sd) = table.expected_score();
    if let Some(path) = &args.save {
        save(path, &table.to_bytes())?;
    }
    if args.json {
        let mut o = json!({
            "rules": table.rules.name(),
            "expected_score": mean,
            "std_dev": sd,
            "states": table.positions,
            "seconds": seconds,
        });
        if let Some(path) = &args.save {
            o["saved"] = json!(path.display().to_string());
        }
        writeln!(out, "{o}")?;
        return Ok(());
    }
    writeln!(out, "rules: {}", table.rules.name())?;
    writeln!(out, "expected score: {mean:.7}")?;
    writeln!(out, "standard deviation: {sd:.4}")?;
    writeln!(
        out,
        "positions: {} turn starts, solved in {seconds:.2} s",
        table.positions
    )?;
    if let Some(path) = &args.save {
        writeln!(out, "saved: {}", path.display())?;
    }
    Ok(())
}

/// A command-line spec's parse error as `--OPTION:1:COL: message`.
fn spec_error(option: &str) -> impl Fn(alea_games::ParseError) -> Failure + '_ {
    move |e| Failure::bad_input(format!("{option}:{e}"))
}

/// The position of `--card` and `--dice`, read before any solve: a typo costs none.
fn position(card: &str, dice: Option<&str>) -> Result<(Card, Option<[u8; 6]>), Failure> {
    // The dice's tables, built once: they cost more than the rest of an advice.
    static DICE: OnceLock<Dice> = OnceLock::new();
    let card = Card::parse(card, DICE.get_or_init(Dice::new)).map_err(spec_error("--card"))?;
    let dice = match dice {
        Some(d) => Some(parse_dice(d).map_err(spec_error("--dice"))?),
        None => None,
    };
    check_room(&card, dice).map_err(|e| Failure::bad_input(format!("--card: {e}")))?;
    Ok((card, dice))
}

pub fn run_advise(args: &AdviseArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (card, dice) = position(&args.position.card, args.position.dice.as_deref())?;
    with_player(args.table.as_deref(), args.rules, |player| {
        advise_with(args, &card, dice, player, out)
    })
}

fn advise_with(
    args: &AdviseArgs,
    card: &Card,
    dice: Option<[u8; 6]>,
    player: &Player,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let table = player.table;
    let rolls_left = usize::from(args.position.rolls_left);
    let advice = advise(player, card, dice.map(|d| (d, rolls_left)))
        .map_err(|e| Failure::bad_input(e.to_string()))?;
    let upper_total = card.upper_total();
    let dice_text = dice.map(|d| player.plan.dice.faces(player.keep_of(&d)));
    if args.json {
        let o = json!({
            "rules": table.rules.name(),
            "card_points": card.total(),
            "upper_total": upper_total,
            "dice": dice_text,
            "rolls_left": dice_text.as_ref().map(|_| rolls_left),
            "value": advice.value,
            "options": options_json(&advice),
        });
        writeln!(out, "{o}")?;
        return Ok(());
    }
    writeln!(out, "rules: {}", table.rules.name())?;
    write_position(out, card, dice_text.as_deref(), rolls_left)?;
    writeln!(
        out,
        "value: {:.7} (expected points still to come, under optimal play)",
        advice.value
    )?;
    if advice.options.is_empty() {
        return Ok(());
    }
    let rows: Vec<[String; 3]> = advice
        .options
        .iter()
        .map(|o| {
            [
                option_text(&o.choice),
                format!("{:.7}", o.value),
                format!("{:.7}", o.loss),
            ]
        })
        .collect();
    show::table(out, ["option", "value", "loss"], &rows)?;
    Ok(())
}

/// The position as text: the card (its points, upper total and open boxes), then the
/// dice and the rolls to come, or the start of a turn.
fn write_position(
    out: &mut dyn Write,
    card: &Card,
    dice: Option<&[u8]>,
    rolls_left: usize,
) -> std::io::Result<()> {
    let open: Vec<&str> = (0..13)
        .filter(|&b| card.scores[b].is_none())
        .map(|b| BOXES[b])
        .collect();
    writeln!(
        out,
        "card: {} points, upper total {} of 63, open: {}",
        card.total(),
        card.upper_total(),
        if open.is_empty() {
            "none".to_string()
        } else {
            open.join(", ")
        }
    )?;
    match dice {
        Some(d) => {
            let faces: Vec<String> = d.iter().map(u8::to_string).collect();
            writeln!(
                out,
                "dice: {}, {rolls_left} roll{} to come",
                faces.join(" "),
                if rolls_left == 1 { "" } else { "s" }
            )
        }
        None => writeln!(out, "at the start of a turn"),
    }
}

fn option_text(choice: &Choice) -> String {
    match choice {
        Choice::Keep(faces) if faces.is_empty() => "reroll all".into(),
        Choice::Keep(faces) if faces.len() == 5 => "keep all".into(),
        Choice::Keep(faces) => {
            let f: Vec<String> = faces.iter().map(u8::to_string).collect();
            format!("keep {}", f.join(" "))
        }
        Choice::Score(b) => format!("{} for {}", BOXES[b.index], b.earned),
    }
}

fn options_json(advice: &Advice) -> Json {
    advice
        .options
        .iter()
        .map(|o| match &o.choice {
            Choice::Keep(faces) => json!({"keep": faces, "value": o.value, "loss": o.loss}),
            Choice::Score(b) => json!({
                "box": BOXES[b.index],
                "points": b.points,
                "earned": b.earned,
                "value": o.value,
                "loss": o.loss,
            }),
        })
        .collect()
}

/// The percentiles reported by `simulate`.
const PERCENTILES: [u32; 9] = [1, 5, 10, 25, 50, 75, 90, 95, 99];

/// More games than `--max-games`, refused before any is played.
fn too_many_games(e: TooManyGames) -> Failure {
    Failure::limit(e.message(option))
}

pub fn run_simulate(args: &SimulateArgs, out: &mut dyn Write) -> Result<(), Failure> {
    check_games(args.games, args.max_games).map_err(too_many_games)?;
    let (card, dice) = position(&args.position.card, args.position.dice.as_deref())?;
    let began = Instant::now();
    with_player(args.table.as_deref(), args.rules, |player| {
        simulate_with(args, began, &card, dice, player, out)
    })
}

/// Games to play optimally with seeded dice, for `simulate` and `distribution`.
struct Games {
    command: &'static str,
    start: Start,
    games: u64,
    seed: u64,
}

impl Games {
    /// The final scores: played on this process, or split across the cluster of
    /// `cluster`, where processes other than 0 get `None`.
    fn play(
        &self,
        player: &'static Player<'static>,
        cluster: &ClusterArgs,
    ) -> Result<Option<Scores>, Failure> {
        let Some(cluster) = cluster.cluster(self.job(player))? else {
            let bar = progress::bar(self.games, "games");
            let scores = simulate_from(player, &self.start, self.games, self.seed, &|n| bar.inc(n));
            bar.finish_and_clear();
            return Ok(Some(scores));
        };
        let bar = cluster::bar(&cluster, self.games, "games");
        let shown = bar.clone();
        let (start, games, seed) = (self.start, self.games, self.seed);
        // The scores of every game as `simulate_from` gives them, on process 0.
        let scores = batch::on_cluster(&cluster, move |worker| {
            let blocks = Blocks::of(games, *BLOCK_GAMES.start(), *BLOCK_GAMES.end());
            // Each worker's own book of decisions: the same decisions, worked out where
            // the games reach them.
            let mut book = Book::new();
            let play = |range: Range<u64>| {
                Ok(simulate_range(
                    player,
                    &mut book,
                    &start,
                    range,
                    seed,
                    &|_| {},
                ))
            };
            let merge = |scores: &mut Scores, range: Range<u64>, block: Scores| {
                scores.merge(&block);
                shown.inc(range.end - range.start);
            };
            batch::run_blocks(worker, blocks, play, Scores::default(), merge)
        })
        .map_err(cluster::failure)?;
        bar.finish_and_clear();
        Ok(scores)
    }

    /// Whether this process answers when no games are played: without a cluster, yes;
    /// on one, once every process has joined, process 0 only.
    fn meet(&self, player: &Player, cluster: &ClusterArgs) -> Result<bool, Failure> {
        match cluster.cluster(self.job(player))? {
            None => Ok(true),
            Some(cluster) => {
                batch::meet(&cluster).map_err(cluster::failure)?;
                Ok(cluster.process == 0)
            }
        }
    }

    /// What changes the scores: processes that disagree on it are refused.
    fn job(&self, player: &Player) -> u64 {
        fingerprint(&[
            env!("CARGO_PKG_VERSION").as_bytes(),
            self.command.as_bytes(),
            player.table.rules.name().as_bytes(),
            format!("{:?}", self.start).as_bytes(),
            &self.games.to_le_bytes(),
            &self.seed.to_le_bytes(),
        ])
    }
}

/// Where games from a card start: its position and points, and within a turn the dice
/// with the rolls left.
fn start_of(card: &Card, dice: Option<[u8; 6]>, rolls_left: usize) -> Start {
    Start {
        position: card.position(),
        points: card.total(),
        roll: dice.map(|d| (d, rolls_left)),
    }
}

fn simulate_with(
    args: &SimulateArgs,
    began: Instant,
    card: &Card,
    dice: Option<[u8; 6]>,
    player: &'static Player<'static>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let table = player.table;
    let rolls_left = usize::from(args.position.rolls_left);
    let start = start_of(card, dice, rolls_left);
    // The exact figures: the table's moments at a turn's start; within a turn, the
    // advice's value (the table keeps no spread inside a turn). Worked out before the
    // games, so that a position they refuse stops every process of a cluster alike.
    let ExactScore {
        mean: exact,
        std_dev: exact_sd,
    } = exact_score(player, card, start.roll).map_err(|e| Failure::bad_input(e.to_string()))?;
    let playing = Instant::now();
    let games = Games {
        command: "yahtzee simulate",
        start,
        games: args.games,
        seed: args.seed,
    };
    let Some(scores) = games.play(player, &args.cluster)? else {
        return Ok(());
    };
    // The play alone, and with the solve (or the reading of the table) before it.
    let play_seconds = playing.elapsed().as_secs_f64();
    let seconds = began.elapsed().as_secs_f64();
    let rate = args.games as f64 / play_seconds;
    let e = scores.estimate();
    // One game has no spread to make an interval from.
    let interval = (e.games >= 2).then(|| e.interval());
    let percentile = |p: u32| scores.percentile(f64::from(p)).expect("games were played");
    let (min, max) = (percentile(0), scores.counts.len() as u32 - 1);
    if args.json {
        let p: serde_json::Map<String, Json> = PERCENTILES
            .iter()
            .map(|&p| (p.to_string(), json!(percentile(p))))
            .collect();
        let o = json!({
            "rules": table.rules.name(),
            "games": e.games,
            "seed": args.seed,
            "mean": e.mean,
            "std_dev": e.std_dev,
            "interval": interval.map(|(lo, hi)| [lo, hi]),
            "exact_mean": exact,
            "exact_std_dev": exact_sd,
            "card_points": start.points,
            "dice": dice.map(|d| player.plan.dice.faces(player.keep_of(&d))),
            "rolls_left": dice.map(|_| rolls_left),
            "percentiles": p,
            "min": min,
            "max": max,
            "counts": scores.counts,
            "seconds": seconds,
            "play_seconds": play_seconds,
            "games_per_second": rate,
        });
        writeln!(out, "{o}")?;
        return Ok(());
    }
    writeln!(out, "rules: {}", table.rules.name())?;
    writeln!(
        out,
        "games: {} played optimally (seed {}) in {seconds:.2} s, of which {play_seconds:.2} s \
         of play ({:.0} games a second)",
        e.games, args.seed, rate
    )?;
    match interval {
        Some((lo, hi)) => writeln!(
            out,
            "mean: {:.4} (95% interval {lo:.4} to {hi:.4}; exact {exact:.7})",
            e.mean
        )?,
        None => writeln!(
            out,
            "mean: {:.4} (one game: no interval; exact {exact:.7})",
            e.mean
        )?,
    }
    match exact_sd {
        Some(sd) => writeln!(out, "standard deviation: {:.4} (exact {sd:.4})", e.std_dev)?,
        None => writeln!(out, "standard deviation: {:.4}", e.std_dev)?,
    }
    let p: Vec<String> = PERCENTILES
        .iter()
        .map(|&p| format!("{p}%: {}", percentile(p)))
        .collect();
    writeln!(out, "percentiles: {}", p.join(", "))?;
    writeln!(out, "lowest: {min}, highest: {max}")?;
    Ok(())
}

pub fn run_distribution(args: &DistributionArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (card, dice) = position(&args.position.card, args.position.dice.as_deref())?;
    let start = start_of(&card, dice, usize::from(args.position.rolls_left));
    // Games are played only where the distribution is not worked out exactly.
    if plays_games(&start, args.simulate) {
        check_games(args.games, args.max_games).map_err(too_many_games)?;
    }
    let targets = match &args.target {
        Some(spec) => parse_targets(spec).map_err(spec_error("--target"))?,
        None => Vec::new(),
    };
    let began = Instant::now();
    with_player(args.table.as_deref(), args.rules, |player| {
        distribution_with(args, began, &card, start, &targets, player, out)
    })
}

fn distribution_with(
    args: &DistributionArgs,
    began: Instant,
    card: &Card,
    start: Start,
    targets: &[u32],
    player: &'static Player<'static>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let table = player.table;
    let rolls_left = usize::from(args.position.rolls_left);
    let dice = start.roll.map(|(dice, _)| dice);
    // Before the games, as `simulate` does.
    let ExactScore {
        mean: exact_mean,
        std_dev: exact_sd,
    } = exact_score(player, card, start.roll).map_err(|e| Failure::bad_input(e.to_string()))?;
    let open = distribution::open_boxes(&start);
    let games = Games {
        command: "yahtzee distribution",
        start,
        games: args.games,
        seed: args.seed,
    };
    // Without games to share, the processes of a cluster only meet, and process 0
    // answers.
    let Some(distribution) = score_distribution(
        player,
        &start,
        args.simulate,
        || games.play(player, &args.cluster),
        || games.meet(player, &args.cluster),
    )?
    else {
        return Ok(());
    };
    let seconds = began.elapsed().as_secs_f64();
    let exact = distribution.is_exact();
    // Within a turn the table keeps no spread; an exact distribution has it.
    let exact_sd = exact_sd.or(exact.then_some(distribution.std_dev));
    let (min, max) = distribution.extremes().expect("a score occurs");
    let percentiles = distribution.percentiles();
    let tails: Vec<Bin> = targets.iter().map(|&t| distribution.at_least(t)).collect();
    let dice_text = dice.map(|d| player.plan.dice.faces(player.keep_of(&d)));
    if args.json {
        let pair = |i: Option<(f64, f64)>| i.map(|(lo, hi)| [lo, hi]);
        let p: serde_json::Map<String, Json> = percentiles
            .iter()
            .map(|&(p, s)| (p.to_string(), json!(s)))
            .collect();
        let bin = |b: &Bin| {
            json!({
                "score": b.low,
                "count": b.count,
                "probability": b.probability,
                "interval": pair(b.interval),
            })
        };
        let o = json!({
            "rules": table.rules.name(),
            "exact": exact,
            "games": distribution.games(),
            "seed": (!exact).then_some(args.seed),
            "mean": distribution.mean,
            "mean_interval": pair(distribution.mean_interval),
            "std_dev": distribution.std_dev,
            "std_dev_interval": pair(distribution.std_dev_interval),
            "exact_mean": exact_mean,
            "exact_std_dev": exact_sd,
            "card_points": start.points,
            "dice": dice_text,
            "rolls_left": dice.map(|_| rolls_left),
            "percentiles": p,
            "min": min,
            "max": max,
            "targets": tails.iter().map(bin).collect::<Vec<Json>>(),
            "bins": distribution.scores().iter().map(bin).collect::<Vec<Json>>(),
            "seconds": seconds,
        });
        writeln!(out, "{o}")?;
        return Ok(());
    }
    writeln!(out, "rules: {}", table.rules.name())?;
    if card.scores.iter().all(Option::is_none) && dice.is_none() {
        writeln!(out, "from the start of the game")?;
    } else {
        write_position(out, card, dice_text.as_deref(), rolls_left)?;
    }
    let interval = |i: Option<(f64, f64)>, places: usize| match i {
        Some((lo, hi)) => format!("95% interval {lo:.places$} to {hi:.places$}; "),
        None => String::new(),
    };
    match distribution.games() {
        Some(games) => {
            writeln!(
                out,
                "simulation: {games} game{} played optimally with seed {}: estimates, with \
                 95% intervals",
                if games == 1 { "" } else { "s" },
                args.seed
            )?;
            writeln!(
                out,
                "mean: {:.4} ({}exact {exact_mean:.7})",
                distribution.mean,
                interval(distribution.mean_interval, 4)
            )?;
            let exact_sd = exact_sd.map_or("unknown within a turn".into(), |sd| format!("{sd:.4}"));
            writeln!(
                out,
                "standard deviation: {:.4} ({}exact {exact_sd})",
                distribution.std_dev,
                interval(distribution.std_dev_interval, 4)
            )?;
        }
        None => {
            if open == 0 {
                writeln!(out, "exact: the card is full, its score final")?;
            } else {
                writeln!(
                    out,
                    "exact: worked out over every roll ({open} box{} open), no games played",
                    if open == 1 { "" } else { "es" }
                )?;
            }
            writeln!(out, "mean: {exact_mean:.7}")?;
            writeln!(out, "standard deviation: {:.4}", distribution.std_dev)?;
        }
    }
    let p: Vec<String> = percentiles
        .iter()
        .map(|&(p, s)| format!("{p}%: {s}"))
        .collect();
    writeln!(out, "percentiles: {}", p.join(", "))?;
    writeln!(out, "lowest: {min}, highest: {max}")?;
    for t in &tails {
        writeln!(
            out,
            "at least {}: {}{}",
            t.low,
            probability(t.probability),
            t.interval.map_or(String::new(), |(lo, hi)| format!(
                " (95% interval {} to {})",
                probability(lo),
                probability(hi)
            ))
        )?;
    }
    let histogram = distribution.histogram(args.bin_width);
    writeln!(
        out,
        "histogram: bins of {} point{}, the rarest 0.1% at each end in one bin",
        args.bin_width,
        if args.bin_width == 1 { "" } else { "s" }
    )?;
    let top = histogram.iter().map(|b| b.probability).fold(0.0, f64::max);
    let bar = |p: f64| "#".repeat((40.0 * p / top).round() as usize);
    let range = |b: &Bin| {
        if b.low == b.high {
            b.low.to_string()
        } else {
            format!("{} to {}", b.low, b.high)
        }
    };
    if exact {
        let rows: Vec<[String; 3]> = histogram
            .iter()
            .map(|b| [range(b), probability(b.probability), bar(b.probability)])
            .collect();
        show::table(out, ["score", "probability", ""], &rows)?;
    } else {
        let rows: Vec<[String; 5]> = histogram
            .iter()
            .map(|b| {
                let (lo, hi) = b.interval.unwrap_or((0.0, 1.0));
                [
                    range(b),
                    b.count.unwrap_or(0).to_string(),
                    probability(b.probability),
                    format!("{} to {}", probability(lo), probability(hi)),
                    bar(b.probability),
                ]
            })
            .collect();
        show::table(
            out,
            ["score", "games", "probability", "95% interval", ""],
            &rows,
        )?;
    }
    Ok(())
}

/// A probability as text: six decimals, or two significant digits below a millionth
/// (rather than a zero that is not one); none at all is `0`.
fn probability(p: f64) -> String {
    if p == 0.0 {
        "0".into()
    } else if p < 5e-7 {
        format!("{p:.1e}")
    } else {
        format!("{p:.6}")
    }
}
