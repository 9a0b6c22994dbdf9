//! Formula progression: what a formula asks of the rest of a path after one letter
//! (`af`), kept as a boolean combination of subformulas in a canonical form, so that
//! the formulas met along all paths are finitely many and each is one automaton state.
//!
//! The form is a disjunction of clauses, each clause a conjunction of *variables* (an
//! atomic proposition or its negation, or a temporal subformula), with no clause a
//! superset of another. Every formula here is in negation normal form, monotone in
//! its variables, and such a minimal form of a monotone function is unique: equal
//! formulas get equal numbers.

use rustc_hash::FxHashMap;

use super::formula::{Id, Node, Store};

/// A normal form's number.
pub(crate) type Form = u32;

pub(crate) const NO: Form = 0;
pub(crate) const YES: Form = 1;

/// A letter: bit `i` set where atomic proposition `i` holds.
pub type Letter = u64;

pub(crate) struct Progress {
    pub store: Store,
    forms: Vec<Vec<Vec<Id>>>,
    index: FxHashMap<Vec<Vec<Id>>, Form>,
    /// `af` of a variable, and of a form, on a letter.
    var_step: FxHashMap<(Id, Letter), Form>,
    form_step: FxHashMap<(Form, Letter), Form>,
    of_formula: FxHashMap<Id, Form>,
    validity: FxHashMap<Form, bool>,
}

impl Progress {
    pub fn new(store: Store) -> Progress {
        let mut p = Progress {
            store,
            forms: Vec::new(),
            index: FxHashMap::default(),
            var_step: FxHashMap::default(),
            form_step: FxHashMap::default(),
            of_formula: FxHashMap::default(),
            validity: FxHashMap::default(),
        };
        p.intern(Vec::new());
        p.intern(vec![Vec::new()]);
        p
    }

    pub fn clauses(&self, f: Form) -> &[Vec<Id>] {
        &self.forms[f as usize]
    }

