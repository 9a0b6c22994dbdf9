//! Expressions: names bound to variables and to the values of constants, formulas and
//! labels expanded in place, types checked, and the constant parts folded into values.
//!
//! The names an expression may use depend on where it is ([`Allow`]): constants and
//! bounds see only constants (and formulas over them), guards and updates see variables
//! too, and labels and properties see labels as well. Inside a renamed module every name
//! goes through the module's [`Renaming`] first, in the module's own text and in the
//! formulas it uses alike.

use rustc_hash::FxHashMap;

use crate::ast::{self, BinOp, ExprKind, Func, UnOp};
use crate::error::{Error, Result, Span};
use crate::eval::{self, parse_decimal};
use crate::program::{Ex, ExKind, Real, Ty, Value};
use alea_core::Exact;

/// The height a resolved expression may have (a leaf is 1), counting the formulas and
/// labels expanded into it: the parser's bound on written expressions, so that the
/// passes after resolution have one bound to rely on. Expansion could otherwise stack
/// formulas into a tree too tall for the recursive walks.
pub const MAX_DEPTH: usize = crate::parser::MAX_HEIGHT as usize;

/// The most nodes one expression may expand to: formulas that use each other twice
/// would otherwise double at each level.
pub const MAX_NODES: usize = 1 << 20;

/// What a name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sym {
    /// An index into [`crate::program::Program::variables`].
    Var(u32),
    Const(usize),
    Formula(usize),
}

pub(super) struct VarInfo {
    pub name: String,
    pub is_bool: bool,
    /// The owning module; `None` for a global.
    pub module: Option<usize>,
}

pub(super) struct ConstInfo {
    pub name: String,
    pub ty: ast::Type,
    /// Known once evaluated (or from the start for the model's constants in a scope).
    pub value: Option<Value>,
    /// The name in the declaration.
    pub span: Span,
    /// The expression still to evaluate.
    pub source: Option<ConstSource>,
    /// A constant without a value that this one's value needs (itself, when it has no
    /// source at all): a property's constant may stay undefined as long as it is not
    /// used, as in PRISM.
    pub lacks: Option<String>,
}

pub(super) struct ConstSource {
    pub expr: ast::Expr,
    /// Given on the command line: its spans do not point into the model.
    pub given: bool,
}

pub(super) enum LabelBody {
    /// Expanded at each use, like a formula.
    Source(ast::Expr),
    /// Already resolved (the model's labels, seen from a property), with its depth.
    Resolved { ex: Ex, depth: usize },
}

pub(super) struct LabelInfo {
    pub name: String,
    pub span: Span,
    pub body: LabelBody,
}

/// Every name in reach, and what it stands for.
#[derive(Default)]
pub(super) struct Env {
    pub idents: FxHashMap<String, Sym>,
    /// What each name was first declared as, for the message about a second declaration.
    pub kinds: FxHashMap<String, String>,
    pub vars: Vec<VarInfo>,
    pub consts: Vec<ConstInfo>,
    pub formulas: Vec<ast::Formula>,
    pub labels: Vec<LabelInfo>,
    pub label_index: FxHashMap<String, usize>,
    /// Whether decisions on reals are made exactly ([`ExKind::Exactly`]).
    pub exact: bool,
}

/// The renaming of a module copied from another: `module B = A [x=y, a=b]`.
#[derive(Clone, Debug, Default)]
pub(super) struct Renaming {
    /// Old name to new name, for identifiers and actions alike.
    pub map: FxHashMap<String, String>,
    /// The copy.
    pub module: String,
    /// The module whose text is copied (the first of a chain of copies).
    pub base: String,
}

impl Renaming {
    pub fn apply<'a>(&'a self, name: &'a str) -> &'a str {
        self.map.get(name).map_or(name, String::as_str)
    }
}

/// Which names an expression may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Allow {
    /// Constants and formulas over them.
    Constants,
    /// Variables too.
    State,
    /// Labels too.
    Labels,
}

