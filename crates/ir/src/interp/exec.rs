//! The interpreter's machine: program set-up, the instruction loop, call
//! frames, calls and returns.

use super::eval::Place;
use super::memory::{AccessError, Lifetime, Memory, ObjectId, ObjectKind, Pointer};
use super::value::{sign_extend, Value};
use super::{AddressKey, Config, InputKind, InputProvider, InputRequest, NestedLoop, Outcome, Run, TraceStep, UbKind, Violation};
use super::unwind::{self, LoopCounts};
use crate::expr::{Expr, ExprKind};
use crate::instr::{InstrIdx, InstrKind, Property, PropertyClass};
use crate::loc::Loc;
use crate::program::{FuncId, Program, SymbolId, SymbolKind};
use crate::types::{Type, TypeId};
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

/// Evaluation either continues with a `T` or ends the run with an outcome.
pub(super) type Flow<T> = Result<T, Outcome>;

/// Where a call's result goes when the callee returns.
pub(super) struct ResultSlot {
    place: Place,
    lhs: Expr,
    caller_instr: usize,
}

pub(super) struct Frame {
    pub func: FuncId,
    /// Index of the instruction being executed.
    pub pc: usize,
    /// Every local declared in this frame, alive or dead: a variable
    /// declared again (next loop iteration) reuses its object.
    pub locals: HashMap<SymbolId, ObjectId>,
    pub allocas: Vec<ObjectId>,
    result: Option<ResultSlot>,
    pub(super) loops: LoopCounts,
}

