//! The reachable states of a model, explored by all workers together, each keeping the
//! states whose hash falls to it and their choices.
//!
//! A state's global id is `local * workers + owner`. Exploration goes breadth first, one
//! level per step of two rounds: each worker expands its new states (in the order of
//! their local ids, so that its rows are in order); a target it owns is looked up at once,
//! any other is sent to its owner with the place of the transition that waits for it;
//! owners number the targets they receive (new ones join the next level) and send the
//! ids back. Only targets that cross partitions travel. A step ends with every worker
//! telling the others its counts, its memory and its error, if any: all stop together.

use alea_prism::explore::{Compiled, Expansion, ExploreError, StateTest};
use alea_prism::program::Program;
use hashbrown::HashTable;
use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use alea_prism::session::Sizes;

use crate::locality::Owner;
use crate::round::{piece, Channel, Gather};
use crate::ClusterError;

/// The owner of a packed state among `peers` workers: from the hash's high half, so that
/// the low bits, which a worker's own table uses, stay spread.
#[inline]
pub fn owner(hash: u64, peers: usize) -> usize {
    (((hash >> 32) * peers as u64) >> 32) as usize
}

/// How far exploration may go.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// The most states in all.
    pub max_states: u64,
    /// The most bytes one process may hold for its part of the model.
    pub max_memory: Option<u64>,
}

/// One worker's part of the explored model.
pub struct Part {
    /// This worker's index and the number of workers.
    pub me: usize,
    pub peers: usize,
    pub words: usize,
    /// The packed states, by local id.
    pub arena: Vec<u64>,
    /// The initial states owned here: (position among the model's initial states, local id).
    pub initial: Vec<(usize, u32)>,
    /// Whether each state had no enabled command.
    pub deadlock: Vec<bool>,
    /// State `s` has choices `choices[s]..choices[s + 1]`; choice `c` has transitions
    /// `row[c]..row[c + 1]`, to the global ids in `to`.
    pub choices: Vec<usize>,
    pub row: Vec<usize>,
    pub to: Vec<u64>,
    pub prob: Vec<f64>,
    /// The whole model's size, as every worker learnt it.
    pub sizes: Sizes,
    /// The most bytes this worker's process held during exploration.
    pub peak_process_bytes: u64,
    /// The transitions of all workers to a state of another worker.
    pub crossing: u64,
}

impl Part {
    pub fn states(&self) -> usize {
        self.deadlock.len()
    }

    /// Global id of local state `s`.
    #[inline]
    pub fn gid(&self, s: u32) -> u64 {
        u64::from(s) * self.peers as u64 + self.me as u64
    }

    pub fn state(&self, s: u32) -> &[u64] {
        let w = self.words;
        &self.arena[s as usize * w..(s as usize + 1) * w]
    }

    /// Whether local state `s` is initial: each worker numbers its initial states first.
    pub fn is_initial(&self, s: u32) -> bool {
        (s as usize) < self.initial.len()
    }

    /// Bytes held by this part (capacities, the table's slots included).
    pub fn bytes(&self, table_slots: usize) -> u64 {
        (self.arena.capacity() * 8
            + table_slots * 5
            + self.deadlock.capacity()
            + self.choices.capacity() * 8
            + self.row.capacity() * 8
            + self.to.capacity() * 8
            + self.prob.capacity() * 8) as u64
    }
}

/// The targets a worker asks one owner about in a step, in one message (no allocation
/// per target): who asks, the transitions waiting, the packed states one after another.
type Request = (u32, Vec<u64>, Vec<u64>);
/// The owner's answer: the transitions and the targets' global ids, in the same order.
type Reply = (Vec<u64>, Vec<u64>);

/// The requests of this step, by owner.
struct Outbox {
    slots: Vec<Vec<u64>>,
    states: Vec<Vec<u64>>,
}

impl Outbox {
    fn new(peers: usize) -> Outbox {
        Outbox {
            slots: vec![Vec::new(); peers],
            states: vec![Vec::new(); peers],
        }
    }

    /// Sends each owner its requests, in pieces (see [`piece`]), and empties the box.
    fn send(&mut self, me: usize, words: usize, requests: &mut Channel<Request>) {
        // A request is a slot and the state's words.
        let n = piece(1 + words);
        for (o, (slots, states)) in self.slots.iter_mut().zip(&mut self.states).enumerate() {
            for (s, t) in slots.chunks(n).zip(states.chunks(n * words)) {
                requests.send(o, (me as u32, s.to_vec(), t.to_vec()));
            }
            slots.clear();
            states.clear();
        }
    }
}

/// What every worker tells the others at the end of a step.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Status {
    fresh: u64,
    states: u64,
    bytes: u64,
    /// The failure: its exit status and message, as the command line shows them.
    error: Option<(u8, String)>,
}

