//! Property instrumentation: verification intrinsics become `Assert`,
//! `Assume` and `Nondet`, and the enabled arithmetic checks become `Assert`
//! instructions placed before the instruction that evaluates the checked
//! expression.
//!
//! A check inside a conditional sub-expression (`Ite`, `And`, `Or`) is
//! guarded by the condition under which that sub-expression is evaluated,
//! so `b != 0 && a / b > 1` does not report a division by zero.

use ir::{
    BinOp, Expr, ExprKind, FuncId, Instr, InstrIdx, InstrKind, Loc, Program, Property,
    PropertyClass, SymbolId, SymbolKind, Type, TypeId, UnOp,
};
use std::collections::HashMap;
use std::rc::Rc;

/// Which properties to instrument. Memory-safety checks are symex's.
#[derive(Clone, Debug)]
pub struct Checks {
    /// User assertions (`assert`, `__VERIFIER_assert`, ...). When off they
    /// are dropped; `reach_error` calls are properties while
    /// [`Checks::reach_error`] is on.
    pub assertions: bool,
    /// The assertions of the C library models (a semaphore used before
    /// `sem_init`); off with ESBMC's `--no-library-assertions`.
    pub library_assertions: bool,
    /// A call of `reach_error`/`__VERIFIER_error` is a violation. When off
    /// (an SV-COMP property other than unreach-call) the call ends the
    /// program as `abort` does: the functions are declared `noreturn`, and
    /// the tasks that define `reach_error` call `__assert_fail` in it.
    pub reach_error: bool,
    pub div_by_zero: bool,
    /// Signed `+ - *`, unary minus, and `MIN / -1`, `MIN % -1`.
    pub signed_overflow: bool,
    /// Unsigned `+ - *` whose mathematical result does not fit.
    pub unsigned_overflow: bool,
    /// Floating-point operations that overflow to infinity
    /// (`--float-overflow-check`, CBMC's name; ESBMC's `--overflow-check`
    /// includes them, tarsier's and SV-COMP's no-overflow do not).
    pub float_overflow: bool,
    /// Shift amounts that are negative or not below the operand width,
    /// and negative values shifted left.
    pub shift: bool,
    /// Signed `<<` whose exact result does not fit its type (C11 6.5.7p4),
    /// filed with the shifts (ESBMC's `--ub-shift-check` checks it; CBMC
    /// and tarsier's `--overflow-check` file it as an overflow).
    pub shift_result: bool,
    /// Integer conversions to a signed type that cannot hold the value
    /// (implementation-defined in C, so off for SV-COMP's no-overflow).
    pub conversion: bool,
    /// Floating-point `+ - * /` that make a NaN from operands that are not
    /// NaN (`inf - inf`, `0 * inf`, `0 / 0`, `inf / inf`).
    pub nan: bool,
    /// Ordering and difference of pointers into different objects
    /// (`--no-pointer-relation-check` and `--no-pointer-check` turn it off).
    pub pointer_relation: bool,
    /// `__builtin_clz`/`ctz` (every form undefined at 0) of 0.
    pub bit_count: bool,
    /// `--error-label L`: reaching label `L` is a violation.
    pub error_label: Option<String>,
}

impl Default for Checks {
    fn default() -> Self {
        Checks {
            assertions: true,
            library_assertions: true,
            div_by_zero: true,
            signed_overflow: false,
            unsigned_overflow: false,
            float_overflow: false,
            shift: false,
            shift_result: false,
            conversion: false,
            nan: false,
            pointer_relation: true,
            bit_count: true,
            error_label: None,
            reach_error: true,
        }
    }
}

/// What instrumentation did, for the report.
#[derive(Clone, Debug, Default)]
pub struct Instrumented {
    /// Number of `Assert` instructions in the program afterwards.
    pub properties: usize,
    /// `--error-label` was given but no such label exists.
    pub missing_error_label: bool,
}

