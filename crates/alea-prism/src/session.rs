//! One check of a model from start to end, as `alea check` and the Python package both
//! run it: the model and its texts of properties read and resolved against the constants
//! given ([`Loading`], [`Session`]); the model explored, its properties' targets left
//! unexpanded when no state beyond them is asked for ([`Run`]); each property answered,
//! a small model whose floating-point iteration cannot settle a value answered in exact
//! arithmetic instead ([`Run::check`]); a state found by its variables' values
//! ([`Run::find_state`]); the value and every choice of a state ([`Answer::report`]);
//! the best choice of every state ([`Answer::strategy`]).
//!
//! Nothing here prints, writes a file or draws progress: a front end does, through
//! [`Progress`]. A [`Failure`] says what is at fault ([`Subject`]), where ([`Place`]),
//! and whether it is bad input, a limit (which one) or the engine's ([`Kind`]); the
//! front end phrases it for its own options.

use std::sync::Arc;
use std::time::{Duration, Instant};

use alea_core::Stop;

use crate::ast::{self, PropertyFile};
use crate::check::{self, choices_at, value_of, CheckError, Checked, Number, StateValues};
use crate::error::{line_col, Error, Span};
use crate::explore::{self, ExploreError, Explored};
use crate::parser;
use crate::program::{Ex, Program};
use crate::resolve::{self, Scope};

/// The most states for which a floating-point check that does not converge (or cannot
/// tell a bound) is redone in exact arithmetic.
pub const EXACT_FALLBACK_STATES: usize = 100_000;

/// The most states any exploration stores: the engine numbers states below 2^30.
pub const STATE_LIMIT: usize = (1 << 30) - 1;

/// A text that errors point into: the model, or a text of properties, by the name
/// errors give it (a path, `<stdin>`, `--prop`, `<model>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub name: String,
    pub text: String,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
        }
    }

    /// Text from bytes read elsewhere; bytes that are not UTF-8 are bad input placed at
    /// the first of them.
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Result<Source, Failure> {
        let name = name.into();
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Source { name, text }),
            Err(e) => {
                let bytes = e.as_bytes();
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(&bytes[..at]).into_owned();
                let (line, column) = line_col(&text, at);
                let message = format!(
                    "the file is not UTF-8 text (byte 0x{:02x}); a PRISM model is text",
                    bytes[at]
                );
                Err(Failure {
                    kind: Kind::Input,
                    subject: Subject::Text(name),
                    place: Some(Place {
                        span: Span::new(at, at + 1),
                        line,
                        column,
                        excerpt: None,
                    }),
                    message,
                })
            }
        }
    }

    /// An error in this text, at its place, with the line it is on shown.
    pub fn fail(&self, e: &Error) -> Failure {
        self.fail_as(e, Kind::Input)
    }

    fn fail_as(&self, e: &Error, kind: Kind) -> Failure {
        let (line, column) = e.line_col(&self.text);
        let rendered = e.render(&self.name, &self.text);
        let head = format!("{}:{line}:{column}: {}", self.name, e.message);
        let excerpt = rendered.strip_prefix(head.as_str()).map(str::to_string);
        Failure {
            kind,
            subject: Subject::Text(self.name.clone()),
            place: Some(Place {
                span: e.span,
                line,
                column,
                excerpt,
            }),
            message: e.message.clone(),
        }
    }
}

/// Why a check stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: Kind,
    pub subject: Subject,
    /// Where in the text named by [`Subject::Text`]; `None` for a failure of the whole
    /// text or of something else.
    pub place: Option<Place>,
    /// What is wrong, without the place.
    pub message: String,
}

/// Whose fault a failure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The input is wrong: the model, a property, a constant's value, a state.
    Input,
    /// A resource guard stopped the work: raising the limit may let it finish.
    Limit(Limit),
    /// The engine could not evaluate the model as described.
    Engine,
}

/// The resource guards of a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// More reachable (or stored) states than allowed.
    MaxStates,
    /// The precision asked for cannot be reached, or a value is too close to a bound
    /// for its error bound to tell.
    Precision,
    /// A bounded iteration ran out of steps.
    Steps,
}

/// What a failure is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A text, by its name: the model or a text of properties.
    Text(String),
    /// The values given to constants from outside the texts (`--const`).
    Constants,
    /// A state asked for by its variables' values (`--at`).
    State,
    /// The work itself: a limit or the engine.
    Work,
}

/// A place in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The bytes at fault.
    pub span: Span,
    /// 1-based, in characters, as the command line reports them.
    pub line: usize,
    pub column: usize,
    /// The line at fault and a caret under the place, as the command line shows them
    /// below the message (starting with a newline); `None` where the place is shown
    /// without them.
    pub excerpt: Option<String>,
}

