//! What every front end of the solitaire game (the command line, its web server, the
//! Python package) does alike around the solver: the tables it keeps, the guards on a
//! position and on the games asked for, and the choice between the exact distribution
//! and a simulated one.
//!
//! Written once here so that the front ends cannot drift apart in what they refuse or
//! compute; only the way a setting is named differs between them (`--max-games 10` on
//! the command line, `max_games 10` in Python), so a front end supplies it, as it does
//! for [`crate::snakes::analysis`].

use std::sync::OnceLock;

use super::advise::Card;
use super::dice::Counts;
use super::distribution::{exact_scores, open_boxes, Distribution, EXACT_MAX_OPEN};
use super::play::Player;
use super::rules::Rules;
use super::simulate::{Scores, Start};
use super::solve::Table;

/// A table kept for the rest of the process, with the player of its turns (the plan of
/// a turn and every roll's scores, built once), which borrows it.
pub struct Kept {
    pub table: &'static Table,
    pub player: Player<'static>,
}

/// The kept tables, one per set of rules. A table is 16 MB and takes seconds to solve:
/// a process solves (or reads) it once and every later call, request or worker of a
/// cluster shares it.
static KEPT: [OnceLock<&'static Kept>; 4] = [const { OnceLock::new() }; 4];

fn slot(rules: Rules) -> &'static OnceLock<&'static Kept> {
    let i = Rules::ALL
        .iter()
        .position(|&r| r == rules)
        .expect("every rule set is listed");
    &KEPT[i]
}

/// Leaked, so that the player may borrow the table for as long as the process runs.
fn kept(table: Table) -> &'static Kept {
    let table: &'static Table = Box::leak(Box::new(table));
    Box::leak(Box::new(Kept {
        table,
        player: Player::new(table),
    }))
}

/// The kept table under `rules`, solved by `solve` the first time (the front end
/// decides how the progress of the solve is shown).
pub fn solved(rules: Rules, solve: impl FnOnce() -> Table) -> &'static Kept {
    slot(rules).get_or_init(|| kept(solve()))
}

/// Keeps `table` when it is the first of its rules: the kept table of its rules, if it
/// is `table` or the same; another table kept already is not replaced (calls holding
/// it go on with it), and `table` is handed back.
pub fn keep(table: Table) -> Result<&'static Kept, Table> {
    let mut table = Some(table);
    let kept = *slot(table.as_ref().expect("a table").rules)
        .get_or_init(|| kept(table.take().expect("a table")));
    match table {
        Some(t) if !same(kept.table, &t) => Err(t),
        _ => Ok(kept),
    }
}

/// Whether two tables hold the same values under the same rules.
pub fn same(a: &Table, b: &Table) -> bool {
    a.rules == b.rules && a.positions == b.positions && a.values == b.values
}

/// Dice given on a full card: no box is left to score them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the card is full: no box is left to score the dice in")]
pub struct FullCard;

/// Refuses dice on a full card, before any solve: a position that cannot be played
/// costs nothing.
pub fn check_room(card: &Card, dice: Option<Counts>) -> Result<(), FullCard> {
    if dice.is_some() && card.is_full() {
        return Err(FullCard);
    }
    Ok(())
}

/// More games asked for than a call may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyGames {
    pub games: u64,
    pub max: u64,
}

impl TooManyGames {
    /// The setting that raises the guard, in snake case.
    pub fn setting(&self) -> &'static str {
        "max_games"
    }

    /// What stopped the games and how to go on. `named` writes a setting, given its
    /// name in snake case and, when the message shows it, its value: `--max-games 10`
    /// and `--max-games` on the command line, `max_games 10` and `max_games` in Python.
    pub fn message(&self, named: impl Fn(&str, Option<u64>) -> String) -> String {
        format!(
            "{} is above {}; raise {} to go on",
            named("games", Some(self.games)),
            named(self.setting(), Some(self.max)),
            named(self.setting(), None)
        )
    }
}

/// Refuses more than `max` games before any is played (or any table solved): a call
/// stops at once rather than after minutes.
pub fn check_games(games: u64, max: u64) -> Result<(), TooManyGames> {
    if games > max {
        return Err(TooManyGames { games, max });
    }
    Ok(())
}

/// Whether the distribution of the final score from `start` is found by playing games:
/// when `simulate` asks for them, or when more boxes are open than [`exact_scores`]
/// works through in milliseconds ([`EXACT_MAX_OPEN`]).
pub fn plays_games(start: &Start, simulate: bool) -> bool {
    simulate || open_boxes(start) > EXACT_MAX_OPEN
}

/// The distribution of the final score from `start` under the play of `player`: of the
/// scores of the games `play` plays when [`plays_games`], else worked out exactly over
/// every roll. Where processes share the work, a process may have no answer to give:
/// `play` then gives `None`, and `exact_here` says whether this process works out the
/// exact distribution (after whatever the processes must agree on first). Either may
/// fail, and the failure is handed back.
pub fn score_distribution<E>(
    player: &Player,
    start: &Start,
    simulate: bool,
    play: impl FnOnce() -> Result<Option<Scores>, E>,
    exact_here: impl FnOnce() -> Result<bool, E>,
) -> Result<Option<Distribution>, E> {
    if plays_games(start, simulate) {
        Ok(play()?.map(|scores| Distribution::simulated(&scores)))
    } else if exact_here()? {
        Ok(Some(Distribution::exact(exact_scores(player, start))))
    } else {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yahtzee::solitaire::Position;

    #[test]
    fn too_many_games_name_the_setting_as_the_front_end_does() {
        let e = check_games(11, 10).unwrap_err();
        let named = |name: &str, value: Option<u64>| match value {
            Some(v) => format!("<{name} {v}>"),
            None => format!("<{name}>"),
        };
        assert_eq!(
            e.message(named),
            "<games 11> is above <max_games 10>; raise <max_games> to go on"
        );
        assert!(check_games(10, 10).is_ok());
    }

    #[test]
    fn games_are_played_past_the_exact_limit_or_when_asked() {
        let open = |n: u32| Start {
            position: Position {
                filled: ((1u16 << 13) - 1) >> n,
                upper: 0,
                yahtzee_50: false,
            },
            points: 0,
            roll: None,
        };
        assert!(!plays_games(&open(EXACT_MAX_OPEN), false));
        assert!(plays_games(&open(EXACT_MAX_OPEN), true));
        assert!(plays_games(&open(EXACT_MAX_OPEN + 1), false));
    }
}
