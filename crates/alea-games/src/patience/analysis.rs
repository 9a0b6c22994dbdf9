//! What alea tells about a position: the random player's chance, whether it can be won
//! and how, and the worth of each move.

use alea_core::{best_line, options, solve, Goal, Limits, Result, Solution, Value, Workspace};

use super::deal::Deal;
use super::model::{move_between, Heights, Patience, Player};

/// A move: the two piles whose top cards are removed, numbered from 1, smaller first.
pub type Move = (usize, usize);

/// The full analysis of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<V> {
    /// The probability that the random player clears the table.
    pub random_play: V,
    /// Whether some sequence of moves clears the table.
    pub solvable: bool,
    /// Such a sequence, when there is one.
    pub winning_line: Option<Vec<Move>>,
    /// Distinct positions evaluated.
    pub states: usize,
}

/// One legal move of a position and what it leads to.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveHint<V> {
    pub piles: Move,
    /// The random player's win probability after the move.
    pub random_play: V,
    /// How much lower that is than after the best move.
    pub loss: V,
    /// Whether the position after the move can still be cleared.
    pub solvable: bool,
}

fn solved<V: Value>(deal: &Deal, player: Player) -> Result<(Patience, Solution<Heights, V>)> {
    let model = Patience::new(deal, player);
    let solution = solve(&model, &Limits::default())?;
    Ok((model, solution))
}

/// The random player's win probability and the number of positions evaluated: the
/// judge's question, and all the `alea patience` default output needs.
pub fn random_play<V: Value>(deal: &Deal) -> Result<(V, usize)> {
    random_play_in(&mut Workspace::default(), deal)
}

/// [`random_play`] in a workspace kept between deals, for solving many deals quickly.
pub fn random_play_in<V: Value>(
    workspace: &mut Workspace<Heights, V>,
    deal: &Deal,
) -> Result<(V, usize)> {
    let solution = workspace.solve(&Patience::new(deal, Player::Random), &Limits::default())?;
    Ok((solution.start_value().clone(), solution.len()))
}

/// Whether the position can be cleared, and a line of moves that does it.
pub fn winning_line(deal: &Deal) -> Result<Option<Vec<Move>>> {
    // Win values are 0 or 1 exactly, so f64 is exact here.
    let (model, best) = solved::<f64>(deal, Player::Best)?;
    if *best.start_value() != 1.0 {
        return Ok(None);
    }
    let mut line = Vec::new();
    let mut from = alea_core::Model::start(&model);
    for (_, to) in best_line(&model, &best, Goal::Max)? {
        let (a, b) = move_between(from, to).expect("a move removes two cards");
        line.push((a + 1, b + 1));
        from = to;
    }
    Ok(Some(line))
}

/// Everything about a position.
pub fn analyse<V: Value>(deal: &Deal) -> Result<Analysis<V>> {
    let (random_play, states) = random_play::<V>(deal)?;
    let winning_line = winning_line(deal)?;
    Ok(Analysis {
        random_play,
        solvable: winning_line.is_some(),
        winning_line,
        states,
    })
}

/// Every legal move of the position, best first for the random player's chance after it
/// (ties in the order the moves are generated).
pub fn hints<V: Value>(deal: &Deal) -> Result<Vec<MoveHint<V>>> {
    let (model, random) = solved::<V>(deal, Player::Random)?;
    let (_, best) = solved::<f64>(deal, Player::Best)?;
    let from = alea_core::Model::start(&model);
    options(&model, &random, from, Goal::Max)?
        .into_iter()
        .map(|o| {
            let (a, b) = move_between(from, o.to).expect("a move removes two cards");
            Ok(MoveHint {
                piles: (a + 1, b + 1),
                random_play: o.value,
                loss: o.loss,
                solvable: best.get(&o.to).is_some_and(|&v| v == 1.0),
            })
        })
        .collect()
}

/// Replays `line` on the position and says whether every move is legal and the table
/// ends empty: the check that a winning line really wins.
pub fn replays_to_empty(deal: &Deal, line: &[Move]) -> bool {
    let mut piles = deal.piles.clone();
    for &(a, b) in line {
        if a == b || a == 0 || b == 0 || a > piles.len() || b > piles.len() {
            return false;
        }
        let (Some(x), Some(y)) = (piles[a - 1].last(), piles[b - 1].last()) else {
            return false;
        };
        if x.rank != y.rank {
            return false;
        }
        piles[a - 1].pop();
        piles[b - 1].pop();
    }
    piles.iter().all(Vec::is_empty)
}
