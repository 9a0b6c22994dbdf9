//! Expressions compiled for evaluation in every state: constants folded, the common shapes
//! (`x = c`, `x < c & y = 0`, `x + 1`) turned into direct tests, interval tests combined
//! by `&`, `|` and `!` into a branching program, and everything else into a small stack
//! bytecode over `i64` slots (reals stored as `f64` bits, booleans as 0 and 1).
//! Exploration evaluates guards and updates millions of times, so evaluation must neither
//! allocate nor walk a tree of boxes.
//!
//! An expression reads the state as unpacked values in [`Program::variables`] order, with
//! two extra slots after them: whether the state is initial, and whether it is a deadlock
//! (the labels `"init"` and `"deadlock"`).
//!
//! The semantics are those of [`crate::eval`] in `f64` (checked integer arithmetic,
//! short-circuit `&`, `|`, `=>`, `mod` with the sign of the divisor, NaN winning `min` and
//! `max`, `log` defined only for positive arguments). An expression with a decision to
//! make on exact values ([`ExKind::Exactly`], in a model resolved for exact checking) is
//! left to that module's evaluator: the bytecode computes in `f64` only.

use crate::ast::{BinOp, Func, UnOp};
use crate::error::Span;
use crate::program::{Ex, ExKind, Ty, Value};

/// A failure while evaluating an expression: where, and what went wrong (the caller adds
/// which state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub span: Span,
    pub message: String,
}