/// Where an expression is, for what it may use and for messages.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'a> {
    pub allow: Allow,
    /// What must be constant, for the message when a variable is used: "the value of
    /// constant `N`", "the range of `x`".
    pub purpose: &'a str,
    pub rename: Option<&'a Renaming>,
}

impl<'a> Ctx<'a> {
    pub fn new(allow: Allow, purpose: &'a str) -> Ctx<'a> {
        Ctx {
            allow,
            purpose,
            rename: None,
        }
    }

    pub fn renamed(self, rename: Option<&'a Renaming>) -> Ctx<'a> {
        Ctx { rename, ..self }
    }
}

/// The type an expression must have where it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Want {
    Bool,
    Int,
    Number,
}

pub(super) fn ty_name(ty: Ty) -> &'static str {
    match ty {
        Ty::Int => "an int",
        Ty::Real => "a double",
        Ty::Bool => "a bool",
    }
}

/// Checks the type of a resolved expression: "`what` must be a bool expression, this is
/// an int".
pub(super) fn expect(ex: &Ex, want: Want, what: &str) -> Result<()> {
    let ok = match want {
        Want::Bool => ex.ty == Ty::Bool,
        Want::Int => ex.ty == Ty::Int,
        Want::Number => ex.ty != Ty::Bool,
    };
    if ok {
        return Ok(());
    }
    let wanted = match want {
        Want::Bool => "a bool expression",
        Want::Int => "an int expression",
        Want::Number => "a number",
    };
    Err(Error::new(
        ex.span,
        format!("{what} must be {wanted}, this is {}", ty_name(ex.ty)),
    ))
}

/// Appends where an error happened (" (in formula `f`)"), once: the innermost place is
/// the one that helps.
pub(super) fn within(mut e: Error, place: &str) -> Error {
    if !e.message.contains(" (in ") {
        e.message = format!("{} (in {place})", e.message);
    }
    e
}

impl Env {
    /// Declares an identifier; an error at `span` if the name is taken.
    pub fn declare(&mut self, name: &str, span: Span, sym: Sym, kind: String) -> Result<()> {
        if let Some(first) = self.kinds.get(name) {
            return Err(Error::new(
                span,
                format!(
                    "`{name}` is already declared as {first}: variables, constants and \
                     formulas need names of their own"
                ),
            ));
        }
        self.idents.insert(name.to_string(), sym);
        self.kinds.insert(name.to_string(), kind);
        Ok(())
    }

    /// Declares a label; an error for `"init"`, `"deadlock"` and names taken.
    pub fn declare_label(&mut self, name: &str, span: Span, body: LabelBody) -> Result<()> {
        if name == "init" || name == "deadlock" {
            return Err(Error::new(
                span,
                format!("\"{name}\" is a built-in label: a label of your own needs another name"),
            ));
        }
        if self.label_index.contains_key(name) {
            return Err(Error::new(
                span,
                format!("label \"{name}\" is already declared"),
            ));
        }
        self.label_index.insert(name.to_string(), self.labels.len());
        self.labels.push(LabelInfo {
            name: name.to_string(),
            span,
            body,
        });
        Ok(())
    }

    /// Resolves `e` where `ctx` says.
    pub fn resolve(&self, e: &ast::Expr, ctx: Ctx) -> Result<Ex> {
        Resolver {
            env: self,
            ctx,
            expanding: Vec::new(),
            depth: 0,
            nodes: 0,
        }
        .expr(e)
    }

    /// Resolves `e` and checks its type (see [`expect`]).
    pub fn resolve_as(&self, e: &ast::Expr, ctx: Ctx, want: Want, what: &str) -> Result<Ex> {
        let ex = self.resolve(e, ctx)?;
        expect(&ex, want, what)?;
        Ok(ex)
    }
}

/// A formula or label being expanded: seeing it again inside itself is a cycle.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expansion {
    Formula(usize),
    Label(usize),
}

