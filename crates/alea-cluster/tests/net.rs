//! The connections and rounds of a cluster whose processes are threads of this test, on
//! loopback ports of their own.

use std::time::Duration;

use alea_cluster::round::{Channel, Gather};
use alea_cluster::{Cluster, ClusterError};

fn hostfile(base: u16, n: usize) -> String {
    (0..n)
        .map(|i| format!("127.0.0.1:{}\n", base + i as u16))
        .collect()
}

fn cluster(base: u16, n: usize, i: usize, workers: usize) -> Cluster {
    let text = hostfile(base, n);
    Cluster::new(
        n,
        i,
        workers,
        Some(("hosts", &text)),
        Duration::from_secs(20),
    )
    .unwrap()
}

#[test]
fn rounds_deliver_every_message_to_the_worker_named() {
    let n = 3;
    let handles: Vec<_> = (0..n)
        .map(|i| {
            std::thread::spawn(move || {
                cluster(24310, n, i, 2).run(|worker| {
                    let mut ch = Channel::<u64>::new(worker);
                    let mut sums = Gather::<u64>::new(worker);
                    let (me, peers) = (worker.index(), worker.peers());
                    let mut total = 0;
                    for round in 0..5u64 {
                        for to in 0..peers {
                            ch.send(to, round * 1000 + me as u64);
                        }
                        let got = ch.finish(worker);
                        assert_eq!(got.len(), peers);
                        assert!(got.iter().all(|v| v / 1000 == round));
                        total += got.iter().sum::<u64>();
                    }
                    Ok(sums.all(worker, total))
                })
            })
        })
        .collect();
    for h in handles {
        let results = h.join().unwrap().unwrap();
        assert_eq!(results.len(), 2);
        let expected: Vec<u64> = vec![results[0][0]; 6];
        assert_eq!(results[0], expected);
    }
}

#[test]
fn a_process_that_never_starts_is_named() {
    let started = std::time::Instant::now();
    let text = hostfile(24330, 2);
    let c = Cluster::new(2, 0, 1, Some(("hosts", &text)), Duration::from_millis(500)).unwrap();
    match c.run(|_| Ok(())) {
        Err(ClusterError::Unreachable { process: 1, .. }) => {}
        other => panic!("expected process 1 unreachable, got {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_hostfile_line_that_is_not_an_address_is_located() {
    let e = Cluster::new(
        2,
        0,
        1,
        Some(("hosts", "127.0.0.1:1\n  nowhere\n")),
        Duration::from_secs(1),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "hosts:2:3: expected an address host:port, found `nowhere`"
    );
}

#[test]
fn one_process_two_workers() {
    let c = Cluster::new(1, 0, 2, None, Duration::from_secs(5)).unwrap();
    let r = c
        .run(|worker| {
            let mut ch = Channel::<u64>::new(worker);
            for to in 0..worker.peers() {
                ch.send(to, worker.index() as u64);
            }
            let got = ch.finish(worker);
            Ok(got.len())
        })
        .unwrap();
    assert_eq!(r, vec![2, 2]);
}

#[test]
fn two_processes_one_round() {
    let handles: Vec<_> = (0..2)
        .map(|i| {
            std::thread::spawn(move || {
                cluster(24350, 2, i, 1).run(|worker| {
                    let mut ch = Channel::<u64>::new(worker);
                    for to in 0..worker.peers() {
                        ch.send(to, worker.index() as u64);
                    }
                    let got = ch.finish(worker);
                    Ok(got.len())
                })
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap().unwrap(), vec![2]);
    }
}
