//! What can go wrong while solving or simulating a model.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// The acyclic solver met a state again on its own path.
    #[error("the model has a cycle through state {0}; this solver handles acyclic models only")]
    Cycle(String),
    /// A chance or choice node was described without successors.
    #[error("the {kind} node at state {state} has no successors")]
    NoSuccessors { state: String, kind: &'static str },
    /// A maximising or minimising choice was met with arithmetic that has no order.
    #[error(
        "a choice that maximises or minimises needs ordered numbers; {0} values have no order"
    )]
    Unordered(&'static str),
    /// The resource guard: more states than allowed would have been stored.
    #[error("more than {limit} states would be stored; raise the state limit to go on")]
    TooManyStates { limit: usize },
    /// A maximising or minimising choice lies on a cycle: its value needs value or policy
    /// iteration, which the exact solvers do not do.
    #[error("state {0} is a maximising or minimising choice on a cycle; this solver takes only cycles through chance nodes and random choices (`solve_game` takes cycles through choices)")]
    ChoiceCycle(String),
    /// From this state the game goes on forever with probability one.
    #[error(
        "from state {0} the game never ends (every path returns to it), so its value is infinite"
    )]
    NeverEnds(String),
    /// The weights of a node's edges add up to more than 2^63 - 1.
    #[error("the edge weights at state {0} add up to more than 2^63 - 1")]
    Weights(String),
    /// A state whose expected total reward is infinite: the game may go on forever from
    /// it (see [`crate::solve::game`]).
    #[error("the expected reward from state {0} is infinite: {1}")]
    InfiniteReward(String, String),
    /// Payoffs or rewards of both signs where the players could keep the game going
    /// forever (see [`crate::solve::game`]).
    #[error("{0}")]
    Signs(String),
    /// A cycle of zero rewards on which the players could stay forever, in a model of
    /// total rewards.
    #[error("the players could stay forever on a cycle of zero rewards through state {0}; a total-reward model needs every such cycle to cost something")]
    ZeroRewardCycle(String),
    /// A question the engine cannot answer soundly on this model (the message says
    /// which, and why); the front end says where it was asked.
    #[error("{0}")]
    Unsupported(String),
    /// Bounds in floating point that cannot settle a question (a limit on the boundary of
    /// what strategies reach, say): exact arithmetic can.
    #[error("{0}")]
    Undecided(String),
    /// The iteration of a component did not meet the precision in time.
    #[error("the bounds on the value of state {0} did not come within the precision asked for after {1} sweeps ({2}); ask for less precision")]
    NotConverged(String, u64, String),
    /// A simulated game did not end within the step bound.
    #[error("a simulated game did not end within {0} steps")]
    StepLimit(u64),
    /// A maximising or minimising choice was simulated without solved values.
    #[error("state {0} has no solved value; solve the model before following its best play")]
    Unsolved(String),
    /// The computation was asked to stop (Ctrl-C, a deadline): see [`crate::Stop`].
    #[error("the computation was stopped before it finished")]
    Stopped,
    /// Exact solving was asked of an explicit model that has only floating-point
    /// probabilities.
    #[error("exact solving needs the model's exact probabilities, and this model has only floating-point ones")]
    NotExact,
}

impl Error {
    /// [`Error::NoSuccessors`] for a node of `kind` at the state `state` names.
    pub(crate) fn no_successors(state: String, kind: crate::model::Kind) -> Error {
        let kind = if kind == crate::model::Kind::Chance {
            "chance"
        } else {
            "choice"
        };
        Error::NoSuccessors { state, kind }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
