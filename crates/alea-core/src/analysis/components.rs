//! Strongly connected components on node indices (Tarjan's algorithm with an explicit
//! stack): the one implementation every solver and search of the engine uses.

use std::ops::Range;

use crate::form::Form;

/// Strongly connected components, in the order they are completed: every component comes
/// after each component it leads to.
pub struct Components {
    /// The nodes, component after component.
    pub nodes: Vec<u32>,
    /// `start[c]..start[c + 1]` are component `c`'s nodes in `nodes`.
    pub start: Vec<usize>,
}

impl Components {
    pub fn count(&self) -> usize {
        self.start.len() - 1
    }

    pub fn get(&self, c: usize) -> &[u32] {
        &self.nodes[self.start[c]..self.start[c + 1]]
    }
}

/// The strongly connected components of the states of `m` in `within`, over the
/// transitions of every choice that stay in it; each component leads only to earlier
/// ones (the sinks come first).
pub fn components_within(m: &Form, within: &[bool]) -> Components {
    let roots = (0..m.states() as u32).filter(|&s| within[s as usize]);
    // A state's choices are consecutive, and so are their transitions: one range.
    let range = |v: u32| m.row[m.choices[v as usize]]..m.row[m.choices[v as usize + 1]];
    let entry = |t: usize| match m.to[t] {
        w if within[w as usize] => w,
        _ => SKIP,
    };
    components(m.states(), roots, range, entry)
}

/// The bottom components of `m`: the strongly connected components that no choice of
/// theirs leaves, each sorted. In a chain, where the walk ends up; in a decision process,
/// where a strategy that takes every choice of a state it keeps visiting stays forever.
pub(crate) fn bottom_components(m: &Form) -> Vec<Vec<u32>> {
    let n = m.states();
    let comps = components_within(m, &vec![true; n]);
    let mut comp_of = vec![0u32; n];
    for k in 0..comps.count() {
        for &s in comps.get(k) {
            comp_of[s as usize] = k as u32;
        }
    }
    let all_of = |s: u32| &m.to[m.row[m.choices[s as usize]]..m.row[m.choices[s as usize + 1]]];
    (0..comps.count())
        .filter(|&k| {
            comps
                .get(k)
                .iter()
                .all(|&s| all_of(s).iter().all(|&t| comp_of[t as usize] == k as u32))
        })
        .map(|k| {
            let mut b = comps.get(k).to_vec();
            b.sort_unstable();
            b
        })
        .collect()
}

const UNSEEN: u32 = u32::MAX;
/// An entry that names no successor.
pub(crate) const SKIP: u32 = u32::MAX;

/// Tarjan's algorithm with an explicit stack, on nodes `0..n`, from `roots`: node `v`'s
/// successors are `entry(t)` for each `t` in `range(v)`, those that are [`SKIP`] left
/// out. Only nodes reachable from the roots appear.
///
/// A node's successors are gathered into a shared arena when it is entered, in one
/// burst: their reads (`entry` looks up a random state) overlap in the processor, where
/// reading each only as the search reaches it would wait on one miss at a time. On a
/// million-state model that is a third of the search's time.
pub(crate) fn components(
    n: usize,
    roots: impl IntoIterator<Item = u32>,
    range: impl Fn(u32) -> Range<usize>,
    entry: impl Fn(usize) -> u32,
) -> Components {
    let mut t = Tarjan {
        index: vec![UNSEEN; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        counter: 0,
        frames: Vec::new(),
        arena: Vec::new(),
    };
    let mut out = Components {
        nodes: Vec::with_capacity(n),
        start: vec![0],
    };
    for root in roots {
        if t.index[root as usize] != UNSEEN {
            continue;
        }
        t.enter(root, range(root), &entry);
        while let Some(&(v, next, end)) = t.frames.last() {
            if next < end {
                let w = t.arena[next];
                t.frames.last_mut().expect("a frame is open").1 += 1;
                if t.index[w as usize] == UNSEEN {
                    t.enter(w, range(w), &entry);
                } else if t.on_stack[w as usize] {
                    t.low[v as usize] = t.low[v as usize].min(t.index[w as usize]);
                }
                continue;
            }
            let (_, from, _) = t.frames.pop().expect("a frame is open");
            t.arena.truncate(from);
            if let Some(&(parent, _, _)) = t.frames.last() {
                t.low[parent as usize] = t.low[parent as usize].min(t.low[v as usize]);
            }
            if t.low[v as usize] == t.index[v as usize] {
                loop {
                    let w = t.stack.pop().expect("v is on the stack");
                    t.on_stack[w as usize] = false;
                    out.nodes.push(w);
                    if w == v {
                        break;
                    }
                }
                out.start.push(out.nodes.len());
            }
        }
    }
    out
}

/// Tarjan's bookkeeping.
struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    counter: u32,
    /// A frame is a node and the range of its successors in `arena` still to visit.
    frames: Vec<(u32, usize, usize)>,
    arena: Vec<u32>,
}

impl Tarjan {
    fn enter(&mut self, v: u32, entries: Range<usize>, entry: &impl Fn(usize) -> u32) {
        self.index[v as usize] = self.counter;
        self.low[v as usize] = self.counter;
        self.counter += 1;
        self.on_stack[v as usize] = true;
        self.stack.push(v);
        let from = self.arena.len();
        self.arena.extend(entries.map(entry).filter(|&w| w != SKIP));
        self.frames.push((v, from, self.arena.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_come_after_those_they_lead_to() {
        // 0 -> 1 <-> 2 -> 3, 3 -> 3
        let (start, to) = ([0, 1, 2, 4, 5], [1, 2, 1, 3, 3]);
        let c = components(
            4,
            [0],
            |v| start[v as usize]..start[v as usize + 1],
            |t| to[t],
        );
        let order: Vec<Vec<u32>> = (0..c.count())
            .map(|i| {
                let mut v = c.get(i).to_vec();
                v.sort();
                v
            })
            .collect();
        assert_eq!(order, vec![vec![3], vec![1, 2], vec![0]]);
    }
}
