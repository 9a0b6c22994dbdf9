//! The exploration itself: the program compiled once (guards, probabilities and
//! assignments; per action, the modules taking part and their commands), then a
//! breadth-first sweep over the packed states, each expanded into its choices and written
//! straight into the compressed sparse rows.

use super::compile::{compile, is_constant, Code, Fault};
use super::exact::Interner;
use super::store::{same, Found, Layout, Store};
use super::{describe_vals, ExploreError, Options, SUM_TOLERANCE};
use crate::error::{Error, Span};
use crate::program::{Ex, ExKind, Program, Ty};
use alea_core::form::{ExactProbs, Form};
use rustc_hash::FxHashMap;

/// An assignment `x' = e`.
pub(crate) struct CAssign {
    var: u32,
    value: Code,
    span: Span,
}

/// The probability of an update in exact mode.
pub(crate) enum XProb {
    /// A constant, interned.
    Const(u32),
    /// Evaluated in each state, and remembered by the values of the variables it reads
    /// (`memo` indexes the explorer's memo tables).
    Dynamic {
        ex: Ex,
        reads: Box<[u32]>,
        memo: usize,
    },
}

/// The variables `ex` reads, sorted.
fn reads(ex: &Ex, out: &mut Vec<u32>) {
    ex.find(&mut |e| {
        if let ExKind::Var(x) = e.kind {
            out.push(x);
        }
        false
    });
}

/// The most values a memo table of exact probabilities keeps.
const MEMO_LIMIT: usize = 1 << 20;

pub(crate) struct CUpdate {
    prob: Code,
    /// The constant probability, when it is one.
    fixed: Option<f64>,
    exact: Option<XProb>,
    prob_span: Span,
    assigns: Vec<CAssign>,
    /// The bits of the packed state the update writes.
    mask: Box<[u64]>,
    /// The variables it writes, as a bit set.
    writes: Box<[u64]>,
}

pub(crate) struct CCommand {
    pub module: u32,
    pub guard: Code,
    updates: Vec<CUpdate>,
    span: Span,
    /// The variables any of its updates writes, as a bit set.
    writes: Box<[u64]>,
    /// Its probabilities are constants, each in `[0, 1]`, adding up to 1: nothing to
    /// check in each state.
    checked: bool,
}

/// A program compiled for exploration.
pub(crate) struct CModel {
    pub layout: Layout,
    pub vars: usize,
    pub commands: Vec<CCommand>,
    /// The unlabelled commands of each module (each module's list split apart, as each
    /// module has its own location variables).
    pub unlabelled: Vec<Dispatch>,
    /// For each action, the modules that take part in it, each with its commands of that
    /// action (a module with none enabled blocks the action).
    pub actions: Vec<Action>,
    /// The number of dynamic exact probabilities (each with a memo table).
    memos: usize,
}

pub(crate) struct Action {
    pub modules: Vec<Dispatch>,
    /// Whether two of the modules have commands writing a common variable (a global):
    /// only then must each combination be checked.
    may_conflict: bool,
}

/// A list of commands, and the same list split by the value of one variable: the
/// commands whose guard can hold for that value (their interval tests on it allow it),
/// each share split again by another variable where that spares enough. A state
/// evaluates only the guards of its values' share; PRISM models often have dozens of
/// commands per module, each for one value of a location variable, and some thousands,
/// each for one cell of a grid (a position in two or three variables). (A guard skipped
/// so is false in that state, though its other conjuncts might have failed to evaluate
/// there: skipping can spare an error, never cause one.)
pub(crate) struct Dispatch {
    all: Box<[u32]>,
    var: u32,
    low: i64,
    /// For value `low + i`, the dispatch of the commands that allow it, in their order;
    /// empty when the list is not split.
    parts: Box<[Dispatch]>,
}

impl Dispatch {
    /// Splitting only pays off from this many commands.
    const MIN_COMMANDS: usize = 2;
    /// A share is split again from this many commands: below, a second look-up costs
    /// about what the guards it spares would.
    const MIN_RESPLIT: usize = 8;
    /// The most variables split by, one within another.
    const MAX_DEPTH: usize = 3;
    /// The widest range of the variable split by.
    const MAX_VALUES: i64 = 1 << 12;
    /// The most entries of the split lists, over every level (a command is in the list
    /// of each value it allows).
    const MAX_ENTRIES: f64 = (1 << 22) as f64;

    fn new(all: Vec<u32>, commands: &[CCommand], layout: &Layout) -> Dispatch {
        let mut room = Self::MAX_ENTRIES;
        Self::within(all, commands, layout, &mut Vec::new(), &mut room)
    }

