//! Property files: properties, and the `const`, `label` and `formula` declarations
//! among them.
//!
//! A property is an expression whose operands may be operators: queries `P=? [...]`,
//! `R{"r"}max=? [...]`, `T=? [...]`, `S=? [...]` with `=?` or a bound (`P>=0.5 [...]`),
//! the path quantifiers `E [...]` and `A [...]`, and `filter(...)`; operators nest in
//! the state formulas of paths. A property ends at `;` or at a line break; inside its
//! brackets and parentheses line breaks are free.

use super::{Parser, MAX_DEPTH};
use crate::ast::{
    BinOp, Bound, Coalition, Expr, ExprKind, FilterOp, Ident, Ltl, Missed, NamedProperty, Operator,
    Opt, Path, PlayerRef, PropertyFile, Query, Rel, RewardRef, Steps, Temporal, UnOp,
};
use crate::error::{Error, Result, Span};
use crate::lexer::{Kw, Tok};

const FILTER_OPS: &[(&str, FilterOp)] = &[
    ("min", FilterOp::Min),
    ("max", FilterOp::Max),
    ("avg", FilterOp::Avg),
    ("sum", FilterOp::Sum),
    ("count", FilterOp::Count),
    ("forall", FilterOp::Forall),
    ("exists", FilterOp::Exists),
    ("first", FilterOp::First),
    ("print", FilterOp::Print),
    ("printall", FilterOp::PrintAll),
    ("range", FilterOp::Range),
    ("state", FilterOp::State),
    ("argmin", FilterOp::ArgMin),
    ("argmax", FilterOp::ArgMax),
];

/// The words that open a query.
const QUERIES: &[&str] = &[
    "P", "Pmin", "Pmax", "R", "Rmin", "Rmax", "T", "Tmin", "Tmax", "S", "Smin", "Smax",
];

/// The operator letter of a query.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    P,
    R,
    T,
    S,
}

