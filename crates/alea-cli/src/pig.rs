//! `alea pig`: two-player Pig, the first player's chance under best play, advice for a
//! position, the whole optimal policy, and the best answer to a "hold at H" opponent.

use std::io::Write;

use clap::{Args, Subcommand};
use serde_json::{json, Value as Json};

use alea_core::{fraction, Exact, Value};
use alea_games::pig::{
    against, certify, certify_against, exact_words, solve, solve_within, Die, OverBudget, Policy,
    RuleError, Rules, Shape, Solved,
};

use crate::failure::Failure;
use crate::show::{table, Shown};

/// Decimal places printed.
const PLACES: usize = 15;

#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = concat!(
        "\
Input: none; the game comes from the options. Players alternate turns; a turn is a run \
of throws of one die (--faces, default 6): a 1 loses the turn total and ends the turn, any \
other face adds itself, and after each the player throws again or holds (banks the turn \
total). The first player whose banked score plus turn total reaches the goal (--goal, \
default 100) wins at once. --piglet throws a fair coin instead: tails loses the turn total, \
heads adds 1. Both players play to win.

  alea pig                                  # 0.530592725273747
  alea pig --goal 20 --exact                # 15116544/24557443
  alea pig hint --me 41 --opponent 49 --turn 27
  alea pig policy --piglet --goal 6
  alea pig --against hold-at-20",
        "\n\n",
        exit_codes!()
    )
)]
pub struct PigArgs {
    #[command(subcommand)]
    action: Option<Action>,
    #[command(flatten)]
    rules: RuleArgs,
    /// The chance as a reduced fraction p/q (exact arithmetic).
    #[arg(long)]
    exact: bool,
    /// JSON: first_player_wins, error_bound (a certified bound on its error; 0 with
    /// --exact), states, and first_player_wins_exact with --exact.
    #[arg(long)]
    json: bool,
    /// Play best against an opponent who holds as soon as its turn total reaches H (or
    /// the goal): print the best player's chance moving first and moving second.
    #[arg(long, value_name = "hold-at-H", value_parser = parse_against)]
    against: Option<u32>,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Roll or hold at one position: the chance of winning after each, and the loss of
    /// the worse.
    Hint(HintArgs),
    /// For every pair of scores, the smallest turn total at which the player to move
    /// holds, and where holding is not a threshold.
    Policy(PolicyArgs),
}

/// The game.
#[derive(Debug, Args)]
struct RuleArgs {
    /// The score that wins (1 to 1000000).
    #[arg(long, default_value_t = 100, value_name = "G")]
    goal: u32,
    /// Faces of the die (2 or more): face 1 loses the turn total, every other face adds
    /// itself.
    #[arg(long, default_value_t = 6, value_name = "F")]
    faces: u32,
    /// Piglet: a fair coin instead of the die; tails loses the turn total, heads adds 1.
    #[arg(long, conflicts_with = "faces")]
    piglet: bool,
}

impl RuleArgs {
    fn rules(&self) -> Result<Rules, Failure> {
        let die = if self.piglet {
            Die::Coin
        } else {
            Die::Faces(self.faces)
        };
        Rules::new(self.goal, die).map_err(|e| {
            let flag = match e {
                RuleError::Goal(_) => "--goal",
                RuleError::Faces(_) => "--faces",
            };
            Failure::bad_input(format!("{flag}: {e}"))
        })
    }
}

/// The guards.
#[derive(Debug, Args)]
struct LimitArgs {
    /// The most steps a solve may take: positions (banked score, opponent's score, turn
    /// total) times the outcomes of a throw, twice that with --against. Checked before
    /// starting. Pig to 100 takes 3 x 10^6 steps; the default, 5 x 10^8 (Pig to about 550),
    /// about a second, and five times as long with the certified bound of --json.
    #[arg(long, default_value_t = 500_000_000, value_name = "N")]
    max_work: u64,
    /// With --exact: the most work in word operations (steps times the machine words of
    /// the fractions, which grow with the goal, for Piglet far faster than for Pig);
    /// 5 x 10^6, the default, take a few seconds. Pig to 20 takes 70,000, Piglet to 10
    /// 6,000.
    #[arg(long, default_value_t = 5_000_000, value_name = "N")]
    max_exact_work: u64,
}