    /// The dispatch of `all`, none of the variables `used` (those its list was split by
    /// already) split by again; `room` the entries that the split lists may still take.
    fn within(
        all: Vec<u32>,
        commands: &[CCommand],
        layout: &Layout,
        used: &mut Vec<u32>,
        room: &mut f64,
    ) -> Dispatch {
        let mut d = Dispatch {
            all: all.into_boxed_slice(),
            var: 0,
            low: 0,
            parts: Box::new([]),
        };
        let least = match used.len() {
            0 => Self::MIN_COMMANDS,
            n if n < Self::MAX_DEPTH => Self::MIN_RESPLIT,
            _ => return d,
        };
        if d.all.len() < least {
            return d;
        }
        // The values each command allows for variable `x`.
        let allowed = |c: u32, x: u32| -> (i64, i64) {
            let slot = layout.slots[x as usize];
            let (mut lo, mut hi) = (slot.low, slot.high);
            for &(y, l, h) in commands[c as usize].guard.tests() {
                if y == x {
                    lo = lo.max(l);
                    hi = hi.min(h);
                }
            }
            (lo, hi)
        };
        // The variable that spares the most guard evaluations, values taken as equally
        // likely.
        let mut best: Option<(f64, u32)> = None;
        let mut candidates: Vec<u32> = Vec::new();
        for &c in d.all.iter() {
            candidates.extend(commands[c as usize].guard.tests().iter().map(|t| t.0));
        }
        candidates.sort_unstable();
        candidates.dedup();
        for x in candidates {
            let slot = layout.slots[x as usize];
            let size = slot.high - slot.low + 1;
            if used.contains(&x) || !(2..=Self::MAX_VALUES).contains(&size) {
                continue;
            }
            let mut kept = 0.0;
            for &c in d.all.iter() {
                let (lo, hi) = allowed(c, x);
                kept += (hi - lo + 1).max(0) as f64 / size as f64;
            }
            let spared = d.all.len() as f64 - kept;
            let fits = kept * size as f64 <= *room;
            if fits && spared >= 1.0 && best.is_none_or(|(b, _)| spared > b) {
                best = Some((spared, x));
            }
        }
        let Some((_, x)) = best else {
            return d;
        };
        let slot = layout.slots[x as usize];
        let size = (slot.high - slot.low + 1) as usize;
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); size];
        for &c in d.all.iter() {
            let (lo, hi) = allowed(c, x);
            for v in lo..=hi {
                buckets[(v - slot.low) as usize].push(c);
            }
        }
        *room -= buckets.iter().map(Vec::len).sum::<usize>() as f64;
        used.push(x);
        d.parts = buckets
            .into_iter()
            .map(|b| Self::within(b, commands, layout, used, room))
            .collect();
        used.pop();
        d.var = x;
        d.low = slot.low;
        d
    }

    /// How many lists here are split by a variable.
    #[cfg(test)]
    fn splits(&self) -> usize {
        match self.parts.is_empty() {
            true => 0,
            false => 1 + self.parts.iter().map(Dispatch::splits).sum::<usize>(),
        }
    }

    /// The commands that may be enabled in the state `vals`.
    #[inline]
    pub fn get(&self, vals: &[i64]) -> &[u32] {
        let mut d = self;
        while !d.parts.is_empty() {
            d = &d.parts[(vals[d.var as usize] - d.low) as usize];
        }
        &d.all
    }
}

fn set_bit(set: &mut [u64], i: u32) {
    set[i as usize / 64] |= 1 << (i % 64);
}

fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// The first use of `"init"` or `"deadlock"` in `ex`, which a command cannot read: they
/// describe states only once exploration is over.
fn state_label(ex: &Ex) -> Option<Span> {
    ex.find(&mut |e| matches!(e.kind, ExKind::Initial | ExKind::Deadlock))
        .map(|e| e.span)
}

fn no_state_label(ex: &Ex) -> Result<(), Error> {
    match state_label(ex) {
        Some(span) => Err(Error::new(
            span,
            "the labels \"init\" and \"deadlock\" are known only after exploration, so a \
             command cannot use them",
        )),
        None => Ok(()),
    }
}

impl CModel {
    /// Compiles `program`; in exact mode (`interner` given) probabilities are also kept
    /// as rationals.
    pub fn new(program: &Program, mut interner: Option<&mut Interner>) -> Result<CModel, Error> {
        let layout = Layout::new(&program.variables);
        let vars = program.variables.len();
        let set_words = vars.div_ceil(64).max(1);
        let mut commands = Vec::new();
        let mut unlabelled = Vec::new();
        let mut memos = 0;
        let dynamic = |ex: &Ex, memos: &mut usize| {
            let mut r = Vec::new();
            reads(ex, &mut r);
            r.sort_unstable();
            r.dedup();
            *memos += 1;
            XProb::Dynamic {
                ex: ex.clone(),
                reads: r.into_boxed_slice(),
                memo: *memos - 1,
            }
        };
        let mut actions = vec![Vec::new(); program.actions.len()];
        for (m, module) in program.modules.iter().enumerate() {
            let mut by_action: Vec<Vec<u32>> = vec![Vec::new(); program.actions.len()];
            let mut mine = Vec::new();
            for cmd in &module.commands {
                no_state_label(&cmd.guard)?;
                let id = commands.len() as u32;
                let mut updates = Vec::new();
                let mut writes = vec![0u64; set_words].into_boxed_slice();
                let mut fixed_sum = Some(0.0);
                for upd in &cmd.updates {
                    no_state_label(&upd.prob)?;
                    let prob = compile(&upd.prob, Ty::Real, vars);
                    let fixed = prob.constant().map(|b| f64::from_bits(b as u64));
                    let xprob = match interner.as_deref_mut() {
                        None => None,
                        Some(int) if is_constant(&upd.prob) => {
                            match crate::eval::eval_exact(&upd.prob, &[]) {
                                Ok(q) => Some(XProb::Const(int.intern(q))),
                                Err(_) => Some(dynamic(&upd.prob, &mut memos)),
                            }
                        }
                        Some(_) => Some(dynamic(&upd.prob, &mut memos)),
                    };
                    fixed_sum = match (fixed_sum, fixed) {
                        (Some(s), Some(p)) if (0.0..=1.0).contains(&p) => Some(s + p),
                        _ => None,
                    };
                    let mut mask = vec![0u64; layout.words].into_boxed_slice();
                    let mut uw = vec![0u64; set_words].into_boxed_slice();
                    let mut assigns = Vec::new();
                    for (var, value) in &upd.assigns {
                        no_state_label(value)?;
                        let slot = layout.slots[*var as usize];
                        mask[slot.word as usize] |= slot.mask << slot.shift;
                        set_bit(&mut uw, *var);
                        set_bit(&mut writes, *var);
                        assigns.push(CAssign {
                            var: *var,
                            value: compile(value, Ty::Int, vars),
                            span: value.span,
                        });
                    }
                    updates.push(CUpdate {
                        prob,
                        fixed,
                        exact: xprob,
                        prob_span: upd.prob.span,
                        assigns,
                        mask,
                        writes: uw,
                    });
                }
                // Constant probabilities are checked here once (exactly in exact mode);
                // anything else in each state.
                let checked = match (&interner, fixed_sum) {
                    (None, Some(s)) => (s - 1.0).abs() <= SUM_TOLERANCE,
                    (Some(int), Some(_)) => {
                        let mut total = alea_core::Exact::from_integer(0.into());
                        let mut all = true;
                        for u in &updates {
                            match &u.exact {
                                Some(XProb::Const(id)) => {
                                    let q = &int.values[*id as usize];
                                    all &= *q >= num_traits::Zero::zero()
                                        && *q <= num_traits::One::one();
                                    total += q;
                                }
                                _ => all = false,
                            }
                        }
                        all && num_traits::One::is_one(&total)
                    }
                    _ => false,
                };
                commands.push(CCommand {
                    module: m as u32,
                    guard: compile(&cmd.guard, Ty::Bool, vars),
                    updates,
                    span: cmd.span,
                    writes,
                    checked,
                });
                match cmd.action {
                    None => mine.push(id),
                    Some(a) => by_action[a as usize].push(id),
                }
            }
            for &a in &module.alphabet {
                actions[a as usize].push(std::mem::take(&mut by_action[a as usize]));
            }
            unlabelled.push(mine);
        }
        let actions = actions
            .into_iter()
            .map(|modules: Vec<Vec<u32>>| {
                let writes: Vec<Vec<u64>> = modules
                    .iter()
                    .map(|cmds| {
                        let mut w = vec![0u64; set_words];
                        for &c in cmds {
                            for (x, y) in w.iter_mut().zip(commands[c as usize].writes.iter()) {
                                *x |= y;
                            }
                        }
                        w
                    })
                    .collect();
                let may_conflict =
                    (0..writes.len()).any(|i| (0..i).any(|j| intersects(&writes[i], &writes[j])));
                Action {
                    modules: modules
                        .into_iter()
                        .map(|cmds| Dispatch::new(cmds, &commands, &layout))
                        .collect(),
                    may_conflict,
                }
            })
            .collect();
        let unlabelled = unlabelled
            .into_iter()
            .filter(|l: &Vec<u32>| !l.is_empty())
            .map(|l| Dispatch::new(l, &commands, &layout))
            .collect();
        Ok(CModel {
            layout,
            vars,
            commands,
            unlabelled,
            actions,
            memos,
        })
    }