impl Failure {
    fn new(kind: Kind, subject: Subject, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            subject,
            place: None,
            message: message.into(),
        }
    }

    /// The failure as the command line words a failure of a text: `NAME:LINE:COL:
    /// message` and the line at fault, or `NAME: message` without a place; for other
    /// subjects the message alone.
    /// The message a command line shows: located in its text, or naming the option
    /// (`--const`, `--at`) or the limit to raise.
    pub fn describe(&self) -> String {
        match (&self.subject, self.kind) {
            (Subject::Text(_), _) => self.located(),
            (Subject::Constants, _) => format!("--const: {}", self.message),
            (Subject::State, _) => format!("--at: {}", self.message),
            (Subject::Work, Kind::Limit(Limit::MaxStates)) => {
                format!("{}; raise --max-states to go on", self.message)
            }
            (Subject::Work, _) => self.message.clone(),
        }
    }

    pub fn located(&self) -> String {
        match (&self.subject, &self.place) {
            (Subject::Text(name), Some(p)) => format!(
                "{name}:{}:{}: {}{}",
                p.line,
                p.column,
                self.message,
                p.excerpt.as_deref().unwrap_or("")
            ),
            (Subject::Text(name), None) => format!("{name}: {}", self.message),
            _ => self.message.clone(),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.located())
    }
}

impl std::error::Error for Failure {}

/// Values of constants given from outside the model and its properties, each an
/// expression, in the order given.
pub type Given = Vec<(String, ast::Expr)>;

/// Constants as the command line gives them: options of `NAME=VALUE` parts separated by
/// commas (`N=3,p=0.1`), each value an expression; a name given twice is an error.
pub fn given_constants(options: &[String]) -> Result<Given, Failure> {
    let mut given = Given::new();
    for option in options {
        for part in option.split(',') {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let Some((name, value)) = part.split_once('=') else {
                return Err(Failure::new(
                    Kind::Input,
                    Subject::Constants,
                    format!("expected NAME=VALUE, found `{part}`"),
                ));
            };
            give(&mut given, name, value)?;
        }
    }
    Ok(given)
}

/// Constants as pairs of a name and the text of an expression.
pub fn given_pairs(pairs: &[(&str, &str)]) -> Result<Given, Failure> {
    let mut given = Given::new();
    for &(name, value) in pairs {
        give(&mut given, name, value)?;
    }
    Ok(given)
}

fn give(given: &mut Given, name: &str, value: &str) -> Result<(), Failure> {
    let bad = |message: String| Failure::new(Kind::Input, Subject::Constants, message);
    let name = name.trim();
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(bad(format!(
            "`{name}` is not a constant's name (letters, digits and _)"
        )));
    }
    if given.iter().any(|(n, _)| n == name) {
        return Err(bad(format!("`{name}` is given twice")));
    }
    let expr = parser::parse_expression(value)
        .map_err(|e| bad(format!("the value of `{name}`: {}", e.message)))?;
    given.push((name.to_string(), expr));
    Ok(())
}

/// A text of properties, parsed.
#[derive(Clone, Debug)]
pub struct Properties {
    pub source: Source,
    pub file: PropertyFile,
}

/// A model parsed, its texts of properties being added.
pub struct Loading {
    source: Source,
    model: ast::Model,
    properties: Vec<Properties>,
}

impl Loading {
    /// Parses the model; one without a module is refused.
    pub fn parse(source: Source) -> Result<Loading, Failure> {
        let model = parser::parse_model(&source.text).map_err(|e| source.fail(&e))?;
        if model.modules.is_empty() {
            return Err(Failure {
                kind: Kind::Input,
                subject: Subject::Text(source.name.clone()),
                place: Some(Place {
                    span: Span::new(0, 0),
                    line: 1,
                    column: 1,
                    excerpt: None,
                }),
                message: "the file holds no module; a model needs `dtmc` or `mdp` and at least \
                          one `module ... endmodule`"
                    .into(),
            });
        }
        Ok(Loading {
            source,
            model,
            properties: Vec::new(),
        })
    }

    /// Parses a text of properties (with its names, constants, formulas and labels);
    /// `require` refuses one that holds no property.
    pub fn add_properties(&mut self, source: Source, require: bool) -> Result<(), Failure> {
        let file = parser::parse_properties(&source.text).map_err(|e| source.fail(&e))?;
        if require && file.properties.is_empty() {
            let message = format!(
                "no property in `{}`; expected one such as `P=? [F \"goal\"]`",
                source.text
            );
            return Err(Failure::new(
                Kind::Input,
                Subject::Text(source.name),
                message,
            ));
        }
        self.properties.push(Properties { source, file });
        Ok(())
    }

