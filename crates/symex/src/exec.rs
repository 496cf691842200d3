//! The executor: walks functions instruction by instruction with one
//! symbolic state, queues the states of forward jumps at their targets and
//! merges them there, unwinds loops (backward jumps) and recursion up to
//! the bound, and inlines calls with an explicit frame stack.

use crate::equation::{Approximation, Assertion, Equation, Input};
use crate::memory::{ObjectId, ObjectKind, Objects, PointerLayout};
use crate::flow::FrameFlow;
use crate::state::State;
use crate::{repr, HeapAtExit, Options, ProgramEnd, Result, Stop};
use crate::equation::InputKind;
use ir::{Expr, ExprKind, FuncId, Instr, InstrKind, Loc, Program, Property, PropertyClass, SymbolId, SymbolKind};
use smt::{TermId, TermStore};
use crate::threads::ObjectSite;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The result of symbolic execution.
#[derive(Debug)]
pub struct Execution {
    pub equation: Equation,
    pub objects: Objects,
    pub layout: PointerLayout,
    /// The unsupported construct symex stopped at, if any: the equation
    /// then holds only the executions up to it, so its violations are real
    /// (each is still replayed) but no violation means nothing.
    pub stopped: Option<Stop>,
}

/// Symbolically executes `program` from its init function and entry
/// function, building terms in `store`. An unsupported construct ends the
/// execution early (see [`Execution::stopped`]), except inside a
/// quantifier's body, whose partial terms would mean nothing; other stops
/// are errors.
///
/// A program that starts threads may run again: when a run saw objects (by
/// variable or allocation site) each touched by one thread only, or
/// globals only the main thread writes before it starts threads, the next
/// takes them as that thread's, or as the value each thread starts with,
/// with no events (see
/// [`crate::threads::OneThread`]), and may find more; and when a
/// dereference missed objects a thread symex ran later made, the next run
/// makes them early (see [`crate::early_objects`]). A run is kept only
/// when no object it took so was touched otherwise there and it ran to
/// its end; else the one before it stands.
pub fn execute(program: &Program, options: &Options, store: &mut TermStore) -> Result<Execution> {
    execute_hinted(program, options, store, &mut ThreadSites::default())
}

/// What the kept run of an execution took as one thread's or as settled
/// (see [`execute`]): the sites are the program's variables and allocation
/// sites, the same at every bound.
#[derive(Clone, Debug, Default)]
pub struct ThreadSites(Taken);

/// [`execute`], whose first run takes what `hint` says (the sites an
/// execution at a smaller bound took), and `hint` updated to what the
/// kept run took. The first run is kept by the rule every run is: it is
/// void when an object it took is touched otherwise (a site the smaller
/// bound saw one thread touch that another touches in a later iteration,
/// a global written after a thread started), and the runs start over
/// without a hint. A hint that holds spares the runs that found it again,
/// the first of which gives every object events.
pub fn execute_hinted(program: &Program, options: &Options, store: &mut TermStore, hint: &mut ThreadSites) -> Result<Execution> {
    if !hint.0.is_empty() {
        if let Some((execution, taken)) = runs(program, options, store, hint.0.clone())? {
            *hint = ThreadSites(taken);
            return Ok(execution);
        }
    }
    let (execution, taken) = runs(program, options, store, Taken::default())?.expect("a run without a hint is kept");
    *hint = ThreadSites(taken);
    Ok(execution)
}

/// The runs of [`execute`] from one that takes `start`, and what the kept
/// run took; `None` when `start` is not empty and its run is void or
/// stopped early.
fn runs(program: &Program, options: &Options, store: &mut TermStore, start: Taken) -> Result<Option<(Execution, Taken)>> {
    let hinted = !start.is_empty();
    let mut kept = execute_once(program, options, store, start.clone())?;
    if hinted && (kept.one_thread.broken || kept.execution.stopped.is_some()) {
        return Ok(None);
    }
    let mut kept_taken = start;
    for _ in 1..MAX_RUNS {
        let found = &kept.one_thread;
        let fresh = |found: &HashSet<ObjectSite>, taken: &HashSet<ObjectSite>| found.difference(taken).next().is_some();
        let early = kept.early.difference(&kept_taken.early).next().is_some();
        if kept.execution.stopped.is_some()
            || !(early || fresh(&found.found, &kept_taken.one_thread) || fresh(&found.found_settled, &kept_taken.settled))
        {
            break;
        }
        let mut taken = kept_taken.clone();
        taken.one_thread.extend(found.found.iter().copied());
        taken.settled.extend(found.found_settled.iter().copied());
        taken.early.extend(kept.early.iter().cloned());
        // Another thread reaches the objects made early.
        let early_sites: HashSet<ObjectSite> = taken.early.iter().map(|e| e.site()).collect();
        taken.one_thread.retain(|site| !early_sites.contains(site));
        match execute_once(program, options, store, taken.clone()) {
            Ok(next) if next.execution.stopped.is_none() && !next.one_thread.broken => {
                kept = next;
                kept_taken = taken;
            }
            Err(stop @ Stop::Timeout) => return Err(stop),
            _ => break,
        }
    }
    Ok(Some((kept.execution, kept_taken)))
}

/// The runs of symex a program with threads may take (see [`execute`]),
/// the one from a hint included.
const MAX_RUNS: usize = 3;

/// The sites a run takes as one thread's, the globals it takes as
/// settled before threads start (see [`crate::threads::OneThread`]), and
/// the objects it makes early (see [`crate::early_objects`]).
#[derive(Clone, Debug, Default)]
struct Taken {
    one_thread: HashSet<ObjectSite>,
    settled: HashSet<ObjectSite>,
    early: HashSet<crate::early_objects::Early>,
}