    /// How many command lists are split by a variable, the shares split again among
    /// them.
    #[cfg(test)]
    pub fn splits(&self) -> usize {
        let lists = self.actions.iter().flat_map(|a| &a.modules);
        self.unlabelled
            .iter()
            .chain(lists)
            .map(Dispatch::splits)
            .sum()
    }

    /// The command choices enabled in the state `vals`, grouped as a Markov chain merges
    /// them: all the unlabelled ones (`None`), then each action with the modules that
    /// take part in it, each group with its weight, the sum over its combinations of
    /// commands of the product of their `weight`s (with a weight of 1 per command, the
    /// number of combinations).
    pub fn enabled_weights<W>(
        &self,
        vals: &[i64],
        stack: &mut Vec<i64>,
        weight: &mut impl FnMut(u32, &[i64], &mut Vec<i64>) -> Result<W, Fault>,
        out: &mut Vec<(Option<u32>, W)>,
    ) -> Result<(), Fault>
    where
        W: num_traits::Zero + num_traits::One + Clone,
    {
        out.clear();
        let mut any = false;
        let mut total = W::zero();
        for d in &self.unlabelled {
            for &c in d.get(vals) {
                if self.commands[c as usize].guard.eval_bool(vals, stack)? {
                    total = total + weight(c, vals, stack)?;
                    any = true;
                }
            }
        }
        if any {
            out.push((None, total));
        }
        'actions: for (a, action) in self.actions.iter().enumerate() {
            let modules = &action.modules;
            let mut product = W::one();
            for cmds in modules {
                let mut sum = W::zero();
                let mut enabled = false;
                for &c in cmds.get(vals) {
                    if self.commands[c as usize].guard.eval_bool(vals, stack)? {
                        sum = sum + weight(c, vals, stack)?;
                        enabled = true;
                    }
                }
                if !enabled {
                    continue 'actions;
                }
                product = product * sum;
            }
            if !modules.is_empty() {
                out.push((Some(a as u32), product));
            }
        }
        Ok(())
    }
}

/// One branch of an enabled command in the current state.
#[derive(Clone, Copy)]
struct Branch {
    cmd: u32,
    update: u32,
    prob: f64,
    exact: u32,
}

/// An enabled command in the current state and its branches.
#[derive(Clone, Copy)]
struct Enabled {
    cmd: u32,
    start: u32,
    end: u32,
}

/// What exploration produces before it is wrapped for the caller.
pub(crate) struct Built {
    pub form: Form,
    pub arena: Vec<u64>,
    pub layout: Layout,
    pub actions: ActionList,
    pub deadlocks: Vec<u32>,
    pub peak_bytes: usize,
    /// In an `smg`, the player of each state (an index into the program's players);
    /// empty otherwise.
    pub owners: Vec<u32>,
}

/// The marker of "no action" in the per-choice action list.
pub(crate) const NO_ACTION: u32 = u32::MAX;

/// The action of each choice of an MDP, in as few bytes as the number of actions allows
/// (an MDP may have tens of millions of choices).
#[derive(Clone, Debug)]
pub(crate) enum ActionList {
    /// Fewer than 255 actions; 255 for none.
    Small(Vec<u8>),
    /// Fewer than 65535 actions; 65535 for none.
    Medium(Vec<u16>),
    Large(Vec<u32>),
}

impl ActionList {
    pub fn new(actions: usize) -> ActionList {
        if actions < u8::MAX as usize {
            ActionList::Small(Vec::new())
        } else if actions < u16::MAX as usize {
            ActionList::Medium(Vec::new())
        } else {
            ActionList::Large(Vec::new())
        }
    }

    /// Adds the action of the next choice (`NO_ACTION` for none).
    #[inline]
    pub fn push(&mut self, a: u32) {
        match self {
            ActionList::Small(v) => v.push(a.min(u8::MAX as u32) as u8),
            ActionList::Medium(v) => v.push(a.min(u16::MAX as u32) as u16),
            ActionList::Large(v) => v.push(a),
        }
    }

    /// The action of choice `c`, if it has one (and `c` is a choice of an MDP).
    pub fn get(&self, c: usize) -> Option<u32> {
        match self {
            ActionList::Small(v) => v.get(c).filter(|&&a| a != u8::MAX).map(|&a| a as u32),
            ActionList::Medium(v) => v.get(c).filter(|&&a| a != u16::MAX).map(|&a| a as u32),
            ActionList::Large(v) => v.get(c).copied().filter(|&a| a != NO_ACTION),
        }
    }