/// What is explored: the program, compiled; the states left unexpanded; who owns a
/// state.
pub struct Model<'a> {
    pub program: &'a Program,
    pub compiled: &'a Compiled,
    pub absorbing: Option<&'a StateTest>,
    pub owner: &'a Owner,
}

/// The exit status of bad input and of a limit, as the command line's.
pub const BAD_INPUT: u8 = 2;
pub const LIMIT: u8 = 3;

/// Explores `program` from its initial states; states where `absorbing` holds are not
/// expanded (a self-loop instead). `fail` renders a model error as the command line shows
/// it. Every worker must call this with the same arguments.
pub fn explore(
    worker: &mut Worker,
    workers_per_process: usize,
    model: Model,
    limits: Budget,
    fail: &(dyn Fn(&ExploreError) -> (u8, String) + Sync),
) -> Result<Part, ClusterError> {
    let Model {
        program,
        compiled,
        absorbing,
        owner,
    } = model;
    let (me, peers) = (worker.index(), worker.peers());
    let words = compiled.words();
    let mut part = Part {
        me,
        peers,
        words,
        arena: Vec::new(),
        initial: Vec::new(),
        deadlock: Vec::new(),
        choices: Vec::new(),
        row: vec![0],
        to: Vec::new(),
        prob: Vec::new(),
        sizes: Sizes {
            states: 0,
            transitions: 0,
            choices: 0,
            initial_states: 0,
            deadlocks: 0,
        },
        peak_process_bytes: 0,
        crossing: 0,
    };
    let mut table: HashTable<u32> = HashTable::new();
    let mut requests = Channel::<Request>::new(worker);
    let mut replies = Channel::<Reply>::new(worker);
    let mut outbox = Outbox::new(peers);
    let mut status = Gather::<Status>::new(worker);
    let mut stepper = compiled.stepper(program);
    let mut expansion = Expansion::default();

    for (i, s) in compiled.initial().chunks_exact(words).enumerate() {
        let h = Compiled::hash(s);
        if owner.of(s, h, peers) == me {
            let (id, _) = insert(&mut part, &mut table, s, h);
            part.initial.push((i, id));
        }
    }
    let initial_count = (compiled.initial().len() / words) as u64;
    let mut expanded = 0usize;
    let mut error: Option<(u8, String)> = None;
    let mut state = vec![0u64; words];
    let mut crossing = 0u64;
    loop {
        let level_end = part.arena.len() / words;
        while expanded < level_end && error.is_none() {
            let s = expanded as u32;
            part.choices.push(part.row.len() - 1);
            state.copy_from_slice(part.state(s));
            let stays = match absorbing {
                Some(test) => stepper
                    .holds(test, &state, part.is_initial(s), false)
                    .map_err(|e| fail(&ExploreError::Model(e))),
                None => Ok(false),
            };
            let result = match stays {
                Ok(true) => {
                    part.to.push(part.gid(s));
                    part.prob.push(1.0);
                    part.row.push(part.to.len());
                    Ok(())
                }
                Ok(false) => stepper
                    .expand(&state, &mut expansion)
                    .map_err(|e| fail(&e))
                    .map(|()| {
                        crossing +=
                            add_choices(&mut part, &mut table, &expansion, &mut outbox, owner);
                    }),
                Err(e) => Err(e),
            };
            if let Err(e) = result {
                error = Some(e);
            }
            expanded += 1;
        }
        // The owners number what they were asked, and answer.
        outbox.send(me, words, &mut requests);
        // By the asking worker, each one's pieces in order: the numbering, and so the
        // order of the sweeps and the last digits of the answers, does not depend on the
        // order of arrival.
        let mut asked = requests.finish(worker);
        asked.sort_unstable_by_key(|r| (r.0, r.1.first().copied()));
        for (from, slots, states) in asked {
            let ids = states
                .chunks_exact(words)
                .map(|state| {
                    let (id, _) = insert(&mut part, &mut table, state, Compiled::hash(state));
                    part.gid(id)
                })
                .collect();
            replies.send(from as usize, (slots, ids));
        }
        for (slots, gids) in replies.finish(worker) {
            for (slot, gid) in slots.into_iter().zip(gids) {
                part.to[slot as usize] = gid;
            }
        }
        let states = (part.arena.len() / words) as u64;
        let mine = Status {
            fresh: states - expanded as u64,
            states,
            bytes: part.bytes(table.capacity()),
            error: error.clone(),
        };
        let all = status.all(worker, mine);
        if let Some(e) = all.iter().find_map(|s| s.error.clone()) {
            return Err(ClusterError::Failed {
                code: e.0,
                message: e.1,
            });
        }
        let total: u64 = all.iter().map(|s| s.states).sum();
        if total > limits.max_states {
            let limit = usize::try_from(limits.max_states).unwrap_or(usize::MAX);
            let (code, message) = fail(&ExploreError::TooManyStates { limit });
            return Err(ClusterError::Failed { code, message });
        }
        let bytes: Vec<u64> = all.iter().map(|s| s.bytes).collect();
        let per_process = by_process(&bytes, workers_per_process);
        let process = me / workers_per_process;
        part.peak_process_bytes = part.peak_process_bytes.max(per_process[process]);
        check_memory(
            limits,
            &per_process,
            &format!("{total} states explored in all"),
        )?;
        if all.iter().all(|s| s.fresh == 0) {
            break;
        }
    }
    drop(table);
    part.choices.push(part.row.len() - 1);
    shrink(&mut part);
    // States, transitions, choices, deadlocks and crossing transitions of each worker's
    // part, added up.
    let mine = [
        part.states() as u64,
        part.to.len() as u64,
        (part.row.len() - 1) as u64,
        part.deadlock.iter().filter(|&&d| d).count() as u64,
        crossing,
    ];
    let mut gathered = Gather::<[u64; 5]>::new(worker);
    let all = gathered.all(worker, mine);
    let sum = |i: usize| all.iter().map(|t| t[i]).sum();
    part.sizes = Sizes {
        states: sum(0),
        transitions: sum(1),
        choices: sum(2),
        initial_states: initial_count,
        deadlocks: sum(3),
    };
    part.crossing = sum(4);
    Ok(part)
}

