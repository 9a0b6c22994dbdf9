//! `alea check` on a cluster: the session's properties planned (every process reads the
//! same files, so every process finds the same errors in them), the model explored by
//! all workers, then each property's sets and rewards worked out by each worker for its
//! own states and its question solved by all together; the values of the initial states
//! are gathered and judged as the single-process check judges them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use alea_prism::ast::FilterOp;
use alea_prism::check::{reduce_numbers, Checked, Number, Plan, Question as Asked};
use alea_prism::error::Span;
use alea_prism::explore::{Compiled, Expansion, ExploreError, StateTest};
use alea_prism::session::{Failure, PropertyId, Session, Sizes};
use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use crate::explore::{by_process, check_memory, explore, Budget, Model, Part, BAD_INPUT, LIMIT};
use crate::round::Gather;
use alea_core::form::Rewards;

use crate::locality::{self, Locality, Owner};
use crate::solve::{self, Bounds, Partition, Question, Traffic};
use crate::{Cluster, ClusterError};

/// What to check, the same on every process.
pub struct Job {
    pub session: Arc<Session>,
    pub precision: f64,
    pub limits: Budget,
    /// Leave the properties' targets unexpanded, as the single-process check does.
    pub prune: bool,
    /// How the states are split among the workers.
    pub locality: Locality,
}

/// What process 0 reports: the answers in order, up to the first property that failed
/// (its failure in `error`), as the single-process check prints them.
pub struct Report {
    pub error: Option<ClusterError>,
    pub sizes: Sizes,
    pub pruned: bool,
    pub build: Duration,
    pub answers: Vec<Answered>,
    /// The most bytes each process held for its part of the model.
    pub process_bytes: Vec<u64>,
    /// The copies of other workers' states that all workers keep: the values a sweep
    /// sends.
    pub copies: u64,
    /// The transitions to a state of another worker.
    pub crossing: u64,
    /// The variables whose hash picks a state's worker (none: the whole state's).
    pub key: Vec<String>,
}

pub struct Answered {
    pub id: PropertyId,
    pub checked: Checked,
    pub seconds: Duration,
    /// Sweeps of the iteration (steps of a step-bounded question), summed over what
    /// was solved apart.
    pub sweeps: u64,
    /// The rounds of messages between workers, and the bytes of values all workers
    /// sent, to solve the property.
    pub rounds: u64,
    pub bytes: u64,
}

/// A failure as every process shows it: exit status and message.
fn failed(f: &Failure) -> ClusterError {
    use alea_prism::session::Kind;
    let code = match f.kind {
        Kind::Input => BAD_INPUT,
        Kind::Limit(_) => LIMIT,
        Kind::Engine => 1,
    };
    ClusterError::Failed {
        code,
        message: f.describe(),
    }
}

/// A failure as the message every worker shares: exit status and text.
fn shared(e: ClusterError) -> (u8, String) {
    match e {
        ClusterError::Failed { code, message } => (code, message),
        other => (1, other.to_string()),
    }
}

/// Runs the job on this process's workers; process 0 gets the report.
pub fn run(cluster: &Cluster, job: Job) -> Result<Option<Report>, ClusterError> {
    let session = &job.session;
    // The plans first: the properties before the first wrong one are answered, then its
    // error is reported, the same on every process.
    let mut ids = session.property_ids();
    let mut wrong = None;
    if let Some(k) = ids.iter().position(|&id| session.plan(id).is_err()) {
        wrong = session.plan(ids[k]).err().map(|f| failed(&f));
        ids.truncate(k);
    }
    let compiled = Compiled::new(&session.program).map_err(|e| explore_failure(session, &e))?;
    // Every process chooses the same owners from the same sample.
    let absorbing = job
        .prune
        .then(|| session.absorbing())
        .flatten()
        .map(|ex| compiled.test(&ex));
    let owner = locality::owner(
        &job.locality,
        &session.program,
        &compiled,
        absorbing.as_ref(),
        cluster.processes * cluster.workers,
    )
    .map_err(|message| ClusterError::Failed {
        code: BAD_INPUT,
        message,
    })?;
    drop(absorbing);
    let job = Arc::new((job, compiled, ids, owner));
    let workers = cluster.workers;
    let mut outcomes =
        cluster.run(move |worker| work(worker, &job.0, &job.1, &job.2, &job.3, workers))?;
    let (report, error) = outcomes.swap_remove(0);
    let error = error.or(wrong);
    match report {
        // Process 0 prints the answers, then the failure.
        Some(mut r) => {
            r.error = error;
            Ok(Some(r))
        }
        // The others print nothing, but fail as process 0 does.
        None => error.map_or(Ok(None), Err),
    }
}