    fn shrink_to_fit(&mut self) {
        match self {
            ActionList::Small(v) => v.shrink_to_fit(),
            ActionList::Medium(v) => v.shrink_to_fit(),
            ActionList::Large(v) => v.shrink_to_fit(),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            ActionList::Small(v) => v.capacity(),
            ActionList::Medium(v) => v.capacity() * 2,
            ActionList::Large(v) => v.capacity() * 4,
        }
    }
}

pub(crate) struct Explorer<'a> {
    program: &'a Program,
    model: &'a CModel,
    mdp: bool,
    /// Probabilities are weights, each choice's divided by their sum
    /// ([`super::Options::weights`]).
    weights: bool,
    /// The command evaluated last.
    evaluated: u32,
    store: Store,
    interner: Option<Interner>,
    limit: usize,
    choices: Vec<usize>,
    row: Vec<usize>,
    to: Vec<u32>,
    prob: Vec<f64>,
    ids: Vec<u32>,
    actions: ActionList,
    deadlocks: Vec<u32>,
    // Scratch space, reused from state to state.
    vals: Vec<i64>,
    cur: Vec<u64>,
    target: Vec<u64>,
    stack: Vec<i64>,
    branches: Vec<Branch>,
    bits: Vec<u64>,
    enabled: Vec<Enabled>,
    groups: Vec<(u32, u32)>,
    pick: Vec<u32>,
    bpick: Vec<u32>,
    /// The transitions of the current state: target (an index into `pending` until
    /// resolved, then a state id), probability, exact probability id.
    trans: Vec<(u32, f64, u32)>,
    /// The packed targets of the current state, resolved to ids all at once.
    pending: Vec<u64>,
    hashes: Vec<u64>,
    /// Where each choice of an MDP ends in `trans`, and its action.
    cuts: Vec<(u32, u32)>,
    /// In an `smg`, for each choice of the current state: its player, and the module of
    /// a command without an action (`NO_ACTION` otherwise).
    cut_players: Vec<(u32, u32)>,
    /// The module whose command without an action is being finished.
    module: u32,
    /// In an `smg`, the player of each state expanded.
    owners: Vec<u32>,
    /// Command choices of the current state (a Markov chain merges them).
    subchoices: u32,
    /// Exact probabilities computed in states, by the values of the variables they read.
    memo: Vec<FxHashMap<Vec<i64>, u32>>,
    key: Vec<i64>,
}

pub(crate) fn explore(program: &Program, options: &Options) -> Result<Built, ExploreError> {
    let mut interner = options.exact.then(Interner::new);
    let model = CModel::new(program, interner.as_mut())?;
    let words = model.layout.words;
    let initial = super::init::initial_states(program, &model.layout)?;
    let limit = options.max_states.min(u32::MAX as usize);
    let mut ex = Explorer::new(program, &model, interner, limit);
    ex.weights = options.weights;
    let absorbing = options.absorbing.map(|e| compile(e, Ty::Bool, model.vars));
    let mut initial_ids = Vec::new();
    for state in initial.chunks_exact(words) {
        match ex.store.insert(state, ex.limit) {
            Found::New(id) => initial_ids.push(id),
            Found::Old(_) => {}
            Found::Full => return Err(ExploreError::TooManyStates { limit: ex.limit }),
        }
    }
    drop(initial);
    /// How often exploration looks at the stop flag, in states.
    const LOOK_EVERY: usize = 4096;

    const PROGRESS_EVERY: usize = 100_000;
    let mut peak = 0;
    let mut s = 0usize;
    while s < ex.store.len() {
        ex.choices.push(ex.row.len() - 1);
        match &absorbing {
            Some(code) if ex.absorbs(code, s as u32, initial_ids.len())? => ex.stay(s as u32),
            _ => ex.expand(s as u32)?,
        }
        s += 1;
        if s.is_multiple_of(PROGRESS_EVERY) {
            if let Some(progress) = options.progress {
                progress(s);
            }
        }
        if s.is_multiple_of(LOOK_EVERY) && options.stop.is_some_and(|f| f.is_stopped()) {
            return Err(ExploreError::Stopped);
        }
        if s.is_power_of_two() {
            peak = peak.max(ex.bytes());
        }
    }
    ex.choices.push(ex.row.len() - 1);
    peak = peak.max(ex.bytes());
    let exact = ex.interner.take().map(|int| ExactProbs {
        values: int.values,
        id: std::mem::take(&mut ex.ids),
    });
    let mut form = Form {
        choices: ex.choices,
        row: ex.row,
        to: ex.to,
        prob: ex.prob,
        exact,
        weights: Default::default(),
        initial: initial_ids,
        opponent: Vec::new(),
    };
    form.choices.shrink_to_fit();
    form.row.shrink_to_fit();
    form.to.shrink_to_fit();
    form.prob.shrink_to_fit();
    if let Some(e) = &mut form.exact {
        e.id.shrink_to_fit();
    }
    let mut actions = ex.actions;
    actions.shrink_to_fit();
    Ok(Built {
        form,
        arena: ex.store.into_arena(),
        layout: model.layout.clone(),
        actions,
        deadlocks: ex.deadlocks,
        peak_bytes: peak,
        owners: ex.owners,
    })
}

impl<'a> Explorer<'a> {
    pub(crate) fn new(
        program: &'a Program,
        model: &'a CModel,
        interner: Option<Interner>,
        limit: usize,
    ) -> Explorer<'a> {
        let words = model.layout.words;
        Explorer {
            program,
            model,
            mdp: program.kind.chooses(),
            weights: false,
            evaluated: 0,
            store: Store::new(&model.layout),
            interner,
            limit,
            choices: Vec::new(),
            row: vec![0],
            to: Vec::new(),
            prob: Vec::new(),
            ids: Vec::new(),
            actions: ActionList::new(program.actions.len()),
            deadlocks: Vec::new(),
            vals: vec![0; model.vars + 2],
            cur: vec![0; words],
            target: vec![0; words],
            stack: Vec::with_capacity(64),
            branches: Vec::new(),
            bits: Vec::new(),
            enabled: Vec::new(),
            groups: Vec::new(),
            pick: Vec::new(),
            bpick: Vec::new(),
            trans: Vec::new(),
            pending: Vec::new(),
            hashes: Vec::new(),
            cuts: Vec::new(),
            cut_players: Vec::new(),
            module: NO_ACTION,
            owners: Vec::new(),
            subchoices: 0,
            memo: (0..model.memos).map(|_| FxHashMap::default()).collect(),
            key: Vec::new(),
        }
    }
}

