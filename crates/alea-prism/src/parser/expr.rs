//! Expressions. The precedences, from the loosest:
//!
//! | level | operators | associativity |
//! |---|---|---|
//! | conditional | `c ? a : b` | right |
//! | implication | `=>` | right |
//! | equivalence | `<=>` | left |
//! | or | `\|` | left |
//! | and | `&` | left |
//! | not | `!` (prefix) | |
//! | equality | `=` `!=` | left |
//! | comparison | `<` `<=` `>` `>=` | left |
//! | sum | `+` `-` | left |
//! | product | `*` `/` | left |
//! | power | `^` | right |
//! | negation | `-` (prefix) | |
//!
//! This is PRISM's own order (its manual lists `<=>` as binding tighter than `=>`).
//!
//! The reader does not recurse: it is an operator-precedence loop with an explicit
//! stack of pending operators, on which parentheses, calls and conditionals are open
//! groups too. So no input can exhaust the stack, however it nests; nesting is still
//! limited (to [`MAX_DEPTH`] open groups) to keep messages sensible, and the trees
//! built are limited in height (to [`MAX_HEIGHT`]) for the passes that walk them.

use super::{Parser, MAX_DEPTH, MAX_HEIGHT};
use crate::ast::{BinOp, Expr, ExprKind, Func, UnOp};
use crate::error::{Error, Result, Span};
use crate::lexer::{Kw, Tok, Token};

/// An expression with the height of its tree (a literal or a name is 1).
struct Node {
    expr: Expr,
    height: u32,
}

/// Precedences, from the loosest; the conditional is below them all.
const IMPLIES: u8 = 1;
const IFF: u8 = 2;
const OR: u8 = 3;
const AND: u8 = 4;
const NOT: u8 = 5;
pub(super) const EQUALITY: u8 = 6;
const COMPARISON: u8 = 7;
/// Where time bounds are read: `F<=k x=1` is the bound `k` and the target `x=1`.
pub(super) const SUM: u8 = 8;
const PRODUCT: u8 = 9;
const POWER: u8 = 10;
const NEG: u8 = 11;

/// A binary operator: one of the tree's, or `^`, which is the call `pow(a, b)`.
#[derive(Clone, Copy)]
enum Binary {
    Op(BinOp),
    Pow,
}

/// What waits on the stack for operands, or for the end of a group.
#[derive(Clone, Copy)]
enum Pending {
    Prefix {
        op: UnOp,
        prec: u8,
        start: usize,
    },
    Binary {
        op: Binary,
        prec: u8,
    },
    /// An open `(`.
    Paren {
        open: Span,
    },
    /// An open call, `args` of its arguments complete on the operand stack.
    Call {
        func: Func,
        name: Span,
        start: usize,
        args: usize,
    },
    /// `c ?`, waiting for its `:`.
    Question {
        at: Span,
    },
    /// `c ? a :`, waiting for its last operand. Not a group: it ends with the
    /// expression, like the right side of an operator.
    Colon,
}

impl Pending {
    /// Whether this is a group, closed by a token: `)` or `:`.
    fn is_group(self) -> bool {
        matches!(
            self,
            Pending::Paren { .. } | Pending::Call { .. } | Pending::Question { .. }
        )
    }
}

/// The binary operator a token is, with its precedence and whether it associates to
/// the right.
fn binary_op(t: Tok) -> Option<(Binary, u8, bool)> {
    let op = |op, prec| Some((Binary::Op(op), prec, false));
    match t {
        Tok::Implies => Some((Binary::Op(BinOp::Implies), IMPLIES, true)),
        Tok::Iff => op(BinOp::Iff, IFF),
        Tok::Or => op(BinOp::Or, OR),
        Tok::And => op(BinOp::And, AND),
        Tok::Eq => op(BinOp::Eq, EQUALITY),
        Tok::Ne => op(BinOp::Ne, EQUALITY),
        Tok::Lt => op(BinOp::Lt, COMPARISON),
        Tok::Le => op(BinOp::Le, COMPARISON),
        Tok::Gt => op(BinOp::Gt, COMPARISON),
        Tok::Ge => op(BinOp::Ge, COMPARISON),
        Tok::Plus => op(BinOp::Add, SUM),
        Tok::Minus => op(BinOp::Sub, SUM),
        Tok::Star => op(BinOp::Mul, PRODUCT),
        Tok::Slash => op(BinOp::Div, PRODUCT),
        Tok::Caret => Some((Binary::Pow, POWER, true)),
        _ => None,
    }
}

