//! LTL formulas in negation normal form, each subformula stored once, and the two
//! substitutions of the master theorem that turn a formula into one of only least
//! (`[X]_ν` keeps the greatest) or only greatest fixed points.
//!
//! Least fixed points (μ): `U`, `M` (strong release) and `F`; they must be fulfilled.
//! Greatest (ν): `W`, `R` and `G`; they hold unless violated.

use rustc_hash::FxHashMap;

/// An LTL formula as written, over atomic propositions numbered from 0 (the state
/// formulas of a property, say).
#[derive(Clone, Debug, PartialEq)]
pub enum Ltl {
    True,
    False,
    Atom(u32),
    Not(Box<Ltl>),
    And(Box<Ltl>, Box<Ltl>),
    Or(Box<Ltl>, Box<Ltl>),
    Next(Box<Ltl>),
    Eventually(Box<Ltl>),
    Globally(Box<Ltl>),
    /// `a U b`: `b` at some step, `a` at every step before.
    Until(Box<Ltl>, Box<Ltl>),
    /// `a W b`: `a U b`, or `a` for ever.
    WeakUntil(Box<Ltl>, Box<Ltl>),
    /// `a R b`: `b` up to and including the first step where `a` holds, or for ever.
    Release(Box<Ltl>, Box<Ltl>),
}

impl Ltl {
    pub fn negated(self) -> Ltl {
        Ltl::Not(Box::new(self))
    }
    pub fn and(self, b: Ltl) -> Ltl {
        Ltl::And(Box::new(self), Box::new(b))
    }
    pub fn or(self, b: Ltl) -> Ltl {
        Ltl::Or(Box::new(self), Box::new(b))
    }
    pub fn next(self) -> Ltl {
        Ltl::Next(Box::new(self))
    }
}

/// A subformula's number in its [`Store`].
pub(crate) type Id = u32;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Node {
    True,
    False,
    /// An atomic proposition, or (`false`) its negation.
    Lit(u32, bool),
    /// Flattened, sorted, without repeats; two members at least.
    And(Vec<Id>),
    Or(Vec<Id>),
    Next(Id),
    Eventually(Id),
    Globally(Id),
    Until(Id, Id),
    WeakUntil(Id, Id),
    Release(Id, Id),
    /// `a M b`: `b U (a & b)`, the dual of `W`.
    StrongRelease(Id, Id),
}

pub(crate) const TRUE: Id = 0;
pub(crate) const FALSE: Id = 1;

/// Every subformula met, once each: equal formulas have equal numbers.
pub(crate) struct Store {
    nodes: Vec<Node>,
    index: FxHashMap<Node, Id>,
}

impl Store {
    pub fn new() -> Store {
        let mut s = Store {
            nodes: Vec::new(),
            index: FxHashMap::default(),
        };
        s.intern(Node::True);
        s.intern(Node::False);
        s
    }

    pub fn node(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }

    fn intern(&mut self, node: Node) -> Id {
        if let Some(&id) = self.index.get(&node) {
            return id;
        }
        let id = self.nodes.len() as Id;
        self.nodes.push(node.clone());
        self.index.insert(node, id);
        id
    }

    /// A conjunction (`and`) or disjunction of `parts`, flattened and simplified.
    pub fn junction(&mut self, and: bool, parts: &[Id]) -> Id {
        let (unit, zero) = if and { (TRUE, FALSE) } else { (FALSE, TRUE) };
        let mut flat = Vec::with_capacity(parts.len());
        for &p in parts {
            match self.node(p) {
                Node::And(inner) if and => flat.extend_from_slice(inner),
                Node::Or(inner) if !and => flat.extend_from_slice(inner),
                _ if p == zero => return zero,
                _ if p == unit => {}
                _ => flat.push(p),
            }
        }
        flat.sort_unstable();
        flat.dedup();
        // `a & !a` is false and `a | !a` true.
        if self.clash(&flat) {
            return zero;
        }
        match flat.len() {
            0 => unit,
            1 => flat[0],
            _ if and => self.intern(Node::And(flat)),
            _ => self.intern(Node::Or(flat)),
        }
    }

    /// Whether `parts` hold an atomic proposition and its negation.
    pub fn clash(&self, parts: &[Id]) -> bool {
        let mut lits: Vec<(u32, bool)> = parts
            .iter()
            .filter_map(|&p| match self.node(p) {
                Node::Lit(a, x) => Some((*a, *x)),
                _ => None,
            })
            .collect();
        lits.sort_unstable();
        lits.windows(2)
            .any(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1)
    }

