//! `alea check`: a model written in the PRISM language, its properties answered exactly
//! or with a certified error bound, the value of every choice in a state, and the best
//! choice of every state.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::ProgressBar;
use serde_json::{json, Map, Value as Json};

use alea_core::{decimal, fraction};
use alea_prism::check::{Item, Number};
use alea_prism::session::{
    self, Answer, ChoiceReport, Kind, Loading, Progress, Run, Settings, Sizes, Source, Val,
};

use crate::cluster::ClusterArgs;
use crate::failure::Failure;
use crate::input::Input;
use crate::progress;

#[derive(Debug, Args)]
#[command(after_help = concat!(
        "\
Reads a model in the PRISM language (dtmc, mdp or smg, PRISM-games' turn-based game of \
players named in `player` blocks; `probabilistic` and `nondeterministic` too) and \
answers each property, one line each: `PROPERTY = VALUE ± BOUND`, the bound \
being certified: the true value is no further from VALUE than BOUND. With --exact the \
arithmetic is rational from the literals on (0.1 is 1/10) and VALUE is a fraction p/q.

Properties: P=?, Pmin=?, Pmax=? of paths F, G, X, U, W and R over state formulas, \
with steps <=k, <k, >=k, >k, =k or [a,b]; R=?, R{\"name\"}=?, Rmin=?, Rmax=? of [F phi], \
[Fc phi] and [F0 phi] (a path that misses phi keeps its reward, or gets 0), [C<=k], \
[I=k], [C] (the total reward) and [S] (the long-run average); S=?, Smin=?, \
Smax=? [phi] (the long-run share of time in phi); T=?, Tmin=?, Tmax=? of [F phi] \
(expected steps); E [path] and A [path]; P>=p [...] and the other bounds. \
Any path of LTL in dtmcs and mdps: nested (G F a), combined in parentheses ((F a) & \
(G b)), by finite or limit-deterministic automata; R=? of a co-safe path (a U b, \
(F a) | (F b)): the reward until it is satisfied; \
multi(P... [path], R... [C], R... [C<=k], ...) with bounds and at most two =? (none: \
whether the bounds can be met; one: its best value; two: the Pareto curve's corners), \
by weighted sums with certified bounds, or with --exact by a linear program; \
filter(min|max|avg|sum|count|forall|exists|first|range|state|argmin|argmax|print|printall, \
PROPERTY, STATES). Operators nest and combine with arithmetic: 1 - Pmax=? [F \"won\"]. \
Labels in quotes, with \"init\" and \"deadlock\"; \"name\" also refers to a named \
property. An expected reward is infinite where phi is not reached with probability \
one. In an mdp, say min or max. In a game, name a coalition first (`<<p1>>`, `<<1,3>>`, \
`<<*>>`): it plays towards the min or max against the other players. A state with no \
enabled command gets a self-loop. \
Without any property, the model's size is printed.
  alea check examples/pig.prism --props examples/pig.props
  alea check model.prism --prop 'Pmax=? [F \"won\"]' --const N=3 --at 'x=2,y=0'
  alea check model.prism --prop 'R{\"steps\"}min=? [F done]' --exact --json
  alea check examples/pig_game.prism --prop '<<we>> Pmax=? [F \"won\"]' --const goal=20,first=0
  alea check examples/pig.prism --prop 'Pmax=? [ (opp<25 U me>=50) & (F \"won\") ]' --const goal=100,h=20,first=0
  alea check examples/pig.prism --props examples/pig_tradeoff.props --const goal=8,h=4,first=0",
        "\n\n",
        exit_codes!()
    ))]
