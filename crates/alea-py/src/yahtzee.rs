//! `alea.yahtzee`: the judge's category assignment (`alea yahtzee`) and the whole
//! solitaire game (`alea yahtzee solve | advise | simulate | distribution`).
//!
//! A solved table is 16 MB and the plan of a turn that plays from it (a [`Player`])
//! borrows it. The tables solved in this process are kept, one per set of rules, by the
//! game's [`service`], as the command line keeps its own: solved once, with their
//! players, for every `Table` of those rules. A table read from a file joins them when
//! it is the first of its rules (or the same as the one kept); another one is held by
//! its own `Table`, which builds its player for each call (a quarter of a millisecond).

use std::convert::Infallible;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use rayon::prelude::*;

use alea_games::yahtzee::solitaire::{
    advise, check_room, exact_score, parse_dice, parse_targets, plays_games, read_table,
    score_distribution, service, simulate_from, solve, Bin, Card, Choice, Dice, ExactScore, Kept,
    Player, ReadError, Rules, Start, Table, BOXES, EXACT_MAX_OPEN,
};
use alea_games::yahtzee::{best_assignment, parse_games, CATEGORIES};

use crate::errors;
use crate::work::interruptible;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("YAHTZEE_CATEGORIES", CATEGORIES.to_vec())?;
    m.add("YAHTZEE_BOXES", BOXES.to_vec())?;
    m.add(
        "YAHTZEE_RULES",
        Rules::ALL.iter().map(|r| r.name()).collect::<Vec<_>>(),
    )?;
    m.add("YAHTZEE_EXACT_MAX_OPEN", EXACT_MAX_OPEN)?;
    m.add_function(wrap_pyfunction!(yahtzee_assign, m)?)?;
    m.add_function(wrap_pyfunction!(yahtzee_solve, m)?)?;
    m.add_function(wrap_pyfunction!(yahtzee_load, m)?)?;
    m.add_class::<YahtzeeTable>()?;
    Ok(())
}

/// A game's assignment: `(scores, bonus, total, rounds)`.
type Assigned = (Vec<u32>, u32, u32, Vec<usize>);

/// Every game of the judge-format `text` (named `source` in errors) with its best
/// assignment: per game `(scores, bonus, total, rounds)`, rounds 1-based.
#[pyfunction]
fn yahtzee_assign(
    py: Python<'_>,
    text: &Bound<'_, PyBytes>,
    strict_full_house: bool,
    source: &str,
) -> PyResult<Vec<Assigned>> {
    let bytes = text.as_bytes().to_vec();
    let games = interruptible(py, move || {
        parse_games(&bytes).map(|games| {
            games
                .par_iter()
                .map(|g| best_assignment(g, strict_full_house))
                .collect::<Vec<_>>()
        })
    })?
    .map_err(|e| errors::parse(py, &e, source))?;
    Ok(games
        .into_iter()
        .map(|a| {
            (
                a.scores.to_vec(),
                a.bonus,
                a.total,
                a.rounds.iter().map(|r| r + 1).collect(),
            )
        })
        .collect())
}

/// The table of a `Table`: one of the kept, or its own.
#[derive(Clone)]
enum Held {
    Kept(&'static Kept),
    Own(Arc<Table>),
}

impl Held {
    fn table(&self) -> &Table {
        match self {
            Held::Kept(k) => k.table,
            Held::Own(t) => t,
        }
    }

    /// Runs `play` with the player of the table.
    fn play<R>(&self, play: impl FnOnce(&Player) -> R) -> R {
        match self {
            Held::Kept(k) => play(&k.player),
            Held::Own(t) => play(&Player::new(t)),
        }
    }
}

fn rules_named(name: &str) -> PyResult<Rules> {
    Rules::ALL
        .iter()
        .copied()
        .find(|r| r.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = Rules::ALL.iter().map(|r| r.name()).collect();
            pyo3::exceptions::PyValueError::new_err(format!(
                "rules: unknown rules {name:?}; the rules are {}",
                names.join(", ")
            ))
        })
}

/// The table under the rules named `rules`, solved (once per process) off the
/// interpreter.
#[pyfunction]
fn yahtzee_solve(py: Python<'_>, rules: &str) -> PyResult<YahtzeeTable> {
    let rules = rules_named(rules)?;
    let began = Instant::now();
    let kept = interruptible(py, move || service::solved(rules, || solve(rules)))?;
    Ok(YahtzeeTable {
        held: Held::Kept(kept),
        seconds: began.elapsed().as_secs_f64(),
    })
}