    /// A temporal node, simplified where a constant operand decides it.
    pub fn temporal(&mut self, node: Node) -> Id {
        let node = match node {
            Node::Next(b) | Node::Eventually(b) | Node::Globally(b) if b <= FALSE => return b,
            Node::Until(_, TRUE) | Node::WeakUntil(_, TRUE) => return TRUE,
            Node::Until(_, FALSE) => return FALSE,
            Node::Until(FALSE, b) => return b,
            Node::WeakUntil(TRUE, _) => return TRUE,
            Node::WeakUntil(FALSE, b) => return b,
            Node::WeakUntil(a, FALSE) => Node::Globally(a),
            Node::Until(TRUE, b) => Node::Eventually(b),
            Node::Release(_, b) if b <= FALSE => return b,
            Node::StrongRelease(_, FALSE) => return FALSE,
            Node::Release(TRUE, b) | Node::StrongRelease(TRUE, b) => return b,
            Node::StrongRelease(FALSE, _) => return FALSE,
            Node::Release(FALSE, b) => Node::Globally(b),
            Node::StrongRelease(a, TRUE) => Node::Eventually(a),
            n => n,
        };
        self.intern(node)
    }

    /// `f` in negation normal form (of its negation when `negated`).
    pub fn add(&mut self, f: &Ltl, negated: bool) -> Id {
        let bin =
            |s: &mut Store, a: &Ltl, b: &Ltl, na: bool, nb: bool| (s.add(a, na), s.add(b, nb));
        match f {
            Ltl::True => [TRUE, FALSE][usize::from(negated)],
            Ltl::False => [FALSE, TRUE][usize::from(negated)],
            Ltl::Atom(i) => self.intern(Node::Lit(*i, !negated)),
            Ltl::Not(g) => self.add(g, !negated),
            Ltl::And(a, b) | Ltl::Or(a, b) => {
                let (a, b) = bin(self, a, b, negated, negated);
                let and = matches!(f, Ltl::And(..)) != negated;
                self.junction(and, &[a, b])
            }
            // Over infinite paths, `!X a` is `X !a`.
            Ltl::Next(g) => {
                let g = self.add(g, negated);
                self.temporal(Node::Next(g))
            }
            Ltl::Eventually(g) | Ltl::Globally(g) => {
                let g = self.add(g, negated);
                let eventually = matches!(f, Ltl::Eventually(_)) != negated;
                self.temporal(if eventually {
                    Node::Eventually(g)
                } else {
                    Node::Globally(g)
                })
            }
            // `!(a U b)` is `!a R !b`, `!(a W b)` is `!a M !b`, and back.
            Ltl::Until(a, b) | Ltl::WeakUntil(a, b) | Ltl::Release(a, b) => {
                let (a, b) = bin(self, a, b, negated, negated);
                let node = match (f, negated) {
                    (Ltl::Until(..), false) => Node::Until(a, b),
                    (Ltl::Until(..), true) => Node::Release(a, b),
                    (Ltl::WeakUntil(..), false) => Node::WeakUntil(a, b),
                    (Ltl::WeakUntil(..), true) => Node::StrongRelease(a, b),
                    (Ltl::Release(..), false) => Node::Release(a, b),
                    _ => Node::Until(a, b),
                };
                self.temporal(node)
            }
        }
    }

    pub fn is_mu(&self, id: Id) -> bool {
        matches!(
            self.node(id),
            Node::Until(..) | Node::StrongRelease(..) | Node::Eventually(_)
        )
    }

    pub fn is_nu(&self, id: Id) -> bool {
        matches!(
            self.node(id),
            Node::WeakUntil(..) | Node::Release(..) | Node::Globally(_)
        )
    }

    /// The operands of a node.
    pub fn children(&self, id: Id) -> Vec<Id> {
        match self.node(id) {
            Node::True | Node::False | Node::Lit(..) => Vec::new(),
            Node::And(v) | Node::Or(v) => v.clone(),
            Node::Next(b) | Node::Eventually(b) | Node::Globally(b) => vec![*b],
            Node::Until(a, b)
            | Node::WeakUntil(a, b)
            | Node::Release(a, b)
            | Node::StrongRelease(a, b) => vec![*a, *b],
        }
    }

