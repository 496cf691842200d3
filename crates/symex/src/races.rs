//! The data-race check (`--data-races-check`, SV-COMP's no-data-race):
//! two accesses of the same byte by different threads, at least one a
//! write, not both inside atomic sections, that can happen one right after
//! the other.
//!
//! Under sequential consistency a program has a race exactly when some
//! execution has a write `w` of thread T and an access `e` of another
//! thread to an overlapping byte with no step of T between them: every
//! step of the others between `w` and `e` touches other memory (or it
//! would race with `w` first), so it can move out of the way and `w`, `e`
//! become adjacent. A read followed by a conflicting write swaps into a
//! write followed by a read. So the encoding needs no new events: for each
//! write `w` and each access `e` of another thread to the same object, the
//! race is `clock(w) < clock(e) < next(w)`, where `next(w)` is the clock of
//! the next step of T that happens (none: no bound). This is CBMC's
//! instrumentation (a write sets a flag its thread's next step clears,
//! every access of another thread asserts the flag clear) put into the
//! clocks. Each access that may race is one assertion at its step, so the
//! counterexample's schedule ends with the two accesses adjacent for the
//! interpreter to see (`ir::interp::threads`).
//!
//! Every shared access counts: loads and stores with their exact bytes
//! ([`Symex::note_access`]), and the whole object for the others (library
//! functions that copy or fill memory), which may report a race the replay
//! then does not confirm, never miss one. The models' own state (globals
//! the library models define, such as `errno`) is not the program's memory.

use crate::equation::{Assertion, ThreadStep};
use crate::exec::Symex;
use crate::memory::{ObjectId, ObjectKind};
use crate::threads::Clocks;
use ir::{FuncId, Loc, Property, PropertyClass};
use smt::{TermId, TermStore};
use std::collections::HashMap;

/// One access of shared memory by a step of a thread.
#[derive(Clone)]
struct Access {
    object: ObjectId,
    thread: usize,
    clock: TermId,
    guard: TermId,
    /// The bytes `[start, end)` of the object (wide offset width).
    start: TermId,
    end: TermId,
    write: bool,
    atomic: bool,
    loc: Loc,
    function: FuncId,
    steps_before: usize,
}

/// The accesses of a run, when the data-race check is on.
#[derive(Default)]
pub(crate) struct Races {
    accesses: Vec<Access>,
    /// Set while a load or store records its own bytes: the whole-object
    /// reads and writes it makes are not further accesses.
    exact: bool,
}

impl<'a> Symex<'a> {
    /// Marks the start (`true`) and end of a load or store that records
    /// its accesses itself.
    pub(crate) fn exact_accesses(&mut self, on: bool) {
        if let Some(races) = self.threads.as_mut().and_then(|t| t.races.as_mut()) {
            races.exact = on;
        }
    }

    /// A load or store of `bits` bits at `bit_offset` in `object` on the
    /// current paths where `condition` holds.
    pub(crate) fn note_access(&mut self, object: ObjectId, bit_offset: TermId, bits: u32, condition: TermId, write: bool) {
        if !self.races_wanted(object) {
            return;
        }
        let width = self.layout.wide_bits();
        let start = byte_of(self.store, bit_offset, width);
        let last_bit = self.store.bv_u64(width, u64::from(bits) + 7);
        let past = self.store.bv_add(bit_offset, last_bit);
        let end = byte_of(self.store, past, width);
        self.push_access(object, start, end, condition, write);
    }

    /// A read or write of `object` that no load or store recorded: the
    /// whole object counts.
    pub(crate) fn note_whole_access(&mut self, object: ObjectId, write: bool) {
        let exact = self.threads.as_ref().and_then(|t| t.races.as_ref()).is_none_or(|r| r.exact);
        if exact || !self.races_wanted(object) {
            return;
        }
        let width = self.layout.wide_bits();
        let start = self.store.bv_u64(width, 0);
        let end = self.store.bv_u64(width, u64::MAX);
        let always = self.store.true_term();
        self.push_access(object, start, end, always, write);
    }

    /// Whether accesses of `object` are checked for races now.
    fn races_wanted(&self, object: ObjectId) -> bool {
        let checked = self.threads.as_ref().is_some_and(|t| t.races.is_some());
        if !checked || !self.is_shared(object) {
            return false;
        }
        match self.objects.get(object).kind {
            ObjectKind::Global(symbol) => !self.program.files.is_library_model(self.program.symbols[symbol].loc),
            _ => true,
        }
    }

