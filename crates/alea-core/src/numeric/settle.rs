//! When an iteration may stop: the rule that decides, from the widest gap left between
//! the bounds, whether a component's sweeps are done. One rule for every solver that
//! iterates bounds, on one process or on a cluster.

/// When a component's sweeps may stop. Its bounds can never be closer than its exits'
/// (a state's gap is at least a mean of its successors'), so a component that stopped just
/// within the tolerance would leave the components before it just above: a component
/// that others lead into is swept until a quarter of the tolerance, or, once within it,
/// until the gap stops shrinking; one that nothing leads into, until the tolerance.
pub struct Settle {
    /// The gap (relative to the tolerance) that is enough.
    pub enough: f64,
    /// The worst gap (relative to the tolerance) some sweeps ago, and the sweeps since.
    mark: f64,
    since: u32,
}

impl Settle {
    pub fn new(upstream: bool) -> Self {
        Settle {
            enough: if upstream { 0.25 } else { 1.0 },
            mark: f64::INFINITY,
            since: 0,
        }
    }

    pub fn done(&mut self, worst: f64) -> bool {
        if worst <= self.enough {
            return true;
        }
        self.since += 1;
        if self.since >= 16 {
            let stalled = worst > self.mark * 0.99;
            self.mark = worst;
            self.since = 0;
            return worst <= 1.0 && stalled;
        }
        false
    }
}
