//! Batch commands on a cluster of real `alea` processes on loopback: process 0 prints
//! what the command prints alone, byte for byte, whatever the number of processes and
//! workers; the other processes print nothing. Every run is bounded: a process still
//! running after a minute is killed and the test fails.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU16, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::{alea, stdout};

/// The longest a run of a test may take before its processes are killed.
const LIMIT: Duration = Duration::from_secs(60);

/// Loopback ports handed out to the runs of this file, none twice, so that its tests
/// run in parallel (the cluster crate's own tests use ports below these).
static NEXT_PORT: AtomicU16 = AtomicU16::new(25_200);

/// A host file for `n` processes on ports of their own, in `dir`.
fn hostfile(dir: &Path, n: usize) -> PathBuf {
    let base = NEXT_PORT.fetch_add(n as u16, Ordering::Relaxed);
    let text: String = (0..n)
        .map(|i| format!("127.0.0.1:{}\n", base + i as u16))
        .collect();
    let path = dir.join(format!("hosts-{base}"));
    std::fs::write(&path, text).unwrap();
    path
}

/// A process started, its output read as it comes (so that a full pipe never stalls it).
struct Running {
    child: Child,
    stdout: JoinHandle<Vec<u8>>,
    stderr: JoinHandle<Vec<u8>>,
}

fn start(args: &[String]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the alea binary starts");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    Running {
        child,
        stdout,
        stderr,
    }
}

