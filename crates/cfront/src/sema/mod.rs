//! Type checking and lowering of C translation units to one linked IR
//! [`ir::Program`].
//!
//! The submodules split the work by C construct: [`ctype`] (C types and
//! their rules), [`types`] (record/enum tables, sizes, IR mapping),
//! [`layout`], [`consteval`], [`floatlit`], [`scope`], [`decl`]
//! (declarations, linkage, functions), [`builtins`] (prototypes of
//! undeclared library functions), [`init`] (initializers), [`expr`],
//! [`complex`], [`stmt`], [`labels`] (label addresses, computed goto), [`nested`] (GNU nested
//! functions),
//! [`varargs`] (variadic functions) and [`fixup`] (whole-program passes at the end).
//! This file holds the lowering state shared by all of them: the program
//! being built, the function being lowered (its instruction list, labels
//! and temporaries) and the entry point [`lower`].
//!
//! Decisions: globals are zero before `__tarsier_init` assigns their
//! initial values (string literal contents first); a function body that
//! fails to lower rejects the program only if it is reachable from the
//! entry or init function; the same struct in several units is one IR
//! composite.

mod aliases;
mod alloc_size;
mod atomics;
mod bit_builtins;
mod builtins;
mod complex;
mod consteval;
mod ctype;
mod decl;
mod expr;
mod fixup;
mod float_builtins;
mod floatlit;
mod init;
mod labels;
mod layout;
mod nested;
mod object_size;
mod order;
mod overflow;
mod quantifier;
mod scope;
mod startup;
mod stmt;
mod types;
mod varargs;

use crate::ast::TranslationUnit;
use crate::diag::Diagnostics;
use crate::Options;
use ctype::CType;
use ir::{Expr, FuncId, Instr, InstrIdx, InstrKind, Loc, SourceFiles, SymbolId, SymbolKind, TypeId};
use std::collections::{HashMap, HashSet};

pub use startup::REGISTER_DESTRUCTORS;

/// Name of the generated function that assigns globals' initial values.
pub const INIT_FUNCTION: &str = "__tarsier_init";

/// Lowering runs on a thread with this much stack, so deeply nested C
/// (thousands of levels) stays within [`MAX_DEPTH`] instead of overflowing.
const LOWERING_STACK_BYTES: usize = 1 << 30;
/// Deepest expression/statement nesting lowered before a clear error.
const MAX_DEPTH: u32 = 20_000;

/// Type-checks `units` and lowers them into one program. Returns `None`
/// when an error was reported.
pub fn lower(units: &[TranslationUnit], files: SourceFiles, opts: &Options, diags: &mut Diagnostics) -> Option<ir::Program> {
    let earlier = diags.clone();
    let mut own = std::mem::take(diags);
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new().name("sema".into()).stack_size(LOWERING_STACK_BYTES).spawn_scoped(s, move || {
            let program = lower_here(units, files, opts, &mut own);
            (program, own)
        });
        match worker.map(|handle| handle.join()) {
            Ok(Ok((program, lowered))) => {
                *diags = lowered;
                program
            }
            Ok(Err(_)) => {
                *diags = earlier;
                diags.error(Loc::NONE, "internal error: the lowering panicked");
                None
            }
            Err(spawn_error) => {
                *diags = earlier;
                diags.error(Loc::NONE, format!("{} cannot start the lowering thread: {spawn_error}", crate::diag::OUT_OF_MEMORY));
                None
            }
        }
    })
}

fn lower_here(units: &[TranslationUnit], files: SourceFiles, opts: &Options, diags: &mut Diagnostics) -> Option<ir::Program> {
    let mut sema = Sema::new(opts, diags, files);
    sema.reserve_external_names(units);
    for unit in units {
        sema.lower_unit(unit);
    }
    sema.finish()
}

/// An error already reported to the diagnostics.
#[derive(Debug)]
pub struct Reported;

pub type R<T> = Result<T, Reported>;

/// A jump target inside the function being lowered.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Label(usize);

/// A `switch` being lowered: its controlling value and collected cases.
struct SwitchCtx {
    value: Expr,
    /// (low, high, target) of each `case`, inclusive.
    cases: Vec<(i128, i128, Label)>,
    default: Option<Label>,
    value_signed: bool,
    /// Where the switch's code starts, and the block depth of its body.
    start: usize,
    depth: usize,
}