struct Resolver<'a> {
    env: &'a Env,
    ctx: Ctx<'a>,
    expanding: Vec<Expansion>,
    depth: usize,
    nodes: usize,
}

fn value(v: Value, span: Span) -> Ex {
    let ty = match v {
        Value::Int(_) => Ty::Int,
        Value::Real(_) => Ty::Real,
        Value::Bool(_) => Ty::Bool,
    };
    Ex {
        kind: ExKind::Value(v),
        ty,
        span,
    }
}

fn numeric_ty(a: Ty, b: Ty) -> Ty {
    if a == Ty::Int && b == Ty::Int {
        Ty::Int
    } else {
        Ty::Real
    }
}

fn is_value(ex: &Ex) -> bool {
    matches!(ex.kind, ExKind::Value(_))
}

/// Replaces an operation on values by its value. An evaluation error leaves the
/// operation in place, to be reported if it is ever evaluated (a guard that is never
/// reached may divide by zero); so does a double without an exact value, so that exact
/// evaluation can say where it came from.
#[inline(never)]
fn fold(ex: Ex) -> Ex {
    let constant = match &ex.kind {
        ExKind::Unary(_, a) => is_value(a),
        ExKind::Binary(_, a, b) => is_value(a) && is_value(b),
        ExKind::Ite(c, a, b) => {
            if let ExKind::Value(Value::Bool(c)) = c.kind {
                let chosen = if c { a } else { b };
                // A branch of another type (an int in a double `? :`) stays wrapped.
                if chosen.ty == ex.ty {
                    let mut chosen = (**chosen).clone();
                    chosen.span = ex.span;
                    return chosen;
                }
            }
            is_value(c) && is_value(a) && is_value(b)
        }
        ExKind::Call(_, args) => args.iter().all(is_value),
        ExKind::Exactly(a) => match &a.kind {
            ExKind::Binary(_, x, y) => is_value(x) && is_value(y),
            ExKind::Call(_, args) => args.iter().all(is_value),
            _ => false,
        },
        _ => false,
    };
    if !constant {
        return ex;
    }
    match eval::eval(&ex, &[]) {
        Ok(Value::Real(Real { exact: None, .. })) | Err(_) => ex,
        Ok(v) => Ex {
            kind: ExKind::Value(v),
            ..ex
        },
    }
}

/// The edit distance of two short names, for suggestions.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// `; did you mean `x`?` for a close name, if any (see [`suggest`]); empty otherwise.
pub(super) fn did_you_mean(close: Option<&str>) -> String {
    close.map_or_else(String::new, |c| format!("; did you mean `{c}`?"))
}

/// The closest of `candidates` to `name`, when close enough to be a likely typo.
pub(super) fn suggest<'c>(
    name: &str,
    candidates: impl Iterator<Item = &'c str>,
) -> Option<&'c str> {
    let length = name.chars().count();
    // About one typo in three letters; a one-letter name is close to every other one.
    let limit = (length / 3).clamp(1, 3);
    candidates
        .filter(|c| *c != name)
        .map(|c| (distance(name, c), c))
        .filter(|&(d, _)| d <= limit && d < length)
        .min()
        .map(|(_, c)| c)
}