impl Taken {
    fn is_empty(&self) -> bool {
        self.one_thread.is_empty() && self.settled.is_empty() && self.early.is_empty()
    }
}

/// One run of symex, what it saw of the objects one thread touches, and
/// the objects the next should make early.
struct Run {
    execution: Execution,
    one_thread: crate::threads::OneThread,
    early: HashSet<crate::early_objects::Early>,
}

/// One run of symex that takes the objects of the sites `taken` names as
/// the thread's that touches them first, or as settled.
fn execute_once(program: &Program, options: &Options, store: &mut TermStore, taken: Taken) -> Result<Run> {
    let entry = program.entry.ok_or_else(|| Stop::unsupported("program without an entry function", Loc::NONE))?;
    let mut symex = Symex::new(program, options, store);
    symex.one_thread.sites = Rc::new(taken.one_thread);
    symex.one_thread.settled = Rc::new(taken.settled);
    symex.early.given = taken.early;
    let stopped = match symex.run_program(entry) {
        Ok(()) => None,
        Err(stop @ Stop::Unsupported { .. }) if symex.quantifiers.is_empty() => Some(stop),
        Err(stop) => return Err(stop),
    };
    symex.equation.executed_instructions = symex.steps;
    let early = symex.found_early();
    let execution = Execution { equation: symex.equation, objects: symex.objects, layout: symex.layout, stopped };
    Ok(Run { execution, one_thread: symex.one_thread, early })
}

/// A pending function-pointer case: run `callee` from `state`.
struct DeferredCall {
    state: State,
    callee: FuncId,
    args: Vec<TermId>,
    arg_types: Vec<ir::TypeId>,
}

pub(crate) struct Frame {
    pub id: u32,
    pub func: FuncId,
    pub pc: usize,
    pub locals: HashMap<SymbolId, ObjectId>,
    /// Where the frame's states wait and which loops it is in.
    pub flow: FrameFlow,
    pub return_object: Option<ObjectId>,
    pub stack_allocations: Vec<ObjectId>,
    deferred_calls: Vec<DeferredCall>,
}

pub(crate) struct Symex<'a> {
    pub program: &'a Program,
    pub options: &'a Options,
    pub store: &'a mut TermStore,
    pub layout: PointerLayout,
    pub objects: Objects,
    pub equation: Equation,
    pub state: State,
    pub frames: Vec<Frame>,
    next_frame_id: u32,
    globals: HashMap<SymbolId, ObjectId>,
    function_objects: HashMap<FuncId, ObjectId>,
    initial_values: HashMap<ObjectId, TermId>,
    steps: u64,
    pub loc: Loc,
    /// Nesting depth of expression evaluation (bounded, see `eval`).
    pub depth: u32,
    /// Pointer parameters of the entry function: their targets are not
    /// modelled, so reading one is an approximation.
    pub entry_pointer_params: std::collections::HashSet<SymbolId>,
    /// The hosted `main`'s arguments, when the entry function is one.
    pub(crate) command_line: Option<crate::environment::CommandLine>,
    /// Strings of the environment (`argv[i]`, `getenv` results) and their
    /// initial values: while one keeps it, it holds a NUL at its end.
    pub(crate) environment_strings: HashMap<ObjectId, TermId>,
    /// `ir::ROUNDING_MODE_VARIABLE`, read by every rounding float operation.
    pub(crate) rounding_variable: Option<SymbolId>,
    /// The calls of each uninterpreted function so far: arguments, result.
    pub(crate) uninterpreted_calls: HashMap<String, Vec<(Vec<TermId>, TermId)>>,
    /// Quantifiers whose body is being executed, innermost last.
    pub(crate) quantifiers: Vec<crate::quantifier::Scope>,
    /// Where an assumption was made inside a quantifier's body (unsupported).
    pub(crate) assumed_in_quantifier: Option<Loc>,
    /// The values of inputs whose bits hold no pointer (uninitialized
    /// memory, nondet integers): a pointer read from them is an address
    /// (see `crate::address`).
    pub(crate) input_values: std::collections::HashSet<TermId>,
    /// Interval facts of path guards, to end unbounded loops whose exit
    /// the rewriter cannot see.
    pub(crate) intervals: smt::interval::Intervals,
    /// The loops of each function entered so far.
    loops: HashMap<FuncId, Rc<analysis::FunctionLoops>>,
    /// The threads' encoding, when the program starts threads.
    pub(crate) threads: Option<crate::threads::Threads>,
    /// The objects taken as one thread's, and what this run saw of them.
    pub(crate) one_thread: crate::threads::OneThread,
    /// The objects of started threads made before the main thread starts.
    pub(crate) early: crate::early_objects::EarlyObjects,
    /// Conditions under which a pointer read from such bits had an
    /// address that does not fit the offset field, until some address is
    /// observed (see `crate::address`).
    pub(crate) unobserved_misfits: Vec<TermId>,
    /// Objects of symbolic size with the condition under which their end
    /// offset does not fit the offset field (see `crate::sizes`).
    pub(crate) possibly_large_objects: Vec<(ObjectId, TermId)>,
    /// Where pointers were stored, for reads of their bytes as integers.
    pub(crate) pointer_bytes: crate::pointer_bytes::PointerBytes,
    /// Pairs of objects (lower id first) whose lifetimes met, with the
    /// condition under which they did (see `crate::address`).
    pub(crate) lifetimes_met: HashMap<(ObjectId, ObjectId), TermId>,
    /// The symbols whose address some expression takes: only a pointer
    /// can tell one instance of a local from another.
    address_taken: std::collections::HashSet<SymbolId>,
}