/// An `OSError` (of the subclass its errno calls for) naming the file.
fn os_error(e: &std::io::Error, path: &str) -> PyErr {
    match e.raw_os_error() {
        Some(code) => {
            let text = e.to_string();
            let suffix = format!(" (os error {code})");
            let text = text.strip_suffix(&suffix).unwrap_or(&text).to_string();
            pyo3::exceptions::PyOSError::new_err((code, text, path.to_string()))
        }
        None => pyo3::exceptions::PyOSError::new_err(format!("{path}: cannot read: {e}")),
    }
}

/// The table saved in the file at `path` (by `solve --save` or `Table.save`); with
/// `rules`, refused unless it is a table for those rules.
#[pyfunction]
#[pyo3(signature = (path, rules=None))]
fn yahtzee_load(py: Python<'_>, path: &str, rules: Option<&str>) -> PyResult<YahtzeeTable> {
    let asked = rules.map(rules_named).transpose()?;
    let began = Instant::now();
    let file = path.to_string();
    let table = py
        .detach(move || read_table(Path::new(&file)))
        .map_err(|e| match e {
            ReadError::Io(e) => os_error(&e, path),
            ReadError::Table(e) => errors::input(py, &e.to_string(), path, None),
        })?;
    if let Some(asked) = asked {
        if asked != table.rules {
            return Err(errors::input(
                py,
                &format!(
                    "a table for {}, but rules {} was asked for",
                    table.rules.name(),
                    asked.name()
                ),
                path,
                None,
            ));
        }
    }
    let held = py.detach(move || match service::keep(table) {
        Ok(kept) => Held::Kept(kept),
        Err(table) => Held::Own(Arc::new(table)),
    });
    Ok(YahtzeeTable {
        held,
        seconds: began.elapsed().as_secs_f64(),
    })
}

/// The dice's tables for reading a card, built once.
fn dice_tables() -> &'static Dice {
    static DICE: OnceLock<Dice> = OnceLock::new();
    DICE.get_or_init(Dice::new)
}

/// The position of a card spec and dice spec, as the command line reads `--card` and
/// `--dice`.
fn position(py: Python<'_>, card: &str, dice: Option<&str>) -> PyResult<(Card, Option<[u8; 6]>)> {
    let card = Card::parse(card, dice_tables()).map_err(|e| errors::parse(py, &e, "--card"))?;
    let dice = match dice {
        Some(d) => Some(parse_dice(d).map_err(|e| errors::parse(py, &e, "--dice"))?),
        None => None,
    };
    check_room(&card, dice).map_err(|e| errors::input(py, &e.to_string(), "--card", None))?;
    Ok((card, dice))
}

fn start_of(card: &Card, dice: Option<[u8; 6]>, rolls_left: usize) -> Start {
    Start {
        position: card.position(),
        points: card.total(),
        roll: dice.map(|d| (d, rolls_left)),
    }
}

fn check_rolls_left(rolls_left: usize) -> PyResult<()> {
    if rolls_left > 2 {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "rolls_left: 0, 1 or 2 rolls are still to come in a turn, not {rolls_left}"
        )));
    }
    Ok(())
}

/// At least one game; no more than `max_games` where games are played.
fn check_games(py: Python<'_>, games: u64, max_games: u64, played: bool) -> PyResult<()> {
    if games == 0 {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "games: at least one game is played, not 0",
        ));
    }
    if played {
        // The arguments named by their value, as `games 10` (not `games=10`): the
        // package's own wording.
        let named = |name: &str, value: Option<u64>| match value {
            Some(v) => format!("{name} {v}"),
            None => name.to_string(),
        };
        service::check_games(games, max_games)
            .map_err(|e| errors::limit(py, &e.message(named), e.setting()))?;
    }
    Ok(())
}

fn exact_of(py: Python<'_>, player: &Player, card: &Card, start: &Start) -> PyResult<ExactScore> {
    exact_score(player, card, start.roll)
        .map_err(|e| errors::input(py, &e.to_string(), "--card", None))
}

/// The faces of the dice in order, as the command line shows them.
fn faces(player: &Player, dice: Option<[u8; 6]>) -> Option<Vec<u8>> {
    dice.map(|d| player.plan.dice.faces(player.keep_of(&d)))
}