    fn push_access(&mut self, object: ObjectId, start: TermId, end: TermId, condition: TermId, write: bool) {
        let Some((thread, atomic)) = self.current_step() else { return };
        let Some(clock) = self.step_clock() else { return };
        let guard = self.store.and2(self.state.guard, condition);
        if self.store.is_false(guard) {
            return;
        }
        let function = self.frames.last().map_or(FuncId(0), |f| f.func);
        let (loc, steps_before) = (self.loc, self.equation.steps.len());
        let access = Access { object, thread, clock, guard, start, end, write, atomic, loc, function, steps_before };
        let races = self.threads.as_mut().and_then(|t| t.races.as_mut()).expect("checked by races_wanted");
        races.accesses.push(access);
    }
}

/// The byte that bit `bit` (wide width) lies in.
fn byte_of(store: &mut TermStore, bit: TermId, width: u32) -> TermId {
    let byte = store.extract(width - 1, 3, bit);
    store.zero_extend(3, byte)
}

/// For each clocked step (by its clock): whether its thread takes another
/// step that happens after it, and that step's clock.
fn next_steps(store: &mut TermStore, steps: &[ThreadStep]) -> HashMap<TermId, (TermId, TermId)> {
    let mut by_thread: HashMap<u32, Vec<&ThreadStep>> = HashMap::new();
    for step in steps {
        by_thread.entry(step.when.thread).or_default().push(step);
    }
    let mut next = HashMap::new();
    for chain in by_thread.values() {
        let mut later: Option<(TermId, TermId)> = None;
        for step in chain.iter().rev() {
            let entry = later.unwrap_or((store.false_term(), step.when.clock));
            next.insert(step.when.clock, entry);
            later = Some(match later {
                None => (step.guard, step.when.clock),
                Some((exists, clock)) => (store.or(&[step.guard, exists]), store.ite(step.guard, step.when.clock, clock)),
            });
        }
    }
    next
}

/// One assertion per access that may race with an earlier write of
/// another thread (see the module comment).
pub(crate) fn encode(store: &mut TermStore, clocks: Clocks, races: &Races, steps: &[ThreadStep], assertions: &mut Vec<Assertion>) {
    let next = next_steps(store, steps);
    let mut by_object: HashMap<ObjectId, Vec<&Access>> = HashMap::new();
    for access in &races.accesses {
        by_object.entry(access.object).or_default().push(access);
    }
    let mut objects: Vec<ObjectId> = by_object.keys().copied().collect();
    objects.sort_unstable();
    for object in objects {
        let accesses = &by_object[&object];
        for e in accesses {
            let mut races_with = Vec::new();
            for w in accesses.iter().filter(|w| w.write && w.thread != e.thread && !(w.atomic && e.atomic)) {
                races_with.push(adjacent(store, clocks, &next, w, e));
            }
            let racing = store.or(&races_with);
            if store.is_false(racing) {
                continue;
            }
            let message = match e.write {
                true => "data race: a write of memory another thread has just written",
                false => "data race: a read of memory another thread has just written",
            };
            assertions.push(Assertion {
                guard: e.guard,
                condition: store.not(racing),
                property: Property { class: PropertyClass::DataRace, message: message.into() },
                loc: e.loc,
                function: e.function,
                steps_before: e.steps_before,
                when: Some(crate::equation::ThreadTime { thread: e.thread as u32, clock: e.clock }),
            });
        }
    }
}

/// Write `w` and access `e` both happen, share a byte, and `e` comes after
/// `w` before `w`'s thread takes another step.
fn adjacent(store: &mut TermStore, clocks: Clocks, next: &HashMap<TermId, (TermId, TermId)>, w: &Access, e: &Access) -> TermId {
    let overlap_low = store.bv_ult(w.start, e.end);
    let overlap_high = store.bv_ult(e.start, w.end);
    let after = clocks.before(store, w.clock, e.clock);
    let (exists, following) = next.get(&w.clock).copied().unwrap_or((store.false_term(), w.clock));
    let no_next = store.not(exists);
    let in_time = clocks.before(store, e.clock, following);
    let before_next = store.or(&[no_next, in_time]);
    store.and(&[w.guard, e.guard, overlap_low, overlap_high, after, before_next])
}
