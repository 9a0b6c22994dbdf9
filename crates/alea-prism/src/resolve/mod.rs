//! Resolution: the syntax tree of a model becomes a [`Program`]. Constants are evaluated
//! (in the order of their dependencies, whatever the order of declaration), formulas are
//! substituted where they are used, renamed modules are expanded into modules of their
//! own, every name is bound to a variable or a value, every expression is typed, and the
//! constant parts of expressions are folded into values. Properties resolve in a
//! [`Scope`] built on the program.
//!
//! Choices where PRISM leaves room:
//! - A renamed module `module B = A [x=y, f=g, a=b]` renames every name of `A`'s text,
//!   and of the formulas that text uses: a formula is expanded first and the renaming
//!   applies to what it expands to. A formula named in the renaming is replaced by the
//!   new formula, whose body is renamed the same way. The names that may be renamed are
//!   the model's variables, constants, formulas and actions; each variable of `A` must be.
//! - A command may change the variables of its own module; a global variable only in a
//!   command without an action (`[]`), so that no synchronisation can change it from two
//!   modules at once.
//! - Variables, constants and formulas share one namespace; modules, labels, actions and
//!   reward structures each have their own.

mod expr;
mod order;
mod scope;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ast;
use crate::error::{Error, Result, Span};
use crate::eval;
use crate::program::{
    Command, Ex, ExKind, Module, Players, Program, Real, RewardItem, Rewards, Ty, Update, Value,
    Var,
};
use alea_core::Exact;
use expr::{Allow, ConstInfo, ConstSource, Ctx, Env, LabelBody, Renaming, Sym, VarInfo, Want};

pub use expr::{MAX_DEPTH, MAX_NODES};
pub use scope::Scope;

/// Resolves `model`, with `given` the values of constants from the command line. A
/// given constant must be declared in the model without a value; a constant declared
/// without one must be given.
pub fn resolve(model: &ast::Model, given: &[(String, ast::Expr)]) -> Result<Program> {
    resolve_with(model, given, false)
}

/// [`resolve`], with the decisions on reals (comparisons, `floor`, `ceil`) made on
/// exact rationals when `exact` ([`ExKind::Exactly`]): constants, guards, updates and
/// rewards then read as PRISM's exact mode reads them.
pub fn resolve_with(
    model: &ast::Model,
    given: &[(String, ast::Expr)],
    exact: bool,
) -> Result<Program> {
    let modules = instances(model)?;
    let mut env = Env {
        exact,
        ..Env::default()
    };
    let vars = declare(model, &modules, &mut env)?;
    check_renamed_names(model, &modules, &env)?;
    for label in &model.labels {
        env.declare_label(
            &label.name.name,
            label.name.span,
            LabelBody::Source(label.expr.clone()),
        )?;
    }
    attach_given(&mut env, given, "in the model")?;
    missing_values(&env)?;
    evaluate_constants(&mut env)?;
    for f in &model.formulas {
        let purpose = format!("formula `{}`", f.name.name);
        env.resolve(&f.expr, Ctx::new(Allow::Labels, &purpose))?;
    }
    let variables = variables(model, &modules, &vars, &env)?;
    let mut actions = Actions::default();
    let mut program_modules = Vec::with_capacity(modules.len());
    let names: Vec<&str> = modules.iter().map(|m| m.name.name.as_str()).collect();
    for (i, m) in modules.iter().enumerate() {
        program_modules.push(module(i, m, &env, &names, &mut actions).map_err(|e| m.note(e))?);
    }
    let init = match &model.init {
        Some(e) => Some(env.resolve_as(
            e,
            Ctx::new(Allow::State, "`init ... endinit`"),
            Want::Bool,
            "`init ... endinit`",
        )?),
        None => None,
    };
    let mut labels = Vec::with_capacity(model.labels.len());
    for label in &model.labels {
        let what = format!("label \"{}\"", label.name.name);
        let ex = env.resolve_as(
            &label.expr,
            Ctx::new(Allow::Labels, &what),
            Want::Bool,
            &what,
        )?;
        labels.push((label.name.name.clone(), ex));
    }
    let rewards = rewards(model, &env, &actions)?;
    let players = players(model, &program_modules, &actions)?;
    let constants = env
        .consts
        .iter()
        .filter_map(|c| Some((c.name.clone(), c.value.clone()?)))
        .collect();
    Ok(Program {
        kind: model.kind,
        variables,
        init,
        modules: program_modules,
        actions: actions.names,
        labels,
        rewards,
        constants,
        exact,
        players,
    })
}