impl<'a> Symex<'a> {
    fn new(program: &'a Program, options: &'a Options, store: &'a mut TermStore) -> Symex<'a> {
        let state = State::new(store.true_term());
        Symex {
            program,
            options,
            rounding_variable: program.rounding_mode_variable(),
            store,
            layout: PointerLayout::for_model(program.data_model),
            objects: Objects::default(),
            equation: Equation::default(),
            state,
            frames: Vec::new(),
            next_frame_id: 0,
            globals: HashMap::new(),
            function_objects: HashMap::new(),
            initial_values: HashMap::new(),
            steps: 0,
            threads: None,
            one_thread: Default::default(),
            early: Default::default(),
            loc: Loc::NONE,
            depth: 0,
            entry_pointer_params: Default::default(),
            command_line: None,
            environment_strings: HashMap::new(),
            uninterpreted_calls: HashMap::new(),
            quantifiers: Vec::new(),
            assumed_in_quantifier: None,
            input_values: Default::default(),
            intervals: smt::interval::Intervals::new(),
            loops: HashMap::new(),
            unobserved_misfits: Vec::new(),
            possibly_large_objects: Vec::new(),
            pointer_bytes: Default::default(),
            lifetimes_met: HashMap::new(),
            address_taken: program.address_taken_symbols(),
        }
    }

    // ----- objects -----

    /// The object of variable `symbol` in the current frame (created on first use).
    pub fn variable_object(&mut self, symbol: SymbolId) -> Result<ObjectId> {
        let sym = &self.program.symbols[symbol];
        match &sym.kind {
            SymbolKind::Global if sym.thread_local && self.threads_on() => self.thread_local_object(symbol),
            SymbolKind::Global | SymbolKind::StringLiteral => self.global_object(symbol),
            SymbolKind::Local(func) => {
                let frame = self.frames.last().expect("locals are read inside a frame");
                if let Some(&o) = frame.locals.get(&symbol) {
                    return Ok(o);
                }
                if frame.func != *func {
                    return Err(Stop::unsupported(format!("local `{}` used outside its function", sym.name), self.loc));
                }
                let frame_id = frame.id;
                let (ty, name) = (sym.ty, sym.display_name.clone());
                let size = self.type_size(ty)?;
                let o = self.add_object(ObjectKind::Local { symbol, frame: frame_id }, name, size)?;
                self.frames.last_mut().expect("checked above").locals.insert(symbol, o);
                Ok(o)
            }
            SymbolKind::Function(func) => Ok(self.function_object(*func)),
        }
    }

    /// The object of global or string literal `symbol` (the main thread's
    /// instance of a thread-local one).
    pub(crate) fn global_object(&mut self, symbol: SymbolId) -> Result<ObjectId> {
        if let Some(&o) = self.globals.get(&symbol) {
            return Ok(o);
        }
        let sym = &self.program.symbols[symbol];
        let kind = match sym.kind {
            SymbolKind::Global => ObjectKind::Global(symbol),
            _ => ObjectKind::StringLiteral(symbol),
        };
        let name = sym.display_name.clone();
        let Some(size) = self.program.symbol_size(symbol) else {
            // Only an extern no unit defines stays incomplete: the
            // environment's object, whose size nothing tells.
            let ty = self.program.types.display(sym.ty);
            let what = format!("extern object `{name}` of incomplete type {ty} that no unit defines (its size is unknown)");
            return Err(Stop::unsupported(what, sym.loc));
        };
        let size = self.store.bv_u64(self.layout.wide_bits(), size);
        let o = self.add_object(kind, name, size)?;
        self.globals.insert(symbol, o);
        Ok(o)
    }

    pub fn function_object(&mut self, func: FuncId) -> ObjectId {
        if let Some(&o) = self.function_objects.get(&func) {
            return o;
        }
        let o = self.objects.add(ObjectKind::Function(func), self.program.functions[func].name.clone(), 0);
        self.function_objects.insert(func, o);
        o
    }

    /// Writes `value` as `object`'s on the current paths.
    pub(crate) fn write_object(&mut self, object: ObjectId, value: TermId) {
        self.state.set_value(object, value);
        self.shared_write(object, value);
    }

    /// The value every state has for `object` until it writes it.
    pub(crate) fn initial_value_of(&mut self, object: ObjectId) -> TermId {
        self.initial_value(object)
    }

    /// The value every state has for `object` until it writes it.
    fn initial_value(&mut self, object: ObjectId) -> TermId {
        initial_value(self.store, &self.objects, &mut self.initial_values, object)
    }

    /// Gives `object`, created on some paths only, the same `value` on the
    /// others, so that merging them leaves it as it is.
    pub(crate) fn set_initial_value(&mut self, object: ObjectId, value: TermId) {
        self.initial_values.insert(object, value);
        self.state.set_value(object, value);
    }

    pub fn object_value(&mut self, object: ObjectId) -> TermId {
        if let Some(value) = self.shared_value(object) {
            return value;
        }
        match self.state.value(object) {
            Some(v) => v,
            None => self.initial_value(object),
        }
    }

    pub fn object_alive(&mut self, object: ObjectId) -> TermId {
        let own = match self.state.alive(object) {
            Some(v) => v,
            None => initial_alive(self.store, &self.objects, object),
        };
        self.alive_as_seen(object, own)
    }

    /// A fresh unconstrained value of `sort`, recorded as an input.
    pub fn fresh(&mut self, name: &str, ty: ir::TypeId, kind: InputKind) -> Result<TermId> {
        let sort = match repr::is_large(self.program, ty) {
            true => crate::memory::byte_array_sort(self.store),
            false => repr::value_sort(self.program, ty, self.loc)?,
        };
        let value = self.store.var(name, sort);
        self.record_input(value, Some(ty), kind);
        Ok(value)
    }

    pub fn record_input(&mut self, value: TermId, ty: Option<ir::TypeId>, kind: InputKind) {
        if self.holds_no_pointer(&kind, ty) {
            self.input_values.insert(value);
        }
        // An uninitialized local's value is asked for where it is declared,
        // a local step (see `crate::threads`); other inputs are steps of
        // the schedule, so the replay gives them in the order taken.
        let when = match kind {
            InputKind::Uninitialized(_) => self.thread_time_seen(),
            _ => self.thread_time(),
        };
        self.equation.inputs.push(Input { when, guard: self.state.guard, loc: self.loc, ty, value, kind });
    }

    /// Whether an input's bits hold no pointer: uninitialized memory and
    /// nondet non-pointer values do; a nondet or external pointer value is
    /// a pointer of unknown origin (it may point to any object), and the
    /// entry function's arguments and environment strings are the
    /// environment's.
    fn holds_no_pointer(&self, kind: &InputKind, ty: Option<ir::TypeId>) -> bool {
        match kind {
            InputKind::Uninitialized(_) => true,
            InputKind::Nondet | InputKind::NondetCall(_) | InputKind::ExternalCall(_) => {
                ty.is_some_and(|ty| !self.program.types.is_pointer(ty))
            }
            InputKind::EntryArgument(_) | InputKind::Environment(_) | InputKind::AllocationFailure => false,
        }
    }

    // ----- equation -----

    pub fn assert(&mut self, condition: TermId, class: PropertyClass, message: impl Into<String>) {
        let guard = self.state.guard;
        if self.store.is_true(condition) || self.store.is_false(guard) {
            return;
        }
        // In a long loop entry's window of the inductive step, checks are
        // assumed rather than asserted.
        let guard = match self.window() {
            Some(window) if !self.store.is_false(window) => {
                let assumed = self.store.implies(window, condition);
                self.state.guard = self.store.and2(guard, assumed);
                let outside = self.store.not(window);
                self.store.and2(guard, outside)
            }
            _ => guard,
        };
        let function = self.frames.last().map(|f| f.func).unwrap_or(FuncId(0));
        let when = self.thread_time();
        self.equation.assertions.push(Assertion {
            guard,
            condition,
            property: Property { class, message: message.into() },
            loc: self.loc,
            function,
            steps_before: self.equation.steps.len(),
            when,
        });
    }

    pub fn assume(&mut self, condition: TermId) {
        if !self.quantifiers.is_empty() && !self.store.is_true(condition) {
            self.assumed_in_quantifier.get_or_insert(self.loc);
        }
        self.cut_paths(condition);
    }

    /// Keeps only the paths where `condition` holds.
    pub(crate) fn cut_paths(&mut self, condition: TermId) {
        self.state.guard = self.store.and2(self.state.guard, condition);
    }

    /// An approximation that applies only on the current paths where
    /// `condition` holds: TRUE stays possible when the solver shows it
    /// never does.
    pub(crate) fn approximate_when(&mut self, condition: TermId, what: impl Into<String>) {
        let condition = self.store.and2(self.state.guard, condition);
        if self.store.is_false(condition) {
            return;
        }
        let approximation = Approximation { what: what.into(), loc: self.loc, affects_true: true };
        self.equation.conditional_approximations.push((condition, approximation));
    }

    /// The paths through a choice of evaluation order that the front end
    /// lowered for some of the permitted orders only are an approximation.
    fn note_partial_evaluation_order(&mut self, pc: usize) {
        let Some(func) = self.frames.last().map(|f| f.func) else { return };
        let partial = self.program.evaluation_orders.iter().any(|o| !o.complete && o.function == func && o.at.0 as usize == pc);
        if partial {
            let always = self.store.true_term();
            self.approximate_when(always, "only some of the orders of evaluation C permits for these operands are explored");
        }
    }

    pub fn approximate(&mut self, what: impl Into<String>, affects_true: bool) {
        let approximation = Approximation { what: what.into(), loc: self.loc, affects_true };
        if !self.equation.approximations.contains(&approximation) {
            self.equation.approximations.push(approximation);
        }
    }

    /// A loop or recursion bound was reached on the current path: assert
    /// or assume that the path goes no further.
    pub fn bound_exceeded(&mut self, guard: TermId, what: &str) {
        if self.store.is_false(guard) {
            return;
        }
        if self.options.unwinding_assertions {
            let saved = self.state.guard;
            self.state.guard = guard;
            let f = self.store.false_term();
            self.assert(f, PropertyClass::UnwindingAssertion, format!("unwinding assertion: {what}"));
            self.state.guard = saved;
        } else {
            self.equation.bound_assumed = true;
        }
        if let Some(scope) = self.quantifiers.last_mut() {
            scope.cuts.push(guard);
        }
        // Not an assumption: the cut paths are checked (or the result is bounded).
        let stop = self.store.not(guard);
        self.cut_paths(stop);
    }

    // ----- driving -----

    /// Runs `func` with `args` to completion (init or entry function).
    fn run_function(&mut self, func: FuncId, args: &[TermId]) -> Result<()> {
        let arg_types: Vec<ir::TypeId> = self.program.functions[func].params.iter().map(|p| self.program.symbols[*p].ty).collect();
        self.push_frame(func, args, &arg_types)?;
        self.run()
    }

    fn tick(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps > self.options.max_steps {
            return Err(Stop::StepLimit { loc: self.loc });
        }
        if self.steps.is_multiple_of(256) && self.options.out_of_time() {
            return Err(Stop::Timeout);
        }
        Ok(())
    }

    fn body(&self, func: FuncId) -> &'a [Instr] {
        self.program.functions[func].body.as_deref().expect("frames are only pushed for defined functions")
    }