impl Explorer<'_> {
    fn bytes(&self) -> usize {
        self.store.bytes()
            + self.choices.capacity() * 8
            + self.row.capacity() * 8
            + self.to.capacity() * 4
            + self.prob.capacity() * 8
            + self.ids.capacity() * 4
            + self.actions.bytes()
    }

    /// An error at `span` about the current state.
    fn error(&self, span: Span, what: impl std::fmt::Display) -> ExploreError {
        let state = describe_vals(self.program, &self.vals[..self.model.vars]);
        ExploreError::Model(Error::new(span, format!("in state {state} {what}")))
    }

    fn fault(&self, f: Fault) -> ExploreError {
        self.error(f.span, format_args!("evaluation fails: {}", f.message))
    }

    #[inline]
    fn guard(&mut self, c: u32) -> Result<bool, ExploreError> {
        let cmd = &self.model.commands[c as usize];
        match cmd.guard.eval_bool(&self.vals, &mut self.stack) {
            Ok(b) => Ok(b),
            Err(f) => Err(self.fault(f)),
        }
    }

    /// Whether state `s` satisfies the absorbing condition (initial states come first).
    fn absorbs(&mut self, code: &Code, s: u32, initial: usize) -> Result<bool, ExploreError> {
        let n = self.model.vars;
        self.cur.copy_from_slice(self.store.get(s));
        self.model.layout.unpack(&self.cur, &mut self.vals[..n]);
        self.vals[n] = ((s as usize) < initial) as i64;
        self.vals[n + 1] = 0;
        code.eval_bool(&self.vals, &mut self.stack)
            .map_err(|f| self.fault(f))
    }

    /// A state left unexpanded: one choice, a self-loop.
    fn stay(&mut self, s: u32) {
        self.to.push(s);
        self.prob.push(1.0);
        if let Some(int) = &self.interner {
            self.ids.push(int.one);
        }
        self.row.push(self.to.len());
        if self.mdp {
            self.actions.push(NO_ACTION);
        }
        if !self.program.players.names.is_empty() {
            self.owners.push(0);
        }
    }

    fn expand(&mut self, s: u32) -> Result<(), ExploreError> {
        self.cur.copy_from_slice(self.store.get(s));
        if self.successors()? {
            self.deadlocks.push(s);
        }
        self.resolve(s)?;
        if !self.program.players.names.is_empty() {
            let owner = self.owner()?;
            self.owners.push(owner);
        }
        if self.mdp {
            let mut start = 0;
            for i in 0..self.cuts.len() {
                let (end, action) = self.cuts[i];
                if self.weights {
                    self.weigh(start, end as usize)?;
                }
                self.emit(start, end as usize, 1);
                self.row.push(self.to.len());
                self.actions.push(action);
                start = end as usize;
            }
        } else if self.weights {
            self.weigh(0, self.trans.len())?;
            self.emit(0, self.trans.len(), 1);
            self.row.push(self.to.len());
        } else {
            self.emit(0, self.trans.len(), self.subchoices);
            self.row.push(self.to.len());
        }
        Ok(())
    }

    /// Divides the transitions `start..end` of one choice (a Markov chain's all merged)
    /// by their sum, as weights; a sum of 0 is an error.
    fn weigh(&mut self, start: usize, end: usize) -> Result<(), ExploreError> {
        let trans = &mut self.trans[start..end];
        let zero = match &mut self.interner {
            Some(int) => {
                let mut total = None;
                for t in trans.iter() {
                    total = Some(total.map_or(t.2, |sum| int.add(sum, t.2)));
                }
                match total {
                    Some(total) if !num_traits::Zero::is_zero(&int.values[total as usize]) => {
                        for t in trans.iter_mut() {
                            t.2 = int.ratio(t.2, total);
                            t.1 = int.approx[t.2 as usize];
                        }
                        false
                    }
                    _ => true,
                }
            }
            None => {
                let total: f64 = trans.iter().map(|t| t.1).sum();
                trans.iter_mut().for_each(|t| t.1 /= total);
                total <= 0.0 || !total.is_finite()
            }
        };
        if zero {
            // The last command evaluated is one enabled here.
            return Err(self.error(
                self.model.commands[self.evaluated as usize].span,
                "the weights of a choice add up to 0 (or overflow): nothing to divide by",
            ));
        }
        Ok(())
    }

    /// The command choices of the state in `cur`, their targets queued in `pending` and
    /// their transitions in `trans` (targets as indices into `pending`), each choice's
    /// end and action in `cuts`; whether the state is a deadlock (then given a self-loop).
    pub(crate) fn successors(&mut self) -> Result<bool, ExploreError> {
        let model = self.model;
        model.layout.unpack(&self.cur, &mut self.vals);
        self.subchoices = 0;
        self.trans.clear();
        self.pending.clear();
        self.cuts.clear();
        self.cut_players.clear();
        for d in &model.unlabelled {
            for &c in d.get(&self.vals) {
                if self.guard(c)? {
                    self.branches.clear();
                    self.bits.clear();
                    self.enabled.clear();
                    self.evaluate(c)?;
                    self.single(0, self.branches.len() as u32)?;
                    self.module = model.commands[c as usize].module;
                    self.finish_choice(None);
                }
            }
        }
        'actions: for (a, action) in model.actions.iter().enumerate() {
            let modules = &action.modules;
            if modules.is_empty() {
                continue;
            }
            self.enabled.clear();
            self.groups.clear();
            for cmds in modules {
                let start = self.enabled.len() as u32;
                for &c in cmds.get(&self.vals) {
                    if self.guard(c)? {
                        self.enabled.push(Enabled {
                            cmd: c,
                            start: 0,
                            end: 0,
                        });
                    }
                }
                let end = self.enabled.len() as u32;
                if start == end {
                    continue 'actions;
                }
                self.groups.push((start, end));
            }
            self.branches.clear();
            self.bits.clear();
            for i in 0..self.enabled.len() {
                let start = self.branches.len() as u32;
                self.evaluate(self.enabled[i].cmd)?;
                let e = &mut self.enabled[i];
                e.start = start;
                e.end = self.branches.len() as u32;
            }
            if self.groups.len() == 1 {
                for i in 0..self.enabled.len() {
                    let e = self.enabled[i];
                    self.single(e.start, e.end)?;
                    self.finish_choice(Some(a as u32));
                }
            } else {
                self.product(a as u32, action.may_conflict)?;
            }
        }
        let deadlock = self.subchoices == 0;
        if deadlock {
            // A deadlock: it stays where it is.
            let one = self.interner.as_ref().map_or(0, |i| i.one);
            self.target.copy_from_slice(&self.cur);
            let t = self.push_target();
            self.trans.push((t, 1.0, one));
            self.module = NO_ACTION;
            self.finish_choice(None);
        }
        Ok(deadlock)
    }

    /// Choice `k` of the current state in an error: its action, or the module of its
    /// command without one.
    fn choice_name(&self, k: usize) -> String {
        match self.cuts[k].1 {
            NO_ACTION => format!(
                "a command of module `{}` without an action",
                self.program.modules[self.cut_players[k].1 as usize].name
            ),
            a => format!("`[{}]`", self.program.actions[a as usize]),
        }
    }

    /// The one player whose choices the current state has; an error where two players
    /// have choices. A choice of no player's (its action, or its module's commands
    /// without one, in no `player` block) goes with the others; a state with no
    /// player's choice is the first player's if it has one choice (or none: it stays
    /// where it is), and an error otherwise, as in PRISM-games.
    fn owner(&self) -> Result<u32, ExploreError> {
        let players = &self.program.players;
        let mut owner: Option<(u32, u32, usize)> = None;
        for (i, &(player, _)) in self.cut_players.iter().enumerate() {
            if player == NO_ACTION {
                continue;
            }
            match owner {
                None => owner = Some((player, player, i)),
                Some((first, _, j)) if first != player => {
                    let what = |k: usize| {
                        let p = self.cut_players[k].0;
                        format!(
                            "player `{}` ({})",
                            players.names[p as usize],
                            self.choice_name(k)
                        )
                    };
                    // The module of a command without an action among the two, if any.
                    let module = [i, j]
                        .iter()
                        .map(|&k| self.cut_players[k].1)
                        .find(|&m| m != NO_ACTION)
                        .unwrap_or(0);
                    let span = self
                        .program
                        .modules
                        .get(module as usize)
                        .map_or(Span::new(0, 0), |m| m.span);
                    return Err(self.error(
                        span,
                        format_args!(
                            "both {} and {} have choices: in an `smg` each state is one \
                             player's turn",
                            what(j),
                            what(i)
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        match owner {
            Some((p, _, _)) => Ok(p),
            None if self.cut_players.len() <= 1 => Ok(0),
            None => {
                let choices: Vec<String> = (0..self.cut_players.len())
                    .map(|k| self.choice_name(k))
                    .collect();
                // At the first choice's command: its module, or a command with its action.
                let span = match self.cuts[0].1 {
                    NO_ACTION => self.program.modules[self.cut_players[0].1 as usize].span,
                    a => self
                        .program
                        .modules
                        .iter()
                        .flat_map(|m| &m.commands)
                        .find(|c| c.action == Some(a))
                        .map_or(Span::new(0, 0), |c| c.span),
                };
                Err(self.error(
                    span,
                    format_args!(
                        "no player owns any of its {} choices ({}): in an `smg` a state with \
                         more than one choice is a player's turn; name an action (or, for \
                         commands without one, the module) in a `player` block",
                        choices.len(),
                        choices.join("; ")
                    ),
                ))
            }
        }
    }

    /// Evaluates the updates of the enabled command `c` in the current state: their
    /// probabilities (checked) and the bits they write, as branches.
    fn evaluate(&mut self, c: u32) -> Result<(), ExploreError> {
        self.evaluated = c;
        let cmd = &self.model.commands[c as usize];
        let words = self.model.layout.words;
        let mut sum = 0.0;
        let mut xsum: Option<u32> = None;
        for (u, upd) in cmd.updates.iter().enumerate() {
            let (p, id) = match (&mut self.interner, &upd.exact) {
                (Some(int), Some(x)) => {
                    let id = match x {
                        XProb::Const(id) => *id,
                        XProb::Dynamic { ex, reads, memo } => {
                            self.key.clear();
                            self.key
                                .extend(reads.iter().map(|&x| self.vals[x as usize]));
                            let table = &mut self.memo[*memo];
                            match table.get(&self.key[..]) {
                                Some(&id) => id,
                                None => match crate::eval::eval_exact(ex, &self.vals) {
                                    Ok(q) => {
                                        let id = int.intern(q);
                                        if table.len() < MEMO_LIMIT {
                                            table.insert(self.key.clone(), id);
                                        }
                                        id
                                    }
                                    Err(e) => return Err(self.fault(Fault::new(e.span, e.message))),
                                },
                            }
                        }
                    };
                    (int.approx[id as usize], id)
                }
                _ => {
                    let p = match upd.fixed {
                        Some(p) => p,
                        None => match upd.prob.eval_real(&self.vals, &mut self.stack) {
                            Ok(p) => p,
                            Err(f) => return Err(self.fault(f)),
                        },
                    };
                    (p, 0)
                }
            };
            if self.weights || !cmd.checked {
                let bad = match (&self.interner, self.weights) {
                    (Some(int), true) => int.is_negative(id),
                    (None, true) => !(p >= 0.0 && p.is_finite()),
                    (Some(int), false) => {
                        let q = &int.values[id as usize];
                        int.is_negative(id) || *q > num_traits::One::one()
                    }
                    (None, false) => !(0.0..=1.0 + SUM_TOLERANCE).contains(&p),
                };
                if bad {
                    let shown = match &self.interner {
                        Some(int) => int.values[id as usize].to_string(),
                        None => p.to_string(),
                    };
                    let (what, range) = if self.weights {
                        ("weight", "a number at least 0")
                    } else {
                        ("probability", "between 0 and 1")
                    };
                    return Err(self.error(
                        upd.prob_span,
                        format_args!("this {what} is {shown}, not {range}"),
                    ));
                }
            }
            if !cmd.checked && !self.weights {
                sum += p;
                if let Some(int) = &mut self.interner {
                    xsum = Some(match xsum {
                        None => id,
                        Some(t) => int.add(t, id),
                    });
                }
            }
            let zero = match &self.interner {
                Some(int) => num_traits::Zero::is_zero(&int.values[id as usize]),
                None => p == 0.0,
            };
            if zero {
                continue;
            }
            let at = self.bits.len();
            self.bits.resize(at + words, 0);
            for a in &upd.assigns {
                let v = match a.value.eval(&self.vals, &mut self.stack) {
                    Ok(v) => v,
                    Err(f) => return Err(self.fault(f)),
                };
                let slot = self.model.layout.slots[a.var as usize];
                if v < slot.low || v > slot.high {
                    let var = &self.program.variables[a.var as usize];
                    return Err(self.error(
                        a.span,
                        format_args!(
                            "this update sets {} to {v}, outside its range {}..{}",
                            var.name, slot.low, slot.high
                        ),
                    ));
                }
                self.bits[at + slot.word as usize] |=
                    ((v.wrapping_sub(slot.low)) as u64 & slot.mask) << slot.shift;
            }
            self.branches.push(Branch {
                cmd: c,
                update: u as u32,
                prob: p,
                exact: id,
            });
        }
        if !cmd.checked && !self.weights {
            let (ok, shown) = match (&self.interner, xsum) {
                (Some(int), Some(t)) => {
                    let q = &int.values[t as usize];
                    (num_traits::One::is_one(q), q.to_string())
                }
                (Some(_), None) => (false, "0".to_string()),
                (None, _) => ((sum - 1.0).abs() <= SUM_TOLERANCE, sum.to_string()),
            };
            if !ok {
                return Err(self.error(
                    cmd.span,
                    format_args!("the probabilities of this command add up to {shown}, not 1"),
                ));
            }
        }
        Ok(())
    }

    /// Queues the packed state in `target`; its index among the queued.
    #[inline]
    fn push_target(&mut self) -> u32 {
        let words = self.model.layout.words;
        let i = self.pending.len() / words;
        self.pending.extend_from_slice(&self.target);
        i as u32
    }

    /// Turns the queued targets of state `s` into state ids, adding the new ones in
    /// order. The table's slots for all of them are loaded first, then the states they
    /// point at: loads independent of each other, whose cache misses overlap instead of
    /// being paid one after the other.
    fn resolve(&mut self, s: u32) -> Result<(), ExploreError> {
        let words = self.model.layout.words;
        self.hashes.clear();
        // A self-loop needs no lookup: its hash is 0, a marker (a real hash of 0 only
        // costs a lookup).
        for t in self.pending.chunks_exact(words) {
            let h = if same(t, &self.cur) {
                0
            } else {
                super::store::hash(t)
            };
            self.hashes.push(h);
            if h != 0 {
                self.store.touch(h);
            }
        }
        for &h in &self.hashes {
            if h != 0 {
                self.store.touch_candidate(h);
            }
        }
        for i in 0..self.hashes.len() {
            let t = &self.pending[i * words..(i + 1) * words];
            let id = if self.hashes[i] == 0 && same(t, &self.cur) {
                s
            } else {
                match self.store.insert_hashed(t, self.hashes[i], self.limit) {
                    Found::Old(id) | Found::New(id) => id,
                    Found::Full => return Err(ExploreError::TooManyStates { limit: self.limit }),
                }
            };
            // Reuse `hashes` for the ids.
            self.hashes[i] = id as u64;
        }
        for t in &mut self.trans {
            t.0 = self.hashes[t.0 as usize] as u32;
        }
        Ok(())
    }

    /// The transitions of one command alone: branches `start..end`.
    fn single(&mut self, start: u32, end: u32) -> Result<(), ExploreError> {
        let words = self.model.layout.words;
        for b in start..end {
            let br = self.branches[b as usize];
            let mask = &self.model.commands[br.cmd as usize].updates[br.update as usize].mask;
            let bits = &self.bits[b as usize * words..b as usize * words + words];
            for w in 0..words {
                self.target[w] = (self.cur[w] & !mask[w]) | bits[w];
            }
            let t = self.push_target();
            self.trans.push((t, br.prob, br.exact));
        }
        Ok(())
    }

    /// The choices of a synchronised action: one per combination of an enabled command
    /// from each module taking part, its distribution the product of theirs.
    fn product(&mut self, action: u32, may_conflict: bool) -> Result<(), ExploreError> {
        let words = self.model.layout.words;
        let g = self.groups.len();
        self.pick.clear();
        self.pick.extend(self.groups.iter().map(|&(s, _)| s));
        loop {
            // Two commands writing a common variable: check branch by branch below.
            let mut conflict = false;
            for i in 0..if may_conflict { g } else { 0 } {
                for j in 0..i {
                    let a = &self.model.commands[self.enabled[self.pick[i] as usize].cmd as usize];
                    let b = &self.model.commands[self.enabled[self.pick[j] as usize].cmd as usize];
                    conflict |= intersects(&a.writes, &b.writes);
                }
            }
            self.bpick.clear();
            for i in 0..g {
                let e = self.enabled[self.pick[i] as usize];
                self.bpick.push(e.start);
            }
            // A command whose every branch has probability 0 leaves no branch: the sum
            // check rules that out, but a weight of 0 is allowed; such a combination
            // weighs 0, and has no transitions.
            let empty = self.weights
                && (0..g).any(|i| {
                    let e = self.enabled[self.pick[i] as usize];
                    e.start == e.end
                });
            if !empty {
                loop {
                    let mut p = 1.0;
                    let mut id = self.interner.as_ref().map_or(0, |i| i.one);
                    self.target.copy_from_slice(&self.cur);
                    for i in 0..g {
                        let b = self.bpick[i] as usize;
                        let br = self.branches[b];
                        let upd = &self.model.commands[br.cmd as usize].updates[br.update as usize];
                        if conflict {
                            self.check_conflict(action, i, &upd.writes)?;
                        }
                        let bits = &self.bits[b * words..b * words + words];
                        for ((t, m), b) in self.target.iter_mut().zip(upd.mask.iter()).zip(bits) {
                            *t = (*t & !m) | b;
                        }
                        p *= br.prob;
                        if let Some(int) = &mut self.interner {
                            id = int.mul(id, br.exact);
                        }
                    }
                    if let Some(int) = &self.interner {
                        p = int.approx[id as usize];
                    }
                    let t = self.push_target();
                    self.trans.push((t, p, id));
                    // The next combination of branches, the last module's turning fastest.
                    let mut i = g;
                    let done = loop {
                        if i == 0 {
                            break true;
                        }
                        i -= 1;
                        let e = self.enabled[self.pick[i] as usize];
                        self.bpick[i] += 1;
                        if self.bpick[i] < e.end {
                            break false;
                        }
                        self.bpick[i] = e.start;
                    };
                    if done {
                        break;
                    }
                }
            }
            self.finish_choice(Some(action));
            // The next combination of commands.
            let mut i = g;
            loop {
                if i == 0 {
                    return Ok(());
                }
                i -= 1;
                self.pick[i] += 1;
                if self.pick[i] < self.groups[i].1 {
                    break;
                }
                self.pick[i] = self.groups[i].0;
            }
        }
    }

    /// Fails when the branch chosen for module group `i` writes a variable that the
    /// branch of an earlier group also writes.
    fn check_conflict(&self, action: u32, i: usize, writes: &[u64]) -> Result<(), ExploreError> {
        for j in 0..i {
            let br = self.branches[self.bpick[j] as usize];
            let other = &self.model.commands[br.cmd as usize];
            let ow = &other.updates[br.update as usize].writes;
            if let Some(var) = (0..self.model.vars as u32).find(|&v| {
                writes[v as usize / 64] >> (v % 64) & 1 == 1
                    && ow[v as usize / 64] >> (v % 64) & 1 == 1
            }) {
                let here = self.branches[self.bpick[i] as usize];
                let cmd = &self.model.commands[here.cmd as usize];
                let modules = &self.program.modules;
                return Err(self.error(
                    cmd.span,
                    format_args!(
                        "modules {} and {} both assign {} in one synchronised step of \
                         action [{}]",
                        modules[other.module as usize].name,
                        modules[cmd.module as usize].name,
                        self.program.variables[var as usize].name,
                        self.program.actions[action as usize]
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Ends a command choice: an MDP keeps it apart; a Markov chain merges them all.
    fn finish_choice(&mut self, action: Option<u32>) {
        self.subchoices += 1;
        let players = &self.program.players;
        if !players.names.is_empty() {
            let player = match action {
                Some(a) => players.of_action[a as usize],
                None if self.module != NO_ACTION => players.of_module[self.module as usize],
                None => None,
            };
            let module = if action.is_none() {
                self.module
            } else {
                NO_ACTION
            };
            self.cut_players.push((player.unwrap_or(NO_ACTION), module));
        }
        // A Markov chain merges its command choices, but their actions still tell the
        // merged choice's reward (in alea's cluster).
        self.cuts
            .push((self.trans.len() as u32, action.unwrap_or(NO_ACTION)));
    }

    /// The choices of `state` with their targets as packed states (not ids): for an
    /// explorer that keeps the states elsewhere. Equal targets of a choice are merged and
    /// a Markov chain's command choices are merged into one, as [`Explorer::emit`] does.
    pub(crate) fn expansion(
        &mut self,
        state: &[u64],
        out: &mut super::Expansion,
    ) -> Result<(), ExploreError> {
        let words = self.model.layout.words;
        self.cur.copy_from_slice(state);
        out.clear();
        out.deadlock = self.successors()?;
        out.command_actions.extend(
            self.cuts
                .iter()
                .map(|&(_, a)| (a != NO_ACTION).then_some(a)),
        );
        let mut order: Vec<usize> = Vec::new();
        let mut push = |out: &mut super::Expansion, trans: &[(u32, f64, u32)], k: u32| {
            order.clear();
            order.extend(0..trans.len());
            let key = |i: usize| {
                let t = trans[i].0 as usize;
                &self.pending[t * words..(t + 1) * words]
            };
            order.sort_unstable_by(|&a, &b| key(a).cmp(key(b)));
            let mut i = 0;
            while i < order.len() {
                let mut p = trans[order[i]].1;
                let mut j = i + 1;
                while j < order.len() && key(order[j]) == key(order[i]) {
                    p += trans[order[j]].1;
                    j += 1;
                }
                out.targets.extend_from_slice(key(order[i]));
                out.probs.push(if k == 1 { p } else { p / k as f64 });
                i = j;
            }
            out.choice_end.push(out.probs.len());
        };
        if self.mdp {
            let mut start = 0;
            for &(end, action) in &self.cuts {
                push(out, &self.trans[start..end as usize], 1);
                out.actions.push((action != NO_ACTION).then_some(action));
                start = end as usize;
            }
        } else {
            push(out, &self.trans, self.subchoices);
            out.actions.push(None);
        }
        Ok(())
    }

    /// Writes out transitions `start..end`, duplicates merged, each divided by `k`.
    fn emit(&mut self, start: usize, end: usize, k: u32) {
        let trans = &mut self.trans[start..end];
        if trans.len() > 1 {
            trans.sort_unstable_by_key(|t| t.0);
        }
        let mut i = 0;
        while i < trans.len() {
            let (to, mut p, mut id) = trans[i];
            let mut j = i + 1;
            while j < trans.len() && trans[j].0 == to {
                p += trans[j].1;
                if let Some(int) = &mut self.interner {
                    id = int.add(id, trans[j].2);
                }
                j += 1;
            }
            match &mut self.interner {
                Some(int) => {
                    let id = int.div(id, k);
                    self.prob.push(int.approx[id as usize]);
                    self.ids.push(id);
                }
                None => self.prob.push(if k == 1 { p } else { p / k as f64 }),
            }
            self.to.push(to);
            i = j;
        }
    }
}
