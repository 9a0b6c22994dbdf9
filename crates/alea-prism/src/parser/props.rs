//! Property files: queries `P=? [...]`, `R{"r"}max=? [...]`, `T=? [...]`, bound queries
//! `P>=0.5 [...]`, their `filter(...)`s, and the `const`, `label` and `formula`
//! declarations among them.
//!
//! A property ends at `;` or at a line break; inside its brackets and parentheses line
//! breaks are free. Temporal operators beyond `F`, `U` and `C` with upper bounds are
//! refused with a message that names what is read instead.

use super::{Parser, MAX_DEPTH};
use crate::ast::{
    Bound, FilterOp, NamedProperty, Opt, Path, Property, PropertyFile, Query, Rel, RewardRef,
};
use crate::error::{Error, Result, Span};
use crate::lexer::{Kw, Tok};

/// What the message for an unsupported temporal operator says is read instead.
const READS: &str = "alea reads F, U, F<=k, U<=k and C<=k";

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
];

/// The operator letter of a query.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    P,
    R,
    T,
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

    /// A query within any number of filters. The filters are read with a stack, not by
    /// recursion: the opening of each, then the query, then the closings in reverse.
    fn property(&mut self) -> Result<Property> {
        let mut open = Vec::new();
        while self.peek() == Tok::Kw(Kw::Filter) {
            if open.len() >= MAX_DEPTH as usize {
                return Err(Error::new(
                    self.token().span,
                    format!("nesting is too deep: more than {MAX_DEPTH} filters within filters"),
                ));
            }
            open.push(self.filter_opening()?);
        }
        let mut property = self.query_or_refusal()?;
        while let Some((op, start)) = open.pop() {
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
                let line = self.line(start.start);
                return Err(self.expected(format_args!(
                    "{before} `)` to close the `filter(` at line {line}"
                )));
            }
            let close = self.bump();
            property = Property::Filter {
                op,
                property: Box::new(property),
                states,
                span: start.to(close.span),
            };
        }
        Ok(property)
    }

    /// A query, or the message for a kind of property that is not one.
    fn query_or_refusal(&mut self) -> Result<Property> {
        const EXPECTED: &str = "a property: `P=? [...]`, `R=? [...]`, `T=? [...]` or `filter(...)`";
        let t = self.token();
        if t.kind != Tok::Ident {
            return Err(self.expected(EXPECTED));
        }
        let word = self.slice(t.span);
        let not_supported = |what: &str| {
            Err(Error::new(
                t.span,
                format!("{what} is not supported; alea reads the queries P=?, R=? and T=?"),
            ))
        };
        match word {
            "P" | "Pmin" | "Pmax" | "R" | "Rmin" | "Rmax" | "T" | "Tmin" | "Tmax" => self.query(),
            "S" => not_supported("the steady-state operator `S`"),
            "E" | "A" => not_supported(&format!("the path quantifier `{word}`")),
            "LRA" => not_supported("the long-run average `LRA`"),
            "multi" => not_supported("multi-objective `multi(...)`"),
            _ => Err(self.expected(EXPECTED)),
        }
    }

    /// `filter(op,`: the operator and where the filter starts.
    fn filter_opening(&mut self) -> Result<(FilterOp, Span)> {
        let open = self.bump().span;
        self.expect(Tok::LParen, "`(` after `filter`")?;
        let t = self.token();
        let word = self.slice(t.span);
        let op = match FILTER_OPS.iter().find(|(w, _)| *w == word) {
            Some(&(_, op)) if t.kind == Tok::Ident => op,
            _ => {
                let list = "min, max, avg, sum, count, forall, exists, first or print";
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
        Ok((op, open))
    }

    /// `P=? [path]` and its relatives.
    fn query(&mut self) -> Result<Property> {
        let t = self.bump();
        let word = self.slice(t.span);
        let base = match &word[..1] {
            "P" => Base::P,
            "R" => Base::R,
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
                let threshold = self.expr()?;
                Some(Box::new(Bound { rel, threshold }))
            }
            None => None,
        };
        let open = self.expect(Tok::LBracket, "`[` and the path of the query")?;
        let path = self.path(base)?;
        let close = match self.peek() {
            Tok::RBracket => self.bump(),
            Tok::LBrace => {
                return Err(Error::new(
                    self.token().span,
                    "filters `{...}` inside a query are not supported; write `filter(op, property, states)`",
                ))
            }
            _ => {
                let line = self.line(open.span.start);
                return Err(self.expected(format_args!(
                    "an operator or `]` to close the `[` at line {line}"
                )));
            }
        };
        let op = match base {
            Base::P => Query::Probability(opt),
            Base::R => Query::Reward(reward, opt),
            Base::T => Query::Time(opt),
        };
        Ok(Property::Query {
            op,
            path,
            span: t.span.to(close.span),
            bound,
        })
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

    /// The path inside the brackets of a query.
    fn path(&mut self, base: Base) -> Result<Path> {
        let t = self.token();
        if t.kind == Tok::Ident {
            let word = self.slice(t.span);
            match word {
                "F" => {
                    self.bump();
                    let bound = self.bound("F")?;
                    let target = self.expr()?;
                    return Ok(Path::Eventually { bound, target });
                }
                "C" => {
                    if base != Base::R {
                        return Err(Error::new(
                            t.span,
                            "`C<=k` (the reward gathered in k steps) needs an `R` query",
                        ));
                    }
                    self.bump();
                    return match self.bound("C")? {
                        Some(bound) => Ok(Path::Cumulative { bound }),
                        None => Err(Error::new(
                            t.span,
                            format!("the total reward `C` is not supported; {READS}"),
                        )),
                    };
                }
                "G" | "X" => {
                    return Err(Error::new(
                        t.span,
                        format!("`{word}` is not supported; {READS}"),
                    ))
                }
                "I" if self.peek_at(1) == Tok::Eq => {
                    return Err(Error::new(
                        t.span,
                        format!("the instantaneous reward `I=k` is not supported; {READS}"),
                    ))
                }
                "S" if self.peek_at(1) == Tok::RBracket => {
                    return Err(Error::new(
                        t.span,
                        format!("the long-run reward `S` is not supported; {READS}"),
                    ))
                }
                _ => {}
            }
        }
        let left = self.expr()?;
        if self.at_word("U") {
            self.bump();
            let bound = self.bound("U")?;
            let right = self.expr()?;
            return Ok(Path::Until { left, right, bound });
        }
        if self.at_word("W") || self.at_word("R") {
            let t = self.token();
            return Err(Error::new(
                t.span,
                format!("`{}` is not supported; {READS}", self.slice(t.span)),
            ));
        }
        if self.peek() == Tok::RBracket {
            return Err(Error::new(
                left.span,
                format!(
                    "a path needs a temporal operator here, such as `F {}`; {READS}",
                    super::shorten(self.slice(left.span))
                ),
            ));
        }
        Err(self.expected("an operator, `U` or `]`"))
    }

    /// The bound after `F`, `U` or `C`: `<=k`, or nothing. `k` is read as a sum, so
    /// that `F<=10 x=1` is the bound 10 and the target `x=1`.
    fn bound(&mut self, op: &str) -> Result<Option<crate::ast::Expr>> {
        let t = self.token();
        let refuse = |what: String| {
            Err(Error::new(
                t.span,
                format!("{what} is not supported; {READS}"),
            ))
        };
        match t.kind {
            Tok::Le => {
                self.bump();
                let in_bound = std::mem::replace(&mut self.in_bound, true);
                let bound = self.expression(super::expr::SUM);
                self.in_bound = in_bound;
                Ok(Some(bound?))
            }
            Tok::Lt => refuse(format!("the strict bound `{op}<k` (write `{op}<=k-1`)")),
            Tok::Ge | Tok::Gt => refuse(format!("the lower bound `{op}{}k`", self.slice(t.span))),
            Tok::Eq => refuse(format!("the bound `{op}=k`")),
            Tok::LBracket => refuse(format!("the interval bound `{op}[a,b]`")),
            Tok::LBrace => refuse(format!("the reward bound `{op}{{...}}`")),
            _ => Ok(None),
        }
    }
}