impl Parser<'_> {
    pub(super) fn properties(&mut self) -> Result<PropertyFile> {
        let mut file = PropertyFile::default();
        loop {
            while self.eat(Tok::Semi).is_some() {}
            match self.peek() {
                Tok::Eof => break,
                Tok::Kw(Kw::Const) => {
                    let c = self.constant()?;
                    file.constants.push(c);
                }
                Tok::Kw(Kw::Label) => {
                    let l = self.label()?;
                    file.labels.push(l);
                }
                Tok::Kw(Kw::Formula) => {
                    let f = self.formula()?;
                    file.formulas.push(f);
                }
                _ => {
                    let p = self.named_property()?;
                    file.properties.push(p);
                    let t = self.token();
                    if !(matches!(t.kind, Tok::Semi | Tok::Eof) || t.line_start) {
                        return Err(self.expected("`;` or a line break after the property"));
                    }
                }
            }
        }
        Ok(file)
    }

    /// `["name":] property`
    fn named_property(&mut self) -> Result<NamedProperty> {
        let start = self.token().span.start;
        let name = match (self.peek(), self.peek_at(1)) {
            (Tok::Str, Tok::Colon) => {
                let t = self.bump();
                self.bump();
                Some(self.label_name(t).name)
            }
            _ => None,
        };
        let property_start = self.token().span.start;
        self.in_property = true;
        let property = self.property();
        self.in_property = false;
        let property = property?;
        let end = self.prev_end();
        Ok(NamedProperty {
            name,
            property,
            text: self.text[property_start..end].trim().to_string(),
            span: Span::new(start, end),
        })
    }

    /// A property: an expression whose operands may be operators.
    fn property(&mut self) -> Result<Expr> {
        match self.peek() {
            Tok::Eof | Tok::Semi => Err(self.expected(
                "a property, such as `P=? [F \"goal\"]`, `R=? [...]`, `E [...]` or `filter(...)`",
            )),
            _ => self.expr(),
        }
    }

    /// Whether an operator starts at the current token (the expression reader asks, in a
    /// property, before it reads a name).
    pub(super) fn at_operator(&self) -> bool {
        let t = self.token();
        match t.kind {
            Tok::Kw(Kw::Filter) => self.peek_at(1) == Tok::LParen,
            // `<<` opens a coalition: two `<` in a row are nothing else.
            Tok::Lt => self.peek_at(1) == Tok::Lt,
            Tok::Ident => {
                let word = self.slice(t.span);
                let next = self.peek_at(1);
                match word {
                    "E" | "A" => next == Tok::LBracket,
                    "multi" | "LRA" => true,
                    w if QUERIES.contains(&w) => {
                        // `P [` is a query missing its `=?`: read it as one, to say so.
                        matches!(next, Tok::Lt | Tok::Le | Tok::Gt | Tok::Ge | Tok::LBracket)
                            || next == Tok::LBrace
                            // PRISM reserves P, R and S: `P=0.5` is a query missing its `?`.
                            || (next == Tok::Eq
                                && (self.peek_at(2) == Tok::Question || !w.starts_with('T')))
                            || (next == Tok::Ident
                            && matches!(
                                self.slice(self.tokens[self.pos + 1].span),
                                "min" | "max"
                            ))
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// The operator at the current token (see [`Parser::at_operator`]), as an expression.
    pub(super) fn operator_expr(&mut self) -> Result<Expr> {
        if self.nesting >= MAX_DEPTH {
            return Err(Error::new(
                self.token().span,
                format!("nesting is too deep: more than {MAX_DEPTH} operators within operators"),
            ));
        }
        self.nesting += 1;
        let result = self.operator_inner();
        self.nesting -= 1;
        result
    }

    fn operator_inner(&mut self) -> Result<Expr> {
        let t = self.token();
        if t.kind == Tok::Kw(Kw::Filter) {
            return self.filter();
        }
        if t.kind == Tok::Lt {
            return self.coalition_query();
        }
        let word = self.slice(t.span);
        let not_supported =
            |what: &str| Err(Error::new(t.span, format!("{what} is not supported yet")));
        match word {
            "E" | "A" => {
                self.bump();
                let (path, close) = self.bracketed_path(Base::P)?;
                Ok(Expr {
                    kind: ExprKind::Operator(Box::new(Operator::Quantified {
                        all: word == "A",
                        path,
                    })),
                    span: t.span.to(close),
                })
            }
            "LRA" => not_supported("the long-run average `LRA`"),
            "multi" => self.multi(),
            _ => self.query(),
        }
    }

    /// `multi(objective, ...)`: each objective a `P` or `R` query.
    fn multi(&mut self) -> Result<Expr> {
        let start = self.bump().span;
        let open = self.expect(Tok::LParen, "`(` after `multi`")?;
        let mut objectives = Vec::new();
        loop {
            let t = self.token();
            let word = self.slice(t.span);
            let is_query = t.kind == Tok::Ident
                && (word.starts_with('P') || word.starts_with('R'))
                && self.at_operator();
            if !is_query {
                return Err(self.expected(
                    "an objective of `multi`: a `P` or `R` query, such as `Pmax=? [F a]` or \
                     `R{\"cost\"}<=10 [C]`",
                ));
            }
            objectives.push(self.query()?);
            match self.peek() {
                Tok::Comma => {
                    self.bump();
                }
                Tok::RParen => break,
                _ => {
                    let line = self.line(open.span.start);
                    return Err(self.expected(format_args!(
                        "`,` and another objective, or `)` to close the `(` at line {line}"
                    )));
                }
            }
        }
        let close = self.bump().span;
        Ok(Expr {
            kind: ExprKind::Operator(Box::new(Operator::Multi { objectives })),
            span: start.to(close),
        })
    }

    /// `filter(op, property[, states])`
    fn filter(&mut self) -> Result<Expr> {
        let open = self.bump().span;
        self.expect(Tok::LParen, "`(` after `filter`")?;
        let t = self.token();
        let word = self.slice(t.span);
        let op = match FILTER_OPS.iter().find(|(w, _)| *w == word) {
            Some(&(_, op)) if t.kind == Tok::Ident => op,
            _ => {
                let list = "min, max, argmin, argmax, count, sum, avg, first, range, forall, \
                            exists, state, print or printall";
                let message = match t.kind {
                    Tok::Ident => format!(
                        "unknown filter operator `{}`: expected {list}",
                        super::shorten(word)
                    ),
                    Tok::Eof => {
                        format!("unexpected end of input: expected a filter operator ({list})")
                    }
                    _ => format!(
                        "expected a filter operator ({list}), found {}",
                        self.found()
                    ),
                };
                return Err(Error::new(t.span, message));
            }
        };
        self.bump();
        self.expect(Tok::Comma, "`,` after the filter operator")?;
        let property = self.expr()?;
        let states = match self.eat(Tok::Comma) {
            Some(_) => Some(self.expr()?),
            None => None,
        };
        if self.peek() != Tok::RParen {
            let before = if states.is_some() {
                "an operator or"
            } else {
                "`,` or"
            };
            let line = self.line(open.start);
            return Err(self.expected(format_args!(
                "{before} `)` to close the `filter(` at line {line}"
            )));
        }
        let close = self.bump();
        Ok(Expr {
            kind: ExprKind::Operator(Box::new(Operator::Filter {
                op,
                property,
                states,
            })),
            span: open.to(close.span),
        })
    }

    /// `<<players>> P...` or `<<players>> R...`: a query of a game for a coalition.
    fn coalition_query(&mut self) -> Result<Expr> {
        let open = self.bump().span;
        self.bump();
        let mut players = Vec::new();
        let mut every = false;
        // `<<>>` is the empty coalition: no player to read.
        let empty = self.peek() == Tok::Gt && self.peek_at(1) == Tok::Gt;
        if !empty {
            self.coalition_players(&mut players, &mut every)?;
        }
        let close = self.token();
        if !(close.kind == Tok::Gt && self.peek_at(1) == Tok::Gt) {
            return Err(self.expected("`,` and another player, or `>>` to close the coalition"));
        }
        self.bump();
        let end = self.bump().span;
        let coalition = Coalition {
            players,
            every,
            span: open.to(end),
        };
        let t = self.token();
        let word = self.slice(t.span);
        if !(t.kind == Tok::Ident && (word.starts_with('P') || word.starts_with('R')))
            || !QUERIES.contains(&word)
        {
            return Err(self.expected(
                "`P` or `R` after the coalition (`<<p1>> Pmax=? [...]`, `<<p1>> Rmin=? [...]`)",
            ));
        }
        let mut query = self.query()?;
        // The query itself, or within the filter that a `{...}` after its path makes.
        let mut at = &mut query;
        while let ExprKind::Operator(op) = &mut at.kind {
            match &mut **op {
                Operator::Query { coalition: c, .. } => {
                    *c = Some(coalition);
                    break;
                }
                Operator::Filter { property, .. } => at = property,
                Operator::Quantified { .. } | Operator::Multi { .. } => break,
            }
        }
        query.span = open.to(query.span);
        Ok(query)
    }

    /// The players of a coalition up to its `>>`: names, numbers, or `*` alone.
    fn coalition_players(&mut self, players: &mut Vec<PlayerRef>, every: &mut bool) -> Result<()> {
        loop {
            let t = self.token();
            match t.kind {
                Tok::Star if players.is_empty() && !*every => {
                    self.bump();
                    *every = true;
                }
                Tok::Ident if !*every => {
                    self.bump();
                    players.push(PlayerRef::Name(Ident {
                        name: self.slice(t.span).to_string(),
                        span: t.span,
                    }));
                }
                Tok::Int if !*every => {
                    self.bump();
                    let n = self.slice(t.span).parse::<i64>().unwrap_or(i64::MAX);
                    players.push(PlayerRef::Number(n, t.span));
                }
                _ => {
                    return Err(self.expected(
                        "a player of the coalition: its name, its number (from 1) or `*` alone",
                    ))
                }
            }
            if self.eat(Tok::Comma).is_none() {
                break;
            }
        }
        Ok(())
    }

    /// `P=? [path]` and its relatives.
    fn query(&mut self) -> Result<Expr> {
        let t = self.bump();
        let word = self.slice(t.span);
        let base = match &word[..1] {
            "P" => Base::P,
            "R" => Base::R,
            "S" => Base::S,
            _ => Base::T,
        };
        let mut opt = match &word[1..] {
            "min" => Opt::Min,
            "max" => Opt::Max,
            _ => Opt::None,
        };
        let mut reward = None;
        // `R{"r"}max=?` as PRISM writes it, `Rmax{"r"}=?`, and `P min=?` all mean the
        // same; take the pieces in any of these orders.
        loop {
            if self.peek() == Tok::LBrace {
                let brace = self.token().span;
                if base != Base::R {
                    return Err(Error::new(
                        brace,
                        format!("only `R` takes a reward structure `{{...}}`, not `{word}`"),
                    ));
                }
                if reward.is_some() {
                    return Err(Error::new(brace, "the reward structure is given twice"));
                }
                reward = Some(self.reward_ref()?);
            } else if opt == Opt::None && (self.at_word("min") || self.at_word("max")) {
                opt = if self.at_word("min") {
                    Opt::Min
                } else {
                    Opt::Max
                };
                self.bump();
            } else {
                break;
            }
        }
        let relation = self.token();
        let rel = match relation.kind {
            Tok::Eq if self.peek_at(1) == Tok::Question => {
                self.bump();
                self.bump();
                None
            }
            Tok::Lt => Some(Rel::Lt),
            Tok::Le => Some(Rel::Le),
            Tok::Gt => Some(Rel::Gt),
            Tok::Ge => Some(Rel::Ge),
            Tok::Eq => {
                return Err(Error::new(
                    relation.span,
                    format!(
                        "`{word}=` needs `?` (`{word}=?` asks for the value); a bound is \
                         written with `>=`, `>`, `<=` or `<`"
                    ),
                ))
            }
            _ => {
                return Err(self.expected(format_args!(
                    "`=?`, or a bound such as `>=0.5`, after `{word}`"
                )))
            }
        };
        let bound = match rel {
            Some(rel) => {
                self.bump();
                // The threshold is a sum at most, so that `P>=0.5 [...]` ends at `[`.
                let threshold = self.expression(super::expr::SUM)?;
                Some(Box::new(Bound { rel, threshold }))
            }
            None => None,
        };
        let open = self.expect(Tok::LBracket, "`[` and the path of the operator")?;
        let path = if base == Base::S {
            Path::Steady {
                target: self.expr()?,
            }
        } else {
            self.path(base)?
        };
        let filter = self.inner_filter()?;
        let close = self.close_bracket(open.span)?;
        let op = match base {
            Base::P => Query::Probability(opt),
            Base::R => Query::Reward(reward, opt),
            Base::T => Query::Time(opt),
            Base::S => Query::Steady(opt),
        };
        let query = Expr {
            kind: ExprKind::Operator(Box::new(Operator::Query {
                op,
                path,
                bound,
                coalition: None,
            })),
            span: t.span.to(close),
        };
        Ok(match filter {
            None => query,
            Some((op, states)) => Expr {
                kind: ExprKind::Operator(Box::new(Operator::Filter {
                    op,
                    property: query.clone(),
                    states: Some(states),
                })),
                span: query.span,
            },
        })
    }

    /// PRISM's older filter inside a query, after its path: `{states}`, then `{min}`,
    /// `{max}` or both, read as `filter(first, ...)`, `filter(min, ...)`,
    /// `filter(max, ...)` or `filter(range, ...)` of the query over the states.
    fn inner_filter(&mut self) -> Result<Option<(FilterOp, Expr)>> {
        if self.peek() != Tok::LBrace {
            return Ok(None);
        }
        self.bump();
        let states = self.expr()?;
        self.expect(Tok::RBrace, "`}` after the states of the filter")?;
        let (mut min, mut max) = (false, false);
        while self.peek() == Tok::LBrace {
            self.bump();
            if self.at_word("min") {
                min = true;
            } else if self.at_word("max") {
                max = true;
            } else {
                return Err(self.expected("`min` or `max` in a filter's `{...}`"));
            }
            self.bump();
            self.expect(Tok::RBrace, "`}` after `min` or `max`")?;
        }
        let op = match (min, max) {
            (false, false) => FilterOp::First,
            (true, false) => FilterOp::Min,
            (false, true) => FilterOp::Max,
            (true, true) => FilterOp::Range,
        };
        Ok(Some((op, states)))
    }

    /// `[path]`, and where it closes.
    fn bracketed_path(&mut self, base: Base) -> Result<(Path, Span)> {
        let open = self.expect(Tok::LBracket, "`[` and the path of the operator")?;
        let path = self.path(base)?;
        Ok((path, self.close_bracket(open.span)?))
    }

    /// The `]` that closes the `[` at `open`.
    fn close_bracket(&mut self, open: Span) -> Result<Span> {
        match self.peek() {
            Tok::RBracket => Ok(self.bump().span),
            Tok::And | Tok::Or | Tok::Implies | Tok::Iff => {
                // A path joined to another without parentheses: say how to write it
                // rather than only that the `]` is missing.
                let t = self.token();
                Err(Error::new(
                    t.span,
                    format!(
                        "`{}` here combines paths: put each in parentheses, as in \
                         `(F a) & (G b)`",
                        self.slice(t.span),
                    ),
                ))
            }
            _ => {
                let line = self.line(open.start);
                Err(self.expected(format_args!(
                    "an operator or `]` to close the `[` at line {line}"
                )))
            }
        }
    }

    /// `{"name"}` or `{2}` after `R`.
    fn reward_ref(&mut self) -> Result<RewardRef> {
        self.bump();
        let t = self.token();
        let reward = match t.kind {
            Tok::Str => RewardRef::Name(self.label_name(t)),
            Tok::Int => match self.slice(t.span).parse::<i64>() {
                Ok(n) if n >= 1 => RewardRef::Index(n, t.span),
                _ => {
                    return Err(Error::new(
                        t.span,
                        "reward structures are numbered from 1 (in the order of the model)",
                    ))
                }
            },
            _ => {
                return Err(self.expected(
                    "a reward structure name in quotes, such as `\"cost\"`, or its number",
                ))
            }
        };
        self.bump();
        self.expect(Tok::RBrace, "`}` after the reward structure")?;
        Ok(reward)
    }

    /// The path inside the brackets of an operator: a reward path (`C<=k`, `I=k`, `S`,
    /// `Fc`, `F0`), or a path of LTL, brought to the plain forms (`F phi`, `phi U psi`,
    /// ...) where it is one.
    fn path(&mut self, base: Base) -> Result<Path> {
        let t = self.token();
        if t.kind == Tok::Ident {
            let word = self.slice(t.span);
            let reward_only = |what: &str| {
                Err(Error::new(
                    t.span,
                    format!("`{what}` is a reward path: it needs an `R` operator"),
                ))
            };
            match word {
                "Fc" | "F0" if base == Base::R => {
                    self.bump();
                    let target = self.expr()?;
                    let missed = match word {
                        "Fc" => Missed::Gathered,
                        _ => Missed::Zero,
                    };
                    return Ok(Path::Reach {
                        target,
                        missed,
                        span: t.span,
                    });
                }
                "C" if !matches!(self.peek_at(1), Tok::LParen) => {
                    if base != Base::R {
                        return reward_only("C");
                    }
                    self.bump();
                    return match self.steps("C")? {
                        None => Ok(Path::Cumulative { bound: None }),
                        Some(Steps {
                            from: None,
                            to: Some((k, false)),
                            ..
                        }) => Ok(Path::Cumulative { bound: Some(k) }),
                        Some(steps) => Err(Error::new(
                            steps.span,
                            "the cumulative reward takes `C<=k` or `C` alone",
                        )),
                    };
                }
                "I" if self.peek_at(1) == Tok::Eq => {
                    if base != Base::R {
                        return reward_only("I=k");
                    }
                    self.bump();
                    self.bump();
                    let at = self.step_bound()?;
                    return Ok(Path::Instant { at });
                }
                "S" if self.peek_at(1) == Tok::RBracket => {
                    if base != Base::R {
                        return reward_only("S");
                    }
                    self.bump();
                    return Ok(Path::LongRun);
                }
                _ => {}
            }
        }
        let start = self.token().span.start;
        let formula = self.ltl_path()?;
        let span = Span::new(start, self.prev_end());
        Ok(plain(formula, span))
    }

    /// A path: unary ones, perhaps joined by `U`, `W` or `R` (which do not chain
    /// without parentheses, as in PRISM).
    fn ltl_path(&mut self) -> Result<Ltl> {
        let left = self.ltl_unary()?;
        let op = if self.at_word("U") {
            Temporal::Until
        } else if self.at_word("W") {
            Temporal::WeakUntil
        } else if self.at_word("R") && !matches!(self.peek_at(1), Tok::LBrace) {
            Temporal::Release
        } else {
            return Ok(left);
        };
        let t = self.bump();
        let word = self.slice(t.span);
        let bound = self.steps(word)?;
        let right = self.ltl_unary()?;
        Ok(Ltl::Until(op, bound, Box::new(left), Box::new(right)))
    }

    /// `X`, `F` or `G` (with steps) before a path, or a boolean combination.
    fn ltl_unary(&mut self) -> Result<Ltl> {
        let t = self.token();
        if t.kind == Tok::Ident {
            let word = self.slice(t.span);
            if matches!(word, "F" | "G" | "X") {
                self.bump();
                let bound = if word == "X" { None } else { self.steps(word)? };
                let inner = Box::new(self.ltl_unary()?);
                return Ok(match word {
                    "X" => Ltl::Next(inner),
                    "F" => Ltl::Eventually(bound, inner),
                    _ => Ltl::Globally(bound, inner),
                });
            }
        }
        self.ltl_binary(0)
    }

    /// The boolean operators over paths, from `=>` (level 0: right to left) through
    /// `<=>`, `|` and `&` (left to right) to `!`.
    fn ltl_binary(&mut self, level: usize) -> Result<Ltl> {
        const LEVELS: [(Tok, BinOp); 4] = [
            (Tok::Implies, BinOp::Implies),
            (Tok::Iff, BinOp::Iff),
            (Tok::Or, BinOp::Or),
            (Tok::And, BinOp::And),
        ];
        let Some(&(tok, op)) = LEVELS.get(level) else {
            if self.peek() == Tok::Not {
                let t = self.bump();
                let inner = self.ltl_binary(level)?;
                return Ok(match inner {
                    Ltl::State(e) => {
                        let span = t.span.to(e.span);
                        Ltl::State(Expr {
                            kind: ExprKind::Unary(UnOp::Not, Box::new(e)),
                            span,
                        })
                    }
                    other => Ltl::Not(Box::new(other)),
                });
            }
            return self.ltl_atom();
        };
        let mut left = self.ltl_binary(level + 1)?;
        while self.peek() == tok {
            self.bump();
            let right = if op == BinOp::Implies {
                self.ltl_binary(level)?
            } else {
                self.ltl_binary(level + 1)?
            };
            left = join(op, left, right);
            if op == BinOp::Implies {
                break;
            }
        }
        Ok(left)
    }

    /// A path in parentheses, or a state formula (an expression down to `=`).
    fn ltl_atom(&mut self) -> Result<Ltl> {
        if self.peek() == Tok::LParen && self.paren_holds_path() {
            let open = self.bump();
            let inner = self.ltl_path()?;
            if self.peek() != Tok::RParen {
                let line = self.line(open.span.start);
                return Err(self.expected(format_args!(
                    "`)` to close the `(` at line {line} around the path"
                )));
            }
            self.bump();
            return Ok(inner);
        }
        Ok(Ltl::State(self.expression(super::expr::EQUALITY)?))
    }

    /// Whether the `(` at the current token holds a path: a temporal operator inside
    /// it, at any depth of parentheses (not inside another operator's brackets), where
    /// an operand starts (`F`, `G`, `X`) or between two (`U`, `W`, `R`).
    fn paren_holds_path(&self) -> bool {
        let mut open: Vec<Tok> = Vec::new();
        let mut i = self.pos + 1;
        // Whether the token before starts an operand after it.
        let mut operand_next = true;
        while let Some(t) = self.tokens.get(i) {
            let mut starts = false;
            match t.kind {
                Tok::LParen | Tok::LBracket | Tok::LBrace => {
                    open.push(t.kind);
                    starts = true;
                }
                Tok::RParen | Tok::RBracket | Tok::RBrace if open.pop().is_none() => return false,
                Tok::Eof | Tok::Semi => return false,
                Tok::Not | Tok::And | Tok::Or | Tok::Implies | Tok::Iff => starts = true,
                Tok::Ident if open.iter().all(|&k| k == Tok::LParen) => {
                    let word = self.slice(t.span);
                    let next = self.tokens.get(i + 1).map_or(Tok::Eof, |t| t.kind);
                    if operand_next && matches!(word, "F" | "G" | "X") {
                        return true;
                    }
                    if !operand_next
                        && matches!(word, "U" | "W" | "R")
                        && !matches!(
                            next,
                            Tok::LBrace
                                | Tok::LBracket
                                | Tok::Eq
                                | Tok::Lt
                                | Tok::Le
                                | Tok::Gt
                                | Tok::Ge
                        )
                    {
                        return true;
                    }
                }
                _ => {}
            }
            operand_next = starts;
            i += 1;
        }
        false
    }

    /// A step count: an expression read as a sum, so that `F<=10 x=1` is the bound 10
    /// and the target `x=1`.
    fn step_bound(&mut self) -> Result<Expr> {
        let in_bound = std::mem::replace(&mut self.in_bound, true);
        let bound = self.expression(super::expr::SUM);
        self.in_bound = in_bound;
        bound
    }

    /// The steps after `F`, `G`, `U`, `W`, `R` or `C`: `<=k`, `<k`, `>=k`, `>k`, `=k`,
    /// `[a,b]`, or nothing.
    fn steps(&mut self, op: &str) -> Result<Option<Steps>> {
        let t = self.token();
        // `F <<1>> P>=0.5 [...]`: a coalition's operator, not a bound.
        if t.kind == Tok::Lt && self.peek_at(1) == Tok::Lt {
            return Ok(None);
        }
        let (from, to) = match t.kind {
            Tok::Le | Tok::Lt => {
                self.bump();
                (None, Some((self.step_bound()?, t.kind == Tok::Lt)))
            }
            Tok::Ge | Tok::Gt => {
                self.bump();
                (Some((self.step_bound()?, t.kind == Tok::Gt)), None)
            }
            Tok::Eq => {
                self.bump();
                let k = self.step_bound()?;
                (Some((k.clone(), false)), Some((k, false)))
            }
            Tok::LBracket => {
                self.bump();
                let a = self.expr()?;
                self.expect(Tok::Comma, "`,` between the first and the last step")?;
                let b = self.expr()?;
                self.expect(Tok::RBracket, "`]` after the last step")?;
                (Some((a, false)), Some((b, false)))
            }
            Tok::LBrace => {
                return Err(Error::new(
                    t.span,
                    format!("the reward bound `{op}{{...}}` is not supported"),
                ))
            }
            _ => return Ok(None),
        };
        Ok(Some(Steps {
            from,
            to,
            span: t.span.to(Span::new(self.prev_end(), self.prev_end())),
        }))
    }
}

/// `left op right`, one state formula where both are.
fn join(op: BinOp, left: Ltl, right: Ltl) -> Ltl {
    match (left, right) {
        (Ltl::State(l), Ltl::State(r)) => {
            let span = l.span.to(r.span);
            Ltl::State(Expr {
                kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
                span,
            })
        }
        (l, r) => Ltl::Binary(op, Box::new(l), Box::new(r)),
    }
}

/// A path of LTL as one of the plain paths where it is one (a temporal operator over
/// state formulas), which the checker answers without an automaton.
fn plain(formula: Ltl, span: Span) -> Path {
    match formula {
        Ltl::Eventually(bound, inner) if matches!(*inner, Ltl::State(_)) => {
            let Ltl::State(target) = *inner else {
                unreachable!()
            };
            Path::Eventually { bound, target }
        }
        Ltl::Globally(bound, inner) if matches!(*inner, Ltl::State(_)) => {
            let Ltl::State(target) = *inner else {
                unreachable!()
            };
            Path::Globally { bound, target }
        }
        Ltl::Next(inner) if matches!(*inner, Ltl::State(_)) => {
            let Ltl::State(target) = *inner else {
                unreachable!()
            };
            Path::Next { target }
        }
        Ltl::Until(op, bound, l, r)
            if matches!(*l, Ltl::State(_)) && matches!(*r, Ltl::State(_)) =>
        {
            let (Ltl::State(left), Ltl::State(right)) = (*l, *r) else {
                unreachable!()
            };
            Path::Until {
                op,
                left,
                right,
                bound,
            }
        }
        formula => Path::Ltl {
            formula: Box::new(formula),
            span,
        },
    }
}
