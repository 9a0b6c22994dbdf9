//! A model after resolution: constants evaluated, formulas substituted, renamed modules
//! expanded, every name bound to a variable or a value, every expression typed. This is
//! what exploration reads.

use crate::ast::{BinOp, Func, ModelType, UnOp};
use crate::error::Span;
use alea_core::Exact;

/// The type of a resolved expression. An `Int` may be used where a `Real` is expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Real,
    Bool,
}

/// A real number: its `f64` value, and its exact value when it is rational and known
/// exactly (literals such as `0.1` are 1/10; `log` and irrational powers are not).
#[derive(Clone, Debug, PartialEq)]
pub struct Real {
    pub approx: f64,
    pub exact: Option<Exact>,
}

/// The value of a constant or of an expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Real(Real),
    Bool(bool),
}

/// A typed expression whose names are resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Ex {
    pub kind: ExKind,
    pub ty: Ty,
    pub span: Span,
}

impl Ex {
    /// The first node of the tree, in preorder (a node before its operands, the operands
    /// in order), for which `pred` holds: the one walk over an expression's nodes.
    pub fn find(&self, pred: &mut impl FnMut(&Ex) -> bool) -> Option<&Ex> {
        if pred(self) {
            return Some(self);
        }
        match &self.kind {
            ExKind::Value(_) | ExKind::Var(_) | ExKind::Initial | ExKind::Deadlock => None,
            ExKind::Unary(_, a) | ExKind::Exactly(a) => a.find(pred),
            ExKind::Binary(_, a, b) => a.find(pred).or_else(|| b.find(pred)),
            ExKind::Ite(c, a, b) => c
                .find(pred)
                .or_else(|| a.find(pred))
                .or_else(|| b.find(pred)),
            ExKind::Call(_, args) => args.iter().find_map(|a| a.find(pred)),
        }
    }

    /// Calls `f` on every node of the tree, in preorder, to change it in place.
    pub fn visit_mut(&mut self, f: &mut impl FnMut(&mut Ex)) {
        f(self);
        match &mut self.kind {
            ExKind::Value(_) | ExKind::Var(_) | ExKind::Initial | ExKind::Deadlock => {}
            ExKind::Unary(_, a) | ExKind::Exactly(a) => a.visit_mut(f),
            ExKind::Binary(_, a, b) => {
                a.visit_mut(f);
                b.visit_mut(f);
            }
            ExKind::Ite(c, a, b) => {
                c.visit_mut(f);
                a.visit_mut(f);
                b.visit_mut(f);
            }
            ExKind::Call(_, args) => args.iter_mut().for_each(|a| a.visit_mut(f)),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExKind {
    /// A literal or a constant, already evaluated.
    Value(Value),
    /// The variable of that index in [`Program::variables`]; a `bool` variable reads as
    /// `Ty::Bool`, its stored value being 0 or 1.
    Var(u32),
    Unary(UnOp, Box<Ex>),
    Binary(BinOp, Box<Ex>, Box<Ex>),
    Ite(Box<Ex>, Box<Ex>, Box<Ex>),
    Call(Func, Vec<Ex>),
    /// The label `"init"`: an initial state (known only after exploration).
    Initial,
    /// The label `"deadlock"`: a state without an enabled command, given a self-loop.
    Deadlock,
    /// A decision on reals (a comparison, `floor`, `ceil`) made on their exact rational
    /// values (on `f64` ones when a value has no rational form): models resolved for
    /// exact checking wrap their decisions in it, so that `1/3 = 0.333333333333333333`
    /// is false there, as in rationals.
    Exactly(Box<Ex>),
}

/// A state variable. Values are stored as integers; `false` and `true` as 0 and 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Var {
    pub name: String,
    pub low: i64,
    pub high: i64,
    /// The initial value (ignored when [`Program::init`] is given).
    pub init: i64,
    pub is_bool: bool,
    /// The module that owns it (an index into [`Program::modules`]); `None` for a global.
    pub module: Option<usize>,
    pub span: Span,
}

/// A module, renamed copies expanded into modules of their own.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub name: String,
    pub commands: Vec<Command>,
    /// The actions of the module's commands (indices into [`Program::actions`]), sorted:
    /// an action in a module's alphabet can only happen with that module taking part.
    pub alphabet: Vec<u32>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// An index into [`Program::actions`]; `None` for `[]`.
    pub action: Option<u32>,
    pub guard: Ex,
    pub updates: Vec<Update>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    /// A `Real` or `Int` expression (a lone update has the literal 1).
    pub prob: Ex,
    /// Variable index and its new value, read in the state before the update.
    pub assigns: Vec<(u32, Ex)>,
    pub span: Span,
}

/// A reward structure.
#[derive(Clone, Debug, PartialEq)]
pub struct Rewards {
    pub name: Option<String>,
    pub items: Vec<RewardItem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RewardItem {
    /// `None` for a state reward; `Some(None)` for a transition reward of `[]`;
    /// `Some(Some(a))` for one of action `a`.
    pub action: Option<Option<u32>>,
    pub guard: Ex,
    pub value: Ex,
    pub span: Span,
}

/// A resolved model.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub kind: ModelType,
    /// Globals first, then each module's variables in order: the order of a state's
    /// values everywhere (output, `--at`, strategies).
    pub variables: Vec<Var>,
    /// `init ... endinit`, when given.
    pub init: Option<Ex>,
    pub modules: Vec<Module>,
    /// The action names, in order of first appearance.
    pub actions: Vec<String>,
    /// The model's labels, `"init"` and `"deadlock"` not among them.
    pub labels: Vec<(String, Ex)>,
    pub rewards: Vec<Rewards>,
    /// Every constant with its value, in order of declaration.
    pub constants: Vec<(String, Value)>,
    /// Whether decisions on reals are made exactly ([`ExKind::Exactly`]): the model was
    /// resolved for exact checking. Otherwise they are made in `f64`, as the
    /// floating-point checks read the model.
    pub exact: bool,
    /// In an `smg`, who chooses what; empty otherwise.
    pub players: Players,
}

/// The players of a game: their names (numbered from 1 in this order), and the player
/// of each module's unlabelled commands and of each action (indices into `names`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Players {
    pub names: Vec<String>,
    pub of_module: Vec<Option<u32>>,
    pub of_action: Vec<Option<u32>>,
}