impl Fault {
    pub fn new(span: Span, message: impl Into<String>) -> Fault {
        Fault {
            span,
            message: message.into(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Cmp {
    fn of(op: BinOp) -> Option<Cmp> {
        Some(match op {
            BinOp::Lt => Cmp::Lt,
            BinOp::Le => Cmp::Le,
            BinOp::Gt => Cmp::Gt,
            BinOp::Ge => Cmp::Ge,
            BinOp::Eq => Cmp::Eq,
            BinOp::Ne => Cmp::Ne,
            _ => return None,
        })
    }

    /// The comparison with its operands swapped: `c < x` is `x > c`.
    fn flip(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            c => c,
        }
    }

    #[inline(always)]
    fn int(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }

    #[inline(always)]
    fn real(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }

    /// The values `v` with `v cmp c`, as an interval, when they form one.
    fn interval(self, c: i64) -> Option<(i64, i64)> {
        Some(match self {
            Cmp::Lt => (i64::MIN, c.checked_sub(1)?),
            Cmp::Le => (i64::MIN, c),
            Cmp::Gt => (c.checked_add(1)?, i64::MAX),
            Cmp::Ge => (c, i64::MAX),
            Cmp::Eq => (c, c),
            Cmp::Ne => return None,
        })
    }
}

/// One instruction. Binary operators pop their right operand and replace the left one.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Push(i64),
    Load(u32),
    /// `x + c` on integers.
    LoadAdd(u32, i64),
    /// `x cmp c` on integers.
    Test(u32, Cmp, i64),
    IntToReal,
    NegI,
    AddI,
    SubI,
    MulI,
    MinI,
    MaxI,
    PowI,
    ModI,
    NegR,
    AddR,
    SubR,
    MulR,
    DivR,
    MinR,
    MaxR,
    PowR,
    LogR,
    /// `floor` and `ceil` of a real, to a real.
    FloorR,
    CeilR,
    /// `floor` and `ceil` of a real, to an integer.
    FloorI,
    CeilI,
    CmpI(Cmp),
    CmpR(Cmp),
    Not,
    /// `&`: when the top is false, jump leaving it; otherwise pop it.
    AndJump(u32),
    /// `|`: when the top is true, jump leaving it; otherwise pop it.
    OrJump(u32),
    /// Pop; jump when false.
    IfNot(u32),
    Jump(u32),
}

/// A compiled expression of a known type: booleans give 0 or 1, integers their value,
/// reals their `f64` bits.
#[derive(Clone, Debug)]
pub(crate) enum Code {
    Const(i64),
    Var(u32),
    /// `x + c`, checked for overflow.
    VarAdd(u32, i64, Span),
    /// `low <= x <= high` (as `x = c`, `x < N`, `b`).
    Test([(u32, i64, i64); 1]),
    /// Two of them, both holding.
    Test2([(u32, i64, i64); 2]),
    /// A conjunction (`x < N & y = 0 & z != 2 & ...`).
    Guard(Box<Guard>),
    /// Interval tests combined by `|`, `!` and `&`, which cannot fail.
    Cond(Cond),
    Ops(Box<Prog>),
    /// An expression with decisions made on exact values, evaluated as a tree.
    Exact(Box<ExactCode>),
}

/// An expression that [`crate::eval`] evaluates, giving a value of type `want`.
#[derive(Clone, Debug)]
pub(crate) struct ExactCode {
    ex: Ex,
    want: Ty,
    /// The number of variables: the slots of `"init"` and `"deadlock"` follow them.
    vars: usize,
}

impl ExactCode {
    // Out of line: inlined, its tree evaluator would make every call of
    // [`Code::eval`] save and restore registers that the common codes never use.
    #[cold]
    #[inline(never)]
    fn eval(&self, vals: &[i64]) -> Result<i64, Fault> {
        let n = self.vars.min(vals.len());
        // Its real literals made faithful when it was compiled: decisions are tried on
        // bounds in `f64` before exact values are worked out.
        let mut cx = crate::eval::Context::new(&vals[..n]).with_faithful_reals();
        if let Some(&init) = vals.get(n) {
            cx = cx.with_initial(init != 0);
        }
        if let Some(&dead) = vals.get(n + 1) {
            cx = cx.with_deadlock(dead != 0);
        }
        let ex = &self.ex;
        match (self.want, ex.ty) {
            (Ty::Bool, _) | (Ty::Int, Ty::Bool) => cx.eval_bool(ex).map(i64::from),
            (Ty::Int, _) => cx.eval_int(ex),
            (Ty::Real, _) => cx.eval_f64(ex).map(bits),
        }
        .map_err(|e| Fault::new(e.span, e.message))
    }
}

/// Interval tests on variables combined by `&`, `|` and `!` (`(a0 = L & a20 = L) |
/// (a1 = L & a21 = L) | ...`, `(p1 < 4 | p1 > 13) & ...`), as a branching program: each
/// test says where to go next when it holds and when it does not. Such a condition
/// cannot fail, so it needs neither the interpreter nor an error path, and one short loop
/// without recursion evaluates it.
#[derive(Clone, Debug)]
pub(crate) struct Cond {
    /// The tests, the first one first.
    tests: Box<[Branch]>,
}

#[derive(Clone, Copy, Debug)]
struct Branch {
    /// `low <= x <= high`.
    x: u32,
    low: i64,
    high: i64,
    /// The next test when it holds and when not, or [`HOLDS`] or [`FAILS`].
    yes: u32,
    no: u32,
}

const HOLDS: u32 = u32::MAX;
const FAILS: u32 = u32::MAX - 1;

impl Cond {
    #[inline]
    fn holds(&self, vals: &[i64]) -> bool {
        let mut at = 0;
        loop {
            let b = &self.tests[at as usize];
            let v = vals[b.x as usize];
            at = if b.low <= v && v <= b.high {
                b.yes
            } else {
                b.no
            };
            if at >= FAILS {
                return at == HOLDS;
            }
        }
    }
}

/// A condition as a tree, before it is laid out as branches.
enum Tree {
    In(u32, i64, i64),
    All(Vec<Tree>),
    Any(Vec<Tree>),
    Not(Box<Tree>),
}

impl Tree {
    /// The branching program: short-circuit, with the operands in their order.
    fn layout(&self) -> Cond {
        let mut tests = Vec::new();
        self.place(HOLDS, FAILS, &mut tests);
        // Placed last first, each test before the ones it leads to: reversed, the
        // program starts at 0 and mostly runs forward.
        let last = tests.len() as u32 - 1;
        let flip = |to: u32| if to >= FAILS { to } else { last - to };
        let tests = tests
            .iter()
            .rev()
            .map(|b| Branch {
                yes: flip(b.yes),
                no: flip(b.no),
                ..*b
            })
            .collect();
        Cond { tests }
    }

    /// Places the tests of `self`, going to `yes` when it holds and `no` when not, and
    /// returns where it starts.
    fn place(&self, yes: u32, no: u32, out: &mut Vec<Branch>) -> u32 {
        match self {
            &Tree::In(x, low, high) => {
                out.push(Branch {
                    x,
                    low,
                    high,
                    yes,
                    no,
                });
                out.len() as u32 - 1
            }
            Tree::All(ts) => ts.iter().rev().fold(yes, |next, t| t.place(next, no, out)),
            Tree::Any(ts) => ts.iter().rev().fold(no, |next, t| t.place(yes, next, out)),
            Tree::Not(t) => t.place(no, yes, out),
        }
    }
}

/// A conjunction split into its interval tests on variables and the rest. The tests are
/// evaluated first: they cannot fail, so testing them first can spare an evaluation
/// that would (`mod(x, y) = 0 & y != 0` in a state with `y = 0`), never cause one.
#[derive(Clone, Debug)]
pub(crate) struct Guard {
    /// `low <= x <= high`, each of which must hold.
    pub tests: Box<[(u32, i64, i64)]>,
    /// `!(low <= x <= high)` (as `x != c`), each of which must hold.
    outs: Box<[(u32, i64, i64)]>,
    /// The other conjuncts that cannot fail, all of them.
    cond: Option<Cond>,
    /// The other conjuncts, in their order, as one program.
    rest: Option<Prog>,
}

#[derive(Clone, Debug)]
pub(crate) struct Prog {
    ops: Box<[Op]>,
    /// The span of each instruction, for errors.
    spans: Box<[Span]>,
    /// An upper bound on the stack depth.
    depth: usize,
}

impl Code {
    /// The constant value, if the expression has one.
    pub fn constant(&self) -> Option<i64> {
        match *self {
            Code::Const(v) => Some(v),
            _ => None,
        }
    }

    /// The interval tests on variables that must hold for a boolean expression to
    /// hold (some of them: those it was compiled into).
    pub fn tests(&self) -> &[(u32, i64, i64)] {
        match self {
            Code::Test(t) => t,
            Code::Test2(t) => t,
            Code::Guard(g) => &g.tests,
            _ => &[],
        }
    }

    /// Evaluates in the state `vals`; `stack` is scratch space reused across calls.
    #[inline]
    pub fn eval(&self, vals: &[i64], stack: &mut Vec<i64>) -> Result<i64, Fault> {
        match self {
            Code::Const(v) => Ok(*v),
            Code::Var(x) => Ok(vals[*x as usize]),
            Code::VarAdd(x, c, span) => vals[*x as usize]
                .checked_add(*c)
                .ok_or_else(|| overflow(*span)),
            Code::Test([(x, lo, hi)]) => {
                let v = vals[*x as usize];
                Ok((*lo <= v && v <= *hi) as i64)
            }
            Code::Test2([(x, lo, hi), (y, lo2, hi2)]) => {
                let (v, w) = (vals[*x as usize], vals[*y as usize]);
                Ok((*lo <= v && v <= *hi && *lo2 <= w && w <= *hi2) as i64)
            }
            Code::Guard(g) => {
                let holds = g.tests.iter().all(|&(x, lo, hi)| {
                    let v = vals[x as usize];
                    lo <= v && v <= hi
                }) && g.outs.iter().all(|&(x, lo, hi)| {
                    let v = vals[x as usize];
                    v < lo || v > hi
                }) && g.cond.as_ref().is_none_or(|c| c.holds(vals));
                match &g.rest {
                    Some(prog) if holds => prog.run(vals, stack),
                    _ => Ok(holds as i64),
                }
            }
            Code::Cond(c) => Ok(c.holds(vals) as i64),
            Code::Ops(prog) => prog.run(vals, stack),
            Code::Exact(e) => e.eval(vals),
        }
    }

    #[inline]
    pub fn eval_bool(&self, vals: &[i64], stack: &mut Vec<i64>) -> Result<bool, Fault> {
        Ok(self.eval(vals, stack)? != 0)
    }

    #[inline]
    pub fn eval_real(&self, vals: &[i64], stack: &mut Vec<i64>) -> Result<f64, Fault> {
        Ok(f64::from_bits(self.eval(vals, stack)? as u64))
    }
}

fn overflow(span: Span) -> Fault {
    Fault::new(span, "integer overflow (values are 64-bit integers)")
}

#[inline(always)]
fn real(v: i64) -> f64 {
    f64::from_bits(v as u64)
}

#[inline(always)]
fn bits(f: f64) -> i64 {
    f.to_bits() as i64
}

impl Prog {
    #[inline]
    fn run(&self, vals: &[i64], stack: &mut Vec<i64>) -> Result<i64, Fault> {
        if self.depth <= SMALL_STACK {
            self.interpret(
                vals,
                &mut ArrayStack {
                    slots: [0; SMALL_STACK],
                    len: 0,
                },
            )
        } else {
            stack.clear();
            self.interpret(vals, stack)
        }
    }

    fn interpret<S: Stack>(&self, vals: &[i64], stack: &mut S) -> Result<i64, Fault> {
        let ops = &self.ops[..];
        let mut pc = 0;
        while let Some(&op) = ops.get(pc) {
            pc += 1;
            macro_rules! binary {
                (|$a:ident, $b:ident| $e:expr) => {{
                    let $b = stack.pop();
                    let top = stack.top();
                    let $a = *top;
                    *top = $e;
                }};
            }
            macro_rules! unary {
                (|$a:ident| $e:expr) => {{
                    let top = stack.top();
                    let $a = *top;
                    *top = $e;
                }};
            }
            let fault = |message: &str| Fault::new(self.spans[pc - 1], message);
            match op {
                Op::Push(v) => stack.push(v),
                Op::Load(x) => stack.push(vals[x as usize]),
                Op::LoadAdd(x, c) => stack.push(
                    vals[x as usize]
                        .checked_add(c)
                        .ok_or_else(|| overflow(self.spans[pc - 1]))?,
                ),
                Op::Test(x, cmp, c) => stack.push(cmp.int(vals[x as usize], c) as i64),
                Op::IntToReal => unary!(|a| bits(a as f64)),
                Op::NegI => unary!(|a| a
                    .checked_neg()
                    .ok_or_else(|| overflow(self.spans[pc - 1]))?),
                Op::AddI => {
                    binary!(|a, b| a
                        .checked_add(b)
                        .ok_or_else(|| overflow(self.spans[pc - 1]))?)
                }
                Op::SubI => {
                    binary!(|a, b| a
                        .checked_sub(b)
                        .ok_or_else(|| overflow(self.spans[pc - 1]))?)
                }
                Op::MulI => {
                    binary!(|a, b| a
                        .checked_mul(b)
                        .ok_or_else(|| overflow(self.spans[pc - 1]))?)
                }
                Op::MinI => binary!(|a, b| a.min(b)),
                Op::MaxI => binary!(|a, b| a.max(b)),
                Op::PowI => binary!(|a, b| int_pow(a, b).map_err(fault)?),
                Op::ModI => binary!(|a, b| int_mod(a, b).map_err(fault)?),
                Op::NegR => unary!(|a| bits(-real(a))),
                Op::AddR => binary!(|a, b| bits(real(a) + real(b))),
                Op::SubR => binary!(|a, b| bits(real(a) - real(b))),
                Op::MulR => binary!(|a, b| bits(real(a) * real(b))),
                Op::DivR => binary!(|a, b| bits(real(a) / real(b))),
                Op::MinR => binary!(|a, b| bits(min_max(real(a), real(b), true))),
                Op::MaxR => binary!(|a, b| bits(min_max(real(a), real(b), false))),
                Op::PowR => binary!(|a, b| bits(real(a).powf(real(b)))),
                Op::LogR => binary!(|a, b| bits(log(real(a), real(b)).map_err(|m| fault(&m))?)),
                Op::FloorR => unary!(|a| bits(real(a).floor())),
                Op::CeilR => unary!(|a| bits(real(a).ceil())),
                Op::FloorI => unary!(|a| real_to_int(real(a).floor()).map_err(fault)?),
                Op::CeilI => unary!(|a| real_to_int(real(a).ceil()).map_err(fault)?),
                Op::CmpI(c) => binary!(|a, b| c.int(a, b) as i64),
                Op::CmpR(c) => binary!(|a, b| c.real(real(a), real(b)) as i64),
                Op::Not => unary!(|a| (a == 0) as i64),
                Op::AndJump(to) => {
                    if *stack.top() == 0 {
                        pc = to as usize;
                    } else {
                        stack.pop();
                    }
                }
                Op::OrJump(to) => {
                    if *stack.top() != 0 {
                        pc = to as usize;
                    } else {
                        stack.pop();
                    }
                }
                Op::IfNot(to) => {
                    if stack.pop() == 0 {
                        pc = to as usize;
                    }
                }
                Op::Jump(to) => pc = to as usize,
            }
        }
        Ok(stack.pop())
    }
}

/// Programs whose stack stays within this depth run on a stack in registers and local
/// memory rather than in a vector.
const SMALL_STACK: usize = 8;

/// The operand stack of the interpreter. Compilation guarantees that a program never
/// pops an empty stack.
trait Stack {
    fn push(&mut self, v: i64);
    fn pop(&mut self) -> i64;
    fn top(&mut self) -> &mut i64;
}

struct ArrayStack {
    slots: [i64; SMALL_STACK],
    len: usize,
}

impl Stack for ArrayStack {
    #[inline(always)]
    fn push(&mut self, v: i64) {
        self.slots[self.len] = v;
        self.len += 1;
    }
    #[inline(always)]
    fn pop(&mut self) -> i64 {
        self.len -= 1;
        self.slots[self.len]
    }
    #[inline(always)]
    fn top(&mut self) -> &mut i64 {
        &mut self.slots[self.len - 1]
    }
}

impl Stack for Vec<i64> {
    #[inline(always)]
    fn push(&mut self, v: i64) {
        Vec::push(self, v);
    }
    #[inline(always)]
    fn pop(&mut self) -> i64 {
        Vec::pop(self).expect("an operand")
    }
    #[inline(always)]
    fn top(&mut self) -> &mut i64 {
        self.last_mut().expect("an operand")
    }
}

/// `min` or `max` of reals; a NaN wins, so that it cannot vanish quietly.
fn min_max(a: f64, b: f64, min: bool) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if min == (b < a) {
        b
    } else {
        a
    }
}

/// `log(x, base)`, defined for `x > 0` and `base > 0` other than 1.
fn log(x: f64, base: f64) -> Result<f64, String> {
    if x.is_nan() || x <= 0.0 {
        return Err(format!("log needs a number above 0, found {x}"));
    }
    if base.is_nan() || base <= 0.0 || base == 1.0 {
        return Err(format!(
            "log needs a base above 0 other than 1, found {base}"
        ));
    }
    Ok(x.ln() / base.ln())
}

/// `a` to the power `b` on integers (`b` at least 0).
fn int_pow(a: i64, b: i64) -> Result<i64, &'static str> {
    if b < 0 {
        return Err("pow of integers with a negative exponent");
    }
    match a {
        0 => Ok((b == 0) as i64),
        1 => Ok(1),
        -1 => Ok(if b % 2 == 0 { 1 } else { -1 }),
        _ => u32::try_from(b)
            .ok()
            .and_then(|b| a.checked_pow(b))
            .ok_or("integer overflow (values are 64-bit integers)"),
    }
}