pub struct CheckArgs {
    /// The model, in the PRISM language (`-` for standard input).
    model: PathBuf,
    /// A property to check (repeatable), e.g. `Pmax=? [F "goal"]`.
    #[arg(long = "prop", value_name = "PROPERTY")]
    props_text: Vec<String>,
    /// A file of properties: one per line or separated by `;`, optionally named
    /// (`"name": P=? [...]`), with `//` comments and `const` declarations.
    #[arg(long = "props", value_name = "FILE")]
    props_file: Option<PathBuf>,
    /// Values of constants that the model or properties leave open, e.g. `N=3,p=0.1`
    /// (repeatable).
    #[arg(long = "const", value_name = "NAME=VALUE,...")]
    constants: Vec<String>,
    /// Exact rational arithmetic: every value a fraction, proven.
    #[arg(long)]
    exact: bool,
    /// The largest error allowed in floating point: absolute, and relative for values
    /// above 1.
    #[arg(long, default_value_t = 1e-9, value_name = "E", value_parser = parse_precision)]
    precision: f64,
    /// In an mdp, only fair strategies count (PRISM's -fair): those that take every
    /// choice of a state they visit infinitely often infinitely often. It raises the
    /// least probability of an unbounded until or eventually (and lowers the greatest of
    /// G, W and R) where a strategy could avoid the target only by an unfair loop.
    #[arg(long)]
    fair: bool,
    /// The probabilities are weights: each state's (in a dtmc, all its commands' together)
    /// or each choice's (in an mdp) are divided by their sum, and need only be at least 0
    /// (PRISM's -noprobchecks, under which PRISM divides a dtmc's rows by their sums).
    #[arg(long)]
    weights: bool,
    /// One JSON object per property: property, name, value, infinite, exact,
    /// error_bound, states, transitions, choices, deadlocks, seconds (build, check);
    /// with --cluster also cluster (processes, workers, peak_bytes of each process,
    /// copies of states kept across partitions, partition_key, crossing_share of the
    /// transitions, and the property's sweeps, rounds and bytes_sent).
    #[arg(long)]
    json: bool,
    /// A state, by its variables' values (`x=3,y=2`; variables left out may have any
    /// value if only one reachable state matches): each property's value there, and in
    /// an mdp every choice there with its value and its loss against the best.
    #[arg(long, value_name = "VALUATION")]
    at: Option<String>,
    /// Write the best choice of every reachable state to FILE, as JSON Lines: the
    /// variables' values and the action (an mdp or a game; in a game each state's player
    /// too, both sides' choices; with several properties, one line per property and
    /// state).
    #[arg(long, value_name = "FILE")]
    strategy: Option<PathBuf>,
    /// The most states to explore: a guard on memory (about 60 bytes a state plus 12 a
    /// transition).
    #[arg(long, default_value_t = 100_000_000, value_name = "N")]
    max_states: usize,
    /// With --cluster: the most memory one process may hold for its part of the model
    /// (bytes, or with a unit: 500M, 2G); a run that needs more stops, naming the
    /// process.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, requires = "cluster")]
    max_memory: Option<u64>,
    /// With --cluster: how the states are split among the workers. `auto`: by a hash of
    /// the variables that transitions change least (chosen from the first 20,000
    /// states), so that most transitions stay on one worker; `hash`: by a hash of the
    /// whole state; or the variables to hash, `x,y`.
    #[arg(long, value_name = "KEY", default_value = "auto", value_parser = parse_partition, requires = "cluster")]
    partition: alea_cluster::locality::Locality,
    #[command(flatten)]
    cluster: ClusterArgs,
}

fn parse_partition(text: &str) -> Result<alea_cluster::locality::Locality, String> {
    use alea_cluster::locality::Locality;
    match text.trim() {
        "auto" => Ok(Locality::Auto),
        "hash" => Ok(Locality::Hash),
        t => {
            let vars: Vec<String> = t.split(',').map(|v| v.trim().to_string()).collect();
            if vars.iter().any(|v| v.is_empty()) {
                return Err(format!(
                    "expected auto, hash or variables such as x,y; found `{text}`"
                ));
            }
            Ok(Locality::Vars(vars))
        }
    }
}

/// A size in bytes: a whole number with an optional unit K, M, G or T (powers of 1024).
fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let scale: u64 = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => {
            return Err(format!(
                "expected a size such as 500M or 2G; found `{text}`"
            ))
        }
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("expected a size such as 500M or 2G; found `{text}`"))
}

