//! The deadlock check (`--deadlock-check`): every thread that has not
//! ended waits for ever, on a lock held by another
//! ([`ir::intrinsics::THREAD_WAIT`] in the models) or on a join of a thread
//! that never ends, the main thread among them.
//!
//! A thread that waits stops on its path (see `crate::threads`), so each
//! thread's path ends in exactly one way: it ends, it is cut by the bound
//! or an assumption, or it stops at a wait. A wait is for ever when its
//! condition is false and no other thread writes what its step read after
//! it (its step may always come after those writes, so this loses no
//! deadlock); a join is for ever when the thread it names never ends. One
//! assertion per wait of the main thread: it fails when the main thread
//! waits for ever there and every other started thread has ended or waits
//! for ever. The replay checks the same at the end of the schedule
//! (`ir::interp::threads`): each waiting thread, given its step again,
//! still cannot go on.

use crate::equation::{Assertion, ThreadTime};
use crate::exec::Symex;
use crate::memory::ObjectId;
use crate::threads::{Clocks, Threads};
use crate::{Result, Stop};
use ir::{FuncId, Loc, Property, PropertyClass};
use smt::{TermId, TermStore};

/// A place where a thread may wait for ever.
struct Wait {
    thread: usize,
    guard: TermId,
    kind: WaitKind,
    clock: TermId,
    loc: Loc,
    function: FuncId,
    steps_before: usize,
}

enum WaitKind {
    /// Until `holds`, which reads the objects of the step.
    Condition { holds: TermId, reads: Vec<ObjectId> },
    /// Until the thread with this id has ended.
    Join { id: TermId },
    /// The main thread left through `pthread_exit`: it never goes on, and
    /// the process runs on while other threads do (checked where no atexit
    /// handler is registered).
    MainExit { unregistered: TermId },
}

/// The waits of a run, when the deadlock check is on.
#[derive(Default)]
pub(crate) struct Waits {
    waits: Vec<Wait>,
}

impl<'a> Symex<'a> {
    /// `__tarsier_thread_wait(condition)`: the thread goes on only where
    /// `condition` (an int) holds.
    pub(crate) fn thread_wait(&mut self, condition: TermId) -> Result<()> {
        let width = self.store.sort(condition).bv_width().unwrap_or(32);
        let zero = self.store.bv_u64(width, 0);
        let is_zero = self.store.eq(condition, zero);
        let holds = self.store.not(is_zero);
        if !self.threads_on() && self.options.deadlock_checks {
            // The only thread waits for a change no one else can make.
            self.assert(holds, PropertyClass::Deadlock, "deadlock: the only thread waits for ever");
        }
        let reads = self.current_step_reads();
        self.note_wait(WaitKind::Condition { holds, reads })?;
        self.assume(holds);
        Ok(())
    }

    /// A join of thread `id` (before the join itself).
    pub(crate) fn note_join_wait(&mut self, values: &[TermId]) -> Result<()> {
        match values.first() {
            Some(&id) => self.note_wait(WaitKind::Join { id }),
            None => Ok(()),
        }
    }

    /// The main thread's `pthread_exit` ends the process in the models (as
    /// `exit(0)`, after every other thread's steps), while the other
    /// threads run on: a deadlock when they then all wait for ever (see
    /// `encode`). The model's `exit` runs the atexit handlers there, which
    /// a process whose threads deadlock never runs (and whose writes could
    /// keep a thread waiting): the paths with a handler registered are not
    /// checked, and no TRUE rests on them.
    pub(crate) fn note_exit_for_deadlocks(&mut self) -> Result<()> {
        let checked = self.threads.as_ref().is_some_and(|t| t.waits.is_some());
        if !checked || !self.frames.iter().any(|f| self.program.functions[f.func].name == "pthread_exit") {
            return Ok(());
        }
        let registered = self.atexit_handler_registered()?;
        let guard = self.store.and2(self.state.guard, registered);
        self.approximate_when(guard, "the main thread's pthread_exit runs the atexit handlers, so the threads that would run on are not checked for deadlocks");
        let unregistered = self.store.not(registered);
        self.note_wait(WaitKind::MainExit { unregistered })
    }

