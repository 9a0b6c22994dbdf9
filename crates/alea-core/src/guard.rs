//! What bounds a long computation: the resource guards ([`Limits`]), and a flag that asks
//! it to stop ([`Stop`]): Ctrl-C in Python, a caller that gives up waiting.
//! Exploration and the solvers look at the flag every few thousand states or every sweep
//! and end with [`Error::Stopped`], so that stopped work frees its core rather than
//! running on to an answer nobody waits for.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::error::{Error, Result};

/// Resource guards shared by the solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most states a solver may store before it stops with
    /// [`Error::TooManyStates`].
    pub max_states: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: usize::MAX,
        }
    }
}

/// A shared stop flag; the default one is never raised.
#[derive(Clone, Debug, Default)]
pub struct Stop(Option<Arc<AtomicBool>>);

impl Stop {
    /// A flag that [`Stop::stop`] raises, for every clone at once.
    pub fn new() -> Stop {
        Stop(Some(Arc::new(AtomicBool::new(false))))
    }

    /// Asks the work that holds a clone of this flag to stop.
    pub fn stop(&self) {
        if let Some(flag) = &self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the flag was raised.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// [`Error::Stopped`] once the flag was raised.
    #[inline]
    pub fn check(&self) -> Result<()> {
        if self.is_stopped() {
            Err(Error::Stopped)
        } else {
            Ok(())
        }
    }
}
