//! Threads in the interpreter: a counterexample's schedule
//! ([`super::ScheduledStep`]) says which thread takes each step; each
//! thread has its own frames, the memory is shared. A step is an
//! instruction, or an atomic section that begins there, as in symex
//! (`crate::intrinsics::inside_atomic`); the schedule names the steps
//! others can see (shared memory, threads started, joined or ended,
//! assertions, inputs), and a thread takes its local steps just before its
//! next step in the schedule. A thread whose
//! assumption fails, that joins a thread that has not ended, or that starts
//! a thread the schedule does not start (a bound cut its path there), waits
//! for ever: the others go on. Where the schedule ends, the thread of the
//! violation runs on alone to it. A witness's step names only a line: the
//! thread takes the rest of that line there (see `scheduled_step`). A schedule that names an instruction the thread
//! is not at, or a thread that cannot run, confirms nothing (unsupported).

use super::exec::{Flow, Frame, Machine};
use super::memory::{Lifetime, ObjectId, Pointer};
use crate::program::SymbolId;
use super::value::Value;
use super::{Outcome, Schedule, StepAt};
use crate::intrinsics::MAIN_THREAD_ID;
use crate::program::FuncId;
use crate::types::TypeId;
use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

/// The threads of a run that follows a schedule.
pub(super) struct Scheduler {
    schedule: Arc<Schedule>,
    next: usize,
    current: u32,
    /// The frames of the threads that are not running.
    waiting: HashMap<u32, Vec<Frame>>,
    /// The value each ended thread ended with.
    ended: HashMap<u32, Value>,
    /// Threads that wait for ever.
    blocked: Vec<u32>,
    /// The numbers the threads the current step starts get.
    to_start: VecDeque<u32>,
    /// Set when the running thread ends in the current step.
    exiting: Option<Value>,
    sections: HashMap<FuncId, Rc<Vec<(usize, usize)>>>,
    /// The locals whose address is taken (shared with spawned statements).
    address_taken: Option<Rc<std::collections::HashSet<SymbolId>>>,
    races: super::races::RaceWatch,
    /// The waiting threads that wait on a lock or a join.
    pub(super) waiting_on_sync: Vec<u32>,
    /// How many times a scheduled step was another thread's than the
    /// step before (the main thread runs first).
    pub(super) switches: u64,
}

impl Scheduler {
    pub(super) fn new(schedule: Arc<Schedule>) -> Scheduler {
        Scheduler {
            schedule,
            next: 0,
            current: 0,
            waiting: HashMap::default(),
            ended: HashMap::default(),
            blocked: Vec::new(),
            to_start: VecDeque::new(),
            exiting: None,
            sections: HashMap::default(),
            address_taken: None,
            races: Default::default(),
            waiting_on_sync: Vec::new(),
            switches: 0,
        }
    }

    /// The running thread.
    pub(super) fn current(&self) -> u32 {
        self.current
    }

    pub(super) fn races(&mut self) -> &mut super::races::RaceWatch {
        &mut self.races
    }
}

/// How a thread is after a step.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Taken {
    Continues,
    /// It waits for ever.
    Waits,
    Ended,
}

fn mismatch(what: String) -> Outcome {
    Outcome::Unsupported(format!("the schedule cannot be followed: {what}"))
}