/// The `player` blocks of an `smg`: every module with unlabelled commands and every
/// action of a command belongs to at most one player.
fn players(model: &ast::Model, resolved: &[Module], actions: &Actions) -> Result<Players> {
    if model.kind != ast::ModelType::Smg {
        return match model.players.first() {
            Some(p) => Err(Error::new(
                p.span,
                "`player ... endplayer` belongs to a game: the model type must be `smg`",
            )),
            None => Ok(Players::default()),
        };
    }
    if model.players.is_empty() {
        return Err(Error::new(
            model.kind_span,
            "an `smg` needs its players: `player NAME module, [action], ... endplayer`",
        ));
    }
    let mut players = Players {
        names: Vec::new(),
        of_module: vec![None; resolved.len()],
        of_action: vec![None; actions.names.len()],
    };
    let module_names: Vec<&str> = resolved.iter().map(|m| m.name.as_str()).collect();
    for (i, p) in model.players.iter().enumerate() {
        if let Some(j) = players.names.iter().position(|n| *n == p.name.name) {
            return Err(Error::new(
                p.name.span,
                format!(
                    "player `{}` is declared twice (player {} first)",
                    p.name.name,
                    j + 1
                ),
            ));
        }
        players.names.push(p.name.name.clone());
        let who = i as u32;
        for m in &p.modules {
            let Some(k) = module_names.iter().position(|n| *n == m.name) else {
                return Err(Error::new(
                    m.span,
                    format!(
                        "unknown module `{}`{}",
                        m.name,
                        expr::did_you_mean(expr::suggest(&m.name, module_names.iter().copied()))
                    ),
                ));
            };
            if let Some(other) = players.of_module[k] {
                return Err(Error::new(
                    m.span,
                    format!(
                        "module `{}` belongs to player `{}` already",
                        m.name, players.names[other as usize]
                    ),
                ));
            }
            players.of_module[k] = Some(who);
        }
        for a in &p.actions {
            let Some(&k) = actions.index.get(&a.name) else {
                return Err(Error::new(
                    a.span,
                    format!(
                        "unknown action `{}`: no command has it{}",
                        a.name,
                        expr::did_you_mean(expr::suggest(
                            &a.name,
                            actions.names.iter().map(String::as_str)
                        ))
                    ),
                ));
            };
            if let Some(other) = players.of_action[k as usize] {
                return Err(Error::new(
                    a.span,
                    format!(
                        "action `{}` belongs to player `{}` already",
                        a.name, players.names[other as usize]
                    ),
                ));
            }
            players.of_action[k as usize] = Some(who);
        }
    }
    // An action, or a module's commands without one, may belong to no player, as in
    // PRISM-games: such a choice is taken by the player whose turn the state is (see
    // the exploration), and is an error only in a state with two or more choices of
    // which none is a player's.
    Ok(players)
}

/// The share of `given` that belongs to the model, for [`resolve`]: a command line gives
/// constants of the model and of the property files alike. An error for a name that is
/// a constant of none of them.
pub fn split_given(
    model: &ast::Model,
    props: &[&ast::PropertyFile],
    given: &[(String, ast::Expr)],
) -> Result<Vec<(String, ast::Expr)>> {
    let in_model = |n: &str| model.constants.iter().any(|c| c.name.name == n);
    let in_props = |n: &str| {
        props
            .iter()
            .any(|p| p.constants.iter().any(|c| c.name.name == n))
    };
    let mut mine = Vec::new();
    for (name, e) in given {
        if in_model(name) {
            mine.push((name.clone(), e.clone()));
        } else if !in_props(name) {
            return Err(no_such_constant(
                name,
                model
                    .constants
                    .iter()
                    .chain(props.iter().flat_map(|p| &p.constants)),
                "in the model or the properties",
            ));
        }
    }
    Ok(mine)
}

