//! `alea check`: a model written in the PRISM language, its properties answered exactly
//! or with a certified error bound, the value of every choice in a state, and the best
//! choice of every state.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{json, Map, Value as Json};

use alea_core::{decimal, fraction};
use alea_prism::ast::{self, ModelType, PropertyFile};
use alea_prism::check::{self, choices_at, value_of, CheckError, Number, Settings, Solved};
use alea_prism::explore::{self, ExploreError, Explored};
use alea_prism::program::Program;
use alea_prism::resolve::{self, Scope};
use alea_prism::{parser, Error as PrismError};

use crate::failure::Failure;
use crate::input::Input;
use crate::progress;

#[derive(Debug, Args)]
#[command(after_help = concat!(
        "\
Reads a model in the PRISM language (dtmc or mdp; `probabilistic` and `nondeterministic` \
too) and answers each property, one line each: `PROPERTY = VALUE ± BOUND`, the bound \
being certified: the true value is no further from VALUE than BOUND. With --exact the \
arithmetic is rational from the literals on (0.1 is 1/10) and VALUE is a fraction p/q.

Properties: P=?, Pmin=?, Pmax=? of [F phi], [phi U psi], [F<=k phi], [phi U<=k psi]; \
R=?, R{\"name\"}=?, Rmin=?, Rmax=? of [F phi] and [C<=k] (the first reward structure \
when none is named); T=?, Tmin=?, Tmax=? of [F phi] (the expected number of steps); \
filter(min|max|avg|sum|first, PROPERTY, STATES). Labels in quotes, with \"init\" and \
\"deadlock\". An expected reward is infinite where phi is not reached with probability \
one. In an mdp, say min or max. A state with no enabled command gets a self-loop. \
Without any property, the model's size is printed.
  alea check examples/pig.prism --props examples/pig.props
  alea check model.prism --prop 'Pmax=? [F \"won\"]' --const N=3 --at 'x=2,y=0'
  alea check model.prism --prop 'R{\"steps\"}min=? [F done]' --exact --json",
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
    /// One JSON object per property: property, name, value, infinite, exact,
    /// error_bound, states, transitions, choices, deadlocks, seconds (build, check).
    #[arg(long)]
    json: bool,
    /// A state, by its variables' values (`x=3,y=2`; variables left out may have any
    /// value if only one reachable state matches): each property's value there, and in
    /// an mdp every choice there with its value and its loss against the best.
    #[arg(long, value_name = "VALUATION")]
    at: Option<String>,
    /// Write the best choice of every reachable state to FILE, as JSON Lines: the
    /// variables' values and the action (an mdp; with several properties, one line per
    /// property and state).
    #[arg(long, value_name = "FILE")]
    strategy: Option<PathBuf>,
    /// The most states to explore: a guard on memory (about 60 bytes a state plus 12 a
    /// transition).
    #[arg(long, default_value_t = 100_000_000, value_name = "N")]
    max_states: usize,
}

/// The most states for which a floating-point check that does not converge is redone
/// in exact arithmetic.
const EXACT_FALLBACK_STATES: usize = 100_000;

fn parse_precision(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(e) if e > 0.0 && e < 1.0 => Ok(e),
        _ => Err(format!(
            "expected a number above 0 and below 1, such as 1e-9; found `{text}`"
        )),
    }
}

/// A text that errors point into: the model, a props file, or a command-line option.
struct Source {
    name: String,
    text: String,
}

impl Source {
    fn read(path: &std::path::Path) -> Result<Source, Failure> {
        let input = Input::read(Some(path))?;
        let name = input.name.clone();
        match String::from_utf8(input.bytes) {
            Ok(text) => Ok(Source { name, text }),
            Err(e) => {
                let bytes = e.as_bytes();
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(&bytes[..at]).into_owned();
                let (line, col) = alea_prism::error::line_col(&text, at);
                Err(Failure::bad_input(format!(
                    "{name}:{line}:{col}: the file is not UTF-8 text (byte 0x{:02x}); a PRISM model is text",
                    bytes[at]
                )))
            }
        }
    }

    fn fail(&self, e: &PrismError) -> Failure {
        Failure::bad_input(e.render(&self.name, &self.text))
    }
}