/// The bytes of each process, from those of every worker.
pub fn by_process(worker_bytes: &[u64], workers_per_process: usize) -> Vec<u64> {
    worker_bytes
        .chunks(workers_per_process)
        .map(|c| c.iter().sum())
        .collect()
}

/// Stops the run when a process needs more memory than `--max-memory` allows; `doing`
/// says how far the work had come.
pub fn check_memory(limits: Budget, per_process: &[u64], doing: &str) -> Result<(), ClusterError> {
    let Some(max) = limits.max_memory else {
        return Ok(());
    };
    match per_process.iter().position(|&b| b > max) {
        None => Ok(()),
        Some(p) => Err(ClusterError::Failed {
            code: LIMIT,
            message: format!(
                "process {p} needs more than --max-memory {max} bytes for its part of the \
                 model ({} bytes, {doing}); start more processes or raise --max-memory",
                per_process[p]
            ),
        }),
    }
}

/// The local id of `state`, added if new (then `true`).
fn insert(part: &mut Part, table: &mut HashTable<u32>, state: &[u64], h: u64) -> (u32, bool) {
    let words = part.words;
    let arena = &part.arena;
    let same = |&id: &u32| &arena[id as usize * words..(id as usize + 1) * words] == state;
    if let Some(&id) = table.find(h, same) {
        return (id, false);
    }
    let id = (part.arena.len() / words) as u32;
    part.arena.extend_from_slice(state);
    part.deadlock.push(false);
    let arena = &part.arena;
    table.insert_unique(h, id, |&id| {
        Compiled::hash(&arena[id as usize * words..(id as usize + 1) * words])
    });
    (id, true)
}

/// The choices of the state just expanded: targets owned here resolved at once, the
/// others asked of their owners (how many, returned).
fn add_choices(
    part: &mut Part,
    table: &mut HashTable<u32>,
    expansion: &Expansion,
    outbox: &mut Outbox,
    owner: &Owner,
) -> u64 {
    let mut crossing = 0;
    let words = part.words;
    let s = part.choices.len() - 1;
    if expansion.deadlock {
        part.deadlock[s] = true;
    }
    let mut t = 0;
    for &end in &expansion.choice_end {
        while t < end {
            let target = &expansion.targets[t * words..(t + 1) * words];
            let h = Compiled::hash(target);
            let o = owner.of(target, h, part.peers);
            if o == part.me {
                let (id, _) = insert(part, table, target, h);
                part.to.push(part.gid(id));
            } else {
                outbox.slots[o].push(part.to.len() as u64);
                outbox.states[o].extend_from_slice(target);
                part.to.push(u64::MAX);
                crossing += 1;
            }
            part.prob.push(expansion.probs[t]);
            t += 1;
        }
        part.row.push(part.to.len());
    }
    crossing
}

fn shrink(part: &mut Part) {
    part.arena.shrink_to_fit();
    part.deadlock.shrink_to_fit();
    part.choices.shrink_to_fit();
    part.row.shrink_to_fit();
    part.to.shrink_to_fit();
    part.prob.shrink_to_fit();
}