    /// Resolves the model and its properties with `given` the values of the constants
    /// they leave open; for exact checking when `exact` (decisions on reals, such as
    /// `1/3 = 0.333333333333333333`, are then made on exact values, as in PRISM's exact
    /// mode: check such a session with [`Settings::exact`]).
    pub fn resolve(self, given: &[(String, ast::Expr)], exact: bool) -> Result<Session, Failure> {
        let Loading {
            source,
            model,
            properties,
        } = self;
        let files: Vec<&PropertyFile> = properties.iter().map(|p| &p.file).collect();
        let model_given =
            resolve::split_given(&model, &files, given).map_err(|e| located(&source, &e))?;
        let program =
            resolve::resolve_with(&model, &model_given, exact).map_err(|e| located(&source, &e))?;
        let scopes = properties
            .iter()
            .map(|p| {
                Scope::new(&program, &model, &p.file, given).map_err(|e| located(&p.source, &e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Session {
            source,
            model,
            program,
            properties,
            scopes,
        })
    }
}

/// An error from resolution: placed in its text, or, with no place (a constant given
/// from outside), an error of the constants given.
fn located(source: &Source, e: &Error) -> Failure {
    if e.span.end == 0 {
        Failure::new(Kind::Input, Subject::Constants, e.message.clone())
    } else {
        source.fail(e)
    }
}

/// A model and its properties, resolved.
pub struct Session {
    /// The model's text.
    pub source: Source,
    pub model: ast::Model,
    pub program: Program,
    /// The texts of properties, in the order added.
    pub properties: Vec<Properties>,
    scopes: Vec<Scope>,
}

/// One property of a session: the index of its text and its index in that text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropertyId {
    pub text: usize,
    pub index: usize,
}

impl Session {
    /// The answer a property asks for, as a question for a checker that keeps the model
    /// elsewhere (alea's cluster).
    pub fn plan(&self, id: PropertyId) -> Result<check::Plan, Failure> {
        let props = &self.properties[id.text];
        let named = &props.file.properties[id.index];
        check::plan(&self.program, &self.scopes[id.text], &named.property).map_err(|e| match e {
            CheckError::Property(e) | CheckError::Undecided(e) => props.source.fail(&e),
            CheckError::Engine(e) => engine_failure(e),
        })
    }

    /// The answer of a plan from the values of the initial states (see
    /// [`check::conclude`]).
    pub fn conclude(
        &self,
        id: PropertyId,
        plan: &check::Plan,
        initial: Vec<(check::Number, bool)>,
    ) -> Result<check::Checked, Failure> {
        let props = &self.properties[id.text];
        check::conclude(plan, initial).map_err(|e| match e {
            CheckError::Property(e) => props.source.fail(&e),
            CheckError::Engine(e) => engine_failure(e),
            CheckError::Undecided(e) => props.source.fail_as(&e, Kind::Limit(Limit::Precision)),
        })
    }

    /// The answer of a filter from its parts (see [`check::conclude_filter`]).
    pub fn conclude_filter(
        &self,
        id: PropertyId,
        plan: &check::Plan,
        parts: Vec<check::Number>,
        count: usize,
        first: Option<check::Number>,
    ) -> Result<check::Checked, Failure> {
        let props = &self.properties[id.text];
        check::conclude_filter(plan, parts, count, first).map_err(|e| match e {
            CheckError::Property(e) | CheckError::Undecided(e) => props.source.fail(&e),
            CheckError::Engine(e) => engine_failure(e),
        })
    }

    /// Every property, in order: text by text, each text's in its order.
    pub fn property_ids(&self) -> Vec<PropertyId> {
        self.properties
            .iter()
            .enumerate()
            .flat_map(|(text, p)| {
                (0..p.file.properties.len()).map(move |index| PropertyId { text, index })
            })
            .collect()
    }

    /// The property and its name.
    pub fn property(&self, id: PropertyId) -> &ast::NamedProperty {
        &self.properties[id.text].file.properties[id.index]
    }

    /// The states none of the properties needs expanded (their targets), or `None` when
    /// every state is needed or no property is asked.
    pub fn absorbing(&self) -> Option<Ex> {
        let asked: Vec<(&Scope, &ast::Expr)> = self
            .properties
            .iter()
            .zip(&self.scopes)
            .flat_map(|(props, scope)| {
                props
                    .file
                    .properties
                    .iter()
                    .map(move |n| (scope, &n.property))
            })
            .collect();
        if asked.is_empty() {
            return None;
        }
        // An error in a property is reported by its own check, at its place.
        check::absorbing(&asked).unwrap_or_default()
    }
}

/// Told how a check goes, for a front end to show; every method does nothing unless
/// overridden.
pub trait Progress: Sync {
    /// An exploration starts (in exact arithmetic or not).
    fn explore_started(&self) {}
    /// So many states expanded so far (every 100,000 states).
    fn exploring(&self, _states: usize) {}
    /// The exploration ended, well or not.
    fn explore_finished(&self) {}
    /// The check of a property (its text) starts.
    fn check_started(&self, _property: &str) {}
    /// That check ended, well or not.
    fn check_finished(&self) {}
}

/// No progress shown.
pub struct Quiet;

impl Progress for Quiet {}

/// The size of an explored model, as every front end reports it beside the answers
/// (or alone, when no property is asked): counted here once, so that the command line
/// and the Python package count alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub states: u64,
    pub transitions: u64,
    pub choices: u64,
    pub initial_states: u64,
    /// States without an enabled command (given a self-loop).
    pub deadlocks: u64,
}

impl Sizes {
    pub fn of(explored: &Explored) -> Sizes {
        let m = &explored.form;
        Sizes {
            states: m.states() as u64,
            transitions: m.transitions() as u64,
            choices: m.choice_count() as u64,
            initial_states: m.initial.len() as u64,
            deadlocks: explored.deadlocks as u64,
        }
    }
}

/// How to explore and check.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Rationals from the literals on; otherwise `f64` with a certified bound. Exact
    /// decisions too need the session resolved for exact checking ([`Loading::resolve`]).
    pub exact: bool,
    /// The largest error allowed in `f64`: absolute, relative for values above 1.
    pub precision: f64,
    /// The most states to explore (at most [`STATE_LIMIT`]).
    pub max_states: usize,
    /// Leave the properties' targets unexpanded: their values need no successor. Off
    /// when states beyond the targets are asked for (a state's value, a strategy).
    pub prune: bool,
    /// In an mdp, only fair strategies count ([`check::Settings::fair`]).
    pub fair: bool,
    /// The probabilities are weights, divided by their sums ([`explore::Options::weights`]).
    pub weights: bool,
    /// Raised, it stops a check part way (a deadline, Ctrl-C).
    pub stop: Stop,
}