fn explore_failure(session: &Session, e: &ExploreError) -> ClusterError {
    match e {
        ExploreError::Model(e) => failed(&session.source.fail(e)),
        ExploreError::TooManyStates { limit } => ClusterError::Failed {
            code: LIMIT,
            message: format!(
                "the model has more than {limit} reachable states; raise --max-states to go on"
            ),
        },
        ExploreError::Stopped => ClusterError::Work(e.to_string()),
    }
}

/// One initial state's value: its position among the initial states, the value, its
/// error bound, whether it is exact.
type Initial = (u64, f64, f64, bool);

/// What a worker found in a property's sets or rewards, or its first error.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Verdict {
    error: Option<(u8, String)>,
    /// The bytes this worker holds to solve the property.
    bytes: u64,
}

fn work(
    worker: &mut Worker,
    job: &Job,
    compiled: &Compiled,
    ids: &[PropertyId],
    owner: &Owner,
    workers_per_process: usize,
) -> Result<(Option<Report>, Option<ClusterError>), ClusterError> {
    let started = Instant::now();
    let session = &*job.session;
    let program = &session.program;
    let absorbing: Option<StateTest> = if job.prune {
        session.absorbing().map(|ex| compiled.test(&ex))
    } else {
        None
    };
    let fail = |e: &ExploreError| shared(explore_failure(session, e));
    let mut part = explore(
        worker,
        workers_per_process,
        Model {
            program,
            compiled,
            absorbing: absorbing.as_ref(),
            owner,
        },
        job.limits,
        &fail,
    )?;
    let build = started.elapsed();
    let mut graph = Partition::new(worker, &mut part);
    let mut verdicts = Gather::<Verdict>::new(worker);
    let mut initials = Gather::<Vec<Initial>>::new(worker);
    let mut filters = Gather::<FilterPart>::new(worker);
    let mut traffic = Gather::<Traffic>::new(worker);
    let mdp = program.kind.chooses();
    let mut answers = Vec::new();
    let mut error = None;
    // The last reward structure worked out, by index: properties in a row often ask the
    // same one, and working it out expands every state again.
    let mut last_rewards: Option<(usize, Rewards)> = None;
    for &id in ids {
        // Every worker meets the same failure at the same property (each is decided on
        // values all workers share): the answers before it still stand.
        let answered = (|| -> Result<Answered, ClusterError> {
            let checking = Instant::now();
            let plan = session.plan(id).map_err(|f| failed(&f))?;
            let sets = sets_of(
                session,
                compiled,
                &part,
                &plan,
                absorbing.as_ref(),
                &mut last_rewards,
            );
            let error = sets.as_ref().err().cloned();
            let bytes = match &sets {
                Ok((_, _, rewards, _)) => solving_bytes(&part, &graph, rewards.as_ref()),
                Err(_) => 0,
            };
            let all = verdicts.all(worker, Verdict { error, bytes });
            if let Some((code, message)) = all.iter().find_map(|v| v.error.clone()) {
                return Err(ClusterError::Failed { code, message });
            }
            let worker_bytes: Vec<u64> = all.iter().map(|v| v.bytes).collect();
            let per_process = by_process(&worker_bytes, workers_per_process);
            let process = worker.index() / workers_per_process;
            part.peak_process_bytes = part.peak_process_bytes.max(per_process[process]);
            check_memory(job.limits, &per_process, "to solve a property")?;
            let (stay, target, rewards, chosen) = sets.expect("no worker failed");
            let q = Question {
                goal: plan.question.goal(),
                precision: job.precision,
                mdp,
                rewards: rewards.as_ref(),
            };
            let bounds = match &plan.question {
                Asked::Until { steps: None, .. } => {
                    solve::until(worker, &mut graph, &q, &stay, &target)?
                }
                Asked::Until { steps: Some(k), .. } => {
                    let fixed: Vec<Option<f64>> = (0..part.states())
                        .map(|s| {
                            if target[s] {
                                Some(1.0)
                            } else if !stay[s] {
                                Some(0.0)
                            } else {
                                None
                            }
                        })
                        .collect();
                    solve::bounded(worker, &mut graph, &q, *k, &fixed)?
                }
                Asked::Reach { .. } => solve::reach_reward(worker, &mut graph, &q, &target)?,
                Asked::Cumulative { steps, .. } => {
                    let fixed = vec![None; part.states()];
                    solve::bounded(worker, &mut graph, &q, *steps, &fixed)?
                }
            };
            let checked = match (&plan.filter, &chosen) {
                (Some((op, _)), Some(chosen)) => {
                    let mine = filter_part(&part, &bounds, *op, chosen, plan.span);
                    let all = filters.all(worker, mine);
                    let parts = all
                        .iter()
                        .filter_map(|p| p.part)
                        .map(|(value, error_bound)| Number::Float { value, error_bound })
                        .collect();
                    let count = all.iter().map(|p| p.count).sum::<u64>() as usize;
                    // Exploration numbers the initial states first: the first chosen
                    // state is the chosen initial state of least position, if any.
                    let first = all
                        .iter()
                        .filter_map(|p| p.first)
                        .min_by_key(|f| f.0)
                        .map(|(_, value, error_bound)| Number::Float { value, error_bound });
                    session.conclude_filter(id, &plan, parts, count, first)
                }
                (Some(_), None) => unreachable!("a filter's states come with its sets"),
                (None, _) => {
                    let mine = initial_values(&part, &bounds);
                    let mut values: Vec<Initial> =
                        initials.all(worker, mine).into_iter().flatten().collect();
                    values.sort_unstable_by_key(|v| v.0);
                    let numbers = values
                        .into_iter()
                        .map(|(_, value, error_bound, pinned)| {
                            (Number::Float { value, error_bound }, pinned)
                        })
                        .collect();
                    session.conclude(id, &plan, numbers)
                }
            }
            .map_err(|f| failed(&f))?;
            let mine = graph.take_traffic();
            let all = traffic.all(worker, mine);
            Ok(Answered {
                id,
                checked,
                seconds: checking.elapsed(),
                sweeps: bounds.sweeps,
                rounds: mine.rounds,
                bytes: all.iter().map(|t| t.bytes).sum(),
            })
        })();
        match answered {
            Ok(a) => answers.push(a),
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    let mut bytes = Gather::<(u64, u64)>::new(worker);
    let all = bytes.all(
        worker,
        (part.peak_process_bytes, graph.topo.copies() as u64),
    );
    let copies = all.iter().map(|b| b.1).sum();
    let all: Vec<u64> = all.iter().map(|b| b.0).collect();
    if worker.index() != 0 {
        return Ok((None, error));
    }
    let process_bytes = all.iter().step_by(workers_per_process).copied().collect();
    Ok((
        Some(Report {
            error: None,
            sizes: part.sizes,
            pruned: absorbing.is_some(),
            build,
            answers,
            process_bytes,
            copies,
            crossing: part.crossing,
            key: owner.key.clone(),
        }),
        error,
    ))
}

/// The bytes a worker holds while it solves a property: its states, the topology, the
/// bounds (two numbers per state and copy, their result, and two more per state while a
/// guess is tested), the sets and the rewards (twice: one copy is kept for the next
/// property); for the waves, their bounds, marks and
/// order (about 29 bytes per state and copy) and 8 bytes per transition (the engine's
/// predecessors, the waiting lists, or the form of a wave). Not counted: the quotient of
/// a model whose end components are collapsed, which is built during the solve and is
/// at most the topology's size again.
fn solving_bytes(part: &Part, graph: &Partition, rewards: Option<&Rewards>) -> u64 {
    let n = part.states() as u64;
    let len = graph.topo.len() as u64;
    let transitions = graph.topo.transitions() as u64;
    // The rewards, and the copy kept for the next property.
    let rewards = rewards.map_or(0, |r| {
        (r.state.capacity() + r.choice.capacity()) as u64 * 16
    });
    part.bytes(0)
        + graph.topo.bytes()
        + 16 * len
        + 32 * n
        + 2 * n
        + rewards
        + 29 * len
        + 8 * transitions
}

/// A worker's part of a filter: its chosen states' values reduced (sums for an
/// average), how many they are, and for `first` the first chosen initial state (its
/// position among the initial states, its value and bound).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct FilterPart {
    part: Option<(f64, f64)>,
    count: u64,
    first: Option<(u64, f64, f64)>,
}

fn filter_part(
    part: &Part,
    bounds: &Bounds,
    op: FilterOp,
    chosen: &[bool],
    span: Span,
) -> FilterPart {
    let number = |s: usize| {
        let (value, error_bound, _) = bounds.value(s);
        Number::Float { value, error_bound }
    };
    let states: Vec<usize> = (0..part.states()).filter(|&s| chosen[s]).collect();
    let partial = if op == FilterOp::Avg {
        FilterOp::Sum
    } else {
        op
    };
    let reduced = (!states.is_empty() && op != FilterOp::First)
        .then(|| {
            reduce_numbers(
                partial,
                states.iter().map(|&s| number(s)).collect(),
                false,
                span,
            )
            .expect("min, max and sum reduce any values")
        })
        .map(|n| (n.to_f64(), n.error_bound()));
    let first = part
        .initial
        .iter()
        .filter(|&&(_, s)| chosen[s as usize])
        .min_by_key(|&&(pos, _)| pos)
        .map(|&(pos, s)| {
            let (value, error_bound, _) = bounds.value(s as usize);
            (pos as u64, value, error_bound)
        });
    FilterPart {
        part: reduced,
        count: states.len() as u64,
        first,
    }
}

/// The values of the initial states owned here.
fn initial_values(part: &Part, bounds: &Bounds) -> Vec<Initial> {
    part.initial
        .iter()
        .map(|&(pos, s)| {
            let (value, error_bound, pinned) = bounds.value(s as usize);
            (pos as u64, value, error_bound, pinned)
        })
        .collect()
}

/// The `stay` and `target` sets, the rewards, and a filter's states.
type Sets = (Vec<bool>, Vec<bool>, Option<Rewards>, Option<Vec<bool>>);

/// The own states' `stay` and `target` sets and rewards of a question, or the first
/// error in evaluating them.
fn sets_of(
    session: &Session,
    compiled: &Compiled,
    part: &Part,
    plan: &Plan,
    absorbing: Option<&StateTest>,
    last_rewards: &mut Option<(usize, Rewards)>,
) -> Result<Sets, (u8, String)> {
    let question = &plan.question;
    let program = &session.program;
    let mut stepper = compiled.stepper(program);
    let n = part.states();
    let fail = |e: &alea_prism::error::Error| shared(failed(&session.source.fail(e)));
    let mut set = |ex: Option<&alea_prism::program::Ex>| -> Result<Vec<bool>, (u8, String)> {
        let Some(ex) = ex else {
            return Ok(vec![true; n]);
        };
        let test = compiled.test(ex);
        (0..n)
            .map(|s| {
                stepper
                    .holds(
                        &test,
                        part.state(s as u32),
                        part.is_initial(s as u32),
                        part.deadlock[s],
                    )
                    .map_err(|e| fail(&e))
            })
            .collect()
    };
    let (stay, target, reward) = match question {
        Asked::Until { stay, target, .. } => (set(stay.as_ref())?, set(Some(target))?, None),
        Asked::Reach { target, reward, .. } => (vec![true; n], set(Some(target))?, Some(*reward)),
        Asked::Cumulative { reward, .. } => (vec![true; n], vec![false; n], Some(*reward)),
    };
    let chosen = match &plan.filter {
        Some((_, states)) => Some(set(states.as_ref())?),
        None => None,
    };
    let rewards = match reward {
        None => None,
        Some(None) => Some(Rewards {
            state: vec![1.0; n],
            choice: Vec::new(),
        }),
        Some(Some(index)) => match last_rewards {
            Some((last, r)) if *last == index => Some(r.clone()),
            _ => {
                let r =
                    rewards_of(session, compiled, part, index, absorbing).map_err(|e| match e {
                        RewardError::Model(e) => fail(&e),
                        RewardError::Explore(e) => shared(explore_failure(session, &e)),
                    })?;
                *last_rewards = Some((index, r.clone()));
                Some(r)
            }
        },
    };
    Ok((stay, target, rewards, chosen))
}

enum RewardError {
    Model(alea_prism::error::Error),
    Explore(ExploreError),
}

/// Reward structure `index` for the own states and their choices, as the single-process
/// exploration gives it (a state left unexpanded has one choice, unlabelled).
fn rewards_of(
    session: &Session,
    compiled: &Compiled,
    part: &Part,
    index: usize,
    absorbing: Option<&StateTest>,
) -> Result<Rewards, RewardError> {
    let program = &session.program;
    let items = compiled.rewards(program, index);
    let mut stepper = compiled.stepper(program);
    let mut expansion = Expansion::default();
    let mut out = Rewards::default();
    let mut choices = Vec::new();
    for s in 0..part.states() as u32 {
        let state = part.state(s);
        let is_initial = part.is_initial(s);
        let kept = match absorbing {
            Some(test) => stepper
                .holds(test, state, is_initial, false)
                .map_err(RewardError::Model)?,
            None => false,
        };
        // A state left unexpanded is a target of every property asked, so its value is
        // fixed and its reward never counts: it is not expanded here either (which could
        // fail where the single-process check, which never expands it, does not).
        if kept {
            expansion = Expansion {
                choice_end: vec![1],
                actions: vec![None],
                command_actions: vec![None],
                ..Expansion::default()
            };
        } else {
            stepper
                .expand(state, &mut expansion)
                .map_err(RewardError::Explore)?;
        }
        let r = stepper
            .rewards(&items, state, is_initial, &expansion, &mut choices)
            .map_err(RewardError::Model)?;
        out.state.push(r);
        out.choice.extend_from_slice(&choices);
    }
    Ok(out)
}
