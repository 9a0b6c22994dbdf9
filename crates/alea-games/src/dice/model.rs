//! The One Person Game as an engine model: the state is the counter; a throw is a chance
//! node that costs one throw. Resets make the states cyclic: the engine solves the one
//! cyclic component.

use alea_core::{Expansion, Model};

use super::rules::{Game, Throw};

/// The state after the counter has exceeded the limit.
pub const OVER: u64 = u64::MAX;

#[derive(Clone, Debug)]
pub struct DiceModel {
    throw: Throw,
    limit: u64,
}

impl DiceModel {
    pub fn new(game: &Game) -> DiceModel {
        DiceModel {
            throw: game.throw(),
            limit: game.limit,
        }
    }
}

impl Model for DiceModel {
    type State = u64;

    fn start(&self) -> u64 {
        0
    }

    fn expand(&self, counter: u64, out: &mut Expansion<u64>) {
        if counter == OVER {
            out.terminal(0);
            return;
        }
        out.chance(1);
        out.weighted(0, self.throw.reset);
        // Every sum that ends the game leads to the one final state.
        let mut over = 0;
        for &(sum, ways) in &self.throw.sums {
            if counter + sum > self.limit {
                over += ways;
            } else {
                out.weighted(counter + sum, ways);
            }
        }
        out.weighted(OVER, over);
    }
}

/// The expected number of throws by the engine, in either arithmetic, with the number of
/// states solved; in `f64`, as close as rounding allows (the bounds of a chain that
/// returns to 0 so often meet no closer than some 1e-11 of the value).
pub fn solve_expected<V: alea_core::Solvable>(game: &Game) -> alea_core::Result<(V, usize)> {
    let model = DiceModel::new(game);
    let settings = alea_core::Settings {
        precision: alea_core::numeric::round::FINEST,
        strict: false,
        ..alea_core::Settings::default()
    };
    // The start's value alone: no table of every state's.
    let explored = alea_core::form::explore(&model, &settings.limits, &settings.stop)?;
    let values = V::values(&explored.game, &settings, &|s| explored.name(s))?;
    Ok((values[0].clone(), values.len()))
}
