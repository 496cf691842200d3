//! End-to-end tests of the concrete interpreter on hand-built IR programs:
//! loops, calls, recursion, pointers, structs and bit-fields, heap memory
//! errors, assertions, nondeterministic inputs and resource limits. Every
//! program is also checked by the validator, so the tests keep the IR
//! builders honest.

use ir::interp::{self, Config, InputKind, InputRequest, Outcome, TraceStep, UbKind, Value};
use ir::{
    validate, ArrayLen, BinOp, Composite, CompositeKind, DataModel, Expr, ExprKind, Field, FloatFormat, FuncId, Instr,
    InstrIdx, InstrKind, Loc, Program, Property, PropertyClass, SymbolId, SymbolKind, Type, TypeId, UnOp,
};

/// A program under construction with the common types at hand.
struct Builder {
    p: Program,
    int: TypeId,
    boolean: TypeId,
    void: TypeId,
    size_t: TypeId,
}

impl Builder {
    fn new() -> Builder {
        let mut p = Program::new(DataModel::LP64);
        let int = p.types.int(32, true);
        let boolean = p.types.bool();
        let void = p.types.void();
        let size_t = p.types.size_t(DataModel::LP64);
        Builder { p, int, boolean, void, size_t }
    }
    fn ptr(&mut self, ty: TypeId) -> TypeId {
        self.p.types.pointer_to(ty)
    }
    fn c(&self, v: i64) -> Expr {
        Expr::int(v as u32 as u128, self.int)
    }
    fn truth(&self) -> Expr {
        Expr::int(1, self.boolean)
    }
    fn var(&self, sym: SymbolId) -> Expr {
        Expr::sym(sym, self.p.symbols[sym].ty)
    }
    fn bin(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let ty = if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) { self.boolean } else { a.ty };
        Expr::binary(op, a, b, ty)
    }
    fn addr(&mut self, e: Expr) -> Expr {
        let ty = self.ptr(e.ty);
        Expr::new(ExprKind::AddrOf(Box::new(e)), ty)
    }
    fn deref(&self, e: Expr) -> Expr {
        let ty = self.p.types.pointee(e.ty).expect("pointer");
        Expr::new(ExprKind::Deref(Box::new(e)), ty)
    }
    fn index(&self, base: Expr, i: Expr) -> Expr {
        let Type::Array(elem, _) = self.p.types.get(base.ty) else { panic!("array") };
        let elem = *elem;
        Expr::new(ExprKind::Index(Box::new(base), Box::new(i)), elem)
    }
    fn func(&mut self, name: &str, ret: TypeId, params: &[(&str, TypeId)]) -> FuncId {
        self.p.declare_function(name, ret, params, false, Loc::NONE)
    }
    fn local(&mut self, func: FuncId, name: &str, ty: TypeId) -> SymbolId {
        self.p.add_local(func, name, ty, Loc::NONE)
    }
    fn callee(&self, func: FuncId) -> Expr {
        let f = &self.p.functions[func];
        Expr::sym(f.symbol, f.ty)
    }
    fn body(&mut self, func: FuncId, kinds: Vec<InstrKind>) {
        let body = kinds.into_iter().enumerate().map(|(i, k)| Instr::new(k, self.line(i as u32 + 1))).collect();
        self.p.set_body(func, body);
    }
    fn line(&mut self, line: u32) -> Loc {
        Loc { file: self.p.files.intern("t.c"), line, col: 1 }
    }
    fn assert_kind(&self, cond: Expr, message: &str) -> InstrKind {
        InstrKind::Assert(cond, Property { class: PropertyClass::UserAssertion, message: message.into() })
    }
    fn main(&mut self) -> FuncId {
        let main = self.func("main", self.int, &[]);
        self.p.entry = Some(main);
        main
    }
    fn run_with(&self, config: &Config, inputs: Vec<Vec<u8>>) -> interp::Run {
        if let Err(errors) = validate(&self.p) {
            panic!("invalid test program:\n{}\n{}", errors.join("\n"), self.p);
        }
        let mut queue = inputs.into_iter();
        // Contents past the first 64 KiB are left zero (a short answer).
        let mut provider = move |request: &InputRequest| match request.kind {
            InputKind::Uninitialized(_) => Some(vec![0xAA; request.size.min(1 << 16) as usize]),
            _ => queue.next(),
        };
        interp::run(&self.p, config, &mut provider)
    }
    fn run(&self, inputs: Vec<Vec<u8>>) -> Outcome {
        self.run_with(&Config::default(), inputs).outcome
    }
}

fn int_input(v: i32) -> Vec<u8> {
    v.to_le_bytes().to_vec()
}

fn goto(cond: Expr, target: u32) -> InstrKind {
    InstrKind::Goto { cond, target: InstrIdx(target) }
}

fn ret(e: Expr) -> InstrKind {
    InstrKind::Return(Some(e))
}

fn ub_kind(outcome: &Outcome) -> Option<UbKind> {
    match outcome {
        Outcome::UndefinedBehaviour { kind, .. } => Some(*kind),
        _ => None,
    }
}

#[test]
fn a_loop_sums_and_the_exit_code_is_mains_result() {
    let mut b = Builder::new();
    let main = b.main();
    let (s, i) = (b.local(main, "s", b.int), b.local(main, "i", b.int));
    let (vs, vi) = (b.var(s), b.var(i));
    let exit_cond = Expr::unary(UnOp::Not, b.bin(BinOp::Lt, vi.clone(), b.c(10)), b.boolean);
    b.body(
        main,
        vec![
            InstrKind::Decl(s),
            InstrKind::Decl(i),
            InstrKind::Assign(vs.clone(), b.c(0)),
            InstrKind::Assign(vi.clone(), b.c(0)),
            goto(exit_cond, 8),
            InstrKind::Assign(vs.clone(), b.bin(BinOp::Add, vs.clone(), vi.clone())),
            InstrKind::Assign(vi.clone(), b.bin(BinOp::Add, vi.clone(), b.c(1))),
            goto(b.truth(), 4),
            ret(vs),
        ],
    );
    assert_eq!(b.run(vec![]), Outcome::Completed(45));
}