fn parse_precision(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(e) if e > 0.0 && e < 1.0 => Ok(e),
        _ => Err(format!(
            "expected a number above 0 and below 1, such as 1e-9; found `{text}`"
        )),
    }
}

fn read(path: &std::path::Path) -> Result<Source, Failure> {
    let input = Input::read(Some(path))?;
    Source::from_bytes(input.name, input.bytes).map_err(failure)
}

/// A failure of the check as this command words it: a text's at its place, a value of
/// an option after the option's name, a limit with the option that raises it.
fn failure(f: session::Failure) -> Failure {
    let message = f.describe();
    match f.kind {
        Kind::Input => Failure::bad_input(message),
        Kind::Limit(_) => Failure::limit(message),
        Kind::Engine => Failure::other(message),
    }
}

/// The progress of a check as spinners on stderr.
#[derive(Default)]
struct Spinners {
    exploring: Mutex<Option<ProgressBar>>,
    checking: Mutex<Option<ProgressBar>>,
}

impl Spinners {
    fn start(slot: &Mutex<Option<ProgressBar>>, message: &str) {
        if let Ok(mut slot) = slot.lock() {
            *slot = Some(progress::spinner(message));
        }
    }

    fn finish(slot: &Mutex<Option<ProgressBar>>) {
        if let Some(bar) = slot.lock().ok().and_then(|mut s| s.take()) {
            bar.finish_and_clear();
        }
    }
}

impl Progress for Spinners {
    fn explore_started(&self) {
        Self::start(&self.exploring, "exploring: 0 states");
    }

    fn exploring(&self, states: usize) {
        if let Some(bar) = self
            .exploring
            .lock()
            .ok()
            .as_deref()
            .and_then(Option::as_ref)
        {
            bar.set_message(format!("exploring: {states} states"));
        }
    }

    fn explore_finished(&self) {
        Self::finish(&self.exploring);
    }

    fn check_started(&self, property: &str) {
        Self::start(&self.checking, &format!("checking {property}"));
    }

    fn check_finished(&self) {
        Self::finish(&self.checking);
    }
}

pub fn run(args: &CheckArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let started = Instant::now();
    let mut loading = Loading::parse(read(&args.model)?).map_err(failure)?;
    let given = session::given_constants(&args.constants).map_err(failure)?;
    if let Some(path) = &args.props_file {
        loading
            .add_properties(read(path)?, false)
            .map_err(failure)?;
    }
    for (i, text) in args.props_text.iter().enumerate() {
        let name = if args.props_text.len() == 1 {
            "--prop".into()
        } else {
            format!("--prop #{}", i + 1)
        };
        loading
            .add_properties(Source::new(name, text.clone()), true)
            .map_err(failure)?;
    }
    let session = Arc::new(loading.resolve(&given, args.exact).map_err(failure)?);
    if args.cluster.cluster {
        return run_cluster(args, session, out);
    }

    // Targets need no successors; leave them unexpanded unless a state beyond one may be
    // asked for (--at, --strategy).
    let settings = Settings {
        exact: args.exact,
        precision: args.precision,
        max_states: args.max_states,
        prune: args.at.is_none() && args.strategy.is_none(),
        fair: args.fair,
        weights: args.weights,
        // The command line stops with its process.
        stop: Default::default(),
    };
    let spinners = Spinners::default();
    let mut run = Run::explore(Arc::clone(&session), settings, &spinners).map_err(failure)?;
    let build = started.elapsed();

    let at = match &args.at {
        Some(text) => Some(run.find_state(text).map_err(failure)?),
        None => None,
    };
    let program = &session.program;
    if args.strategy.is_some() && !program.kind.chooses() {
        return Err(Failure::bad_input(
            "--strategy: the model is a dtmc, which has no choices; a strategy needs an mdp",
        ));
    }
    let mut strategy_lines = Vec::new();

    let ids = session.property_ids();
    let count = ids.len();
    if count == 0 {
        return print_size(args, &Sizes::of(&run.explored), build, out);
    }
    for id in ids {
        let named = session.property(id);
        let answer = run.check(id, &spinners).map_err(failure)?;
        let checked = &answer.checked;
        let explored = &*answer.model;
        let at_report = at.map(|s| state_report(&answer, s));
        let shown = Shown {
            sizes: Sizes::of(explored),
            pruned: run.pruned(),
            build,
            check: answer.seconds,
            cluster: None,
        };
        let state = |s: u32| {
            (
                explored.describe(answer.program(), s),
                valuation_json(&answer, s),
            )
        };
        write_answer(
            args,
            named,
            checked,
            &shown,
            (at_report.as_ref(), &state),
            out,
        )?;
        out.flush()?;
        // A bounded property's best choice depends on the steps left: no single choice
        // per state to write.
        if args.strategy.is_some() {
            if let Ok(strategy) = answer.strategy() {
                let tag = (count > 1).then(|| named.text.clone());
                strategy_json(&answer, strategy, tag, &mut strategy_lines);
            }
        }
    }
    if let Some(path) = &args.strategy {
        write_strategy(path, &strategy_lines)?;
    }
    Ok(())
}

