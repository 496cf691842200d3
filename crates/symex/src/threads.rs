//! Threads: every interleaving of a multi-threaded program under
//! sequential consistency in one formula, by a partial-order encoding.
//!
//! Symex runs the main thread, then each started thread in turn, each on
//! its own path. A thread's execution is cut into *steps*: one instruction,
//! or a whole atomic section (`__VERIFIER_atomic_begin/end`, the body of a
//! `__VERIFIER_atomic_*` function). Each step that may touch shared memory
//! gets a clock (a bit-vector the solver chooses); every read of a shared
//! object in a step is an *event* with a fresh value, every write an event
//! with the written value (a write of part of an object writes back the rest
//! as read in the same step, which is what a byte-level store leaves there).
//! The solver picks for each read the write it reads from (same value,
//! earlier clock), a coherence order of the writes of each object, and
//! reads come before the writes that overwrite what they read. Clocks
//! increase along each thread, a thread starts after its creator's step
//! and a join waits for the joined thread's end. Objects no other thread
//! can reach (locals whose address is never taken, return values) are not
//! shared and cost nothing.
//!
//! A blocked thread (a lock held by another, an assumption that fails, a
//! join of a thread that has not ended) stops on its path: the others run
//! on, so a violation elsewhere is still found.

use crate::exec::Symex;
use crate::memory::{ObjectId, ObjectKind};
use crate::equation::{ThreadStep, ThreadTime};
use crate::{Result, Stop};
use ir::{FuncId, SymbolId};
use smt::{Sort, TermId, TermStore};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Width of the clock variables: enough for [`MAX_STEPS`] steps. The
/// constraints compare only the low bits a run's steps need (see
/// [`clock_width`]), the others are zero.
const CLOCK_BITS: u32 = 40;
/// The steps a run may have before the encoding is refused.
const MAX_STEPS: usize = 100_000;

/// One started thread.
pub(crate) struct Thread {
    /// The condition under which it was started.
    pub(crate) started: TermId,
    /// What it runs (`None` for the main thread).
    run: Option<Runner>,
    /// The state of its creator at the start (for what is alive).
    parent_state: Option<crate::state::State>,
    /// The thread that started it, and where (its creator's frames).
    origin: Option<(usize, Vec<(FuncId, usize)>)>,
    /// The clock of its latest step.
    last_clock: Option<TermId>,
    /// Where it ends: condition, clock, value it ends with.
    pub(crate) ends: Vec<(TermId, TermId, TermId)>,
}

/// What a started thread runs.
#[derive(Clone)]
enum Runner {
    /// A function with its arguments (`pthread_create`'s wrapper).
    Call(FuncId, Vec<TermId>, Vec<ir::TypeId>),
    /// The statement at `pc` of its creator's function, with the creator's
    /// locals (CBMC's `__CPROVER_ASYNC_n: stmt;`, which ends at `EndThread`).
    Statement { func: FuncId, pc: usize, locals: HashMap<SymbolId, ObjectId> },
}

/// A step of the running thread.
struct Step {
    id: u32,
    thread: usize,
    /// Made once the step does something others can see (see
    /// [`Symex::step_clock`]); steps without one are local.
    clock: Option<TermId>,
    guard: TermId,
    function: FuncId,
    pc: u32,
    atomic: bool,
    /// The value each shared object read in this step was read as.
    reads: HashMap<ObjectId, TermId>,
}

#[derive(Clone, Copy)]
pub(crate) struct Event {
    pub(crate) object: ObjectId,
    pub(crate) thread: usize,
    pub(crate) step: u32,
    pub(crate) clock: TermId,
    /// Order among all events (program order within a step).
    seq: u32,
    pub(crate) guard: TermId,
    pub(crate) value: TermId,
    pub(crate) write: bool,
}

#[cfg(test)]
impl Event {
    /// An event of object 0 of thread 0 in `step`, its clock its guard.
    pub(crate) fn for_test(value: TermId, guard: TermId, step: u32, write: bool) -> Event {
        let object = <ObjectId as ir::entity::EntityRef>::new(0);
        Event { object, thread: 0, step, clock: guard, seq: 0, guard, value, write }
    }
}

/// What names an object's instances in every run of symex: its variable
/// or its allocation's place.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum ObjectSite {
    Variable(SymbolId),
    Allocation(ir::Loc),
}

impl ObjectSite {
    pub(crate) fn of(kind: &ObjectKind) -> Option<ObjectSite> {
        match kind {
            ObjectKind::Global(symbol) | ObjectKind::Local { symbol, .. } => Some(ObjectSite::Variable(*symbol)),
            ObjectKind::Heap { loc } | ObjectKind::Stack { loc, .. } => Some(ObjectSite::Allocation(*loc)),
            _ => None,
        }
    }
}

/// Shared objects that only one thread touches need no events: a run that
/// found the sites whose every object one thread touched (`found`) lets
/// the next run take their objects (`sites`) as the thread's that touches
/// each first, as a thread's locals are. Should another thread touch one
/// there after all, that run is void (`broken`) and the previous one
/// stands. Globals that only the main thread writes, before it starts any
/// thread (`found_settled`, then `settled`), need none either: each
/// thread's state holds their value when it starts, and no write comes
/// after; a later write voids the run. A read of one then keeps the value
/// it was given (a lock's or a stream's pointer, which a fresh read value
/// would let point anywhere), which can leave more sites to one thread in
/// the run after.
#[derive(Default)]
pub(crate) struct OneThread {
    pub(crate) sites: Rc<HashSet<ObjectSite>>,
    pub(crate) settled: Rc<HashSet<ObjectSite>>,
    /// The thread that touched each object of `sites` first.
    owners: HashMap<ObjectId, usize>,
    pub(crate) broken: bool,
    pub(crate) found: HashSet<ObjectSite>,
    pub(crate) found_settled: HashSet<ObjectSite>,
}