/// A session's model explored, its properties being checked.
pub struct Run {
    pub session: Arc<Session>,
    pub explored: Arc<Explored>,
    pub settings: Settings,
    /// The states left unexpanded; `None` when every reachable state was expanded.
    pub absorbing: Option<Ex>,
    /// The model explored in exact arithmetic, once a check falls back on it (`None`
    /// inside when exact arithmetic cannot read the model).
    exact_model: Option<Option<Arc<Explored>>>,
}

impl Run {
    /// Explores the session's model.
    pub fn explore(
        session: Arc<Session>,
        settings: Settings,
        progress: &dyn Progress,
    ) -> Result<Run, Failure> {
        let absorbing = if settings.prune {
            session.absorbing()
        } else {
            None
        };
        let explored = explore_model(
            &session,
            &settings,
            absorbing.as_ref(),
            settings.exact,
            progress,
        )?;
        Ok(Run {
            session,
            explored: Arc::new(explored),
            settings,
            absorbing,
            exact_model: None,
        })
    }

    /// Whether the targets were left unexpanded.
    pub fn pruned(&self) -> bool {
        self.absorbing.is_some()
    }

    /// Answers one property. In floating point, a model of at most
    /// [`EXACT_FALLBACK_STATES`] states whose iteration does not converge, or whose value
    /// is too close to a bound to tell, is checked again in exact arithmetic and the
    /// answer rounded.
    pub fn check(&mut self, id: PropertyId, progress: &dyn Progress) -> Result<Answer, Failure> {
        let session = Arc::clone(&self.session);
        let props = &session.properties[id.text];
        let named = &props.file.properties[id.index];
        let scope = &session.scopes[id.text];
        progress.check_started(&named.text);
        let checking = Instant::now();
        let mut used = Arc::clone(&self.explored);
        let settings = check::Settings {
            exact: self.settings.exact,
            precision: self.settings.precision,
            fair: self.settings.fair,
            stop: self.settings.stop.clone(),
        };
        let program = &session.program;
        let mut checked = check::check(
            program,
            &self.explored,
            scope,
            &props.file.properties,
            &named.property,
            &settings,
        );
        if let Err(
            CheckError::Engine(alea_core::Error::NotConverged(..) | alea_core::Error::NotExact)
            | CheckError::Undecided(_),
        ) = checked
        {
            // Iteration that cannot close the gap in its sweep budget (a chain built to
            // mix slowly), a value too close to a bound to tell, or a question solved
            // in exact arithmetic only (`F0`): a small model is solved exactly instead,
            // and rounded.
            if !self.settings.exact && self.explored.states() <= EXACT_FALLBACK_STATES {
                if self.exact_model.is_none() {
                    // A model that exact arithmetic cannot read (`log`, say) keeps the
                    // first error.
                    let absorbing = self.absorbing.as_ref();
                    self.exact_model = Some(
                        explore_model(&session, &self.settings, absorbing, true, progress)
                            .ok()
                            .map(Arc::new),
                    );
                }
                if let Some(Some(m)) = &self.exact_model {
                    used = Arc::clone(m);
                    let exact = check::Settings {
                        exact: true,
                        ..settings
                    };
                    checked = check::check(
                        program,
                        m,
                        scope,
                        &props.file.properties,
                        &named.property,
                        &exact,
                    )
                    .map(Checked::rounded);
                }
            }
        }
        progress.check_finished();
        let checked = checked.map_err(|e| match e {
            CheckError::Property(e) => props.source.fail(&e),
            CheckError::Engine(e) => engine_failure(e),
            // Not the input's fault: the precision's.
            CheckError::Undecided(e) => props.source.fail_as(&e, Kind::Limit(Limit::Precision)),
        })?;
        Ok(Answer {
            session: Arc::clone(&session),
            id,
            model: used,
            checked,
            fair: self.settings.fair,
            seconds: checking.elapsed(),
        })
    }

