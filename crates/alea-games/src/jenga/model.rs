//! Colored Jenga as an engine model, its solution, and the advice read off it.
//!
//! A throw of the die is a chance node costing one minute: each colour that has a block
//! to take leads to a choice node, where the player takes the move of least expected
//! time; black, and a colour with no legal block, spend the minute and change nothing
//! (a self-loop, which the engine eliminates in closed form).

use alea_core::{solve, Error, Expansion, Limits, Model, Pick, Solution, Value};

use super::kernel::{Kernel, Stop};
use super::state::{
    can_take, decided_colour, deciding, place_on_new_level, placements, position, removals, start,
    take_from_full, Packed, ALWAYS_FITS,
};
use super::tower::{Tower, FACES, SLOTS, WEIGHTS};

/// The game from one tower.
#[derive(Clone, Debug)]
pub struct Jenga {
    start: Packed,
}

impl Jenga {
    /// The game from `tower`, if its levels fit a position's counts. Every position
    /// reached from a tower of up to [`ALWAYS_FITS`] levels fits; a taller tower must be
    /// checked first, as [`solve_tower`] does.
    pub fn new(tower: &Tower) -> Option<Jenga> {
        Some(Jenga {
            start: start(&tower.levels)?,
        })
    }
}

impl Model for Jenga {
    type State = Packed;

    fn start(&self) -> Packed {
        self.start
    }

    fn expand(&self, p: Packed, out: &mut Expansion<Packed>) {
        if let Some(colour) = decided_colour(p) {
            out.choice(Pick::Min, 0);
            let at = position(p);
            removals(at, colour, |taken| {
                placements(taken, colour, |next| {
                    if !out.edges.iter().any(|e| e.to == next) {
                        out.edge(next);
                    }
                })
            });
            return;
        }
        out.chance(1);
        let mut moving = 0;
        for colour in 0..3u8 {
            if can_take(p, colour) {
                out.weighted(deciding(p, colour), WEIGHTS[usize::from(colour)]);
                moving += WEIGHTS[usize::from(colour)];
            }
        }
        if moving == 0 {
            out.terminal(0);
            return;
        }
        // Black and the colours that cannot move: the minute passes, nothing changes.
        out.weighted(p, FACES - moving);
    }
}

/// A solved tower.
pub struct Solved<V> {
    pub model: Jenga,
    pub solution: Solution<Packed, V>,
}

impl<V: Value> Solved<V> {
    /// The least expected number of minutes from the tower.
    pub fn expected(&self) -> &V {
        self.solution.start_value()
    }

    /// Positions stored: throws of the die, not the choice nodes between them.
    pub fn positions(&self) -> usize {
        self.solution.len() - self.choice_nodes()
    }

    fn choice_nodes(&self) -> usize {
        self.solution
            .states()
            .filter(|&&p| decided_colour(p).is_some())
            .count()
    }
}

/// Why the engine could not solve a tower.
#[derive(Debug)]
pub enum EngineStop {
    /// The kernel's check of a tall tower stopped first.
    Kernel(Stop),
    /// The engine stopped (past `max_states` nodes, for one).
    Engine(Error),
}

/// Solves the game from `tower`, storing at most `max_states` nodes.
pub fn solve_tower<V: Value>(tower: &Tower, max_states: usize) -> Result<Solved<V>, EngineStop> {
    if tower.levels.len() > ALWAYS_FITS {
        // The engine's model cannot stop part way, so a tall tower is first walked by the
        // kernel, which checks every position for room; it stores fewer entries than
        // the engine (no choice nodes), so it also meets the limit first.
        Kernel::new(max_states)
            .expected(tower)
            .map_err(EngineStop::Kernel)?;
    }
    let model = Jenga::new(tower).ok_or(EngineStop::Kernel(Stop::TooTall))?;
    let solution = solve(&model, &Limits { max_states }).map_err(EngineStop::Engine)?;
    Ok(Solved { model, solution })
}

/// One legal move of the tower: take the block in `slot` of `level` (numbered from 1 at
/// the bottom), put it in slot `place` of the new level, and the expected minutes left
/// after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice<V> {
    pub level: usize,
    pub slot: &'static str,
    pub place: &'static str,
    pub expected: V,
}

/// Every legal move for each colour (red, green, blue), best (least expected) first;
/// ties keep the order bottom to top, left to right.
pub fn advise<V: Value>(tower: &Tower, solved: &Solved<V>) -> [Vec<Advice<V>>; 3] {
    let at = solved.model.start;
    let mut by_colour: [Vec<Advice<V>>; 3] = Default::default();
    let below_top = &tower.levels[..tower.levels.len() - 1];
    for (l, level) in below_top.iter().enumerate() {
        for (slot, &colour) in level.iter().enumerate() {
            let taken = take_from_full(at, *level, slot);
            for (place, place_name) in SLOTS.iter().enumerate() {
                let next = place_on_new_level(taken, colour, place);
                let expected = solved
                    .solution
                    .get(&next)
                    .expect("every move's position was solved")
                    .clone();
                by_colour[usize::from(colour)].push(Advice {
                    level: l + 1,
                    slot: SLOTS[slot],
                    place: place_name,
                    expected,
                });
            }
        }
    }
    for moves in by_colour.iter_mut() {
        moves.sort_by(|a, b| {
            a.expected
                .compare(&b.expected)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    }
    by_colour
}