/// `int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }`
fn factorial_program(arg: i64) -> Builder {
    let mut b = Builder::new();
    let fact = b.func("fact", b.int, &[("n", b.int)]);
    let n = b.p.functions[fact].params[0];
    let r = b.local(fact, "r", b.int);
    let (vn, vr) = (b.var(n), b.var(r));
    let call = InstrKind::Call {
        lhs: Some(vr.clone()),
        callee: b.callee(fact),
        args: vec![b.bin(BinOp::Sub, vn.clone(), b.c(1))],
    };
    b.body(
        fact,
        vec![
            InstrKind::Decl(r),
            goto(b.bin(BinOp::Gt, vn.clone(), b.c(1)), 3),
            ret(b.c(1)),
            call,
            ret(b.bin(BinOp::Mul, vn, vr)),
        ],
    );
    let main = b.main();
    let x = b.local(main, "x", b.int);
    let vx = b.var(x);
    b.body(
        main,
        vec![
            InstrKind::Decl(x),
            InstrKind::Call { lhs: Some(vx.clone()), callee: b.callee(fact), args: vec![b.c(arg)] },
            ret(vx),
        ],
    );
    b
}

#[test]
fn recursion_computes_factorial() {
    assert_eq!(factorial_program(5).run(vec![]), Outcome::Completed(120));
    // 13! wraps around in 32 bits, as the IR's multiplication does.
    assert_eq!(factorial_program(13).run(vec![]), Outcome::Completed(6_227_020_800u64 as u32 as i32 as i64));
}

#[test]
fn step_and_call_depth_limits_stop_deep_recursion() {
    let config = Config { step_limit: 1000, ..Config::default() };
    assert_eq!(factorial_program(100_000).run_with(&config, vec![]).outcome, Outcome::StepLimit);
    let config = Config { max_call_depth: 50, ..Config::default() };
    assert_eq!(factorial_program(100).run_with(&config, vec![]).outcome, Outcome::CallDepthLimit);
    assert_eq!(factorial_program(10).run_with(&config, vec![]).outcome, Outcome::Completed(3_628_800));
}

/// `x = nondet(); assert(x != 42); return 0;`
fn nondet_assert_program() -> Builder {
    let mut b = Builder::new();
    let main = b.main();
    let x = b.local(main, "x", b.int);
    let vx = b.var(x);
    b.body(
        main,
        vec![
            InstrKind::Decl(x),
            InstrKind::Assign(vx.clone(), Expr::new(ExprKind::Nondet, b.int)),
            b.assert_kind(b.bin(BinOp::Ne, vx, b.c(42)), "x != 42"),
            ret(b.c(0)),
        ],
    );
    b
}

#[test]
fn nondet_inputs_drive_an_assertion_violation() {
    let b = nondet_assert_program();
    let run = b.run_with(&Config::default(), vec![int_input(42)]);
    let Outcome::Violation(violation) = &run.outcome else { panic!("expected a violation, got {:?}", run.outcome) };
    assert_eq!(violation.instr, InstrIdx(2));
    assert_eq!(violation.property.message, "x != 42");
    assert_eq!(b.p.display_loc(violation.loc).to_string(), "t.c:3");
    assert_eq!(run.outcome.describe(&b.p), "violation of user-assertion: x != 42 at t.c:3 in main");
    let inputs: Vec<&InputKind> = run
        .trace
        .iter()
        .filter_map(|s| if let TraceStep::Input { kind, .. } = s { Some(kind) } else { None })
        .collect();
    assert_eq!(inputs, [&InputKind::Uninitialized("x".into()), &InputKind::Nondet]);
    let assigned =
        run.trace.iter().find_map(|s| if let TraceStep::Assign { value, .. } = s { Some(value) } else { None });
    assert_eq!(assigned, Some(&Value::Scalar(42)));

    assert_eq!(b.run(vec![int_input(7)]), Outcome::Completed(0));
    assert!(matches!(b.run(vec![]), Outcome::InputsExhausted { .. }));

    // Replaying the recorded inputs reproduces the violation.
    let recorded =
        run.trace
            .iter()
            .filter_map(|s| if let TraceStep::Input { bytes, .. } = s { Some(bytes.clone()) } else { None });
    let mut replay = interp::InputList::new(recorded);
    let again = interp::run(&b.p, &Config::default(), &mut replay);
    assert_eq!(again.outcome, run.outcome);
    assert_eq!(replay.remaining(), 0);
}

#[test]
fn verifier_builtins_assume_assert_nondet_and_reach_error() {
    let mut b = Builder::new();
    let nondet = b.func("__VERIFIER_nondet_int", b.int, &[]);
    let assume = b.func("__VERIFIER_assume", b.void, &[("c", b.int)]);
    let check = b.func("__VERIFIER_assert", b.void, &[("c", b.int)]);
    let reach_error = b.func("reach_error", b.void, &[]);
    let main = b.main();
    let x = b.local(main, "x", b.int);
    let vx = b.var(x);
    let as_int = |b: &Builder, e: Expr| Expr::cast(e, b.int);
    b.body(
        main,
        vec![
            InstrKind::Decl(x),
            InstrKind::Call { lhs: Some(vx.clone()), callee: b.callee(nondet), args: vec![] },
            InstrKind::Call {
                lhs: None,
                callee: b.callee(assume),
                args: vec![as_int(&b, b.bin(BinOp::Gt, vx.clone(), b.c(0)))],
            },
            InstrKind::Call {
                lhs: None,
                callee: b.callee(check),
                args: vec![as_int(&b, b.bin(BinOp::Lt, vx.clone(), b.c(100)))],
            },
            goto(b.bin(BinOp::Ne, vx.clone(), b.c(50)), 6),
            InstrKind::Call { lhs: None, callee: b.callee(reach_error), args: vec![] },
            ret(b.c(0)),
        ],
    );
    assert!(matches!(b.run(vec![int_input(-5)]), Outcome::AssumptionViolated { .. }));
    let Outcome::Violation(v) = b.run(vec![int_input(100)]) else { panic!("assert should fail") };
    assert_eq!((v.property.class, v.instr), (PropertyClass::UserAssertion, InstrIdx(3)));
    assert_eq!(v.property.message, "(int32)(x < 100i32)");
    let Outcome::Violation(v) = b.run(vec![int_input(50)]) else { panic!("reach_error should be reached") };
    assert_eq!((v.property.class, v.instr), (PropertyClass::ReachError, InstrIdx(5)));
    let run = b.run_with(&Config::default(), vec![int_input(10)]);
    assert_eq!(run.outcome, Outcome::Completed(0));
    assert!(run.trace.iter().any(|s| matches!(s, TraceStep::Input { kind: InputKind::NondetCall(_), .. })));
    assert!(run.unknown_functions.is_empty());
}