fn no_such_constant<'c>(
    name: &str,
    constants: impl Iterator<Item = &'c ast::Constant>,
    place: &str,
) -> Error {
    let names: Vec<&str> = constants.map(|c| c.name.name.as_str()).collect();
    let mut message = format!("no constant `{name}` {place}");
    message.push_str(&expr::did_you_mean(expr::suggest(
        name,
        names.iter().copied(),
    )));
    // Not a place in any file: the command line gave it.
    Error::new(Span::default(), message)
}

/// A module as it is expanded: its own text, or the text of the module it copies with a
/// renaming.
struct Instance<'m> {
    name: &'m ast::Ident,
    span: Span,
    variables: &'m [ast::Variable],
    commands: &'m [ast::Command],
    /// `None` for a module as written.
    renaming: Option<Renaming>,
    /// The new names of a copy's variables and where the renaming gives them, in the
    /// order of the copied module's variables.
    new_names: Vec<(String, Span)>,
}

impl Instance<'_> {
    fn ctx<'a>(&'a self, allow: Allow, purpose: &'a str) -> Ctx<'a> {
        Ctx::new(allow, purpose).renamed(self.renaming.as_ref())
    }

    fn rename<'a>(&'a self, name: &'a str) -> &'a str {
        self.renaming.as_ref().map_or(name, |r| r.apply(name))
    }

    /// An error in a copy's text points at the original: say which copy it was.
    fn note(&self, e: Error) -> Error {
        match &self.renaming {
            // Said even after a formula's place: the text is the original module's.
            Some(r) => Error::new(
                e.span,
                format!(
                    "{} (in module `{}`, a renamed copy of `{}`)",
                    e.message, r.module, r.base
                ),
            ),
            None => e,
        }
    }
}

/// A renaming as written: old name to new name, with the spans of both.
type OwnRenaming = FxHashMap<String, (String, Span)>;

fn module_ident(m: &ast::Module) -> &ast::Ident {
    match m {
        ast::Module::Defined { name, .. } | ast::Module::Renamed { name, .. } => name,
    }
}