/// What an answer is shown with besides its value.
struct Shown {
    sizes: Sizes,
    pruned: bool,
    build: Duration,
    check: Duration,
    /// On a cluster: the processes, the workers of each, the most bytes each process
    /// held for its part of the model, the partition, and the property's sweeps, rounds
    /// and bytes, as `--json` shows them.
    cluster: Option<Json>,
}

/// How a listed state is shown: as text, `(x=1, y=2)`, and as a JSON object.
type ShowState<'a> = &'a dyn Fn(u32) -> (String, Json);

/// One property's answer: a JSON object or a line (then a line for each state a filter
/// lists).
fn write_answer(
    args: &CheckArgs,
    named: &alea_prism::ast::NamedProperty,
    checked: &alea_prism::check::Checked,
    shown: &Shown,
    (at_report, state): (Option<&StateReport>, ShowState),
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if args.json {
        let mut o = Map::new();
        o.insert("property".into(), json!(named.text));
        if let Some(name) = &named.name {
            o.insert("name".into(), json!(name));
        }
        match &checked.value {
            Some(n) => number_fields(&mut o, n, args.exact),
            // Only true or false (or a range): no number.
            None => {
                o.insert("value".into(), Json::Null);
                o.insert("infinite".into(), json!(false));
                if args.exact {
                    o.insert("exact".into(), Json::Null);
                }
                o.insert("error_bound".into(), json!(0.0));
            }
        }
        if checked.infeasible {
            o.insert("feasible".into(), json!(false));
        }
        if !checked.pareto.is_empty() {
            let corners: Vec<Json> = checked
                .pareto
                .iter()
                .map(|(a, b)| {
                    let (mut x, mut y) = (Map::new(), Map::new());
                    number_fields(&mut x, a, args.exact);
                    number_fields(&mut y, b, args.exact);
                    json!([x, y])
                })
                .collect();
            o.insert("pareto".into(), Json::Array(corners));
        }
        if let Some((lo, hi)) = &checked.range {
            let mut low = Map::new();
            number_fields(&mut low, lo, args.exact);
            let mut high = Map::new();
            number_fields(&mut high, hi, args.exact);
            o.insert("range".into(), json!([low, high]));
        }
        if let Some(holds) = checked.holds {
            o.insert("holds".into(), json!(holds));
        }
        if !checked.listed.is_empty() {
            let listed: Vec<Json> = checked
                .listed
                .iter()
                .map(|(s, item)| {
                    let mut e = Map::new();
                    e.insert("state".into(), state(*s).1);
                    match item {
                        Item::Number(n) => number_fields(&mut e, n, args.exact),
                        Item::Bool(b) => {
                            e.insert("holds".into(), json!(b));
                        }
                    }
                    Json::Object(e)
                })
                .collect();
            o.insert("listed".into(), Json::Array(listed));
        }
        size_fields(&mut o, &shown.sizes);
        if !checked.automata.is_empty() {
            let automata: Vec<Json> = checked
                .automata
                .iter()
                .map(|a| {
                    json!({
                        "kind": if a.finite { "finite" } else { "limit-deterministic" },
                        "states": a.states,
                        "product_states": a.product_states,
                    })
                })
                .collect();
            o.insert("automata".into(), Json::Array(automata));
        }
        o.insert("pruned".into(), json!(shown.pruned));
        if let Some(cluster) = &shown.cluster {
            o.insert("cluster".into(), cluster.clone());
        }
        o.insert(
            "seconds".into(),
            json!({"build": shown.build.as_secs_f64(), "check": shown.check.as_secs_f64()}),
        );
        if let Some(r) = at_report {
            o.insert("at".into(), r.json(args.exact));
        }
        writeln!(out, "{}", Json::Object(o))?;
    } else {
        let label = match &named.name {
            Some(name) => format!("\"{name}\": {}", named.text),
            None => named.text.clone(),
        };
        if checked.infeasible {
            writeln!(out, "{label} = infeasible: no strategy meets the bounds")?;
            return Ok(());
        }
        if !checked.pareto.is_empty() {
            let corners: Vec<String> = checked
                .pareto
                .iter()
                .map(|(a, b)| format!("({}, {})", number_text(a), number_text(b)))
                .collect();
            writeln!(out, "{label} = Pareto curve through {}", corners.join(", "))?;
            return Ok(());
        }
        match (checked.holds, &checked.value, &checked.range) {
            (Some(holds), Some(value), _) => {
                writeln!(out, "{label} = {holds} (value {})", number_text(value))?
            }
            (Some(holds), None, _) => writeln!(out, "{label} = {holds}")?,
            (None, _, Some((lo, hi))) => {
                writeln!(out, "{label} = [{}, {}]", number_text(lo), number_text(hi))?
            }
            (None, Some(value), _) => writeln!(out, "{label} = {}", number_text(value))?,
            (None, None, None) => unreachable!("a property answers something"),
        }
        for (s, item) in &checked.listed {
            let value = match item {
                Item::Number(n) => number_text(n),
                Item::Bool(b) => b.to_string(),
            };
            writeln!(out, "  {}: {value}", state(*s).0)?;
        }
        if let Some(r) = at_report {
            r.write_text(out)?;
        }
    }
    Ok(())
}