#[test]
fn unknown_functions_are_inputs_and_recorded_as_approximations() {
    let mut b = Builder::new();
    let int_ptr = b.ptr(b.int);
    let frob = b.func("frob", b.void, &[("p", int_ptr)]);
    let lookup = b.func("lookup", b.int, &[]);
    let clz = b.func("__builtin_clz", b.int, &[("x", b.int)]);
    let bswap16 = b.func("__builtin_bswap16", b.int, &[("x", b.int)]);
    let main = b.main();
    let (x, y) = (b.local(main, "x", b.int), b.local(main, "y", b.int));
    let (vx, vy) = (b.var(x), b.var(y));
    let vx2 = vx.clone();
    let x_addr = b.addr(vx.clone());
    b.body(
        main,
        vec![
            InstrKind::Decl(x),
            InstrKind::Decl(y),
            InstrKind::Call { lhs: None, callee: b.callee(frob), args: vec![x_addr] },
            InstrKind::Call { lhs: Some(vx.clone()), callee: b.callee(lookup), args: vec![] },
            InstrKind::Call { lhs: Some(vy.clone()), callee: b.callee(clz), args: vec![vx] },
            // Only the low 16 bits of a (promoted) bswap16 argument count.
            InstrKind::Call { lhs: Some(vx2.clone()), callee: b.callee(bswap16), args: vec![b.c(0x7f_0102)] },
            ret(b.bin(BinOp::Add, vy, vx2)),
        ],
    );
    let run = b.run_with(&Config::default(), vec![int_input(0x00ff_0000)]);
    assert_eq!(run.outcome, Outcome::Completed(8 + 0x0201));
    assert_eq!(run.unknown_functions, ["frob", "lookup"]);
    assert_eq!(b.run(vec![int_input(0)]), Outcome::UndefinedValue("`__builtin_clz` of 0".into()));
}

#[test]
fn out_of_bounds_and_null_dereferences_are_detected() {
    let mut b = Builder::new();
    let arr_ty = b.p.types.intern(Type::Array(b.int, ArrayLen::Fixed(4)));
    let int_ptr = b.ptr(b.int);
    let main = b.main();
    let (a, p, k) = (b.local(main, "a", arr_ty), b.local(main, "p", int_ptr), b.local(main, "k", b.int));
    let (va, vp, vk) = (b.var(a), b.var(p), b.var(k));
    let first = b.index(va, b.c(0));
    let first_addr = b.addr(first);
    let moved = Expr::binary(BinOp::PtrAdd, vp.clone(), vk.clone(), int_ptr);
    let moved_deref = b.deref(moved);
    b.body(
        main,
        vec![
            InstrKind::Decl(a),
            InstrKind::Decl(p),
            InstrKind::Decl(k),
            InstrKind::Assign(vk.clone(), Expr::new(ExprKind::Nondet, b.int)),
            goto(b.bin(BinOp::Ne, vk.clone(), b.c(-1)), 6),
            InstrKind::Assign(vp.clone(), Expr::new(ExprKind::Null, int_ptr)),
            goto(b.bin(BinOp::Eq, vk.clone(), b.c(-1)), 8),
            InstrKind::Assign(vp.clone(), first_addr),
            InstrKind::Assign(moved_deref, b.c(1)),
            ret(b.c(0)),
        ],
    );
    assert_eq!(b.run(vec![int_input(3)]), Outcome::Completed(0));
    let outcome = b.run(vec![int_input(4)]);
    assert_eq!(ub_kind(&outcome), Some(UbKind::OutOfBounds));
    let Outcome::UndefinedBehaviour { instr, .. } = outcome else { unreachable!() };
    assert_eq!(instr, InstrIdx(8));
    assert_eq!(ub_kind(&b.run(vec![int_input(-1)])), Some(UbKind::NullDereference));
}

/// `p = malloc(8); *p = 1; <then the test's tail>`
fn heap_program(tail: impl FnOnce(&mut Builder, Expr, FuncId) -> Vec<InstrKind>) -> Builder {
    let mut b = Builder::new();
    let void_ptr = b.ptr(b.void);
    let int_ptr = b.ptr(b.int);
    let malloc = b.func("malloc", void_ptr, &[("size", b.size_t)]);
    let free = b.func("free", b.void, &[("p", void_ptr)]);
    let main = b.main();
    let (raw, p) = (b.local(main, "raw", void_ptr), b.local(main, "p", int_ptr));
    let (vraw, vp) = (b.var(raw), b.var(p));
    let mut kinds = vec![
        InstrKind::Decl(raw),
        InstrKind::Decl(p),
        InstrKind::Call { lhs: Some(vraw.clone()), callee: b.callee(malloc), args: vec![Expr::int(8, b.size_t)] },
        InstrKind::Assign(vp.clone(), Expr::cast(vraw, int_ptr)),
        InstrKind::Assign(b.deref(vp.clone()), b.c(1)),
    ];
    kinds.extend(tail(&mut b, vp, free));
    b.body(main, kinds);
    b
}

fn free_call(b: &Builder, p: &Expr, free: FuncId) -> InstrKind {
    let void_ptr = b.p.types.lookup(&Type::Pointer(b.void)).expect("void*");
    InstrKind::Call { lhs: None, callee: b.callee(free), args: vec![Expr::cast(p.clone(), void_ptr)] }
}

