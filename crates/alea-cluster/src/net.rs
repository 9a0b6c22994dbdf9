//! The processes of a cluster and their connections, in timely's conventions: `P`
//! processes numbered `0..P`, `W` worker threads in each, and a host file whose line `i`
//! is the address (`host:port`) of process `i` (by default `127.0.0.1:2101 + i`).
//!
//! The connections are made here rather than by timely so that a run never waits
//! forever: each process connects to those before it and accepts those after it, and
//! gives up, naming the process, once the timeout has passed. A handshake checks that
//! both ends run the same job (the fingerprint of the model, its constants and the
//! command), so that two runs sharing ports by mistake fail at once. The sockets then go
//! to timely, with TCP keepalive and a user timeout, so that a peer whose machine goes
//! away is noticed too: timely's network threads fail on a broken connection, which
//! poisons the queues of this process's workers; the panic hook below records which
//! peer it was, and [`Cluster::run`] turns it into [`ClusterError::Lost`].

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use socket2::{SockRef, TcpKeepalive};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::Hooks;
use timely::worker::Worker;
use timely::WorkerConfig;

use crate::ClusterError;

/// The first port of the default addresses, as timely's.
pub const BASE_PORT: u16 = 2101;
/// A handshake's first word: "alea", a version.
const MAGIC: u64 = 0x616c_6561_0001_0001;

/// How this process takes part.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// The number of processes.
    pub processes: usize,
    /// This process's index, `0..processes`.
    pub process: usize,
    /// Worker threads per process.
    pub workers: usize,
    /// Each process's address.
    pub addresses: Vec<String>,
    /// How long to wait for the others to start, and for a silent connection.
    pub timeout: Duration,
    /// What all processes must agree on (a hash of the job).
    pub fingerprint: u64,
}

impl Cluster {
    /// A cluster from the options; `hostfile` is the text of the host file and its name.
    pub fn new(
        processes: usize,
        process: usize,
        workers: usize,
        hostfile: Option<(&str, &str)>,
        timeout: Duration,
    ) -> Result<Cluster, ClusterError> {
        if processes == 0 {
            return Err(ClusterError::Options(
                "--processes must be at least 1".into(),
            ));
        }
        if process >= processes {
            return Err(ClusterError::Options(format!(
                "--process {process} is not one of the {processes} processes (0 to {})",
                processes - 1
            )));
        }
        if workers == 0 {
            return Err(ClusterError::Options("--workers must be at least 1".into()));
        }
        let addresses = match hostfile {
            None => (0..processes)
                .map(|i| format!("127.0.0.1:{}", usize::from(BASE_PORT) + i))
                .collect(),
            Some((name, text)) => read_hostfile(name, text, processes)?,
        };
        Ok(Cluster {
            processes,
            process,
            workers,
            addresses,
            timeout,
            fingerprint: 0,
        })
    }