    /// Every subformula of the `roots`, themselves included, ascending.
    pub fn subformulas(&self, roots: &[Id]) -> Vec<Id> {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = roots.to_vec();
        while let Some(f) = stack.pop() {
            if seen.insert(f) {
                stack.extend(self.children(f));
            }
        }
        let mut out: Vec<Id> = seen.into_iter().collect();
        out.sort_unstable();
        out
    }

    /// Whether `f` has no greatest fixed point: then every path that satisfies it does
    /// so by a finite prefix (it is co-safe, syntactically).
    pub fn is_cosafe(&self, f: Id) -> bool {
        self.subformulas(&[f]).iter().all(|&g| !self.is_nu(g))
    }

    /// `f[X]_ν`: each least fixed point of `xs` (assumed to hold infinitely often) made
    /// its weak form (`U` to `W`, `M` to `R`, `F` to true), each other one false.
    pub fn sub_nu(&mut self, f: Id, xs: &[Id], memo: &mut FxHashMap<Id, Id>) -> Id {
        self.substitute(f, xs, true, memo)
    }

    /// `f[Y]_μ`: each greatest fixed point of `ys` (assumed to hold from some step on)
    /// made true, each other one its strong form (`W` to `U`, `R` to `M`, `G` to false).
    pub fn sub_mu(&mut self, f: Id, ys: &[Id], memo: &mut FxHashMap<Id, Id>) -> Id {
        self.substitute(f, ys, false, memo)
    }

    fn substitute(&mut self, f: Id, set: &[Id], nu: bool, memo: &mut FxHashMap<Id, Id>) -> Id {
        if let Some(&g) = memo.get(&f) {
            return g;
        }
        let node = self.node(f).clone();
        let mut sub = |s: &mut Store, g: Id| s.substitute(g, set, nu, memo);
        let member = set.binary_search(&f).is_ok();
        let out = match node {
            Node::True | Node::False | Node::Lit(..) => f,
            Node::And(v) | Node::Or(v) => {
                let and = matches!(self.node(f), Node::And(_));
                let parts: Vec<Id> = v.iter().map(|&g| sub(self, g)).collect();
                self.junction(and, &parts)
            }
            Node::Next(b) => {
                let b = sub(self, b);
                self.temporal(Node::Next(b))
            }
            // The operators that the substitution keeps.
            Node::Eventually(b) if !nu => {
                let b = sub(self, b);
                self.temporal(Node::Eventually(b))
            }
            Node::Globally(b) if nu => {
                let b = sub(self, b);
                self.temporal(Node::Globally(b))
            }
            Node::Until(a, b) | Node::StrongRelease(a, b) if !nu => {
                let (a, b) = (sub(self, a), sub(self, b));
                self.temporal(match node {
                    Node::Until(..) => Node::Until(a, b),
                    _ => Node::StrongRelease(a, b),
                })
            }
            Node::WeakUntil(a, b) | Node::Release(a, b) if nu => {
                let (a, b) = (sub(self, a), sub(self, b));
                self.temporal(match node {
                    Node::WeakUntil(..) => Node::WeakUntil(a, b),
                    _ => Node::Release(a, b),
                })
            }
            // The operators it changes.
            _ if !member => match node {
                // A least fixed point not assumed is false; a greatest one not assumed
                // must be fulfilled as a least one.
                _ if nu => FALSE,
                Node::Globally(_) => FALSE,
                Node::WeakUntil(a, b) => {
                    let (a, b) = (sub(self, a), sub(self, b));
                    self.temporal(Node::Until(a, b))
                }
                Node::Release(a, b) => {
                    let (a, b) = (sub(self, a), sub(self, b));
                    self.temporal(Node::StrongRelease(a, b))
                }
                _ => unreachable!("every greatest fixed point is G, W or R"),
            },
            _ => match node {
                _ if !nu => TRUE,
                Node::Eventually(_) => TRUE,
                Node::Until(a, b) => {
                    let (a, b) = (sub(self, a), sub(self, b));
                    self.temporal(Node::WeakUntil(a, b))
                }
                Node::StrongRelease(a, b) => {
                    let (a, b) = (sub(self, a), sub(self, b));
                    self.temporal(Node::Release(a, b))
                }
                _ => unreachable!("every least fixed point is F, U or M"),
            },
        };
        memo.insert(f, out);
        out
    }
}
