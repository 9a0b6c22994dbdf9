//! A server started for a test or a benchmark, and the bounded load both run: loopback
//! only, a fixed number of requests, stopping by itself.

#![allow(dead_code)] // the tests and the benchmark use different parts

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server started for a test, stopped when dropped.
pub struct Server {
    child: Child,
    pub base: String,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the alea binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("the server prints its address");
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("an address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Server { child, base }
    }

    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        match ureq::post(&format!("{}{path}", self.base))
            .set("Content-Type", "application/json")
            .send_string(body)
        {
            Ok(r) => (r.status(), r.into_string().expect("a text answer")),
            Err(ureq::Error::Status(code, r)) => (code, r.into_string().expect("a text answer")),
            Err(e) => panic!("{path}: {e}"),
        }
    }

    /// Resident memory of the server, in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("VmRSS in kB")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a load run measured.
pub struct Load {
    pub requests: usize,
    pub connections: usize,
    /// Each request's time, sorted.
    pub times: Vec<Duration>,
    pub seconds: f64,
    pub rss_before_kib: u64,
    pub rss_after_kib: u64,
}

impl Load {
    /// The latency at quantile `q`, in milliseconds.
    pub fn ms(&self, q: f64) -> f64 {
        self.times[((self.times.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3
    }

    pub fn summary(&self) -> String {
        format!(
            "{} advice requests over {} connections in {:.2} s: p50 {:.2} ms, p99 {:.2} ms; server memory {} -> {} KiB",
            self.requests,
            self.connections,
            self.seconds,
            self.ms(0.5),
            self.ms(0.99),
            self.rss_before_kib,
            self.rss_after_kib
        )
    }
}

/// 20,000 `POST /api/yahtzee/advise` of `body` over 64 connections at once, after 2,000
/// to warm up; every answer must be 200.
pub fn advice_load(server: &Server, body: &str) -> Load {
    let run = |requests: usize| -> Vec<Duration> {
        let connections = 64;
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..connections)
                .map(|c| {
                    let server = &server;
                    scope.spawn(move || {
                        let agent = ureq::AgentBuilder::new().build();
                        let url = format!("{}/api/yahtzee/advise", server.base);
                        let mine = requests / connections + usize::from(c < requests % connections);
                        (0..mine)
                            .map(|_| {
                                let t = Instant::now();
                                let r = agent
                                    .post(&url)
                                    .set("Content-Type", "application/json")
                                    .send_string(body)
                                    .expect("an answer");
                                assert_eq!(r.status(), 200);
                                r.into_string().expect("text");
                                t.elapsed()
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("no failed request"))
                .collect()
        })
    };
    run(2_000);
    let rss_before_kib = server.rss_kib();
    let began = Instant::now();
    let mut times = run(20_000);
    let seconds = began.elapsed().as_secs_f64();
    let rss_after_kib = server.rss_kib();
    times.sort();
    assert_eq!(times.len(), 20_000);
    Load {
        requests: 20_000,
        connections: 64,
        times,
        seconds,
        rss_before_kib,
        rss_after_kib,
    }
}