    /// The one reachable state with the values given as `x=3,y=2` (variables left out
    /// may have any value if only one state matches).
    pub fn find_state(&self, text: &str) -> Result<u32, Failure> {
        find_state(&self.session.program, &self.explored, text)
    }
}

fn explore_model(
    session: &Session,
    settings: &Settings,
    absorbing: Option<&Ex>,
    exact: bool,
    progress: &dyn Progress,
) -> Result<Explored, Failure> {
    progress.explore_started();
    let report = |states: usize| progress.exploring(states);
    let options = explore::Options {
        exact,
        max_states: settings.max_states.min(STATE_LIMIT),
        progress: Some(&report),
        absorbing,
        stop: Some(&settings.stop),
        weights: settings.weights,
    };
    let explored = explore::explore(&session.program, &options);
    progress.explore_finished();
    explored.map_err(|e| match e {
        ExploreError::TooManyStates { limit } => Failure::new(
            Kind::Limit(Limit::MaxStates),
            Subject::Work,
            format!("the model has more than {limit} reachable states"),
        ),
        ExploreError::Model(e) => session.source.fail(&e),
        ExploreError::Stopped => engine_failure(alea_core::Error::Stopped),
    })
}

/// An engine error as a failure: a limit, or the engine's.
fn engine_failure(e: alea_core::Error) -> Failure {
    let (kind, message) = match e {
        alea_core::Error::TooManyStates { limit } => (
            Kind::Limit(Limit::MaxStates),
            format!("more than {limit} states"),
        ),
        alea_core::Error::NotConverged(..) => (Kind::Limit(Limit::Precision), e.to_string()),
        alea_core::Error::StepLimit(_) => (Kind::Limit(Limit::Steps), e.to_string()),
        other => (Kind::Engine, other.to_string()),
    };
    Failure::new(kind, Subject::Work, message)
}

/// A variable's value in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    Int(i64),
    Bool(bool),
}

/// The variables' values of state `s`, by name, in the model's order.
pub fn valuation<'p>(program: &'p Program, explored: &Explored, s: u32) -> Vec<(&'p str, Val)> {
    let values = explored.valuation(s);
    program
        .variables
        .iter()
        .zip(values)
        .map(|(var, v)| {
            let v = if var.is_bool {
                Val::Bool(v != 0)
            } else {
                Val::Int(v)
            };
            (var.name.as_str(), v)
        })
        .collect()
}

