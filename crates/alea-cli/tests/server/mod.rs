//! A server started for a test or a benchmark, and the bounded load both run: loopback
//! only, a fixed number of requests, stopping by itself.

#![allow(dead_code)] // the tests and the benchmark use different parts

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

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

    /// `POST path` with `body`: the status and the answer's text.
    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        self.request("POST", path, body)
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, "")
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime for the client");
        runtime.block_on(async {
            let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
            let request = hyper::Request::builder()
                .method(method)
                .uri(format!("{}{path}", self.base))
                .header("content-type", "application/json")
                .body(Full::new(Bytes::from(body.to_string())))
                .expect("a request");
            let answer = client
                .request(request)
                .await
                .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
            let status = answer.status().as_u16();
            let text = answer
                .into_body()
                .collect()
                .await
                .expect("the body")
                .to_bytes();
            (
                status,
                String::from_utf8(text.to_vec()).expect("a text answer"),
            )
        })
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
/// to warm up; every answer must be 200. The client is asynchronous, on one thread: 64
/// blocking client threads would take the server's cores from it by switching.
pub fn advice_load(server: &Server, body: &str) -> Load {
    let connections = 64;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime for the client");
    let url: hyper::Uri = format!("{}/api/yahtzee/advise", server.base)
        .parse()
        .expect("a URL");
    let run = |requests: usize| -> Vec<Duration> {
        runtime.block_on(async {
            let client = Client::builder(TokioExecutor::new())
                .pool_max_idle_per_host(connections)
                .build_http::<Full<Bytes>>();
            let mut tasks = tokio::task::JoinSet::new();
            for c in 0..connections {
                let (client, url, body) = (client.clone(), url.clone(), body.to_string());
                let mine = requests / connections + usize::from(c < requests % connections);
                tasks.spawn(async move {
                    let mut times = Vec::with_capacity(mine);
                    for _ in 0..mine {
                        let request = hyper::Request::post(url.clone())
                            .header("content-type", "application/json")
                            .body(Full::new(Bytes::from(body.clone())))
                            .expect("a request");
                        let t = Instant::now();
                        let answer = client.request(request).await.expect("an answer");
                        assert_eq!(answer.status(), 200);
                        answer.into_body().collect().await.expect("the body");
                        times.push(t.elapsed());
                    }
                    times
                });
            }
            let mut times = Vec::with_capacity(requests);
            while let Some(done) = tasks.join_next().await {
                times.extend(done.expect("no failed request"));
            }
            times
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
        connections,
        times,
        seconds,
        rss_before_kib,
        rss_after_kib,
    }
}