impl Machine<'_> {
    fn scheduler(&mut self) -> &mut Scheduler {
        self.threads.as_mut().expect("a schedule is followed")
    }

    /// Takes the schedule's next step.
    pub(super) fn scheduled_step(&mut self) -> Flow<()> {
        let scheduler = self.scheduler();
        let Some(step) = scheduler.schedule.steps.get(scheduler.next).cloned() else {
            return self.step_past_schedule();
        };
        scheduler.next += 1;
        self.switch_to(step.thread)?;
        self.scheduler().races.step_begins(step.thread);
        let by_line = matches!(step.at, StepAt::Line(_));
        if by_line {
            self.scheduler().to_start = step.started.iter().copied().collect();
        }
        while !self.at_step(&step.at) {
            if self.frames.is_empty() || self.take_step()? != Taken::Continues {
                return Err(mismatch(format!("thread {} does not reach the instruction of its step", step.thread)));
            }
        }
        if !by_line {
            self.scheduler().to_start = step.started.iter().copied().collect();
        }
        let mut taken = self.take_step()?;
        // A line's step is the rest of the line, unless the thread's next
        // step is at the same line again (`x++` is two steps), with the
        // library code it calls then (a witness names no line there: the
        // start of a thread, a lock, the end of a thread).
        let whole_line = by_line && !self.next_step_of(step.thread).is_some_and(|next| next.at == step.at);
        while taken == Taken::Continues
            && !self.frames.is_empty()
            && ((whole_line && (self.at_step(&step.at) || self.in_library_code())) || (by_line && !self.scheduler().to_start.is_empty()))
        {
            taken = self.take_step()?;
        }
        if !self.scheduler().to_start.is_empty() {
            return Err(mismatch("a step did not start the threads it should".into()));
        }
        Ok(())
    }

    /// Whether the running thread is at an instruction of no line of the
    /// program (a library model's, or one the front end made).
    fn in_library_code(&self) -> bool {
        let Some(frame) = self.frames.last() else { return false };
        let body = self.program.functions[frame.func].body.as_deref().unwrap_or_default();
        body.get(frame.pc).is_some_and(|instr| instr.loc.is_none() || self.program.files.is_library_model(instr.loc))
    }

    /// The schedule's next step of `thread`, after the current one.
    fn next_step_of(&self, thread: u32) -> Option<&super::ScheduledStep> {
        let scheduler = self.threads.as_ref()?;
        scheduler.schedule.steps[scheduler.next..].iter().find(|s| s.thread == thread)
    }

    /// Whether the running thread is at the instruction of a step.
    fn at_step(&self, at: &StepAt) -> bool {
        let Some(frame) = self.frames.last() else { return false };
        match at {
            StepAt::Instruction { function, pc } => (frame.func, frame.pc) == (*function, *pc as usize),
            StepAt::Line(lines) => {
                let body = self.program.functions[frame.func].body.as_deref().unwrap_or_default();
                body.get(frame.pc).is_some_and(|instr| lines.contains(&(instr.loc.file, instr.loc.line)))
            }
        }
    }

    /// Where the schedule ends: the violation's thread takes its next
    /// step alone (a violation after its last step others can see, such
    /// as the arrival at a loop head past its bound, comes after the
    /// schedule's end); with no such thread, the deadlock check's end.
    /// Any run the interpreter makes is one the program has, so the
    /// violation it reaches so is real.
    fn step_past_schedule(&mut self) -> Flow<()> {
        let Some(thread) = self.scheduler().schedule.violator else {
            return Err(match self.config.deadlock_checks {
                true => self.deadlock_at_end(),
                false => mismatch("it ends before a violation".into()),
            });
        };
        self.switch_to(thread)?;
        if self.frames.is_empty() {
            return Err(mismatch(format!("it ends before a violation (thread {thread} has ended)")));
        }
        match self.take_step()? {
            Taken::Continues => Ok(()),
            Taken::Waits | Taken::Ended => Err(mismatch(format!("it ends before a violation (thread {thread} waits for ever or ends)"))),
        }
    }

    /// The running thread takes one step.
    fn take_step(&mut self) -> Flow<Taken> {
        let atomic = self.inside_atomic_now(false);
        self.scheduler().races.atomic = atomic;
        loop {
            match self.step() {
                Ok(()) => {}
                Err(Outcome::AssumptionViolated { .. }) => {
                    let current = self.scheduler().current;
                    self.scheduler().blocked.push(current);
                    return Ok(Taken::Waits);
                }
                Err(outcome) => return Err(outcome),
            }
            if let Some(value) = self.scheduler().exiting.take() {
                let current = self.scheduler().current;
                self.scheduler().ended.insert(current, value);
                self.frames.clear();
                return Ok(Taken::Ended);
            }
            if self.frames.is_empty() || !(atomic && self.inside_atomic_now(true)) {
                return Ok(Taken::Continues);
            }
        }
    }

    /// At the end of the schedule: every thread that has not ended waits
    /// on a lock or a join, and given its step again still cannot go on;
    /// the deadlock is reported where the main thread waits.
    fn deadlock_at_end(&mut self) -> Outcome {
        let scheduler = self.scheduler();
        let mut live: Vec<u32> = scheduler.waiting.keys().copied().chain([scheduler.current]).collect();
        live.retain(|t| !scheduler.ended.contains_key(t));
        // The main thread last, so that its frames are the running ones.
        live.sort_unstable_by(|a, b| b.cmp(a));
        if live.last() != Some(&0) {
            return mismatch("it ends before a violation (the main thread has ended)".into());
        }
        for thread in live {
            let scheduler = self.scheduler();
            if !scheduler.blocked.contains(&thread) || !scheduler.waiting_on_sync.contains(&thread) {
                return mismatch(format!("it ends with thread {thread} not waiting on a lock or a join"));
            }
            if let Err(outcome) = self.bring(thread) {
                return outcome;
            }
            match self.step() {
                Err(Outcome::AssumptionViolated { .. }) => {}
                Ok(()) => return mismatch(format!("thread {thread} can go on where it waited")),
                Err(outcome) => return outcome,
            }
        }
        self.violation(crate::instr::PropertyClass::Deadlock, "deadlock: every thread waits for ever".into())
    }

    /// The main thread leaving through `pthread_exit` (the models' exit):
    /// with the deadlock check on, a deadlock when another thread has not
    /// ended and every such thread waits on a lock or a join and, given
    /// its step again, still cannot go on (as symex's `MainExit` wait).
    pub(super) fn deadlock_at_main_exit(&mut self) -> Flow<()> {
        let through_pthread_exit = self.frames.iter().any(|f| self.program.functions[f.func].name == "pthread_exit");
        let Some(scheduler) = self.threads.as_ref() else { return Ok(()) };
        if !self.config.deadlock_checks || scheduler.current != 0 || !through_pthread_exit {
            return Ok(());
        }
        let mut others: Vec<u32> = scheduler.waiting.keys().copied().filter(|t| !scheduler.ended.contains_key(t)).collect();
        others.sort_unstable();
        let stuck = |t: &u32| scheduler.blocked.contains(t) && scheduler.waiting_on_sync.contains(t);
        if others.is_empty() || !others.iter().all(stuck) {
            return Ok(());
        }
        for thread in others {
            self.bring(thread)?;
            match self.step() {
                Err(Outcome::AssumptionViolated { .. }) => {}
                Ok(()) => return Err(mismatch(format!("thread {thread} can go on where it waited"))),
                Err(outcome) => return Err(outcome),
            }
        }
        self.bring(0)?;
        Err(self.violation(crate::instr::PropertyClass::Deadlock, "deadlock: every thread waits for ever".into()))
    }

    /// Makes `thread` the running one.
    fn switch_to(&mut self, thread: u32) -> Flow<()> {
        let scheduler = self.scheduler();
        if scheduler.blocked.contains(&thread) || scheduler.ended.contains_key(&thread) {
            return Err(mismatch(format!("thread {thread} cannot run")));
        }
        if thread != scheduler.current {
            scheduler.switches += 1;
        }
        self.bring(thread)
    }

    /// Gives `thread` the machine's frames.
    fn bring(&mut self, thread: u32) -> Flow<()> {
        let scheduler = self.scheduler();
        let current = scheduler.current;
        if thread == current {
            return Ok(());
        }
        let Some(frames) = scheduler.waiting.remove(&thread) else {
            return Err(mismatch(format!("thread {thread} was not started")));
        };
        let previous = std::mem::replace(&mut self.frames, frames);
        let scheduler = self.scheduler();
        scheduler.waiting.insert(current, previous);
        scheduler.current = thread;
        Ok(())
    }

    /// Whether the running thread is inside an atomic section (see
    /// [`crate::intrinsics::inside_atomic`]); callers' frames already
    /// point past their call.
    fn inside_atomic_now(&mut self, strictly: bool) -> bool {
        let last = self.frames.len().saturating_sub(1);
        let positions: Vec<(FuncId, usize)> =
            self.frames.iter().enumerate().map(|(i, f)| (f.func, if i == last { f.pc } else { f.pc.saturating_sub(1) })).collect();
        let program = self.program;
        let scheduler = self.threads.as_mut().expect("a schedule is followed");
        let mut sections =
            |func| Rc::clone(scheduler.sections.entry(func).or_insert_with(|| Rc::new(crate::intrinsics::atomic_sections(program, func))));
        crate::intrinsics::inside_atomic(&positions, strictly, &mut sections)
    }

    /// `__tarsier_thread_create(run, start, arg)`: the thread the schedule
    /// numbers next, about to run `run(start, arg)`; its id.
    pub(super) fn create_thread(&mut self, values: &[Value], arg_types: &[TypeId]) -> Flow<Value> {
        let (Some(run), Some(start), Some(arg)) = (values.first(), values.get(1), values.get(2)) else {
            return Err(self.malformed("thread creation without its three arguments".into()));
        };
        if self.threads.is_none() {
            return Err(Outcome::Unsupported("a thread starts without a schedule".into()));
        }
        // Symex cuts a thread's path where its bound on threads started by
        // threads is reached: the thread is not scheduled any more, which
        // is a run the program has.
        let Some(number) = self.scheduler().to_start.pop_front() else {
            return Err(Outcome::AssumptionViolated { loc: self.current_loc() });
        };
        let pointer = self.pointer(run)?;
        let func = match self.memory.object(pointer.object).kind {
            super::memory::ObjectKind::Function(func) if pointer.offset == 0 => func,
            _ => return Err(self.malformed("a thread's runner is not a function".into())),
        };
        let creator = std::mem::take(&mut self.frames);
        self.scheduler().races.paused = true;
        let entered = self.enter_function(func, vec![start.clone(), arg.clone()], arg_types.get(1..).unwrap_or_default(), None);
        self.scheduler().races.paused = false;
        let started = std::mem::replace(&mut self.frames, creator);
        entered?;
        self.scheduler().waiting.insert(number, started);
        Ok(Value::Scalar(u128::from(MAIN_THREAD_ID + u64::from(number))))
    }

    /// `StartThread(target)`: the thread the schedule numbers next runs the
    /// statement at `target` of the current function with its locals, as
    /// symex does: those whose address is taken are shared, the others are
    /// copies of their current values.
    pub(super) fn spawn_statement(&mut self, target: usize) -> Flow<()> {
        if self.threads.is_none() {
            return Err(Outcome::Unsupported("a thread starts without a schedule".into()));
        }
        let Some(number) = self.scheduler().to_start.pop_front() else {
            return Err(Outcome::AssumptionViolated { loc: self.current_loc() });
        };
        let frame = self.frames.last().expect("a frame runs");
        let (func, parent_locals) = (frame.func, frame.locals.clone());
        let program = self.program;
        let address_taken = Rc::clone(self.scheduler().address_taken.get_or_insert_with(|| Rc::new(program.address_taken_symbols())));
        let mut locals = HashMap::default();
        for (symbol, object) in parent_locals {
            let own = if address_taken.contains(&symbol) { object } else { self.copy_of_local(object)? };
            locals.insert(symbol, own);
        }
        self.scheduler().waiting.insert(number, vec![Frame::spawned(func, target, locals)]);
        Ok(())
    }

    /// A new object with `object`'s contents and lifetime, at an address
    /// no one sees (its address is never taken).
    fn copy_of_local(&mut self, object: ObjectId) -> Flow<ObjectId> {
        let original = self.memory.object(object);
        let (name, kind, size, alive) = (original.name.clone(), original.kind.clone(), original.size, original.lifetime == Lifetime::Alive);
        let copy = self.memory.allocate(name, kind, size, None).map_err(|_| Outcome::MemoryLimit)?;
        match alive {
            true => self.memory.copy(Pointer { object: copy, offset: 0 }, Pointer { object, offset: 0 }, size).map_err(|e| {
                Outcome::Unsupported(format!("a spawned thread's copy of a local: {e:?}"))
            })?,
            false => self.memory.end_lifetime(copy, Lifetime::Dead),
        }
        Ok(copy)
    }

    /// `EndThread`: the spawned statement's thread ends after this instruction.
    pub(super) fn end_spawned_thread(&mut self) -> Flow<()> {
        self.exit_thread(&Value::Scalar(0))
    }

    /// `__tarsier_thread_join(id)`: the value thread `id` ended with; a
    /// thread not ended yet makes the caller wait.
    pub(super) fn join_thread(&mut self, id: &Value) -> Flow<Value> {
        if self.threads.is_none() {
            return Err(Outcome::Unsupported("a thread join without a schedule".into()));
        }
        let id = self.scalar(id)?;
        let number = u32::try_from(id.wrapping_sub(u128::from(MAIN_THREAD_ID))).ok();
        match number.and_then(|n| self.scheduler().ended.get(&n).cloned()) {
            Some(value) => Ok(value),
            None => Err(Outcome::AssumptionViolated { loc: self.current_loc() }),
        }
    }

    /// `__tarsier_thread_exit(value)`: the running thread ends after this
    /// instruction.
    pub(super) fn exit_thread(&mut self, value: &Value) -> Flow<()> {
        if self.threads.is_none() {
            return Err(Outcome::Unsupported("a thread ends without a schedule".into()));
        }
        self.scheduler().exiting = Some(value.clone());
        Ok(())
    }

    /// `__tarsier_thread_self()`.
    pub(super) fn thread_self(&mut self) -> Value {
        let current = self.threads.as_ref().map_or(0, |s| s.current);
        Value::Scalar(u128::from(MAIN_THREAD_ID + u64::from(current)))
    }
}
