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
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use timely::container::CapacityContainerBuilder;
use timely::container::{ContainerBuilder, LengthPreservingContainerBuilder, PushInto};
use timely::dataflow::channels::pact::ExchangeCore;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;
use timely::ExchangeData;

/// How long a waiting worker sleeps before it looks again: a peer's failure reaches it as
/// a poisoned queue, noticed at the next look.
const PARK: Duration = Duration::from_millis(50);

/// The most numbers (of 8 bytes: a state's words, values, ids) one message carries:
/// 128 KiB. Timely's network layer keeps, for every peer and for the rest of the run,
/// buffers as large as the largest message it has sent or received (1 MiB at least):
/// messages well under that keep them at their first size, so that a process's memory
/// follows its part of the model and not the number of its peers (see also
/// `OneEach`).
pub const PIECE: usize = 1 << 14;

/// How many items of `numbers` numbers each one message carries (see [`PIECE`]).
pub fn piece(numbers: usize) -> usize {
    (PIECE / numbers.max(1)).max(1)
}

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

/// Makes each message a timely message of its own. Timely's exchange otherwise packs
/// the messages for one worker into one (up to 8 KiB of them, counted by their handles),
/// and a round's pieces then travel as one message of megabytes: on 4 processes the
/// buffers of every peer doubled, and the network buffers' peak rose from 18 to 24 MB.
struct OneEach<T> {
    pending: VecDeque<Vec<T>>,
    out: Option<Vec<T>>,
}

impl<T> Default for OneEach<T> {
    fn default() -> Self {
        OneEach {
            pending: VecDeque::new(),
            out: None,
        }
    }
}

impl<T> PushInto<T> for OneEach<T> {
    fn push_into(&mut self, item: T) {
        self.pending.push_back(vec![item]);
    }
}

impl<T> ContainerBuilder for OneEach<T> {
    type Container = Vec<T>;

    fn extract(&mut self) -> Option<&mut Vec<T>> {
        self.out = self.pending.pop_front();
        self.out.as_mut()
    }

    fn finish(&mut self) -> Option<&mut Vec<T>> {
        self.extract()
    }
}

impl<T> LengthPreservingContainerBuilder for OneEach<T> {}

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
                    ExchangeCore::<OneEach<(u32, T)>, _>::new_core(|m: &(u32, T)| u64::from(m.0)),
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
        let mut got = Vec::new();
        self.finish_each(worker, |t| got.push(t));
        got
    }

    /// [`Channel::finish`], handing each message to `each` as it arrives: a round's
    /// messages are then never all held at once (the values of a sweep are megabytes).
    pub fn finish_each(&mut self, worker: &mut Worker, mut each: impl FnMut(T)) {
        let now = *self.input.time();
        let next = now + 1;
        self.input.advance_to(next);
        loop {
            // Whether the round was complete before what has arrived is taken: then
            // nothing of it can arrive after.
            let complete = !self.probe.less_than(&next);
            let arrived = self.inbox.borrow_mut().remove(&now);
            arrived.into_iter().flatten().for_each(&mut each);
            if complete {
                return;
            }
            worker.step_or_park(Some(PARK));
            if ABORT.load(Ordering::Relaxed) {
                std::panic::panic_any(ABORTED);
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_leaves_in_a_container_of_its_own() {
        let mut builder = OneEach::default();
        for m in 0..3 {
            builder.push_into(m);
        }
        let mut sent = Vec::new();
        while let Some(container) = builder.extract() {
            sent.push(std::mem::take(container));
        }
        assert_eq!(sent, [vec![0], vec![1], vec![2]]);
        assert!(builder.finish().is_none());
    }

    #[test]
    fn a_piece_holds_at_most_piece_numbers_and_at_least_one_item() {
        for numbers in 0..40 {
            let items = piece(numbers);
            assert!(items >= 1);
            assert!(items * numbers.max(1) <= PIECE, "{numbers}");
            assert!((items + 1) * numbers > PIECE || items == PIECE, "{numbers}");
        }
        assert_eq!(piece(PIECE * 3), 1);
    }
}