#[derive(Debug, Args)]
#[command(after_help = concat!(
    "\
The position: the player to move has banked --me, the opponent --opponent, and the \
turn so far totals --turn, a total a turn can reach (with a die a 1 loses the turn \
total, so totals are 2 or more; 0 is the start of a turn, where the player must throw), \
with --me plus --turn below the goal. The chances are the mover's, both players \
playing best from there; on an exact tie the hint holds.",
    "\n\n",
    exit_codes!()
))]
struct HintArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// The banked score of the player to move.
    #[arg(long, value_name = "I")]
    me: u64,
    /// The opponent's banked score.
    #[arg(long, value_name = "J")]
    opponent: u64,
    /// The turn total so far.
    #[arg(long, value_name = "K")]
    turn: u64,
    /// Chances as reduced fractions p/q (exact arithmetic).
    #[arg(long)]
    exact: bool,
    /// JSON: roll, hold, best ("roll" or "hold"), loss, error_bound (and roll_exact,
    /// hold_exact, loss_exact with --exact).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, Args)]
#[command(after_help = concat!(
    "\
The table: row I, column J is the smallest turn total at which the player to move, \
with I banked against the opponent's J, holds; goal - I when the player throws on to \
the goal. The optimal policy is not always a threshold: `+` marks the pairs where the \
player holds up to some total and throws on to the goal above it (near the goal most \
throws win outright), `*` those where it throws again between totals at which it holds \
(at 41 against 49: holds at 22 to 26, throws at 27, holds from 28). The lines below the \
table give the marked pairs' hold sets in full, as runs of the turn totals a turn can \
reach. On an exact tie the player holds; without --exact, decisions whose options the \
certified bounds cannot separate are listed as uncertain (none in the standard game).",
    "\n\n",
    exit_codes!()
))]
struct PolicyArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Decide in exact arithmetic.
    #[arg(long)]
    exact: bool,
    /// JSON: goal, threshold (an array of rows, one per banked score I, each indexed by
    /// the opponent's score J), exceptions (the pairs where holding is not a threshold,
    /// each with me, opponent and holds: [from, to] runs), uncertain.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

fn parse_against(text: &str) -> Result<u32, String> {
    let h = text
        .strip_prefix("hold-at-")
        .ok_or_else(|| format!("expected hold-at-H, like hold-at-20, not `{text}`"))?;
    match h.parse::<u32>() {
        Ok(h) if h >= 1 => Ok(h),
        _ => Err(format!(
            "expected hold-at-H with H a whole number from 1 on, not `{text}`"
        )),
    }
}

pub fn run(args: &PigArgs, out: &mut dyn Write) -> Result<(), Failure> {
    match &args.action {
        Some(Action::Hint(a)) => return run_hint(a, out),
        Some(Action::Policy(a)) => return run_policy(a, out),
        None => {}
    }
    let rules = args.rules.rules()?;
    if let Some(h) = args.against {
        return run_against(&rules, h, args, out);
    }
    let solved = Solution::of(&rules, args.exact, &args.limits)?;
    let states = u64::try_from(rules.states()).unwrap_or(u64::MAX);
    match solved {
        Solution::Exact(s) => {
            let p = s.first_player_wins();
            if args.json {
                let o = json!({
                    "first_player_wins": p.to_f64(),
                    "error_bound": 0.0,
                    "states": states,
                    "first_player_wins_exact": fraction(p),
                });
                writeln!(out, "{o}")?;
            } else {
                writeln!(out, "{}", fraction(p))?;
            }
        }
        Solution::Float(s) => {
            let p = *s.first_player_wins();
            if args.json {
                let bound = certify(&s).error_bound;
                let o = json!({
                    "first_player_wins": p,
                    "error_bound": bound,
                    "states": states,
                });
                writeln!(out, "{o}")?;
            } else {
                writeln!(out, "{p:.PLACES$}")?;
            }
        }
    }
    Ok(())
}

/// A solution in the arithmetic asked for.
enum Solution {
    Float(Solved<f64>),
    Exact(Solved<Exact>),
}

impl Solution {
    /// Checks the guards and solves.
    fn of(rules: &Rules, exact: bool, limits: &LimitArgs) -> Result<Solution, Failure> {
        check_work(rules, limits, 1)?;
        if exact {
            let s = solve_within::<Exact>(rules, &exact_words, limits.max_exact_work)
                .map_err(over_budget)?;
            if !s.settled {
                return Err(Failure::other(
                    "the exact solve did not settle; this is a bug, please report it",
                ));
            }
            Ok(Solution::Exact(s))
        } else {
            Ok(Solution::Float(solve::<f64>(rules)))
        }
    }
}

/// The guard checked before starting; `factor`: how many games of that size are solved
/// (2 with `--against`: one per seat).
fn check_work(rules: &Rules, limits: &LimitArgs, factor: u128) -> Result<(), Failure> {
    let work = rules.work() * factor;
    if work > u128::from(limits.max_work) {
        return Err(Failure::limit(format!(
            "the goal {} with {} takes {work} steps ({} positions x {} outcomes{}), above \
             --max-work {}; raise --max-work to compute it (the work grows with the cube \
             of the goal)",
            rules.goal(),
            rules.die(),
            rules.states() * factor,
            rules.outcomes(),
            if factor > 1 { ", both seats" } else { "" },
            limits.max_work
        )));
    }
    Ok(())
}