/// Break/continue targets with the scope depth to unwind to.
#[derive(Copy, Clone)]
struct JumpTarget {
    label: Label,
    scope_depth: usize,
}

/// A block being lowered.
///
/// A C object's lifetime is its whole block, and a jump to a label (or a
/// `case`) may enter the block past the object's declaration. So in blocks
/// that contain labels the non-VLA locals are declared a second time at a
/// point every such jump passes: the start of the function for `goto`
/// labels, the start of the `switch` for its cases.
struct OpenBlock {
    /// Locals declared so far, for `Dead` at block exit.
    locals: Vec<SymbolId>,
    /// Locals whose declaration may be repeated earlier.
    hoistable: Vec<SymbolId>,
    /// Where the repeated declarations go, if the block contains a label.
    hoist_to: Option<usize>,
    /// Its `__label__` names, with the unique names of their labels.
    local_labels: Vec<(String, String)>,
}

/// The C library's standard streams: pointers to objects of its own.
const STANDARD_STREAMS: [&str; 3] = ["stdin", "stdout", "stderr"];

impl OpenBlock {
    fn new() -> OpenBlock {
        OpenBlock { locals: Vec::new(), hoistable: Vec::new(), hoist_to: None, local_labels: Vec::new() }
    }

    /// Records the repeated declarations of a closing block.
    fn close_into(self, hoists: &mut Vec<(usize, Vec<SymbolId>)>) {
        if let Some(at) = self.hoist_to {
            if !self.hoistable.is_empty() {
                hoists.push((at, self.hoistable));
            }
        }
    }
}

/// The function whose body is being lowered.
struct FnCtx {
    func: FuncId,
    name: String,
    instrs: Vec<Instr>,
    ret: CType,
    label_pos: Vec<Option<u32>>,
    fixups: Vec<(usize, Label)>,
    user_labels: HashMap<String, (Label, Option<Loc>)>,
    breaks: Vec<JumpTarget>,
    continues: Vec<JumpTarget>,
    switches: Vec<SwitchCtx>,
    /// The open blocks, innermost last.
    live: Vec<OpenBlock>,
    /// `__ESBMC_return_value` of this function, once mentioned.
    return_value: Option<SymbolId>,
    /// Declarations to repeat at a block's start (position, locals).
    hoists: Vec<(usize, Vec<SymbolId>)>,
    /// Labels whose address is taken, with their hidden objects.
    label_addresses: Vec<(String, SymbolId)>,
    computed_gotos: Vec<labels::ComputedGoto>,
    /// Variables of enclosing functions this nested function uses, with
    /// the hidden parameters that point to them.
    captures: Vec<(SymbolId, SymbolId)>,
    /// The own unwinding bound (`#pragma unroll`, `__ESBMC_unroll`) of the
    /// loop about to be lowered; the loop takes it.
    unroll: Option<Option<u64>>,
    /// Loop heads with their own unwinding bound.
    loop_unwinds: Vec<(Label, Option<u64>)>,
    /// Choices of evaluation order (see `order`).
    evaluation_orders: Vec<order::PendingOrder>,
    /// Copies of the current operand that the choices being lowered make.
    lowered_orders: usize,
    counter: u32,
}

impl FnCtx {
    /// Inserts straight-line code at the start, shifting jump targets.
    fn prepend(&mut self, code: Vec<Instr>) {
        let n = code.len();
        for pos in self.label_pos.iter_mut().flatten() {
            *pos += n as u32;
        }
        for (at, _) in &mut self.fixups {
            *at += n;
        }
        self.instrs.splice(0..0, code);
    }

    /// Inserts the repeated `Decl`s before the instruction at their
    /// position; a jump to that position now lands on them.
    fn insert_hoisted_decls(&mut self) {
        if self.hoists.is_empty() {
            return;
        }
        let mut hoists = std::mem::take(&mut self.hoists);
        hoists.sort_by_key(|h| h.0);
        let old = std::mem::take(&mut self.instrs);
        let mut new_index = Vec::with_capacity(old.len() + 1);
        let mut pending = hoists.into_iter().peekable();
        for (i, instr) in old.into_iter().enumerate() {
            new_index.push(self.instrs.len() as u32);
            while let Some((_, syms)) = pending.next_if(|h| h.0 <= i) {
                for sym in syms {
                    self.instrs.push(Instr::new(InstrKind::Decl(sym), instr.loc));
                }
            }
            self.instrs.push(instr);
        }
        new_index.push(self.instrs.len() as u32);
        let end = self.instrs.len() as u32;
        for pos in self.label_pos.iter_mut().flatten() {
            *pos = new_index.get(*pos as usize).copied().unwrap_or(end);
        }
        // A jump's own index: past the declarations inserted before it.
        for (at, _) in &mut self.fixups {
            let mut i = new_index.get(*at).copied().unwrap_or(end) as usize;
            while self.instrs.get(i).is_some_and(|instr| !matches!(instr.kind, InstrKind::Goto { .. } | InstrKind::StartThread(_))) {
                i += 1;
            }
            *at = i;
        }
    }

