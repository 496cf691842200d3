//! GCC's `constructor` and `destructor` function attributes, run where
//! glibc runs them. Constructors run after static initialization, before
//! the entry function: by priority (lowest first; none is 65535, the
//! last), then in definition order (units in link order). Destructors run
//! where the program ends normally (the entry function returns, or
//! `exit`), in the reverse of that order, as one handler registered before
//! any constructor runs, as glibc registers `_dl_fini`, which runs them:
//! the `atexit` handlers registered later (by constructors, by `main`) run
//! before them, and handlers a destructor registers run after them all.
//!
//! The constructor calls end the init function; the destructors go into a
//! generated function that the init function hands to the model
//! `__tarsier_register_destructors` (stdlib.c), which keeps it with the
//! `atexit` handlers (see `exit_handlers`).

use super::ctype::{CType, FnType, Kind};
use super::{Sema, R};
use crate::ast::Attribute;
use ir::{Expr, InstrKind, Loc, SymbolId, SymbolKind};
use std::collections::HashMap;
use std::rc::Rc;

/// The model that registers the destructors' function (stdlib.c).
pub const REGISTER_DESTRUCTORS: &str = "__tarsier_register_destructors";
/// The generated function that runs the destructors.
const RUN_DESTRUCTORS: &str = "__tarsier_run_destructors";
/// GCC's priority of a constructor or destructor without one.
const DEFAULT_PRIORITY: i128 = 65535;

/// The functions with a `constructor` or `destructor` attribute, and the
/// order in which functions are defined.
#[derive(Default)]
pub(super) struct Startup {
    constructors: HashMap<SymbolId, i128>,
    destructors: HashMap<SymbolId, i128>,
    defined: Vec<SymbolId>,
}

impl Startup {
    /// Functions of `marks` in the order glibc runs constructors: by
    /// priority, then by definition.
    fn in_order(&self, marks: &HashMap<SymbolId, i128>) -> Vec<SymbolId> {
        let mut order: Vec<SymbolId> = self.defined.iter().copied().filter(|f| marks.contains_key(f)).collect();
        order.sort_by_key(|f| marks[f]);
        order
    }
}

impl Sema<'_> {
    /// Records the `constructor`/`destructor` attributes of a declaration
    /// of the function `sym`.
    pub(super) fn note_startup_attributes(&mut self, sym: SymbolId, attrs: &[&[Attribute]]) -> R<()> {
        for attr in attrs.iter().flat_map(|list| list.iter()) {
            let is_constructor = match attr.name.as_str() {
                "constructor" => true,
                "destructor" => false,
                _ => continue,
            };
            let priority = match attr.args.first() {
                Some(arg) => self.const_int(arg, "constructor priority")?,
                None => DEFAULT_PRIORITY,
            };
            if !(0..=DEFAULT_PRIORITY).contains(&priority) {
                return Err(self.error(attr.loc, "constructor and destructor priorities must be integers from 0 to 65535"));
            }
            let marks = if is_constructor { &mut self.startup.constructors } else { &mut self.startup.destructors };
            marks.insert(sym, priority);
        }
        Ok(())
    }

    /// Records that the function `sym` is defined here (its place in the
    /// order of constructors of the same priority).
    pub(super) fn note_definition(&mut self, sym: SymbolId) {
        if !self.startup.defined.contains(&sym) {
            self.startup.defined.push(sym);
        }
    }

    /// Ends the init function (the current one) with the registration of
    /// the destructors and the constructor calls.
    pub(super) fn emit_startup_calls(&mut self) -> R<()> {
        let constructors = self.startup.in_order(&self.startup.constructors);
        let mut destructors = self.startup.in_order(&self.startup.destructors);
        destructors.reverse();
        for &f in constructors.iter().chain(&destructors) {
            self.check_runnable_at_startup(f)?;
        }
        if !destructors.is_empty() {
            let runner = self.destructor_runner(&destructors);
            let register = self.register_destructors_function()?;
            let runner_ptr = Expr::new(ir::ExprKind::AddrOf(Box::new(runner)), self.function_pointer_type());
            self.emit(InstrKind::Call { lhs: None, callee: register, args: vec![runner_ptr] }, Loc::NONE);
        }
        for f in constructors {
            let callee = Expr::sym(f, self.prog.symbols[f].ty);
            let loc = self.prog.symbols[f].loc;
            self.emit(InstrKind::Call { lhs: None, callee, args: vec![] }, loc);
        }
        Ok(())
    }

    /// A constructor or destructor is called with no arguments, so it must
    /// take none.
    fn check_runnable_at_startup(&mut self, f: SymbolId) -> R<()> {
        let SymbolKind::Function(func) = self.prog.symbols[f].kind else { return Ok(()) };
        if self.prog.functions[func].params.is_empty() {
            return Ok(());
        }
        let (name, loc) = (self.prog.symbols[f].display_name.clone(), self.prog.symbols[f].loc);
        Err(self.error(loc, format!("unsupported: constructor or destructor `{name}` with parameters")))
    }

    /// The generated function calling `destructors` in order, as a `Sym`.
    fn destructor_runner(&mut self, destructors: &[SymbolId]) -> Expr {
        let void = self.prog.types.void();
        let func = self.prog.declare_function(RUN_DESTRUCTORS, void, &[], false, Loc::NONE);
        self.used_names.insert(RUN_DESTRUCTORS.to_string());
        let mut body: Vec<ir::Instr> = destructors
            .iter()
            .map(|&f| {
                let callee = Expr::sym(f, self.prog.symbols[f].ty);
                ir::Instr::new(InstrKind::Call { lhs: None, callee, args: vec![] }, self.prog.symbols[f].loc)
            })
            .collect();
        body.push(ir::Instr::new(InstrKind::Return(None), Loc::NONE));
        self.prog.set_body(func, body);
        let symbol = self.prog.functions[func].symbol;
        Expr::sym(symbol, self.prog.symbols[symbol].ty)
    }

    /// `void (*)(void)`, the type of the runner's address.
    fn function_pointer_type(&mut self) -> ir::TypeId {
        let ty = CType::pointer_to(void_function());
        self.ir_ty(&ty)
    }

    /// The model that registers the runner: the library's definition once
    /// linked, a declaration before (which makes the linker add it).
    fn register_destructors_function(&mut self) -> R<Expr> {
        let param = CType::pointer_to(void_function());
        let ty = CType::new(Kind::Function(Rc::new(FnType { ret: CType::void(), params: vec![param], variadic: false, unprototyped: false })));
        let sym = self.declare_linked(REGISTER_DESTRUCTORS, REGISTER_DESTRUCTORS, &ty, false, Loc::NONE)?;
        Ok(Expr::sym(sym, self.prog.symbols[sym].ty))
    }
}

/// `void (void)`.
fn void_function() -> CType {
    CType::new(Kind::Function(Rc::new(FnType { ret: CType::void(), params: vec![], variadic: false, unprototyped: false })))
}