/// The properties of one source, with the scope their names resolve in.
struct Properties {
    source: Source,
    file: PropertyFile,
}

pub fn run(args: &CheckArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let started = Instant::now();
    let model_src = Source::read(&args.model)?;
    let model = parser::parse_model(&model_src.text).map_err(|e| model_src.fail(&e))?;
    if model.modules.is_empty() {
        return Err(Failure::bad_input(format!(
            "{}:1:1: the file holds no module; a model needs `dtmc` or `mdp` and at least one \
             `module ... endmodule`",
            model_src.name
        )));
    }
    let given = given_constants(&args.constants)?;

    let mut sources = Vec::new();
    if let Some(path) = &args.props_file {
        let source = Source::read(path)?;
        let file = parser::parse_properties(&source.text).map_err(|e| source.fail(&e))?;
        sources.push(Properties { source, file });
    }
    for (i, text) in args.props_text.iter().enumerate() {
        let source = Source {
            name: if args.props_text.len() == 1 {
                "--prop".into()
            } else {
                format!("--prop #{}", i + 1)
            },
            text: text.clone(),
        };
        let file = parser::parse_properties(&source.text).map_err(|e| source.fail(&e))?;
        if file.properties.is_empty() {
            return Err(Failure::bad_input(format!(
                "{}: no property in `{text}`; expected one such as `P=? [F \"goal\"]`",
                source.name
            )));
        }
        sources.push(Properties { source, file });
    }
    let files: Vec<&PropertyFile> = sources.iter().map(|p| &p.file).collect();
    let model_given =
        resolve::split_given(&model, &files, &given).map_err(|e| located(&model_src, &e))?;
    let program = resolve::resolve(&model, &model_given).map_err(|e| located(&model_src, &e))?;
    let scopes = sources
        .iter()
        .map(|p| Scope::new(&program, &model, &p.file, &given).map_err(|e| located(&p.source, &e)))
        .collect::<Result<Vec<_>, _>>()?;

    // Targets need no successors; leave them unexpanded unless a state beyond one may be
    // asked for (--at, --strategy) or no property is given (the model's size).
    let asked: Vec<(&Scope, &ast::Property)> = sources
        .iter()
        .zip(&scopes)
        .flat_map(|(props, scope)| {
            props
                .file
                .properties
                .iter()
                .map(move |n| (scope, &n.property))
        })
        .collect();
    let absorbing = if args.at.is_some() || args.strategy.is_some() || asked.is_empty() {
        None
    } else {
        // An error in a property is reported by its own check, at its place.
        check::absorbing(&asked).unwrap_or_default()
    };
    let explored = explore_model(&program, args, &model_src, absorbing.as_ref(), args.exact)?;
    let mut exact_model: Option<Option<Explored>> = None;
    let build = started.elapsed();

    let at = match &args.at {
        Some(text) => Some(find_state(&program, &explored, text)?),
        None => None,
    };
    if args.strategy.is_some() && program.kind != ModelType::Mdp {
        return Err(Failure::bad_input(
            "--strategy: the model is a dtmc, which has no choices; a strategy needs an mdp",
        ));
    }
    let mut strategy_lines = Vec::new();

    let count: usize = sources.iter().map(|p| p.file.properties.len()).sum();
    if count == 0 {
        return print_size(args, &explored, build, out);
    }
    let settings = Settings {
        exact: args.exact,
        precision: args.precision,
    };
    for (props, scope) in sources.iter().zip(&scopes) {
        for named in &props.file.properties {
            let spinner = progress::spinner(&format!("checking {}", named.text));
            let checking = Instant::now();
            let mut used = &explored;
            let mut checked = check::check(&program, &explored, scope, &named.property, &settings);
            if let Err(
                CheckError::Engine(alea_core::Error::NotConverged(..)) | CheckError::Undecided(_),
            ) = checked
            {
                // Iteration that cannot close the gap in its sweep budget (a chain built to
                // mix slowly), or a value too close to a bound to tell: a small model is
                // solved exactly instead, and rounded.
                if !args.exact && explored.states() <= EXACT_FALLBACK_STATES {
                    if exact_model.is_none() {
                        // A model that exact arithmetic cannot read (`log`, say) keeps
                        // the first error.
                        exact_model = Some(
                            explore_model(&program, args, &model_src, absorbing.as_ref(), true)
                                .ok(),
                        );
                    }
                    if let Some(Some(m)) = &exact_model {
                        used = m;
                        let exact = Settings {
                            exact: true,
                            ..settings
                        };
                        checked = check::check(&program, m, scope, &named.property, &exact)
                            .map(check::Checked::rounded);
                    }
                }
            }
            spinner.finish_and_clear();
            let checked = checked.map_err(|e| match e {
                CheckError::Property(e) => props.source.fail(&e),
                CheckError::Engine(e) => engine_failure(e),
                // Not the input's fault: the precision's.
                CheckError::Undecided(e) => Failure::limit(
                    props
                        .source
                        .fail(&e)
                        .message
                        .trim_start_matches("error: ")
                        .to_string(),
                ),
            })?;
            let explored = used;
            let seconds = checking.elapsed();
            let at_report = at.map(|s| state_report(&program, explored, &checked, s));
            if args.json {
                let mut o = Map::new();
                o.insert("property".into(), json!(named.text));
                if let Some(name) = &named.name {
                    o.insert("name".into(), json!(name));
                }
                number_fields(&mut o, &checked.value, args.exact);
                if let Some(holds) = checked.holds {
                    o.insert("holds".into(), json!(holds));
                }
                size_fields(&mut o, explored);
                o.insert("pruned".into(), json!(absorbing.is_some()));
                o.insert(
                    "seconds".into(),
                    json!({"build": build.as_secs_f64(), "check": seconds.as_secs_f64()}),
                );
                if let Some(r) = &at_report {
                    o.insert("at".into(), r.json(args.exact));
                }
                writeln!(out, "{}", Json::Object(o))?;
            } else {
                let label = match &named.name {
                    Some(name) => format!("\"{name}\": {}", named.text),
                    None => named.text.clone(),
                };
                match checked.holds {
                    Some(holds) => writeln!(
                        out,
                        "{label} = {holds} (value {})",
                        number_text(&checked.value)
                    )?,
                    None => writeln!(out, "{label} = {}", number_text(&checked.value))?,
                }
                if let Some(r) = &at_report {
                    r.write_text(out)?;
                }
            }
            // A bounded property's best choice depends on the steps left: no single
            // choice per state to write.
            if args.strategy.is_some() && !is_bounded(&named.property) {
                if let Some(solved) = &checked.solved {
                    let tag = (count > 1).then(|| named.text.clone());
                    strategy_json(&program, explored, solved, tag, &mut strategy_lines);
                }
            }
        }
    }
    if let Some(path) = &args.strategy {
        write_strategy(path, &strategy_lines)?;
    }
    Ok(())
}