    fn new(func: FuncId, name: &str, ret: CType) -> FnCtx {
        FnCtx {
            func,
            name: name.to_string(),
            instrs: Vec::new(),
            ret,
            label_pos: Vec::new(),
            fixups: Vec::new(),
            user_labels: HashMap::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            live: vec![OpenBlock::new()],
            return_value: None,
            hoists: Vec::new(),
            label_addresses: Vec::new(),
            computed_gotos: Vec::new(),
            captures: Vec::new(),
            unroll: None,
            loop_unwinds: Vec::new(),
            evaluation_orders: Vec::new(),
            lowered_orders: 1,
            counter: 0,
        }
    }
}

/// The lowering state.
pub struct Sema<'a> {
    opts: &'a Options,
    diags: &'a mut Diagnostics,
    prog: ir::Program,
    tcx: types::TypeCtx,
    scopes: scope::Scopes,
    /// External-linkage names to their symbol and C type.
    externals: HashMap<String, (SymbolId, CType, Loc)>,
    /// Every symbol's C type (the IR type loses qualifiers and enums).
    sym_types: HashMap<SymbolId, CType>,
    /// Names that some unit gives external linkage; file statics avoid them.
    external_names: HashSet<String>,
    used_names: HashSet<String>,
    strings: HashMap<(Vec<u32>, u8), SymbolId>,
    /// Assignments of the string literals' contents (run first by init).
    string_inits: Vec<Instr>,
    /// The function being lowered (at file scope: the init function).
    fx: FnCtx,
    /// Enclosing contexts; `saved[0]` is the init function when a function body is open.
    saved: Vec<FnCtx>,
    unit_file: String,
    depth: u32,
    anon_records: u32,
    /// Nesting of parameter lists and record bodies being resolved.
    in_params: u32,
    in_record: u32,
    /// Functions whose body is being lowered (catches recursive redefinition).
    defining: HashSet<FuncId>,
    /// Functions whose definition was `inline` (a repeated one is skipped).
    inline_defined: HashSet<FuncId>,
    /// Objects declared `extern` without an initializer, and the objects
    /// some unit defines: one never defined comes from outside the program
    /// and starts with an unknown value.
    extern_objects: Vec<(SymbolId, Loc)>,
    defined_objects: HashSet<SymbolId>,
    /// This unit's tentative definitions (file scope, no initializer, not
    /// `extern`), completed when the unit ends (C11 6.9.2p2).
    tentative: Vec<(SymbolId, Loc)>,
    /// Which kind of definition gave each external object its initial value
    /// (the linker rules: a strong definition overrides a weak one).
    object_definitions: HashMap<SymbolId, decl::Definition>,
    /// Complete records by tag ("" for anonymous ones), to unify the same
    /// struct across units; records before `unit_first_record` belong to
    /// earlier units.
    records_by_tag: HashMap<String, Vec<ir::CompositeId>>,
    unit_first_record: usize,
    /// Functions declared implicitly with an assumed library prototype.
    implicit_builtins: HashSet<SymbolId>,
    /// Symbols whose type a later declaration completed.
    stale: HashSet<SymbolId>,
    /// Errors of functions whose body failed to lower, reported only if the
    /// function is reachable: an unreachable body cannot affect a verdict.
    deferred: Vec<(FuncId, Vec<crate::diag::Diagnostic>)>,
    /// The nested functions lowered so far.
    nested: HashMap<FuncId, nested::Nested>,
    /// Constructors, destructors and the order of definitions.
    startup: startup::Startup,
    /// Aliases this unit declared, and those of finished units.
    pending_aliases: Vec<aliases::PendingAlias>,
    aliases: Vec<aliases::Alias>,
    /// Function aliases and their targets (an entry may be an alias).
    function_aliases: HashMap<FuncId, FuncId>,
    /// The values of the expressions of the braced initializer being
    /// lowered, evaluated before it in every order (see `init`), by node.
    initial_values: HashMap<*const crate::ast::Expr, expr::Val>,
}

