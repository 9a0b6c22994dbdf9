//! The options that make a command one process of a cluster, named after timely's
//! (`-w` workers, `-n` processes, `-p` process, `-h` host file), and the error they give.

use std::path::PathBuf;
use std::time::Duration;

use alea_cluster::{Cluster, ClusterError};
use clap::Args;
use indicatif::ProgressBar;

use crate::failure::{Failure, BAD_INPUT, OTHER};
use crate::progress;

/// The longest `--timeout`, in seconds: the connections' keepalive probes, a quarter of
/// it apart, must stay within what TCP takes (32,767 s on Linux), and a larger one would
/// not fit a `Duration` either.
const MAX_TIMEOUT: f64 = 86_400.0;

/// Every process of a cluster runs the same command, with its own `--process`.
#[derive(Debug, Clone, Args)]
pub struct ClusterArgs {
    /// Run as one process of a cluster: start the same command with --process 0 to P-1
    /// (see the README's "Cluster" section). Only process 0 prints the answer.
    #[arg(long, help_heading = "Cluster")]
    pub cluster: bool,
    /// The number of processes (timely's -n).
    #[arg(
        long,
        value_name = "P",
        default_value_t = 1,
        requires = "cluster",
        help_heading = "Cluster"
    )]
    pub processes: usize,
    /// This process's index, 0 to P-1 (timely's -p).
    #[arg(
        long,
        value_name = "I",
        default_value_t = 0,
        requires = "cluster",
        help_heading = "Cluster"
    )]
    pub process: usize,
    /// Worker threads in this process (timely's -w).
    #[arg(
        long,
        value_name = "W",
        default_value_t = 1,
        requires = "cluster",
        help_heading = "Cluster"
    )]
    pub workers: usize,
    /// A file whose line i is the address host:port of process i (timely's -h); by
    /// default process i is at 127.0.0.1, port 2101 + i.
    #[arg(
        long,
        value_name = "FILE",
        requires = "cluster",
        help_heading = "Cluster"
    )]
    pub hostfile: Option<PathBuf>,
    /// Seconds to wait for the other processes to start, and for a silent connection
    /// before its process counts as lost (at most 86400, a day).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 60.0,
        requires = "cluster",
        help_heading = "Cluster"
    )]
    pub timeout: f64,
}

impl ClusterArgs {
    /// The cluster asked for (`None` without `--cluster`), for the job of `fingerprint`.
    pub fn cluster(&self, fingerprint: u64) -> Result<Option<Cluster>, Failure> {
        if !self.cluster {
            return Ok(None);
        }
        if !(self.timeout.is_finite() && self.timeout > 0.0 && self.timeout <= MAX_TIMEOUT) {
            return Err(Failure::bad_input(format!(
                "--timeout must be a positive number of seconds, at most {MAX_TIMEOUT} (a day), \
                 not {}",
                self.timeout
            )));
        }
        let hostfile = match &self.hostfile {
            None => None,
            Some(path) => Some((
                path.display().to_string(),
                std::fs::read_to_string(path).map_err(|e| {
                    Failure::bad_input(format!("cannot read {}: {e}", path.display()))
                })?,
            )),
        };
        let mut cluster = Cluster::new(
            self.processes,
            self.process,
            self.workers,
            hostfile.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
            Duration::from_secs_f64(self.timeout),
        )
        .map_err(failure)?;
        // Timely needs as many workers in every process, and every process must agree on
        // their number and on the version of alea; processes that differ fail the
        // handshake instead of taking the run down.
        let workers = self.workers as u64;
        let processes = self.processes as u64;
        cluster.fingerprint = alea_cluster::fingerprint(&[
            &fingerprint.to_le_bytes(),
            env!("CARGO_PKG_VERSION").as_bytes(),
            b"workers",
            &workers.to_le_bytes(),
            b"processes",
            &processes.to_le_bytes(),
        ]);
        Ok(Some(cluster))
    }
}

/// The exit status of a cluster error: 2 for bad options or input, 3 for a limit, 1 for a
/// lost or unreachable process.
pub fn failure(e: ClusterError) -> Failure {
    let code = match &e {
        ClusterError::Options(_) | ClusterError::Hostfile(_) => BAD_INPUT,
        ClusterError::Failed { code, .. } => *code,
        _ => OTHER,
    };
    Failure {
        code,
        message: e.to_string(),
        broken_pipe: false,
    }
}

/// A progress bar for a batch on the cluster: on process 0 only, which sees every
/// worker's blocks as they are merged.
pub fn bar(cluster: &Cluster, len: u64, what: &str) -> ProgressBar {
    if cluster.process == 0 {
        progress::bar(len, what)
    } else {
        ProgressBar::hidden()
    }
}