    fn note_wait(&mut self, kind: WaitKind) -> Result<()> {
        if self.threads.as_ref().is_none_or(|t| t.waits.is_none()) {
            return Ok(());
        }
        let Some((thread, _)) = self.current_step() else {
            return Err(Stop::unsupported("a thread waits outside the threads' encoding", self.loc));
        };
        let Some(clock) = self.step_clock() else {
            return Err(Stop::unsupported("a thread waits outside the threads' encoding", self.loc));
        };
        let guard = self.state.guard;
        let function = self.frames.last().map_or(FuncId(0), |f| f.func);
        let wait = Wait { thread, guard, kind, clock, loc: self.loc, function, steps_before: self.equation.steps.len() };
        if let Some(waits) = self.threads.as_mut().and_then(|t| t.waits.as_mut()) {
            waits.waits.push(wait);
        }
        Ok(())
    }
}

/// One assertion per wait of the main thread (see the module comment).
pub(crate) fn encode(store: &mut TermStore, clocks: Clocks, threads: &Threads, waits: &Waits, assertions: &mut Vec<Assertion>) {
    let for_ever: Vec<TermId> = waits.waits.iter().map(|w| waits_for_ever(store, clocks, threads, w)).collect();
    let mut others_stopped = Vec::new();
    for (index, thread) in threads.threads.iter().enumerate().skip(1) {
        let mut ways = vec![store.not(thread.started)];
        ways.extend(thread.ends.iter().map(|&(guard, _, _)| guard));
        ways.extend(waits.waits.iter().zip(&for_ever).filter(|(w, _)| w.thread == index).map(|(_, &f)| f));
        others_stopped.push(store.or(&ways));
    }
    let all_stopped = store.and(&others_stopped);
    // After the main thread's pthread_exit, the process ends normally when
    // every other thread ends: a deadlock needs one that waits for ever.
    let others_waiting: Vec<TermId> = waits.waits.iter().zip(&for_ever).filter(|(w, _)| w.thread != 0).map(|(_, &f)| f).collect();
    let some_other_waits = store.or(&others_waiting);
    for (wait, &stuck) in waits.waits.iter().zip(&for_ever).filter(|(w, _)| w.thread == 0) {
        let mut deadlock = store.and2(stuck, all_stopped);
        if matches!(wait.kind, WaitKind::MainExit { .. }) {
            deadlock = store.and2(deadlock, some_other_waits);
        }
        if store.is_false(deadlock) {
            continue;
        }
        assertions.push(Assertion {
            guard: wait.guard,
            condition: store.not(deadlock),
            property: Property { class: PropertyClass::Deadlock, message: "deadlock: every thread waits for ever".into() },
            loc: wait.loc,
            function: wait.function,
            steps_before: wait.steps_before,
            when: Some(ThreadTime { thread: 0, clock: wait.clock }),
        });
    }
}

/// The thread reaches `wait` and never goes on from it.
fn waits_for_ever(store: &mut TermStore, clocks: Clocks, threads: &Threads, wait: &Wait) -> TermId {
    match &wait.kind {
        WaitKind::Condition { holds, reads } => {
            let mut conditions = vec![wait.guard, store.not(*holds)];
            for event in threads.events.iter().filter(|e| e.write && e.thread != wait.thread && reads.contains(&e.object)) {
                let earlier = clocks.before(store, event.clock, wait.clock);
                conditions.push(store.implies(event.guard, earlier));
            }
            store.and(&conditions)
        }
        WaitKind::Join { id } => {
            let mut conditions = vec![wait.guard];
            for (index, thread) in threads.threads.iter().enumerate().skip(1) {
                let number = store.bv_u64(threads.id_width, Threads::id_of(index));
                let named = store.eq(*id, number);
                let ends: Vec<TermId> = thread.ends.iter().map(|&(guard, _, _)| guard).collect();
                let ended = store.or(&ends);
                let never = store.not(ended);
                conditions.push(store.implies(named, never));
            }
            store.and(&conditions)
        }
        WaitKind::MainExit { unregistered } => store.and2(wait.guard, *unregistered),
    }
}