/// `mod(a, n)`, with the sign of `n`: `mod(-1, 3)` is 2.
fn int_mod(a: i64, n: i64) -> Result<i64, &'static str> {
    if n == 0 {
        return Err("mod by zero");
    }
    let r = a.wrapping_rem(n);
    Ok(if r != 0 && ((r < 0) != (n < 0)) {
        r + n
    } else {
        r
    })
}

/// A whole real as an integer.
fn real_to_int(f: f64) -> Result<i64, &'static str> {
    // 2^63 is exactly representable; anything from it up does not fit.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if (-TWO_63..TWO_63).contains(&f) {
        Ok(f as i64)
    } else if f.is_nan() {
        Err("the result is not a number (NaN), so it has no integer value")
    } else {
        Err("the result is too large for a 64-bit integer")
    }
}

/// Whether the expression depends on the state (a variable or a state label).
pub(crate) fn is_constant(ex: &Ex) -> bool {
    ex.find(&mut |e| matches!(e.kind, ExKind::Var(_) | ExKind::Initial | ExKind::Deadlock))
        .is_none()
}

/// The operands of a chain of one operator, flattened: `a | b | c` has three.
fn operands<'e>(op: BinOp, ex: &'e Ex, out: &mut Vec<&'e Ex>) {
    match &ex.kind {
        ExKind::Binary(o, a, b) if *o == op => {
            operands(op, a, out);
            operands(op, b, out);
        }
        _ => out.push(ex),
    }
}