/// A join: which thread, when, and what it waits for.
struct Join {
    guard: TermId,
    clock: TermId,
    id: TermId,
    value: TermId,
    done: TermId,
}

pub(crate) struct Threads {
    current: usize,
    pub(crate) threads: Vec<Thread>,
    step: Option<Step>,
    next_step: u32,
    pub(crate) events: Vec<Event>,
    joins: Vec<Join>,
    /// Locals whose address is taken somewhere (they may be shared).
    address_taken: Rc<HashSet<SymbolId>>,
    /// Instruction ranges (inclusive) of atomic sections, per function.
    atomic_ranges: HashMap<FuncId, Rc<Vec<(usize, usize)>>>,
    /// The value of each shared object when the entry function starts.
    initial: crate::state::State,
    /// Width of a thread id (`pthread_t`, an `unsigned long`).
    pub(crate) id_width: u32,
    /// Where the process ends (the entry function returns, `exit`,
    /// `abort`): the condition, the ending thread and its step's clock.
    process_ends: Vec<(TermId, usize, TermId)>,
    /// The step that started the first thread.
    first_start_step: Option<u32>,
    /// Consecutive clocks of a thread (a started thread's first follows
    /// its creator's step).
    program_order: Vec<(TermId, TermId)>,
    /// Each started thread's instances of the thread-local globals, by
    /// symbol and thread index.
    thread_local_copies: HashMap<(SymbolId, usize), ObjectId>,
    /// The accesses the data-race check looks at, when it is on.
    pub(crate) races: Option<crate::races::Races>,
    /// The places threads may wait for ever, when the deadlock check is on.
    pub(crate) waits: Option<crate::deadlock::Waits>,
    /// Changes of objects' liveness and the threads' questions about it.
    pub(crate) lifetimes: crate::lifetimes::Lifetimes,
}

impl Threads {
    pub(crate) fn new(program: &ir::Program, initial: crate::state::State, true_term: TermId) -> Threads {
        let main = Thread { started: true_term, run: None, parent_state: None, origin: None, last_clock: None, ends: Vec::new() };
        Threads {
            current: 0,
            threads: vec![main],
            step: None,
            next_step: 0,
            events: Vec::new(),
            joins: Vec::new(),
            address_taken: Rc::new(program.address_taken_symbols()),
            atomic_ranges: HashMap::new(),
            initial,
            id_width: program.data_model.long_bits(),
            thread_local_copies: HashMap::new(),
            process_ends: Vec::new(),
            first_start_step: None,
            program_order: Vec::new(),
            races: None,
            waits: None,
            lifetimes: Default::default(),
        }
    }

    /// The number of the running step, if one runs.
    pub(crate) fn step_id(&self) -> Option<u32> {
        self.step.as_ref().map(|s| s.id)
    }

    /// The id of thread number `index` (the main thread's is `MAIN_THREAD_ID`).
    pub(crate) fn id_of(index: usize) -> u64 {
        ir::intrinsics::MAIN_THREAD_ID + index as u64
    }

    /// How many of thread `index` and the threads that started it, one
    /// after the other, were started at `site`: a thread that starts
    /// threads like itself recurses, and is bounded as recursion is.
    fn started_at(&self, index: usize, site: &[(FuncId, usize)]) -> u64 {
        let mut count = 0;
        let mut thread = Some(index);
        while let Some((creator, at)) = thread.and_then(|t| self.threads[t].origin.as_ref()) {
            count += u64::from(at.as_slice() == site);
            thread = Some(*creator);
        }
        count
    }
}

impl<'a> Symex<'a> {
    /// Whether the threads' encoding is on (the program starts threads).
    pub(crate) fn threads_on(&self) -> bool {
        self.threads.is_some()
    }

    /// The index of the running thread (0, the main thread's, when no
    /// threads run).
    pub(crate) fn running_thread(&self) -> usize {
        self.threads.as_ref().map_or(0, |t| t.current)
    }

    /// The running thread's instance of thread-local global `symbol`.
    /// Its address is refused: another thread could then use an instance
    /// after its thread ended, whose end does not free it here.
    pub(crate) fn thread_local_object(&mut self, symbol: SymbolId) -> Result<ObjectId> {
        let threads = self.threads.as_ref().expect("threads on");
        if threads.address_taken.contains(&symbol) {
            let what = format!("the address of thread-local `{}` in a program that starts threads", self.program.symbols[symbol].display_name);
            return Err(Stop::unsupported(what, self.loc));
        }
        match threads.current {
            0 => self.global_object(symbol),
            _ => self.thread_local_copy(symbol),
        }
    }