fn print_size(
    args: &CheckArgs,
    sizes: &Sizes,
    build: Duration,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if args.json {
        let mut o = Map::new();
        size_fields(&mut o, sizes);
        o.insert("seconds".into(), json!({"build": build.as_secs_f64()}));
        writeln!(out, "{}", Json::Object(o))?;
    } else {
        writeln!(
            out,
            "states: {}, transitions: {}, choices: {}, initial states: {}, deadlocks: {}",
            sizes.states, sizes.transitions, sizes.choices, sizes.initial_states, sizes.deadlocks
        )?;
    }
    Ok(())
}

/// `alea check --cluster`: this process's share of the work; process 0 prints the
/// answers as the single-process check does.
fn run_cluster(
    args: &CheckArgs,
    session: Arc<alea_prism::session::Session>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let refuse = |what: &str| {
        Failure::bad_input(format!(
            "{what} is single-process only: run it without --cluster"
        ))
    };
    if args.exact {
        return Err(refuse("--exact (exact arithmetic)"));
    }
    if args.at.is_some() {
        return Err(refuse("--at"));
    }
    if args.fair {
        return Err(refuse("--fair"));
    }
    if args.weights {
        return Err(refuse("--weights"));
    }
    if args.strategy.is_some() {
        return Err(refuse("--strategy"));
    }
    // Every process must run the same job: the texts, the constants and the settings.
    let mut parts: Vec<Vec<u8>> = vec![
        b"check".to_vec(),
        session.source.text.as_bytes().to_vec(),
        args.constants.join(",").into_bytes(),
        args.precision.to_le_bytes().to_vec(),
        (args.max_states as u64).to_le_bytes().to_vec(),
        // Every process must take the same decision when a process's memory is over.
        args.max_memory.unwrap_or(0).to_le_bytes().to_vec(),
        // And split the states the same way.
        format!("{:?}", args.partition).into_bytes(),
    ];
    parts.extend(
        session
            .properties
            .iter()
            .map(|p| p.source.text.as_bytes().to_vec()),
    );
    let fingerprint =
        alea_cluster::fingerprint(&parts.iter().map(Vec::as_slice).collect::<Vec<_>>());
    let cluster = args
        .cluster
        .cluster(fingerprint)?
        .expect("--cluster was given");
    let job = alea_cluster::check::Job {
        session: Arc::clone(&session),
        precision: alea_core::numeric::round::clamp_precision(args.precision),
        limits: alea_cluster::explore::Budget {
            max_states: args.max_states.min(session::STATE_LIMIT) as u64,
            max_memory: args.max_memory,
        },
        prune: true,
        locality: args.partition.clone(),
    };
    let Some(report) = alea_cluster::check::run(&cluster, job).map_err(crate::cluster::failure)?
    else {
        return Ok(());
    };
    let sizes = report.sizes;
    let build = report.build;
    if report.answers.is_empty() && report.error.is_none() {
        return print_size(args, &sizes, build, out);
    }
    for a in &report.answers {
        let shown = Shown {
            sizes,
            pruned: report.pruned,
            build,
            check: a.seconds,
            cluster: Some(json!({
                "processes": cluster.processes,
                "workers": cluster.workers,
                "peak_bytes": report.process_bytes,
                "copies": report.copies,
                "partition_key": report.key,
                "crossing_share": report.crossing as f64 / (sizes.transitions as f64).max(1.0),
                "sweeps": a.sweeps,
                "rounds": a.rounds,
                "bytes_sent": a.bytes,
            })),
        };
        // A cluster's answers list no states: no process holds them all.
        let state = |_: u32| unreachable!("a cluster's answer lists no states");
        write_answer(
            args,
            session.property(a.id),
            &a.checked,
            &shown,
            (None, &state),
            out,
        )?;
    }
    out.flush()?;
    match report.error {
        Some(e) => Err(crate::cluster::failure(e)),
        None => Ok(()),
    }
}

