//! alea on several processes, over timely dataflow: a PRISM model whose states do not fit
//! one machine is explored and checked with its states partitioned across the workers of
//! all processes by a hash of the variables that transitions change least; batches of deals or games are split across them.
//!
//! - [`net`]: the processes, their connections and how a lost one is noticed.
//! - [`round`]: messages between workers in lock-step rounds, the building block of
//!   everything else.
//! - [`locality`]: which worker owns a state, chosen so that most transitions stay on one.
//! - [`explore`]: the distributed exploration of a model.
//! - [`solve`]: the components solved in waves by the engine, then the graph analysis and
//!   the interval iteration over what a component across workers leaves.
//! - [`check`]: a property checked on the cluster, as `alea check` does on one process.
//! - [`batch`]: items `0..n` split across the workers, results gathered in order.

pub mod batch;
pub mod check;
pub mod explore;
pub mod locality;
pub mod net;
pub mod round;
pub mod solve;

pub use net::Cluster;

use std::time::Duration;

/// Why a cluster run stopped.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("{0}")]
    Options(String),
    #[error("{0}")]
    Hostfile(String),
    #[error("cannot listen at {address}: {cause}")]
    Bind { address: String, cause: String },
    #[error(
        "process {process} at {address} could not be reached within {} s; start it, or \
         check its address in the host file",
        waited.as_secs_f64()
    )]
    Unreachable {
        process: usize,
        address: String,
        waited: Duration,
    },
    #[error(
        "process {process} at {address} runs another job (a different model, constants, \
         properties or alea version); start every process with the same command"
    )]
    Mismatch { process: usize, address: String },
    #[error("process {process} at {address} was lost ({cause}); the run stopped: start all processes again")]
    Lost {
        process: usize,
        address: String,
        cause: String,
    },
    #[error("network: {0}")]
    Network(String),
    /// The computation failed: the same message on every process.
    #[error("{0}")]
    Work(String),
    /// The check failed as the command line reports it: its exit status and message.
    #[error("{message}")]
    Failed { code: u8, message: String },
    #[error("internal error in a worker: {0}")]
    Internal(String),
}

/// A hash of the bytes of a job, the same on every machine and build (FNV-1a).
pub fn fingerprint(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.iter().chain(&(part.len() as u64).to_le_bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}