/// `"a", "b" and "c"`
pub(super) fn list(items: &[String]) -> String {
    match items {
        [] => "none".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl Resolver<'_> {
    // The recursion runs through `expr`, `name` and `label` only; typing, folding and
    // messages are in functions of their own that are never inlined, so that each level
    // of a tall expression costs little stack.

    fn expr(&mut self, e: &ast::Expr) -> Result<Ex> {
        if self.depth >= MAX_DEPTH {
            return Err(too_deep(e.span));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(too_large(e.span));
        }
        self.depth += 1;
        let result = self.node(e);
        self.depth -= 1;
        result
    }

    fn node(&mut self, e: &ast::Expr) -> Result<Ex> {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Real(..) | ExprKind::Bool(_) => Ok(literal(e)),
            ExprKind::Name(n) => self.name(n, span),
            ExprKind::Label(l) => self.label(l, span),
            // The checker evaluates operators before it resolves what is left; one met
            // here is inside a declaration, a bound or a filter's plan.
            ExprKind::Operator(_) => Err(Error::new(
                span,
                format!("an operator cannot be part of {}", self.ctx.purpose),
            )),
            ExprKind::Unary(op, a) => {
                let a = self.expr(a)?;
                unary(*op, a, span)
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                binary(*op, a, b, span, self.env.exact)
            }
            ExprKind::Ite(c, a, b) => {
                let c = self.expr(c)?;
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                ite(c, a, b, span)
            }
            ExprKind::Call(f, args) => {
                arity(*f, args.len(), span)?;
                let mut resolved = Vec::with_capacity(args.len());
                for a in args {
                    resolved.push(self.expr(a)?);
                }
                call(*f, resolved, span, self.env.exact)
            }
        }
    }

    /// Enters a formula or label; an error if it is already being expanded.
    #[inline(never)]
    fn enter(&mut self, item: Expansion, span: Span) -> Result<()> {
        if let Some(at) = self.expanding.iter().position(|&x| x == item) {
            let show = |x: &Expansion| match *x {
                Expansion::Formula(i) => format!("`{}`", self.env.formulas[i].name.name),
                Expansion::Label(i) => format!("\"{}\"", self.env.labels[i].name),
            };
            let mut chain: Vec<String> = self.expanding[at..].iter().map(show).collect();
            chain.push(show(&item));
            let what = match item {
                Expansion::Formula(_) => "formula",
                Expansion::Label(_) => "label",
            };
            return Err(Error::new(
                span,
                format!(
                    "{what} {} is defined in terms of itself: {}",
                    show(&item),
                    chain.join(" -> ")
                ),
            ));
        }
        self.expanding.push(item);
        Ok(())
    }

    fn name(&mut self, written: &str, span: Span) -> Result<Ex> {
        let name = self.ctx.rename.map_or(written, |r| r.apply(written));
        match self.env.idents.get(name) {
            Some(&Sym::Formula(i)) => {
                self.enter(Expansion::Formula(i), span)?;
                let env = self.env;
                let result = self.expr(&env.formulas[i].expr);
                self.expanding.pop();
                self.expanded(result, Expansion::Formula(i), span)
            }
            _ => self.plain_name(written, span),
        }
    }

    /// The end of an expansion: an error says where it was, the value takes the span of
    /// the use (where the value comes from, for messages about it).
    #[inline(never)]
    fn expanded(&self, result: Result<Ex>, item: Expansion, span: Span) -> Result<Ex> {
        let mut ex = match item {
            Expansion::Formula(i) => {
                let name = &self.env.formulas[i].name.name;
                result.map_err(|e| within(e, &format!("formula `{name}`")))?
            }
            Expansion::Label(i) => {
                let what = format!("label \"{}\"", self.env.labels[i].name);
                let ex = result.map_err(|e| within(e, &what))?;
                expect(&ex, Want::Bool, &what)?;
                ex
            }
        };
        ex.span = span;
        Ok(ex)
    }

    /// A name that is not a formula: a variable, a constant, or unknown.
    #[inline(never)]
    fn plain_name(&self, written: &str, span: Span) -> Result<Ex> {
        let name = self.ctx.rename.map_or(written, |r| r.apply(written));
        match self.env.idents.get(name).copied() {
            Some(Sym::Var(i)) => {
                if self.ctx.allow == Allow::Constants {
                    return Err(Error::new(
                        span,
                        format!(
                            "`{name}` is a variable, but {} must be constant",
                            self.ctx.purpose
                        ),
                    ));
                }
                let is_bool = self.env.vars.get(i as usize).is_some_and(|v| v.is_bool);
                Ok(Ex {
                    kind: ExKind::Var(i),
                    ty: if is_bool { Ty::Bool } else { Ty::Int },
                    span,
                })
            }
            Some(Sym::Const(i)) => match &self.env.consts[i].value {
                Some(v) => Ok(value(v.clone(), span)),
                // Constants are evaluated in the order of their dependencies, so this
                // is a constant whose own evaluation failed or is under way.
                None => Err(Error::new(
                    span,
                    match &self.env.consts[i].lacks {
                        Some(x) if x == name => {
                            format!("constant `{name}` has no value; give it with --const {name}=...")
                        }
                        Some(x) => format!(
                            "constant `{name}` has no value: it needs `{x}`, which has none; give it with --const {x}=..."
                        ),
                        None => format!("constant `{name}` has no value here"),
                    },
                )),
            },
            Some(Sym::Formula(_)) | None => Err(self.unknown(written, name, span)),
        }
    }

    #[cold]
    #[inline(never)]
    fn unknown(&self, written: &str, name: &str, span: Span) -> Error {
        let constants_only = self.ctx.allow == Allow::Constants;
        let kinds = if constants_only {
            "constant or formula"
        } else {
            "variable, constant or formula"
        };
        let mut message = format!("unknown name `{name}`: no {kind} has it", kind = kinds);
        if let (true, Some(r)) = (written != name, self.ctx.rename) {
            message.push_str(&format!(
                " (module `{}` renames `{written}` of `{}` to `{name}`)",
                r.module, r.base
            ));
        }
        let candidates = self.env.idents.iter().filter_map(|(n, s)| {
            (!constants_only || !matches!(s, Sym::Var(_))).then_some(n.as_str())
        });
        message.push_str(&did_you_mean(suggest(name, candidates)));
        Error::new(span, message)
    }

    fn label(&mut self, name: &str, span: Span) -> Result<Ex> {
        match self.label_use(name, span)? {
            LabelUse::Ready(ex) => Ok(ex),
            LabelUse::Expand(i) => {
                self.enter(Expansion::Label(i), span)?;
                let env = self.env;
                let result = match &env.labels[i].body {
                    LabelBody::Source(body) => self.expr(body),
                    LabelBody::Resolved { ex, .. } => Ok(ex.clone()),
                };
                self.expanding.pop();
                self.expanded(result, Expansion::Label(i), span)
            }
        }
    }

    /// What a label stands for, short of expanding a label written as an expression.
    #[inline(never)]
    fn label_use(&self, name: &str, span: Span) -> Result<LabelUse> {
        if self.ctx.allow != Allow::Labels {
            return Err(Error::new(
                span,
                format!(
                    "the label \"{name}\" cannot be used here: labels can only be used in \
                     labels and properties"
                ),
            ));
        }
        let special = match name {
            "init" => Some(ExKind::Initial),
            "deadlock" => Some(ExKind::Deadlock),
            _ => None,
        };
        if let Some(kind) = special {
            return Ok(LabelUse::Ready(Ex {
                kind,
                ty: Ty::Bool,
                span,
            }));
        }
        let Some(&i) = self.env.label_index.get(name) else {
            let mut known: Vec<String> = self
                .env
                .labels
                .iter()
                .map(|l| format!("\"{}\"", l.name))
                .collect();
            known.push("\"init\"".into());
            known.push("\"deadlock\"".into());
            let mut message = format!("unknown label \"{name}\": the labels are {}", list(&known));
            if let Some(close) = suggest(name, self.env.labels.iter().map(|l| l.name.as_str())) {
                message.push_str(&format!("; did you mean \"{close}\"?"));
            }
            return Err(Error::new(span, message));
        };
        match &self.env.labels[i].body {
            LabelBody::Source(_) => Ok(LabelUse::Expand(i)),
            LabelBody::Resolved { ex, depth } => {
                // The label replaces this node: its own height adds to the depth above.
                if self.depth - 1 + depth > MAX_DEPTH {
                    return Err(Error::new(
                        span,
                        format!(
                            "this expression nests too deeply: more than {MAX_DEPTH} levels \
                             with the label \"{name}\" expanded into it"
                        ),
                    ));
                }
                let mut ex = ex.clone();
                ex.span = span;
                Ok(LabelUse::Ready(ex))
            }
        }
    }
}

