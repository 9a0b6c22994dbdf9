//! Rounds of messages between the workers, in lock step: every worker sends what it has
//! for the others, and a round ends when each has received everything sent to it in
//! that round. Exploration and every sweep of the solver are such rounds.
//!
//! A channel is a timely dataflow of its own: an input, an exchange that routes each
//! message to the worker it names, and an operator that keeps what arrives. A round is
//! one epoch of the input; the probe after the keeping operator passes the epoch only
//! once every message of it has been kept (the operator's output frontier waits for its
//! input's, in-flight messages included), so no barrier beyond timely's own progress
//! tracking is needed. Every worker must open the same channels in the same order, as
//! timely requires of dataflows.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;
use timely::ExchangeData;

/// How long a waiting worker sleeps before it looks again: a peer's failure reaches it as
/// a poisoned queue, noticed at the next look.
const PARK: Duration = Duration::from_millis(50);

/// The most items (states, values) one message carries. Timely's network layer keeps,
/// for every peer and for the rest of the run, buffers as large as the largest message
/// it has sent or received: messages of at most a few hundred kilobytes keep those at
/// their first size, so that a process's memory follows its part of the model and not
/// the number of its peers.
pub const PIECE: usize = 1 << 14;

/// Set when a worker of this process failed: the others stop waiting for rounds it will
/// never finish (and the process's end then tells the other processes).
static ABORT: AtomicBool = AtomicBool::new(false);

/// The message of the panic that ends a worker after another one failed.
pub(crate) const ABORTED: &str = "alea: a worker of this process failed";
/// The message of the panic of a worker that missed another worker's value: that one
/// left the run early, and waiting on would hang or use a value that never came.
pub(crate) const LEFT: &str = "a worker left the run before it ended";

/// Stops every worker of this process at its next wait.
pub(crate) fn abort() {
    ABORT.store(true, Ordering::SeqCst);
}

pub(crate) fn reset() {
    ABORT.store(false, Ordering::SeqCst);
}

/// A channel for messages of type `T` to any worker.
pub struct Channel<T: ExchangeData + Clone> {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<(u32, T)>>>,
    probe: ProbeHandle<u64>,
    /// What has arrived, by round: a fast worker's next round may arrive before this
    /// worker has finished the current one.
    inbox: Rc<RefCell<BTreeMap<u64, Vec<T>>>>,
}

impl<T: ExchangeData + Clone> Channel<T> {
    pub fn new(worker: &mut Worker) -> Channel<T> {
        let inbox: Rc<RefCell<BTreeMap<u64, Vec<T>>>> = Rc::new(RefCell::new(BTreeMap::new()));
        let keep = Rc::clone(&inbox);
        let mut input = InputHandle::new();
        let probe = worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|m: &(u32, T)| u64::from(m.0)),
                    "Deliver",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|time, data: &mut Vec<(u32, T)>| {
                                keep.borrow_mut()
                                    .entry(time.least().copied().unwrap_or(0u64))
                                    .or_default()
                                    .extend(data.drain(..).map(|(_, t)| t));
                            });
                        }
                    },
                )
                .probe()
                .0
        });
        Channel {
            input,
            probe,
            inbox,
        }
    }

    /// Queues `message` for worker `to` (this worker included) in the current round.
    #[inline]
    pub fn send(&mut self, to: usize, message: T) {
        self.input.send((to as u32, message));
    }

    /// Ends the round: waits until every worker's messages of this round have arrived,
    /// and returns those sent to this worker (in no particular order).
    pub fn finish(&mut self, worker: &mut Worker) -> Vec<T> {
        let now = *self.input.time();
        let next = now + 1;
        self.input.advance_to(next);
        while self.probe.less_than(&next) {
            worker.step_or_park(Some(PARK));
            if ABORT.load(Ordering::Relaxed) {
                std::panic::panic_any(ABORTED);
            }
        }
        self.inbox.borrow_mut().remove(&now).unwrap_or_default()
    }
}

/// One value from every worker, to every worker: the reductions that end a round (how
/// many new states, the largest gap between the bounds, an error).
pub struct Gather<T: ExchangeData + Clone> {
    channel: Channel<(u32, T)>,
}

impl<T: ExchangeData + Clone> Gather<T> {
    pub fn new(worker: &mut Worker) -> Gather<T> {
        Gather {
            channel: Channel::new(worker),
        }
    }

    /// Every worker's `value`, in the order of the workers' indices.
    pub fn all(&mut self, worker: &mut Worker, value: T) -> Vec<T> {
        let me = worker.index() as u32;
        for to in 0..worker.peers() {
            self.channel.send(to, (me, value.clone()));
        }
        let mut got = self.channel.finish(worker);
        if got.len() != worker.peers() {
            std::panic::panic_any(LEFT);
        }
        got.sort_unstable_by_key(|(from, _)| *from);
        got.into_iter().map(|(_, v)| v).collect()
    }
}