#[test]
fn heap_errors_are_detected() {
    let use_after_free = heap_program(|b, p, free| vec![free_call(b, &p, free), ret(b.deref(p))]);
    assert_eq!(ub_kind(&use_after_free.run(vec![])), Some(UbKind::UseAfterFree));

    let double_free = heap_program(|b, p, free| vec![free_call(b, &p, free), free_call(b, &p, free), ret(b.c(0))]);
    assert_eq!(ub_kind(&double_free.run(vec![])), Some(UbKind::DoubleFree));

    let offset_free = heap_program(|b, p, free| {
        let int_ptr = p.ty;
        let inner = Expr::binary(BinOp::PtrAdd, p, b.c(1), int_ptr);
        vec![free_call(b, &inner, free), ret(b.c(0))]
    });
    assert_eq!(ub_kind(&offset_free.run(vec![])), Some(UbKind::InvalidFree));

    let fine = heap_program(|b, p, _| {
        let second = Expr::binary(BinOp::PtrAdd, p.clone(), b.c(1), p.ty);
        let second_deref = b.deref(second.clone());
        vec![InstrKind::Assign(second_deref.clone(), b.c(2)), ret(b.bin(BinOp::Add, b.deref(p), second_deref))]
    });
    assert_eq!(fine.run(vec![]), Outcome::Completed(3));
}

#[test]
fn blocks_not_freed_at_exit_are_reported() {
    let leaking = heap_program(|b, _, _| vec![ret(b.c(0))]);
    let run = leaking.run_with(&Config::default(), vec![]);
    assert_eq!(run.outcome, Outcome::Completed(0));
    let blocks: Vec<(&str, bool)> = run.unfreed_heap.iter().map(|b| (b.name.as_str(), b.reachable)).collect();
    assert_eq!(blocks, [("malloc#1", false)]);
    let tidy = heap_program(|b, p, free| vec![free_call(b, &p, free), ret(b.c(0))]);
    assert!(tidy.run_with(&Config::default(), vec![]).unfreed_heap.is_empty());
}

#[test]
fn malloc_may_fail_when_allowed() {
    let b = heap_program(|b, p, _| vec![ret(b.deref(p))]);
    let config = Config { malloc_may_fail: true, ..Config::default() };
    assert_eq!(ub_kind(&b.run_with(&config, vec![vec![1]]).outcome), Some(UbKind::NullDereference));
    assert_eq!(b.run_with(&config, vec![vec![0]]).outcome, Outcome::Completed(1));
}

#[test]
fn a_pointer_to_a_returned_frames_local_is_dead() {
    let mut b = Builder::new();
    let int_ptr = b.ptr(b.int);
    let escape = b.func("escape", int_ptr, &[]);
    let local = b.local(escape, "local", b.int);
    let vlocal = b.var(local);
    let addr = b.addr(vlocal.clone());
    b.body(escape, vec![InstrKind::Decl(local), InstrKind::Assign(vlocal, b.c(5)), ret(addr)]);
    let main = b.main();
    let p = b.local(main, "p", int_ptr);
    let vp = b.var(p);
    b.body(
        main,
        vec![
            InstrKind::Decl(p),
            InstrKind::Call { lhs: Some(vp.clone()), callee: b.callee(escape), args: vec![] },
            ret(b.deref(vp)),
        ],
    );
    assert_eq!(ub_kind(&b.run(vec![])), Some(UbKind::DeadObject));
}

#[test]
fn structs_bit_fields_and_unions_go_through_bytes() {
    let mut b = Builder::new();
    let uchar = b.p.types.int(8, false);
    let float = b.p.types.intern(Type::Float(FloatFormat::Single));
    let uint = b.p.types.int(32, false);
    // struct S { int a; int f : 3; unsigned g : 5; };
    let s_comp = b.p.types.composites.push(Composite {
        kind: CompositeKind::Struct,
        name: "S".into(),
        fields: vec![
            Field { name: "a".into(), ty: b.int, offset_bits: 0, bit_width: None },
            Field { name: "f".into(), ty: b.int, offset_bits: 32, bit_width: Some(3) },
            Field { name: "g".into(), ty: uint, offset_bits: 35, bit_width: Some(5) },
        ],
        size: 8,
        align: 4,
        complete: true,
    });
    // union U { float x; unsigned char bytes[4]; };
    let bytes4 = b.p.types.intern(Type::Array(uchar, ArrayLen::Fixed(4)));
    let u_comp = b.p.types.composites.push(Composite {
        kind: CompositeKind::Union,
        name: "U".into(),
        fields: vec![
            Field { name: "x".into(), ty: float, offset_bits: 0, bit_width: None },
            Field { name: "bytes".into(), ty: bytes4, offset_bits: 0, bit_width: None },
        ],
        size: 4,
        align: 4,
        complete: true,
    });
    let s_ty = b.p.types.intern(Type::Composite(s_comp));
    let u_ty = b.p.types.intern(Type::Composite(u_comp));
    let main = b.main();
    let (s, u) = (b.local(main, "s", s_ty), b.local(main, "u", u_ty));
    let (vs, vu) = (b.var(s), b.var(u));
    let member = |base: &Expr, i: u32, ty: TypeId| Expr::new(ExprKind::Member(Box::new(base.clone()), i), ty);
    let (f, g, x) = (member(&vs, 1, b.int), member(&vs, 2, uint), member(&vu, 0, float));
    let byte3 = b.index(member(&vu, 1, bytes4), b.c(3));
    let literal = Expr::new(ExprKind::StructLit(vec![b.c(7), b.c(-1), Expr::int(31, uint)]), s_ty);
    let as_int = |e: Expr, ty: TypeId| Expr::cast(e, ty);
    // -1 in a 3-bit signed field reads back as -1; g = 31; byte 3 of 1.0f is 0x3f.
    let sum = b.bin(BinOp::Add, f.clone(), as_int(g.clone(), b.int));
    let sum = b.bin(BinOp::Add, sum, as_int(byte3, b.int));
    let whole = Expr::new(
        ExprKind::ByteExtract { value: Box::new(vs.clone()), offset: Box::new(Expr::int(4, b.size_t)) },
        uchar,
    );
    b.body(
        main,
        vec![
            InstrKind::Decl(s),
            InstrKind::Decl(u),
            InstrKind::Assign(vs.clone(), literal),
            InstrKind::Assign(x, Expr::new(ExprKind::FloatConst(u128::from(1.0f32.to_bits())), float)),
            b.assert_kind(b.bin(BinOp::Eq, as_int(whole, b.int), b.c(0xff)), "packed bits"),
            InstrKind::Assign(f.clone(), b.c(3)),
            b.assert_kind(b.bin(BinOp::Eq, g, Expr::int(31, uint)), "g unchanged"),
            ret(sum),
        ],
    );
    // After `f = 3`: 3 + 31 + 0x3f.
    assert_eq!(b.run(vec![]), Outcome::Completed(3 + 31 + 0x3f));
}

