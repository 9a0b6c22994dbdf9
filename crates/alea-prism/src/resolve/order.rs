//! The order constants are evaluated in: each one after those it uses, directly or
//! through formulas and labels, whatever the order of declaration. A cycle among
//! constants, formulas or labels is an error that names it.

use super::expr::{Env, LabelBody, Sym};
use crate::ast::{self, ExprKind};
use crate::error::{Error, Result, Span};

/// The constants still to evaluate (those with a source), each after everything it
/// depends on, and for each constant one without a value that it needs (itself when
/// it has neither a value nor a source), if any; an error for the first cycle found.
pub(super) fn constant_order(env: &Env) -> Result<(Vec<usize>, Vec<Option<usize>>)> {
    let graph = Graph::new(env);
    let n = graph.len();
    // For every node, as it is done: the first constant without a value it needs.
    let mut lacks: Vec<Option<usize>> = vec![None; n];
    // 0: not seen, 1: on the current path, 2: done.
    let mut mark = vec![0u8; n];
    let mut order = Vec::new();
    // An explicit stack: a long chain of constants must not exhaust the call stack.
    let mut stack: Vec<(usize, Vec<usize>, usize)> = Vec::new();
    for start in 0..n {
        if mark[start] != 0 {
            continue;
        }
        mark[start] = 1;
        stack.push((start, graph.deps(start), 0));
        while let Some((node, deps, next)) = stack.last_mut() {
            if let Some(&d) = deps.get(*next) {
                *next += 1;
                match mark[d] {
                    0 => {
                        mark[d] = 1;
                        let deps = graph.deps(d);
                        stack.push((d, deps, 0));
                    }
                    1 => {
                        let at = stack.iter().position(|(x, _, _)| *x == d).unwrap_or(0);
                        let mut chain: Vec<String> =
                            stack[at..].iter().map(|(x, _, _)| graph.show(*x)).collect();
                        chain.push(graph.show(d));
                        return Err(Error::new(
                            graph.span(d),
                            format!(
                                "{} {} is defined in terms of itself: {}",
                                graph.kind(d),
                                graph.show(d),
                                chain.join(" -> ")
                            ),
                        ));
                    }
                    _ => {}
                }
            } else {
                let node = *node;
                let valueless = node < env.consts.len()
                    && env.consts[node].source.is_none()
                    && env.consts[node].value.is_none();
                lacks[node] = if valueless {
                    Some(node)
                } else {
                    deps.iter().find_map(|&d| lacks[d])
                };
                stack.pop();
                mark[node] = 2;
                if node < env.consts.len() && env.consts[node].source.is_some() {
                    order.push(node);
                }
            }
        }
    }
    lacks.truncate(env.consts.len());
    Ok((order, lacks))
}

/// Constants, then formulas, then labels, numbered in one range.
struct Graph<'a> {
    env: &'a Env,
}

impl<'a> Graph<'a> {
    fn new(env: &'a Env) -> Graph<'a> {
        Graph { env }
    }

    fn len(&self) -> usize {
        self.env.consts.len() + self.env.formulas.len() + self.env.labels.len()
    }

    fn formula_base(&self) -> usize {
        self.env.consts.len()
    }

    fn label_base(&self) -> usize {
        self.env.consts.len() + self.env.formulas.len()
    }

    fn body(&self, node: usize) -> Option<&'a ast::Expr> {
        let env = self.env;
        if node < self.formula_base() {
            env.consts[node].source.as_ref().map(|s| &s.expr)
        } else if node < self.label_base() {
            Some(&env.formulas[node - self.formula_base()].expr)
        } else {
            match &env.labels[node - self.label_base()].body {
                LabelBody::Source(e) => Some(e),
                LabelBody::Resolved { .. } => None,
            }
        }
    }

    fn deps(&self, node: usize) -> Vec<usize> {
        let mut out = Vec::new();
        if let Some(e) = self.body(node) {
            self.collect(e, &mut out);
        }
        out
    }

    fn collect(&self, e: &ast::Expr, out: &mut Vec<usize>) {
        match &e.kind {
            ExprKind::Name(n) => match self.env.idents.get(n) {
                Some(Sym::Const(j)) => out.push(*j),
                Some(Sym::Formula(j)) => out.push(self.formula_base() + j),
                _ => {}
            },
            ExprKind::Label(l) => {
                if let Some(j) = self.env.label_index.get(l) {
                    out.push(self.label_base() + j);
                }
            }
            ExprKind::Unary(_, a) => self.collect(a, out),
            ExprKind::Binary(_, a, b) => {
                self.collect(a, out);
                self.collect(b, out);
            }
            ExprKind::Ite(c, a, b) => {
                self.collect(c, out);
                self.collect(a, out);
                self.collect(b, out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| self.collect(a, out)),
            ExprKind::Int(_) | ExprKind::Real(..) | ExprKind::Bool(_) | ExprKind::Operator(_) => {}
        }
    }

    fn kind(&self, node: usize) -> &'static str {
        if node < self.formula_base() {
            "constant"
        } else if node < self.label_base() {
            "formula"
        } else {
            "label"
        }
    }

    fn show(&self, node: usize) -> String {
        if node < self.formula_base() {
            format!("`{}`", self.env.consts[node].name)
        } else if node < self.label_base() {
            format!(
                "`{}`",
                self.env.formulas[node - self.formula_base()].name.name
            )
        } else {
            format!("\"{}\"", self.env.labels[node - self.label_base()].name)
        }
    }

    fn span(&self, node: usize) -> Span {
        if node < self.formula_base() {
            self.env.consts[node].span
        } else if node < self.label_base() {
            self.env.formulas[node - self.formula_base()].name.span
        } else {
            self.env.labels[node - self.label_base()].span
        }
    }
}