    pub(crate) fn run(&mut self) -> Result<()> {
        while let Some(frame) = self.frames.last() {
            let pc = frame.pc;
            let body = self.body(frame.func);
            self.take_pending();
            if self.options.step.is_some() {
                self.assume_head_invariants(pc)?;
            }
            if !self.options.targets.is_empty() {
                self.note_target_hits(pc)?;
            }
            if pc >= body.len() {
                self.end_function()?;
                continue;
            }
            // A quantifier's end runs even when no path reaches it: it
            // restores the state from before the body.
            let frame_index = self.frames.len() - 1;
            let quantifier_end = self.quantifiers.last().is_some_and(|s| s.frame == frame_index && s.end == pc);
            if self.store.is_false(self.state.guard) && !quantifier_end {
                self.dispatch();
                continue;
            }
            self.tick()?;
            let instr = &body[pc];
            self.loc = instr.loc;
            self.thread_step(pc)?;
            self.execute_instruction(instr, pc)?;
        }
        Ok(())
    }

    pub(crate) fn merge_into_current(&mut self, mut other: State) {
        self.align_for_merge(&mut other);
        let mut current = std::mem::replace(&mut self.state, State::new(other.guard));
        let (store, objects, initial_values) = (&mut *self.store, &self.objects, &mut self.initial_values);
        let mut init_value = |store: &mut TermStore, o: ObjectId| initial_value(store, objects, initial_values, o);
        let mut init_alive = |store: &mut TermStore, o: ObjectId| initial_alive(store, objects, o);
        current.merge(other, store, &mut init_value, &mut init_alive);
        self.state = current;
    }