#[test]
fn string_literals_are_read_only_after_init_and_library_functions_work() {
    let mut b = Builder::new();
    let char_ty = b.p.types.int(8, true);
    let lit_ty = b.p.types.intern(Type::Array(char_ty, ArrayLen::Fixed(4)));
    let char_ptr = b.ptr(char_ty);
    let lit = b.p.add_symbol("str#0", lit_ty, SymbolKind::StringLiteral, Loc::NONE);
    let init = b.func("__init", b.void, &[]);
    let text: Vec<Expr> = b"abc\0".iter().map(|c| Expr::int(u128::from(*c), char_ty)).collect();
    let lit_value = Expr::new(ExprKind::ArrayLit(text), lit_ty);
    b.body(init, vec![InstrKind::Assign(b.var(lit), lit_value), InstrKind::Return(None)]);
    b.p.init = Some(init);
    let strlen = b.func("strlen", b.size_t, &[("s", char_ptr)]);
    let main = b.main();
    let (n, s) = (b.local(main, "n", b.size_t), b.local(main, "s", char_ptr));
    let (vn, vs) = (b.var(n), b.var(s));
    let first = b.index(b.var(lit), b.c(0));
    let start = b.addr(first);
    b.body(
        main,
        vec![
            InstrKind::Decl(n),
            InstrKind::Decl(s),
            InstrKind::Assign(vs.clone(), start),
            InstrKind::Call { lhs: Some(vn.clone()), callee: b.callee(strlen), args: vec![vs.clone()] },
            b.assert_kind(b.bin(BinOp::Eq, vn, Expr::int(3, b.size_t)), "strlen"),
            InstrKind::Assign(b.deref(vs), Expr::int(u128::from(b'x'), char_ty)),
            ret(b.c(0)),
        ],
    );
    let outcome = b.run(vec![]);
    assert_eq!(ub_kind(&outcome), Some(UbKind::WriteToReadOnly), "{outcome:?}");
}

#[test]
fn pointers_survive_round_trips_through_integers_and_memory() {
    let mut b = Builder::new();
    let int_ptr = b.ptr(b.int);
    let long = b.p.types.int(64, false);
    let main = b.main();
    let (x, p, n) = (b.local(main, "x", b.int), b.local(main, "p", int_ptr), b.local(main, "n", long));
    let (vx, vp, vn) = (b.var(x), b.var(p), b.var(n));
    let addr = b.addr(vx.clone());
    b.body(
        main,
        vec![
            InstrKind::Decl(x),
            InstrKind::Decl(p),
            InstrKind::Decl(n),
            InstrKind::Assign(vx.clone(), b.c(9)),
            InstrKind::Assign(vn.clone(), Expr::cast(addr, long)),
            InstrKind::Assign(vp.clone(), Expr::cast(vn, int_ptr)),
            ret(b.deref(vp)),
        ],
    );
    assert_eq!(b.run(vec![]), Outcome::Completed(9));
}

#[test]
fn double_arithmetic_is_ieee() {
    let mut b = Builder::new();
    let dbl = b.p.types.intern(Type::Float(FloatFormat::Double));
    let d = |v: f64| Expr::new(ExprKind::FloatConst(u128::from(v.to_bits())), dbl);
    let main = b.main();
    let sum = b.bin(BinOp::Add, d(0.1), d(0.2));
    let quotient = b.bin(BinOp::Div, d(7.9), d(2.0));
    b.body(
        main,
        vec![b.assert_kind(b.bin(BinOp::Ne, sum, d(0.3)), "0.1 + 0.2 != 0.3"), ret(Expr::cast(quotient, b.int))],
    );
    assert_eq!(b.run(vec![]), Outcome::Completed(3));
}

#[test]
fn exit_abort_and_assume_end_the_run() {
    for (name, expected) in [("exit", Outcome::Completed(3)), ("abort", Outcome::Aborted)] {
        let mut b = Builder::new();
        let params: &[(&str, TypeId)] = if name == "exit" { &[("code", b.int)] } else { &[] };
        let f = b.func(name, b.void, params);
        let args = if name == "exit" { vec![b.c(3)] } else { vec![] };
        let main = b.main();
        b.body(main, vec![InstrKind::Call { lhs: None, callee: b.callee(f), args }, ret(b.c(0))]);
        assert_eq!(b.run(vec![]), expected);
    }
    let mut b = Builder::new();
    let main = b.main();
    b.body(main, vec![InstrKind::Assume(Expr::int(0, b.boolean)), ret(b.c(0))]);
    assert!(matches!(b.run(vec![]), Outcome::AssumptionViolated { .. }));
}

#[test]
fn huge_allocations_cost_the_bytes_written_and_impossible_ones_fail() {
    // raw = malloc(size); [memset(raw, 1, size);] return raw == NULL;
    let program = |size: u128, fill: bool| {
        let mut b = Builder::new();
        let void_ptr = b.ptr(b.void);
        let malloc = b.func("malloc", void_ptr, &[("size", b.size_t)]);
        let memset = b.func("memset", void_ptr, &[("s", void_ptr), ("c", b.int), ("n", b.size_t)]);
        let main = b.main();
        let raw = b.local(main, "raw", void_ptr);
        let is_null = Expr::binary(BinOp::Eq, b.var(raw), Expr::cast(b.c(0), void_ptr), b.boolean);
        let mut body = vec![
            InstrKind::Decl(raw),
            InstrKind::Call { lhs: Some(b.var(raw)), callee: b.callee(malloc), args: vec![Expr::int(size, b.size_t)] },
        ];
        if fill {
            let args = vec![b.var(raw), b.c(1), Expr::int(size, b.size_t)];
            body.push(InstrKind::Call { lhs: None, callee: b.callee(memset), args });
        }
        body.push(ret(Expr::cast(is_null, b.int)));
        b.body(main, body);
        b
    };
    assert_eq!(program(1 << 40, false).run(vec![]), Outcome::Completed(0));
    assert_eq!(program(1 << 40, true).run(vec![]), Outcome::MemoryLimit);
    // Beyond the x86-64 user address space, as malloc(-4) asks: NULL when
    // allocations may fail (the run chose no failure, the size still fails),
    // and no run at all when the user declared that malloc never fails.
    let beyond = program(u128::from(u64::MAX - 3), false);
    let may_fail = Config { malloc_may_fail: true, ..Config::default() };
    assert_eq!(beyond.run_with(&may_fail, vec![vec![0]]).outcome, Outcome::Completed(1));
    assert_eq!(beyond.run(vec![]), Outcome::MemoryLimit);
}

