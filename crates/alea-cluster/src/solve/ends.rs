//! End components on the partitioned model, found and collapsed in rounds, as the engine
//! does on one process: the greatest probability and the least expected reward need them
//! collapsed (see the parent module).
//!
//! Finding them. A state keeps the choices its candidate set allows that stay in its
//! block (at first, the whole region), and a state left without such a choice leaves
//! the region, until nothing changes anywhere. The rest is split into strongly connected
//! components, which become the blocks, and this is repeated until no choice leaves its
//! block: each block left is then a maximal end component.
//!
//! The components are found by colouring, which needs no global order of visits: every
//! state takes the greatest global id among the states that reach it (pushed forward
//! along the choices, the copies' values handed back to their owners), and a state whose
//! colour is its own id is a representative; its component is the states of its colour
//! that reach it (pulled back through the successors). Those are set aside and the rest
//! coloured again, until every state has its component.
//!
//! Collapsing. The representative (the member of greatest id) takes every choice of its
//! component's states that does not stay inside the component, the other members one
//! choice to the representative with probability 1, so that every member ends with the
//! component's best exit. The choices travel to the representative's worker with their
//! rewards, and the quotient is a graph of its own: the model's graph is left as it was
//! for the next property.

use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use super::{Partition, Topology};
use crate::round::{Channel, PIECE};

/// Outside every end component, or no colour.
const OUT: f64 = -1.0;

/// The maximal end components found: for every local value, the global id of its
/// component's representative (as a number; [`OUT`] outside), and for every choice
/// whether it stays inside its state's component.
pub(super) struct Ends {
    block: Vec<f64>,
    inside: Vec<bool>,
}

/// The maximal end components among the own states of `region`, made of the choices that
/// `allowed` accepts; `None` when there is none on any worker.
pub(super) fn find(
    worker: &mut Worker,
    g: &mut Partition,
    region: &[bool],
    allowed: impl Fn(usize) -> bool,
) -> Option<Ends> {
    let (n, len) = (g.topo.n, g.topo.len());
    let mut block = vec![OUT; len];
    for s in 0..n {
        if region[s] {
            block[s] = 0.0;
        }
    }
    let mut inside = vec![false; g.topo.form.choices[n]];
    let mut first = true;
    loop {
        let dropped = prune(worker, g, &mut block, &mut inside, &allowed);
        if first {
            let mine = block[..n].iter().any(|&b| b != OUT);
            if !g.any(worker, mine) {
                return None;
            }
            first = false;
        } else if !dropped {
            return Some(Ends { block, inside });
        }
        block = components(worker, g, &block, &inside);
    }
}

/// Keeps, in every state of a block, the allowed choices that stay in its block, and
/// takes the states left without one out, until nothing changes anywhere. Whether a
/// choice kept before (or a state) was dropped on any worker.
fn prune(
    worker: &mut Worker,
    g: &mut Partition,
    block: &mut [f64],
    inside: &mut [bool],
    allowed: &impl Fn(usize) -> bool,
) -> bool {
    // Before the first pass nothing is worked out yet.
    let mut changed = true;
    let mut dropped = false;
    let mut first = true;
    loop {
        let all_changed = g.share_flag(worker, block, 1, changed);
        if !first {
            dropped |= all_changed;
        }
        if !all_changed {
            return dropped;
        }
        first = false;
        changed = false;
        let t = &g.topo;
        for s in 0..t.n {
            let b = block[s];
            if b == OUT {
                continue;
            }
            let mut stays = false;
            for c in t.choices_of(s) {
                let now = allowed(c) && t.row_of(c).all(|i| block[t.form.to[i] as usize] == b);
                changed |= inside[c] && !now;
                inside[c] = now;
                stays |= now;
            }
            if !stays {
                block[s] = OUT;
                changed = true;
            }
        }
    }
}