    fn execute_instruction(&mut self, instr: &'a Instr, pc: usize) -> Result<()> {
        match &instr.kind {
            InstrKind::Skip => {
                self.note_partial_evaluation_order(pc);
                self.advance();
            }
            InstrKind::AtomicBegin | InstrKind::AtomicEnd => self.advance(),
            InstrKind::Asm(text) => {
                self.approximate(format!("inline assembly `{text}` is not modelled"), true);
                self.advance();
            }
            InstrKind::StartThread(target) => {
                self.spawn_statement(target.0 as usize)?;
                self.advance();
            }
            InstrKind::EndThread => {
                // A spawned statement's thread ends here (its creator never comes here).
                let f = self.store.false_term();
                self.cut_paths(f);
                self.advance();
            }
            InstrKind::QuantifierBegin { quantifier, bound } => {
                let body = self.body(self.frames.last().expect("frame").func);
                self.begin_quantifier(*quantifier, bound, body, pc)?;
                self.advance();
            }
            InstrKind::QuantifierEnd { lhs, body } => {
                self.end_quantifier(lhs, body)?;
                self.advance();
            }
            InstrKind::Decl(symbol) => {
                self.declare(*symbol)?;
                self.advance();
            }
            InstrKind::Dead(symbol) => {
                if let Some(&o) = self.frames.last().and_then(|f| f.locals.get(symbol)) {
                    let f = self.store.false_term();
                    match self.leaves_the_program(pc) {
                        // The process ends with the return: no other
                        // thread sees these locals end.
                        true => self.state.set_alive(o, f),
                        false => self.set_alive(o, f),
                    }
                }
                self.advance();
            }
            InstrKind::Assign(lhs, rhs) => {
                let value = self.eval(rhs)?;
                self.assign(lhs, value)?;
                self.advance();
            }
            InstrKind::Assume(cond) => {
                let c = self.eval(cond)?;
                self.assume(c);
                self.advance();
            }
            InstrKind::Assert(cond, property) => {
                let c = self.eval(cond)?;
                self.assert(c, property.class, property.message.clone());
                self.advance();
            }
            InstrKind::Goto { cond, target } => {
                if cond.kind == ExprKind::Nondet {
                    self.note_partial_evaluation_order(pc);
                }
                self.check_stays_in_quantifier(Some(target.0 as usize))?;
                self.goto(cond, target.0 as usize)?
            }
            InstrKind::Call { lhs, callee, args } => self.call(lhs.as_ref(), callee, args)?,
            InstrKind::Return(value) => {
                self.check_stays_in_quantifier(None)?;
                if let Some(e) = value {
                    let v = self.eval(e)?;
                    let ret = self.frames.last().and_then(|f| f.return_object);
                    if let Some(o) = ret {
                        let m = repr::to_memory(self.program, self.store, e.ty, v, self.loc)?;
                        let start = self.store.bv_u64(self.layout.wide_bits(), 0);
                        self.note_typed_store(o, start, e.ty, m);
                        self.write_object(o, m);
                    }
                }
                let end = self.body(self.frames.last().expect("frame").func).len();
                self.move_to(end);
            }
        }
        Ok(())
    }

    fn run_program(&mut self, entry: FuncId) -> Result<()> {
        if let Some(init) = self.program.init {
            self.run_function(init, &[])?;
        }
        let params = self.entry_arguments(entry)?;
        if !self.program.creates_threads() {
            return self.run_function(entry, &params);
        }
        let t = self.store.true_term();
        let mut threads = crate::threads::Threads::new(self.program, self.state.clone(), t);
        threads.races = self.options.data_race_checks.then(Default::default);
        threads.waits = self.options.deadlock_checks.then(Default::default);
        self.threads = Some(threads);
        self.make_early_objects()?;
        let main_run = self.run_function(entry, &params);
        self.run_threads(main_run)
    }