fn size_fields(o: &mut Map<String, Json>, sizes: &Sizes) {
    o.insert("states".into(), json!(sizes.states));
    o.insert("transitions".into(), json!(sizes.transitions));
    o.insert("choices".into(), json!(sizes.choices));
    o.insert("initial_states".into(), json!(sizes.initial_states));
    o.insert("deadlocks".into(), json!(sizes.deadlocks));
}

/// `value`, `infinite`, `exact` (with --exact) and `error_bound`.
fn number_fields(o: &mut Map<String, Json>, n: &Number, exact: bool) {
    let infinite = n.is_infinite();
    o.insert(
        "value".into(),
        if infinite {
            Json::Null
        } else {
            json!(n.to_f64())
        },
    );
    o.insert("infinite".into(), json!(infinite));
    // JSON has no infinity: the sign of one that is negative (`-1/0` in a property).
    if infinite && n.to_f64() < 0.0 {
        o.insert("negative".into(), json!(true));
    }
    if exact {
        if let Number::Exact(q) = n {
            o.insert(
                "exact".into(),
                q.as_ref().map_or(Json::Null, |q| json!(fraction(q))),
            );
        }
    }
    let bound = if infinite { 0.0 } else { n.error_bound() };
    o.insert("error_bound".into(), json!(bound));
}

fn number_text(n: &Number) -> String {
    match n {
        _ if n.is_infinite() && n.to_f64() < 0.0 => "-infinity".into(),
        _ if n.is_infinite() => "infinity".into(),
        Number::Float { value, error_bound } => {
            format!("{} ± {error_bound:.1e}", float_text(*value))
        }
        Number::Exact(Some(q)) => {
            if q.is_integer() {
                q.numer().to_string()
            } else {
                let d = decimal(q, 15);
                let d = d.trim_end_matches('0').trim_end_matches('.');
                format!("{} (≈ {d})", fraction(q))
            }
        }
        Number::Exact(None) => "infinity".into(),
    }
}