/// Instruments every function body of `program` in place.
pub fn instrument(program: &mut Program, checks: &Checks) -> Instrumented {
    let strings = string_literals(program);
    let mut result = Instrumented::default();
    let mut label_found = false;
    let ids: Vec<FuncId> = program.functions.keys().collect();
    for id in ids {
        let Some(body) = program.functions[id].body.take() else { continue };
        let error_at: Vec<InstrIdx> = match &checks.error_label {
            Some(name) => program
                .labels
                .iter()
                .filter(|l| l.function == id && &l.name == name)
                .map(|l| l.at)
                .collect(),
            None => Vec::new(),
        };
        label_found |= !error_at.is_empty();
        let mut pass = FunctionPass { program, checks, strings: &strings, out: Vec::new() };
        let new_index = pass.run(&body, &error_at);
        let mut out = pass.out;
        ir::instr::retarget(&mut out, &new_index);
        program.move_instructions(id, &new_index);
        result.properties += out.iter().filter(|i| matches!(i.kind, InstrKind::Assert(..))).count();
        program.functions[id].body = Some(out);
    }
    result.missing_error_label = checks.error_label.is_some() && !label_found;
    result
}

/// The contents of string-literal objects, from their initialising
/// assignments in the init function, so assertion messages can quote them.
fn string_literals(program: &Program) -> HashMap<SymbolId, String> {
    let mut map = HashMap::new();
    let Some(init) = program.init else { return map };
    let Some(body) = &program.functions[init].body else { return map };
    for instr in body {
        let InstrKind::Assign(lhs, rhs) = &instr.kind else { continue };
        let (ExprKind::Sym(sym), ExprKind::ArrayLit(elems)) = (&lhs.kind, &rhs.kind) else { continue };
        if program.symbols[*sym].kind != SymbolKind::StringLiteral {
            continue;
        }
        let bytes: Vec<u8> = elems
            .iter()
            .map_while(|e| match e.kind {
                ExprKind::IntConst(v) if v != 0 => Some(v as u8),
                _ => None,
            })
            .collect();
        map.insert(*sym, String::from_utf8_lossy(&bytes).into_owned());
    }
    map
}

/// How a call of a body-less intrinsic is rewritten.
enum Intrinsic {
    /// `assert(c)`-like; the message argument index, if any.
    Assert(Option<usize>),
    /// `__assert_fail("expr", file, line, function)`.
    AssertFail,
    ReachError,
    /// `__builtin_unreachable()`: reaching it is undefined behaviour.
    Unreachable,
    Assume,
    Nondet,
    /// `__ESBMC_atomic_begin()`/`end()`: the IR's atomic section markers.
    Atomic { begin: bool },
    /// CBMC's `__CPROVER_fence("WWfence", ...)`: it orders memory accesses
    /// of a weak memory model; under sequential consistency, which every
    /// interleaving follows, it orders nothing (its arguments are still
    /// evaluated, with their checks).
    Fence,
}

/// `nondet_value`: the call is only a source of a nondeterministic value
/// ([`ir::external::is_nondet_value_call`]).
fn classify(name: &str, has_body: bool, nondet_value: bool) -> Option<Intrinsic> {
    match name {
        "reach_error" | "__VERIFIER_error" => Some(Intrinsic::ReachError),
        _ if has_body => None,
        "assert" | "__VERIFIER_assert" => Some(Intrinsic::Assert(None)),
        "__ESBMC_assert" | "__CPROVER_assert" => Some(Intrinsic::Assert(Some(1))),
        "__assert_fail" | "__assert_rtn" | "__assert" => Some(Intrinsic::AssertFail),
        "__builtin_unreachable" => Some(Intrinsic::Unreachable),
        "__VERIFIER_assume" | "__ESBMC_assume" | "__CPROVER_assume" | "__builtin_assume" => Some(Intrinsic::Assume),
        "__ESBMC_atomic_begin" | "__CPROVER_atomic_begin" | "__VERIFIER_atomic_begin" => Some(Intrinsic::Atomic { begin: true }),
        "__ESBMC_atomic_end" | "__CPROVER_atomic_end" | "__VERIFIER_atomic_end" => Some(Intrinsic::Atomic { begin: false }),
        "__CPROVER_fence" => Some(Intrinsic::Fence),
        _ if nondet_value => Some(Intrinsic::Nondet),
        _ => None,
    }
}

struct FunctionPass<'a> {
    program: &'a mut Program,
    checks: &'a Checks,
    strings: &'a HashMap<SymbolId, String>,
    out: Vec<Instr>,
}