/// Whether the expression has a decision to make on exact values.
fn decides_exactly(ex: &Ex) -> bool {
    ex.find(&mut |e| matches!(e.kind, ExKind::Exactly(_)))
        .is_some()
}

/// Compiles `ex` to give a value of type `want` (an `Int` read as a `Real` is converted).
/// `vars` is the number of variables (the label slots follow them).
pub(crate) fn compile(ex: &Ex, want: Ty, vars: usize) -> Code {
    if decides_exactly(ex) {
        let mut ex = ex.clone();
        crate::eval::faithful_reals(&mut ex);
        return Code::Exact(Box::new(ExactCode { ex, want, vars }));
    }
    let mut c = Compiler {
        ops: Vec::new(),
        spans: Vec::new(),
        vars: vars as u32,
    };
    if is_constant(ex) {
        if let Some(v) = c.fold(ex, want) {
            return Code::Const(v);
        }
    }
    // Shapes that skip the interpreter.
    match &ex.kind {
        ExKind::Var(x) if want == ex.ty || (want == Ty::Int && ex.ty == Ty::Bool) => {
            return Code::Var(*x)
        }
        ExKind::Binary(BinOp::Add | BinOp::Sub, a, b) if want == Ty::Int && ex.ty == Ty::Int => {
            if let (ExKind::Var(x), Some(k)) = (&a.kind, c.int_const(b)) {
                let k = if matches!(ex.kind, ExKind::Binary(BinOp::Sub, ..)) {
                    k.checked_neg()
                } else {
                    Some(k)
                };
                if let Some(k) = k {
                    return Code::VarAdd(*x, k, ex.span);
                }
            }
        }
        _ => {}
    }
    if want == Ty::Bool {
        if let Some(guard) = c.guard(ex) {
            if guard.outs.is_empty() && guard.cond.is_none() && guard.rest.is_none() {
                match *guard.tests {
                    [t] => return Code::Test([t]),
                    [t, u] => return Code::Test2([t, u]),
                    _ => {}
                }
            }
            return Code::Guard(Box::new(guard));
        }
        if let Some(tree) = c.tree(ex) {
            return Code::Cond(tree.layout());
        }
    }
    c.emit(ex, want);
    Code::Ops(Box::new(c.finish()))
}