/// The functions, by the names they are called with.
const FUNCTIONS: &[(&str, Func)] = &[
    ("min", Func::Min),
    ("max", Func::Max),
    ("floor", Func::Floor),
    ("ceil", Func::Ceil),
    // PRISM's `round(x)`, the nearest integer with halves upward, is `floor(x + 0.5)`:
    // read so (see `close_call`), it needs nothing of its own downstream.
    ("round", Func::Floor),
    ("pow", Func::Pow),
    ("mod", Func::Mod),
    ("log", Func::Log),
];

const FUNCTION_LIST: &str = "min, max, floor, ceil, round, pow, mod, log";

fn function(name: &str) -> Option<Func> {
    FUNCTIONS.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
}

/// The largest exponent a real literal may have either way: beyond it a literal is not
/// a sensible probability or reward, and its exact value would be a huge number.
const MAX_EXPONENT: i64 = 1000;

/// The two stacks of the reader, kept by the parser between expressions so that their
/// memory is allocated once.
#[derive(Default)]
pub(super) struct Stacks {
    pending: Vec<Pending>,
    operands: Vec<Node>,
    /// How many groups are open on `pending`.
    groups: u32,
}

/// What the reader does after an operand.
enum Next {
    /// Read another operand.
    Operand,
    /// An operand is complete as it stands (a call closed), look for an operator.
    Operator,
    /// The expression is over.
    End,
}

fn internal() -> Error {
    Error::new(
        Span::default(),
        "internal error: the expression reader lost its place",
    )
}