    fn declare(&mut self, symbol: SymbolId) -> Result<()> {
        let ty = self.program.symbols[symbol].ty;
        if self.program.types.is_variably_modified(ty) {
            self.check_array_lengths(ty)?;
            if self.store.is_false(self.state.guard) {
                return Ok(());
            }
            // Each execution of the declaration sizes a new array.
            self.frames.last_mut().expect("frame").locals.remove(&symbol);
        } else if self.ended_instance(symbol) {
            // C 6.2.4p6: entering the block again (a later loop iteration)
            // makes a new instance; a pointer to the old one stays dangling.
            self.frames.last_mut().expect("frame").locals.remove(&symbol);
        }
        let o = self.variable_object(symbol)?;
        let sym = &self.program.symbols[symbol];
        let name = sym.display_name.clone();
        let sort = self.objects.get(o).value_sort(self.store);
        let value = self.store.var(&name, sort);
        self.record_input(value, Some(sym.ty), InputKind::Uninitialized(name));
        self.write_object(o, value);
        let t = self.store.true_term();
        self.note_lifetime_start(o, t);
        self.set_alive(o, t);
        Ok(())
    }

    /// Whether local `symbol` has an instance in this frame whose lifetime
    /// ended on every path, and a pointer may still point to it.
    fn ended_instance(&self, symbol: SymbolId) -> bool {
        let frame = self.frames.last().expect("frame");
        let Some(&old) = frame.locals.get(&symbol) else { return false };
        self.address_taken.contains(&symbol) && self.state.alive(old).is_some_and(|alive| self.store.is_false(alive))
    }

    // ----- calls -----

    /// Enters `func` at `pc` with the locals of the frame that spawned the
    /// statement there (a thread's first frame, see `spawn_statement`).
    pub(crate) fn push_spawned_frame(&mut self, func: FuncId, pc: usize, locals: HashMap<SymbolId, ObjectId>) {
        let loops = Rc::clone(self.loops.get(&func).expect("the spawning frame's loops are known"));
        let id = self.next_frame_id;
        self.next_frame_id += 1;
        let flow = FrameFlow::new(loops);
        let frame = Frame { id, func, pc, locals, flow, return_object: None, stack_allocations: Vec::new(), deferred_calls: Vec::new() };
        self.frames.push(frame);
        self.enter_loops_at(pc);
    }

    /// Enters `func` with arguments `args` of types `arg_types`.
    pub fn push_frame(&mut self, func: FuncId, args: &[TermId], arg_types: &[ir::TypeId]) -> Result<()> {
        let function = &self.program.functions[func];
        let id = self.next_frame_id;
        self.next_frame_id += 1;
        let sig_ret = match self.program.types.get(function.ty) {
            ir::Type::Function(sig) => sig.ret,
            _ => return Err(Stop::unsupported(format!("function `{}` has a non-function type", function.name), self.loc)),
        };
        let loops = match self.loops.get(&func) {
            Some(loops) => Rc::clone(loops),
            None => {
                let body = function.body.as_deref().expect("frames are only pushed for defined functions");
                let loops = Rc::new(analysis::FunctionLoops::of_body(body));
                self.loops.insert(func, Rc::clone(&loops));
                loops
            }
        };
        self.frames.push(Frame {
            id,
            func,
            pc: 0,
            locals: HashMap::new(),
            flow: FrameFlow::new(loops),
            return_object: None,
            stack_allocations: Vec::new(),
            deferred_calls: Vec::new(),
        });
        if !matches!(self.program.types.get(sig_ret), ir::Type::Void) {
            let size = repr::size_of(self.program, sig_ret, self.loc)?;
            let o = self.objects.add(ObjectKind::ReturnValue { frame: id }, format!("{}#return", function.name), size);
            if repr::is_large(self.program, sig_ret) {
                self.objects.set_byte_array(o);
            }
            self.frames.last_mut().expect("pushed").return_object = Some(o);
        }
        for (index, &param) in function.params.iter().enumerate() {
            let o = self.variable_object(param)?;
            let ty = self.program.symbols[param].ty;
            let m = match args.get(index) {
                Some(&value) => repr::to_memory(self.program, self.store, ty, value, self.loc)?,
                // A call through an unprototyped declaration may leave
                // parameters out (undefined behaviour); as compiled by gcc
                // they hold whatever their registers held: inputs, in the
                // order the interpreter asks for them.
                None => {
                    let name = self.program.symbols[param].display_name.clone();
                    let sort = self.objects.get(o).value_sort(self.store);
                    let value = self.store.var(&name, sort);
                    self.record_input(value, Some(ty), InputKind::Uninitialized(name));
                    value
                }
            };
            let start = self.store.bv_u64(self.layout.wide_bits(), 0);
            self.note_typed_store(o, start, ty, m);
            self.write_object(o, m);
        }
        if let Some(area) = function.variadic_area {
            let fixed = function.params.len();
            self.fill_variadic_area(area, args.get(fixed..).unwrap_or_default(), arg_types.get(fixed..).unwrap_or_default())?;
        }
        self.enter_loops_at(0);
        Ok(())
    }