struct Compiler {
    ops: Vec<Op>,
    spans: Vec<Span>,
    vars: u32,
}

impl Compiler {
    fn finish(self) -> Prog {
        // Each instruction pushes at most one value.
        let depth = self
            .ops
            .iter()
            .filter(|op| {
                matches!(
                    op,
                    Op::Push(_) | Op::Load(_) | Op::LoadAdd(..) | Op::Test(..)
                )
            })
            .count();
        Prog {
            ops: self.ops.into_boxed_slice(),
            spans: self.spans.into_boxed_slice(),
            depth,
        }
    }

    /// `ex` as a condition, when it is interval tests combined by `&`, `|` and `!`.
    fn tree(&self, ex: &Ex) -> Option<Tree> {
        if let Some((x, lo, hi)) = self.test(ex) {
            return Some(Tree::In(x, lo, hi));
        }
        match &ex.kind {
            ExKind::Unary(UnOp::Not, a) => Some(Tree::Not(Box::new(self.tree(a)?))),
            ExKind::Binary(op @ (BinOp::And | BinOp::Or), ..) => {
                let mut all = Vec::new();
                operands(*op, ex, &mut all);
                let trees = all
                    .into_iter()
                    .map(|e| self.tree(e))
                    .collect::<Option<Vec<Tree>>>()?;
                Some(match op {
                    BinOp::And => Tree::All(trees),
                    _ => Tree::Any(trees),
                })
            }
            _ => None,
        }
    }

