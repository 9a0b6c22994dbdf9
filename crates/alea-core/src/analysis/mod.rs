//! Graph facts before any number: strongly connected components, the predecessors of a
//! form and the searches over them (reaching a set with some or every strategy, with
//! probability one), end components, and from those the states whose value the graph
//! alone decides (0, the greatest value, infinity).

pub mod components;
pub mod decide;
pub mod graph;
pub mod paths;