impl Frame {
    /// A spawned statement's frame: `func` at `pc`, with `locals`.
    pub(super) fn spawned(func: FuncId, pc: usize, locals: HashMap<SymbolId, ObjectId>) -> Frame {
        Frame { func, pc, locals, allocas: Vec::new(), result: None, loops: LoopCounts::default() }
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Stage {
    Init,
    Entry,
}

pub(super) struct Machine<'a> {
    pub program: &'a Program,
    pub config: &'a Config,
    pub(super) inputs: &'a mut (dyn InputProvider + Send),
    pub memory: Memory,
    pub globals: HashMap<SymbolId, ObjectId>,
    /// The started threads' instances of thread-local globals, by symbol
    /// and thread number, and the bytes each starts with.
    thread_locals: HashMap<(SymbolId, u32), ObjectId>,
    thread_local_initial: HashMap<SymbolId, super::memory::Bytes>,
    pub function_objects: HashMap<FuncId, ObjectId>,
    pub frames: Vec<Frame>,
    pub depth: u32,
    steps: u64,
    pub(super) trace: Vec<TraceStep>,
    /// Loop heads where fast-forwarding found nothing to jump over.
    pub(super) acceleration_failures: super::accelerate::Failures,
    stage: Stage,
    heap_blocks: u32,
    pub unknown_functions: BTreeSet<String>,
    /// The calls of uninterpreted functions so far: name, arguments, result.
    pub uninterpreted_calls: Vec<(String, Vec<Value>, Value)>,
    /// Quantifiers being evaluated, innermost last.
    pub(super) quantifiers: Vec<super::quantifier::QuantifierRun>,
    /// The threads, when a schedule is followed.
    pub(super) threads: Option<super::threads::Scheduler>,
}

/// Functions whose call is the reach-error property itself.
pub(super) const ERROR_FUNCTIONS: [&str; 2] = ["reach_error", "__VERIFIER_error"];

impl<'a> Machine<'a> {
    pub fn new(program: &'a Program, config: &'a Config, inputs: &'a mut (dyn InputProvider + Send)) -> Machine<'a> {
        let pointer_bytes = program.data_model.pointer_bytes();
        Machine {
            program,
            config,
            inputs,
            memory: Memory::new(pointer_bytes, config.memory_limit),
            globals: HashMap::default(),
            thread_locals: HashMap::default(),
            thread_local_initial: HashMap::default(),
            function_objects: HashMap::default(),
            frames: Vec::new(),
            depth: 0,
            steps: 0,
            acceleration_failures: Default::default(),
            trace: Vec::new(),
            stage: Stage::Init,
            heap_blocks: 0,
            unknown_functions: BTreeSet::new(),
            uninterpreted_calls: Vec::new(),
            quantifiers: Vec::new(),
            threads: config.schedule.clone().map(super::threads::Scheduler::new),
        }
    }

    pub fn run(mut self) -> Run {
        let outcome = match self.set_up() {
            Ok(()) => loop {
                let stepped = match self.threads.is_some() && self.stage == Stage::Entry {
                    true => self.scheduled_step(),
                    false => self.step(),
                };
                if let Err(outcome) = stepped {
                    break outcome;
                }
            },
            Err(outcome) => outcome,
        };
        let object_names = self.memory.objects().map(|(_, o)| o.name.clone()).collect();
        let unfreed_heap = match outcome {
            Outcome::Completed(_) | Outcome::Aborted => {
                let program = self.program;
                self.memory.unfreed_heap(|symbol| !program.symbols[symbol].is_value_temporary())
            }
            _ => vec![],
        };
        let unknown_functions = self.unknown_functions.into_iter().collect();
        let context_switches = self.threads.as_ref().map_or(0, |threads| threads.switches);
        Run { outcome, trace: self.trace, steps: self.steps, object_names, unfreed_heap, unknown_functions, context_switches }
    }

    /// Where the current instruction is, for outcomes.
    fn position(&self) -> (FuncId, InstrIdx, Loc) {
        match self.frames.last() {
            Some(frame) => {
                let body = self.program.functions[frame.func].body.as_deref().unwrap_or_default();
                let loc = body.get(frame.pc).map_or(Loc::NONE, |i| i.loc);
                (frame.func, InstrIdx(frame.pc as u32), loc)
            }
            None => (self.program.entry.unwrap_or(FuncId(0)), InstrIdx(0), Loc::NONE),
        }
    }

    pub(super) fn ub(&self, kind: UbKind) -> Outcome {
        let (function, instr, loc) = self.position();
        Outcome::UndefinedBehaviour { kind, loc, function, instr }
    }

    pub(super) fn malformed(&self, what: String) -> Outcome {
        let (function, instr, _) = self.position();
        let name = self.program.functions.get(function).map_or("?", |f| f.name.as_str());
        Outcome::Malformed(format!("fn {name}, instr {}: {what}", instr.0))
    }

    pub(super) fn access_error(&self, error: AccessError) -> Outcome {
        self.ub(match error {
            AccessError::MemoryLimit => return Outcome::MemoryLimit,
            AccessError::Null => UbKind::NullDereference,
            AccessError::Invalid => UbKind::InvalidPointer,
            AccessError::OutOfBounds => UbKind::OutOfBounds,
            AccessError::Freed => UbKind::UseAfterFree,
            AccessError::Dead => UbKind::DeadObject,
            AccessError::ReadOnly => UbKind::WriteToReadOnly,
            AccessError::Function => UbKind::FunctionAccess,
            AccessError::InvalidFree => UbKind::InvalidFree,
            AccessError::DoubleFree => UbKind::DoubleFree,
        })
    }

    pub(super) fn violation(&self, class: PropertyClass, message: String) -> Outcome {
        let (function, instr, loc) = self.position();
        Outcome::Violation(Violation { property: Property { class, message }, loc, function, instr })
    }

    /// Asks the input provider for `size` bytes and records them. An
    /// object's contents ([`InputKind::Uninitialized`]) may come shorter,
    /// the bytes after the answer being zero (see [`InputProvider`]).
    pub(super) fn request_input(&mut self, kind: InputKind, ty: Option<TypeId>, size: u64) -> Flow<Vec<u8>> {
        let contents = matches!(kind, InputKind::Uninitialized(_));
        if !contents && size > self.config.memory_limit {
            return Err(Outcome::MemoryLimit);
        }
        if self.in_quantifier() {
            return Ok(if contents { Vec::new() } else { vec![0; size as usize] });
        }
        let (function, _, loc) = self.position();
        let request = InputRequest { kind, ty, size, function, loc };
        let bytes = self.inputs.next_input(&request).ok_or(Outcome::InputsExhausted { loc })?;
        let fits = if contents { bytes.len() as u64 <= size } else { bytes.len() as u64 == size };
        if !fits {
            let got = bytes.len();
            return Err(Outcome::Unsupported(format!("the input provider gave {got} bytes for a {size}-byte value")));
        }
        if self.config.record_trace {
            let InputRequest { kind, ty, function, loc, .. } = request;
            self.trace.push(TraceStep::Input { kind, ty, bytes: bytes.clone(), function, loc });
        }
        Ok(bytes)
    }

    pub(super) fn allocate(&mut self, name: String, kind: ObjectKind, size: u64) -> Flow<ObjectId> {
        self.allocate_aligned(name, kind, size, 1)
    }

    /// A new object, placed where the counterexample put it or else at an
    /// address that is a multiple of `alignment`.
    pub(super) fn allocate_aligned(&mut self, name: String, kind: ObjectKind, size: u64, alignment: u64) -> Flow<ObjectId> {
        let key = match &kind {
            ObjectKind::Reserved => None,
            ObjectKind::Global(symbol) | ObjectKind::StringLiteral(symbol) | ObjectKind::Local { symbol, .. } => {
                Some(AddressKey::Symbol(*symbol))
            }
            ObjectKind::ThreadLocal { symbol, thread } => Some(AddressKey::ThreadLocal(*symbol, *thread)),
            ObjectKind::Function(func) => Some(AddressKey::Function(*func)),
            ObjectKind::Heap | ObjectKind::Alloca { .. } => Some(AddressKey::Allocation(self.current_loc())),
            ObjectKind::Environment => Some(AddressKey::Environment(name.clone())),
        };
        let base = key.and_then(|key| self.config.addresses.get(&key).copied());
        let object = self.memory.allocate_aligned(name, kind, size, base, alignment).map_err(|_| Outcome::MemoryLimit)?;
        self.memory.check_placement(object).map_err(|_| address_clash())?;
        Ok(object)
    }

    /// Records that `object`'s address is seen as an integer.
    pub(super) fn expose(&mut self, object: ObjectId) -> Flow<()> {
        self.memory.expose(object).map_err(|_| address_clash())
    }

    pub(super) fn next_heap_name(&mut self, allocator: &str) -> String {
        self.heap_blocks += 1;
        format!("{allocator}#{}", self.heap_blocks)
    }

    /// Creates function and global objects and enters `init` (or `entry`).
    fn set_up(&mut self) -> Flow<()> {
        let program = self.program;
        for (func, function) in program.functions.iter() {
            let object = self.allocate(function.name.clone(), ObjectKind::Function(func), 0)?;
            self.function_objects.insert(func, object);
        }
        for (sym, symbol) in program.symbols.iter() {
            let kind = match symbol.kind {
                SymbolKind::Global => ObjectKind::Global(sym),
                SymbolKind::StringLiteral => ObjectKind::StringLiteral(sym),
                SymbolKind::Local(_) | SymbolKind::Function(_) => continue,
            };
            // An array declared without a length and never defined has no bytes.
            let size = program.symbol_size(sym).unwrap_or(0);
            let object = self.allocate(symbol.display_name.clone(), kind, size)?;
            self.globals.insert(sym, object);
        }
        match program.init {
            Some(init) => self.enter_function(init, vec![], &[], None),
            None => self.start_entry(),
        }
    }

    fn start_entry(&mut self) -> Flow<()> {
        self.stage = Stage::Entry;
        let read_only_objects: Vec<ObjectId> = self
            .globals
            .iter()
            .filter(|(sym, _)| {
                let symbol = &self.program.symbols[**sym];
                symbol.kind == SymbolKind::StringLiteral || symbol.read_only
            })
            .map(|(_, object)| *object)
            .collect();
        for object in read_only_objects {
            self.memory.set_read_only(object);
        }
        self.keep_thread_local_initial()?;
        let Some(entry) = self.program.entry else {
            return Err(Outcome::Malformed("the program has no entry function".into()));
        };
        let args = self.entry_arguments(entry)?;
        let arg_types: Vec<TypeId> = self.program.functions[entry].params.iter().map(|p| self.program.symbols[*p].ty).collect();
        self.enter_function(entry, args, &arg_types, None)
    }

    /// Keeps the bytes each thread-local global has when the entry
    /// function starts (after its static initialisation): a started
    /// thread's instance starts with them.
    fn keep_thread_local_initial(&mut self) -> Flow<()> {
        if self.threads.is_none() {
            return Ok(());
        }
        for (&sym, &object) in &self.globals {
            if self.program.symbols[sym].thread_local {
                let size = self.memory.object(object).size;
                let bytes = self.memory.read(Pointer { object, offset: 0 }, size).map_err(|e| self.access_error(e))?;
                self.thread_local_initial.insert(sym, bytes);
            }
        }
        Ok(())
    }

    /// The running thread's instance of thread-local global `sym` (the
    /// global itself for the main thread), created on first use.
    pub(super) fn thread_local_object(&mut self, sym: SymbolId, global: ObjectId) -> Flow<ObjectId> {
        let thread = self.threads.as_ref().map_or(0, |s| s.current());
        if thread == 0 {
            return Ok(global);
        }
        if let Some(&object) = self.thread_locals.get(&(sym, thread)) {
            return Ok(object);
        }
        let Some(bytes) = self.thread_local_initial.get(&sym).cloned() else {
            return Err(self.malformed(format!("thread-local `{}` used before the entry function", self.program.symbols[sym].name)));
        };
        let id = crate::intrinsics::MAIN_THREAD_ID + u64::from(thread);
        let name = format!("{}#thread{id}", self.program.symbols[sym].display_name);
        let object = self.allocate(name, ObjectKind::ThreadLocal { symbol: sym, thread: id }, bytes.len())?;
        self.memory.write(Pointer { object, offset: 0 }, &bytes).map_err(|e| self.access_error(e))?;
        self.thread_locals.insert((sym, thread), object);
        Ok(object)
    }

    /// Pushes a frame for `func` with arguments `args` of types `arg_types`.
    pub(super) fn enter_function(&mut self, func: FuncId, args: Vec<Value>, arg_types: &[TypeId], result: Option<ResultSlot>) -> Flow<()> {
        let function = &self.program.functions[func];
        if function.body.is_none() {
            return Err(self.malformed(format!("call of `{}`, which has no body", function.name)));
        }
        let depth = self.frames.len();
        if depth >= self.config.max_call_depth {
            return Err(Outcome::CallDepthLimit);
        }
        let mut locals = HashMap::default();
        for param in &function.params {
            let symbol = &self.program.symbols[*param];
            let size = self.size(symbol.ty)?;
            let kind = ObjectKind::Local { symbol: *param, depth };
            locals.insert(*param, self.allocate(symbol.display_name.clone(), kind, size)?);
        }
        let params: Vec<(ObjectId, TypeId)> =
            function.params.iter().map(|p| (locals[p], self.program.symbols[*p].ty)).collect();
        self.frames.push(Frame { func, pc: 0, locals, allocas: Vec::new(), result, loops: LoopCounts::default() });
        // Parameters an unprototyped call leaves out hold whatever was
        // there: inputs. Extra (variadic) arguments go to the argument area.
        let mut args = args.into_iter();
        for (object, ty) in params {
            match args.next() {
                Some(value) => self.store(Place::whole(Pointer { object, offset: 0 }), ty, &value)?,
                None => self.fill_uninitialized(object, Some(ty))?,
            }
        }
        match self.program.functions[func].variadic_area {
            Some(area) => {
                let extra_types = arg_types.get(self.program.functions[func].params.len()..).unwrap_or_default();
                self.fill_variadic_area(area, args.collect(), extra_types)
            }
            None => Ok(()),
        }
    }

    /// Creates the new frame's argument area and stores the extra
    /// arguments in it (the layout of `crate::varargs`).
    fn fill_variadic_area(&mut self, area: SymbolId, values: Vec<Value>, types: &[TypeId]) -> Flow<()> {
        let Some((offsets, size)) = crate::varargs::area_layout(&self.program.types, types, self.program.data_model) else {
            return Err(self.malformed("a variadic argument has a type without a size".into()));
        };
        let depth = self.frames.len() - 1;
        let name = self.program.symbols[area].display_name.clone();
        let object = self.allocate(name, ObjectKind::Local { symbol: area, depth }, size)?;
        self.frames[depth].locals.insert(area, object);
        self.fill_uninitialized(object, None)?;
        for ((value, &ty), offset) in values.iter().zip(types).zip(offsets) {
            self.store(Place::whole(Pointer { object, offset }), ty, value)?;
        }
        Ok(())
    }

    /// Executes one instruction.
    pub(super) fn step(&mut self) -> Flow<()> {
        self.steps += 1;
        if self.steps > self.config.step_limit {
            return Err(Outcome::StepLimit);
        }
        let program = self.program;
        let frame = self.frames.last().expect("the loop runs while a frame exists");
        let (func, pc) = (frame.func, frame.pc);
        // Loop counts matter only to unwinding assertions.
        if self.config.unwinding_assertions {
            self.count_iterations(func, pc)?;
        }
        let body = program.functions[func].body.as_deref().unwrap_or_default();
        let Some(instr) = body.get(pc) else {
            return Err(self.malformed("control ran past the last instruction".into()));
        };
        let mut next = pc + 1;
        let mut backward = false;
        match &instr.kind {
            InstrKind::Decl(sym) => self.declare(*sym)?,
            InstrKind::Dead(sym) => {
                if let Some(object) = self.frames.last().and_then(|f| f.locals.get(sym)) {
                    self.memory.end_lifetime(*object, Lifetime::Dead);
                }
            }
            InstrKind::Assign(lhs, rhs) => {
                let value = self.eval(rhs)?;
                let place = self.place(lhs)?;
                self.store(place, lhs.ty, &value)?;
                self.record_assign(func, pc, lhs, value);
            }
            InstrKind::Assume(cond) => {
                if !self.truth(cond)? {
                    return Err(Outcome::AssumptionViolated { loc: instr.loc });
                }
            }
            InstrKind::Assert(cond, property) => {
                if !self.truth(cond)? {
                    return Err(self.violation(property.class, property.message.clone()));
                }
            }
            InstrKind::Goto { cond, target } => {
                if self.truth(cond)? {
                    next = target.0 as usize;
                    backward = next <= pc;
                }
            }
            InstrKind::Call { lhs, callee, args } => return self.call(lhs.as_ref(), callee, args, pc),
            InstrKind::Return(value) => return self.return_from(func, value.as_ref(), instr.loc),
            InstrKind::Skip | InstrKind::AtomicBegin | InstrKind::AtomicEnd => {}
            InstrKind::Asm(text) => return Err(Outcome::Unsupported(format!("inline assembly `{text}`"))),
            InstrKind::StartThread(target) => self.spawn_statement(target.0 as usize)?,
            InstrKind::EndThread => self.end_spawned_thread()?,
            InstrKind::QuantifierBegin { quantifier, bound } => return self.begin_quantifier(*quantifier, bound, pc, instr.loc),
            InstrKind::QuantifierEnd { lhs, body } => {
                let holds = self.truth(body)?;
                return self.end_quantifier(lhs, holds, pc);
            }
        }
        self.frames.last_mut().expect("frame").pc = next;
        if backward && self.may_fast_forward() {
            self.fast_forward(func, next)?;
        }
        Ok(())
    }

    /// Whether jumping over loop iterations keeps the run the same:
    /// not when iterations are counted, threads interleave or a
    /// quantifier's body runs.
    fn may_fast_forward(&self) -> bool {
        self.config.accelerate_loops && !self.config.unwinding_assertions && self.threads.is_none() && self.quantifiers.is_empty()
    }

    /// Counts the iteration that arriving at `pc` of `func` starts, if
    /// any (see [`LoopCounts::arrive`]): past the loop's bound it is a
    /// violation of its unwinding assertion, reported at the loop.
    fn count_iterations(&mut self, func: FuncId, pc: usize) -> Flow<()> {
        let program = self.program;
        let Some(nest) = self.config.loop_nests.get(&func) else {
            let name = &program.functions[func].name;
            return Err(Outcome::Unsupported(format!("the loops of `{name}` are not known, so their iterations cannot be counted")));
        };
        let config = self.config;
        let bound = |l: &NestedLoop| program.loop_bound(func, InstrIdx(l.head as u32), loop_default_bound(config, program, l.loc));
        let frame = self.frames.last_mut().expect("frame");
        let Some(exceeded) = frame.loops.arrive(nest, pc, bound) else { return Ok(()) };
        let what = format!("unwinding assertion: loop at {}:{}", program.functions[func].name, exceeded.loc.line);
        let property = Property { class: PropertyClass::UnwindingAssertion, message: what };
        Err(Outcome::Violation(Violation { property, loc: exceeded.loc, function: func, instr: InstrIdx(exceeded.head as u32) }))
    }

    fn truth(&mut self, cond: &Expr) -> Flow<bool> {
        let value = self.eval(cond)?;
        Ok(self.scalar(&value)? != 0)
    }

    fn record_assign(&mut self, function: FuncId, pc: usize, lhs: &Expr, value: Value) {
        if self.config.record_trace {
            let loc = self.program.functions[function].body.as_deref().unwrap_or_default()[pc].loc;
            self.trace.push(TraceStep::Assign { function, instr: InstrIdx(pc as u32), loc, lhs: lhs.clone(), value });
        }
    }

    /// Starts a local's lifetime with contents from the input provider.
    fn declare(&mut self, sym: SymbolId) -> Flow<()> {
        let ty = self.program.symbols[sym].ty;
        self.check_array_lengths(ty)?;
        let size = self.size(ty)?;
        let depth = self.frames.len() - 1;
        let existing = self.frames[depth].locals.get(&sym).copied();
        let object = match existing {
            // C 6.2.4p6: entering the block again (a later loop iteration)
            // makes a new instance; a pointer to the ended one stays
            // dangling. Declared again inside its block, it is the same.
            Some(object) if self.memory.object(object).size == size && self.memory.object(object).lifetime == Lifetime::Alive => {
                self.memory.end_lifetime(object, Lifetime::Dead);
                self.memory.revive(object);
                self.memory.check_placement(object).map_err(|_| address_clash())?;
                object
            }
            _ => {
                if let Some(old) = existing {
                    self.memory.end_lifetime(old, Lifetime::Dead);
                }
                let name = self.program.symbols[sym].display_name.clone();
                let object = self.allocate(name, ObjectKind::Local { symbol: sym, depth }, size)?;
                self.frames[depth].locals.insert(sym, object);
                object
            }
        };
        self.fill_uninitialized(object, Some(ty))
    }

    fn call(&mut self, lhs: Option<&Expr>, callee: &Expr, args: &[Expr], pc: usize) -> Flow<()> {
        let func = self.resolve_callee(callee)?;
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.eval(arg)?);
        }
        let caller = self.frames.last().expect("frame").func;
        let function = &self.program.functions[func];
        if ERROR_FUNCTIONS.contains(&function.name.as_str()) {
            return Err(self.violation(PropertyClass::ReachError, format!("call of {}", function.name)));
        }
        let result_place = match lhs {
            Some(lhs) => Some(self.place(lhs)?),
            None => None,
        };
        if self.config.record_trace {
            let loc = self.program.functions[caller].body.as_deref().unwrap_or_default()[pc].loc;
            self.trace.push(TraceStep::Call { caller, callee: func, loc });
        }
        if function.body.is_some() {
            // Counting the active frames costs the call depth: only for unwinding assertions.
            let recursion_checked = self.config.unwinding_assertions && self.config.unwind.is_some();
            let active = if recursion_checked { self.frames.iter().filter(|f| f.func == func).count() } else { 0 };
            if recursion_checked && unwind::recursion_exceeds(active, self.config.unwind) {
                return Err(self.violation(PropertyClass::UnwindingAssertion, format!("unwinding assertion: recursion of {}", function.name)));
            }
            self.frames.last_mut().expect("frame").pc = pc + 1;
            let result =
                lhs.zip(result_place).map(|(lhs, place)| ResultSlot { place, lhs: lhs.clone(), caller_instr: pc });
            let arg_types: Vec<TypeId> = args.iter().map(|a| a.ty).collect();
            return self.enter_function(func, values, &arg_types, result);
        }
        let result = self.call_builtin(func, &values, args)?;
        if let (Some(lhs), Some(place), Some(value)) = (lhs, result_place, result) {
            self.store(place, lhs.ty, &value)?;
            self.record_assign(caller, pc, lhs, value);
        }
        self.frames.last_mut().expect("frame").pc = pc + 1;
        Ok(())
    }