#[test]
fn deep_expressions_evaluate_up_to_the_configured_depth() {
    let build = |depth: usize| {
        let mut b = Builder::new();
        let main = b.main();
        let mut e = b.c(0);
        for _ in 0..depth {
            e = b.bin(BinOp::Add, e, b.c(1));
        }
        b.body(main, vec![ret(e)]);
        b
    };
    let config = Config { max_expr_depth: 5000, ..Config::default() };
    assert_eq!(build(4000).run_with(&config, vec![]).outcome, Outcome::Completed(4000));
    assert!(matches!(build(6000).run_with(&config, vec![]).outcome, Outcome::Unsupported(_)));
}

#[test]
fn variable_length_arrays_are_sized_when_declared() {
    // int n = nondet(); int a[2][n]; a[1][2] = 5; return a[1][2];
    let mut b = Builder::new();
    let main = b.main();
    let n = b.local(main, "n", b.int);
    let row = b.p.types.intern(Type::Array(b.int, ArrayLen::Var(n)));
    let matrix = b.p.types.intern(Type::Array(row, ArrayLen::Fixed(2)));
    let a = b.local(main, "a", matrix);
    let row1 = b.index(b.var(a), b.c(1));
    let cell = b.index(row1, b.c(2));
    b.body(
        main,
        vec![
            InstrKind::Decl(n),
            InstrKind::Assign(b.var(n), Expr::new(ExprKind::Nondet, b.int)),
            InstrKind::Decl(a),
            InstrKind::Assign(cell.clone(), b.c(5)),
            ret(cell),
        ],
    );
    assert_eq!(b.run(vec![int_input(3)]), Outcome::Completed(5));
    assert_eq!(ub_kind(&b.run(vec![int_input(2)])), Some(UbKind::OutOfBounds));
    for not_positive in [0, -1] {
        assert_eq!(ub_kind(&b.run(vec![int_input(not_positive)])), Some(UbKind::NonPositiveArrayLength));
    }
    // 2 * 2^29 ints are 2^32 bytes, more than an ILP32 size_t holds.
    b.p.data_model = DataModel::ILP32;
    assert_eq!(ub_kind(&b.run(vec![int_input(1 << 29)])), Some(UbKind::OversizedArray));
}

#[test]
fn parameters_an_unprototyped_call_leaves_out_are_inputs() {
    // void g(int x, int y) { assert(y != 7); }  void (*fp)() = g; fp(5);
    let mut b = Builder::new();
    let g = b.func("g", b.void, &[("x", b.int), ("y", b.int)]);
    let y = b.p.functions[g].params[1];
    let check = b.assert_kind(b.bin(BinOp::Ne, b.var(y), b.c(7)), "y != 7");
    b.body(g, vec![check, InstrKind::Return(None)]);
    let loose = b.p.types.intern(Type::Function(ir::FnSig {
        ret: b.void,
        params: vec![],
        variadic: false,
        unprototyped: true,
    }));
    let loose_ptr = b.ptr(loose);
    let main = b.main();
    let fp = b.local(main, "fp", loose_ptr);
    let g_ptr = Expr::cast(b.addr(b.callee(g)), loose_ptr);
    b.body(
        main,
        vec![
            InstrKind::Decl(fp),
            InstrKind::Assign(b.var(fp), g_ptr),
            InstrKind::Call { lhs: None, callee: b.var(fp), args: vec![b.c(5)] },
            ret(b.c(0)),
        ],
    );
    let mut queue = vec![vec![0; 8], int_input(7)].into_iter();
    let mut provider = move |_: &InputRequest| queue.next();
    let run = interp::run(&b.p, &Config::default(), &mut provider);
    assert!(matches!(run.outcome, Outcome::Violation(_)), "{:?}", run.outcome);
    // The test provider fills uninitialised bytes with 0xAA, so y != 7.
    assert_eq!(b.run(vec![]), Outcome::Completed(0));
}

#[test]
fn main_gets_a_hosted_argc_and_argv() {
    // int main(int argc, char **argv) { return strlen(argv[argc - 1]) + (argv[argc] == 0 ? 100 : 0); }
    let mut b = Builder::new();
    let char_ty = b.p.types.int(8, true);
    let char_ptr = b.ptr(char_ty);
    let argv_ty = b.ptr(char_ptr);
    let strlen = b.func("strlen", b.size_t, &[("s", char_ptr)]);
    let main = b.func("main", b.int, &[("argc", b.int), ("argv", argv_ty)]);
    b.p.entry = Some(main);
    let (argc, argv) = (b.p.functions[main].params[0], b.p.functions[main].params[1]);
    let n = b.local(main, "n", b.size_t);
    let nth = |b: &Builder, i: Expr| b.deref(Expr::binary(BinOp::PtrAdd, b.var(argv), i, argv_ty));
    let last = nth(&b, b.bin(BinOp::Sub, b.var(argc), b.c(1)));
    let terminated = b.bin(BinOp::Eq, nth(&b, b.var(argc)), Expr::new(ExprKind::Null, char_ptr));
    let bonus = Expr::new(ExprKind::Ite(Box::new(terminated), Box::new(b.c(100)), Box::new(b.c(0))), b.int);
    b.body(
        main,
        vec![
            InstrKind::Decl(n),
            InstrKind::Call { lhs: Some(b.var(n)), callee: b.callee(strlen), args: vec![last] },
            ret(b.bin(BinOp::Add, Expr::cast(b.var(n), b.int), bonus)),
        ],
    );
    // argc, then per argument its length and its contents (whose last
    // byte the interpreter makes the terminator).
    let contents = |len: u32| vec![0xAA; len as usize + 1];
    let lengths = |a: u32, c: u32| vec![int_input(2), a.to_le_bytes().to_vec(), contents(a), c.to_le_bytes().to_vec(), contents(c)];
    assert_eq!(b.run(lengths(3, 5)), Outcome::Completed(105));
    assert!(matches!(b.run(vec![int_input(0)]), Outcome::AssumptionViolated { .. }));
    let too_long = vec![int_input(2), 3u32.to_le_bytes().to_vec(), contents(3), (1u32 << 20).to_le_bytes().to_vec()];
    assert!(matches!(b.run(too_long), Outcome::AssumptionViolated { .. }));
}