    /// Creates the new frame's argument area: uninitialized bytes with the
    /// extra arguments stored at their slots (see `ir::varargs`).
    fn fill_variadic_area(&mut self, area: SymbolId, values: &[TermId], types: &[ir::TypeId]) -> Result<()> {
        let Some((offsets, size)) = ir::varargs::area_layout(&self.program.types, types, self.program.data_model) else {
            return Err(Stop::unsupported("a variadic argument has a type without a size", self.loc));
        };
        let frame = self.frames.last_mut().expect("pushed");
        let name = self.program.symbols[area].display_name.clone();
        let o = self.objects.add(ObjectKind::Local { symbol: area, frame: frame.id }, name.clone(), size);
        frame.locals.insert(area, o);
        let sort = self.objects.get(o).value_sort(self.store);
        let mut whole = self.store.var(&name, sort);
        self.record_input(whole, None, InputKind::Uninitialized(name));
        for ((&value, &ty), offset) in values.iter().zip(types).zip(offsets) {
            if repr::is_empty(self.program, ty) {
                continue;
            }
            if repr::is_large(self.program, ty) {
                let size = repr::size_of(self.program, ty, self.loc)?;
                return Err(Stop::unsupported(format!("a variadic argument of {size} bytes"), self.loc));
            }
            let m = repr::to_memory(self.program, self.store, ty, value, self.loc)?;
            let at = self.store.bv_u64(self.layout.wide_bits(), offset * 8);
            whole = self.write_object_bits(o, whole, at, m)?;
            self.note_typed_store(o, at, ty, m);
        }
        self.write_object(o, whole);
        let t = self.store.true_term();
        self.set_alive(o, t);
        Ok(())
    }

    /// Enters `callee` (true), or cuts the path if its recursion bound is
    /// reached (false).
    fn enter(&mut self, callee: FuncId, args: Vec<TermId>, arg_types: &[ir::TypeId]) -> Result<bool> {
        let active = self.frames.iter().filter(|f| f.func == callee).count() as u64;
        if active > 0 && self.options.unwind.is_some_and(|k| active >= k) {
            let name = self.program.functions[callee].name.clone();
            let guard = self.state.guard;
            self.bound_exceeded(guard, &format!("recursion of {name}"));
            return Ok(false);
        }
        self.push_frame(callee, &args, arg_types)?;
        Ok(true)
    }