    /// Runs `work` on every worker of this process, connected to the other processes'
    /// workers; this process's workers' results, in order.
    pub fn run<T, F>(&self, work: F) -> Result<Vec<T>, ClusterError>
    where
        T: Send + 'static,
        F: Fn(&mut Worker) -> Result<T, ClusterError> + Send + Sync + 'static,
    {
        install_hook();
        crate::round::reset();
        failures().clear();
        *fault() = None;
        let mut hooks = Hooks::default();
        // Timely keeps the byte buffers a burst of messages needed, for the rest of the
        // run, unless told how many empty ones to keep: a round's burst (exploration's
        // requests are the largest) would otherwise stay resident through the solve.
        hooks.refill.limit = Some(1);
        let local = ProcessBuilder::new_typed_vector(
            self.workers,
            hooks.refill.clone(),
            hooks.spill.clone(),
        );
        let (builders, others): (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>) =
            if self.processes == 1 {
                (
                    local.into_iter().map(AllocatorBuilder::Process).collect(),
                    Box::new(()),
                )
            } else {
                let sockets = self.connect()?;
                let (builders, guard) = initialize_networking_from_sockets(
                    local,
                    sockets,
                    self.process,
                    self.workers,
                    hooks,
                )
                .map_err(|e| ClusterError::Network(e.to_string()))?;
                (
                    builders.into_iter().map(AllocatorBuilder::Tcp).collect(),
                    Box::new(guard),
                )
            };
        let work = Arc::new(work);
        let guards = timely::execute::execute_from(
            builders,
            others,
            WorkerConfig::default(),
            move |worker| work(worker),
        )
        .map_err(ClusterError::Network)?;
        // Timely's guard of the network threads panics on dropping when one of them
        // failed: that is a lost peer, which the hook has recorded.
        let joined = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join()))
        {
            Ok(joined) => joined,
            Err(_) => return Err(self.lost("a network thread failed".into())),
        };
        let mut out = Vec::with_capacity(joined.len());
        let mut first_error = None;
        for result in joined {
            match result {
                Ok(Ok(t)) => out.push(t),
                Ok(Err(e)) => {
                    first_error.get_or_insert(e);
                }
                Err(panic) => {
                    first_error.get_or_insert(self.lost(panic));
                }
            }
        }
        first_error.map_or(Ok(out), Err)
    }

    /// What a worker's panic means: a peer lost (the network threads said which), or a
    /// fault of alea's own.
    fn lost(&self, panic: String) -> ClusterError {
        let recorded = failures().clone();
        match recorded.into_iter().min_by_key(|(p, _)| *p) {
            Some((process, cause)) => ClusterError::Lost {
                process,
                address: self.addresses[process].clone(),
                cause,
            },
            None => ClusterError::Internal(fault().clone().unwrap_or(panic)),
        }
    }

    /// Connects to every other process: to those before this one, accepting those after.
    /// Position `process` is `None`, as timely expects.
    fn connect(&self) -> Result<Vec<Option<TcpStream>>, ClusterError> {
        let deadline = Instant::now() + self.timeout;
        let me = self.process;
        let mut sockets: Vec<Option<TcpStream>> = (0..self.processes).map(|_| None).collect();
        let own = &self.addresses[me];
        let listener = TcpListener::bind(own).map_err(|e| ClusterError::Bind {
            address: own.clone(),
            cause: e.to_string(),
        })?;
        listener
            .set_nonblocking(true)
            .map_err(|e| ClusterError::Network(e.to_string()))?;
        for (i, socket) in sockets.iter_mut().enumerate().take(me) {
            *socket = Some(self.dial(i, deadline)?);
        }
        let mut waiting = self.processes - me - 1;
        while waiting > 0 {
            match listener.accept() {
                Ok((stream, _)) => match self.greet(&stream, None, deadline) {
                    Ok(peer) if peer > me && sockets[peer].is_none() => {
                        sockets[peer] = Some(stream);
                        waiting -= 1;
                    }
                    // A process of this cluster running another job stops the run.
                    Err(e @ ClusterError::Mismatch { .. }) => return Err(e),
                    // A stranger is turned away; the wait goes on.
                    _ => {}
                },
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() >= deadline {
                        let missing = (me + 1..self.processes)
                            .find(|&i| sockets[i].is_none())
                            .expect("a process is missing");
                        return Err(self.unreachable(missing));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(ClusterError::Network(e.to_string())),
            }
        }
        for s in sockets.iter().flatten() {
            self.tune(s)?;
        }
        Ok(sockets)
    }

    /// Connects to process `i` (started or not yet), until the deadline.
    fn dial(&self, i: usize, deadline: Instant) -> Result<TcpStream, ClusterError> {
        let address = &self.addresses[i];
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(self.unreachable(i));
            }
            let attempt = address
                .to_socket_addrs()
                .ok()
                .and_then(|mut a| a.next())
                .and_then(|a| {
                    TcpStream::connect_timeout(&a, (deadline - now).min(Duration::from_secs(1)))
                        .ok()
                });
            if let Some(stream) = attempt {
                match self.greet(&stream, Some(i), deadline) {
                    Ok(_) => return Ok(stream),
                    Err(e @ ClusterError::Mismatch { .. }) => return Err(e),
                    Err(_) => {}
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The handshake on a new connection: both ends say who they are and what job they
    /// run. `expect` is the peer dialled (`None` when accepting); the peer's index.
    fn greet(
        &self,
        stream: &TcpStream,
        expect: Option<usize>,
        deadline: Instant,
    ) -> Result<usize, ClusterError> {
        let io = |e: std::io::Error| ClusterError::Network(e.to_string());
        // A connection that says nothing (not one of ours) must not hold the wait up.
        let wait = deadline
            .saturating_duration_since(Instant::now())
            .clamp(Duration::from_millis(100), Duration::from_secs(5));
        stream.set_nonblocking(false).map_err(io)?;
        stream.set_read_timeout(Some(wait)).map_err(io)?;
        stream.set_nodelay(true).map_err(io)?;
        let mut hello = [0u8; 24];
        hello[..8].copy_from_slice(&MAGIC.to_le_bytes());
        hello[8..16].copy_from_slice(&(self.process as u64).to_le_bytes());
        hello[16..].copy_from_slice(&self.fingerprint.to_le_bytes());
        (&*stream).write_all(&hello).map_err(io)?;
        let mut back = [0u8; 24];
        (&*stream).read_exact(&mut back).map_err(io)?;
        let word = |i: usize| u64::from_le_bytes(back[i * 8..i * 8 + 8].try_into().unwrap());
        if word(0) != MAGIC {
            return Err(ClusterError::Network("not an alea process".into()));
        }
        let peer = word(1) as usize;
        if peer >= self.processes || expect.is_some_and(|e| e != peer) {
            return Err(ClusterError::Network("a process with another index".into()));
        }
        if word(2) != self.fingerprint {
            return Err(ClusterError::Mismatch {
                process: peer,
                address: self.addresses[peer].clone(),
            });
        }
        stream.set_read_timeout(None).map_err(io)?;
        Ok(peer)
    }

    /// Keepalive probes and a user timeout: a connection whose peer's machine is gone
    /// fails within about the timeout instead of never.
    fn tune(&self, stream: &TcpStream) -> Result<(), ClusterError> {
        let io = |e: std::io::Error| ClusterError::Network(e.to_string());
        let sock = SockRef::from(stream);
        let probe = (self.timeout / 4).max(Duration::from_secs(1));
        let keepalive = TcpKeepalive::new()
            .with_time(probe)
            .with_interval(probe)
            .with_retries(3);
        sock.set_tcp_keepalive(&keepalive).map_err(io)?;
        #[cfg(any(target_os = "linux", target_os = "android"))]
        sock.set_tcp_user_timeout(Some(self.timeout)).map_err(io)?;
        Ok(())
    }

    fn unreachable(&self, process: usize) -> ClusterError {
        ClusterError::Unreachable {
            process,
            address: self.addresses[process].clone(),
            waited: self.timeout,
        }
    }
}

/// The addresses in a host file: one `host:port` per line for each process in order;
/// blank lines and `#` comments are skipped.
fn read_hostfile(name: &str, text: &str, processes: usize) -> Result<Vec<String>, ClusterError> {
    let mut addresses = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let entry = line.split('#').next().unwrap_or("").trim();
        if entry.is_empty() {
            continue;
        }
        let column = line.find(entry).unwrap_or(0) + 1;
        let valid = entry
            .rsplit_once(':')
            .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
        if !valid || entry.contains(char::is_whitespace) {
            return Err(ClusterError::Hostfile(format!(
                "{name}:{}:{column}: expected an address host:port, found `{entry}`",
                n + 1
            )));
        }
        addresses.push(entry.to_string());
    }
    if addresses.len() < processes {
        return Err(ClusterError::Hostfile(format!(
            "{name}: {} addresses for {processes} processes: expected one line per process",
            addresses.len()
        )));
    }
    addresses.truncate(processes);
    Ok(addresses)
}

/// The first panic of a worker of this process that was not timely's: its message.
fn fault() -> MutexGuard<'static, Option<String>> {
    static FAULT: OnceLock<Mutex<Option<String>>> = OnceLock::new();
    let fault = FAULT.get_or_init(|| Mutex::new(None));
    fault.lock().unwrap_or_else(|e| e.into_inner())
}

