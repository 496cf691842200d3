//! Tests of the instrumentation pass on hand-built IR programs.

use super::*;
use ir::{DataModel, FnSig, Function, Label, Symbol};

struct Builder {
    program: Program,
}

impl Builder {
    fn new() -> Builder {
        Builder { program: Program::new(DataModel::LP64) }
    }
    fn int(&mut self) -> TypeId {
        self.program.types.int(32, true)
    }
    /// Declares a function; `body: None` makes it an intrinsic candidate.
    fn function(&mut self, name: &str, ret: TypeId, params: Vec<TypeId>, body: Option<Vec<Instr>>) -> (FuncId, Expr) {
        let ty = self.program.types.intern(Type::Function(FnSig { ret, params, variadic: false, unprototyped: false }));
        let fid = FuncId(self.program.functions.len() as u32);
        let symbol = self.program.symbols.push(Symbol {
            name: name.into(),
            display_name: name.into(),
            ty,
            kind: SymbolKind::Function(fid),
            thread_local: false,
            align: 0,
            trailing_bytes: 0,
            read_only: false,
            loc: Loc::NONE,
        });
        let id = self.program.functions.push(Function { name: name.into(), symbol, ty, params: vec![], body, variadic_area: None, loc: Loc::NONE });
        self.program.function_index.insert(name.into(), id);
        (id, Expr::sym(symbol, ty))
    }
    fn local(&mut self, name: &str, ty: TypeId, f: FuncId) -> Expr {
        let sym = self.program.symbols.push(Symbol {
            name: name.into(),
            display_name: name.into(),
            ty,
            kind: SymbolKind::Local(f),
            thread_local: false,
            align: 0,
            trailing_bytes: 0,
            read_only: false,
            loc: Loc::NONE,
        });
        Expr::sym(sym, ty)
    }
}

fn at(line: u32) -> Loc {
    Loc { file: ir::FileId(0), line, col: 1 }
}

fn call(callee: &Expr, lhs: Option<Expr>, args: Vec<Expr>, line: u32) -> Instr {
    Instr::new(InstrKind::Call { lhs, callee: callee.clone(), args }, at(line))
}

fn classes(body: &[Instr]) -> Vec<String> {
    body.iter()
        .map(|i| match &i.kind {
            InstrKind::Assert(_, p) => format!("assert {:?}", p.class),
            InstrKind::Assume(_) => "assume".into(),
            InstrKind::Assign(_, rhs) if rhs.kind == ExprKind::Nondet => "nondet".into(),
            InstrKind::Goto { target, .. } => format!("goto {}", target.0),
            other => format!("{other:?}").split(['(', ' ', '{']).next().unwrap_or("").to_string(),
        })
        .collect()
}

#[test]
fn intrinsics_become_properties_and_jumps_follow() {
    let mut b = Builder::new();
    let int = b.int();
    let void = b.program.types.void();
    let (_, nondet) = b.function("__VERIFIER_nondet_int", int, vec![], None);
    let (_, assume) = b.function("__VERIFIER_assume", void, vec![int], None);
    let (_, check) = b.function("__VERIFIER_assert", void, vec![int], None);
    let (_, reach) = b.function("reach_error", void, vec![], Some(vec![]));
    let (main, _) = b.function("main", int, vec![], None);
    let x = b.local("x", int, main);
    let bool_ty = b.program.types.bool();
    let cond = Expr::binary(BinOp::Gt, x.clone(), Expr::int(0, int), bool_ty);
    let body = vec![
        call(&nondet, Some(x.clone()), vec![], 1),
        call(&assume, None, vec![x.clone()], 2),
        Instr::new(InstrKind::Goto { cond, target: InstrIdx(4) }, at(3)),
        call(&reach, None, vec![], 4),
        call(&check, None, vec![x.clone()], 5),
        Instr::new(InstrKind::Return(Some(Expr::int(0, int))), at(6)),
    ];
    b.program.functions[main].body = Some(body);
    b.program.labels.push(Label { function: main, name: "ERROR".into(), at: InstrIdx(4) });
    let checks = Checks { error_label: Some("ERROR".into()), ..Checks::default() };
    let result = instrument(&mut b.program, &checks);
    let body = b.program.functions[main].body.as_ref().unwrap();
    assert_eq!(
        classes(body),
        ["nondet", "assume", "goto 4", "assert ReachError", "assert ReachError", "assert UserAssertion", "Return"]
    );
    assert_eq!(b.program.labels[0].at, InstrIdx(4), "the label moves with its instruction");
    assert_eq!(result.properties, 3);
    assert!(!result.missing_error_label);
}

