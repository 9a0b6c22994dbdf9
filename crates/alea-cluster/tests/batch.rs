//! Batches split across the workers of clusters whose processes are threads of this
//! test, on loopback ports of their own.

use std::ops::Range;
use std::time::Duration;

use alea_cluster::batch::{run_blocks, Blocks};
use alea_cluster::{Cluster, ClusterError};

/// Runs `work` as every process of a cluster of `n` processes of `workers` workers
/// (threads of this test, ports from `base`): each process's answer.
fn on_processes<T, F>(
    base: u16,
    n: usize,
    workers: usize,
    work: F,
) -> Vec<Result<Vec<T>, ClusterError>>
where
    T: Send + 'static,
    F: Fn(&mut timely::worker::Worker) -> Result<T, ClusterError> + Clone + Send + Sync + 'static,
{
    let hosts: String = (0..n)
        .map(|i| format!("127.0.0.1:{}\n", base + i as u16))
        .collect();
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let (hosts, work) = (hosts.clone(), work.clone());
            std::thread::spawn(move || {
                Cluster::new(
                    n,
                    i,
                    workers,
                    Some(("hosts", &hosts)),
                    Duration::from_secs(20),
                )
                .unwrap()
                .run(work)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

/// An item's value: sums of these in different orders differ in the last bits.
fn value(i: u64) -> f64 {
    (i as f64).sqrt() / 7.0 + 1.0 / (i as f64 + 3.0)
}

/// The values of the items of `range`, as a block's partial result.
fn values(range: Range<u64>) -> Result<Vec<f64>, String> {
    Ok(range.map(value).collect())
}

/// Adds a block's values one by one, in order.
fn add(sum: &mut f64, _: Range<u64>, values: Vec<f64>) {
    for v in values {
        *sum += v;
    }
}

const ITEMS: u64 = 1000;

fn sum_on_worker(worker: &mut timely::worker::Worker) -> Result<Option<f64>, ClusterError> {
    run_blocks(worker, Blocks::of(ITEMS, 7, 7), values, 0.0, add)
}

#[test]
fn a_sum_over_blocks_is_the_sum_in_order_to_the_bit() {
    let mut expected = 0.0f64;
    for i in 0..ITEMS {
        expected += value(i);
    }
    let alone = Cluster::new(1, 0, 1, None, Duration::from_secs(5))
        .unwrap()
        .run(sum_on_worker)
        .unwrap();
    assert_eq!(alone, vec![Some(expected)]);
    let processes = on_processes(24410, 3, 2, sum_on_worker);
    let answers: Vec<Vec<Option<f64>>> = processes.into_iter().map(Result::unwrap).collect();
    assert_eq!(answers[0][0].map(f64::to_bits), Some(expected.to_bits()));
    // Only global worker 0 has the answer.
    let others = answers.iter().flatten().skip(1);
    assert!(others.clone().all(Option::is_none), "{answers:?}");
}

#[test]
fn every_worker_stops_with_the_first_failing_block() {
    let failing = |worker: &mut timely::worker::Worker| {
        let compute = |range: Range<u64>| match range.start / 10 {
            5 | 9 => Err(format!("block {} failed", range.start / 10)),
            _ => values(range),
        };
        run_blocks(worker, Blocks::of(200, 10, 10), compute, 0.0, add)
    };
    for answer in on_processes(24420, 2, 2, failing) {
        match answer {
            Err(ClusterError::Work(message)) => assert_eq!(message, "block 5 failed"),
            other => panic!("expected the failure of block 5, got {other:?}"),
        }
    }
}

#[test]
fn no_items_give_the_starting_value() {
    let none = |worker: &mut timely::worker::Worker| {
        run_blocks(worker, Blocks::of(0, 7, 7), values, 1.5, add)
    };
    let answers: Vec<_> = on_processes(24440, 2, 1, none)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(answers, vec![vec![Some(1.5)], vec![None]]);
}