fn over_budget(e: OverBudget) -> Failure {
    Failure::limit(format!(
        "exact arithmetic passed --max-exact-work {} word operations before the end (the \
         fractions grow with the goal); raise --max-exact-work to go on",
        e.budget
    ))
}

fn run_against(rules: &Rules, h: u32, args: &PigArgs, out: &mut dyn Write) -> Result<(), Failure> {
    check_work(rules, &args.limits, 2)?;
    let states = u64::try_from(rules.states() * 2).unwrap_or(u64::MAX);
    let name = format!("hold-at-{h}");
    if args.exact {
        let s = against::<Exact>(rules, h, &exact_words, args.limits.max_exact_work)
            .map_err(over_budget)?;
        if !s.settled {
            return Err(Failure::other(
                "the exact solve did not settle; this is a bug, please report it",
            ));
        }
        let (first, second) = (s.moving_first(), s.moving_second());
        if args.json {
            let o = json!({
                "against": name,
                "moving_first": first.to_f64(),
                "moving_second": second.to_f64(),
                "error_bound": 0.0,
                "states": states,
                "moving_first_exact": fraction(first),
                "moving_second_exact": fraction(second),
            });
            writeln!(out, "{o}")?;
        } else {
            writeln!(out, "moving first: {}", fraction(first))?;
            writeln!(out, "moving second: {}", fraction(second))?;
        }
        return Ok(());
    }
    let s = against::<f64>(rules, h, &|_| 1, u64::MAX).map_err(over_budget)?;
    let (first, second) = (*s.moving_first(), *s.moving_second());
    if args.json {
        let o = json!({
            "against": name,
            "moving_first": first,
            "moving_second": second,
            "error_bound": certify_against(&s).error_bound,
            "states": states,
        });
        writeln!(out, "{o}")?;
    } else {
        writeln!(out, "moving first: {first:.PLACES$}")?;
        writeln!(out, "moving second: {second:.PLACES$}")?;
    }
    Ok(())
}

/// Checks a position against the rules, naming the option at fault.
fn check_position(rules: &Rules, a: &HintArgs) -> Result<(usize, usize, usize), Failure> {
    let g = u64::from(rules.goal());
    for (flag, score) in [("--me", a.me), ("--opponent", a.opponent)] {
        if score >= g {
            return Err(Failure::bad_input(format!(
                "{flag} {score}: a banked score is below the goal ({g}); at the goal the \
                 game is over"
            )));
        }
    }
    if a.turn == 0 {
        return Err(Failure::bad_input(format!(
            "--turn 0: a turn starts with a throw, so there is nothing to decide yet; give \
             the turn total after a throw ({} or more)",
            rules.first_total()
        )));
    }
    if !rules.reachable(a.turn) {
        let which = match rules.die() {
            Die::Faces(2) => "with a 2-sided die a turn total is even".to_string(),
            die => format!(
                "with {die} a 1 loses the turn total, so a turn's totals are 0 and 2 or more"
            ),
        };
        return Err(Failure::bad_input(format!(
            "--turn {}: no turn reaches that total ({which})",
            a.turn
        )));
    }
    if a.me + a.turn >= g {
        return Err(Failure::bad_input(format!(
            "--me {} --turn {}: {} reaches the goal ({g}), so the player has already won; \
             the banked score plus the turn total must be below the goal",
            a.me,
            a.turn,
            a.me + a.turn
        )));
    }
    Ok((a.me as usize, a.opponent as usize, a.turn as usize))
}

fn run_hint(a: &HintArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let rules = a.rules.rules()?;
    let (me, opponent, turn) = check_position(&rules, a)?;
    match Solution::of(&rules, a.exact, &a.limits)? {
        Solution::Exact(s) => hint(&s, a, (me, opponent, turn), 0.0, out),
        Solution::Float(s) => {
            // Only JSON shows the bound; the certificate takes longer than the solve.
            let bound = if a.json {
                certify(&s)
                    .options_error(&s, me, opponent, turn)
                    .expect("the position was checked")
            } else {
                0.0
            };
            hint(&s, a, (me, opponent, turn), bound, out)
        }
    }
}