/// A pending node of the iterative expression walk.
struct Visit<'e> {
    expr: &'e Expr,
    guard: Guard<'e>,
    children_done: bool,
}

/// The conditions under which a sub-expression is evaluated, innermost
/// first, shared between the nodes below them: built into an expression
/// only for a node that has a check, since copying it to every node of a
/// long `&&` chain would be quadratic.
type Guard<'e> = Option<Rc<GuardLink<'e>>>;

struct GuardLink<'e> {
    condition: Condition<'e>,
    outer: Guard<'e>,
}

/// A condition of a guard: an operand of the enclosing expression holds or
/// fails.
#[derive(Clone, Copy)]
enum Condition<'e> {
    Holds(&'e Expr),
    Fails(&'e Expr),
}

/// The sub-expressions of `e`, each with the extra condition under which
/// it is evaluated.
fn children(e: &Expr) -> Vec<(&Expr, Option<Condition<'_>>)> {
    match &e.kind {
        ExprKind::Ite(c, t, f) => vec![(&**c, None), (&**t, Some(Condition::Holds(c))), (&**f, Some(Condition::Fails(c)))],
        ExprKind::Binary(BinOp::And, a, b) => vec![(&**a, None), (&**b, Some(Condition::Holds(a)))],
        ExprKind::Binary(BinOp::Or, a, b) => vec![(&**a, None), (&**b, Some(Condition::Fails(a)))],
        _ => e.children().into_iter().map(|c| (c, None)).collect(),
    }
}

impl FunctionPass<'_> {
    /// Emits the instrumented body; returns old index → new index (one
    /// extra entry for the end of the body).
    fn run(&mut self, body: &[Instr], error_at: &[InstrIdx]) -> Vec<InstrIdx> {
        let mut new_index = Vec::with_capacity(body.len() + 1);
        for (i, instr) in body.iter().enumerate() {
            new_index.push(InstrIdx(self.out.len() as u32));
            if error_at.contains(&InstrIdx(i as u32)) {
                let label = self.checks.error_label.clone().unwrap_or_default();
                let f = self.false_expr();
                self.assert(f, PropertyClass::ReachError, format!("error label {label} reached"), instr.loc);
            }
            self.instruction(instr);
        }
        new_index.push(InstrIdx(self.out.len() as u32));
        new_index
    }

    fn instruction(&mut self, instr: &Instr) {
        let loc = instr.loc;
        if let InstrKind::Call { lhs, callee, args } = &instr.kind {
            if let Some(intrinsic) = self.intrinsic(callee, args) {
                for arg in args {
                    self.check_expr(arg, loc);
                }
                self.rewrite_intrinsic(intrinsic, lhs.as_ref(), args, loc);
                return;
            }
        }
        for e in evaluated_exprs(&instr.kind) {
            self.check_expr(e, loc);
        }
        if let InstrKind::Call { callee, args, .. } = &instr.kind {
            self.bit_count_check(callee, args, loc);
        }
        self.out.push(instr.clone());
    }

    /// `__builtin_clz(0)`, `__builtin_ctz(0)` and their other forms (but
    /// `clzg`/`ctzg` given a result for 0) are undefined: the operand must
    /// not be 0.
    fn bit_count_check(&mut self, callee: &Expr, args: &[Expr], loc: Loc) {
        let ExprKind::Sym(sym) = callee.kind else { return };
        let SymbolKind::Function(f) = self.program.symbols[sym].kind else { return };
        let function = &self.program.functions[f];
        let long_bits = self.program.data_model.long_bits();
        let (Some(x), true) = (args.first(), self.checks.bit_count && function.body.is_none()) else { return };
        if !ir::intrinsics::undefined_at_zero(&function.name, args.len(), long_bits) {
            return;
        }
        let message = format!("`{}` of 0, which GCC leaves undefined", function.name);
        let zero = Expr::int(0, x.ty);
        let nonzero = self.cmp(BinOp::Ne, x.clone(), zero);
        self.assert(nonzero, PropertyClass::BitCount, message, loc);
    }

    fn intrinsic(&self, callee: &Expr, args: &[Expr]) -> Option<Intrinsic> {
        let function = &self.program.functions[self.program.called_function(callee)?];
        let nondet_value = ir::external::is_nondet_value_call(self.program, &function.name, args);
        classify(&function.name, function.body.is_some(), nondet_value)
    }

    /// The callee `abort` that a `reach_error` call becomes when it is not
    /// a property (declared when the program does not); `None` when it is
    /// one, or when the program defines its own `abort`, which would not end
    /// the program (the call then stays a property: at worst an answer
    /// outside the property asked, never a path cut).
    fn abort_instead_of_reach_error(&mut self) -> Option<Expr> {
        if self.checks.reach_error {
            return None;
        }
        let abort = match self.program.function("abort") {
            Some(f) => f,
            None => {
                let void = self.program.types.void();
                self.program.declare_function("abort", void, &[], false, Loc::NONE)
            }
        };
        let function = &self.program.functions[abort];
        function.body.is_none().then(|| Expr::sym(function.symbol, function.ty))
    }

    /// Whether an assertion at `loc` is checked.
    fn assertion_checked(&self, loc: Loc) -> bool {
        self.checks.assertions && (self.checks.library_assertions || !self.program.files.is_library_model(loc))
    }

    fn rewrite_intrinsic(&mut self, intrinsic: Intrinsic, lhs: Option<&Expr>, args: &[Expr], loc: Loc) {
        match intrinsic {
            Intrinsic::Assert(message_arg) => {
                let Some(cond) = args.first() else { return self.missing_argument(loc) };
                if !self.assertion_checked(loc) {
                    return;
                }
                let message = message_arg
                    .and_then(|i| args.get(i))
                    .and_then(|m| self.string_of(m))
                    .unwrap_or_else(|| "assertion".to_string());
                let c = self.truth(cond.clone());
                self.assert(c, PropertyClass::UserAssertion, message, loc);
            }
            Intrinsic::AssertFail => {
                if !self.assertion_checked(loc) {
                    return;
                }
                let text = args.first().and_then(|m| self.string_of(m));
                let message = text.map_or_else(|| "assertion".to_string(), |t| format!("assertion {t}"));
                let f = self.false_expr();
                self.assert(f, PropertyClass::UserAssertion, message, loc);
            }
            Intrinsic::Unreachable => {
                if self.checks.assertions {
                    let f = self.false_expr();
                    self.assert(f, PropertyClass::UserAssertion, ir::intrinsics::UNREACHABLE_REACHED.into(), loc);
                }
            }
            Intrinsic::ReachError => match self.abort_instead_of_reach_error() {
                Some(abort) => self.out.push(Instr::new(InstrKind::Call { lhs: None, callee: abort, args: vec![] }, loc)),
                None => {
                    let f = self.false_expr();
                    self.assert(f, PropertyClass::ReachError, "reach_error() is reachable".to_string(), loc);
                }
            },
            Intrinsic::Assume => {
                let Some(cond) = args.first() else { return self.missing_argument(loc) };
                let c = self.truth(cond.clone());
                self.out.push(Instr::new(InstrKind::Assume(c), loc));
            }
            Intrinsic::Atomic { begin } => {
                let kind = if begin { InstrKind::AtomicBegin } else { InstrKind::AtomicEnd };
                self.out.push(Instr::new(kind, loc));
            }
            Intrinsic::Fence => {}
            Intrinsic::Nondet => {
                if let Some(lhs) = lhs {
                    let value = Expr::new(ExprKind::Nondet, lhs.ty);
                    self.out.push(Instr::new(InstrKind::Assign(lhs.clone(), value), loc));
                }
            }
        }
    }

    /// An assertion intrinsic called without its condition: the call
    /// cannot be given a meaning, so it is kept as an unprovable property.
    fn missing_argument(&mut self, loc: Loc) {
        let f = self.false_expr();
        self.assert(f, PropertyClass::UserAssertion, "assertion intrinsic called without a condition".into(), loc);
    }

    fn string_of(&self, e: &Expr) -> Option<String> {
        let mut e = e;
        loop {
            match &e.kind {
                ExprKind::Cast(inner) | ExprKind::AddrOf(inner) => e = inner,
                ExprKind::Index(base, _) => e = base,
                ExprKind::Sym(sym) => return self.strings.get(sym).cloned(),
                _ => return None,
            }
        }
    }

    fn assert(&mut self, cond: Expr, class: PropertyClass, message: String, loc: Loc) {
        let property = Property { class, message };
        self.out.push(Instr::new(InstrKind::Assert(cond, property), loc));
    }

    /// Adds the enabled checks of every operator in `root`.
    fn check_expr(&mut self, root: &Expr, loc: Loc) {
        let mut stack = vec![Visit { expr: root, guard: None, children_done: false }];
        while let Some(visit) = stack.pop() {
            if visit.children_done {
                self.check_node(visit.expr, &visit.guard, loc);
                continue;
            }
            let Visit { expr, guard, .. } = visit;
            stack.push(Visit { expr, guard: guard.clone(), children_done: true });
            for (child, condition) in children(expr).into_iter().rev() {
                let guard = match condition {
                    None => guard.clone(),
                    Some(condition) => Some(Rc::new(GuardLink { condition, outer: guard.clone() })),
                };
                stack.push(Visit { expr: child, guard, children_done: false });
            }
        }
    }

    fn check_node(&mut self, e: &Expr, guard: &Guard<'_>, loc: Loc) {
        let checks = self.node_checks(e);
        if checks.is_empty() {
            return;
        }
        let guard = self.guard_expr(guard);
        for (cond, class, message) in checks {
            let cond = match &guard {
                Some(g) => {
                    let not_g = self.not(g.clone());
                    self.or(not_g, cond)
                }
                None => cond,
            };
            self.assert(cond, class, message.to_string(), loc);
        }
    }

    /// The conjunction of a guard's conditions, the outermost first.
    fn guard_expr(&mut self, guard: &Guard<'_>) -> Option<Expr> {
        let mut conditions = Vec::new();
        let mut link = guard.as_deref();
        while let Some(GuardLink { condition, outer }) = link {
            conditions.push(*condition);
            link = outer.as_deref();
        }
        let mut conjunction: Option<Expr> = None;
        for condition in conditions.into_iter().rev() {
            let c = match condition {
                Condition::Holds(c) => c.clone(),
                Condition::Fails(c) => self.not(c.clone()),
            };
            conjunction = Some(match conjunction {
                Some(g) => self.and(g, c),
                None => c,
            });
        }
        conjunction
    }

    fn node_checks(&mut self, e: &Expr) -> Vec<(Expr, PropertyClass, &'static str)> {
        let mut found = Vec::new();
        if let Type::Float(format) = *self.program.types.get(e.ty) {
            if self.checks.float_overflow {
                found.extend(self.float_overflow_check(e, format));
            }
            if self.checks.nan {
                found.extend(self.nan_check(e));
            }
            return found;
        }
        if let ExprKind::Binary(op, a, b) = &e.kind {
            let ordering = matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::PtrDiff);
            if ordering && self.checks.pointer_relation && self.program.types.is_pointer(a.ty) {
                found.push((self.related_pointers(a, b), PropertyClass::PointerRelation, "same object violation"));
            }
        }
        let Some((bits, signed)) = self.int_type(e.ty) else { return found };
        match &e.kind {
            ExprKind::Binary(op @ (BinOp::Div | BinOp::Rem), a, b) => {
                if self.checks.div_by_zero {
                    let zero = Expr::int(0, b.ty);
                    found.push((self.cmp(BinOp::Ne, (**b).clone(), zero), PropertyClass::DivisionByZero, "division by zero"));
                }
                if self.checks.signed_overflow && signed {
                    let message = if *op == BinOp::Div { "arithmetic overflow on signed division" } else { "arithmetic overflow on signed remainder" };
                    found.push((self.no_min_by_minus_one(a, b, bits), PropertyClass::SignedOverflow, message));
                }
            }
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
                let (enabled, class) = if signed {
                    (self.checks.signed_overflow, PropertyClass::SignedOverflow)
                } else {
                    (self.checks.unsigned_overflow, PropertyClass::UnsignedOverflow)
                };
                if enabled {
                    let message = overflow_message(*op, signed);
                    found.push((self.fits_after_widening(*op, a, b, bits, signed), class, message));
                }
            }
            ExprKind::Unary(UnOp::Neg, a) if signed && self.checks.signed_overflow => {
                let min = Expr::int(1u128 << (bits - 1), a.ty);
                found.push((self.cmp(BinOp::Ne, (**a).clone(), min), PropertyClass::SignedOverflow, "arithmetic overflow on signed negation"));
            }
            // Only zero negates without leaving the unsigned range.
            ExprKind::Unary(UnOp::Neg, a) if !signed && self.checks.unsigned_overflow => {
                let zero = Expr::int(0, a.ty);
                found.push((self.cmp(BinOp::Eq, (**a).clone(), zero), PropertyClass::UnsignedOverflow, "arithmetic overflow on unsigned negation"));
            }
            ExprKind::Binary(op @ (BinOp::Shl | BinOp::Shr), a, amount) => {
                if self.checks.shift {
                    found.push((self.shift_in_range(amount, bits), PropertyClass::Shift, "shift amount out of range"));
                }
                // C11 6.5.7p4: a negative left operand of `<<` is undefined
                // (gcc's UBSan, CBMC and ESBMC report it with the shift).
                if self.checks.shift && signed && *op == BinOp::Shl {
                    let zero = Expr::int(0, a.ty);
                    found.push((self.cmp(BinOp::Ge, (**a).clone(), zero), PropertyClass::Shift, "left shift of a negative value"));
                }
                let (enabled, class) = if signed {
                    (self.checks.signed_overflow, PropertyClass::SignedOverflow)
                } else {
                    (self.checks.unsigned_overflow, PropertyClass::UnsignedOverflow)
                };
                if *op == BinOp::Shl && enabled {
                    let message = if signed { "arithmetic overflow on signed shl" } else { "arithmetic overflow on unsigned shl" };
                    found.push((self.fits_after_widening(BinOp::Shl, a, amount, bits, signed), class, message));
                } else if *op == BinOp::Shl && signed && self.checks.shift_result {
                    found.push((self.fits_after_widening(BinOp::Shl, a, amount, bits, signed), PropertyClass::Shift, "left shift result not representable"));
                }
            }
            ExprKind::Cast(inner) => found = self.cast_checks(inner, e.ty),
            _ => {}
        }
        found
    }

    /// Whether pointers `a` and `b` may be ordered or subtracted: they
    /// point into (or one past) the same object, or neither points to an
    /// object (NULL, or integers made pointers that land in no object,
    /// whose order is their addresses').
    fn related_pointers(&mut self, a: &Expr, b: &Expr) -> Expr {
        let object_ty = self.program.types.int(64, false);
        let object = |p: &Expr| Expr::new(ExprKind::PointerObject(Box::new(p.clone())), object_ty);
        let same = self.cmp(BinOp::Eq, object(a), object(b));
        let null = object(&Expr::new(ExprKind::Null, a.ty));
        let bool_ty = self.program.types.bool();
        let no_object = |s: &mut Self, p: &Expr| {
            let invalid = Expr::new(ExprKind::IsInvalid(Box::new(p.clone())), bool_ty);
            let at_null = s.cmp(BinOp::Eq, object(p), null.clone());
            s.or(invalid, at_null)
        };
        let (none_a, none_b) = (no_object(self, a), no_object(self, b));
        let neither = self.and(none_a, none_b);
        self.or(same, neither)
    }

    /// Conversion of an integer to a signed integer type that cannot
    /// represent it.
    fn cast_checks(&mut self, inner: &Expr, to: TypeId) -> Vec<(Expr, PropertyClass, &'static str)> {
        if !self.checks.conversion {
            return Vec::new();
        }
        let (Some((to_bits, true)), Some((from_bits, from_signed))) = (self.int_type(to), self.int_type(inner.ty)) else {
            return Vec::new();
        };
        let cond = if from_signed {
            if to_bits >= from_bits {
                return Vec::new();
            }
            let narrowed = Expr::cast(inner.clone(), to);
            let back = Expr::cast(narrowed, inner.ty);
            self.cmp(BinOp::Eq, back, inner.clone())
        } else {
            if to_bits > from_bits {
                return Vec::new();
            }
            let limit = Expr::int(1u128 << (to_bits - 1), inner.ty);
            self.cmp(BinOp::Lt, inner.clone(), limit)
        };
        vec![(cond, PropertyClass::SignedOverflow, "arithmetic overflow on signed type conversion")]
    }

    /// A floating-point operation overflows when its result is infinite
    /// although the operands it could inherit infinity from are finite
    /// (ESBMC's definition under `--overflow-check`): both operands of
    /// `+ - *`, the dividend of `/` (so `1.0 / 0.0` overflows), the operand
    /// of a conversion to a narrower float.
    fn float_overflow_check(&mut self, e: &Expr, format: ir::FloatFormat) -> Option<(Expr, PropertyClass, &'static str)> {
        let (sources, message): (Vec<&Expr>, _) = match &e.kind {
            ExprKind::Binary(BinOp::Add, a, b) => (vec![a, b], "arithmetic overflow on floating-point +"),
            ExprKind::Binary(BinOp::Sub, a, b) => (vec![a, b], "arithmetic overflow on floating-point -"),
            ExprKind::Binary(BinOp::Mul, a, b) => (vec![a, b], "arithmetic overflow on floating-point *"),
            ExprKind::Binary(BinOp::Div, a, _) => (vec![a], "arithmetic overflow on floating-point /"),
            ExprKind::Cast(inner) if self.is_wider_float(inner.ty, format) => {
                (vec![inner], "arithmetic overflow on floating-point type conversion")
            }
            _ => return None,
        };
        let result_inf = self.is_infinite(e.clone(), format);
        let mut cond = self.not(result_inf);
        for source in sources {
            let Type::Float(source_format) = *self.program.types.get(source.ty) else { return None };
            let source_inf = self.is_infinite(source.clone(), source_format);
            cond = self.or(cond, source_inf);
        }
        Some((cond, PropertyClass::SignedOverflow, message))
    }

    /// An arithmetic result is NaN only if an operand is (ESBMC's
    /// `--nan-check`: a NaN that an operation produces, not one it passes on).
    fn nan_check(&mut self, e: &Expr) -> Option<(Expr, PropertyClass, &'static str)> {
        let ExprKind::Binary(op, a, b) = &e.kind else { return None };
        let message = match op {
            BinOp::Add => "NaN on +",
            BinOp::Sub => "NaN on -",
            BinOp::Mul => "NaN on *",
            BinOp::Div => "NaN on /",
            _ => return None,
        };
        let result_nan = self.is_nan(e.clone());
        let mut cond = self.not(result_nan);
        for operand in [a, b] {
            let operand_nan = self.is_nan((**operand).clone());
            cond = self.or(cond, operand_nan);
        }
        Some((cond, PropertyClass::NaN, message))
    }

    /// `x != x`: whether the float `x` is NaN.
    fn is_nan(&mut self, x: Expr) -> Expr {
        self.cmp(BinOp::Ne, x.clone(), x)
    }

    fn is_wider_float(&self, ty: TypeId, than: ir::FloatFormat) -> bool {
        matches!(self.program.types.get(ty), Type::Float(f) if f.exponent_bits() > than.exponent_bits())
    }

    /// `x == +inf || x == -inf` for a float `x` of `format`.
    fn is_infinite(&mut self, x: Expr, format: ir::FloatFormat) -> Expr {
        let inf = format.infinity_bits();
        let sign = 1u128 << (format.storage_bits() - 1);
        let plus = Expr::new(ExprKind::FloatConst(inf), x.ty);
        let minus = Expr::new(ExprKind::FloatConst(inf | sign), x.ty);
        let is_plus = self.cmp(BinOp::Eq, x.clone(), plus);
        let is_minus = self.cmp(BinOp::Eq, x, minus);
        self.or(is_plus, is_minus)
    }

    /// `!(a == MIN && b == -1)`
    fn no_min_by_minus_one(&mut self, a: &Expr, b: &Expr, bits: u32) -> Expr {
        let min = Expr::int(1u128 << (bits - 1), a.ty);
        let minus_one = Expr::int(mask(bits), b.ty);
        let a_min = self.cmp(BinOp::Eq, a.clone(), min);
        let b_minus_one = self.cmp(BinOp::Eq, b.clone(), minus_one);
        let both = self.and(a_min, b_minus_one);
        self.not(both)
    }

    /// The operation computed exactly in twice the width gives the same
    /// value as the wrapped one: `ext(trunc(r)) == r`. A shift keeps its
    /// amount operand as it is (the IR takes any integer type there).
    fn fits_after_widening(&mut self, op: BinOp, a: &Expr, b: &Expr, bits: u32, signed: bool) -> Expr {
        let wide = self.program.types.int(2 * bits, signed);
        let wa = Expr::cast(a.clone(), wide);
        let wb = if op == BinOp::Shl { b.clone() } else { Expr::cast(b.clone(), wide) };
        let exact = Expr::binary(op, wa, wb, wide);
        let narrow = Expr::cast(exact.clone(), a.ty);
        let back = Expr::cast(narrow, wide);
        self.cmp(BinOp::Eq, back, exact)
    }

    fn shift_in_range(&mut self, amount: &Expr, bits: u32) -> Expr {
        let (amount_bits, amount_signed) = self.int_type(amount.ty).unwrap_or((64, false));
        let below_width = if amount_bits < 64 && u128::from(bits) > mask(amount_bits) {
            self.true_expr()
        } else {
            let width = Expr::int(u128::from(bits), amount.ty);
            self.cmp(BinOp::Lt, amount.clone(), width)
        };
        if !amount_signed {
            return below_width;
        }
        let zero = Expr::int(0, amount.ty);
        let non_negative = self.cmp(BinOp::Ge, amount.clone(), zero);
        self.and(non_negative, below_width)
    }

    fn int_type(&self, ty: TypeId) -> Option<(u32, bool)> {
        match self.program.types.get(ty) {
            Type::Int { bits, signed } if *bits >= 1 => Some((*bits, *signed)),
            _ => None,
        }
    }

    /// `e != 0` as a `Bool`, for a scalar condition of any type.
    fn truth(&mut self, e: Expr) -> Expr {
        let zero_kind = match self.program.types.get(e.ty) {
            Type::Bool => return e,
            Type::Pointer(_) => ExprKind::Null,
            Type::Float(_) => ExprKind::FloatConst(0),
            Type::Int { .. } => ExprKind::IntConst(0),
            // A struct or union (GNU front ends accept one as a condition).
            _ => ExprKind::Zero,
        };
        let zero = Expr::new(zero_kind, e.ty);
        self.cmp(BinOp::Ne, e, zero)
    }

    fn cmp(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let bool_ty = self.program.types.bool();
        Expr::binary(op, a, b, bool_ty)
    }
    fn and(&mut self, a: Expr, b: Expr) -> Expr {
        self.cmp(BinOp::And, a, b)
    }
    fn or(&mut self, a: Expr, b: Expr) -> Expr {
        self.cmp(BinOp::Or, a, b)
    }
    fn not(&mut self, a: Expr) -> Expr {
        let bool_ty = self.program.types.bool();
        Expr::unary(UnOp::Not, a, bool_ty)
    }
    fn false_expr(&mut self) -> Expr {
        let bool_ty = self.program.types.bool();
        Expr::int(0, bool_ty)
    }
    fn true_expr(&mut self) -> Expr {
        let bool_ty = self.program.types.bool();
        Expr::int(1, bool_ty)
    }
}

fn overflow_message(op: BinOp, signed: bool) -> &'static str {
    match (op, signed) {
        (BinOp::Add, true) => "arithmetic overflow on signed +",
        (BinOp::Sub, true) => "arithmetic overflow on signed -",
        (BinOp::Mul, true) => "arithmetic overflow on signed *",
        (BinOp::Add, false) => "arithmetic overflow on unsigned +",
        (BinOp::Sub, false) => "arithmetic overflow on unsigned -",
        _ => "arithmetic overflow on unsigned *",
    }
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// The expressions an instruction evaluates (left sides included: their
/// index and pointer sub-expressions are evaluated too).
fn evaluated_exprs(kind: &InstrKind) -> Vec<&Expr> {
    match kind {
        InstrKind::Assign(lhs, rhs) => vec![lhs, rhs],
        InstrKind::Assume(c) | InstrKind::Assert(c, _) | InstrKind::Goto { cond: c, .. } => vec![c],
        InstrKind::Call { lhs, callee, args } => lhs.iter().chain(std::iter::once(callee)).chain(args).collect(),
        InstrKind::Return(Some(e)) => vec![e],
        InstrKind::QuantifierEnd { lhs, body } => vec![lhs, body],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