/// The strongly connected components of the states in a block, over the choices inside:
/// every such state named by its component's member of greatest global id.
fn components(worker: &mut Worker, g: &mut Partition, block: &[f64], inside: &[bool]) -> Vec<f64> {
    let (n, len) = (g.topo.n, g.topo.len());
    let mut named = vec![OUT; len];
    let mut rest: Vec<bool> = (0..n).map(|s| block[s] != OUT).collect();
    let mut back = Channel::<(u32, u64, Vec<f64>)>::new(worker);
    loop {
        if !g.any(worker, rest.contains(&true)) {
            return named;
        }
        let mut colour = vec![OUT; len];
        for s in 0..n {
            if rest[s] {
                colour[s] = g.topo.global(s) as f64;
            }
        }
        spread(worker, g, &mut back, &mut colour, inside);
        let mut x = vec![0.0; len];
        for s in 0..n {
            if rest[s] && colour[s] == g.topo.global(s) as f64 {
                x[s] = 1.0;
            }
        }
        let colour = &colour;
        g.fixpoint(worker, &mut x, true, |t, s, x| {
            colour[s] != OUT
                && t.choices_of(s).any(|c| {
                    inside[c]
                        && t.row_of(c).any(|i| {
                            let v = t.form.to[i] as usize;
                            x[v] == 1.0 && colour[v] == colour[s]
                        })
                })
        });
        for s in 0..n {
            if x[s] == 1.0 {
                named[s] = colour[s];
                rest[s] = false;
            }
        }
    }
}

/// Raises every coloured state's colour to the greatest colour of a coloured state that
/// reaches it over the choices inside, until nothing changes anywhere.
fn spread(
    worker: &mut Worker,
    g: &mut Partition,
    back: &mut Channel<(u32, u64, Vec<f64>)>,
    colour: &mut [f64],
    inside: &[bool],
) {
    let mut changed = true;
    loop {
        if !g.share_flag(worker, colour, 1, changed) {
            return;
        }
        changed = false;
        let t = &g.topo;
        let mut stack: Vec<usize> = (0..t.n).filter(|&s| colour[s] != OUT).collect();
        while let Some(s) = stack.pop() {
            let v = colour[s];
            for c in t.choices_of(s).filter(|&c| inside[c]) {
                for i in t.row_of(c) {
                    let u = t.form.to[i] as usize;
                    if colour[u] != OUT && colour[u] < v {
                        colour[u] = v;
                        if u < t.n {
                            stack.push(u);
                            changed = true;
                        }
                    }
                }
            }
        }
        changed |= give_back(worker, t, back, colour);
    }
}

/// Sends the value of every copy to the copy's owner, which keeps the greater of it and
/// its own: whether an own value rose.
fn give_back(
    worker: &mut Worker,
    t: &Topology,
    back: &mut Channel<(u32, u64, Vec<f64>)>,
    x: &mut [f64],
) -> bool {
    for (w, copies) in t.imports.iter().enumerate() {
        if w == t.me {
            continue;
        }
        for (k, piece) in x[copies.clone()].chunks(PIECE).enumerate() {
            back.send(w, (t.me as u32, (k * PIECE) as u64, piece.to_vec()));
        }
    }
    let mut rose = false;
    back.finish_each(worker, |(from, offset, values)| {
        let states = &t.exports[from as usize][offset as usize..];
        for (&s, &v) in states.iter().zip(&values) {
            let s = s as usize;
            if v > x[s] {
                x[s] = v;
                rose = true;
            }
        }
    });
    rose
}

/// Choices on their way to a representative: `at` its local id, then each choice's
/// reward and number of transitions, the transitions' global targets and probabilities.
#[derive(Clone, Default, Serialize, Deserialize)]
struct Moved {
    from: u32,
    piece: u32,
    at: Vec<u32>,
    reward: Vec<f64>,
    len: Vec<u32>,
    to: Vec<u64>,
    prob: Vec<f64>,
}