    /// `ex` as a [`Guard`], when it is a conjunction with at least one interval test or
    /// other conjunct that cannot fail.
    fn guard(&self, ex: &Ex) -> Option<Guard> {
        let mut all = Vec::new();
        operands(BinOp::And, ex, &mut all);
        let (mut tests, mut outs, mut conds, mut rest) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for c in all {
            if let Some(t) = self.test(c) {
                tests.push(t);
                continue;
            }
            if let ExKind::Unary(UnOp::Not, a) = &c.kind {
                if let Some(t) = self.test(a) {
                    outs.push(t);
                    continue;
                }
            }
            if let ExKind::Binary(BinOp::Ne, a, b) = &c.kind {
                let eq = Ex {
                    kind: ExKind::Binary(BinOp::Eq, a.clone(), b.clone()),
                    ty: Ty::Bool,
                    span: c.span,
                };
                if let Some(t) = self.test(&eq) {
                    outs.push(t);
                    continue;
                }
            }
            if let Some(tree) = self.tree(c) {
                conds.push(tree);
                continue;
            }
            rest.push(c);
        }
        // A lone condition is no conjunction: the caller compiles it as a `Cond`.
        let lone = conds.len() == 1 && rest.is_empty();
        if tests.is_empty() && outs.is_empty() && (conds.is_empty() || lone) {
            return None;
        }
        let rest = if rest.is_empty() {
            None
        } else {
            let mut sub = Compiler {
                ops: Vec::new(),
                spans: Vec::new(),
                vars: self.vars,
            };
            let mut jumps = Vec::new();
            for (i, c) in rest.iter().enumerate() {
                sub.emit(c, Ty::Bool);
                if i + 1 < rest.len() {
                    jumps.push(sub.push(Op::AndJump(0), c.span));
                }
            }
            for j in jumps {
                sub.patch(j);
            }
            Some(sub.finish())
        };
        Some(Guard {
            tests: tests.into_boxed_slice(),
            outs: outs.into_boxed_slice(),
            cond: (!conds.is_empty()).then(|| Tree::All(conds).layout()),
            rest,
        })
    }

    fn push(&mut self, op: Op, span: Span) -> usize {
        self.ops.push(op);
        self.spans.push(span);
        self.ops.len() - 1
    }