    /// A started thread's own instance of thread-local global `symbol`: it
    /// starts as the main thread's was when the entry function started,
    /// i.e. with its static initializer.
    fn thread_local_copy(&mut self, symbol: SymbolId) -> Result<ObjectId> {
        let thread = self.running_thread();
        if let Some(&o) = self.threads.as_ref().and_then(|t| t.thread_local_copies.get(&(symbol, thread))) {
            return Ok(o);
        }
        let main = self.global_object(symbol)?;
        let initial = match self.threads.as_ref().and_then(|t| t.initial.value(main)) {
            Some(value) => value,
            None => self.initial_value_of(main),
        };
        let id = Threads::id_of(thread);
        let name = format!("{}#thread{id}", self.objects.get(main).name);
        let size = self.store.bv_u64(self.layout.wide_bits(), self.objects.get(main).size);
        let o = self.add_object(ObjectKind::ThreadLocal { symbol, thread: id }, name, size)?;
        self.set_initial_value(o, initial);
        // The pointers stored in that value go along.
        let zero = self.store.bv_u64(self.layout.wide_bits(), 0);
        let bits = u32::try_from(self.objects.get(main).size * 8).ok();
        self.note_copy(main, zero, o, zero, bits);
        self.threads.as_mut().expect("a started thread runs").thread_local_copies.insert((symbol, thread), o);
        Ok(o)
    }

    /// Whether `object` may be seen by more than one thread (and is not
    /// taken as one thread's, see [`OneThread`]).
    pub(crate) fn is_shared(&self, object: ObjectId) -> bool {
        self.may_be_shared(object) && !self.taken_as_one_threads(object)
    }

    fn taken_as_one_threads(&self, object: ObjectId) -> bool {
        ObjectSite::of(&self.objects.get(object).kind).is_some_and(|site| self.one_thread.sites.contains(&site) || self.one_thread.settled.contains(&site))
    }

    /// Whether `object` is shared, noting who touches an object taken as
    /// one thread's: a thread other than its first voids the run, and so
    /// does a write to a settled object once a thread was started.
    fn shared_on_touch(&mut self, object: ObjectId, write: bool) -> bool {
        if !self.may_be_shared(object) {
            return false;
        }
        let site = ObjectSite::of(&self.objects.get(object).kind);
        if site.is_some_and(|site| self.one_thread.settled.contains(&site)) {
            let started = self.threads.as_ref().is_some_and(|t| t.threads.len() > 1 || t.current != 0);
            self.one_thread.broken |= write && started;
            return false;
        }
        if !self.taken_as_one_threads(object) {
            return true;
        }
        let thread = self.running_thread();
        let owner = *self.one_thread.owners.entry(object).or_insert(thread);
        self.one_thread.broken |= owner != thread;
        false
    }

    /// Whether `object` may be seen by more than one thread: what kind of
    /// object it is says so.
    pub(crate) fn may_be_shared(&self, object: ObjectId) -> bool {
        let Some(threads) = &self.threads else { return false };
        match &self.objects.get(object).kind {
            // Each thread has its own, and no address of one is taken (see
            // `thread_local_object`).
            ObjectKind::Global(symbol) if self.program.symbols[*symbol].thread_local => false,
            ObjectKind::ThreadLocal { .. } => false,
            ObjectKind::Global(symbol) => !self.program.symbols[*symbol].read_only,
            ObjectKind::Local { symbol, .. } => threads.address_taken.contains(symbol),
            ObjectKind::Heap { .. } | ObjectKind::Stack { .. } => true,
            ObjectKind::StringLiteral(_) | ObjectKind::ReturnValue { .. } | ObjectKind::Function(_) | ObjectKind::Environment => false,
        }
    }

    /// Whether the instruction at `pc` of the innermost frame runs inside
    /// an atomic section (see [`ir::intrinsics::inside_atomic`]).
    fn inside_atomic(&mut self, pc: usize, strictly: bool) -> bool {
        let mut positions: Vec<(FuncId, usize)> = self.frames.iter().map(|f| (f.func, f.pc)).collect();
        if let Some(last) = positions.last_mut() {
            last.1 = pc;
        }
        let program = self.program;
        let threads = self.threads.as_mut().expect("threads on");
        let mut sections = |func| Rc::clone(threads.atomic_ranges.entry(func).or_insert_with(|| Rc::new(ir::intrinsics::atomic_sections(program, func))));
        ir::intrinsics::inside_atomic(&positions, strictly, &mut sections)
    }

    /// The running thread and whether its current step is atomic.
    pub(crate) fn current_step(&self) -> Option<(usize, bool)> {
        let step = self.threads.as_ref()?.step.as_ref()?;
        Some((step.thread, step.atomic))
    }

    /// The shared objects the current step has read so far.
    pub(crate) fn current_step_reads(&self) -> Vec<ObjectId> {
        let step = self.threads.as_ref().and_then(|t| t.step.as_ref());
        let mut reads: Vec<ObjectId> = step.map(|s| s.reads.keys().copied().collect()).unwrap_or_default();
        reads.sort_unstable();
        reads
    }

    /// Called before each instruction a thread executes: opens a new step
    /// unless the instruction continues the current atomic section.
    pub(crate) fn thread_step(&mut self, pc: usize) -> Result<()> {
        if self.threads.is_none() {
            return Ok(());
        }
        let continues = self.threads.as_ref().and_then(|t| t.step.as_ref()).is_some_and(|s| s.atomic) && self.inside_atomic(pc, true);
        if continues {
            return Ok(());
        }
        let atomic = self.inside_atomic(pc, false);
        self.open_step(atomic, pc)
    }

    fn open_step(&mut self, atomic: bool, pc: usize) -> Result<()> {
        let threads = self.threads.as_mut().expect("threads on");
        if threads.next_step as usize >= MAX_STEPS {
            return Err(Stop::unsupported(format!("more than {MAX_STEPS} steps of threads"), self.loc));
        }
        let thread = threads.current;
        let function = self.frames.last().expect("a frame runs").func;
        let (guard, pc) = (self.state.guard, pc as u32);
        threads.step = Some(Step { id: threads.next_step, thread, clock: None, guard, function, pc, atomic, reads: HashMap::new() });
        threads.next_step += 1;
        Ok(())
    }