/// Answers quantifier questions as told and records the values it was
/// shown as tried.
struct Oracle {
    answer: interp::QuantifierDecision,
    tried: Vec<Vec<u8>>,
}

impl interp::InputProvider for Oracle {
    fn next_input(&mut self, request: &InputRequest) -> Option<Vec<u8>> {
        Some(vec![0; request.size as usize])
    }
    fn decide_quantifier(&mut self, _loc: Loc, tried: &[Vec<u8>]) -> interp::QuantifierDecision {
        self.tried = tried.to_vec();
        self.answer.clone()
    }
}

/// `r = quantifier x. x != 7; return r;` over a 32-bit `x`, which the
/// interpreter cannot enumerate.
fn quantifier_program(quantifier: ir::Quantifier) -> Builder {
    let mut b = Builder::new();
    let main = b.main();
    let x = b.local(main, "x", b.int);
    let r = b.local(main, "r", b.int);
    let body = b.bin(BinOp::Ne, b.var(x), b.c(7));
    b.body(
        main,
        vec![
            InstrKind::Decl(x),
            InstrKind::Decl(r),
            InstrKind::QuantifierBegin { quantifier, bound: b.var(x) },
            InstrKind::QuantifierEnd { lhs: b.var(r), body },
            ret(b.var(r)),
        ],
    );
    b
}

fn run_with_oracle(b: &Builder, answer: interp::QuantifierDecision) -> (Outcome, Vec<Vec<u8>>) {
    let mut oracle = Oracle { answer, tried: Vec::new() };
    let outcome = interp::run(&b.p, &Config::default(), &mut oracle).outcome;
    (outcome, oracle.tried)
}

#[test]
fn a_wide_quantifier_is_decided_by_the_providers_answer_and_checked_values() {
    use interp::QuantifierDecision::*;
    let forall = quantifier_program(ir::Quantifier::Forall);
    // Zero is tried first and does not decide `forall x. x != 7`.
    let (outcome, tried) = run_with_oracle(&forall, Unknown);
    assert!(matches!(outcome, Outcome::Unsupported(_)), "{outcome:?}");
    assert_eq!(tried, vec![vec![0; 4]]);
    // A value the provider names is run: 7 refutes the body.
    assert_eq!(run_with_oracle(&forall, DecidedBy(int_input(7))).0, Outcome::Completed(0));
    // A named value that does not decide it is not believed.
    assert!(matches!(run_with_oracle(&forall, DecidedBy(int_input(8))).0, Outcome::Unsupported(_)));
    // "No value decides it" is the provider's to say.
    assert_eq!(run_with_oracle(&forall, NoValueDecides).0, Outcome::Completed(1));
    let exists = quantifier_program(ir::Quantifier::Exists);
    // Zero already decides `exists x. x != 7`: the provider is not asked.
    let (outcome, tried) = run_with_oracle(&exists, NoValueDecides);
    assert_eq!(outcome, Outcome::Completed(1));
    assert!(tried.is_empty());
}

/// The parameters of [`phased_loop`].
struct LoopShape {
    signed: bool,
    cmp: BinOp,
    start: i64,
    k: i64,
    p: i64,
    d1: i64,
    d2: i64,
    e: i64,
    /// The phase and the step of `x` are taken in a called function.
    called: bool,
}

/// A two-phase counting loop over an 8-bit `x` and a 16-bit `y`:
/// `while (x CMP k) { if (x < p) x += d1; else x += d2; y += e; assert(y != 50); }`,
/// returning `x + 7 * y` (as int).
/// With `called`, the step of `x` is `t = step(x); x = t;` (`t` declared
/// in the loop) where `step(v)` computes `w = v + d1` or `v + d2` by the
/// phase of `v` into its local `w` and returns it.
fn phased_loop(shape: &LoopShape) -> Builder {
    let LoopShape { signed, cmp, start, k, p, d1, d2, e, called } = *shape;
    if called {
        return phased_loop_through_a_call(shape);
    }
    let mut b = Builder::new();
    let main = b.main();
    let (byte, short) = (b.p.types.int(8, signed), b.p.types.int(16, true));
    let (x, y) = (b.local(main, "x", byte), b.local(main, "y", short));
    let (vx, vy) = (b.var(x), b.var(y));
    let byte_const = |v: i64| Expr::int(v as u8 as u128, byte);
    let short_const = |v: i64| Expr::int(v as u16 as u128, short);
    let guard = Expr::unary(UnOp::Not, b.bin(cmp, vx.clone(), byte_const(k)), b.boolean);
    let phase = Expr::unary(UnOp::Not, b.bin(BinOp::Lt, vx.clone(), byte_const(p)), b.boolean);
    let result = b.bin(BinOp::Add, Expr::cast(vx.clone(), b.int), b.bin(BinOp::Mul, b.c(7), Expr::cast(vy.clone(), b.int)));
    let kinds = vec![
        InstrKind::Decl(x),
        InstrKind::Decl(y),
        InstrKind::Assign(vx.clone(), byte_const(start)),
        InstrKind::Assign(vy.clone(), short_const(30_000)),
        goto(guard, 12),
        goto(phase, 8),
        InstrKind::Assign(vx.clone(), b.bin(BinOp::Add, vx.clone(), byte_const(d1))),
        goto(b.truth(), 9),
        InstrKind::Assign(vx.clone(), b.bin(BinOp::Add, vx.clone(), byte_const(d2))),
        InstrKind::Assign(vy.clone(), b.bin(BinOp::Add, vy.clone(), short_const(e))),
        b.assert_kind(b.bin(BinOp::Ne, vy.clone(), short_const(50)), "y != 50"),
        goto(b.truth(), 4),
        ret(result),
    ];
    b.body(main, kinds);
    b
}