/// Every module expanded: renamed copies get the text of the module they copy (through
/// chains of copies) and the composed renaming.
fn instances(model: &ast::Model) -> Result<Vec<Instance<'_>>> {
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    for (i, m) in model.modules.iter().enumerate() {
        let name = module_ident(m);
        if index.insert(&name.name, i).is_some() {
            return Err(Error::new(
                name.span,
                format!("module `{}` is already declared", name.name),
            ));
        }
    }
    let mut own: Vec<OwnRenaming> = Vec::with_capacity(model.modules.len());
    for m in &model.modules {
        let mut map = OwnRenaming::default();
        if let ast::Module::Renamed { renames, .. } = m {
            for (old, new) in renames {
                if map
                    .insert(old.name.clone(), (new.name.clone(), new.span))
                    .is_some()
                {
                    return Err(Error::new(
                        old.span,
                        format!("`{}` is renamed twice", old.name),
                    ));
                }
            }
        }
        own.push(map);
    }
    let mut out = Vec::with_capacity(model.modules.len());
    for (i, m) in model.modules.iter().enumerate() {
        let instance = match m {
            ast::Module::Defined {
                name,
                variables,
                commands,
                span,
            } => Instance {
                name,
                span: *span,
                variables,
                commands,
                renaming: None,
                new_names: Vec::new(),
            },
            ast::Module::Renamed {
                name, base, span, ..
            } => {
                // Follow the chain of copies down to a module as written.
                let mut chain = vec![i];
                let mut at = base;
                let original = loop {
                    let Some(&j) = index.get(at.name.as_str()) else {
                        let names: Vec<String> = model
                            .modules
                            .iter()
                            .map(|m| format!("`{}`", module_ident(m).name))
                            .collect();
                        return Err(Error::new(
                            at.span,
                            format!(
                                "unknown module `{}`: the modules are {}",
                                at.name,
                                expr::list(&names)
                            ),
                        ));
                    };
                    if chain.contains(&j) {
                        let mut names: Vec<String> = chain
                            .iter()
                            .map(|&k| format!("`{}`", module_ident(&model.modules[k]).name))
                            .collect();
                        names.push(format!("`{}`", module_ident(&model.modules[j]).name));
                        return Err(Error::new(
                            base.span,
                            format!(
                                "module `{}` is a renamed copy of itself: {}",
                                name.name,
                                names.join(" -> ")
                            ),
                        ));
                    }
                    match &model.modules[j] {
                        ast::Module::Defined { .. } => break j,
                        ast::Module::Renamed { base, .. } => {
                            chain.push(j);
                            at = base;
                        }
                    }
                };
                let ast::Module::Defined {
                    name: original_name,
                    variables,
                    commands,
                    ..
                } = &model.modules[original]
                else {
                    // The loop above ends only at a module as written.
                    return Err(Error::new(base.span, "a renamed module must copy a module"));
                };
                // Compose the renamings from the original up: a name of the original
                // goes through each copy's renaming in turn.
                let mut composed: FxHashMap<String, String> = FxHashMap::default();
                for &k in chain.iter().rev() {
                    let step = &own[k];
                    if k == i {
                        // Each variable of the module copied must get a new name.
                        for v in variables.iter() {
                            let current = composed.get(&v.name.name).unwrap_or(&v.name.name);
                            if !step.contains_key(current) {
                                return Err(Error::new(
                                    name.span,
                                    format!(
                                        "module `{}` must rename `{current}`, a variable of \
                                         `{}`: each variable of the copied module needs a \
                                         new name, as in `{current}={current}_{}`",
                                        name.name, base.name, name.name
                                    ),
                                ));
                            }
                        }
                    }
                    let mut next: FxHashMap<String, String> = FxHashMap::default();
                    for (old, mid) in &composed {
                        let new = step.get(mid).map_or(mid, |(n, _)| n);
                        next.insert(old.clone(), new.clone());
                    }
                    for (old, (new, _)) in step {
                        if !composed.contains_key(old) {
                            next.insert(old.clone(), new.clone());
                        }
                    }
                    composed = next;
                }
                // The last step renamed every variable: its spans say where.
                let mut new_names = Vec::with_capacity(variables.len());
                for v in variables.iter() {
                    let new = composed.get(&v.name.name).cloned().unwrap_or_default();
                    let span = own[i]
                        .values()
                        .find(|(n, _)| *n == new)
                        .map_or(name.span, |(_, s)| *s);
                    new_names.push((new, span));
                }
                Instance {
                    name,
                    span: *span,
                    variables,
                    commands,
                    renaming: Some(Renaming {
                        map: composed,
                        module: name.name.clone(),
                        base: original_name.name.clone(),
                    }),
                    new_names,
                }
            }
        };
        out.push(instance);
    }
    Ok(out)
}

/// A variable declaration, as expanded.
struct VarDecl<'m> {
    name: String,
    span: Span,
    decl: &'m ast::Variable,
    /// The module (instance) that owns it; `None` for a global.
    module: Option<usize>,
}