/// `x=3,y=2`: the one reachable state with those values.
pub fn find_state(program: &Program, explored: &Explored, text: &str) -> Result<u32, Failure> {
    let bad = |message: String| Failure::new(Kind::Input, Subject::State, message);
    let mut wanted: Vec<(usize, i64)> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((name, value)) = part.split_once('=') else {
            return Err(bad(format!("expected NAME=VALUE, found `{part}`")));
        };
        let (name, value) = (name.trim(), value.trim());
        let Some(index) = program.variables.iter().position(|v| v.name == name) else {
            let names: Vec<&str> = program.variables.iter().map(|v| v.name.as_str()).collect();
            return Err(bad(format!(
                "no variable `{name}`; the model's variables are {}",
                names.join(", ")
            )));
        };
        let var = &program.variables[index];
        let v = match (var.is_bool, value) {
            (true, "true") => 1,
            (true, "false") => 0,
            (true, _) => {
                return Err(bad(format!(
                    "`{name}` is a bool variable: expected true or false, found `{value}`"
                )))
            }
            (false, _) => value.parse::<i64>().map_err(|_| {
                bad(format!(
                    "`{name}` is an int variable: expected an integer, found `{value}`"
                ))
            })?,
        };
        if v < var.low || v > var.high {
            return Err(bad(format!(
                "{name}={v} is outside its range {}..{}",
                var.low, var.high
            )));
        }
        wanted.push((index, v));
    }
    if wanted.is_empty() {
        return Err(bad("expected a state such as `x=3,y=2`".into()));
    }
    let mut found = None;
    let mut matches = 0usize;
    let mut values = vec![0; program.variables.len()];
    for s in 0..explored.form.states() as u32 {
        explored.valuation_into(s, &mut values);
        if wanted.iter().all(|&(i, v)| values[i] == v) {
            matches += 1;
            found.get_or_insert(s);
        }
    }
    match (found, matches) {
        (Some(s), 1) => Ok(s),
        (None, _) => Err(bad(format!("no reachable state has {text}"))),
        (Some(_), n) => Err(bad(format!(
            "{n} reachable states have {text}; give more variables' values to pick one"
        ))),
    }
}

/// A property answered, with the model its values are of (the exact one when the check
/// fell back on exact arithmetic).
#[derive(Clone)]
pub struct Answer {
    pub session: Arc<Session>,
    pub id: PropertyId,
    pub model: Arc<Explored>,
    pub checked: Checked,
    /// Checked counting only fair strategies ([`Settings::fair`]).
    pub fair: bool,
    /// How long the check took.
    pub seconds: Duration,
}

/// What a state is worth, and each of its choices.
#[derive(Clone, Debug)]
pub struct StateReport {
    pub state: u32,
    /// `None` for a filter: one number for the model, not a value per state.
    pub value: Option<Number>,
    /// In an mdp, every choice with its value and its loss against the best, best first
    /// (ties in the model's order); empty where nothing is chosen.
    pub choices: Vec<ChoiceReport>,
    /// In a game, the player whose turn it is, and whether that player chooses against
    /// the query's coalition (the loss is then what the choice loses for that player).
    pub player: Option<(String, bool)>,
}

/// One choice of a state.
#[derive(Clone, Debug)]
pub struct ChoiceReport {
    /// The choice as [`Answer::choice_label`] names it.
    pub action: String,
    pub value: Number,
    pub loss: Number,
}

/// Why a property has no strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoStrategy {
    /// A Markov chain has no choices.
    Dtmc,
    /// A filter is one number, with no value per state.
    Filter,
    /// A step-bounded property's best choice depends on the steps left.
    Bounded,
    /// Under fairness, a probability's best strategy may have to take every choice of a
    /// loop now and then: it is randomised, not one choice per state.
    Fair,
}

impl std::fmt::Display for NoStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoStrategy::Dtmc => {
                "the model is a dtmc, which has no choices; a strategy needs an mdp"
            }
            NoStrategy::Filter => "a filter is one number for the model: it has no value per state",
            NoStrategy::Bounded => {
                "a step-bounded property's best choice depends on the steps left: no single \
                 choice per state"
            }
            NoStrategy::Fair => {
                "under --fair a probability's best strategy takes every choice of a loop now \
                 and then: it is randomised, with no single choice per state"
            }
        })
    }
}

impl Answer {
    pub fn property(&self) -> &ast::NamedProperty {
        self.session.property(self.id)
    }

    pub fn program(&self) -> &Program {
        &self.session.program
    }

    /// The value of state `s` (`None` for a filter).
    pub fn value(&self, s: u32) -> Option<Number> {
        self.checked
            .solved
            .as_ref()
            .map(|solved| value_of(solved, s as usize))
    }

    /// The value and every choice of state `s`.
    pub fn report(&self, s: u32) -> StateReport {
        let explored = &*self.model;
        let (value, choices) = match &self.checked.solved {
            Some(solved) => {
                let mut choices: Vec<ChoiceReport> = choices_at(explored, solved, s as usize)
                    .into_iter()
                    .map(|c| {
                        let choice = explored.form.choices[s as usize] + c.index;
                        ChoiceReport {
                            action: self.choice_label(choice),
                            value: c.value,
                            loss: c.loss,
                        }
                    })
                    .collect();
                // Best first; ties in the order the model lists them.
                choices.sort_by(|a, b| {
                    a.loss
                        .to_f64()
                        .partial_cmp(&b.loss.to_f64())
                        .unwrap_or(std::cmp::Ordering::Equal)
                });
                (Some(value_of(solved, s as usize)), choices)
            }
            None => (None, Vec::new()),
        };
        let against = match &self.checked.solved {
            Some(solved) => solved.against.get(s as usize).copied().unwrap_or(false),
            None => false,
        };
        StateReport {
            state: s,
            value,
            choices,
            player: self.owner(s).map(|p| (p.to_string(), against)),
        }
    }