    fn patch(&mut self, at: usize) {
        let to = self.ops.len() as u32;
        match &mut self.ops[at] {
            Op::AndJump(t) | Op::OrJump(t) | Op::IfNot(t) | Op::Jump(t) => *t = to,
            _ => unreachable!("only jumps are patched"),
        }
    }

    /// The value of a constant expression, or `None` when evaluating it fails (the
    /// failure is then reported if and when it is evaluated in a state).
    fn fold(&self, ex: &Ex, want: Ty) -> Option<i64> {
        let mut sub = Compiler {
            ops: Vec::new(),
            spans: Vec::new(),
            vars: self.vars,
        };
        sub.emit_raw(ex);
        sub.convert(ex.ty, want, ex.span);
        sub.finish().run(&[], &mut Vec::new()).ok()
    }

    fn int_const(&self, ex: &Ex) -> Option<i64> {
        if ex.ty == Ty::Int && is_constant(ex) {
            self.fold(ex, Ty::Int)
        } else {
            None
        }
    }

    /// `ex` as an interval test `low <= x <= high` on a variable, if it is one.
    fn test(&self, ex: &Ex) -> Option<(u32, i64, i64)> {
        match &ex.kind {
            ExKind::Var(x) if ex.ty == Ty::Bool && *x < self.vars => Some((*x, 1, 1)),
            ExKind::Unary(UnOp::Not, a) => match a.kind {
                ExKind::Var(x) if a.ty == Ty::Bool && x < self.vars => Some((x, 0, 0)),
                _ => None,
            },
            ExKind::Binary(op, a, b) => {
                let cmp = Cmp::of(*op)?;
                let (x, cmp, k) = match (&a.kind, &b.kind) {
                    (ExKind::Var(x), _) if a.ty == Ty::Int && *x < self.vars => {
                        (*x, cmp, self.int_const(b)?)
                    }
                    (_, ExKind::Var(x)) if b.ty == Ty::Int && *x < self.vars => {
                        (*x, cmp.flip(), self.int_const(a)?)
                    }
                    _ => return None,
                };
                let (lo, hi) = cmp.interval(k)?;
                Some((x, lo, hi))
            }
            _ => None,
        }
    }

    fn convert(&mut self, from: Ty, to: Ty, span: Span) {
        if from == Ty::Int && to == Ty::Real {
            self.push(Op::IntToReal, span);
        }
    }

    /// Emits `ex` converted to `want`, folding constant parts.
    fn emit(&mut self, ex: &Ex, want: Ty) {
        if is_constant(ex) {
            if let Some(v) = self.fold(ex, want) {
                self.push(Op::Push(v), ex.span);
                return;
            }
        }
        self.emit_raw(ex);
        self.convert(ex.ty, want, ex.span);
    }

    /// Emits `ex` giving a value of its own type `ex.ty`.
    fn emit_raw(&mut self, ex: &Ex) {
        let span = ex.span;
        let ty = ex.ty;
        match &ex.kind {
            ExKind::Value(v) => {
                let v = match v {
                    Value::Int(i) => {
                        if ty == Ty::Real {
                            bits(*i as f64)
                        } else {
                            *i
                        }
                    }
                    Value::Real(r) => bits(r.approx),
                    Value::Bool(b) => *b as i64,
                };
                self.push(Op::Push(v), span);
            }
            ExKind::Var(x) => {
                self.push(Op::Load(*x), span);
                self.convert(Ty::Int, ty, span);
            }
            ExKind::Initial => {
                self.push(Op::Load(self.vars), span);
            }
            ExKind::Deadlock => {
                self.push(Op::Load(self.vars + 1), span);
            }
            ExKind::Unary(UnOp::Neg, a) => {
                self.emit(a, ty);
                let op = if ty == Ty::Real { Op::NegR } else { Op::NegI };
                self.push(op, span);
            }
            ExKind::Unary(UnOp::Not, a) => {
                self.emit(a, Ty::Bool);
                self.push(Op::Not, span);
            }
            ExKind::Binary(op, a, b) => self.binary(*op, a, b, ty, span),
            ExKind::Ite(c, a, b) => {
                self.emit(c, Ty::Bool);
                let if_not = self.push(Op::IfNot(0), span);
                self.emit(a, ty);
                let jump = self.push(Op::Jump(0), span);
                self.patch(if_not);
                self.emit(b, ty);
                self.patch(jump);
            }
            ExKind::Call(f, args) => self.call(*f, args, ty, span),
            // `compile` hands such an expression to the tree evaluator whole.
            ExKind::Exactly(_) => unreachable!("a decision made exactly, in the bytecode"),
        }
    }

