//! Model files: the model type, constants, global variables, formulas, labels, modules
//! (defined or renamed), reward structures and `init ... endinit`, in any order.
//!
//! Constructs of other kinds of model (`system ... endsystem`, clocks, invariants,
//! observables, games) are refused where they appear, with a message naming them,
//! rather than skipped: a model read without them would mean something else.

use super::{unsupported, Parser};
use crate::ast::{
    Assign, BinOp, Command, Constant, ExprKind, Formula, Label, Model, ModelType, Module, Player,
    RewardItem, RewardStruct, Type, Update, VarType, Variable,
};
use crate::error::{Error, Result, Span};
use crate::lexer::{Kw, Tok};

/// The names of model types that are not keywords (of tools other than PRISM, or of
/// extensions), recognised at the top of a file only to refuse them clearly.
const OTHER_MODEL_TYPES: &[&str] = &["ctmdp", "csg", "tsg", "ma", "lts"];

impl Parser<'_> {
    pub(super) fn model(&mut self) -> Result<Model> {
        let mut model = Model {
            // PRISM reads a file without a model type as an MDP.
            kind: ModelType::Mdp,
            kind_span: Span::new(0, 0),
            constants: Vec::new(),
            globals: Vec::new(),
            formulas: Vec::new(),
            labels: Vec::new(),
            modules: Vec::new(),
            rewards: Vec::new(),
            init: None,
            players: Vec::new(),
        };
        let mut kind_seen = false;
        let mut init_at: Option<usize> = None;
        loop {
            let t = self.token();
            match t.kind {
                Tok::Eof => break,
                Tok::Kw(
                    kw @ (Kw::Dtmc | Kw::Probabilistic | Kw::Mdp | Kw::Nondeterministic | Kw::Smg),
                ) => {
                    if kind_seen {
                        let line = self.line(model.kind_span.start);
                        return Err(Error::new(
                            t.span,
                            format!("the model type is given twice (first at line {line})"),
                        ));
                    }
                    self.bump();
                    kind_seen = true;
                    model.kind_span = t.span;
                    model.kind = match kw {
                        Kw::Dtmc | Kw::Probabilistic => ModelType::Dtmc,
                        Kw::Smg => ModelType::Smg,
                        _ => ModelType::Mdp,
                    };
                }
                Tok::Kw(Kw::Ctmc | Kw::Stochastic | Kw::Pta | Kw::Pomdp | Kw::Popta) => {
                    return Err(unsupported_type(self.slice(t.span), t.span))
                }
                Tok::Ident if OTHER_MODEL_TYPES.contains(&self.slice(t.span)) => {
                    return Err(unsupported_type(self.slice(t.span), t.span))
                }
                Tok::Ident if self.slice(t.span) == "player" => {
                    let p = self.player()?;
                    model.players.push(p);
                }
                Tok::Kw(Kw::Const) => {
                    let c = self.constant()?;
                    model.constants.push(c);
                }
                Tok::Kw(Kw::Global) => {
                    self.bump();
                    let v = self.variable(t.span.start)?;
                    model.globals.push(v);
                }
                Tok::Kw(Kw::Formula) => {
                    let f = self.formula()?;
                    model.formulas.push(f);
                }
                Tok::Kw(Kw::Label) => {
                    let l = self.label()?;
                    model.labels.push(l);
                }
                Tok::Kw(Kw::Module) => {
                    let m = self.module()?;
                    model.modules.push(m);
                }
                Tok::Kw(Kw::Rewards) => {
                    let r = self.rewards()?;
                    model.rewards.push(r);
                }
                Tok::Kw(Kw::Init) => {
                    if let Some(first) = init_at {
                        let line = self.line(first);
                        return Err(Error::new(
                            t.span,
                            format!("`init ... endinit` is given twice (first at line {line})"),
                        ));
                    }
                    init_at = Some(t.span.start);
                    self.bump();
                    let e = self.expr()?;
                    if self.eat(Tok::Kw(Kw::Endinit)).is_none() {
                        let line = self.line(t.span.start);
                        return Err(self.expected(format_args!(
                            "`endinit` to close the `init` at line {line}"
                        )));
                    }
                    model.init = Some(e);
                }
                Tok::Kw(Kw::System) => {
                    return Err(Error::new(
                        t.span,
                        "system ... endsystem is not supported; alea composes all the modules in parallel, synchronising on their shared actions (PRISM's default)",
                    ))
                }
                Tok::Kw(kw) if unsupported_keyword(kw).is_some() => {
                    let what = unsupported_keyword(kw).unwrap_or_default();
                    return Err(Error::new(t.span, unsupported(what)));
                }
                _ => return Err(self.expected(
                    "the model type or a declaration (`const`, `global`, `formula`, `label`, `module`, `rewards` or `init`)",
                )),
            }
        }
        Ok(model)
    }

    /// `const [int|double|bool] name [= value];` (in models and property files).
    pub(super) fn constant(&mut self) -> Result<Constant> {
        let start = self.bump().span.start;
        let ty = match self.peek() {
            Tok::Kw(Kw::Int) => Type::Int,
            Tok::Kw(Kw::Double) => Type::Double,
            Tok::Kw(Kw::Bool) => Type::Bool,
            // PRISM's default type for a constant.
            _ => Type::Int,
        };
        if matches!(self.peek(), Tok::Kw(Kw::Int | Kw::Double | Kw::Bool)) {
            self.bump();
        } else if self.peek() == Tok::Ident && self.peek_at(1) == Tok::Ident {
            // `const float p` or `const integer n`: a type this language does not have.
            let t = self.token();
            return Err(Error::new(
                t.span,
                format!(
                    "unknown type `{}` for a constant: expected `int`, `double` or `bool`",
                    super::shorten(self.slice(t.span))
                ),
            ));
        }
        let name = self.name("a name for the constant")?;
        let value = match self.eat(Tok::Eq) {
            Some(_) => Some(self.expr()?),
            None => None,
        };
        let what = match value {
            Some(_) => format!(
                "an operator or `;` after the value of the constant `{}`",
                name.name
            ),
            None => format!("`=` or `;` after the constant `{}`", name.name),
        };
        let end = self.expect(Tok::Semi, &what)?.span.end;
        Ok(Constant {
            name,
            ty,
            value,
            span: Span::new(start, end),
        })
    }

    /// `name : [lo..hi] [init e];` or `name : bool [init e];`, from its name (`start` is
    /// where `global` was, for a global).
    fn variable(&mut self, start: usize) -> Result<Variable> {
        let name = self.name("a name for the variable")?;
        let start = start.min(name.span.start);
        self.expect(
            Tok::Colon,
            format_args!("`:` and a type after the variable name `{}`", name.name),
        )?;
        let t = self.token();
        let ty = match t.kind {
            Tok::LBracket => {
                self.bump();
                let low = self.expr()?;
                self.expect(Tok::DotDot, "`..` between the bounds of the range")?;
                let high = self.expr()?;
                self.expect(Tok::RBracket, "`]` to close the range")?;
                VarType::Range(low, high)
            }
            Tok::Kw(Kw::Bool) => {
                self.bump();
                VarType::Bool
            }
            Tok::Kw(Kw::Int) => {
                return Err(Error::new(
                    t.span,
                    "unbounded `int` variables are not supported; give a range such as `[0..10]`",
                ))
            }
            Tok::Kw(Kw::Double) => return Err(Error::new(
                t.span,
                "`double` variables are not supported; variables are `bool` or ranges `[lo..hi]`",
            )),
            Tok::Kw(Kw::Clock) => {
                return Err(Error::new(
                    t.span,
                    unsupported("`clock` (of timed automata)"),
                ))
            }
            _ => {
                return Err(self.expected(format_args!(
                    "a range `[lo..hi]` or `bool` as the type of `{}`",
                    name.name
                )))
            }
        };
        let init = match self.eat(Tok::Kw(Kw::Init)) {
            Some(_) => Some(self.expr()?),
            None => None,
        };
        let end = self
            .expect(
                Tok::Semi,
                format_args!("`;` after the declaration of `{}`", name.name),
            )?
            .span
            .end;
        Ok(Variable {
            name,
            ty,
            init,
            span: Span::new(start, end),
        })
    }

    /// `formula name = expr;`
    pub(super) fn formula(&mut self) -> Result<Formula> {
        self.bump();
        let name = self.name("a name for the formula")?;
        self.expect(
            Tok::Eq,
            format_args!("`=` after the formula name `{}`", name.name),
        )?;
        let expr = self.expr()?;
        self.expect(
            Tok::Semi,
            format_args!("an operator or `;` after the formula `{}`", name.name),
        )?;
        Ok(Formula { name, expr })
    }

    /// `label "name" = expr;`
    pub(super) fn label(&mut self) -> Result<Label> {
        self.bump();
        let t = self.expect(Tok::Str, "a label name in quotes, such as `\"goal\"`")?;
        let name = self.label_name(t);
        self.expect(
            Tok::Eq,
            format_args!("`=` after the label \"{}\"", name.name),
        )?;
        let expr = self.expr()?;
        self.expect(
            Tok::Semi,
            format_args!("an operator or `;` after the label \"{}\"", name.name),
        )?;
        Ok(Label { name, expr })
    }

    /// `module M ... endmodule` or `module B = A [renames] endmodule`.
    /// `player NAME module, [action], ... endplayer` (the list may be empty).
    fn player(&mut self) -> Result<Player> {
        let open = self.bump().span;
        let name = self.name("a name for the player")?;
        let mut player = Player {
            name,
            modules: Vec::new(),
            actions: Vec::new(),
            span: open,
        };
        let mut first = true;
        loop {
            let t = self.token();
            if t.kind == Tok::Ident && self.slice(t.span) == "endplayer" {
                self.bump();
                player.span = open.to(t.span);
                return Ok(player);
            }
            if !first && self.eat(Tok::Comma).is_none() {
                let line = self.line(open.start);
                return Err(self.expected(format_args!(
                    "`,` and a module or `[action]`, or `endplayer` to close the `player` at \
                     line {line}"
                )));
            }
            first = false;
            if self.eat(Tok::LBracket).is_some() {
                let action = self.name("an action name in `[...]`")?;
                self.expect(Tok::RBracket, "`]` after the action")?;
                player.actions.push(action);
            } else if self.peek() == Tok::Ident {
                let module = self.name("a module")?;
                player.modules.push(module);
            } else {
                let line = self.line(open.start);
                return Err(self.expected(format_args!(
                    "a module or an `[action]` of the player, or `endplayer` to close the \
                     `player` at line {line}"
                )));
            }
        }
    }

    fn module(&mut self) -> Result<Module> {
        let open = self.bump().span;
        let name = self.name("a name for the module")?;
        if self.eat(Tok::Eq).is_some() {
            return self.renamed_module(open, name);
        }
        // Counting lines is linear, so it is done only for an error.
        let line = |p: &Self| p.line(open.start);
        let mut variables = Vec::new();
        let mut commands = Vec::new();
        let end = loop {
            match self.peek() {
                Tok::Kw(Kw::Endmodule) => break self.bump().span.end,
                Tok::LBracket => commands.push(self.command()?),
                Tok::Ident => variables.push(self.variable(self.token().span.start)?),
                // A keyword used as a variable name: let the declaration say so.
                Tok::Kw(_) if self.peek_at(1) == Tok::Colon => {
                    variables.push(self.variable(self.token().span.start)?)
                }
                Tok::Kw(Kw::Global) => {
                    return Err(Error::new(
                        self.token().span,
                        "global variables are declared outside modules",
                    ))
                }
                Tok::Kw(kw) if unsupported_keyword(kw).is_some() => {
                    let what = unsupported_keyword(kw).unwrap_or_default();
                    return Err(Error::new(self.token().span, unsupported(what)));
                }
                Tok::Eof => {
                    return Err(self.expected(format_args!(
                        "`endmodule` to close module `{}` (opened at line {})",
                        name.name,
                        line(self)
                    )))
                }
                _ => {
                    return Err(self.expected(format_args!(
                        "a variable, a command `[...] guard -> updates;` or `endmodule` to close module `{}` (opened at line {})",
                        name.name,
                        line(self)
                    )))
                }
            }
        };
        Ok(Module::Defined {
            name,
            variables,
            commands,
            span: Span::new(open.start, end),
        })
    }

    /// The rest of `module B = A [x=y, a=b] endmodule`, after the `=`.
    fn renamed_module(&mut self, open: Span, name: crate::ast::Ident) -> Result<Module> {
        let base = self.name("the name of the module to copy")?;
        self.expect(
            Tok::LBracket,
            format_args!(
                "`[` and the renamings after `module {} = {}`",
                name.name, base.name
            ),
        )?;
        let mut renames = Vec::new();
        if self.peek() != Tok::RBracket {
            loop {
                let old = self.name("a name to rename")?;
                self.expect(
                    Tok::Eq,
                    format_args!("`=` and the new name for `{}`", old.name),
                )?;
                let new = self.name("the new name")?;
                renames.push((old, new));
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
        }
        self.expect(Tok::RBracket, "`,` or `]` in the list of renamings")?;
        let end = self
            .expect(
                Tok::Kw(Kw::Endmodule),
                format_args!("`endmodule` to close module `{}`", name.name),
            )?
            .span
            .end;
        Ok(Module::Renamed {
            name,
            base,
            renames,
            span: Span::new(open.start, end),
        })
    }

    /// `[action] guard -> updates;`
    fn command(&mut self) -> Result<Command> {
        let open = self.bump().span;
        let action = match self.peek() {
            Tok::RBracket => None,
            _ => Some(self.name("an action name or `]`")?),
        };
        self.expect(Tok::RBracket, "`]` after the action name")?;
        let guard = self.expr()?;
        self.expect(Tok::Arrow, "an operator or `->` after the guard")?;
        let mut updates = vec![self.update()?];
        while self.eat(Tok::Plus).is_some() {
            updates.push(self.update()?);
        }
        let end = self.expect(Tok::Semi, "`;` after the command")?.span.end;
        Ok(Command {
            action,
            guard,
            updates,
            span: Span::new(open.start, end),
        })
    }

    /// `p : assignments` or, alone in a command, just `assignments`.
    fn update(&mut self) -> Result<Update> {
        let start = self.token().span.start;
        let prob = if self.at_assignments() {
            None
        } else if self.peek() == Tok::LBracket {
            // PRISM reads `[lo, hi] : ...` as an interval of probabilities, which makes
            // the model an interval chain or decision process: a model class of its own.
            return Err(Error::new(
                self.token().span,
                "an interval of probabilities `[lo, hi]` makes an interval Markov chain or \
                 decision process, which is not supported: give each update one probability",
            ));
        } else {
            let p = self.expr()?;
            if self.peek() != Tok::Colon {
                // `(x=1)` where `(x'=1)` was meant reads as a probability: say so.
                if let ExprKind::Binary(BinOp::Eq, var, _) = &p.kind {
                    if let ExprKind::Name(n) = &var.kind {
                        return Err(Error::new(
                            var.span,
                            format!(
                                "expected `'` after `{n}`: an assignment is written `({n}'=...)`"
                            ),
                        ));
                    }
                }
                return Err(self.expected("an operator or `:` after the probability of the update"));
            }
            self.bump();
            Some(p)
        };
        let (assigns, end) = self.assignments()?;
        Ok(Update {
            prob,
            assigns,
            span: Span::new(start, end),
        })
    }

    /// Whether the assignments start here, with no probability before them: `(x'` or
    /// `true` (but not `true :`, a probability, however odd). `x'` without parentheses
    /// counts too, to be refused with a hint.
    fn at_assignments(&self) -> bool {
        match self.peek() {
            Tok::LParen => self.peek_at(1) == Tok::Ident && self.peek_at(2) == Tok::Prime,
            Tok::Kw(Kw::True) => self.peek_at(1) != Tok::Colon,
            Tok::Ident => self.peek_at(1) == Tok::Prime,
            _ => false,
        }
    }

    /// `true`, or `(x'=e)` joined by `&`; returns them and where they end.
    fn assignments(&mut self) -> Result<(Vec<Assign>, usize)> {
        if let Some(t) = self.eat(Tok::Kw(Kw::True)) {
            return Ok((Vec::new(), t.span.end));
        }
        let mut assigns = Vec::new();
        loop {
            let t = self.token();
            if t.kind == Tok::Ident && self.peek_at(1) == Tok::Prime {
                let var = self.slice(t.span);
                return Err(Error::new(
                    t.span,
                    format!("an assignment is written in parentheses: `({var}'=...)`"),
                ));
            }
            let open = self.expect(Tok::LParen, "an assignment `(x'=...)` or `true`")?;
            let var = self.name("the name of the variable to assign")?;
            self.expect(
                Tok::Prime,
                format_args!(
                    "`'` after `{}` (an assignment is written `({}'=...)`)",
                    var.name, var.name
                ),
            )?;
            self.expect(Tok::Eq, format_args!("`=` after `{}'`", var.name))?;
            let value = self.expr()?;
            let close = self.expect(
                Tok::RParen,
                format_args!(
                    "an operator or `)` to close the assignment to `{}`",
                    var.name
                ),
            )?;
            assigns.push(Assign {
                var,
                value,
                span: Span::new(open.span.start, close.span.end),
            });
            if self.eat(Tok::And).is_none() {
                return Ok((assigns, close.span.end));
            }
        }
    }

    /// `rewards ["name"] items endrewards`.
    fn rewards(&mut self) -> Result<RewardStruct> {
        let open = self.bump().span;
        let name = self.eat(Tok::Str).map(|t| self.label_name(t));
        // Counting lines is linear, so it is done only for an error.
        let line = |p: &Self| p.line(open.start);
        let mut items = Vec::new();
        let end = loop {
            match self.peek() {
                Tok::Kw(Kw::Endrewards) => break self.bump().span.end,
                // Any other keyword cannot start an item: most likely `endrewards` was
                // forgotten.
                Tok::Kw(kw) if !matches!(kw, Kw::True | Kw::False | Kw::Func) => {
                    return Err(self.expected(format_args!(
                        "a reward `guard : value;` or `endrewards` to close the rewards at line {}",
                        line(self)
                    )))
                }
                Tok::Eof => {
                    return Err(self.expected(format_args!(
                        "`endrewards` to close the rewards at line {}",
                        line(self)
                    )))
                }
                _ => items.push(self.reward_item()?),
            }
        };
        Ok(RewardStruct {
            name,
            items,
            span: Span::new(open.start, end),
        })
    }

    /// `guard : value;` or `[action] guard : value;`
    fn reward_item(&mut self) -> Result<RewardItem> {
        let start = self.token().span.start;
        let action = match self.eat(Tok::LBracket) {
            None => None,
            Some(_) => {
                let a = match self.peek() {
                    Tok::RBracket => None,
                    _ => Some(self.name("an action name or `]`")?),
                };
                self.expect(Tok::RBracket, "`]` after the action name")?;
                Some(a)
            }
        };
        let guard = self.expr()?;
        self.expect(
            Tok::Colon,
            "an operator or `:` between the guard and the reward",
        )?;
        let value = self.expr()?;
        let end = self
            .expect(Tok::Semi, "an operator or `;` after the reward")?
            .span
            .end;
        Ok(RewardItem {
            action,
            guard,
            value,
            span: Span::new(start, end),
        })
    }
}

fn unsupported_type(word: &str, span: Span) -> Error {
    Error::new(
        span,
        format!("model type `{word}` is not supported; alea reads dtmc, mdp and smg models"),
    )
}

/// Keywords of constructs other kinds of model have, named for the message.
fn unsupported_keyword(kw: Kw) -> Option<&'static str> {
    match kw {
        Kw::Invariant | Kw::Endinvariant => {
            Some("`invariant ... endinvariant` (of timed automata)")
        }
        Kw::Clock => Some("`clock` (of timed automata)"),
        Kw::Rate => Some("`rate` (of continuous-time models)"),
        Kw::Observable | Kw::Observables | Kw::Endobservables => {
            Some("`observables` (of partially observable models)")
        }
        _ => None,
    }
}