impl Parser<'_> {
    /// A whole expression.
    pub(super) fn expr(&mut self) -> Result<Expr> {
        self.expression(0)
    }

    /// An expression of the binary operators of precedence `min` and above (all of them,
    /// and conditionals, for 0). Inside a group every operator is read.
    pub(super) fn expression(&mut self, min: u8) -> Result<Expr> {
        let mut s = std::mem::take(&mut self.stacks);
        let result = self.expression_in(&mut s, min);
        s.pending.clear();
        s.operands.clear();
        s.groups = 0;
        self.stacks = s;
        result
    }

    fn expression_in(&mut self, s: &mut Stacks, min: u8) -> Result<Expr> {
        let mut next = Next::Operand;
        loop {
            next = match next {
                Next::Operand => self.operand(s)?,
                Next::Operator => self.operator(s, min)?,
                Next::End => break,
            };
        }
        // Close what is still pending; an open group is a missing `)` or `:`.
        while let Some(&top) = s.pending.last() {
            if top.is_group() {
                return Err(self.unclosed(top));
            }
            self.reduce(s)?;
        }
        match (s.operands.pop(), s.operands.is_empty()) {
            (Some(node), true) => Ok(node.expr),
            _ => Err(internal()),
        }
    }

    /// Reads prefix operators and an operand, or opens a group.
    fn operand(&mut self, s: &mut Stacks) -> Result<Next> {
        let t = self.token();
        if self.in_property && self.at_operator() {
            // An operator of a property is an operand: read whole, by the property
            // reader (which may come back here for the state formulas inside it).
            let expr = self.operator_expr()?;
            s.operands.push(Node { expr, height: 1 });
            return Ok(Next::Operator);
        }
        match t.kind {
            Tok::Not | Tok::Minus => {
                self.bump();
                let (op, prec) = match t.kind {
                    Tok::Not => (UnOp::Not, NOT),
                    _ => (UnOp::Neg, NEG),
                };
                s.pending.push(Pending::Prefix {
                    op,
                    prec,
                    start: t.span.start,
                });
                Ok(Next::Operand)
            }
            Tok::LParen => {
                self.bump();
                self.open(s, Pending::Paren { open: t.span })?;
                Ok(Next::Operand)
            }
            Tok::Ident if self.peek_at(1) == Tok::LParen => {
                let word = self.slice(t.span);
                if self.in_property {
                    self.check_property_word(word, t.span)?;
                }
                match function(word) {
                    Some(func) => {
                        self.bump();
                        self.bump();
                        self.open_call(s, func, t.span, t.span.start)
                    }
                    // In a bound, `F<=k (x=1)` is the bound `k` and then the target.
                    None if self.in_bound && s.groups == 0 => self.leaf(s, t),
                    None => Err(Error::new(
                        t.span,
                        format!(
                            "unknown function `{}`: the functions are {FUNCTION_LIST}",
                            super::shorten(word)
                        ),
                    )),
                }
            }
            Tok::Kw(Kw::Func) => {
                self.bump();
                self.expect(Tok::LParen, "`(` after `func`")?;
                let f = self.token();
                let word = self.slice(f.span);
                let func = match (f.kind, function(word)) {
                    (Tok::Ident, Some(func)) => func,
                    (Tok::Ident, None) => {
                        return Err(Error::new(
                            f.span,
                            format!(
                                "unknown function `{}` in `func(...)`: the functions are {FUNCTION_LIST}",
                                super::shorten(word)
                            ),
                        ))
                    }
                    _ => return Err(self.expected("a function name in `func(...)`")),
                };
                self.bump();
                if self.peek() != Tok::RParen {
                    self.expect(Tok::Comma, "`,` after the function name in `func(...)`")?;
                }
                self.open_call(s, func, f.span, t.span.start)
            }
            Tok::Kw(Kw::True | Kw::False) | Tok::Int | Tok::Real | Tok::Str | Tok::Ident => {
                self.leaf(s, t)
            }
            Tok::Kw(k) => Err(Error::new(
                t.span,
                format!("expected an expression, found the keyword `{}`", k.as_str()),
            )),
            _ => Err(self.expected("an expression")),
        }
    }

    /// Pushes a literal, a label or a name.
    fn leaf(&mut self, s: &mut Stacks, t: Token) -> Result<Next> {
        let text = self.slice(t.span);
        let kind = match t.kind {
            Tok::Int => match text.parse::<i64>() {
                Ok(n) => ExprKind::Int(n),
                Err(_) => {
                    return Err(Error::new(
                        t.span,
                        format!(
                            "integer `{}` is too large (the largest is {})",
                            super::shorten(text),
                            i64::MAX
                        ),
                    ))
                }
            },
            Tok::Real => ExprKind::Real(real(text, t.span)?, text.to_string()),
            Tok::Kw(Kw::True) => ExprKind::Bool(true),
            Tok::Kw(Kw::False) => ExprKind::Bool(false),
            Tok::Str => ExprKind::Label(self.label_name(t).name),
            _ => {
                if self.in_property {
                    self.check_property_word(text, t.span)?;
                }
                ExprKind::Name(text.to_string())
            }
        };
        self.bump();
        s.operands.push(Node {
            expr: Expr { kind, span: t.span },
            height: 1,
        });
        Ok(Next::Operator)
    }

    /// Opens a group, within the nesting limit.
    fn open(&mut self, s: &mut Stacks, group: Pending) -> Result<()> {
        if s.groups >= MAX_DEPTH {
            return Err(Error::new(
                self.token().span,
                format!("nesting is too deep: more than {MAX_DEPTH} levels of parentheses, calls or conditionals"),
            ));
        }
        s.groups += 1;
        s.pending.push(group);
        Ok(())
    }

    /// Opens a call after its `(` (or `func(name,`); `f()` closes at once.
    fn open_call(&mut self, s: &mut Stacks, func: Func, name: Span, start: usize) -> Result<Next> {
        self.open(
            s,
            Pending::Call {
                func,
                name,
                start,
                args: 0,
            },
        )?;
        if self.peek() == Tok::RParen {
            let close = self.bump();
            self.close_call(s, close.span, false)?;
            return Ok(Next::Operator);
        }
        Ok(Next::Operand)
    }

    /// After an operand: an operator, the end of a group, or the end of the expression.
    fn operator(&mut self, s: &mut Stacks, min: u8) -> Result<Next> {
        let t = self.token();
        // `<<` is no comparison: it opens the coalition of the next property.
        let coalition = self.in_property && t.kind == Tok::Lt && self.peek_at(1) == Tok::Lt;
        if let Some((op, prec, right)) = binary_op(t.kind).filter(|_| !coalition) {
            if prec < min && s.groups == 0 {
                return Ok(Next::End);
            }
            // Apply what binds at least as tightly as the new operator (strictly more
            // tightly when it associates to the right).
            while let Some(&top) = s.pending.last() {
                let reduce = match top {
                    Pending::Prefix { prec: p, .. } => p >= prec,
                    Pending::Binary { prec: p, .. } => p > prec || (p == prec && !right),
                    _ => false,
                };
                if !reduce {
                    break;
                }
                self.reduce(s)?;
            }
            self.bump();
            s.pending.push(Pending::Binary { op, prec });
            return Ok(Next::Operand);
        }
        match t.kind {
            // `U` ends the left side of a path, but only at its top: within a group it is
            // a nested temporal operator.
            Tok::Ident if self.in_property && s.groups > 0 => {
                self.check_property_word(self.slice(t.span), t.span)?;
                Ok(Next::End)
            }
            Tok::Question if min == 0 || s.groups > 0 => {
                // The condition is everything back to the last group or `:`: the
                // conditional binds loosest.
                self.reduce_to_group(s, false)?;
                self.bump();
                self.open(s, Pending::Question { at: t.span })?;
                Ok(Next::Operand)
            }
            Tok::Colon | Tok::RParen | Tok::Comma => {
                // A pending `:` ends here too: `a ? b : c )` closes the conditional.
                match self.reduce_to_group(s, true)? {
                    Some(Pending::Question { .. }) if t.kind == Tok::Colon => {
                        self.bump();
                        s.groups -= 1;
                        s.pending.pop();
                        s.pending.push(Pending::Colon);
                        Ok(Next::Operand)
                    }
                    Some(Pending::Paren { open }) if t.kind == Tok::RParen => {
                        self.bump();
                        s.groups -= 1;
                        s.pending.pop();
                        // The parentheses belong to the span, so that an error about the
                        // expression underlines all of it.
                        let node = s.operands.last_mut().ok_or_else(internal)?;
                        node.expr.span = open.to(t.span);
                        Ok(Next::Operator)
                    }
                    Some(Pending::Call { .. }) if t.kind == Tok::RParen => {
                        self.bump();
                        self.close_call(s, t.span, true)?;
                        Ok(Next::Operator)
                    }
                    Some(Pending::Call {
                        func,
                        name,
                        start,
                        args,
                    }) if t.kind == Tok::Comma => {
                        self.bump();
                        s.pending.pop();
                        s.pending.push(Pending::Call {
                            func,
                            name,
                            start,
                            args: args + 1,
                        });
                        Ok(Next::Operand)
                    }
                    Some(group) => Err(self.unclosed(group)),
                    // Not ours: it ends the expression (`p : (x'=1)`, `(x'=e)`).
                    None => Ok(Next::End),
                }
            }
            _ => Ok(Next::End),
        }
    }

    /// Reduces the operators down to the innermost open group, which it returns (left on
    /// the stack). Pending `:`s are reduced only when `colons`.
    fn reduce_to_group(&self, s: &mut Stacks, colons: bool) -> Result<Option<Pending>> {
        while let Some(&top) = s.pending.last() {
            if top.is_group() {
                return Ok(Some(top));
            }
            if matches!(top, Pending::Colon) && !colons {
                return Ok(None);
            }
            self.reduce(s)?;
        }
        Ok(None)
    }

    /// Closes the call on top of the stack at its `)`; `last` when an argument ends
    /// there.
    fn close_call(&self, s: &mut Stacks, close: Span, last: bool) -> Result<()> {
        let Some(Pending::Call {
            func,
            name,
            start,
            args,
        }) = s.pending.pop()
        else {
            return Err(internal());
        };
        s.groups -= 1;
        let n = args + usize::from(last);
        let at = s.operands.len().checked_sub(n).ok_or_else(internal)?;
        let nodes = s.operands.split_off(at);
        let span = Span::new(start, close.end);
        let word = self.slice(name);
        let problem = match func {
            Func::Min | Func::Max if n == 0 => {
                Some(format!("`{word}` takes at least 1 argument, found 0"))
            }
            Func::Floor | Func::Ceil if n != 1 => {
                Some(format!("`{word}` takes 1 argument, found {n}"))
            }
            Func::Pow | Func::Mod | Func::Log if n != 2 => {
                Some(format!("`{word}` takes 2 arguments, found {n}"))
            }
            _ => None,
        };
        if let Some(message) = problem {
            return Err(Error::new(span, message));
        }
        let below = nodes.iter().map(|a| a.height).max().unwrap_or(0);
        let mut args: Vec<Expr> = nodes.into_iter().map(|a| a.expr).collect();
        if word == "round" {
            let x = args.pop().ok_or_else(internal)?;
            let at = x.span;
            let half = Expr {
                kind: ExprKind::Real(0.5, "0.5".into()),
                span: at,
            };
            args.push(Expr {
                kind: ExprKind::Binary(BinOp::Add, Box::new(x), Box::new(half)),
                span: at,
            });
        }
        let node = self.make(ExprKind::Call(func, args), span, below + 1)?;
        s.operands.push(node);
        Ok(())
    }

    /// The error for a group still open where the expression ends (at the current
    /// token).
    fn unclosed(&self, group: Pending) -> Error {
        match group {
            Pending::Paren { open } => self.expected(format_args!(
                "an operator or `)` to close the `(` at line {}",
                self.line(open.start)
            )),
            Pending::Call { name, .. } => self.expected(format_args!(
                "an operator, `,` or `)` in the arguments of `{}`",
                self.slice(name)
            )),
            Pending::Question { at } => self.expected(format_args!(
                "an operator or `:` for the `?` at line {} (a conditional is written `c ? a : b`)",
                self.line(at.start)
            )),
            _ => internal(),
        }
    }

    /// Applies the operator on top of the stack to the operands on top of theirs.
    fn reduce(&self, s: &mut Stacks) -> Result<()> {
        let op = s.pending.pop().ok_or_else(internal)?;
        let right = s.operands.pop().ok_or_else(internal)?;
        let node = match op {
            Pending::Prefix { op, start, .. } => {
                let span = Span::new(start, right.expr.span.end);
                let below = right.height;
                self.make(ExprKind::Unary(op, Box::new(right.expr)), span, below)?
            }
            Pending::Binary { op, .. } => {
                let left = s.operands.pop().ok_or_else(internal)?;
                let span = left.expr.span.to(right.expr.span);
                let below = left.height.max(right.height);
                let kind = match op {
                    Binary::Op(op) => {
                        ExprKind::Binary(op, Box::new(left.expr), Box::new(right.expr))
                    }
                    Binary::Pow => ExprKind::Call(Func::Pow, vec![left.expr, right.expr]),
                };
                self.make(kind, span, below)?
            }
            Pending::Colon => {
                let then = s.operands.pop().ok_or_else(internal)?;
                let cond = s.operands.pop().ok_or_else(internal)?;
                let span = cond.expr.span.to(right.expr.span);
                let below = cond.height.max(then.height).max(right.height);
                let kind = ExprKind::Ite(
                    Box::new(cond.expr),
                    Box::new(then.expr),
                    Box::new(right.expr),
                );
                self.make(kind, span, below)?
            }
            _ => return Err(internal()),
        };
        s.operands.push(node);
        Ok(())
    }

    /// Builds a node whose children have height `below`, checking [`MAX_HEIGHT`].
    fn make(&self, kind: ExprKind, span: Span, below: u32) -> Result<Node> {
        let height = below + 1;
        if height > MAX_HEIGHT {
            return Err(Error::new(
                span,
                format!(
                    "expression is too deeply nested: more than {MAX_HEIGHT} levels of operators"
                ),
            ));
        }
        Ok(Node {
            expr: Expr { kind, span },
            height,
        })
    }

    /// In a property, the temporal operator letters cannot be names: say what they are
    /// instead of failing later on the token after them.
    fn check_property_word(&self, word: &str, span: Span) -> Result<()> {
        match word {
            "F" | "G" | "X" | "U" | "W" => Err(Error::new(
                span,
                format!(
                    "`{word}` here is a temporal operator where a state formula is expected: \
                     put a path combined with others in parentheses, as in `(F a) & (G b)`"
                ),
            )),
            _ => Ok(()),
        }
    }
}

/// The value of a real literal, refusing ones too large for `f64` or with an absurd
/// exponent (whose exact value, read from the text, would be a huge number).
fn real(text: &str, span: Span) -> Result<f64> {
    let shown = super::shorten(text);
    if let Some(i) = text.find(['e', 'E']) {
        let digits = text[i + 1..].trim_start_matches(['+', '-']);
        let digits = digits.trim_start_matches('0');
        // More than four digits is out of range whatever they are.
        if digits.len() > 4 || digits.parse::<i64>().unwrap_or(0) > MAX_EXPONENT {
            return Err(Error::new(
                span,
                format!("number `{shown}` is out of range: exponents go up to {MAX_EXPONENT} either way"),
            ));
        }
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(Error::new(span, format!("number `{shown}` is too large"))),
    }
}