/// The quotient of the model by the end components of `ends` (see the module's comment),
/// and the reward of each of its choices: `reward(s, c)`, that of choice `c` of own
/// state `s`, travels with the choice; a member's step to its representative earns 0.
pub(super) fn collapse(
    worker: &mut Worker,
    g: &Partition,
    ends: &Ends,
    reward: impl Fn(usize, usize) -> f64,
) -> (Partition, Vec<f64>) {
    let t = &g.topo;
    let representative = |s: usize| (ends.block[s] != OUT).then(|| ends.block[s] as u64);
    let mut channel = Channel::<Moved>::new(worker);
    let mut out: Vec<Moved> = (0..t.peers)
        .map(|_| Moved {
            from: t.me as u32,
            ..Moved::default()
        })
        .collect();
    for s in 0..t.n {
        let Some(r) = representative(s).filter(|&r| r != t.global(s)) else {
            continue;
        };
        let w = (r % t.peers as u64) as usize;
        for c in t.choices_of(s).filter(|&c| !ends.inside[c]) {
            let m = &mut out[w];
            m.at.push((r / t.peers as u64) as u32);
            m.reward.push(reward(s, c));
            m.len.push(t.row_of(c).len() as u32);
            for i in t.row_of(c) {
                m.to.push(t.global(t.form.to[i] as usize));
                m.prob.push(t.form.prob[i]);
            }
            if 2 * (m.at.len() + m.to.len()) >= PIECE {
                let next = Moved {
                    from: m.from,
                    piece: m.piece + 1,
                    ..Moved::default()
                };
                channel.send(w, std::mem::replace(m, next));
            }
        }
    }
    for (w, m) in out.into_iter().enumerate() {
        if !m.at.is_empty() {
            channel.send(w, m);
        }
    }
    let mut got = channel.finish(worker);
    got.sort_unstable_by_key(|m| (m.from, m.piece));
    // The arriving choices by representative, in the order they were sent:
    // (representative, message, first transition, choice within the message).
    let mut arrived: Vec<(u32, usize, usize, usize)> = Vec::new();
    for (k, m) in got.iter().enumerate() {
        let mut first = 0;
        for (j, (&at, &len)) in m.at.iter().zip(&m.len).enumerate() {
            arrived.push((at, k, first, j));
            first += len as usize;
        }
    }
    arrived.sort_by_key(|a| a.0);

    let mut rows = Rows {
        choices: Vec::with_capacity(t.n + 1),
        row: vec![0],
        ..Rows::default()
    };
    rows.choices.push(0);
    let mut next = 0;
    for s in 0..t.n {
        let rep = representative(s);
        match rep {
            Some(r) if r != t.global(s) => rows.push(0.0, &[r], &[1.0]),
            _ => {
                let before = rows.rewards.len();
                let keep = |c: usize| rep.is_none() || !ends.inside[c];
                for c in t.choices_of(s).filter(|&c| keep(c)) {
                    rows.push_own(t, c, reward(s, c));
                }
                while next < arrived.len() && arrived[next].0 as usize == s {
                    let (_, k, first, j) = arrived[next];
                    let m = &got[k];
                    let span = first..first + m.len[j] as usize;
                    rows.push(m.reward[j], &m.to[span.clone()], &m.prob[span]);
                    next += 1;
                }
                if rows.rewards.len() == before {
                    // A component without an exit: the graph analysis leaves none among
                    // the open states, but the state must keep a choice.
                    for c in t.choices_of(s) {
                        rows.push_own(t, c, reward(s, c));
                    }
                }
            }
        }
        rows.choices.push(rows.rewards.len());
    }
    let Rows {
        choices,
        row,
        to,
        prob,
        rewards,
    } = rows;
    let quotient = Partition::build(worker, (t.me, t.peers), t.n, choices, row, to, prob);
    (quotient, rewards)
}

/// The quotient's rows, to global ids, as they are built.
#[derive(Default)]
struct Rows {
    choices: Vec<usize>,
    row: Vec<usize>,
    to: Vec<u64>,
    prob: Vec<f64>,
    rewards: Vec<f64>,
}

impl Rows {
    fn push(&mut self, reward: f64, to: &[u64], prob: &[f64]) {
        self.to.extend_from_slice(to);
        self.prob.extend_from_slice(prob);
        self.row.push(self.to.len());
        self.rewards.push(reward);
    }

    /// Choice `c` of the model's graph `t`.
    fn push_own(&mut self, t: &Topology, c: usize, reward: f64) {
        for i in t.row_of(c) {
            self.to.push(t.global(t.form.to[i] as usize));
            self.prob.push(t.form.prob[i]);
        }
        self.row.push(self.to.len());
        self.rewards.push(reward);
    }
}