    /// The clock of the current step, made when first asked for: the step
    /// then follows the thread's previous step with a clock, and is one
    /// of the schedule's (`None` when no step runs).
    pub(crate) fn step_clock(&mut self) -> Option<TermId> {
        let threads = self.threads.as_mut()?;
        let step = threads.step.as_mut()?;
        if let Some(clock) = step.clock {
            return Some(clock);
        }
        let clock = self.store.var("clock", Sort::BitVec(CLOCK_BITS));
        step.clock = Some(clock);
        let thread = &mut threads.threads[step.thread];
        if let Some(previous) = thread.last_clock.replace(clock) {
            threads.program_order.push((previous, clock));
        }
        let when = ThreadTime { thread: step.thread as u32, clock };
        let taken = ThreadStep { when, guard: step.guard, function: step.function, pc: step.pc, started: Vec::new() };
        self.equation.thread_steps.push(taken);
        Some(clock)
    }

    /// The current value of shared `object` on this path, read in the
    /// current step (`None` if the object is not shared or no step runs).
    pub(crate) fn shared_value(&mut self, object: ObjectId) -> Option<TermId> {
        if !self.shared_on_touch(object, false) {
            return None;
        }
        self.note_whole_access(object, false);
        let step_id = self.threads.as_ref().and_then(|t| t.step.as_ref()).map(|s| s.id)?;
        if self.state.touched_in_step(step_id, object) {
            return self.state.value(object);
        }
        let value = self.step_read(object);
        self.state.set_value(object, value);
        self.state.touch(step_id, object);
        Some(value)
    }

    /// The value `object` is read as in the current step (one per step:
    /// every path of an atomic section reads it at the same time).
    fn step_read(&mut self, object: ObjectId) -> TermId {
        let known = self.threads.as_ref().and_then(|t| t.step.as_ref()).and_then(|s| s.reads.get(&object).copied());
        if let Some(value) = known {
            return value;
        }
        let sort = self.objects.get(object).value_sort(self.store);
        let name = format!("{}#read", self.objects.get(object).name);
        let value = self.store.var(&name, sort);
        let step = self.threads.as_mut().and_then(|t| t.step.as_mut()).expect("a step runs");
        step.reads.insert(object, value);
        // Every path of the step reads it as this value (see `align_for_merge`).
        let guard = step.guard;
        self.add_event(object, guard, value, false);
        value
    }

    /// An event of the current step: `object` read as or written with
    /// `value` where `guard` holds.
    fn add_event(&mut self, object: ObjectId, guard: TermId, value: TermId, write: bool) {
        let clock = self.step_clock().expect("a step runs");
        let threads = self.threads.as_mut().expect("threads on");
        let step = threads.step.as_ref().expect("a step runs");
        let seq = threads.events.len() as u32;
        threads.events.push(Event { object, thread: step.thread, step: step.id, clock, seq, guard, value, write });
    }

    /// Records that this path wrote `value` into shared `object`.
    pub(crate) fn shared_write(&mut self, object: ObjectId, value: TermId) {
        let always = self.store.true_term();
        self.shared_write_when(object, value, always);
    }

    /// [`Self::shared_write`] of a write that changes the object only where
    /// `condition` holds (elsewhere `value` is what the path read): other
    /// threads see a write only there.
    pub(crate) fn shared_write_when(&mut self, object: ObjectId, value: TermId, condition: TermId) {
        if !self.shared_on_touch(object, true) {
            return;
        }
        let Some(step_id) = self.threads.as_ref().and_then(|t| t.step.as_ref()).map(|s| s.id) else { return };
        self.note_whole_access(object, true);
        // A path merged from one that read the object and one that did
        // not: the latter's value is the step's read.
        self.state.touch(step_id, object);
        let guard = self.store.and2(self.state.guard, condition);
        self.add_event(object, guard, value, true);
    }

    /// Before two states of the current step merge: an object one of them
    /// touched in the step gets the step's read value in the other.
    pub(crate) fn align_for_merge(&mut self, other: &mut crate::state::State) {
        // A path that never happens is dropped by the merge.
        if self.store.is_false(self.state.guard) || self.store.is_false(other.guard) {
            return;
        }
        let Some(step_id) = self.threads.as_ref().and_then(|t| t.step.as_ref()).map(|s| s.id) else { return };
        let mine = self.state.touched(step_id);
        let theirs = other.touched(step_id);
        for &o in mine.difference(&theirs) {
            let value = self.step_read(o);
            other.set_value(o, value);
            other.touch(step_id, o);
        }
        for &o in theirs.difference(&mine) {
            let value = self.step_read(o);
            self.state.set_value(o, value);
            self.state.touch(step_id, o);
        }
    }

    /// `__tarsier_thread_create(run, start, arg)`: a new thread that will
    /// run `run(start, arg)`; its id.
    pub(crate) fn create_thread(&mut self, values: &[TermId], arg_types: &[ir::TypeId]) -> Result<TermId> {
        let [run, start, arg] = values else {
            return Err(Stop::unsupported("thread creation with other than three arguments", self.loc));
        };
        let Some(threads) = &self.threads else {
            return Err(Stop::unsupported("thread creation outside the threads' encoding", self.loc));
        };
        let id_width = threads.id_width;
        let func = match self.layout.known_targets(self.store, *run) {
            Some(numbers) if numbers.len() == 1 => match self.objects.by_number(numbers[0]).map(|o| self.objects.get(o).kind.clone()) {
                Some(ObjectKind::Function(f)) => f,
                _ => return Err(Stop::unsupported("a thread's runner is not a function", self.loc)),
            },
            _ => return Err(Stop::unsupported("a thread's runner is not a known function", self.loc)),
        };
        let index = self.start_thread(Runner::Call(func, vec![*start, *arg], arg_types[1..].to_vec()));
        Ok(self.store.bv_u64(id_width, index.map_or(0, Threads::id_of)))
    }