#[test]
fn division_check_is_guarded_by_short_circuit_condition() {
    let mut b = Builder::new();
    let int = b.int();
    let bool_ty = b.program.types.bool();
    let (main, _) = b.function("main", int, vec![], None);
    let x = b.local("x", int, main);
    let y = b.local("y", int, main);
    let nonzero = Expr::binary(BinOp::Ne, y.clone(), Expr::int(0, int), bool_ty);
    let quotient = Expr::binary(BinOp::Div, x.clone(), y.clone(), int);
    let positive = Expr::binary(BinOp::Gt, quotient, Expr::int(0, int), bool_ty);
    let guarded = Expr::binary(BinOp::And, nonzero.clone(), positive, bool_ty);
    b.program.functions[main].body = Some(vec![Instr::new(InstrKind::Assume(guarded), at(1))]);
    instrument(&mut b.program, &Checks::default());
    let body = b.program.functions[main].body.as_ref().unwrap();
    let InstrKind::Assert(cond, property) = &body[0].kind else { panic!("expected an assertion first: {body:?}") };
    assert_eq!(property.class, PropertyClass::DivisionByZero);
    let ExprKind::Binary(BinOp::Or, not_guard, _) = &cond.kind else { panic!("check not guarded: {cond:?}") };
    assert_eq!(not_guard.kind, ExprKind::Unary(UnOp::Not, Box::new(nonzero)));
}

#[test]
fn overflow_checks_follow_the_flags() {
    let mut b = Builder::new();
    let int = b.int();
    let uint = b.program.types.int(32, false);
    let (main, _) = b.function("main", int, vec![], None);
    let x = b.local("x", int, main);
    let u = b.local("u", uint, main);
    let body = vec![
        Instr::new(InstrKind::Assign(x.clone(), Expr::binary(BinOp::Add, x.clone(), x.clone(), int)), at(1)),
        Instr::new(InstrKind::Assign(u.clone(), Expr::binary(BinOp::Mul, u.clone(), u.clone(), uint)), at(2)),
        Instr::new(InstrKind::Assign(x.clone(), Expr::unary(UnOp::Neg, x.clone(), int)), at(3)),
        Instr::new(InstrKind::Assign(x.clone(), Expr::cast(u.clone(), int)), at(4)),
        Instr::new(InstrKind::Assign(u.clone(), Expr::unary(UnOp::Neg, u.clone(), uint)), at(5)),
        Instr::new(InstrKind::Assign(x.clone(), Expr::binary(BinOp::Shl, x.clone(), u.clone(), int)), at(6)),
    ];
    let mut none = b.program.clone();
    none.functions[main].body = Some(body.clone());
    instrument(&mut none, &Checks::default());
    assert_eq!(none.functions[main].body.as_ref().unwrap().len(), 6, "no checks by default");

    b.program.functions[main].body = Some(body);
    let checks = Checks { signed_overflow: true, unsigned_overflow: true, conversion: true, ..Checks::default() };
    instrument(&mut b.program, &checks);
    assert_eq!(
        classes(b.program.functions[main].body.as_ref().unwrap()),
        [
            "assert SignedOverflow",
            "Assign",
            "assert UnsignedOverflow",
            "Assign",
            "assert SignedOverflow",
            "Assign",
            "assert SignedOverflow",
            "Assign",
            "assert UnsignedOverflow",
            "Assign",
            "assert SignedOverflow",
            "Assign"
        ]
    );
}