/// A solved solitaire table (see `alea.yahtzee.Table`).
#[pyclass(frozen, module = "alea._alea")]
pub struct YahtzeeTable {
    held: Held,
    /// How long the solve (or the reading) took.
    seconds: f64,
}

#[pymethods]
impl YahtzeeTable {
    /// The name of the rules.
    #[getter]
    fn rules(&self) -> &'static str {
        self.held.table().rules.name()
    }

    /// `(rules, expected_score, std_dev, states, seconds)`, as `solve --json`.
    fn value(&self) -> (&'static str, f64, f64, usize, f64) {
        let table = self.held.table();
        let (mean, sd) = table.expected_score();
        (table.rules.name(), mean, sd, table.positions, self.seconds)
    }

    /// The table as the bytes of a table file.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let held = self.held.clone();
        let bytes = py.detach(move || held.table().to_bytes());
        PyBytes::new(py, &bytes)
    }

    /// Whether `other` holds the same table.
    fn same_as(&self, other: &YahtzeeTable) -> bool {
        match (&self.held, &other.held) {
            (Held::Kept(a), Held::Kept(b)) => std::ptr::eq(*a, *b),
            (a, b) => service::same(a.table(), b.table()),
        }
    }

    /// The advice at a position, as `advise --json`.
    #[pyo3(signature = (card, dice, rolls_left))]
    fn advise<'py>(
        &self,
        py: Python<'py>,
        card: &str,
        dice: Option<&str>,
        rolls_left: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        check_rolls_left(rolls_left)?;
        let (card, dice) = position(py, card, dice)?;
        let held = self.held.clone();
        let card_ = card.clone();
        let (advice, dice_text) = py.detach(move || {
            held.play(|player| {
                (
                    advise(player, &card_, dice.map(|d| (d, rolls_left))),
                    faces(player, dice),
                )
            })
        });
        let advice = advice.map_err(|e| errors::input(py, &e.to_string(), "--card", None))?;
        let o = PyDict::new(py);
        o.set_item("rules", self.rules())?;
        o.set_item("card_points", card.total())?;
        o.set_item("upper_total", card.upper_total())?;
        o.set_item("dice", dice_text)?;
        o.set_item("rolls_left", dice.map(|_| rolls_left))?;
        o.set_item("value", advice.value)?;
        let options = PyList::empty(py);
        for opt in &advice.options {
            let d = PyDict::new(py);
            match &opt.choice {
                Choice::Keep(kept) => {
                    d.set_item("keep", kept.clone())?;
                }
                Choice::Score(b) => {
                    d.set_item("box", BOXES[b.index])?;
                    d.set_item("points", b.points)?;
                    d.set_item("earned", b.earned)?;
                }
            }
            d.set_item("value", opt.value)?;
            d.set_item("loss", opt.loss)?;
            options.append(d)?;
        }
        o.set_item("options", options)?;
        Ok(o)
    }

    /// Games played optimally with seeded dice, as `simulate --json`.
    #[pyo3(signature = (card, dice, rolls_left, games, seed, max_games))]
    #[allow(clippy::too_many_arguments)]
    fn simulate<'py>(
        &self,
        py: Python<'py>,
        card: &str,
        dice: Option<&str>,
        rolls_left: usize,
        games: u64,
        seed: u64,
        max_games: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        check_rolls_left(rolls_left)?;
        check_games(py, games, max_games, true)?;
        let (card, dice) = position(py, card, dice)?;
        let start = start_of(&card, dice, rolls_left);
        let held = self.held.clone();
        let began = Instant::now();
        let (scores, play_seconds, dice_text) = interruptible(py, move || {
            held.play(|player| {
                let playing = Instant::now();
                let scores = simulate_from(player, &start, games, seed, &|_| {});
                (scores, playing.elapsed().as_secs_f64(), faces(player, dice))
            })
        })?;
        let seconds = began.elapsed().as_secs_f64();
        let ExactScore {
            mean: exact,
            std_dev: exact_sd,
        } = self
            .held
            .play(|player| exact_of(py, player, &card, &start))?;
        let e = scores.estimate();
        let interval = (e.games >= 2).then(|| e.interval());
        let percentile = |p: u32| scores.percentile(f64::from(p)).expect("games were played");
        let o = PyDict::new(py);
        o.set_item("rules", self.rules())?;
        o.set_item("games", e.games)?;
        o.set_item("seed", seed)?;
        o.set_item("mean", e.mean)?;
        o.set_item("std_dev", e.std_dev)?;
        o.set_item("interval", interval)?;
        o.set_item("exact_mean", exact)?;
        o.set_item("exact_std_dev", exact_sd)?;
        o.set_item("card_points", start.points)?;
        o.set_item("dice", dice_text)?;
        o.set_item("rolls_left", dice.map(|_| rolls_left))?;
        let p = PyDict::new(py);
        for q in PERCENTILES {
            p.set_item(q, percentile(q))?;
        }
        o.set_item("percentiles", p)?;
        o.set_item("min", percentile(0))?;
        o.set_item("max", scores.counts.len() as u32 - 1)?;
        o.set_item("counts", scores.counts.clone())?;
        o.set_item("seconds", seconds)?;
        o.set_item("play_seconds", play_seconds)?;
        o.set_item("games_per_second", games as f64 / play_seconds)?;
        Ok(o)
    }

    /// The distribution of the final score, as `distribution --json`.
    #[pyo3(signature = (card, dice, rolls_left, games, seed, max_games, targets, simulate))]
    #[allow(clippy::too_many_arguments)]
    fn distribution<'py>(
        &self,
        py: Python<'py>,
        card: &str,
        dice: Option<&str>,
        rolls_left: usize,
        games: u64,
        seed: u64,
        max_games: u64,
        targets: Option<&str>,
        simulate: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        check_rolls_left(rolls_left)?;
        let (card, dice) = position(py, card, dice)?;
        let start = start_of(&card, dice, rolls_left);
        check_games(py, games, max_games, plays_games(&start, simulate))?;
        let targets = match targets {
            Some(spec) => parse_targets(spec).map_err(|e| errors::parse(py, &e, "--target"))?,
            None => Vec::new(),
        };
        let held = self.held.clone();
        let began = Instant::now();
        let (distribution, dice_text) = interruptible(py, move || {
            held.play(|player| {
                // This process plays every game, and answers.
                let play = || {
                    Ok::<_, Infallible>(Some(simulate_from(player, &start, games, seed, &|_| {})))
                };
                let Ok(found) = score_distribution(player, &start, simulate, play, || Ok(true));
                let d = found.expect("this process answers");
                (d, faces(player, dice))
            })
        })?;
        let seconds = began.elapsed().as_secs_f64();
        let exact = distribution.is_exact();
        let ExactScore {
            mean: exact_mean,
            std_dev: exact_sd,
        } = self
            .held
            .play(|player| exact_of(py, player, &card, &start))?;
        let exact_sd = exact_sd.or(exact.then_some(distribution.std_dev));
        let (min, max) = distribution.extremes().expect("a score occurs");
        let bin = |b: &Bin| -> PyResult<Bound<'py, PyDict>> {
            let d = PyDict::new(py);
            d.set_item("score", b.low)?;
            d.set_item("count", b.count)?;
            d.set_item("probability", b.probability)?;
            d.set_item("interval", b.interval)?;
            Ok(d)
        };
        let o = PyDict::new(py);
        o.set_item("rules", self.rules())?;
        o.set_item("exact", exact)?;
        o.set_item("games", distribution.games())?;
        o.set_item("seed", (!exact).then_some(seed))?;
        o.set_item("mean", distribution.mean)?;
        o.set_item("mean_interval", distribution.mean_interval)?;
        o.set_item("std_dev", distribution.std_dev)?;
        o.set_item("std_dev_interval", distribution.std_dev_interval)?;
        o.set_item("exact_mean", exact_mean)?;
        o.set_item("exact_std_dev", exact_sd)?;
        o.set_item("card_points", start.points)?;
        o.set_item("dice", dice_text)?;
        o.set_item("rolls_left", dice.map(|_| rolls_left))?;
        let p = PyDict::new(py);
        for (q, s) in distribution.percentiles() {
            p.set_item(q, s)?;
        }
        o.set_item("percentiles", p)?;
        o.set_item("min", min)?;
        o.set_item("max", max)?;
        let tails = PyList::empty(py);
        for &t in &targets {
            tails.append(bin(&distribution.at_least(t))?)?;
        }
        o.set_item("targets", tails)?;
        let bins = PyList::empty(py);
        for b in distribution.scores() {
            bins.append(bin(&b)?)?;
        }
        o.set_item("bins", bins)?;
        o.set_item("seconds", seconds)?;
        Ok(o)
    }
}

/// The percentiles `simulate` reports.
const PERCENTILES: [u32; 9] = [1, 5, 10, 25, 50, 75, 90, 95, 99];
