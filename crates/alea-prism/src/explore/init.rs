//! The initial states: the variables' initial values, or every valuation satisfying
//! `init ... endinit`. The latter are found by enumerating the product of the ranges,
//! first narrowed by the conjuncts that bound one variable by a constant (`x = 0`,
//! `y >= 2`, `b`, `!b`), so that the common `init x = 0 & y > 0 endinit` over wide ranges
//! stays cheap.

use super::compile::{compile, is_constant};
use super::store::Layout;
use crate::ast::{BinOp, UnOp};
use crate::error::Error;
use crate::program::{Ex, ExKind, Program, Ty};

/// The most valuations `init ... endinit` may make exploration check.
pub const INIT_ENUMERATION_LIMIT: u128 = 1 << 26;

/// The initial states, packed one after the other in lexicographic order of their values
/// (the first variable most significant).
pub(crate) fn initial_states(program: &Program, layout: &Layout) -> Result<Vec<u64>, Error> {
    let vars = &program.variables;
    let mut packed = vec![0u64; layout.words];
    let Some(init) = &program.init else {
        let mut vals = Vec::with_capacity(vars.len());
        for v in vars {
            if v.init < v.low || v.init > v.high {
                return Err(Error::new(
                    v.span,
                    format!(
                        "the initial value {} of {} is outside its range {}..{}",
                        v.init, v.name, v.low, v.high
                    ),
                ));
            }
            vals.push(v.init);
        }
        layout.pack(&vals, &mut packed);
        return Ok(packed);
    };
    let mut bounds: Vec<(i64, i64)> = vars.iter().map(|v| (v.low, v.high)).collect();
    narrow(init, &mut bounds);
    let mut count: u128 = 1;
    for &(lo, hi) in &bounds {
        if lo > hi {
            count = 0;
            break;
        }
        count = count.saturating_mul((hi as i128 - lo as i128 + 1) as u128);
    }
    if count > INIT_ENUMERATION_LIMIT {
        return Err(Error::new(
            init.span,
            format!(
                "finding the initial states means checking {count} valuations against \
                 init ... endinit, more than the {INIT_ENUMERATION_LIMIT} allowed: bound \
                 the variables by constants in it (x = 0 & y <= 3)"
            ),
        ));
    }
    let code = compile(init, Ty::Bool, vars.len());
    let mut out = Vec::new();
    if count > 0 {
        let mut vals: Vec<i64> = bounds.iter().map(|b| b.0).collect();
        let mut stack = Vec::new();
        vals.extend([0, 0]);
        let n = vars.len();
        loop {
            let holds = code.eval_bool(&vals, &mut stack).map_err(|f| {
                Error::new(
                    f.span,
                    format!(
                        "in the valuation {} init ... endinit fails: {}",
                        super::describe_vals(program, &vals[..n]),
                        f.message
                    ),
                )
            })?;
            if holds {
                layout.pack(&vals[..n], &mut packed);
                out.extend_from_slice(&packed);
            }
            // The next valuation, the last variable turning fastest.
            let mut i = n;
            let done = loop {
                if i == 0 {
                    break true;
                }
                i -= 1;
                if vals[i] < bounds[i].1 {
                    vals[i] += 1;
                    break false;
                }
                vals[i] = bounds[i].0;
            };
            if done {
                break;
            }
        }
    }
    if out.is_empty() {
        return Err(Error::new(
            init.span,
            "no valuation of the variables satisfies init ... endinit: the model has no \
             initial state",
        ));
    }
    Ok(out)
}

fn int_constant(ex: &Ex) -> Option<i64> {
    if ex.ty != Ty::Int || !is_constant(ex) {
        return None;
    }
    crate::eval::eval_int(ex, &[]).ok()
}

/// Narrows `bounds` by the conjuncts of `ex` that bound a single variable by a constant.
fn narrow(ex: &Ex, bounds: &mut [(i64, i64)]) {
    let mut clamp = |x: u32, lo: i64, hi: i64| {
        let b = &mut bounds[x as usize];
        b.0 = b.0.max(lo);
        b.1 = b.1.min(hi);
    };
    match &ex.kind {
        ExKind::Binary(BinOp::And, a, b) => {
            narrow(a, bounds);
            narrow(b, bounds);
        }
        ExKind::Var(x) if ex.ty == Ty::Bool => clamp(*x, 1, 1),
        ExKind::Unary(UnOp::Not, a) => {
            if let ExKind::Var(x) = a.kind {
                if a.ty == Ty::Bool {
                    clamp(x, 0, 0);
                }
            }
        }
        ExKind::Binary(op, a, b) => {
            let (x, k, flipped) = match (&a.kind, &b.kind) {
                (ExKind::Var(x), _) if a.ty == Ty::Int => match int_constant(b) {
                    Some(k) => (*x, k, false),
                    None => return,
                },
                (_, ExKind::Var(x)) if b.ty == Ty::Int => match int_constant(a) {
                    Some(k) => (*x, k, true),
                    None => return,
                },
                _ => return,
            };
            let op = match (op, flipped) {
                (BinOp::Lt, true) => BinOp::Gt,
                (BinOp::Le, true) => BinOp::Ge,
                (BinOp::Gt, true) => BinOp::Lt,
                (BinOp::Ge, true) => BinOp::Le,
                (op, _) => *op,
            };
            match op {
                BinOp::Eq => clamp(x, k, k),
                BinOp::Lt => clamp(x, i64::MIN, k.saturating_sub(1)),
                BinOp::Le => clamp(x, i64::MIN, k),
                BinOp::Gt => clamp(x, k.saturating_add(1), i64::MAX),
                BinOp::Ge => clamp(x, k, i64::MAX),
                _ => {}
            }
        }
        _ => {}
    }
}
