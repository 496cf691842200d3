//! The deadlock check in the interpreter: a thread that waits on a lock
//! (`__tarsier_thread_wait`) or a join is noted, so that the end of a
//! schedule can tell a deadlock (every live thread waiting so, see
//! `threads::deadlock_at_end`) from threads stopped by an assumption.

use super::exec::{Flow, Machine};
use super::Outcome;

impl Machine<'_> {
    /// `waited` is the outcome of a lock's wait or a join: when the thread
    /// cannot go on, it waits on synchronisation.
    pub(super) fn note_sync_wait<T>(&mut self, waited: Flow<T>) -> Flow<T> {
        if let (Err(Outcome::AssumptionViolated { .. }), Some(scheduler)) = (&waited, self.threads.as_mut()) {
            let current = scheduler.current();
            if !scheduler.waiting_on_sync.contains(&current) {
                scheduler.waiting_on_sync.push(current);
            }
        }
        waited
    }
}
