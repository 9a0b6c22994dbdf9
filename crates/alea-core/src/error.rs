//! What can go wrong while solving or simulating a model.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// The acyclic and layered solvers met a state again on its own path.
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
    /// The layered solver needs every edge to raise the layer number.
    #[error("layered solving needs edges that raise the layer: {0}")]
    Layer(String),
    /// A maximising or minimising choice lies on a cycle: its value needs value or policy
    /// iteration, which the exact solvers do not do.
    #[error("state {0} is a maximising or minimising choice on a cycle; only cycles through chance nodes and random choices can be solved exactly")]
    ChoiceCycle(String),
    /// From this state the game goes on forever with probability one.
    #[error(
        "from state {0} the game never ends (every path returns to it), so its value is infinite"
    )]
    NeverEnds(String),
    /// The weights of a node's edges add up to more than 2^63 - 1.
    #[error("the edge weights at state {0} add up to more than 2^63 - 1")]
    Weights(String),
    /// A simulated game did not end within the step bound.
    #[error("a simulated game did not end within {0} steps")]
    StepLimit(u64),
    /// A maximising or minimising choice was simulated without solved values.
    #[error("state {0} has no solved value; solve the model before following its best play")]
    Unsolved(String),
}

pub type Result<T> = std::result::Result<T, Error>;