/// Declares constants, variables and formulas; an error for a name declared twice.
fn declare<'m>(
    model: &'m ast::Model,
    modules: &[Instance<'m>],
    env: &mut Env,
) -> Result<Vec<VarDecl<'m>>> {
    let mut vars: Vec<VarDecl> = model
        .globals
        .iter()
        .map(|v| VarDecl {
            name: v.name.name.clone(),
            span: v.name.span,
            decl: v,
            module: None,
        })
        .collect();
    for (i, m) in modules.iter().enumerate() {
        for (k, v) in m.variables.iter().enumerate() {
            let (name, span) = match &m.renaming {
                Some(_) => m.new_names[k].clone(),
                None => (v.name.name.clone(), v.name.span),
            };
            vars.push(VarDecl {
                name,
                span,
                decl: v,
                module: Some(i),
            });
        }
    }
    // Declared in the order of the text, so that the second of two is the one reported.
    let mut decls: Vec<(Span, &str, Sym, String)> = Vec::new();
    for (i, c) in model.constants.iter().enumerate() {
        decls.push((
            c.name.span,
            &c.name.name,
            Sym::Const(i),
            "a constant".into(),
        ));
    }
    for (i, f) in model.formulas.iter().enumerate() {
        decls.push((
            f.name.span,
            &f.name.name,
            Sym::Formula(i),
            "a formula".into(),
        ));
    }
    for (i, v) in vars.iter().enumerate() {
        let kind = match v.module {
            None => "a global variable".to_string(),
            Some(m) => format!("a variable of module `{}`", modules[m].name.name),
        };
        let index = u32::try_from(i).map_err(|_| Error::new(v.span, "too many variables"))?;
        decls.push((v.span, &v.name, Sym::Var(index), kind));
    }
    decls.sort_by_key(|d| d.0.start);
    for (span, name, sym, kind) in decls {
        env.declare(name, span, sym, kind)?;
    }
    env.consts = model
        .constants
        .iter()
        .map(|c| ConstInfo {
            name: c.name.name.clone(),
            ty: c.ty,
            value: None,
            span: c.name.span,
            source: c
                .value
                .clone()
                .map(|expr| ConstSource { expr, given: false }),
            lacks: None,
        })
        .collect();
    env.formulas = model.formulas.clone();
    env.vars = vars
        .iter()
        .map(|v| VarInfo {
            name: v.name.clone(),
            is_bool: matches!(v.decl.ty, ast::VarType::Bool),
            module: v.module,
        })
        .collect();
    Ok(vars)
}