    /// `StartThread(target)` (CBMC's `__CPROVER_ASYNC_n: stmt;`): a new
    /// thread runs the statement at `target` of the current function with
    /// its locals: those whose address is taken are shared, the others it
    /// has as they are now.
    pub(crate) fn spawn_statement(&mut self, target: usize) -> Result<()> {
        if self.threads.is_none() {
            return Err(Stop::unsupported("thread creation outside the threads' encoding", self.loc));
        }
        let frame = self.frames.last().expect("a frame runs");
        let runner = Runner::Statement { func: frame.func, pc: target, locals: frame.locals.clone() };
        self.start_thread(runner);
        Ok(())
    }

    /// A new thread that runs `runner` from the current path: its number,
    /// or `None` when the bound on threads started by threads cut the path.
    fn start_thread(&mut self, runner: Runner) -> Option<usize> {
        let site: Vec<(FuncId, usize)> = self.frames.iter().map(|f| (f.func, f.pc)).collect();
        if self.thread_bound_reached(&site) {
            return None;
        }
        let clock = self.step_clock();
        let threads = self.threads.as_mut().expect("threads on");
        let (index, creator) = (threads.threads.len(), threads.current);
        if threads.first_start_step.is_none() {
            // The current step's (the last step made).
            threads.first_start_step = Some(threads.next_step.saturating_sub(1));
        }
        let started = (index as u32, self.state.guard);
        self.equation.thread_steps.last_mut().expect("a step runs").started.push(started);
        threads.threads.push(Thread {
            started: self.state.guard,
            run: Some(runner),
            parent_state: Some(self.state.clone()),
            origin: Some((creator, site)),
            last_clock: clock,
            ends: Vec::new(),
        });
        Some(index)
    }

    /// Whether the running thread, about to start a thread at `site`,
    /// reached the bound of threads started there one by another (see
    /// [`Threads::started_at`]): then the path ends, by the bound's
    /// unwinding assertion or assumption.
    fn thread_bound_reached(&mut self, site: &[(FuncId, usize)]) -> bool {
        let threads = self.threads.as_ref().expect("threads on");
        let chain = threads.started_at(threads.current, site);
        if chain == 0 || self.options.unwind.is_none_or(|k| chain < k) {
            return false;
        }
        let program = self.program;
        let program_frame = site.iter().rev().find(|(f, _)| !program.files.is_library_model(program.functions[*f].loc));
        let name = program_frame.map_or("a library model", |(f, _)| program.functions[*f].name.as_str());
        let guard = self.state.guard;
        self.bound_exceeded(guard, &format!("threads started in {name} by threads started there"));
        true
    }

    /// The running thread and its step's clock, when threads run (the
    /// step becomes one of the schedule's).
    pub(crate) fn thread_time(&mut self) -> Option<ThreadTime> {
        let clock = self.step_clock()?;
        let thread = self.threads.as_ref()?.current as u32;
        Some(ThreadTime { thread, clock })
    }

    /// The running thread and the clock of its latest step that has one,
    /// for the order of a trace (no clock is made).
    pub(crate) fn thread_time_seen(&self) -> Option<ThreadTime> {
        let threads = self.threads.as_ref()?;
        let clock = threads.step.as_ref().and_then(|s| s.clock).or(threads.threads[threads.current].last_clock)?;
        Some(ThreadTime { thread: threads.current as u32, clock })
    }

    /// `__tarsier_thread_self()`.
    pub(crate) fn thread_self(&mut self) -> TermId {
        let threads = self.threads.as_ref();
        let (width, current) = threads.map_or((self.program.data_model.long_bits(), 0), |t| (t.id_width, t.current));
        self.store.bv_u64(width, Threads::id_of(current))
    }

    /// The process ends on the current paths: no thread runs after it.
    pub(crate) fn note_process_end(&mut self) {
        let guard = self.state.guard;
        let Some(clock) = self.step_clock() else { return };
        let threads = self.threads.as_mut().expect("threads on");
        let current = threads.current;
        threads.process_ends.push((guard, current, clock));
    }

    /// `__tarsier_thread_exit(value)`: the running thread ends on this path.
    pub(crate) fn exit_thread(&mut self, value: TermId) -> Result<()> {
        // pthread_exit runs the handlers pthread_cleanup_push registered,
        // coming back through the jump glibc's macro saved: not modelled.
        let positions: Vec<(FuncId, usize)> = self.frames.iter().map(|f| (f.func, f.pc)).collect();
        if ir::intrinsics::cleanup_registered(self.program, &positions) {
            return Err(Stop::unsupported("a thread ends while a cleanup handler is registered (the handler would run)", self.loc));
        }
        let guard = self.state.guard;
        let Some(clock) = self.step_clock() else {
            return Err(Stop::unsupported("a thread ends outside the threads' encoding", self.loc));
        };
        let threads = self.threads.as_mut().expect("threads on");
        let current = threads.current;
        threads.threads[current].ends.push((guard, clock, value));
        let f = self.store.false_term();
        self.assume(f);
        Ok(())
    }