    /// The variables of `f`.
    pub fn variables(&self, f: Form) -> Vec<Id> {
        let mut v: Vec<Id> = self.clauses(f).iter().flatten().copied().collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn intern(&mut self, clauses: Vec<Vec<Id>>) -> Form {
        if let Some(&f) = self.index.get(&clauses) {
            return f;
        }
        let f = self.forms.len() as Form;
        self.forms.push(clauses.clone());
        self.index.insert(clauses, f);
        f
    }

    /// The minimal form of a disjunction of `clauses` (each sorted, without repeats).
    fn normal(&mut self, mut clauses: Vec<Vec<Id>>) -> Form {
        // A clause with a proposition and its negation is false.
        clauses.retain(|c| !self.store.clash(c));
        clauses.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        clauses.dedup();
        let mut kept: Vec<Vec<Id>> = Vec::with_capacity(clauses.len());
        for c in clauses {
            if !kept.iter().any(|k| is_subset(k, &c)) {
                kept.push(c);
            }
        }
        self.intern(kept)
    }

    pub fn or(&mut self, a: Form, b: Form) -> Form {
        if a == YES || b == YES {
            return YES;
        }
        let mut c = self.clauses(a).to_vec();
        c.extend_from_slice(self.clauses(b));
        self.normal(c)
    }

    pub fn and(&mut self, a: Form, b: Form) -> Form {
        if a == NO || b == NO {
            return NO;
        }
        if a == YES {
            return b;
        }
        if b == YES {
            return a;
        }
        let mut out = Vec::new();
        for x in self.clauses(a) {
            for y in self.clauses(b) {
                let mut c: Vec<Id> = x.iter().chain(y).copied().collect();
                c.sort_unstable();
                c.dedup();
                out.push(c);
            }
        }
        self.normal(out)
    }

    fn var(&mut self, v: Id) -> Form {
        self.intern(vec![vec![v]])
    }

    /// A formula as it stands, before any letter.
    pub fn of(&mut self, f: Id) -> Form {
        if let Some(&g) = self.of_formula.get(&f) {
            return g;
        }
        let out = match self.store.node(f).clone() {
            Node::True => YES,
            Node::False => NO,
            Node::And(parts) | Node::Or(parts) => {
                let and = matches!(self.store.node(f), Node::And(_));
                let mut acc = if and { YES } else { NO };
                for p in parts {
                    let g = self.of(p);
                    acc = if and {
                        self.and(acc, g)
                    } else {
                        self.or(acc, g)
                    };
                }
                acc
            }
            _ => self.var(f),
        };
        self.of_formula.insert(f, out);
        out
    }

    /// What formula `f` asks of the path after `letter`.
    fn step_formula(&mut self, f: Id, letter: Letter) -> Form {
        if let Some(&g) = self.var_step.get(&(f, letter)) {
            return g;
        }
        let node = self.store.node(f).clone();
        let me = || f;
        let out = match node {
            Node::True => YES,
            Node::False => NO,
            Node::Lit(i, positive) => {
                if ((letter >> i) & 1 == 1) == positive {
                    YES
                } else {
                    NO
                }
            }
            Node::And(parts) | Node::Or(parts) => {
                let and = matches!(self.store.node(f), Node::And(_));
                let mut acc = if and { YES } else { NO };
                for p in parts {
                    let g = self.step_formula(p, letter);
                    acc = if and {
                        self.and(acc, g)
                    } else {
                        self.or(acc, g)
                    };
                }
                acc
            }
            Node::Next(b) => self.of(b),
            // `b`, or `a` now and the same again.
            Node::Until(a, b) | Node::WeakUntil(a, b) => {
                let (a, b) = (self.step_formula(a, letter), self.step_formula(b, letter));
                let again = self.var(me());
                let stay = self.and(a, again);
                self.or(b, stay)
            }
            // `b` now, and `a` now or the same again.
            Node::Release(a, b) | Node::StrongRelease(a, b) => {
                let (a, b) = (self.step_formula(a, letter), self.step_formula(b, letter));
                let again = self.var(me());
                let free = self.or(a, again);
                self.and(b, free)
            }
            Node::Eventually(b) => {
                let b = self.step_formula(b, letter);
                let again = self.var(me());
                self.or(b, again)
            }
            Node::Globally(b) => {
                let b = self.step_formula(b, letter);
                let again = self.var(me());
                self.and(b, again)
            }
        };
        self.var_step.insert((f, letter), out);
        out
    }

    /// What `f` asks of the path after `letter`.
    pub fn step(&mut self, f: Form, letter: Letter) -> Form {
        if f <= YES {
            return f;
        }
        if let Some(&g) = self.form_step.get(&(f, letter)) {
            return g;
        }
        let clauses = self.clauses(f).to_vec();
        let mut out = NO;
        for c in clauses {
            let mut conj = YES;
            for v in c {
                let g = self.step_formula(v, letter);
                conj = self.and(conj, g);
                if conj == NO {
                    break;
                }
            }
            out = self.or(out, conj);
            if out == YES {
                break;
            }
        }
        self.form_step.insert((f, letter), out);
        out
    }

    /// Whether every path satisfies co-safe `f` (read as such: a path satisfies it when
    /// some prefix leaves nothing to satisfy): no letters lead it to false, or round a
    /// cycle that never leaves it satisfied. `false` too where `f` has more than
    /// `max_atoms` atomic propositions (it is not worth the letters).
    pub fn valid(&mut self, f: Form, max_atoms: usize) -> bool {
        if let Some(&v) = self.validity.get(&f) {
            return v;
        }
        let subs = self.store.subformulas(&self.variables(f));
        let mut atoms: Vec<u32> = subs
            .iter()
            .filter_map(|&g| match self.store.node(g) {
                Node::Lit(i, _) => Some(*i),
                _ => None,
            })
            .collect();
        atoms.sort_unstable();
        atoms.dedup();
        if atoms.len() > max_atoms {
            return false;
        }
        let letters: Vec<Letter> = (0u64..1 << atoms.len())
            .map(|bits| {
                atoms
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| bits >> k & 1 == 1)
                    .fold(0, |l, (_, &i)| l | 1 << i)
            })
            .collect();
        // Depth-first over the forms met: 1 on the path, 2 done.
        let mut mark: FxHashMap<Form, u8> = FxHashMap::default();
        let mut stack: Vec<(Form, usize)> = vec![(f, 0)];
        mark.insert(f, 1);
        let mut valid = true;
        'search: while let Some((g, k)) = stack.pop() {
            if k == letters.len() {
                mark.insert(g, 2);
                continue;
            }
            stack.push((g, k + 1));
            let h = self.step(g, letters[k]);
            match h {
                YES => {}
                NO => {
                    valid = false;
                    break 'search;
                }
                h => match mark.get(&h) {
                    Some(1) => {
                        valid = false;
                        break 'search;
                    }
                    Some(_) => {}
                    None => {
                        mark.insert(h, 1);
                        stack.push((h, 0));
                    }
                },
            }
        }
        self.validity.insert(f, valid);
        valid
    }

    /// `f` with each of its variables `v` replaced by `map(v)`'s form.
    pub fn map_vars(&mut self, f: Form, mut map: impl FnMut(&mut Progress, Id) -> Form) -> Form {
        let clauses = self.clauses(f).to_vec();
        let mut out = NO;
        for c in clauses {
            let mut conj = YES;
            for v in c {
                let g = map(self, v);
                conj = self.and(conj, g);
            }
            out = self.or(out, conj);
        }
        out
    }
}

/// Whether sorted `a` is within sorted `b`.
fn is_subset(a: &[Id], b: &[Id]) -> bool {
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}
