//! The names a property sees: the model's variables, constants, formulas and labels,
//! and the constants, formulas and labels of its own file.

use super::expr::{self, depth, Allow, ConstInfo, Ctx, Env, LabelBody, Sym, VarInfo, Want};
use super::{attach_one, evaluate_constants};
use crate::ast;
use crate::error::{Error, Result, Span};
use crate::eval;
use crate::program::{Ex, Program, Value};
use alea_core::Exact;

/// Resolves the expressions of the properties of one file against a resolved model.
pub struct Scope {
    env: Env,
    /// The names of the model's reward structures, in order.
    rewards: Vec<Option<String>>,
    /// The property file's constants with their values, in order of declaration.
    constants: Vec<(String, Value)>,
}

impl Scope {
    /// The scope of `props` on `program` (resolved from `model`). `given` may hold values
    /// for the file's constants declared without one; names of the model's constants,
    /// and names of neither, are left alone (see [`super::split_given`] for the check
    /// that every given name exists somewhere).
    pub fn new(
        program: &Program,
        model: &ast::Model,
        props: &ast::PropertyFile,
        given: &[(String, ast::Expr)],
    ) -> Result<Scope> {
        let mut env = Env {
            exact: program.exact,
            ..Env::default()
        };
        for (i, v) in program.variables.iter().enumerate() {
            let index = u32::try_from(i).map_err(|_| Error::new(v.span, "too many variables"))?;
            env.declare(
                &v.name,
                v.span,
                Sym::Var(index),
                "a variable of the model".into(),
            )?;
            env.vars.push(VarInfo {
                name: v.name.clone(),
                is_bool: v.is_bool,
                module: v.module,
            });
        }
        for (name, value) in &program.constants {
            let decl = model.constants.iter().find(|c| &c.name.name == name);
            let span = decl.map_or(Span::default(), |c| c.name.span);
            let ty = match value {
                Value::Int(_) => ast::Type::Int,
                Value::Real(_) => ast::Type::Double,
                Value::Bool(_) => ast::Type::Bool,
            };
            env.declare(
                name,
                span,
                Sym::Const(env.consts.len()),
                "a constant of the model".into(),
            )?;
            env.consts.push(ConstInfo {
                name: name.clone(),
                ty,
                value: Some(value.clone()),
                span,
                source: None,
                lacks: None,
            });
        }
        for f in &model.formulas {
            env.declare(
                &f.name.name,
                f.name.span,
                Sym::Formula(env.formulas.len()),
                "a formula of the model".into(),
            )?;
            env.formulas.push(f.clone());
        }
        for (name, ex) in &program.labels {
            let span = model
                .labels
                .iter()
                .find(|l| &l.name.name == name)
                .map_or(Span::default(), |l| l.name.span);
            let body = LabelBody::Resolved {
                depth: depth(ex),
                ex: ex.clone(),
            };
            env.declare_label(name, span, body)?;
        }

        // The file's own declarations, in the order of its text.
        let first_const = env.consts.len();
        let first_formula = env.formulas.len();
        let mut decls: Vec<(Span, &str, Sym, &str)> = Vec::new();
        for (k, c) in props.constants.iter().enumerate() {
            decls.push((
                c.name.span,
                &c.name.name,
                Sym::Const(first_const + k),
                "a constant",
            ));
        }
        for (k, f) in props.formulas.iter().enumerate() {
            decls.push((
                f.name.span,
                &f.name.name,
                Sym::Formula(first_formula + k),
                "a formula",
            ));
        }
        decls.sort_by_key(|d| d.0.start);
        for (span, name, sym, kind) in decls {
            env.declare(name, span, sym, kind.into())?;
        }
        env.consts.extend(props.constants.iter().map(|c| {
            ConstInfo {
                name: c.name.name.clone(),
                ty: c.ty,
                value: None,
                span: c.name.span,
                source: c
                    .value
                    .clone()
                    .map(|expr| super::ConstSource { expr, given: false }),
                lacks: None,
            }
        }));
        env.formulas.extend(props.formulas.iter().cloned());
        for l in &props.labels {
            env.declare_label(&l.name.name, l.name.span, LabelBody::Source(l.expr.clone()))?;
        }

        for (name, e) in given {
            if let Some(k) = props.constants.iter().position(|c| &c.name.name == name) {
                attach_one(&mut env, first_const + k, e)?;
            }
        }
        // A constant without a value is an error only where a property uses it.
        evaluate_constants(&mut env)?;
        for f in &props.formulas {
            let purpose = format!("formula `{}`", f.name.name);
            env.resolve(&f.expr, Ctx::new(Allow::Labels, &purpose))?;
        }
        for l in &props.labels {
            let what = format!("label \"{}\"", l.name.name);
            env.resolve_as(&l.expr, Ctx::new(Allow::Labels, &what), Want::Bool, &what)?;
        }

        let constants = env.consts[first_const..]
            .iter()
            .filter_map(|c| Some((c.name.clone(), c.value.clone()?)))
            .collect();
        Ok(Scope {
            env,
            rewards: program.rewards.iter().map(|r| r.name.clone()).collect(),
            constants,
        })
    }