    /// `__tarsier_thread_join(id)`: the value thread `id` ended with; the
    /// path goes on only once that thread has ended.
    pub(crate) fn join_thread(&mut self, values: &[TermId], value_sort: Sort) -> Result<TermId> {
        let Some(&id) = values.first() else { return Err(Stop::unsupported("thread join without an id", self.loc)) };
        let value = self.store.var("joined_value", value_sort);
        let done = self.store.var("joined", Sort::Bool);
        let guard = self.state.guard;
        let Some(clock) = self.step_clock() else {
            return Err(Stop::unsupported("a thread join outside the threads' encoding", self.loc));
        };
        let threads = self.threads.as_mut().expect("threads on");
        threads.joins.push(Join { guard, clock, id, value, done });
        self.assume(done);
        Ok(value)
    }

    /// Runs every started thread after the main one (whose run ended
    /// with `main_run`), then adds the ordering constraints of all the
    /// events, also when a run stopped early at something unsupported (its
    /// events are real); a run stopped by a limit is thrown away.
    pub(crate) fn run_threads(&mut self, main_run: Result<()>) -> Result<()> {
        let run = main_run.and_then(|()| self.run_started_threads());
        if let Err(Stop::StepLimit { .. } | Stop::Timeout) = run {
            return run;
        }
        self.encode_threads()?;
        run
    }

    fn run_started_threads(&mut self) -> Result<()> {
        let mut next = 1;
        while let Some(thread) = self.threads.as_ref().and_then(|t| t.threads.get(next)) {
            let runner = thread.run.clone().expect("started threads have a runner");
            let mut state = thread.parent_state.clone().expect("started threads have a parent");
            state.guard = thread.started;
            let threads = self.threads.as_mut().expect("threads on");
            threads.current = next;
            threads.step = None;
            self.state = state;
            self.frames.clear();
            match runner {
                Runner::Call(func, args, types) => self.push_frame(func, &args, &types)?,
                Runner::Statement { func, pc, locals } => self.push_spawned_frame(func, pc, locals),
            }
            self.run()?;
            next += 1;
        }
        Ok(())
    }

    /// The constraints of the threads' clocks and events (their number
    /// grows with the cube of one object's events, so the deadline counts).
    fn encode_threads(&mut self) -> Result<()> {
        let Some(threads) = self.threads.take() else { return Ok(()) };
        let mut constraints = Vec::new();
        let store = &mut *self.store;
        let clocks = Clocks { width: clock_width(self.equation.thread_steps.len()) };
        for step in &self.equation.thread_steps {
            constraints.push(clocks.in_range(store, step.when.clock));
        }
        for &(earlier, later) in &threads.program_order {
            constraints.push(clocks.before(store, earlier, later));
        }
        encode_joins(store, &threads, clocks, &mut constraints, &mut self.equation.conditional_approximations, self.loc);
        for &(end_guard, ender, end_clock) in &threads.process_ends {
            for step in self.equation.thread_steps.iter().filter(|s| s.when.thread as usize != ender) {
                let both = store.and2(end_guard, step.guard);
                let before_end = clocks.before(store, step.when.clock, end_clock);
                constraints.push(store.implies(both, before_end));
            }
        }
        let mut by_object: HashMap<ObjectId, Vec<Event>> = HashMap::new();
        for e in &threads.events {
            by_object.entry(e.object).or_default().push(*e);
        }
        let mut objects: Vec<ObjectId> = by_object.keys().copied().collect();
        objects.sort_unstable();
        self.one_thread.found = one_thread_sites(&self.objects, &by_object);
        self.one_thread.found_settled = settled_globals(&self.objects, &by_object, threads.first_start_step);
        for o in objects {
            let initial = match threads.initial.value(o) {
                Some(v) => v,
                None => self.initial_value_of(o),
            };
            let store = &mut *self.store;
            let options = self.options;
            if !encode_object(store, clocks, &by_object[&o], initial, &mut constraints, &|| options.out_of_time()) {
                return Err(Stop::Timeout);
            }
        }
        let initial = &threads.initial;
        let objects = &self.objects;
        let initial_liveness = |store: &mut TermStore, o: ObjectId| initial.alive(o).unwrap_or_else(|| crate::exec::initial_alive(store, objects, o));
        crate::lifetimes::encode(self.store, clocks, &threads.lifetimes, &initial_liveness, &mut constraints);
        self.equation.constraints.extend(constraints);
        if let Some(races) = &threads.races {
            crate::races::encode(self.store, clocks, races, &self.equation.thread_steps, &mut self.equation.assertions);
        }
        if let Some(waits) = &threads.waits {
            crate::deadlock::encode(self.store, clocks, &threads, waits, &mut self.equation.assertions);
        }
        Ok(())
    }
}

/// The sites whose every object with events has them from one thread.
fn one_thread_sites(objects: &crate::memory::Objects, by_object: &HashMap<ObjectId, Vec<Event>>) -> HashSet<ObjectSite> {
    let mut one_thread: HashMap<ObjectSite, bool> = HashMap::new();
    for (&o, events) in by_object {
        let Some(site) = ObjectSite::of(&objects.get(o).kind) else { continue };
        let alone = events.windows(2).all(|pair| pair[0].thread == pair[1].thread);
        *one_thread.entry(site).or_insert(true) &= alone;
    }
    one_thread.into_iter().filter_map(|(site, alone)| alone.then_some(site)).collect()
}