fn hint<V: Shown>(
    s: &Solved<V>,
    a: &HintArgs,
    (me, opponent, turn): (usize, usize, usize),
    bound: f64,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let o = s
        .options(me, opponent, turn)
        .expect("the position was checked");
    let best = if o.holds() { "hold" } else { "roll" };
    let loss = o.loss();
    if a.json {
        let mut j = json!({
            "roll": o.roll.to_f64(),
            "hold": o.hold.to_f64(),
            "best": best,
            "loss": loss.to_f64(),
            "error_bound": bound,
        });
        if let (Some(r), Some(h), Some(l)) =
            (o.roll.exact_text(), o.hold.exact_text(), loss.exact_text())
        {
            j["roll_exact"] = json!(r);
            j["hold_exact"] = json!(h);
            j["loss_exact"] = json!(l);
        }
        writeln!(out, "{j}")?;
        return Ok(());
    }
    writeln!(
        out,
        "banked {me}, opponent {opponent}, turn total {turn} (goal {}, {})",
        s.rules().goal(),
        s.rules().die()
    )?;
    let zero = V::zero();
    let mut rows = [
        [
            "roll".to_string(),
            o.roll.text(PLACES),
            if o.holds() { &loss } else { &zero }.text(PLACES),
        ],
        [
            "hold".to_string(),
            o.hold.text(PLACES),
            if o.holds() { &zero } else { &loss }.text(PLACES),
        ],
    ];
    if o.holds() {
        rows.swap(0, 1);
    }
    table(out, ["option", "chance of winning", "loss"], &rows)?;
    writeln!(out, "best: {best}")?;
    Ok(())
}

fn run_policy(a: &PolicyArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let rules = a.rules.rules()?;
    let (policy, uncertain) = match Solution::of(&rules, a.exact, &a.limits)? {
        Solution::Exact(s) => (s.policy(), Vec::new()),
        Solution::Float(s) => {
            let uncertain = certify(&s).uncertain_decisions(&s);
            (s.policy(), uncertain)
        }
    };
    let g = rules.goal() as usize;
    if a.json {
        let threshold: Vec<Vec<u32>> = (0..g)
            .map(|i| (0..g).map(|j| policy.at(i, j).threshold()).collect())
            .collect();
        let exceptions: Vec<Json> = exceptions(&policy, g)
            .map(|(i, j)| {
                let runs: Vec<[u32; 2]> =
                    policy.at(i, j).runs.iter().map(|&(f, t)| [f, t]).collect();
                json!({ "me": i, "opponent": j, "holds": runs })
            })
            .collect();
        let uncertain: Vec<Json> = uncertain
            .iter()
            .map(|&(i, j, k)| json!({ "me": i, "opponent": j, "turn": k }))
            .collect();
        let o = json!({
            "goal": rules.goal(),
            "threshold": threshold,
            "exceptions": exceptions,
            "uncertain": uncertain,
        });
        writeln!(out, "{o}")?;
        return Ok(());
    }
    writeln!(
        out,
        "The smallest turn total at which the player to move holds (goal {}, {}); rows: \
         the player's banked score, columns: the opponent's. + marks where the player \
         holds up to some total and throws on to the goal above it, * where it throws \
         again between totals at which it holds; their hold sets follow the table.",
        rules.goal(),
        rules.die()
    )?;
    let width = g.to_string().len().max(2);
    let mut line = format!("{:>width$} |", "");
    for j in 0..g {
        line.push_str(&format!(" {j:>width$} "));
    }
    writeln!(out, "{}", line.trim_end())?;
    for i in 0..g {
        let mut line = format!("{i:>width$} |");
        for j in 0..g {
            let h = policy.at(i, j);
            let mark = match h.shape() {
                Shape::Threshold => ' ',
                Shape::ThrowsOnNearGoal => '+',
                Shape::Gaps => '*',
            };
            line.push_str(&format!(" {:>width$}{mark}", h.threshold()));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    let marked: Vec<(usize, usize)> = exceptions(&policy, g).collect();
    if !marked.is_empty() {
        writeln!(out)?;
        writeln!(out, "Hold sets of the pairs marked + or *:")?;
        for (i, j) in marked {
            let runs: Vec<String> = policy
                .at(i, j)
                .runs
                .iter()
                .map(|&(f, t)| {
                    if f == t {
                        f.to_string()
                    } else {
                        format!("{f}-{t}")
                    }
                })
                .collect();
            writeln!(out, "  {i} against {j}: holds at {}", runs.join(", "))?;
        }
    }
    if !uncertain.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "Uncertain (the options are closer than the certified error; --exact decides):"
        )?;
        for (i, j, k) in uncertain {
            writeln!(out, "  {i} against {j}, turn total {k}")?;
        }
    }
    Ok(())
}

/// The score pairs whose hold set is not a threshold, row by row.
fn exceptions(policy: &Policy, g: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    (0..g)
        .flat_map(move |i| (0..g).map(move |j| (i, j)))
        .filter(|&(i, j)| !policy.at(i, j).is_threshold())
}