    /// The property file's constants with their values, in order of declaration.
    pub fn constants(&self) -> &[(String, Value)] {
        &self.constants
    }

    /// A condition on states: a bool expression over the variables, constants, formulas
    /// and labels (`"init"` and `"deadlock"` among them).
    pub fn state_formula(&self, e: &ast::Expr) -> Result<Ex> {
        self.env.resolve_as(
            e,
            Ctx::new(Allow::Labels, "a state formula"),
            Want::Bool,
            "a state formula",
        )
    }

    /// Whether `"name"` is a label here (the model's, the file's, `"init"` or
    /// `"deadlock"`) rather than, perhaps, the name of a property.
    pub fn has_label(&self, name: &str) -> bool {
        matches!(name, "init" | "deadlock") || self.env.label_index.contains_key(name)
    }

    /// An expression of any type over the same names as [`Scope::state_formula`].
    pub fn expression(&self, e: &ast::Expr) -> Result<Ex> {
        self.env
            .resolve(e, Ctx::new(Allow::Labels, "an expression"))
    }

    /// A step bound, `k` in `F<=k`: a constant int expression, at least 0.
    pub fn int_value(&self, e: &ast::Expr) -> Result<i64> {
        let ex = self.env.resolve_as(
            e,
            Ctx::new(Allow::Constants, "a step bound"),
            Want::Int,
            "a step bound",
        )?;
        let k = eval::eval_int(&ex, &[])?;
        if k < 0 {
            return Err(Error::new(
                e.span,
                format!("a step bound must be at least 0, this is {k}"),
            ));
        }
        Ok(k)
    }

    /// The bound of a query (`0.9` in `P>=0.9 [...]`): a constant number, exactly (a
    /// value that has no exact form, from `log`, is taken as its `f64`).
    pub fn threshold(&self, e: &ast::Expr) -> Result<Exact> {
        let ex = self.env.resolve_as(
            e,
            Ctx::new(Allow::Constants, "a bound"),
            Want::Number,
            "a bound",
        )?;
        match eval::eval_exact(&ex, &[]) {
            Ok(q) => Ok(q),
            Err(_) => {
                let x = eval::eval_f64(&ex, &[])?;
                Exact::from_float(x)
                    .ok_or_else(|| Error::new(e.span, format!("the bound is {x}, not a number")))
            }
        }
    }

    /// The index of a reward structure in [`Program::rewards`]: the first when `None`, or
    /// by name, or by 1-based number. An error without a place for `None` when the model
    /// has no reward structure: [`Scope::reward_index_at`] says where.
    pub fn reward_index(&self, reference: &Option<ast::RewardRef>) -> Result<usize> {
        self.reward_index_at(reference, Span::default())
    }

    /// [`Scope::reward_index`], with `span` the place of the query for the error when the
    /// model has no reward structure.
    pub fn reward_index_at(&self, reference: &Option<ast::RewardRef>, span: Span) -> Result<usize> {
        if self.rewards.is_empty() {
            let span = match reference {
                Some(ast::RewardRef::Name(n)) => n.span,
                Some(ast::RewardRef::Index(_, s)) => *s,
                None => span,
            };
            return Err(Error::new(
                span,
                "the model has no reward structure: a reward query needs one \
                 (`rewards \"name\" ... endrewards`)",
            ));
        }
        match reference {
            None => Ok(0),
            Some(ast::RewardRef::Name(n)) => {
                if let Some(i) = self
                    .rewards
                    .iter()
                    .position(|r| r.as_deref() == Some(n.name.as_str()))
                {
                    return Ok(i);
                }
                let names: Vec<String> = self
                    .rewards
                    .iter()
                    .enumerate()
                    .map(|(i, r)| match r {
                        Some(name) => format!("\"{name}\""),
                        None => format!("#{} (unnamed)", i + 1),
                    })
                    .collect();
                let mut message = format!(
                    "no reward structure \"{}\": the model has {}",
                    n.name,
                    expr::list(&names)
                );
                let named = self.rewards.iter().filter_map(|r| r.as_deref());
                if let Some(close) = expr::suggest(&n.name, named) {
                    message.push_str(&format!("; did you mean \"{close}\"?"));
                }
                Err(Error::new(n.span, message))
            }
            Some(ast::RewardRef::Index(i, s)) => {
                let count = self.rewards.len();
                match usize::try_from(*i) {
                    Ok(k) if (1..=count).contains(&k) => Ok(k - 1),
                    _ => Err(Error::new(
                        *s,
                        format!("no reward structure {i}: the model has {count}, numbered from 1"),
                    )),
                }
            }
        }
    }
}