/// The globals whose every write is the main thread's, in a step before
/// the one that started the first thread (`first_start`).
fn settled_globals(objects: &crate::memory::Objects, by_object: &HashMap<ObjectId, Vec<Event>>, first_start: Option<u32>) -> HashSet<ObjectSite> {
    let early = |e: &Event| !e.write || (e.thread == 0 && first_start.is_none_or(|start| e.step < start));
    let mut settled: HashMap<ObjectSite, bool> = HashMap::new();
    for (&o, events) in by_object {
        let ObjectKind::Global(symbol) = objects.get(o).kind else { continue };
        *settled.entry(ObjectSite::Variable(symbol)).or_insert(true) &= events.iter().all(early);
    }
    settled.into_iter().filter_map(|(site, settled)| settled.then_some(site)).collect()
}

/// Each join that goes on waited for the end of the thread it names; a join
/// of an id no thread has is an approximation (POSIX gives an error there).
fn encode_joins(
    store: &mut TermStore,
    threads: &Threads,
    clocks: Clocks,
    constraints: &mut Vec<TermId>,
    approximations: &mut Vec<(TermId, crate::Approximation)>,
    loc: ir::Loc,
) {
    for join in &threads.joins {
        let mut ways = Vec::new();
        let mut some_thread = Vec::new();
        for (index, thread) in threads.threads.iter().enumerate().skip(1) {
            let id = store.bv_u64(threads.id_width, Threads::id_of(index));
            let named = store.eq(join.id, id);
            some_thread.push(store.and2(named, thread.started));
            for &(guard, clock, value) in &thread.ends {
                let before = clocks.before(store, clock, join.clock);
                let same = store.eq(join.value, value);
                ways.push(store.and(&[named, guard, before, same]));
            }
        }
        let waited = store.or(&ways);
        constraints.push(store.implies(join.done, waited));
        let any = store.or(&some_thread);
        let none = store.not(any);
        let unknown = store.and2(join.guard, none);
        if !store.is_false(unknown) {
            let what = "a join of a thread id that names no started thread".to_string();
            approximations.push((unknown, crate::Approximation { what, loc, affects_true: true }));
        }
    }
}

/// The clocks' low bits that the constraints compare.
#[derive(Clone, Copy)]
pub(crate) struct Clocks {
    width: u32,
}

/// Bits for `steps` steps: one distinct clock each, `0..steps`. Every
/// execution gets them: its steps in the order they happen, each step
/// that does not happen (whose clock only the unconditional program order
/// constrains: every other constraint holds under the guards of the steps
/// it names) right after the latest step that happens before it in its
/// thread or, failing one, its creator's. No constraint needs a gap
/// between two clocks, and the fewer bits make every comparator smaller.
fn clock_width(steps: usize) -> u32 {
    let bits = usize::BITS - steps.saturating_sub(1).leading_zeros();
    bits.clamp(1, CLOCK_BITS)
}

impl Clocks {
    fn low(self, store: &mut TermStore, clock: TermId) -> TermId {
        match self.width < CLOCK_BITS {
            true => store.extract(self.width - 1, 0, clock),
            false => clock,
        }
    }
    /// The clock's unused high bits are zero.
    fn in_range(self, store: &mut TermStore, clock: TermId) -> TermId {
        if self.width >= CLOCK_BITS {
            return store.true_term();
        }
        let high = store.extract(CLOCK_BITS - 1, self.width, clock);
        let zero = store.bv_u64(CLOCK_BITS - self.width, 0);
        store.eq(high, zero)
    }
    pub(crate) fn before(self, store: &mut TermStore, a: TermId, b: TermId) -> TermId {
        let (a, b) = (self.low(store, a), self.low(store, b));
        store.bv_ult(a, b)
    }
}

/// Event `a` comes before event `b` (both may happen). Within a step, a
/// read is the object's value when the step starts, before the step's
/// writes, whenever it was made (a path that wrote the object reads its own
/// value without an event; another path of the step may ask for the read
/// after that write, see [`Symex::align_for_merge`]). Between two steps of
/// one thread it is their order: symex makes a thread's steps one after
/// the other and chains their clocks unconditionally (`program_order`), so
/// the constant spares the solver a transitivity it would have to learn
/// through the comparators.
fn before(store: &mut TermStore, clocks: Clocks, a: &Event, b: &Event) -> TermId {
    let first = if a.step == b.step {
        match (a.write, b.write) {
            (false, true) => true,
            (true, false) => false,
            _ => a.seq < b.seq,
        }
    } else if a.thread == b.thread {
        a.step < b.step
    } else {
        return clocks.before(store, a.clock, b.clock);
    };
    if first { store.true_term() } else { store.false_term() }
}

/// The constraints of one object's events; false when `out_of_time` said
/// so before they were all made. Only a step's last write of the object is
/// seen by other steps (a step is atomic), so each step's writes are one
/// write first. An object only one thread touches reads, in program order,
/// what that thread wrote last; the others get the partial-order encoding.
fn encode_object(
    store: &mut TermStore,
    clocks: Clocks,
    events: &[Event],
    initial: TermId,
    constraints: &mut Vec<TermId>,
    out_of_time: &dyn Fn() -> bool,
) -> bool {
    let events = merge_step_writes(store, events);
    let one_thread = events.windows(2).all(|pair| pair[0].thread == pair[1].thread);
    if one_thread {
        encode_in_program_order(store, &events, initial, constraints);
        return true;
    }
    encode_partial_order(store, clocks, &events, initial, constraints, out_of_time)
}

