//! The syntax tree of a PRISM model and of its properties, as written: names are not yet
//! resolved, constants not yet evaluated, renamed modules not yet expanded. Every node
//! keeps the span of its text, so that any later error can point at it.

use crate::error::Span;

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// A real literal, with its text so that exact arithmetic reads `0.1` as 1/10.
    Real(f64, String),
    Bool(bool),
    /// A variable, constant or formula.
    Name(String),
    /// A label in quotes, `"goal"` (in properties, and in labels and formulas of models).
    Label(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `min(...)`, `pow(a, b)`, ... (also written `func(min, ...)`).
    Call(Func, Vec<Expr>),
    /// In a property only: an operator over paths (`P>=0.5 [F a]`, `E [G a]`) or a
    /// filter, whose value in each state is that of the operator there.
    Operator(Box<Operator>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-a`
    Neg,
    /// `!a`
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Real division: `7/2` is 3.5.
    Div,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    /// `=>`
    Implies,
    /// `<=>`
    Iff,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "=",
            BinOp::Ne => "!=",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Implies => "=>",
            BinOp::Iff => "<=>",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    /// Any number of arguments, at least one.
    Min,
    Max,
    Floor,
    Ceil,
    /// `pow(x, y)`: an integer when both are integers (and `y` at least 0).
    Pow,
    /// `mod(i, n)`: integers, the result with the sign of `n` as in PRISM (0 <= r < n).
    Mod,
    /// `log(x, base)`.
    Log,
}

impl Func {
    /// The function's name as written.
    pub fn name(self) -> &'static str {
        match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Pow => "pow",
            Func::Mod => "mod",
            Func::Log => "log",
        }
    }
}

/// The type of a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    Double,
    Bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelType {
    /// `dtmc`, `probabilistic`
    Dtmc,
    /// `mdp`, `nondeterministic`
    Mdp,
    /// `smg`: a turn-based stochastic game, each state's choices one player's.
    Smg,
}

impl ModelType {
    /// Whether states have choices to make (an mdp's or a game's), not one distribution.
    pub fn chooses(self) -> bool {
        self != ModelType::Dtmc
    }
}

/// `player NAME module, [action], ... endplayer`: the modules whose unlabelled commands
/// and the actions whose commands the player chooses.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub name: Ident,
    pub modules: Vec<Ident>,
    pub actions: Vec<Ident>,
    pub span: Span,
}

/// A whole model file.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub kind: ModelType,
    /// Where the model type was written.
    pub kind_span: Span,
    pub constants: Vec<Constant>,
    pub globals: Vec<Variable>,
    pub formulas: Vec<Formula>,
    pub labels: Vec<Label>,
    pub modules: Vec<Module>,
    pub rewards: Vec<RewardStruct>,
    /// `init ... endinit`: the initial states are those satisfying it. When present, no
    /// variable may have an initial value of its own.
    pub init: Option<Expr>,
    /// In an `smg`, its players in order (numbered from 1).
    pub players: Vec<Player>,
}

/// `const int N = 3;` or `const double p;` (a value to be given on the command line).
#[derive(Clone, Debug, PartialEq)]
pub struct Constant {
    pub name: Ident,
    pub ty: Type,
    pub value: Option<Expr>,
    pub span: Span,
}

/// `x : [0..N] init 0;` or `b : bool;` (global when written `global x : ...`).
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    pub name: Ident,
    pub ty: VarType,
    pub init: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum VarType {
    /// `[low..high]`, both integer expressions over constants.
    Range(Expr, Expr),
    Bool,
}

/// `formula name = expr;`: a macro, replaced by its expression where it is used.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    pub name: Ident,
    pub expr: Expr,
}

/// `label "name" = expr;` (the name without its quotes).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub name: Ident,
    pub expr: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Module {
    /// `module M ... endmodule`
    Defined {
        name: Ident,
        variables: Vec<Variable>,
        commands: Vec<Command>,
        span: Span,
    },
    /// `module B = A [x=y, a=b] endmodule`: a copy of `A` with names replaced (variables,
    /// constants, formulas used in it, and actions).
    Renamed {
        name: Ident,
        base: Ident,
        renames: Vec<(Ident, Ident)>,
        span: Span,
    },
}

/// `[action] guard -> p1 : (x'=1) & (y'=2) + p2 : true;`
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// `None` for `[]`.
    pub action: Option<Ident>,
    pub guard: Expr,
    pub updates: Vec<Update>,
    pub span: Span,
}

/// One branch of a command: its probability (1 when written alone) and its assignments
/// (none for `true`).
#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    pub prob: Option<Expr>,
    pub assigns: Vec<Assign>,
    pub span: Span,
}

/// `(x' = e)`
#[derive(Clone, Debug, PartialEq)]
pub struct Assign {
    pub var: Ident,
    pub value: Expr,
    pub span: Span,
}

/// `rewards "name" ... endrewards` (the name is optional).
#[derive(Clone, Debug, PartialEq)]
pub struct RewardStruct {
    pub name: Option<Ident>,
    pub items: Vec<RewardItem>,
    pub span: Span,
}

/// `guard : value;` (a state reward) or `[a] guard : value;` (a transition reward).
#[derive(Clone, Debug, PartialEq)]
pub struct RewardItem {
    /// `None` for a state reward; `Some(None)` for `[]`; `Some(Some(a))` for `[a]`.
    pub action: Option<Option<Ident>>,
    pub guard: Expr,
    pub value: Expr,
    pub span: Span,
}

/// A file of properties: constants, labels and formulas may be declared among them.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PropertyFile {
    pub constants: Vec<Constant>,
    pub formulas: Vec<Formula>,
    pub labels: Vec<Label>,
    pub properties: Vec<NamedProperty>,
}

/// A property, with its name when written `"name": P=? [...]`.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedProperty {
    pub name: Option<String>,
    /// A state formula: an expression over the state whose operands may be operators
    /// (`P=? [F a]`, `1 - Pmax=? [...]`, `P>0.5 [F a] & x=1`, `filter(...)`) and, in
    /// quotes, other properties by name.
    pub property: Expr,
    /// The property's own text, trimmed (without its name), for output.
    pub text: String,
    pub span: Span,
}

/// An operator of a property: a query over paths, a path quantifier or a filter.
#[derive(Clone, Debug, PartialEq)]
pub enum Operator {
    /// `P=? [...]`, `Rmax=? [...]`, `T=? [...]`, `S=? [...]`; with `bound`,
    /// `P>=0.9 [...]`: whether the value meets it.
    Query {
        op: Query,
        path: Path,
        bound: Option<Box<Bound>>,
        /// In a game (`smg`), `<<p1, 2>>` before the operator: the players whose
        /// choices its `min` or `max` is for, the others choosing against them.
        coalition: Option<Coalition>,
    },
    /// `E [path]` (some path satisfies it) and `A [path]` (every path does), over every
    /// choice and every transition.
    Quantified { all: bool, path: Path },
    /// `multi(P>=0.5 [...], Rmax=? [C], ...)`: several queries of one decision process at
    /// once, each a `P` or an `R` operator, with a bound or `=?` (no `=?`: whether some
    /// strategy meets every bound; one: its best value under the others; two: the Pareto
    /// curve of the two).
    Multi { objectives: Vec<Expr> },
    /// `filter(op, property, states)`; `states` is `None` when left out (all states).
    Filter {
        op: FilterOp,
        property: Expr,
        states: Option<Expr>,
    },
}

/// `<<p1, 2>>`, `<<*>>` or `<<>>`: players by name or by number (from 1, in the order of
/// their `player` blocks); `<<*>>` is every player, `<<>>` none.
#[derive(Clone, Debug, PartialEq)]
pub struct Coalition {
    pub players: Vec<PlayerRef>,
    /// `<<*>>`.
    pub every: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlayerRef {
    Name(Ident),
    Number(i64, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    /// `P=?`, `Pmin=?`, `Pmax=?`
    Probability(Opt),
    /// `R=?`, `R{"name"}=?`, `R{2}=?` (1-based), `Rmin=?`, `Rmax=?`
    Reward(Option<RewardRef>, Opt),
    /// `T=?`, `Tmin=?`, `Tmax=?`: the expected number of steps.
    Time(Opt),
    /// `S=?`, `Smin=?`, `Smax=?`: the long-run share of time in a set.
    Steady(Opt),
}

/// The bound of a query that asks whether, rather than what: `>= 0.9` in `P>=0.9 [...]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    pub rel: Rel,
    pub threshold: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Lt,
    Le,
    Gt,
    Ge,
}

impl Rel {
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Lt => "<",
            Rel::Le => "<=",
            Rel::Gt => ">",
            Rel::Ge => ">=",
        }
    }

    /// Whether the bound is a lower one (`>`, `>=`): then it must hold for the least
    /// value over the choices, as PRISM reads a bound without `min` or `max` in an mdp.
    pub fn is_lower(self) -> bool {
        matches!(self, Rel::Gt | Rel::Ge)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// No `min` or `max`: a DTMC, or an MDP where the properties must say which.
    None,
    Min,
    Max,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RewardRef {
    Name(Ident),
    /// 1-based, as in PRISM.
    Index(i64, Span),
}

/// The steps within which a temporal operator looks: `<=k`, `<k`, `>=k`, `>k`, `=k` or
/// `[a,b]`. An end left out is open (from step 0, or for ever).
#[derive(Clone, Debug, PartialEq)]
pub struct Steps {
    /// The first step and whether it is excluded (`>k`).
    pub from: Option<(Expr, bool)>,
    /// The last step and whether it is excluded (`<k`).
    pub to: Option<(Expr, bool)>,
    pub span: Span,
}

/// The binary temporal operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Temporal {
    /// `a U b`: `b` at some step, `a` at every step before.
    Until,
    /// `a W b`: `a U b`, or `a` for ever.
    WeakUntil,
    /// `a R b`: `b` up to and including the first step where `a` holds, or for ever.
    Release,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Path {
    /// `F phi`, `F<=k phi`, ...
    Eventually { bound: Option<Steps>, target: Expr },
    /// `G phi`, `G<=k phi`, ...
    Globally { bound: Option<Steps>, target: Expr },
    /// `X phi`
    Next { target: Expr },
    /// `phi U psi`, `phi W<=k psi`, `phi R psi`, ...
    Until {
        op: Temporal,
        left: Expr,
        right: Expr,
        bound: Option<Steps>,
    },
    /// `Fc phi`, `F0 phi` (the rewards of games): the reward gathered until `phi`,
    /// where a path that never reaches it is worth what it gathers (`Fc`) or 0 (`F0`);
    /// `F phi` counts it as infinite.
    Reach {
        target: Expr,
        missed: Missed,
        /// Where `Fc` or `F0` is written.
        span: Span,
    },
    /// `C<=k`: the reward gathered in the first `k` steps; `C`: in all steps.
    Cumulative { bound: Option<Expr> },
    /// `I=k`: the reward of the state at step `k`.
    Instant { at: Expr },
    /// `S`: the long-run average reward per step.
    LongRun,
    /// The state formula inside `S [...]`: the long-run share of time spent where it
    /// holds.
    Steady { target: Expr },
    /// Any other path: an LTL formula over state formulas (`G F a`, `(F a) & (G b)`,
    /// `a U (b U c)`, or a state formula alone, which holds in the path's first state).
    Ltl { formula: Box<Ltl>, span: Span },
}

/// A path formula of LTL, as PRISM writes it: temporal operators over state formulas,
/// combined by the boolean operators, paths inside parentheses.
#[derive(Clone, Debug, PartialEq)]
pub enum Ltl {
    State(Expr),
    Not(Box<Ltl>),
    /// `&`, `|`, `=>` or `<=>`.
    Binary(BinOp, Box<Ltl>, Box<Ltl>),
    Next(Box<Ltl>),
    Eventually(Option<Steps>, Box<Ltl>),
    Globally(Option<Steps>, Box<Ltl>),
    Until(Temporal, Option<Steps>, Box<Ltl>, Box<Ltl>),
}

/// What a path that never reaches the target of `Fc` or `F0` is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missed {
    /// `Fc`: the reward it gathers, over all its steps.
    Gathered,
    /// `F0`: nothing.
    Zero,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterOp {
    Min,
    Max,
    Avg,
    Sum,
    Count,
    Forall,
    Exists,
    /// The value in the first state (in the order of exploration).
    First,
    /// Print each state's value (for the command line, the values of all such states).
    Print,
    /// As `print`, the states whose value is 0 or false too.
    PrintAll,
    /// The least and the greatest value.
    Range,
    /// The value in the one state chosen (an error unless exactly one is).
    State,
    /// The states where the value is least (greatest): true there, false elsewhere.
    ArgMin,
    ArgMax,
}