/// Whether a property counts steps (`F<=k`, `U<=k`, `C<=k`).
fn is_bounded(property: &ast::Property) -> bool {
    match property {
        ast::Property::Query { path, .. } => match path {
            ast::Path::Eventually { bound, .. } | ast::Path::Until { bound, .. } => bound.is_some(),
            ast::Path::Cumulative { .. } => true,
        },
        ast::Property::Filter { property, .. } => is_bounded(property),
    }
}

/// An error from resolution: placed in its source, or, with no place (a constant given
/// on the command line), reported against the option.
fn located(source: &Source, e: &PrismError) -> Failure {
    if e.span.end == 0 {
        Failure::bad_input(format!("--const: {}", e.message))
    } else {
        source.fail(e)
    }
}

fn engine_failure(e: alea_core::Error) -> Failure {
    match e {
        alea_core::Error::TooManyStates { limit } => Failure::limit(format!(
            "more than {limit} states; raise --max-states to go on"
        )),
        other => Failure::from(other),
    }
}

/// `--const N=3,p=0.1` (the option may be repeated), each value an expression.
fn given_constants(options: &[String]) -> Result<Vec<(String, ast::Expr)>, Failure> {
    let mut given: Vec<(String, ast::Expr)> = Vec::new();
    for option in options {
        for part in option.split(',') {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let Some((name, value)) = part.split_once('=') else {
                return Err(Failure::bad_input(format!(
                    "--const: expected NAME=VALUE, found `{part}`"
                )));
            };
            let name = name.trim();
            let valid = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(Failure::bad_input(format!(
                    "--const: `{name}` is not a constant's name (letters, digits and _)"
                )));
            }
            if given.iter().any(|(n, _)| n == name) {
                return Err(Failure::bad_input(format!(
                    "--const: `{name}` is given twice"
                )));
            }
            let expr = parser::parse_expression(value).map_err(|e| {
                Failure::bad_input(format!("--const: the value of `{name}`: {}", e.message))
            })?;
            given.push((name.to_string(), expr));
        }
    }
    Ok(given)
}