enum LabelUse {
    Ready(Ex),
    /// A label written as an expression, to expand like a formula.
    Expand(usize),
}

#[cold]
#[inline(never)]
fn too_deep(span: Span) -> Error {
    Error::new(
        span,
        format!(
            "this expression nests too deeply: more than {MAX_DEPTH} levels, counting the \
             formulas and labels expanded into it"
        ),
    )
}

#[cold]
#[inline(never)]
fn too_large(span: Span) -> Error {
    Error::new(
        span,
        format!(
            "this expression is too large: more than {MAX_NODES} operations once its \
             formulas are expanded"
        ),
    )
}

#[inline(never)]
fn literal(e: &ast::Expr) -> Ex {
    let v = match &e.kind {
        ExprKind::Int(i) => Value::Int(*i),
        ExprKind::Real(x, text) => {
            // The text gives the exact value; a text the parser made up falls back on the
            // double itself, which is rational too.
            let exact = parse_decimal(text).or_else(|| Exact::from_float(*x));
            Value::Real(Real { approx: *x, exact })
        }
        ExprKind::Bool(b) => Value::Bool(*b),
        _ => Value::Bool(false),
    };
    value(v, e.span)
}

#[inline(never)]
fn unary(op: UnOp, a: Ex, span: Span) -> Result<Ex> {
    let ty = match op {
        UnOp::Neg if a.ty != Ty::Bool => a.ty,
        UnOp::Neg => {
            return Err(Error::new(
                a.span,
                format!("`-` takes a number, this is {}", ty_name(a.ty)),
            ))
        }
        UnOp::Not if a.ty == Ty::Bool => Ty::Bool,
        UnOp::Not => {
            return Err(Error::new(
                a.span,
                format!("`!` takes a bool, this is {}", ty_name(a.ty)),
            ))
        }
    };
    Ok(fold(Ex {
        kind: ExKind::Unary(op, Box::new(a)),
        ty,
        span,
    }))
}

