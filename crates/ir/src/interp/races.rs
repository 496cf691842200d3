//! The data-race check in the interpreter: while it follows a schedule,
//! each thread's writes since its latest step of the schedule began are
//! kept; an access by another thread to one of those bytes, unless both
//! are inside atomic sections, is the two conflicting accesses adjacent in
//! the schedule: a data race, reported where the second access is (as
//! symex's `races` encodes it). The library models' own globals are not
//! the program's memory.

use super::exec::{Flow, Machine};
use super::memory::{ObjectId, ObjectKind, Pointer};
use crate::instr::PropertyClass;
use rustc_hash::FxHashMap as HashMap;

/// Bytes `[start, end)` of an object a thread wrote.
struct Written {
    object: ObjectId,
    start: u64,
    end: u64,
    atomic: bool,
}

/// The writes each thread made since its latest scheduled step began.
#[derive(Default)]
pub(super) struct RaceWatch {
    written: HashMap<u32, Vec<Written>>,
    /// Whether the running thread's step is an atomic section.
    pub(super) atomic: bool,
    /// Set while a thread is being started: its parameters' stores are
    /// not accesses of the program.
    pub(super) paused: bool,
}

impl RaceWatch {
    /// `thread` begins a step of the schedule: its earlier writes are no
    /// longer adjacent to what the others do.
    pub(super) fn step_begins(&mut self, thread: u32) {
        self.written.remove(&thread);
    }
}

impl Machine<'_> {
    /// Checks an access of `len` bytes at `ptr` by the running thread
    /// against the other threads' latest writes, and keeps it if it writes.
    pub(super) fn watch_access(&mut self, ptr: Pointer, len: u64, write: bool) -> Flow<()> {
        if !self.config.data_race_checks || self.is_model_state(ptr.object) {
            return Ok(());
        }
        let Some(scheduler) = self.threads.as_mut() else { return Ok(()) };
        let current = scheduler.current();
        let watch = scheduler.races();
        if watch.paused {
            return Ok(());
        }
        let (start, end, atomic) = (ptr.offset, ptr.offset + len, watch.atomic);
        let conflict = watch.written.iter().filter(|(thread, _)| **thread != current).flat_map(|(_, w)| w).any(|w| {
            w.object == ptr.object && w.start < end && start < w.end && !(w.atomic && atomic)
        });
        if write {
            watch.written.entry(current).or_default().push(Written { object: ptr.object, start, end, atomic });
        }
        match conflict {
            true => Err(self.violation(PropertyClass::DataRace, "data race: an access of memory another thread has just written".into())),
            false => Ok(()),
        }
    }

    /// Whether `object` is a global of the library models (their state,
    /// not the program's memory).
    fn is_model_state(&self, object: ObjectId) -> bool {
        match self.memory.object(object).kind {
            ObjectKind::Global(symbol) => self.program.files.is_library_model(self.program.symbols[symbol].loc),
            _ => false,
        }
    }
}
