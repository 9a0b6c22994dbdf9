//! Batches on a cluster: items `0..n` (deals, games) split into fixed blocks, the blocks
//! dealt round-robin to the workers of all processes, each block's partial result sent
//! to worker 0 and merged there in block order. The blocks do not depend on the number of
//! processes or threads, so neither does the result.
//!
//! The work goes in rounds of one block per worker: round `r` gives block `r * G + w`
//! to worker `w` of the `G` workers. A round ends with every worker told whether any
//! block of it failed, so that all of them stop together, with the same message, rather
//! than wait for a partial that will never come. Worker 0 merges a round's partials as
//! soon as it has them, so it holds a round's partials at most, and its progress is the
//! whole cluster's.
//!
//! The cluster knows no game: what a block computes, and the plain partial it sends, are
//! the game's, and a front end wires them in.

use std::ops::Range;

use timely::worker::Worker;
use timely::ExchangeData;

use crate::round::{Channel, Gather};
use crate::{Cluster, ClusterError};

/// About how many blocks a batch is cut into, within each job's bounds on a block's
/// size: enough that hundreds of workers all get some, few enough that the rounds'
/// exchanges cost little beside the work.
const BLOCKS: u64 = 1024;

/// Items `0..items` cut into blocks of `size` (the last one shorter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocks {
    pub items: u64,
    pub size: u64,
}

impl Blocks {
    /// About `BLOCKS` blocks, each of `least` to `most` items: a function of the
    /// number of items alone.
    pub fn of(items: u64, least: u64, most: u64) -> Blocks {
        let size = items
            .div_ceil(BLOCKS)
            .clamp(least.max(1), most.max(least).max(1));
        Blocks { items, size }
    }

    pub fn count(&self) -> u64 {
        self.items.div_ceil(self.size.max(1))
    }

    /// The items of block `b`.
    pub fn range(&self, b: u64) -> Range<u64> {
        let start = b * self.size;
        start..(start + self.size).min(self.items)
    }
}

/// Computes the blocks of `blocks` on all the workers of the cluster, `compute` on each
/// block given to this worker (in increasing order), and merges the partials into
/// `merged` on worker 0 in block order, with the block's items. Worker 0's answer is
/// `Some(merged)`, the others' `None`. If any block fails, every worker returns the
/// failure of the first failing block, as [`ClusterError::Work`].
///
/// Every worker must call it with the same blocks, at the same point of its dataflows.
pub fn run_blocks<P, R>(
    worker: &mut Worker,
    blocks: Blocks,
    mut compute: impl FnMut(Range<u64>) -> Result<P, String>,
    merged: R,
    mut merge: impl FnMut(&mut R, Range<u64>, P),
) -> Result<Option<R>, ClusterError>
where
    P: ExchangeData + Clone,
{
    let (me, workers) = (worker.index() as u64, worker.peers() as u64);
    let mut partials = Channel::<(u64, P)>::new(worker);
    let mut failures = Gather::<Option<(u64, String)>>::new(worker);
    let mut merged = (me == 0).then_some(merged);
    for round in 0..blocks.count().div_ceil(workers) {
        let first = round * workers;
        let b = first + me;
        let mut failed = None;
        if b < blocks.count() {
            match compute(blocks.range(b)) {
                Ok(partial) => partials.send(0, (b, partial)),
                Err(message) => failed = Some((b, message)),
            }
        }
        let failures = failures.all(worker, failed);
        let mut arrived = partials.finish(worker);
        // A worker that is gone sends nothing, and its round still ends: without these
        // counts the answer would lack its blocks.
        if failures.len() as u64 != workers {
            return Err(left_part_way());
        }
        if let Some((_, message)) = failures.into_iter().flatten().min_by_key(|(b, _)| *b) {
            return Err(ClusterError::Work(message));
        }
        if let Some(merged) = merged.as_mut() {
            if arrived.len() as u64 != workers.min(blocks.count() - first) {
                // Worker 0 alone knows: the others of this process stop at their next
                // wait instead of computing blocks for nobody.
                crate::round::abort();
                return Err(left_part_way());
            }
            arrived.sort_unstable_by_key(|(b, _)| *b);
            for (b, partial) in arrived {
                merge(merged, blocks.range(b), partial);
            }
        }
    }
    Ok(merged)
}

fn left_part_way() -> ClusterError {
    ClusterError::Internal(
        "another worker stopped part way through the batch (see its process's message)".into(),
    )
}

/// Runs `work` on every worker of this process, as one process of `cluster`: the answer
/// of global worker 0 on process 0, `None` on the others.
pub fn on_cluster<R, F>(cluster: &Cluster, work: F) -> Result<Option<R>, ClusterError>
where
    R: Send + 'static,
    F: Fn(&mut Worker) -> Result<Option<R>, ClusterError> + Send + Sync + 'static,
{
    Ok(cluster.run(work)?.into_iter().flatten().next())
}

/// Every process joins the cluster (and so agrees on the job), and nothing is computed:
/// for a command that finds it has nothing to share, so that it still stops alike on
/// every process.
pub fn meet(cluster: &Cluster) -> Result<(), ClusterError> {
    on_cluster(cluster, |_| Ok(None::<()>)).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_depend_on_the_items_alone_and_cover_them() {
        assert_eq!(Blocks::of(300, 16, 4096).size, 16);
        assert_eq!(Blocks::of(10_000_000, 16, 4096).size, 4096);
        assert_eq!(Blocks::of(100_000, 16, 4096).size, 98);
        for items in [0, 1, 15, 16, 17, 1000, 123_457] {
            let blocks = Blocks::of(items, 16, 4096);
            let mut next = 0;
            for b in 0..blocks.count() {
                let r = blocks.range(b);
                assert_eq!(r.start, next);
                assert!(r.end > r.start && r.end - r.start <= blocks.size);
                next = r.end;
            }
            assert_eq!(next, items);
        }
    }
}