#[inline(never)]
fn ite(c: Ex, a: Ex, b: Ex, span: Span) -> Result<Ex> {
    if c.ty != Ty::Bool {
        return Err(Error::new(
            c.span,
            format!(
                "the condition of `? :` must be a bool, this is {}",
                ty_name(c.ty)
            ),
        ));
    }
    let ty = match (a.ty, b.ty) {
        (Ty::Bool, Ty::Bool) => Ty::Bool,
        (x, y) if x != Ty::Bool && y != Ty::Bool => numeric_ty(x, y),
        (x, y) => {
            return Err(Error::new(
                span,
                format!(
                    "the branches of `? :` must both be bools or both numbers, here they \
                     are {} and {}",
                    ty_name(x),
                    ty_name(y)
                ),
            ))
        }
    };
    Ok(fold(Ex {
        kind: ExKind::Ite(Box::new(c), Box::new(a), Box::new(b)),
        ty,
        span,
    }))
}

#[inline(never)]
fn binary(op: BinOp, a: Ex, b: Ex, span: Span, exact: bool) -> Result<Ex> {
    let sym = op.symbol();
    let operands = |want_bool: bool, says: &str| -> Result<()> {
        for (side, x) in [("left", &a), ("right", &b)] {
            if (x.ty == Ty::Bool) != want_bool {
                return Err(Error::new(
                    x.span,
                    format!("`{sym}` {says}, the {side} one is {}", ty_name(x.ty)),
                ));
            }
        }
        Ok(())
    };
    let ty = match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            operands(false, "takes numbers")?;
            numeric_ty(a.ty, b.ty)
        }
        BinOp::Div => {
            operands(false, "takes numbers")?;
            Ty::Real
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            operands(false, "compares numbers")?;
            Ty::Bool
        }
        BinOp::Eq | BinOp::Ne => {
            if (a.ty == Ty::Bool) != (b.ty == Ty::Bool) {
                return Err(Error::new(
                    span,
                    format!(
                        "`{sym}` compares two bools or two numbers, this compares {} with {}",
                        ty_name(a.ty),
                        ty_name(b.ty)
                    ),
                ));
            }
            Ty::Bool
        }
        BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff => {
            operands(true, "takes bool operands")?;
            Ty::Bool
        }
    };
    let on_reals = ty == Ty::Bool && (a.ty == Ty::Real || b.ty == Ty::Real);
    Ok(fold(decided(
        Ex {
            kind: ExKind::Binary(op, Box::new(a), Box::new(b)),
            ty,
            span,
        },
        exact && on_reals,
    )))
}