    /// The best choice of every state, as an index among the state's choices.
    pub fn strategy(&self) -> Result<&[u32], NoStrategy> {
        if !self.session.program.kind.chooses() {
            return Err(NoStrategy::Dtmc);
        }
        if is_bounded(&self.property().property) {
            return Err(NoStrategy::Bounded);
        }
        if self.fair && is_probability(&self.property().property) {
            return Err(NoStrategy::Fair);
        }
        match &self.checked.solved {
            None => Err(NoStrategy::Filter),
            Some(solved) => Ok(match &solved.values {
                StateValues::Float(a) => &a.strategy,
                StateValues::Exact(a) => &a.strategy,
            }),
        }
    }

    /// The best choice of state `s` as an index among all choices (see
    /// [`Answer::strategy`]).
    pub fn best_choice(&self, strategy: &[u32], s: u32) -> usize {
        self.model.form.choices[s as usize] + strategy[s as usize] as usize
    }

    /// A choice as the command line names it: its action in brackets, and for choices
    /// of unlabelled commands, which of the state's choices it is (`[] #2`).
    pub fn choice_label(&self, choice: usize) -> String {
        choice_label(&self.session.program, &self.model, choice)
    }

    /// In a game, the name of the player whose turn state `s` is; `None` otherwise.
    pub fn owner(&self, s: u32) -> Option<&str> {
        let owner = *self.model.owners.get(s as usize)?;
        Some(self.session.program.players.names[owner as usize].as_str())
    }

    /// The variables' values of state `s`.
    pub fn valuation(&self, s: u32) -> Vec<(&str, Val)> {
        valuation(&self.session.program, &self.model, s)
    }

    /// The one reachable state with the values given as `x=3,y=2`.
    pub fn find_state(&self, text: &str) -> Result<u32, Failure> {
        find_state(&self.session.program, &self.model, text)
    }
}

/// Whether a property is a `P` query (under a filter too).
pub fn is_probability(property: &ast::Expr) -> bool {
    let ast::ExprKind::Operator(op) = &property.kind else {
        return false;
    };
    match &**op {
        ast::Operator::Query { op, .. } => matches!(op, ast::Query::Probability(_)),
        ast::Operator::Quantified { .. } | ast::Operator::Multi { .. } => false,
        ast::Operator::Filter { property, .. } => is_probability(property),
    }
}

/// Whether a property counts steps (`F<=k`, `U[a,b]`, `X`, `C<=k`, `I=k`): then its
/// best choice depends on the steps left.
pub fn is_bounded(property: &ast::Expr) -> bool {
    let ast::ExprKind::Operator(op) = &property.kind else {
        return false;
    };
    match &**op {
        ast::Operator::Query { path, .. } | ast::Operator::Quantified { path, .. } => match path {
            ast::Path::Eventually { bound, .. }
            | ast::Path::Globally { bound, .. }
            | ast::Path::Until { bound, .. } => bound.is_some(),
            ast::Path::Cumulative { bound } => bound.is_some(),
            ast::Path::Next { .. } | ast::Path::Instant { .. } => true,
            // An LTL path's choices depend on its automaton's state, not on steps left.
            ast::Path::LongRun
            | ast::Path::Steady { .. }
            | ast::Path::Reach { .. }
            | ast::Path::Ltl { .. } => false,
        },
        // Its strategies are randomised and remember: none is written.
        ast::Operator::Multi { .. } => false,
        ast::Operator::Filter { property, .. } => is_bounded(property),
    }
}