    fn call(&mut self, lhs: Option<&'a Expr>, callee: &'a Expr, args: &'a [Expr]) -> Result<()> {
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.eval(a)?);
        }
        let arg_types: Vec<ir::TypeId> = args.iter().map(|a| a.ty).collect();
        if let Some(func) = self.program.called_function(callee) {
            if self.program.functions[func].body.is_none() {
                return self.call_builtin(func, lhs, args, &values);
            }
            if !self.enter(func, values, &arg_types)? {
                self.advance();
            }
            return Ok(());
        }
        self.call_through_pointer(callee, values, arg_types)
    }

    fn call_through_pointer(&mut self, callee: &'a Expr, values: Vec<TermId>, arg_types: Vec<ir::TypeId>) -> Result<()> {
        let pointer = self.eval(callee)?;
        let numbers = match self.layout.known_targets(self.store, pointer) {
            Some(numbers) => numbers,
            None => self.address_taken_functions(values.len(), self.program.types.pointee(callee.ty)),
        };
        let object = self.layout.object_of(self.store, pointer);
        let mut cases = Vec::new();
        let mut any = Vec::new();
        for n in numbers {
            let Some(o) = self.objects.by_number(n) else { continue };
            let ObjectKind::Function(func) = self.objects.get(o).kind else { continue };
            let number = self.layout.object_number_term(self.store, n);
            let is_it = self.store.eq(object, number);
            any.push(is_it);
            let guard = self.store.and2(self.state.guard, is_it);
            if !self.store.is_false(guard) {
                cases.push(DeferredCall {
                    state: self.state.with_guard(guard),
                    callee: func,
                    args: values.clone(),
                    arg_types: arg_types.clone(),
                });
            }
        }
        let some_target = self.store.or(&any);
        if self.options.pointer_checks {
            self.assert(some_target, PropertyClass::PointerDereference, "invalid function pointer");
        } else {
            // The check is off, not its condition: a call to no function
            // jumps somewhere the model cannot follow, so the paths that
            // take it end here without a TRUE resting on them.
            let invalid = self.store.not(some_target);
            self.approximate_when(invalid, "a call through an invalid function pointer (unchecked) is not modelled");
        }
        let f = self.store.false_term();
        self.state = State::new(f);
        if cases.iter().any(|c| self.program.functions[c.callee].body.is_none()) {
            return Err(Stop::unsupported("call through a function pointer to a function without body", self.loc));
        }
        self.frames.last_mut().expect("frame").deferred_calls = cases;
        self.next_deferred_call()
    }

    /// The numbers of the functions with a body whose address the program
    /// has taken so far, that take `arg_count` arguments and may be called
    /// as the pointer's function type `expected`: the targets of a call
    /// through a pointer whose value set is lost (CBMC's fallback). A
    /// function pointer's value can only come from taking an address, and
    /// a call through a type the function may not be called as is
    /// undefined (C11 6.3.2.3p8); if the pointer may still be something
    /// else, the invalid-pointer check fails.
    fn address_taken_functions(&self, arg_count: usize, expected: Option<ir::TypeId>) -> Vec<u64> {
        let fits = |f: FuncId| {
            let function = &self.program.functions[f];
            let variadic = matches!(self.program.types.get(function.ty), ir::Type::Function(sig) if sig.variadic);
            let typed = expected.is_none_or(|t| self.program.types.callable_as(t, function.ty));
            function.body.is_some() && typed && (function.params.len() == arg_count || (variadic && function.params.len() <= arg_count))
        };
        let addressable = self.objects.addressable().iter().map(|&o| self.objects.get(o));
        addressable
            .filter(|object| matches!(object.kind, ObjectKind::Function(f) if fits(f)))
            .filter_map(|object| object.number)
            .collect()
    }

    /// Starts the next function-pointer case of the current frame's call,
    /// or continues after the call when none is left.
    fn next_deferred_call(&mut self) -> Result<()> {
        loop {
            let frame = self.frames.last_mut().expect("frame");
            let Some(case) = frame.deferred_calls.pop() else {
                self.advance();
                return Ok(());
            };
            let next = frame.pc + 1;
            let done = std::mem::replace(&mut self.state, case.state);
            self.send(done, next);
            if self.enter(case.callee, case.args, &case.arg_types)? {
                return Ok(());
            }
        }
    }

    /// Whether the instruction at `pc` is in the main thread's return
    /// from the entry function: nothing but the end of locals' scopes is
    /// left before it.
    fn leaves_the_program(&self, pc: usize) -> bool {
        let Some(frame) = self.frames.last() else { return false };
        if self.running_thread() != 0 || self.frames.len() != 1 || Some(frame.func) != self.program.entry {
            return false;
        }
        let rest = &self.body(frame.func)[pc..];
        rest.iter().all(|i| matches!(i.kind, InstrKind::Dead(_) | InstrKind::Return(_)))
    }

    fn end_function(&mut self) -> Result<()> {
        let frame = self.frames.pop().expect("frame");
        let f = self.store.false_term();
        for &o in frame.locals.values().chain(&frame.stack_allocations) {
            if self.objects.get(o).number.is_some() {
                self.set_alive(o, f);
            }
        }
        if self.frames.is_empty() {
            if Some(frame.func) == self.program.entry {
                self.program_exit(ProgramEnd::Return)?;
            }
            return Ok(());
        }
        let caller = self.frames.last().expect("caller");
        let call = &self.body(caller.func)[caller.pc];
        self.loc = call.loc;
        if let (InstrKind::Call { lhs: Some(lhs), .. }, Some(ret)) = (&call.kind, frame.return_object) {
            let m = self.object_value(ret);
            let value = repr::from_memory(self.program, self.store, lhs.ty, m, self.loc)?;
            self.assign(lhs, value)?;
        }
        self.next_deferred_call()
    }

    /// The program ends on the current path by `end`: memory that is still
    /// allocated is reported where `heap_at_exit` asks.
    pub fn program_exit(&mut self, end: ProgramEnd) -> Result<()> {
        self.note_process_end();
        let checked = match (self.options.heap_at_exit, end) {
            (HeapAtExit::Unchecked, _) | (HeapAtExit::SvCompCleanup, ProgramEnd::Abort) => return Ok(()),
            (HeapAtExit::Esbmc, ProgramEnd::Exit) => self.atexit_handler_registered()?,
            _ => self.store.true_term(),
        };
        if self.threads_on() {
            self.approximate("the memory left at the end while other threads may run is not modelled", true);
        }
        let path = self.state.guard;
        self.state.guard = self.store.and2(path, checked);
        let heap: Vec<ObjectId> = self.objects.iter().filter(|(_, o)| o.is_dynamic()).map(|(id, _)| id).collect();
        for o in heap {
            let alive = self.object_alive(o);
            let freed = self.store.not(alive);
            self.assert(freed, PropertyClass::MemoryCleanup, "dynamically allocated memory not freed at exit");
        }
        self.state.guard = path;
        Ok(())
    }

    /// The current paths stay in a loop forever: under SV-COMP's memtrack,
    /// memory still allocated on them may have been lost on the way, which
    /// no exit will show, so those paths are an approximation.
    pub(crate) fn paths_never_end(&mut self) {
        if self.options.heap_at_exit != HeapAtExit::SvCompTrack {
            return;
        }
        let heap: Vec<ObjectId> = self.objects.iter().filter(|(_, o)| o.is_dynamic()).map(|(id, _)| id).collect();
        let allocated: Vec<TermId> = heap.into_iter().map(|o| self.object_alive(o)).collect();
        let some_allocated = self.store.or(&allocated);
        self.approximate_when(some_allocated, "memory still allocated on a path that never ends (whether it was lost on the way is not decided)");
    }

    /// Whether the program has registered an `atexit` handler (never when
    /// it does not use the model of `atexit`).
    pub(crate) fn atexit_handler_registered(&mut self) -> Result<TermId> {
        let flag = self.program.symbols.iter().find(|(_, s)| s.kind == SymbolKind::Global && s.name == ir::intrinsics::ATEXIT_REGISTERED);
        let Some((symbol, s)) = flag else { return Ok(self.store.false_term()) };
        let value = self.eval(&Expr::sym(symbol, s.ty))?;
        let zero = self.store.bv_u64(self.store.sort(value).bv_width().expect("an int flag"), 0);
        let unset = self.store.eq(value, zero);
        Ok(self.store.not(unset))
    }
}

/// The value of `object` before any write: zero for static storage, an
/// unconstrained value otherwise (memoised so that all states agree).
fn initial_value(
    store: &mut TermStore,
    objects: &Objects,
    initial_values: &mut HashMap<ObjectId, TermId>,
    object: ObjectId,
) -> TermId {
    if let Some(&v) = initial_values.get(&object) {
        return v;
    }
    let obj = objects.get(object);
    let v = match obj.kind {
        ObjectKind::Global(_) | ObjectKind::StringLiteral(_) | ObjectKind::Function(_) => obj.zero_value(store),
        _ => {
            let sort = obj.value_sort(store);
            store.var(&obj.name, sort)
        }
    };
    initial_values.insert(object, v);
    v
}

/// Liveness of an object that no state has changed: heap and stack
/// allocations are created alive explicitly, so before that they are dead.
pub(crate) fn initial_alive(store: &mut TermStore, objects: &Objects, object: ObjectId) -> TermId {
    match objects.get(object).kind {
        ObjectKind::Heap { .. } | ObjectKind::Stack { .. } => store.false_term(),
        _ => store.true_term(),
    }
}