/// Waits for every process; kills them all and fails if any runs past [`LIMIT`].
fn finish(mut runs: Vec<Running>, what: &str) -> Vec<Output> {
    let began = Instant::now();
    let mut statuses = vec![None; runs.len()];
    while statuses.iter().any(Option::is_none) {
        for (run, status) in runs.iter_mut().zip(&mut statuses) {
            if status.is_none() {
                *status = run.child.try_wait().unwrap();
            }
        }
        if began.elapsed() > LIMIT {
            for run in &mut runs {
                let _ = run.child.kill();
                let _ = run.child.wait();
            }
            panic!("{what}: still running after {} s", LIMIT.as_secs());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    runs.into_iter()
        .zip(statuses)
        .map(|(run, status)| Output {
            status: status.unwrap(),
            stdout: run.stdout.join().unwrap(),
            stderr: run.stderr.join().unwrap(),
        })
        .collect()
}

/// Runs `command` as every process of a cluster of `n` processes of `workers` workers
/// on loopback: each process's output, in order.
fn on_cluster(command: &[&str], n: usize, workers: usize) -> Vec<Output> {
    let dir = tempfile::tempdir().unwrap();
    let hosts = hostfile(dir.path(), n);
    let runs = (0..n)
        .map(|i| {
            let mut args: Vec<String> = command.iter().map(|s| s.to_string()).collect();
            args.extend(cluster_options(&hosts, n, i, workers, 30));
            start(&args)
        })
        .collect();
    finish(runs, &format!("{command:?} on {n} processes"))
}

/// The options of process `i` of `n`, each of `workers` workers, waiting `timeout`
/// seconds for the others.
fn cluster_options(hosts: &Path, n: usize, i: usize, workers: usize, timeout: u32) -> Vec<String> {
    vec![
        "--cluster".into(),
        format!("--processes={n}"),
        format!("--process={i}"),
        format!("--workers={workers}"),
        format!("--hostfile={}", hosts.display()),
        format!("--timeout={timeout}"),
    ]
}

/// Processes and workers in each: two of one, four of two.
const SHAPES: [(usize, usize); 2] = [(2, 1), (4, 2)];

/// Checks that process 0 of every cluster of `shapes` prints what `command` prints
/// alone, up to `same` (which drops the timings), and that the others print nothing.
fn same_on_clusters(command: &[&str], shapes: &[(usize, usize)], same: fn(&str) -> String) {
    let alone = stdout(&alea(command, b""));
    assert!(!alone.is_empty());
    for &(n, workers) in shapes {
        let outputs = on_cluster(command, n, workers);
        let answer = stdout(&outputs[0]);
        assert_eq!(
            same(&answer),
            same(&alone),
            "{command:?} on {n} processes of {workers} workers"
        );
        for (i, other) in outputs.iter().enumerate().skip(1) {
            assert_eq!(stdout(other), "", "process {i} prints nothing");
        }
    }
}

fn same_on_every_cluster(command: &[&str], same: fn(&str) -> String) {
    same_on_clusters(command, &SHAPES, same);
}

/// A solved Yahtzee table saved in `dir`, for `--table`: every process reads it in a
/// tenth of the time a solve takes.
fn yahtzee_table(dir: &Path) -> String {
    let path = dir.join("free-joker.table");
    let save = format!("--save={}", path.display());
    stdout(&alea(&["yahtzee", "solve", &save], b""));
    format!("--table={}", path.display())
}

fn exactly(text: &str) -> String {
    text.to_string()
}

/// The output without the times it reports, which differ from run to run.
fn untimed(text: &str) -> String {
    text.lines()
        .map(|line| {
            if let Ok(serde_json::Value::Object(mut o)) = serde_json::from_str(line) {
                for key in ["seconds", "play_seconds", "games_per_second"] {
                    o.remove(key);
                }
                return serde_json::Value::Object(o).to_string();
            }
            match line.split_once(" in ") {
                Some((games, _)) if line.starts_with("games: ") => games.to_string(),
                _ => line.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn patience_stats_are_the_same_on_a_cluster() {
    same_on_every_cluster(
        &["patience", "stats", "--deals", "400", "--seed", "7"],
        exactly,
    );
    same_on_every_cluster(
        &["patience", "stats", "--deals=300", "--seed=11", "--json"],
        exactly,
    );
}

#[test]
fn yahtzee_simulations_are_the_same_on_a_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let table = yahtzee_table(dir.path());
    same_on_every_cluster(
        &[
            "yahtzee", "simulate", "--games", "3000", "--seed", "4", &table,
        ],
        untimed,
    );
    same_on_every_cluster(
        &[
            "yahtzee",
            "simulate",
            "--games=2000",
            "--seed=9",
            "--json",
            &table,
        ],
        untimed,
    );
    // Every process solving the table itself.
    same_on_clusters(
        &["yahtzee", "simulate", "--games=1000", "--rules=no-bonus"],
        &SHAPES[..1],
        untimed,
    );
}

#[test]
fn yahtzee_distributions_are_the_same_on_a_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let table = yahtzee_table(dir.path());
    same_on_every_cluster(
        &[
            "yahtzee",
            "distribution",
            "--games",
            "3000",
            "--seed",
            "3",
            &table,
        ],
        untimed,
    );
    same_on_every_cluster(
        &[
            "yahtzee",
            "distribution",
            "--games=2000",
            "--seed=5",
            "--card=ones=3,twos=6",
            "--target=250",
            "--json",
            &table,
        ],
        untimed,
    );
}

#[test]
fn an_exact_distribution_is_answered_by_process_0() {
    let dir = tempfile::tempdir().unwrap();
    let table = yahtzee_table(dir.path());
    // Five boxes open: worked out exactly, no games to share.
    let card = "--card=ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20,yahtzee=0";
    same_on_every_cluster(
        &["yahtzee", "distribution", card, "--json", &table],
        untimed,
    );
}

#[test]
fn a_bad_host_file_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "127.0.0.1:25190\n  nowhere\n").unwrap();
    let hostfile = format!("--hostfile={}", hosts.display());
    common::assert_fails(
        &["patience", "stats", "--cluster", "--processes=2", &hostfile],
        b"",
        2,
        &format!(
            "error: {}:2:3: expected an address host:port, found `nowhere`",
            hosts.display()
        ),
    );
}

#[test]
fn a_timeout_out_of_range_is_refused() {
    for timeout in ["0", "-1", "nan", "1e20", "86401"] {
        common::assert_fails(
            &[
                "patience",
                "stats",
                "--cluster",
                &format!("--timeout={timeout}"),
            ],
            b"",
            2,
            "error: --timeout must be a positive number of seconds, at most 86400",
        );
    }
}

#[test]
fn a_process_that_never_comes_is_named_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = hostfile(dir.path(), 2);
    let mut args: Vec<String> = ["patience", "stats", "--deals=10"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(cluster_options(&hosts, 2, 0, 1, 1));
    let began = Instant::now();
    let out = finish(vec![start(&args)], "process 0 alone").remove(0);
    assert!(began.elapsed() < Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: process 1 at 127.0.0.1:") && err.contains("could not be reached"),
        "{err}"
    );
}

#[test]
fn processes_running_different_jobs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = hostfile(dir.path(), 2);
    let runs = (0..2)
        .map(|i| {
            let seed = format!("--seed={}", i + 1);
            let mut args: Vec<String> = vec!["patience".into(), "stats".into(), seed];
            args.extend(cluster_options(&hosts, 2, i, 1, 2));
            start(&args)
        })
        .collect();
    let outputs = finish(runs, "two different jobs");
    for out in &outputs {
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
    }
    let err = String::from_utf8_lossy(&outputs[1].stderr);
    assert!(
        err.starts_with("error: process 0 at ") && err.contains("runs another job"),
        "{err}"
    );
}