/// A choice as `--at` and `--strategy` name it: its action in brackets, and for choices
/// of unlabelled commands, which of the state's choices it is.
pub fn choice_label(program: &Program, explored: &Explored, choice: usize) -> String {
    match explored.action(choice) {
        Some(a) => format!("[{}]", program.actions[a as usize]),
        None => {
            let s = explored.form.choices.partition_point(|&c| c <= choice) - 1;
            format!("[] #{}", choice - explored.form.choices[s] + 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COIN: &str = "mdp\nmodule m\n  x : [0..2];\n  [a] x=0 -> 1/2 : (x'=1) + 1/2 : true;\n  \
                        [b] x=0 -> (x'=2);\n  [] x=2 -> (x'=1);\n  [] x=1 -> true;\nendmodule\n";

    fn session(model: &str, props: &[&str], constants: &[&str]) -> Result<Session, Failure> {
        let mut loading = Loading::parse(Source::new("<model>", model))?;
        for p in props {
            loading.add_properties(Source::new("<properties>", *p), true)?;
        }
        let options: Vec<String> = constants.iter().map(|c| c.to_string()).collect();
        loading.resolve(&given_constants(&options)?, false)
    }

    fn settings(prune: bool) -> Settings {
        Settings {
            exact: false,
            precision: 1e-9,
            max_states: 1000,
            prune,
            fair: false,
            weights: false,
            stop: Stop::default(),
        }
    }

    #[test]
    fn a_property_is_answered_and_its_state_reported() {
        let s = Arc::new(session(COIN, &["Pmax=? [F<=2 x=1]; Pmin=? [F x=1]"], &[]).unwrap());
        let ids = s.property_ids();
        assert_eq!(ids.len(), 2);
        let mut run = Run::explore(Arc::clone(&s), settings(false), &Quiet).unwrap();
        assert!(!run.pruned());
        let answer = run.check(ids[0], &Quiet).unwrap();
        assert!((answer.checked.value.as_ref().unwrap().to_f64() - 1.0).abs() < 1e-9);
        let at = run.find_state("x=0").unwrap();
        let report = answer.report(at);
        let actions: Vec<&str> = report.choices.iter().map(|c| c.action.as_str()).collect();
        assert_eq!(actions, ["[b]", "[a]"]);
        assert_eq!(answer.strategy(), Err(NoStrategy::Bounded));
        let answer = run.check(ids[1], &Quiet).unwrap();
        let strategy = answer.strategy().unwrap();
        assert_eq!(strategy.len(), run.explored.states());
        let best = answer.best_choice(strategy, at);
        assert_eq!(answer.choice_label(best), "[a]");
    }

    #[test]
    fn failures_say_what_is_at_fault_and_where() {
        let e = session("dtmc\nmodule m x : [0..1] endmodule\n", &[], &[])
            .err()
            .unwrap();
        assert_eq!(e.kind, Kind::Input);
        assert_eq!(e.subject, Subject::Text("<model>".into()));
        let place = e.place.clone().unwrap();
        assert_eq!((place.line, place.column), (2, 21));
        assert!(e.located().starts_with("<model>:2:21: "), "{}", e.located());
        assert!(place.excerpt.unwrap().contains('^'));

        let s = Arc::new(session(COIN, &["Pmax=? [F y=1]"], &[]).unwrap());
        let mut run = Run::explore(Arc::clone(&s), settings(true), &Quiet).unwrap();
        let e = run.check(s.property_ids()[0], &Quiet).err().unwrap();
        assert_eq!(e.subject, Subject::Text("<properties>".into()));
        assert_eq!(e.place.unwrap().column, 11);

        let e = session(COIN, &["// nothing"], &[]).err().unwrap();
        assert!(e.place.is_none() && e.message.starts_with("no property"));

        let e = session(COIN, &[], &["N=3"]).err().unwrap();
        assert_eq!(e.subject, Subject::Constants);
        let e = session(COIN, &[], &["N"]).err().unwrap();
        assert_eq!(e.message, "expected NAME=VALUE, found `N`");
        let e = session(COIN, &[], &["N=1,N=2"]).err().unwrap();
        assert_eq!(e.message, "`N` is given twice");

        let e = Source::from_bytes("f", b"dtmc\n\xff".to_vec())
            .err()
            .unwrap();
        assert_eq!(
            e.located(),
            "f:2:1: the file is not UTF-8 text (byte 0xff); a PRISM model is text"
        );

        let s = Arc::new(session(COIN, &[], &[]).unwrap());
        let small = Settings {
            max_states: 2,
            ..settings(true)
        };
        let e = Run::explore(Arc::clone(&s), small, &Quiet).err().unwrap();
        assert_eq!(e.kind, Kind::Limit(Limit::MaxStates));
        let run = Run::explore(s, settings(true), &Quiet).unwrap();
        assert!(!run.pruned(), "nothing to prune without a property");
        for (text, want) in [
            ("x=7", "x=7 is outside its range 0..2"),
            ("y=0", "no variable `y`; the model's variables are x"),
            ("x", "expected NAME=VALUE, found `x`"),
            ("", "expected a state such as `x=3,y=2`"),
        ] {
            let e = run.find_state(text).err().unwrap();
            assert_eq!((e.subject, e.message.as_str()), (Subject::State, want));
        }
    }
}
