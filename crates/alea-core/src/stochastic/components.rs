//! Graph algorithms on node indices: strongly connected components, and end components
//! (sets of nodes where the players together can keep the game forever: every averaging
//! node keeps all its successors inside, every choice node at least one).

/// Strongly connected components, in the order they are completed: every component comes
/// after each component it leads to.
pub(crate) struct Components {
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

const UNSEEN: u32 = u32::MAX;

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
    fn enter(&mut self, v: u32, succ: &mut impl FnMut(u32, &mut Vec<u32>)) {
        self.index[v as usize] = self.counter;
        self.low[v as usize] = self.counter;
        self.counter += 1;
        self.on_stack[v as usize] = true;
        self.stack.push(v);
        let from = self.arena.len();
        succ(v, &mut self.arena);
        self.frames.push((v, from, self.arena.len()));
    }
}

/// Tarjan's algorithm with an explicit stack, on nodes `0..n`, from `roots`; `succ(v,
/// out)` appends `v`'s successors to `out`. Only nodes reachable from the roots appear.
pub(crate) fn components(
    n: usize,
    roots: impl IntoIterator<Item = u32>,
    mut succ: impl FnMut(u32, &mut Vec<u32>),
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
        t.enter(root, &mut succ);
        while let Some(&(v, next, end)) = t.frames.last() {
            if next < end {
                let w = t.arena[next];
                t.frames.last_mut().expect("a frame is open").1 += 1;
                if t.index[w as usize] == UNSEEN {
                    t.enter(w, &mut succ);
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

/// A node of a subgraph for end-component search: whether it must keep all its edges
/// inside (averaging) or one (a choice), and its edges by local index.
pub(crate) struct SubNode {
    pub keeps_all: bool,
    pub edges: Vec<u32>,
}

/// An edge that leaves the subgraph.
pub(crate) const OUTSIDE: u32 = u32::MAX;

/// The greatest set of nodes in which every node can stay: whether the subgraph has an
/// end component at all (it has one exactly when this set is not empty).
pub(crate) fn can_stay(nodes: &[SubNode]) -> Vec<bool> {
    let mut alive = vec![true; nodes.len()];
    prune(nodes, &mut alive, &|_, _| true);
    alive
}

/// Removes nodes that cannot stay among the alive ones (an averaging node with an edge
/// out, a choice with none in) until none is left to remove; `keep(v, w)` says whether
/// the edge `v -> w` counts at all (it must stay within a component). A worklist over
/// the predecessors makes it linear in the edges.
fn prune(nodes: &[SubNode], alive: &mut [bool], keep: &dyn Fn(usize, u32) -> bool) {
    let n = nodes.len();
    let counts = |v: usize, w: u32| w != OUTSIDE && keep(v, w);
    let mut pred: Vec<Vec<u32>> = vec![Vec::new(); n];
    // For a choice, how many of its edges still lead to an alive node.
    let mut inside = vec![0u32; n];
    let mut gone: Vec<u32> = Vec::new();
    for (v, node) in nodes.iter().enumerate() {
        if !alive[v] {
            continue;
        }
        let mut out = false;
        for &w in &node.edges {
            if counts(v, w) && alive[w as usize] {
                pred[w as usize].push(v as u32);
                inside[v] += 1;
            } else {
                out = true;
            }
        }
        if if node.keeps_all { out } else { inside[v] == 0 } {
            alive[v] = false;
            gone.push(v as u32);
        }
    }
    while let Some(w) = gone.pop() {
        for &p in &pred[w as usize] {
            let p = p as usize;
            if !alive[p] {
                continue;
            }
            inside[p] -= 1;
            if nodes[p].keeps_all || inside[p] == 0 {
                alive[p] = false;
                gone.push(p as u32);
            }
        }
    }
}

/// The maximal end components of the subgraph, each a list of local indices.
pub(crate) fn end_components(nodes: &[SubNode]) -> Vec<Vec<u32>> {
    let n = nodes.len();
    let mut alive = can_stay(nodes);
    loop {
        // Split the alive part into strongly connected components over the edges that
        // stay alive; an edge between two components cannot be used forever.
        let roots: Vec<u32> = (0..n as u32).filter(|&v| alive[v as usize]).collect();
        let sccs = components(n, roots, |v, out| {
            let node = &nodes[v as usize];
            out.extend(
                node.edges
                    .iter()
                    .copied()
                    .filter(|&w| w != OUTSIDE && alive[w as usize]),
            );
        });
        let mut comp = vec![u32::MAX; n];
        for c in 0..sccs.count() {
            for &v in sccs.get(c) {
                comp[v as usize] = c as u32;
            }
        }
        let before = alive.iter().filter(|&&a| a).count();
        prune(nodes, &mut alive, &|v, w| comp[v] == comp[w as usize]);
        // A lone node without an edge to itself is no end component.
        for c in 0..sccs.count() {
            if let [v] = *sccs.get(c) {
                let node = &nodes[v as usize];
                if alive[v as usize] && !node.edges.contains(&v) {
                    alive[v as usize] = false;
                }
            }
        }
        if alive.iter().filter(|&&a| a).count() == before {
            let mut by_comp: Vec<Vec<u32>> = vec![Vec::new(); sccs.count()];
            for v in 0..n {
                if alive[v] {
                    by_comp[comp[v] as usize].push(v as u32);
                }
            }
            by_comp.retain(|c| !c.is_empty());
            return by_comp;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_come_after_those_they_lead_to() {
        // 0 -> 1 <-> 2 -> 3, 3 -> 3
        let edges: [&[u32]; 4] = [&[1], &[2], &[1, 3], &[3]];
        let c = components(4, [0], |v, out| out.extend_from_slice(edges[v as usize]));
        let order: Vec<Vec<u32>> = (0..c.count())
            .map(|i| {
                let mut v = c.get(i).to_vec();
                v.sort();
                v
            })
            .collect();
        assert_eq!(order, vec![vec![3], vec![1, 2], vec![0]]);
    }

    #[test]
    fn end_components_of_a_small_game() {
        // 0 (choice) -> 1 or out; 1 (average) -> 0 and 2; 2 (choice) -> 2 or out;
        // 3 (average) -> 0 and out.
        let nodes = vec![
            SubNode {
                keeps_all: false,
                edges: vec![1, OUTSIDE],
            },
            SubNode {
                keeps_all: true,
                edges: vec![0, 2],
            },
            SubNode {
                keeps_all: false,
                edges: vec![2, OUTSIDE],
            },
            SubNode {
                keeps_all: true,
                edges: vec![0, OUTSIDE],
            },
        ];
        let mut ecs = end_components(&nodes);
        ecs.sort();
        // {2} alone (its self-loop); {0, 1} is no end component, since 1 may go to 2
        // and never come back.
        assert_eq!(ecs, vec![vec![2]]);
        assert_eq!(can_stay(&nodes), vec![true, true, true, false]);
    }
}