/// `ex`, a decision on reals, wrapped to be made on exact values when `exactly`. The
/// wrapper goes on before folding, so that a constant decision is folded exactly too.
fn decided(ex: Ex, exactly: bool) -> Ex {
    if !exactly {
        return ex;
    }
    Ex {
        ty: ex.ty,
        span: ex.span,
        kind: ExKind::Exactly(Box::new(ex)),
    }
}

/// Checks the number of arguments (the parser checks it too, but a tree may be built by
/// other means).
#[inline(never)]
fn arity(f: Func, count: usize, span: Span) -> Result<()> {
    let name = f.name();
    let expected = match f {
        Func::Min | Func::Max => None,
        Func::Floor | Func::Ceil => Some(1),
        Func::Pow | Func::Mod | Func::Log => Some(2),
    };
    match expected {
        None if count == 0 => Err(Error::new(
            span,
            format!("`{name}` takes at least one argument"),
        )),
        Some(n) if count != n => {
            let s = if n == 1 { "" } else { "s" };
            Err(Error::new(
                span,
                format!("`{name}` takes {n} argument{s}, found {count}"),
            ))
        }
        _ => Ok(()),
    }
}

#[inline(never)]
fn call(f: Func, args: Vec<Ex>, span: Span, exact: bool) -> Result<Ex> {
    let name = f.name();
    for (i, a) in args.iter().enumerate() {
        let bad = if f == Func::Mod {
            (a.ty != Ty::Int).then_some("takes int arguments")
        } else {
            (a.ty == Ty::Bool).then_some("takes numbers")
        };
        if let Some(says) = bad {
            return Err(Error::new(
                a.span,
                format!("`{name}` {says}, argument {} is {}", i + 1, ty_name(a.ty)),
            ));
        }
    }
    let all_int = args.iter().all(|a| a.ty == Ty::Int);
    let ty = match f {
        Func::Floor | Func::Ceil | Func::Mod => Ty::Int,
        Func::Log => Ty::Real,
        Func::Min | Func::Max | Func::Pow if all_int => Ty::Int,
        Func::Min | Func::Max | Func::Pow => Ty::Real,
    };
    let on_reals = matches!(f, Func::Floor | Func::Ceil) && !all_int;
    Ok(fold(decided(
        Ex {
            kind: ExKind::Call(f, args),
            ty,
            span,
        },
        exact && on_reals,
    )))
}

/// The depth of a resolved expression (leaves are 1).
pub(super) fn depth(ex: &Ex) -> usize {
    1 + match &ex.kind {
        ExKind::Unary(_, a) => depth(a),
        ExKind::Binary(_, a, b) => depth(a).max(depth(b)),
        ExKind::Ite(c, a, b) => depth(c).max(depth(a)).max(depth(b)),
        ExKind::Call(_, args) => args.iter().map(depth).max().unwrap_or(0),
        ExKind::Exactly(a) => depth(a),
        _ => 0,
    }
}