/// The old names of a renaming must be names of the model: a misspelt one would
/// otherwise rename nothing, silently.
fn check_renamed_names(model: &ast::Model, modules: &[Instance], env: &Env) -> Result<()> {
    let mut actions: FxHashSet<&str> = FxHashSet::default();
    for m in &model.modules {
        match m {
            ast::Module::Defined { commands, .. } => {
                actions.extend(
                    commands
                        .iter()
                        .filter_map(|c| Some(c.action.as_ref()?.name.as_str())),
                );
            }
            ast::Module::Renamed { renames, .. } => {
                actions.extend(renames.iter().map(|(_, new)| new.name.as_str()));
            }
        }
    }
    for (m, instance) in model.modules.iter().zip(modules) {
        let ast::Module::Renamed { renames, .. } = m else {
            continue;
        };
        for (old, _) in renames {
            if !env.idents.contains_key(&old.name) && !actions.contains(old.name.as_str()) {
                return Err(Error::new(
                    old.span,
                    format!(
                        "`{}` is not a variable, constant, formula or action of the model: \
                         module `{}` cannot rename it",
                        old.name, instance.name.name
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Gives the constants of `env` the values of `given`; an error for a name that is not
/// a constant of `env` (said to be `place`).
fn attach_given(env: &mut Env, given: &[(String, ast::Expr)], place: &str) -> Result<()> {
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    for (name, e) in given {
        if !seen.insert(name) {
            return Err(Error::new(
                Span::default(),
                format!("constant `{name}` is given twice"),
            ));
        }
        let Some(&Sym::Const(i)) = env.idents.get(name) else {
            let names: Vec<&str> = env.consts.iter().map(|c| c.name.as_str()).collect();
            let mut message = format!("no constant `{name}` {place}");
            message.push_str(&expr::did_you_mean(expr::suggest(name, names.into_iter())));
            return Err(Error::new(Span::default(), message));
        };
        attach_one(env, i, e)?;
    }
    Ok(())
}

fn attach_one(env: &mut Env, i: usize, e: &ast::Expr) -> Result<()> {
    let c = &mut env.consts[i];
    if c.source.is_some() || c.value.is_some() {
        return Err(Error::new(
            c.span,
            format!(
                "constant `{}` already has a value here, so it cannot be given one on the \
                 command line",
                c.name
            ),
        ));
    }
    c.source = Some(ConstSource {
        expr: e.clone(),
        given: true,
    });
    Ok(())
}

fn missing_values(env: &Env) -> Result<()> {
    match env
        .consts
        .iter()
        .find(|c| c.source.is_none() && c.value.is_none())
    {
        Some(c) => Err(Error::new(
            c.span,
            format!(
                "constant `{0}` has no value; give it with --const {0}=...",
                c.name
            ),
        )),
        None => Ok(()),
    }
}

/// Evaluates the constants that have a source, each after those it uses.
fn evaluate_constants(env: &mut Env) -> Result<()> {
    let (order, lacks) = order::constant_order(env)?;
    for (i, lack) in lacks.into_iter().enumerate() {
        env.consts[i].lacks = lack.map(|j| env.consts[j].name.clone());
    }
    for i in order {
        if env.consts[i].lacks.is_some() {
            continue;
        }
        let Some(source) = env.consts[i].source.take() else {
            continue;
        };
        let (name, ty, decl_span) = {
            let c = &env.consts[i];
            (c.name.clone(), c.ty, c.span)
        };
        let given = source.given;
        // An error inside a value from the command line cannot point into a file.
        let wrap = |e: Error| {
            if given {
                Error::new(
                    Span::default(),
                    format!("the value given to `{name}`: {}", e.message),
                )
            } else {
                e
            }
        };
        let purpose = format!("the value of constant `{name}`");
        let ex = env
            .resolve(&source.expr, Ctx::new(Allow::Constants, &purpose))
            .map_err(wrap)?;
        let value = eval::eval(&ex, &[]).map_err(|e| wrap(e.into()))?;
        let value = match (ty, value) {
            (ast::Type::Double, Value::Int(n)) => Value::Real(Real {
                approx: n as f64,
                exact: Some(Exact::from_integer(n.into())),
            }),
            (ast::Type::Int, v @ Value::Int(_))
            | (ast::Type::Double, v @ Value::Real(_))
            | (ast::Type::Bool, v @ Value::Bool(_)) => v,
            (_, v) => {
                let declared = match ty {
                    ast::Type::Int => "an int",
                    ast::Type::Double => "a double",
                    ast::Type::Bool => "a bool",
                };
                let found = match v {
                    Value::Int(_) => "an int",
                    Value::Real(_) => "a double",
                    Value::Bool(_) => "a bool",
                };
                let (span, message) = if given {
                    (
                        decl_span,
                        format!(
                            "constant `{name}` is declared {declared}, and the value given \
                             to it is {found}"
                        ),
                    )
                } else {
                    (
                        source.expr.span,
                        format!("constant `{name}` is {declared}, its value is {found}"),
                    )
                };
                return Err(Error::new(span, message));
            }
        };
        env.consts[i].value = Some(value);
    }
    Ok(())
}

/// The value of a constant int expression: a range bound or an initial value.
fn constant_int(env: &Env, e: &ast::Expr, ctx: Ctx, what: &str) -> Result<i64> {
    let ex = env.resolve_as(e, ctx, Want::Int, what)?;
    Ok(eval::eval_int(&ex, &[])?)
}

fn variables(
    model: &ast::Model,
    modules: &[Instance],
    vars: &[VarDecl],
    env: &Env,
) -> Result<Vec<Var>> {
    let mut out = Vec::with_capacity(vars.len());
    for v in vars {
        let instance = v.module.map(|m| &modules[m]);
        let result = variable(model, v, instance, env);
        out.push(match instance {
            Some(m) => result.map_err(|e| m.note(e))?,
            None => result?,
        });
    }
    Ok(out)
}

fn variable(
    model: &ast::Model,
    v: &VarDecl,
    instance: Option<&Instance>,
    env: &Env,
) -> Result<Var> {
    let name = &v.name;
    let ctx = |purpose| match instance {
        Some(m) => m.ctx(Allow::Constants, purpose),
        None => Ctx::new(Allow::Constants, purpose),
    };
    let range = format!("the range of `{name}`");
    let (low, high, is_bool) = match &v.decl.ty {
        ast::VarType::Bool => (0, 1, true),
        ast::VarType::Range(lo, hi) => {
            let low = constant_int(
                env,
                lo,
                ctx(&range),
                &format!("the lower bound of `{name}`"),
            )?;
            let high = constant_int(
                env,
                hi,
                ctx(&range),
                &format!("the upper bound of `{name}`"),
            )?;
            if low > high {
                return Err(Error::new(
                    v.decl.span,
                    format!("the range of `{name}` is empty: {low} > {high}"),
                ));
            }
            (low, high, false)
        }
    };
    let init = match &v.decl.init {
        Some(e) if model.init.is_some() => {
            return Err(Error::new(
                e.span,
                format!(
                    "`{name}` has an initial value, but the model has `init ... endinit`: \
                     with it, no variable may have an initial value of its own"
                ),
            ))
        }
        None => low,
        Some(e) => {
            let purpose = format!("the initial value of `{name}`");
            let ex = env.resolve(e, ctx(&purpose))?;
            let (want, kind) = if is_bool {
                (Ty::Bool, "a bool")
            } else {
                (Ty::Int, "an int")
            };
            if ex.ty != want {
                return Err(Error::new(
                    e.span,
                    format!(
                        "`{name}` is {kind} variable, its initial value is {}",
                        expr::ty_name(ex.ty)
                    ),
                ));
            }
            let init = if is_bool {
                i64::from(eval::eval_bool(&ex, &[])?)
            } else {
                eval::eval_int(&ex, &[])?
            };
            if init < low || init > high {
                return Err(Error::new(
                    e.span,
                    format!(
                        "the initial value {init} of `{name}` is outside its range \
                         [{low}..{high}]"
                    ),
                ));
            }
            init
        }
    };
    Ok(Var {
        name: name.clone(),
        low,
        high,
        init,
        is_bool,
        module: v.module,
        span: v.span,
    })
}

/// The action names, in order of first appearance.
#[derive(Default)]
struct Actions {
    names: Vec<String>,
    index: FxHashMap<String, u32>,
}

impl Actions {
    fn intern(&mut self, name: &str, span: Span) -> Result<u32> {
        if let Some(&i) = self.index.get(name) {
            return Ok(i);
        }
        let i =
            u32::try_from(self.names.len()).map_err(|_| Error::new(span, "too many actions"))?;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        Ok(i)
    }
}

fn module(
    i: usize,
    m: &Instance,
    env: &Env,
    names: &[&str],
    actions: &mut Actions,
) -> Result<Module> {
    let mut commands = Vec::with_capacity(m.commands.len());
    for c in m.commands {
        let action = match &c.action {
            Some(a) => Some(actions.intern(m.rename(&a.name), a.span)?),
            None => None,
        };
        let guard = env.resolve_as(
            &c.guard,
            m.ctx(Allow::State, "a guard"),
            Want::Bool,
            "the guard",
        )?;
        let mut updates = Vec::with_capacity(c.updates.len());
        for u in &c.updates {
            updates.push(update((i, m, names), u, env)?);
        }
        commands.push(Command {
            action,
            guard,
            updates,
            span: c.span,
        });
    }
    let mut alphabet: Vec<u32> = commands.iter().filter_map(|c| c.action).collect();
    alphabet.sort_unstable();
    alphabet.dedup();
    Ok(Module {
        name: m.name.name.clone(),
        commands,
        alphabet,
        span: m.span,
    })
}

/// One update of a command of module `i` (`m`, among modules `names`).
fn update(
    (i, m, names): (usize, &Instance, &[&str]),
    u: &ast::Update,
    env: &Env,
) -> Result<Update> {
    let prob = match &u.prob {
        Some(p) => env.resolve_as(
            p,
            m.ctx(Allow::State, "a probability"),
            Want::Number,
            "the probability of an update",
        )?,
        None => Ex {
            kind: ExKind::Value(Value::Int(1)),
            ty: Ty::Int,
            span: u.span,
        },
    };
    let mut assigns: Vec<(u32, Ex)> = Vec::with_capacity(u.assigns.len());
    for a in &u.assigns {
        let name = m.rename(&a.var.name);
        let index = match env.idents.get(name) {
            Some(&Sym::Var(v)) => v,
            Some(&Sym::Const(_)) | Some(&Sym::Formula(_)) => {
                let kind = if matches!(env.idents.get(name), Some(Sym::Const(_))) {
                    "a constant"
                } else {
                    "a formula"
                };
                return Err(Error::new(
                    a.var.span,
                    format!("`{name}` is {kind}, not a variable: only variables can be updated"),
                ));
            }
            None => {
                let vars = env.vars.iter().map(|v| v.name.as_str());
                let mut message = format!("unknown variable `{name}`");
                message.push_str(&expr::did_you_mean(expr::suggest(name, vars)));
                return Err(Error::new(a.var.span, message));
            }
        };
        let var = &env.vars[index as usize];
        match var.module {
            Some(owner) if owner == i => {}
            // Any command may change a global; two commands of one synchronised step
            // writing the same variable are an error where that step is explored.
            None => {}
            Some(owner) => {
                let owner = names.get(owner).copied().unwrap_or("?");
                return Err(Error::new(
                    a.var.span,
                    format!(
                        "`{name}` belongs to module `{owner}`: a command can only change its \
                         own module's variables and the globals"
                    ),
                ));
            }
        }
        if assigns.iter().any(|(v, _)| *v == index) {
            return Err(Error::new(
                a.var.span,
                format!("`{name}` is updated twice in this update"),
            ));
        }
        let purpose = format!("the new value of `{name}`");
        let value = env.resolve(&a.value, m.ctx(Allow::State, &purpose))?;
        let want = if var.is_bool { Ty::Bool } else { Ty::Int };
        if value.ty != want {
            let kind = if var.is_bool { "a bool" } else { "an int" };
            return Err(Error::new(
                a.value.span,
                format!(
                    "`{name}` is {kind} variable, the expression is {}",
                    expr::ty_name(value.ty)
                ),
            ));
        }
        assigns.push((index, value));
    }
    Ok(Update {
        prob,
        assigns,
        span: u.span,
    })
}

fn rewards(model: &ast::Model, env: &Env, actions: &Actions) -> Result<Vec<Rewards>> {
    let mut out: Vec<Rewards> = Vec::with_capacity(model.rewards.len());
    for r in &model.rewards {
        if let Some(name) = &r.name {
            if out.iter().any(|o| o.name.as_deref() == Some(&name.name)) {
                return Err(Error::new(
                    name.span,
                    format!("reward structure \"{}\" is already declared", name.name),
                ));
            }
        }
        let mut items = Vec::with_capacity(r.items.len());
        for item in &r.items {
            let action = match &item.action {
                None => None,
                Some(None) => Some(None),
                Some(Some(a)) => match actions.index.get(&a.name) {
                    Some(&i) => Some(Some(i)),
                    None => {
                        let names: Vec<String> =
                            actions.names.iter().map(|n| format!("`{n}`")).collect();
                        let mut message = format!(
                            "unknown action `{}`: no command has it (the actions are {})",
                            a.name,
                            expr::list(&names)
                        );
                        message.push_str(&expr::did_you_mean(expr::suggest(
                            &a.name,
                            actions.names.iter().map(String::as_str),
                        )));
                        return Err(Error::new(a.span, message));
                    }
                },
            };
            let guard = env.resolve_as(
                &item.guard,
                Ctx::new(Allow::State, "a reward's guard"),
                Want::Bool,
                "the guard of a reward",
            )?;
            let value = env.resolve_as(
                &item.value,
                Ctx::new(Allow::State, "a reward"),
                Want::Number,
                "a reward",
            )?;
            items.push(RewardItem {
                action,
                guard,
                value,
                span: item.span,
            });
        }
        out.push(Rewards {
            name: r.name.as_ref().map(|n| n.name.clone()),
            items,
            span: r.span,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