#[test]
fn float_overflow_is_checked_on_arithmetic_and_narrowing() {
    let mut b = Builder::new();
    let int = b.int();
    let float = b.program.types.intern(Type::Float(ir::FloatFormat::Single));
    let double = b.program.types.intern(Type::Float(ir::FloatFormat::Double));
    let (main, _) = b.function("main", int, vec![], None);
    let f = b.local("f", float, main);
    let d = b.local("d", double, main);
    let body = vec![
        Instr::new(InstrKind::Assign(f.clone(), Expr::binary(BinOp::Mul, f.clone(), f.clone(), float)), at(1)),
        Instr::new(InstrKind::Assign(f.clone(), Expr::cast(d.clone(), float)), at(2)),
        Instr::new(InstrKind::Assign(d.clone(), Expr::cast(f.clone(), double)), at(3)),
    ];
    b.program.functions[main].body = Some(body);
    let signed_only = Checks { signed_overflow: true, ..Checks::default() };
    let mut integer_checked = b.program.clone();
    instrument(&mut integer_checked, &signed_only);
    let body = integer_checked.functions[main].body.as_ref().unwrap();
    assert_eq!(classes(body), ["Assign", "Assign", "Assign"]);
    let checks = Checks { float_overflow: true, ..Checks::default() };
    instrument(&mut b.program, &checks);
    let body = b.program.functions[main].body.as_ref().unwrap();
    assert_eq!(classes(body), ["assert SignedOverflow", "Assign", "assert SignedOverflow", "Assign", "Assign"]);
    let InstrKind::Assert(cond, property) = &body[0].kind else { unreachable!() };
    assert_eq!(property.message, "arithmetic overflow on floating-point *");
    let infinity = Expr::new(ExprKind::FloatConst(0x7f80_0000), float);
    assert!(cond.walk().any(|node| *node == infinity), "compares with +inf: {cond:?}");
}

#[test]
fn nan_check_covers_float_arithmetic_only() {
    let mut b = Builder::new();
    let int = b.int();
    let double = b.program.types.intern(Type::Float(ir::FloatFormat::Double));
    let (main, _) = b.function("main", int, vec![], None);
    let (d, i) = (b.local("d", double, main), b.local("i", int, main));
    let body = vec![
        Instr::new(InstrKind::Assign(d.clone(), Expr::binary(BinOp::Div, d.clone(), d.clone(), double)), at(1)),
        Instr::new(InstrKind::Assign(d.clone(), Expr::cast(i.clone(), double)), at(2)),
        Instr::new(InstrKind::Assign(i.clone(), Expr::binary(BinOp::Div, i.clone(), i.clone(), int)), at(3)),
    ];
    b.program.functions[main].body = Some(body);
    let checks = Checks { nan: true, div_by_zero: false, ..Checks::default() };
    instrument(&mut b.program, &checks);
    let body = b.program.functions[main].body.as_ref().unwrap();
    assert_eq!(classes(body), ["assert NaN", "Assign", "Assign", "Assign"]);
    let InstrKind::Assert(_, property) = &body[0].kind else { unreachable!() };
    assert_eq!(property.message, "NaN on /");
}

#[test]
fn assertions_off_drops_user_assertions_but_not_reach_error() {
    let mut b = Builder::new();
    let int = b.int();
    let void = b.program.types.void();
    let (_, check) = b.function("__VERIFIER_assert", void, vec![int], None);
    let (_, reach) = b.function("__VERIFIER_error", void, vec![], None);
    let (_, unreachable) = b.function("__builtin_unreachable", void, vec![], None);
    let (main, _) = b.function("main", int, vec![], None);
    let body = vec![
        call(&check, None, vec![Expr::int(0, int)], 1),
        call(&reach, None, vec![], 2),
        call(&unreachable, None, vec![], 3),
    ];
    b.program.functions[main].body = Some(body.clone());
    let mut with_assertions = b.program.clone();
    let checks = Checks { assertions: false, ..Checks::default() };
    instrument(&mut b.program, &checks);
    assert_eq!(classes(b.program.functions[main].body.as_ref().unwrap()), ["assert ReachError"]);
    instrument(&mut with_assertions, &Checks::default());
    assert_eq!(
        classes(with_assertions.functions[main].body.as_ref().unwrap()),
        ["assert UserAssertion", "assert ReachError", "assert UserAssertion"]
    );
}

#[test]
fn nondet_functions_taking_pointers_stay_calls() {
    let mut b = Builder::new();
    let int = b.int();
    let void = b.program.types.void();
    let char_ptr = {
        let c = b.program.types.int(8, true);
        b.program.types.pointer_to(c)
    };
    let (_, fill) = b.function("__VERIFIER_nondet_memory", void, vec![char_ptr, int], None);
    let (main, _) = b.function("main", int, vec![], None);
    let p = b.local("p", char_ptr, main);
    b.program.functions[main].body = Some(vec![call(&fill, None, vec![p, Expr::int(4, int)], 1)]);
    instrument(&mut b.program, &Checks::default());
    assert_eq!(classes(b.program.functions[main].body.as_ref().unwrap()), ["Call"]);
}