fn explore_model(
    program: &Program,
    args: &CheckArgs,
    source: &Source,
    absorbing: Option<&alea_prism::program::Ex>,
    exact: bool,
) -> Result<Explored, Failure> {
    let bar = progress::spinner("exploring: 0 states");
    let progress = |states: usize| bar.set_message(format!("exploring: {states} states"));
    let options = explore::Options {
        exact,
        // The engine numbers states below 2^30.
        max_states: args.max_states.min((1 << 30) - 1),
        progress: Some(&progress),
        absorbing,
    };
    let explored = explore::explore(program, &options);
    bar.finish_and_clear();
    explored.map_err(|e| match e {
        ExploreError::TooManyStates { limit } => Failure::limit(format!(
            "the model has more than {limit} reachable states; raise --max-states to go on"
        )),
        ExploreError::Model(e) => source.fail(&e),
    })
}

fn print_size(
    args: &CheckArgs,
    explored: &Explored,
    build: Duration,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if args.json {
        let mut o = Map::new();
        size_fields(&mut o, explored);
        o.insert("seconds".into(), json!({"build": build.as_secs_f64()}));
        writeln!(out, "{}", Json::Object(o))?;
    } else {
        let m = &explored.sparse;
        writeln!(
            out,
            "states: {}, transitions: {}, choices: {}, initial states: {}, deadlocks: {}",
            m.states(),
            m.transitions(),
            m.choice_count(),
            m.initial.len(),
            explored.deadlocks
        )?;
    }
    Ok(())
}

fn size_fields(o: &mut Map<String, Json>, explored: &Explored) {
    let m = &explored.sparse;
    o.insert("states".into(), json!(m.states()));
    o.insert("transitions".into(), json!(m.transitions()));
    o.insert("choices".into(), json!(m.choice_count()));
    o.insert("initial_states".into(), json!(m.initial.len()));
    o.insert("deadlocks".into(), json!(explored.deadlocks));
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
    value: Option<Number>,
    choices: Vec<(String, Number, Number)>,
}