    /// Runs `f` with the current frame's position at instruction `pc`, so
    /// outcomes name it (the frame may already point past it).
    fn with_pc<T>(&mut self, pc: usize, f: impl FnOnce(&mut Self) -> Flow<T>) -> Flow<T> {
        let saved = std::mem::replace(&mut self.frames.last_mut().expect("frame").pc, pc);
        let result = f(self);
        self.frames.last_mut().expect("frame").pc = saved;
        result
    }

    fn resolve_callee(&mut self, callee: &Expr) -> Flow<FuncId> {
        if let ExprKind::Sym(sym) = callee.kind {
            if let Some(SymbolKind::Function(func)) = self.program.symbols.get(sym).map(|s| &s.kind) {
                return Ok(*func);
            }
        }
        let pointer = {
            let value = self.eval(callee)?;
            self.pointer(&value)?
        };
        let func = match self.memory.object(pointer.object).kind {
            ObjectKind::Function(func) if pointer.offset == 0 => func,
            _ => return Err(self.ub(UbKind::InvalidFunctionPointer)),
        };
        let expected = self.program.types.pointee(callee.ty).unwrap_or(callee.ty);
        if !self.program.types.callable_as(expected, self.program.functions[func].ty) {
            return Err(self.ub(UbKind::CallTypeMismatch));
        }
        Ok(func)
    }