fn phased_loop_through_a_call(shape: &LoopShape) -> Builder {
    let LoopShape { signed, cmp, start, k, p, d1, d2, e, .. } = *shape;
    let mut b = Builder::new();
    let (byte, short) = (b.p.types.int(8, signed), b.p.types.int(16, true));
    let step = b.func("step", byte, &[("v", byte)]);
    let v = b.p.functions[step].params[0];
    let w = b.local(step, "w", byte);
    let main = b.main();
    let (x, y, t) = (b.local(main, "x", byte), b.local(main, "y", short), b.local(main, "t", byte));
    let (vv, vw, vx, vy, vt) = (b.var(v), b.var(w), b.var(x), b.var(y), b.var(t));
    let byte_const = |v: i64| Expr::int(v as u8 as u128, byte);
    let short_const = |v: i64| Expr::int(v as u16 as u128, short);
    let phase = Expr::unary(UnOp::Not, b.bin(BinOp::Lt, vv.clone(), byte_const(p)), b.boolean);
    let step_body = vec![
        InstrKind::Decl(w),
        goto(phase, 4),
        InstrKind::Assign(vw.clone(), b.bin(BinOp::Add, vv.clone(), byte_const(d1))),
        goto(b.truth(), 5),
        InstrKind::Assign(vw.clone(), b.bin(BinOp::Add, vv.clone(), byte_const(d2))),
        ret(vw),
    ];
    b.body(step, step_body);
    let guard = Expr::unary(UnOp::Not, b.bin(cmp, vx.clone(), byte_const(k)), b.boolean);
    let result = b.bin(BinOp::Add, Expr::cast(vx.clone(), b.int), b.bin(BinOp::Mul, b.c(7), Expr::cast(vy.clone(), b.int)));
    let kinds = vec![
        InstrKind::Decl(x),
        InstrKind::Decl(y),
        InstrKind::Assign(vx.clone(), byte_const(start)),
        InstrKind::Assign(vy.clone(), short_const(30_000)),
        goto(guard, 13),
        InstrKind::Decl(t),
        InstrKind::Call { lhs: Some(vt.clone()), callee: b.callee(step), args: vec![vx.clone()] },
        InstrKind::Assign(vx.clone(), vt),
        InstrKind::Dead(t),
        InstrKind::Assign(vy.clone(), b.bin(BinOp::Add, vy.clone(), short_const(e))),
        b.assert_kind(b.bin(BinOp::Ne, vy.clone(), short_const(50)), "y != 50"),
        goto(b.truth(), 4),
        InstrKind::Skip,
        ret(result),
    ];
    b.body(main, kinds);
    b
}

#[test]
fn fast_forwarded_loops_end_as_the_step_by_step_run_does() {
    let plain = Config { accelerate_loops: false, step_limit: 20_000, ..Config::default() };
    let fast = Config { accelerate_loops: true, ..plain.clone() };
    let mut jumped = [0, 0];
    for (signed, called) in [(false, false), (true, false), (false, true), (true, true)] {
        for cmp in [BinOp::Lt, BinOp::Ne, BinOp::Ge] {
            for start in [0, 5, 250] {
                for (k, p) in [(3, 10), (200, 100), (100, 200)] {
                    for (d1, d2) in [(1, 1), (2, 3), (255, 1), (3, 254)] {
                        for e in [0, 1, -3, 1000] {
                            let b = phased_loop(&LoopShape { signed, cmp, start, k, p, d1, d2, e, called });
                            let (mut expected, got) = (b.run_with(&plain, vec![]), b.run_with(&fast, vec![]));
                            if expected.outcome == Outcome::StepLimit && got.outcome != Outcome::StepLimit {
                                // The fast run got further: the plain one must get there too.
                                expected = b.run_with(&Config { step_limit: 2_000_000, ..plain.clone() }, vec![]);
                            }
                            let case = format!("signed {signed}, called {called}, {cmp:?}, start {start}, k {k}, p {p}, d {d1}/{d2}, e {e}");
                            assert_eq!(format!("{}", got.outcome), format!("{}", expected.outcome), "{case}");
                            jumped[usize::from(called)] += usize::from(got.steps < expected.steps / 2);
                        }
                    }
                }
            }
        }
    }
    assert!(jumped.iter().all(|&n| n > 100), "loops were fast-forwarded {jumped:?} times (plain, through a call)");
}

#[test]
fn a_loop_of_two_to_the_twenty_eight_iterations_ends_within_the_step_limit() {
    // unsigned x = 0; while (x < 0x0fffffff) x += 2; return x % 256 (as int).
    let mut b = Builder::new();
    let main = b.main();
    let unsigned = b.p.types.int(32, false);
    let x = b.local(main, "x", unsigned);
    let vx = b.var(x);
    let guard = Expr::unary(UnOp::Not, b.bin(BinOp::Lt, vx.clone(), Expr::int(0x0fff_ffff, unsigned)), b.boolean);
    let low = Expr::cast(b.bin(BinOp::Rem, vx.clone(), Expr::int(256, unsigned)), b.int);
    b.body(
        main,
        vec![
            InstrKind::Decl(x),
            InstrKind::Assign(vx.clone(), Expr::int(0, unsigned)),
            goto(guard, 5),
            InstrKind::Assign(vx.clone(), b.bin(BinOp::Add, vx.clone(), Expr::int(2, unsigned))),
            goto(b.truth(), 2),
            ret(low),
        ],
    );
    let run = b.run_with(&Config::default(), vec![]);
    assert_eq!(run.outcome, Outcome::Completed(0));
    assert!(run.steps < 100, "{} steps", run.steps);
}