/// The events with each step's writes made one: it happens when one of
/// them does, with the value of the last one that does. It comes after the
/// step's read, as every write of the step does (see [`before`]).
fn merge_step_writes(store: &mut TermStore, events: &[Event]) -> Vec<Event> {
    let mut merged: Vec<Event> = Vec::with_capacity(events.len());
    let mut last_write_of_step: HashMap<u32, usize> = HashMap::new();
    for e in events {
        if !e.write {
            merged.push(*e);
            continue;
        }
        match last_write_of_step.get(&e.step) {
            Some(&at) => {
                let earlier = merged[at];
                let value = store.ite(e.guard, e.value, earlier.value);
                let guard = store.or2(e.guard, earlier.guard);
                merged[at] = Event { value, guard, seq: e.seq, ..earlier };
            }
            None => {
                last_write_of_step.insert(e.step, merged.len());
                merged.push(*e);
            }
        }
    }
    merged
}

/// One thread's events of an object no other thread touches: each read is
/// the value of the thread's last write that happened before its step, or
/// the initial value. The events come in program order (symex makes them
/// along the thread), a step's read before its writes.
fn encode_in_program_order(store: &mut TermStore, events: &[Event], initial: TermId, constraints: &mut Vec<TermId>) {
    let mut ordered: Vec<&Event> = events.iter().collect();
    ordered.sort_by_key(|e| (e.step, e.write, e.seq));
    let mut current = initial;
    for e in ordered {
        if e.write {
            current = store.ite(e.guard, e.value, current);
        } else {
            let same = store.eq(e.value, current);
            constraints.push(store.implies(e.guard, same));
        }
    }
}

/// Read-from, coherence and from-read constraints of one object's events.
fn encode_partial_order(
    store: &mut TermStore,
    clocks: Clocks,
    events: &[Event],
    initial: TermId,
    constraints: &mut Vec<TermId>,
    out_of_time: &dyn Fn() -> bool,
) -> bool {
    let writes: Vec<&Event> = events.iter().filter(|e| e.write).collect();
    // Coherence: the order of every two writes (program order within a
    // thread, the solver's choice between threads).
    let mut coherence: HashMap<(u32, u32), TermId> = HashMap::new();
    for (i, w1) in writes.iter().enumerate() {
        for w2 in &writes[i + 1..] {
            let first = if w1.thread == w2.thread {
                if w1.seq < w2.seq { store.true_term() } else { store.false_term() }
            } else {
                let choice = store.var("coherence", Sort::Bool);
                let both = store.and2(w1.guard, w2.guard);
                let forward = before(store, clocks, w1, w2);
                let backward = before(store, clocks, w2, w1);
                let ordered = store.ite(choice, forward, backward);
                constraints.push(store.implies(both, ordered));
                choice
            };
            coherence.insert((w1.seq, w2.seq), first);
            let second = store.not(first);
            coherence.insert((w2.seq, w1.seq), second);
        }
    }
    // The bytes no step changes are the initial ones, the others are
    // compared (see `kept_bytes`).
    let kept = crate::kept_bytes::kept_bytes(store, events);
    let changing = |store: &mut TermStore, value: TermId| match &kept {
        Some(kept) => crate::kept_bytes::changing_part(store, value, kept),
        None => Some(value),
    };
    let same_value = |store: &mut TermStore, a: TermId, b: TermId| match (changing(store, a), changing(store, b)) {
        (Some(a), Some(b)) => store.eq(a, b),
        _ => store.true_term(),
    };
    for read in events.iter().filter(|e| !e.write) {
        if out_of_time() {
            return false;
        }
        if let Some(kept) = &kept {
            let (now, then) = (crate::kept_bytes::kept_part(store, read.value, kept), crate::kept_bytes::kept_part(store, initial, kept));
            let (now, then) = (now.expect("some byte is kept"), then.expect("some byte is kept"));
            let as_initially = store.eq(now, then);
            constraints.push(store.implies(read.guard, as_initially));
        }
        let mut sources = Vec::new();
        // From the initial value: before every write that happens.
        let from_initial = store.var("reads_initial", Sort::Bool);
        let same = same_value(store, read.value, initial);
        constraints.push(store.implies(from_initial, same));
        for w in &writes {
            let later = before(store, clocks, read, w);
            let happens = store.and2(from_initial, w.guard);
            constraints.push(store.implies(happens, later));
        }
        sources.push(from_initial);
        for w in &writes {
            if w.step == read.step || (w.thread == read.thread && w.seq > read.seq) {
                continue;
            }
            let from = store.var("reads_from", Sort::Bool);
            let earlier = before(store, clocks, w, read);
            let same = same_value(store, read.value, w.value);
            let holds = store.and(&[w.guard, earlier, same]);
            constraints.push(store.implies(from, holds));
            // From-read: the read comes before every write after its source.
            for w2 in &writes {
                if w2.seq == w.seq {
                    continue;
                }
                let after_source = coherence[&(w.seq, w2.seq)];
                if store.is_false(after_source) {
                    continue;
                }
                let premise = store.and(&[from, after_source, w2.guard]);
                let read_first = before(store, clocks, read, w2);
                constraints.push(store.implies(premise, read_first));
            }
            sources.push(from);
        }
        let some = store.or(&sources);
        constraints.push(store.implies(read.guard, some));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::clock_width;

    #[test]
    fn the_clocks_have_one_value_per_step_and_no_more() {
        for (steps, bits) in [(0, 1), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (116, 7), (128, 7), (129, 8)] {
            assert_eq!(clock_width(steps), bits, "{steps} steps");
            assert!(steps <= 1 << bits, "{steps} steps fit in {bits} bits");
        }
    }
}