/// A float in full precision, in scientific notation when very large or very small, so
/// that 3e90 is not printed as ninety digits.
fn float_text(v: f64) -> String {
    if v != 0.0 && !(1e-5..1e16).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// What `--at` shows for one property.
struct StateReport {
    state: String,
    valuation: Json,
    report: session::StateReport,
}

fn state_report(answer: &Answer, s: u32) -> StateReport {
    StateReport {
        state: answer.model.describe(answer.program(), s),
        valuation: valuation_json(answer, s),
        report: answer.report(s),
    }
}

impl StateReport {
    fn json(&self, exact: bool) -> Json {
        let mut o = Map::new();
        o.insert("state".into(), self.valuation.clone());
        if let Some((player, against)) = &self.report.player {
            o.insert("player".into(), json!(player));
            o.insert("against".into(), json!(against));
        }
        if let Some(v) = &self.report.value {
            number_fields(&mut o, v, exact);
        }
        let choices: Vec<Json> = self
            .report
            .choices
            .iter()
            .map(
                |ChoiceReport {
                     action,
                     value,
                     loss,
                 }| {
                    let mut c = Map::new();
                    c.insert("action".into(), json!(action));
                    number_fields(&mut c, value, exact);
                    let mut l = Map::new();
                    number_fields(&mut l, loss, exact);
                    c.insert("loss".into(), l.remove("value").unwrap_or(Json::Null));
                    if let Some(q) = l.remove("exact") {
                        c.insert("loss_exact".into(), q);
                    }
                    Json::Object(c)
                },
            )
            .collect();
        if !choices.is_empty() {
            o.insert("choices".into(), Json::Array(choices));
        }
        Json::Object(o)
    }

    fn write_text(&self, out: &mut dyn Write) -> Result<(), Failure> {
        let turn = match &self.report.player {
            Some((player, true)) => format!(", {player}'s turn (against the coalition)"),
            Some((player, false)) => format!(", {player}'s turn"),
            None => String::new(),
        };
        match &self.report.value {
            Some(v) => writeln!(out, "  at {}{turn}: {}", self.state, number_text(v))?,
            None => writeln!(
                out,
                "  at {}: (a filter: the same for every state)",
                self.state
            )?,
        }
        let width = self
            .report
            .choices
            .iter()
            .map(|c| c.action.chars().count())
            .max()
            .unwrap_or(0);
        for ChoiceReport {
            action,
            value,
            loss,
        } in &self.report.choices
        {
            writeln!(
                out,
                "    {action:width$}  {}  loss {}",
                number_text(value),
                number_text(loss)
            )?;
        }
        Ok(())
    }
}

fn valuation_json(answer: &Answer, s: u32) -> Json {
    let mut o = Map::new();
    for (name, v) in answer.valuation(s) {
        o.insert(
            name.to_string(),
            match v {
                Val::Bool(b) => json!(b),
                Val::Int(i) => json!(i),
            },
        );
    }
    Json::Object(o)
}

fn strategy_json(
    answer: &Answer,
    strategy: &[u32],
    property: Option<String>,
    lines: &mut Vec<String>,
) {
    for s in 0..strategy.len() as u32 {
        let choice = answer.best_choice(strategy, s);
        let mut o = Map::new();
        if let Some(p) = &property {
            o.insert("property".into(), json!(p));
        }
        o.insert("state".into(), valuation_json(answer, s));
        if let Some(player) = answer.owner(s) {
            o.insert("player".into(), json!(player));
        }
        o.insert("action".into(), json!(answer.choice_label(choice)));
        lines.push(Json::Object(o).to_string());
    }
}

/// Writes the strategy beside its final place first, so a failure never leaves half a
/// file under the name asked for.
fn write_strategy(path: &std::path::Path, lines: &[String]) -> Result<(), Failure> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let fail = |e: std::io::Error| {
        Failure::other(format!("--strategy: cannot write {}: {e}", path.display()))
    };
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(fail)?;
    {
        let mut w = std::io::BufWriter::new(file.as_file_mut());
        for line in lines {
            writeln!(w, "{line}").map_err(fail)?;
        }
        w.flush().map_err(fail)?;
    }
    file.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}