    fn binary(&mut self, op: BinOp, a: &Ex, b: &Ex, ty: Ty, span: Span) {
        let real = ty == Ty::Real;
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let want = if real { Ty::Real } else { Ty::Int };
                if !real && op != BinOp::Mul {
                    if let (ExKind::Var(x), Some(k)) = (&a.kind, self.int_const(b)) {
                        let k = if op == BinOp::Sub {
                            k.checked_neg()
                        } else {
                            Some(k)
                        };
                        if let Some(k) = k {
                            self.push(Op::LoadAdd(*x, k), span);
                            return;
                        }
                    }
                }
                self.emit(a, want);
                self.emit(b, want);
                let op = match (op, real) {
                    (BinOp::Add, false) => Op::AddI,
                    (BinOp::Sub, false) => Op::SubI,
                    (BinOp::Mul, false) => Op::MulI,
                    (BinOp::Add, true) => Op::AddR,
                    (BinOp::Sub, true) => Op::SubR,
                    _ => Op::MulR,
                };
                self.push(op, span);
                return;
            }
            BinOp::Div => {
                self.emit(a, Ty::Real);
                self.emit(b, Ty::Real);
                self.push(Op::DivR, span);
                // A division typed as an integer (not expected from the resolver) keeps
                // the integer part, like a `floor`.
                if ty == Ty::Int {
                    self.push(Op::FloorI, span);
                }
                return;
            }
            BinOp::And | BinOp::Or | BinOp::Implies => {
                self.emit(a, Ty::Bool);
                if op == BinOp::Implies {
                    self.push(Op::Not, span);
                }
                let jump = if op == BinOp::And {
                    Op::AndJump(0)
                } else {
                    Op::OrJump(0)
                };
                let at = self.push(jump, span);
                self.emit(b, Ty::Bool);
                self.patch(at);
                return;
            }
            BinOp::Iff => {
                self.emit(a, Ty::Bool);
                self.emit(b, Ty::Bool);
                self.push(Op::CmpI(Cmp::Eq), span);
                return;
            }
            _ => {}
        }
        let cmp = Cmp::of(op).expect("a comparison");
        if a.ty == Ty::Real || b.ty == Ty::Real {
            self.emit(a, Ty::Real);
            self.emit(b, Ty::Real);
            self.push(Op::CmpR(cmp), span);
            return;
        }
        match (&a.kind, &b.kind) {
            (ExKind::Var(x), _) if *x < self.vars => {
                if let Some(k) = self.int_const(b) {
                    self.push(Op::Test(*x, cmp, k), span);
                    return;
                }
            }
            (_, ExKind::Var(x)) if *x < self.vars => {
                if let Some(k) = self.int_const(a) {
                    self.push(Op::Test(*x, cmp.flip(), k), span);
                    return;
                }
            }
            _ => {}
        }
        // Integers and booleans compare as integers.
        self.emit(a, a.ty);
        self.emit(b, b.ty);
        self.push(Op::CmpI(cmp), span);
    }

    fn call(&mut self, f: Func, args: &[Ex], ty: Ty, span: Span) {
        let real = ty == Ty::Real;
        match f {
            Func::Min | Func::Max => {
                for (i, a) in args.iter().enumerate() {
                    self.emit(a, ty);
                    if i > 0 {
                        let op = match (f, real) {
                            (Func::Min, false) => Op::MinI,
                            (Func::Max, false) => Op::MaxI,
                            (Func::Min, true) => Op::MinR,
                            _ => Op::MaxR,
                        };
                        self.push(op, span);
                    }
                }
            }
            Func::Floor | Func::Ceil if args[0].ty == Ty::Int => {
                // Already whole: no detour through `f64`, which would round big integers.
                self.emit(&args[0], ty);
            }
            Func::Floor | Func::Ceil => {
                self.emit(&args[0], Ty::Real);
                let op = match (f, real) {
                    (Func::Floor, false) => Op::FloorI,
                    (Func::Ceil, false) => Op::CeilI,
                    (Func::Floor, true) => Op::FloorR,
                    _ => Op::CeilR,
                };
                self.push(op, span);
            }
            Func::Pow => {
                self.emit(&args[0], ty);
                self.emit(&args[1], ty);
                self.push(if real { Op::PowR } else { Op::PowI }, span);
            }
            Func::Mod => {
                self.emit(&args[0], Ty::Int);
                self.emit(&args[1], Ty::Int);
                self.push(Op::ModI, span);
                self.convert(Ty::Int, ty, span);
            }
            Func::Log => {
                self.emit(&args[0], Ty::Real);
                self.emit(&args[1], Ty::Real);
                self.push(Op::LogR, span);
            }
        }
    }
}