/// The failures timely's network threads reported: the peer's index and the cause.
fn failures() -> MutexGuard<'static, Vec<(usize, String)>> {
    static FAILURES: OnceLock<Mutex<Vec<(usize, String)>>> = OnceLock::new();
    let failures = FAILURES.get_or_init(|| Mutex::new(Vec::new()));
    failures.lock().unwrap_or_else(|e| e.into_inner())
}

/// A panic hook that turns the panics by which timely takes a computation down (its
/// network threads on a broken connection, then the workers on the poisoned queues) into
/// a record of the lost peer, and prints nothing for them; other panics print as before.
fn install_hook() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let name = thread.name().unwrap_or("");
            let message = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("");
            let peer = name
                .strip_prefix("timely:recv-")
                .or_else(|| name.strip_prefix("timely:send-"))
                .and_then(|i| i.parse::<usize>().ok());
            if let Some(peer) = peer {
                // Only a broken connection is the peer's doing; a network thread that
                // fails on a poisoned queue follows a fault of this process.
                if let Some(cause) = message.strip_prefix("timely communication error: ") {
                    failures().push((peer, cause.to_string()));
                }
                crate::round::abort();
                return;
            }
            if message.contains("MergeQueue poisoned")
                || message.contains("Send thread panic")
                || message.contains("Recv thread panic")
                || message == crate::round::ABORTED
            {
                crate::round::abort();
                return;
            }
            // A fault of alea's own in a worker: the others of this process stop too,
            // and the first such message is what the run reports.
            if name.starts_with("timely:work") {
                crate::round::abort();
                let mut first = fault();
                first.get_or_insert_with(|| message.to_string());
                if message == crate::round::LEFT {
                    return;
                }
            }
            previous(info);
        }));
    });
}