fn state_report(
    program: &Program,
    explored: &Explored,
    checked: &check::Checked,
    s: u32,
) -> StateReport {
    let (value, choices) = match &checked.solved {
        Some(solved) => {
            let mut choices: Vec<(String, Number, Number)> =
                choices_at(explored, solved, s as usize)
                    .into_iter()
                    .map(|c| {
                        let choice = explored.sparse.choices[s as usize] + c.index;
                        (choice_label(program, explored, choice), c.value, c.loss)
                    })
                    .collect();
            // Best first; ties in the order the model lists them.
            choices.sort_by(|a, b| {
                a.2.to_f64()
                    .partial_cmp(&b.2.to_f64())
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            (Some(value_of(solved, s as usize)), choices)
        }
        None => (None, Vec::new()),
    };
    StateReport {
        state: explored.describe(program, s),
        valuation: valuation_json(program, explored, s),
        value,
        choices,
    }
}

impl StateReport {
    fn json(&self, exact: bool) -> Json {
        let mut o = Map::new();
        o.insert("state".into(), self.valuation.clone());
        if let Some(v) = &self.value {
            number_fields(&mut o, v, exact);
        }
        let choices: Vec<Json> = self
            .choices
            .iter()
            .map(|(action, value, loss)| {
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
            })
            .collect();
        if !choices.is_empty() {
            o.insert("choices".into(), Json::Array(choices));
        }
        Json::Object(o)
    }

    fn write_text(&self, out: &mut dyn Write) -> Result<(), Failure> {
        match &self.value {
            Some(v) => writeln!(out, "  at {}: {}", self.state, number_text(v))?,
            None => writeln!(
                out,
                "  at {}: (a filter: the same for every state)",
                self.state
            )?,
        }
        let width = self
            .choices
            .iter()
            .map(|c| c.0.chars().count())
            .max()
            .unwrap_or(0);
        for (action, value, loss) in &self.choices {
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

fn valuation_json(program: &Program, explored: &Explored, s: u32) -> Json {
    let values = explored.valuation(s);
    let mut o = Map::new();
    for (var, v) in program.variables.iter().zip(values) {
        o.insert(
            var.name.clone(),
            if var.is_bool { json!(v != 0) } else { json!(v) },
        );
    }
    Json::Object(o)
}

/// `--at x=3,y=2`: the one reachable state with those values.
fn find_state(program: &Program, explored: &Explored, text: &str) -> Result<u32, Failure> {
    let mut wanted: Vec<(usize, i64)> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((name, value)) = part.split_once('=') else {
            return Err(Failure::bad_input(format!(
                "--at: expected NAME=VALUE, found `{part}`"
            )));
        };
        let (name, value) = (name.trim(), value.trim());
        let Some(index) = program.variables.iter().position(|v| v.name == name) else {
            let names: Vec<&str> = program.variables.iter().map(|v| v.name.as_str()).collect();
            return Err(Failure::bad_input(format!(
                "--at: no variable `{name}`; the model's variables are {}",
                names.join(", ")
            )));
        };
        let var = &program.variables[index];
        let v = match (var.is_bool, value) {
            (true, "true") => 1,
            (true, "false") => 0,
            (true, _) => {
                return Err(Failure::bad_input(format!(
                    "--at: `{name}` is a bool variable: expected true or false, found `{value}`"
                )))
            }
            (false, _) => value.parse::<i64>().map_err(|_| {
                Failure::bad_input(format!(
                    "--at: `{name}` is an int variable: expected an integer, found `{value}`"
                ))
            })?,
        };
        if v < var.low || v > var.high {
            return Err(Failure::bad_input(format!(
                "--at: {name}={v} is outside its range {}..{}",
                var.low, var.high
            )));
        }
        wanted.push((index, v));
    }
    if wanted.is_empty() {
        return Err(Failure::bad_input(
            "--at: expected a state such as `x=3,y=2`",
        ));
    }
    let mut found = None;
    let mut matches = 0usize;
    for s in 0..explored.sparse.states() as u32 {
        let values = explored.valuation(s);
        if wanted.iter().all(|&(i, v)| values[i] == v) {
            matches += 1;
            found.get_or_insert(s);
        }
    }
    match (found, matches) {
        (Some(s), 1) => Ok(s),
        (None, _) => Err(Failure::bad_input(format!(
            "--at: no reachable state has {text}"
        ))),
        (Some(_), n) => Err(Failure::bad_input(format!(
            "--at: {n} reachable states have {text}; give more variables' values to pick one"
        ))),
    }
}

fn strategy_json(
    program: &Program,
    explored: &Explored,
    solved: &Solved,
    property: Option<String>,
    lines: &mut Vec<String>,
) {
    let strategy = match &solved.values {
        check::StateValues::Float(a) => &a.strategy,
        check::StateValues::Exact(a) => &a.strategy,
    };
    for (s, &pick) in strategy.iter().enumerate() {
        let choice = explored.sparse.choices[s] + pick as usize;
        let mut o = Map::new();
        if let Some(p) = &property {
            o.insert("property".into(), json!(p));
        }
        o.insert("state".into(), valuation_json(program, explored, s as u32));
        o.insert(
            "action".into(),
            json!(choice_label(program, explored, choice)),
        );
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

/// A choice as `--at` and `--strategy` name it: its action in brackets, and for choices
/// of unlabelled commands, which of the state's choices it is.
fn choice_label(program: &Program, explored: &Explored, choice: usize) -> String {
    match explored.action(choice) {
        Some(a) => format!("[{}]", program.actions[a as usize]),
        None => {
            let s = explored.sparse.choices.partition_point(|&c| c <= choice) - 1;
            format!("[] #{}", choice - explored.sparse.choices[s] + 1)
        }
    }
}