    fn return_from(&mut self, func: FuncId, value: Option<&Expr>, loc: Loc) -> Flow<()> {
        let value = match value {
            Some(expr) => Some(self.eval(expr)?),
            None => None,
        };
        let frame = self.frames.pop().expect("returning from a frame");
        for object in frame.locals.values().chain(&frame.allocas) {
            self.memory.end_lifetime(*object, Lifetime::Dead);
        }
        if self.config.record_trace {
            self.trace.push(TraceStep::Return { function: func, loc });
        }
        if self.frames.is_empty() {
            return match self.stage {
                Stage::Init => self.start_entry(),
                Stage::Entry => Err(Outcome::Completed(self.exit_code(func, value.as_ref()))),
            };
        }
        if let Some(slot) = frame.result {
            let Some(value) = value else {
                return Err(self.malformed("a call's result is used but the callee returned no value".into()));
            };
            let caller = self.frames.last().expect("caller").func;
            self.with_pc(slot.caller_instr, |machine| machine.store(slot.place, slot.lhs.ty, &value))?;
            self.record_assign(caller, slot.caller_instr, &slot.lhs, value);
        }
        Ok(())
    }

    /// The exit code of the entry function's return value (0 for `void`).
    fn exit_code(&self, func: FuncId, value: Option<&Value>) -> i64 {
        let ret_ty = match self.program.types.get(self.program.functions[func].ty) {
            Type::Function(sig) => sig.ret,
            _ => return 0,
        };
        match (value, self.int_type(ret_ty)) {
            (Some(Value::Scalar(bits)), Some((width, true))) => sign_extend(*bits, width) as i64,
            (Some(Value::Scalar(bits)), Some((_, false))) => *bits as i64,
            _ => 0,
        }
    }
}

/// The bound of a loop without its own: the models' bound for a loop of a
/// library model (when one is set), else `--unwind`.
fn loop_default_bound(config: &Config, program: &Program, loc: Loc) -> Option<u64> {
    match program.files.is_library_model(loc) {
        true => config.model_loop_bound.or(config.unwind),
        false => config.unwind,
    }
}

/// A counterexample's addresses that no run can have.
fn address_clash() -> Outcome {
    Outcome::Unsupported("the counterexample places two live objects at overlapping addresses".into())
}