impl<'a> Sema<'a> {
    fn new(opts: &'a Options, diags: &'a mut Diagnostics, files: SourceFiles) -> Sema<'a> {
        let mut prog = ir::Program::new(opts.data_model);
        prog.files = files;
        let void = prog.types.void();
        let init_ty = prog.types.intern(ir::Type::Function(ir::FnSig {
            ret: void,
            params: vec![],
            variadic: false,
            unprototyped: false,
        }));
        let init = prog.declare_function(INIT_FUNCTION, void, &[], false, Loc::NONE);
        prog.functions[init].ty = init_ty;
        prog.init = Some(init);
        let mut used_names = HashSet::new();
        used_names.insert(INIT_FUNCTION.to_string());
        Sema {
            opts,
            diags,
            tcx: types::TypeCtx::new(opts.data_model),
            prog,
            scopes: scope::Scopes::new(),
            externals: HashMap::new(),
            sym_types: HashMap::new(),
            external_names: HashSet::new(),
            used_names,
            strings: HashMap::new(),
            string_inits: Vec::new(),
            fx: FnCtx::new(init, INIT_FUNCTION, CType::void()),
            saved: Vec::new(),
            unit_file: String::new(),
            depth: 0,
            anon_records: 0,
            in_params: 0,
            in_record: 0,
            defining: HashSet::new(),
            inline_defined: HashSet::new(),
            extern_objects: Vec::new(),
            defined_objects: HashSet::new(),
            tentative: Vec::new(),
            object_definitions: HashMap::new(),
            records_by_tag: HashMap::new(),
            unit_first_record: 0,
            implicit_builtins: HashSet::new(),
            initial_values: HashMap::new(),
            stale: HashSet::new(),
            deferred: Vec::new(),
            nested: HashMap::new(),
            startup: startup::Startup::default(),
            pending_aliases: Vec::new(),
            aliases: Vec::new(),
            function_aliases: HashMap::new(),
        }
    }

    fn lower_unit(&mut self, unit: &TranslationUnit) {
        self.scopes = scope::Scopes::new();
        self.unit_first_record = self.tcx.records.len();
        self.unit_file = unit
            .items
            .iter()
            .find_map(decl::item_loc)
            .filter(|l| !l.is_none())
            .map(|l| self.prog.files.name(l.file).to_string())
            .unwrap_or_default();
        for item in &unit.items {
            // Errors are reported; lowering goes on with the next item so
            // one run shows as many problems as possible.
            let _ = self.lower_external(item);
        }
        self.complete_tentative_arrays();
        self.resolve_unit_aliases();
    }

    /// In the init function: an `extern` object no unit defines gets a
    /// nondeterministic value (zero would be a guess about another unit),
    /// except the rounding-mode variable, which the verifier owns: it
    /// starts at the requested mode (and exists whenever that mode is not
    /// the default, so every float operation finds it), and the standard
    /// streams, which the C library defines as its own objects.
    fn havoc_undefined_externs(&mut self) {
        let rounding = self.opts.rounding_mode;
        if rounding != ir::RoundingMode::NearestEven && self.prog.rounding_mode_variable().is_none() {
            if let Ok(sym) = self.declare_linked(ir::ROUNDING_MODE_VARIABLE, ir::ROUNDING_MODE_VARIABLE, &CType::int(), false, Loc::NONE) {
                self.extern_objects.push((sym, Loc::NONE));
            }
        }
        let externs = std::mem::take(&mut self.extern_objects);
        for (sym, loc) in externs {
            let ty = self.prog.symbols[sym].ty;
            let sized = self.prog.types.size_of(ty, self.prog.data_model).is_some();
            if self.defined_objects.contains(&sym) || self.is_alias(sym) || !sized || self.prog.symbols[sym].kind != SymbolKind::Global {
                continue;
            }
            let name = self.prog.symbols[sym].name.clone();
            let value = if name == ir::ROUNDING_MODE_VARIABLE {
                Expr::int(rounding.value(), ty)
            } else if STANDARD_STREAMS.contains(&name.as_str()) && self.prog.types.is_pointer(ty) {
                self.standard_stream(&name, ty)
            } else {
                Expr::new(ir::ExprKind::Nondet, ty)
            };
            self.emit(InstrKind::Assign(Expr::sym(sym, ty), value), loc);
        }
    }

    /// The address of the C library's own object behind the standard
    /// stream `name` (glibc's `_IO_2_1_stdin_`, ...): each stream is a
    /// distinct valid object, never NULL, and no other object. The stdio
    /// model defines it as glibc's `FILE` (linked when the program refers
    /// to the stream, see `library_models`); without the models it is an
    /// `int`.
    fn standard_stream(&mut self, name: &str, ty: ir::TypeId) -> Expr {
        let object_name = format!("__tarsier_{name}_object");
        let object = match self.externals.get(&object_name) {
            Some(&(sym, _, _)) => Ok(sym),
            None => self.declare_linked(&object_name, &object_name, &CType::int(), false, Loc::NONE),
        };
        let Ok(object) = object else {
            return Expr::new(ir::ExprKind::Nondet, ty);
        };
        let object_ty = self.prog.symbols[object].ty;
        let pointer_ty = self.prog.types.pointer_to(object_ty);
        let address = Expr::new(ir::ExprKind::AddrOf(Box::new(Expr::sym(object, object_ty))), pointer_ty);
        Expr::cast(address, ty)
    }

    fn finish(mut self) -> Option<ir::Program> {
        self.havoc_undefined_externs();
        let _ = self.emit_startup_calls();
        self.emit(InstrKind::Return(None), Loc::NONE);
        let mut init_ctx = std::mem::replace(&mut self.fx, FnCtx::new(FuncId(0), "", CType::void()));
        let strings = std::mem::take(&mut self.string_inits);
        init_ctx.prepend(strings);
        self.finish_function(init_ctx);
        self.apply_aliases();
        let entry = self.opts.entry.clone().unwrap_or_else(|| "main".to_string());
        let entry_function = self.prog.function(&entry).map(|f| self.function_aliases.get(&f).copied().unwrap_or(f));
        match entry_function {
            Some(f) if self.prog.functions[f].body.is_some() => self.prog.entry = Some(f),
            found => match self.deferred.iter().position(|(f, _)| Some(*f) == found) {
                // An entry whose body failed to lower: its errors explain
                // why, and it is defined, so nothing more is said.
                Some(at) => {
                    let (_, errors) = self.deferred.swap_remove(at);
                    self.diags.list.extend(errors);
                }
                None if found.is_some_and(|f| self.defining.contains(&f)) && self.diags.has_errors() => {}
                None => {
                    self.diags.error(Loc::NONE, format!("entry function `{entry}` is not defined"));
                }
            },
        }
        fixup::retype_stale_references(&mut self.prog, &self.stale);
        let reachable = fixup::reachable_functions(&self.prog);
        for (func, errors) in std::mem::take(&mut self.deferred) {
            if reachable.contains(&func) {
                self.diags.list.extend(errors);
            }
        }
        if self.diags.has_errors() {
            return None;
        }
        Some(self.prog)
    }

    // ----- diagnostics -----

    fn error(&mut self, loc: Loc, msg: impl Into<String>) -> Reported {
        self.diags.error(loc, msg);
        Reported
    }

    fn warn(&mut self, loc: Loc, msg: impl Into<String>) {
        self.diags.warning(loc, msg);
    }

    /// Guards recursion over nested syntax.
    fn enter(&mut self, loc: Loc) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(self.error(loc, format!("unsupported: nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ----- types -----

    fn ir_ty(&mut self, ty: &CType) -> TypeId {
        self.tcx.to_ir(&mut self.prog.types, ty)
    }

    // ----- instructions and labels -----

    fn emit(&mut self, kind: InstrKind, loc: Loc) {
        self.fx.instrs.push(Instr::new(kind, loc));
    }

    fn new_label(&mut self) -> Label {
        self.fx.label_pos.push(None);
        Label(self.fx.label_pos.len() - 1)
    }

    fn place_label(&mut self, label: Label) {
        self.fx.label_pos[label.0] = Some(self.fx.instrs.len() as u32);
    }

    /// Emits a jump to `label` taken when `cond` (a `Bool`) holds.
    fn goto_if(&mut self, cond: Expr, label: Label, loc: Loc) {
        self.fx.fixups.push((self.fx.instrs.len(), label));
        self.emit(InstrKind::Goto { cond, target: InstrIdx(u32::MAX) }, loc);
    }

    /// Emits the spawn of a thread starting at `label`.
    fn start_thread(&mut self, label: Label, loc: Loc) {
        self.fx.fixups.push((self.fx.instrs.len(), label));
        self.emit(InstrKind::StartThread(InstrIdx(u32::MAX)), loc);
    }

    fn goto(&mut self, label: Label, loc: Loc) {
        let t = self.true_expr();
        self.goto_if(t, label, loc);
    }

    fn true_expr(&mut self) -> Expr {
        let b = self.prog.types.bool();
        Expr::int(1, b)
    }

    /// A fresh local of the current function (a temporary when `name` is
    /// a generated one), declared at this point.
    fn fresh_local(&mut self, display: &str, ty: &CType, loc: Loc) -> SymbolId {
        self.fx.counter += 1;
        let name = format!("{}::{}::{display}", self.fx.name, self.fx.counter);
        let irty = self.ir_ty(ty);
        let sym = self.prog.add_symbol(&name, irty, SymbolKind::Local(self.fx.func), loc);
        self.prog.symbols[sym].display_name = display.to_string();
        self.sym_types.insert(sym, ty.clone());
        self.emit(InstrKind::Decl(sym), loc);
        sym
    }

    /// A temporary holding `value`; returns an expression reading it.
    fn temp(&mut self, value: Expr, ty: &CType, loc: Loc) -> Expr {
        let sym = self.fresh_local("$tmp", &ty.unqualified(), loc);
        let irty = self.prog.symbols[sym].ty;
        let target = Expr::sym(sym, irty);
        self.emit(InstrKind::Assign(target.clone(), value), loc);
        target
    }

    /// Resolves jumps and installs the body of a finished function.
    fn finish_function(&mut self, mut ctx: FnCtx) {
        while let Some(block) = ctx.live.pop() {
            block.close_into(&mut ctx.hoists);
        }
        ctx.insert_hoisted_decls();
        for (name, (label, used_at)) in &ctx.user_labels {
            if ctx.label_pos[label.0].is_none() {
                let loc = used_at.unwrap_or(Loc::NONE);
                // A local label's unique name is `name#n`.
                let shown = name.split('#').next().unwrap_or(name);
                self.diags.error(loc, format!("label `{shown}` used but not defined"));
            }
        }
        let end = ctx.instrs.len() as u32;
        for (at, label) in &ctx.fixups {
            let target = ctx.label_pos[label.0].unwrap_or(end).min(end);
            if let Some(Instr { kind: InstrKind::Goto { target: t, .. } | InstrKind::StartThread(t), .. }) = ctx.instrs.get_mut(*at) {
                *t = InstrIdx(target);
            }
        }
        for (name, (label, _)) in &ctx.user_labels {
            if let Some(at) = ctx.label_pos[label.0] {
                self.prog.labels.push(ir::Label { function: ctx.func, name: name.clone(), at: InstrIdx(at.min(end)) });
            }
        }
        for (head, bound) in &ctx.loop_unwinds {
            if let Some(at) = ctx.label_pos[head.0] {
                self.prog.loop_unwinds.push(ir::LoopUnwind { function: ctx.func, head: InstrIdx(at.min(end)), bound: *bound });
            }
        }
        for pending in &ctx.evaluation_orders {
            if let Some(order) = order::resolve(pending, ctx.func, &ctx.label_pos, &ctx.instrs) {
                self.prog.evaluation_orders.push(order);
            }
        }
        let jumps_to_end = ctx.instrs.iter().any(|i| matches!(i.kind, InstrKind::Goto { target, .. } if target.0 == end));
        if jumps_to_end || ctx.label_pos.iter().any(|p| p.is_some_and(|p| p >= end)) || ctx.instrs.is_empty() {
            ctx.instrs.push(Instr::new(InstrKind::Skip, Loc::NONE));
        }
        self.prog.functions[ctx.func].body = Some(ctx.instrs);
    }

    /// Picks a program-unique symbol name: `preferred` if free, else
    /// prefixed by `qualifier`, numbered if needed.
    fn unique_name(&mut self, preferred: &str, qualifier: &str) -> String {
        let mut name = preferred.to_string();
        if self.used_names.contains(&name) || self.external_names.contains(&name) {
            name = format!("{qualifier}::{preferred}");
            let base = name.clone();
            let mut n = 1;
            while self.used_names.contains(&name) {
                n += 1;
                name = format!("{base}#{n}");
            }
        }
        self.used_names.insert(name.clone());
        name
    }
}
