//! Hand-built IR programs run through symex and solved with the
//! bit-blaster: C semantics, merges, unwinding, calls, pointers, arrays,
//! heap checks and byte-level access.

use bitblast::BitBlastSolver;
use ir::{BinOp, Expr, ExprKind, FuncId, Instr, InstrIdx, InstrKind, Loc, Program, Property, PropertyClass, Type, TypeId, UnOp};
use smt::{Evaluator, SatResult, Solver, TermStore, Value};
use symex::{execute, Options, Stop};

#[derive(Debug, PartialEq)]
enum Answer {
    Safe,
    Violated(PropertyClass, String),
    BoundTooSmall,
}

fn check(program: &Program, options: &Options) -> Result<Answer, Stop> {
    let mut store = TermStore::new();
    let execution = execute(program, options, &mut store)?;
    let equation = &execution.equation;
    let properties = equation.violations(&mut store, |c| c != PropertyClass::UnwindingAssertion);
    let mut solver = BitBlastSolver::new();
    if !properties.is_empty() {
        let any = store.or(&properties);
        if solver.check(&store, &[any]) == SatResult::Sat {
            let model = solver.model(&store);
            let mut evaluator = Evaluator::new(&store, &model);
            for a in &equation.assertions {
                let reached = evaluator.eval(a.guard) == Ok(Value::Bool(true));
                if reached && evaluator.eval(a.condition) == Ok(Value::Bool(false)) && a.property.class != PropertyClass::UnwindingAssertion {
                    return Ok(Answer::Violated(a.property.class, a.property.message.clone()));
                }
            }
            panic!("model violates no assertion");
        }
    }
    let unwinding = equation.violations(&mut store, |c| c == PropertyClass::UnwindingAssertion);
    if !unwinding.is_empty() {
        let any = store.or(&unwinding);
        if solver.check(&store, &[any]) == SatResult::Sat {
            return Ok(Answer::BoundTooSmall);
        }
    }
    Ok(Answer::Safe)
}

fn violated(class: PropertyClass) -> impl Fn(&Answer) -> bool {
    move |a| matches!(a, Answer::Violated(c, _) if *c == class)
}

/// A tiny builder for `main` bodies.
struct Builder {
    p: Program,
    main: FuncId,
    body: Vec<Instr>,
    int: TypeId,
    boolean: TypeId,
}

impl Builder {
    fn new() -> Builder {
        let mut p = Program::new(ir::DataModel::LP64);
        let int = p.types.int(32, true);
        let boolean = p.types.bool();
        let main = p.declare_function("main", int, &[], false, Loc::NONE);
        p.entry = Some(main);
        Builder { p, main, body: Vec::new(), int, boolean }
    }
    fn ty(&mut self, ty: Type) -> TypeId {
        self.p.types.intern(ty)
    }
    fn local(&mut self, name: &str, ty: TypeId) -> Expr {
        let s = self.p.add_local(self.main, name, ty, Loc::NONE);
        Expr::sym(s, ty)
    }
    fn global(&mut self, name: &str, ty: TypeId) -> Expr {
        let s = self.p.add_global(name, ty, Loc::NONE);
        Expr::sym(s, ty)
    }
    fn c(&self, v: i64) -> Expr {
        Expr::int(v as u128 & 0xffff_ffff, self.int)
    }
    fn bin(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let ty = if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) { self.boolean } else { a.ty };
        Expr::binary(op, a, b, ty)
    }
    fn nondet(&self, ty: TypeId) -> Expr {
        Expr::new(ExprKind::Nondet, ty)
    }
    fn at(&mut self, kind: InstrKind) -> usize {
        let line = self.body.len() as u32 + 1;
        self.body.push(Instr::new(kind, Loc { file: ir::FileId(0), line, col: 1 }));
        self.body.len() - 1
    }
    fn assign(&mut self, lhs: Expr, rhs: Expr) {
        self.at(InstrKind::Assign(lhs, rhs));
    }
    fn assert(&mut self, cond: Expr) {
        self.at(InstrKind::Assert(cond, Property { class: PropertyClass::UserAssertion, message: "assertion".into() }));
    }
    fn assume(&mut self, cond: Expr) {
        self.at(InstrKind::Assume(cond));
    }
    fn goto(&mut self, cond: Expr, target: usize) -> usize {
        self.at(InstrKind::Goto { cond, target: InstrIdx(target as u32) })
    }
    fn truth(&self) -> Expr {
        Expr::int(1, self.boolean)
    }
    fn not(&self, e: Expr) -> Expr {
        Expr::unary(UnOp::Not, e, self.boolean)
    }
    /// Patches the target of the goto at `at`.
    fn set_target(&mut self, at: usize, target: usize) {
        if let InstrKind::Goto { target: t, .. } = &mut self.body[at].kind {
            *t = InstrIdx(target as u32);
        }
    }
    fn call(&mut self, lhs: Option<Expr>, func: FuncId, args: Vec<Expr>) {
        let f = &self.p.functions[func];
        let callee = Expr::sym(f.symbol, f.ty);
        self.at(InstrKind::Call { lhs, callee, args });
    }
    fn external(&mut self, name: &str, ret: TypeId, params: &[(&str, TypeId)]) -> FuncId {
        self.p.declare_function(name, ret, params, false, Loc::NONE)
    }
    fn finish(mut self) -> Program {
        let ret = self.c(0);
        self.at(InstrKind::Return(Some(ret)));
        let body = std::mem::take(&mut self.body);
        self.p.set_body(self.main, body);
        self.p
    }
}

#[test]
fn straight_line_arithmetic_follows_c() {
    for (expected, safe) in [(-3, true), (-4, false)] {
        let mut b = Builder::new();
        let x = b.local("x", b.int);
        let y = b.local("y", b.int);
        b.assign(x.clone(), b.c(-7));
        let half = b.bin(BinOp::Div, x.clone(), b.c(2));
        b.assign(y.clone(), half);
        let shifted = b.bin(BinOp::Shl, b.c(1), b.c(40));
        let r = b.local("r", b.int);
        b.assign(r.clone(), shifted);
        let ok = b.bin(BinOp::Eq, y, b.c(expected));
        b.assert(ok);
        let zero = b.bin(BinOp::Eq, r, b.c(0));
        b.assert(zero);
        let answer = check(&b.finish(), &Options::default()).unwrap();
        assert_eq!(answer == Answer::Safe, safe, "{answer:?}");
    }
}

#[test]
fn branches_merge_both_values() {
    let mut b = Builder::new();
    let x = b.local("x", b.int);
    let y = b.local("y", b.int);
    let nondet = b.nondet(b.int);
    b.assign(x.clone(), nondet);
    let big = b.bin(BinOp::Gt, x.clone(), b.c(5));
    let branch = b.goto(big, 0);
    b.assign(y.clone(), b.c(2));
    let skip = b.goto(b.truth(), 0);
    let then = b.body.len();
    b.assign(y.clone(), b.c(1));
    let join = b.body.len();
    b.set_target(branch, then);
    b.set_target(skip, join);
    let one = b.bin(BinOp::Eq, y.clone(), b.c(1));
    let two = b.bin(BinOp::Eq, y.clone(), b.c(2));
    let either = b.bin(BinOp::Or, one.clone(), two);
    b.assert(either);
    let p = b.finish();
    assert_eq!(check(&p, &Options::default()).unwrap(), Answer::Safe);

    let mut b2 = Builder { body: p.functions[p.entry.unwrap()].body.clone().unwrap(), p, ..Builder::new() };
    b2.body.pop();
    b2.assert(one);
    assert!(violated(PropertyClass::UserAssertion)(&check(&b2.finish(), &Options::default()).unwrap()));
}

/// `i = 0; while (i < limit) i++; assert(i == limit)`.
fn counting_loop(limit: Expr, nondet_limit: bool) -> Builder {
    let mut b = Builder::new();
    let i = b.local("i", b.int);
    let n = b.local("n", b.int);
    if nondet_limit {
        let v = b.nondet(b.int);
        b.assign(n.clone(), v);
    } else {
        b.assign(n.clone(), limit);
    }
    b.assign(i.clone(), b.c(0));
    let head = b.body.len();
    let done = b.bin(BinOp::Ge, i.clone(), n.clone());
    let exit = b.goto(done, 0);
    let next = b.bin(BinOp::Add, i.clone(), b.c(1));
    b.assign(i.clone(), next);
    b.goto(b.truth(), head);
    let after = b.body.len();
    b.set_target(exit, after);
    let ok = b.bin(BinOp::Eq, i, n);
    b.assert(ok);
    b
}

#[test]
fn constant_loops_unroll_to_completion_without_a_bound() {
    let p = counting_loop(Builder::new().c(10), false).finish();
    assert_eq!(check(&p, &Options::default()).unwrap(), Answer::Safe);
}

#[test]
fn loop_bounds_give_unwinding_assertions_or_assumptions() {
    let p = counting_loop(Builder::new().c(0), true).finish();
    let bounded = Options { unwind: Some(3), ..Options::default() };
    // With n unconstrained the loop can run past the bound (and i == n can
    // also fail for a negative n).
    let answer = check(&p, &bounded).unwrap();
    assert!(violated(PropertyClass::UserAssertion)(&answer), "{answer:?}");

    let mut b = counting_loop(Builder::new().c(0), true);
    b.body.pop();
    let trivially = b.truth();
    b.assert(trivially);
    let p = b.finish();
    assert_eq!(check(&p, &bounded).unwrap(), Answer::BoundTooSmall);
    let assumed = Options { unwind: Some(3), unwinding_assertions: false, ..Options::default() };
    let mut store = TermStore::new();
    let execution = execute(&p, &assumed, &mut store).unwrap();
    assert!(execution.equation.bound_assumed);
    assert_eq!(check(&p, &assumed).unwrap(), Answer::Safe);
}

#[test]
fn unbounded_symbolic_loops_hit_the_step_limit() {
    let p = counting_loop(Builder::new().c(0), true).finish();
    let options = Options { max_steps: 2_000, ..Options::default() };
    assert!(matches!(check(&p, &options), Err(Stop::StepLimit { .. })));
}

/// `int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }`
fn with_factorial(b: &mut Builder) -> FuncId {
    let int = b.int;
    let fact = b.p.declare_function("fact", int, &[("n", int)], false, Loc::NONE);
    let n = Expr::sym(b.p.functions[fact].params[0], int);
    let r = {
        let s = b.p.add_local(fact, "r", int, Loc::NONE);
        Expr::sym(s, int)
    };
    let callee = Expr::sym(b.p.functions[fact].symbol, b.p.functions[fact].ty);
    let small = b.bin(BinOp::Le, n.clone(), b.c(1));
    let line = |k: u32| Loc { file: ir::FileId(0), line: 100 + k, col: 1 };
    let body = vec![
        Instr::new(InstrKind::Goto { cond: small, target: InstrIdx(4) }, line(0)),
        Instr::new(InstrKind::Call { lhs: Some(r.clone()), callee, args: vec![b.bin(BinOp::Sub, n.clone(), b.c(1))] }, line(1)),
        Instr::new(InstrKind::Assign(r.clone(), b.bin(BinOp::Mul, n, r.clone())), line(2)),
        Instr::new(InstrKind::Return(Some(r)), line(3)),
        Instr::new(InstrKind::Return(Some(b.c(1))), line(4)),
    ];
    b.p.set_body(fact, body);
    fact
}

#[test]
fn recursion_with_a_constant_argument_is_inlined_exactly() {
    let mut b = Builder::new();
    let fact = with_factorial(&mut b);
    let x = b.local("x", b.int);
    b.call(Some(x.clone()), fact, vec![b.c(5)]);
    let ok = b.bin(BinOp::Eq, x, b.c(120));
    b.assert(ok);
    assert_eq!(check(&b.finish(), &Options::default()).unwrap(), Answer::Safe);
}

#[test]
fn recursion_is_bounded_like_loops() {
    let mut b = Builder::new();
    let fact = with_factorial(&mut b);
    let x = b.local("x", b.int);
    b.call(Some(x), fact, vec![b.c(5)]);
    let p = b.finish();
    let answer = check(&p, &Options { unwind: Some(3), ..Options::default() }).unwrap();
    assert_eq!(answer, Answer::BoundTooSmall);
    assert_eq!(check(&p, &Options { unwind: Some(6), ..Options::default() }).unwrap(), Answer::Safe);
}

#[test]
fn pointers_to_locals_and_globals_write_through() {
    let mut b = Builder::new();
    let int_ptr = b.ty(Type::Pointer(b.int));
    let g = b.global("g", b.int);
    let x = b.local("x", b.int);
    let p = b.local("p", int_ptr);
    let c = b.local("c", b.boolean);
    let choice = b.nondet(b.boolean);
    b.assign(c.clone(), choice);
    let addr_x = Expr::new(ExprKind::AddrOf(Box::new(x.clone())), int_ptr);
    let addr_g = Expr::new(ExprKind::AddrOf(Box::new(g.clone())), int_ptr);
    b.assign(p.clone(), Expr::new(ExprKind::Ite(Box::new(c.clone()), Box::new(addr_x), Box::new(addr_g)), int_ptr));
    b.assign(x.clone(), b.c(1));
    let deref = Expr::new(ExprKind::Deref(Box::new(p)), b.int);
    b.assign(deref, b.c(5));
    let x_is_5 = b.bin(BinOp::Eq, x, b.c(5));
    let g_is_5 = b.bin(BinOp::Eq, g, b.c(5));
    let then = b.bin(BinOp::And, c.clone(), x_is_5);
    let els = b.bin(BinOp::And, b.not(c), g_is_5);
    let ok = b.bin(BinOp::Or, then, els);
    b.assert(ok);
    assert_eq!(check(&b.finish(), &Options::default()).unwrap(), Answer::Safe);
}

/// `int a[4]; i = nondet; [assume 0 <= i < 4;] a[i] = 3; assert(a[i] == 3)`.
fn array_program(constrain: bool) -> Program {
    let mut b = Builder::new();
    let arr = b.ty(Type::Array(b.int, ir::ArrayLen::Fixed(4)));
    let a = b.local("a", arr);
    let i = b.local("i", b.int);
    let v = b.nondet(b.int);
    b.assign(i.clone(), v);
    if constrain {
        let low = b.bin(BinOp::Ge, i.clone(), b.c(0));
        let high = b.bin(BinOp::Lt, i.clone(), b.c(4));
        b.assume(low);
        b.assume(high);
    }
    let elem = Expr::new(ExprKind::Index(Box::new(a), Box::new(i)), b.int);
    b.assign(elem.clone(), b.c(3));
    let ok = b.bin(BinOp::Eq, elem, b.c(3));
    b.assert(ok);
    b.finish()
}

#[test]
fn arrays_with_symbolic_indices() {
    assert_eq!(check(&array_program(true), &Options::default()).unwrap(), Answer::Safe);
    let answer = check(&array_program(false), &Options::default()).unwrap();
    assert!(violated(PropertyClass::ArrayBounds)(&answer), "{answer:?}");
}

#[test]
fn null_dereference_is_detected() {
    let mut b = Builder::new();
    let int_ptr = b.ty(Type::Pointer(b.int));
    let p = b.local("p", int_ptr);
    b.assign(p.clone(), Expr::new(ExprKind::Null, int_ptr));
    let deref = Expr::new(ExprKind::Deref(Box::new(p)), b.int);
    b.assign(deref, b.c(1));
    let answer = check(&b.finish(), &Options::default()).unwrap();
    assert_eq!(answer, Answer::Violated(PropertyClass::PointerDereference, "dereference failure: NULL pointer".into()));
}

/// `p = malloc(4); [*p = 1;] free(p); then: free(p) or *p = 2`.
fn heap_program(second_free: bool) -> Program {
    let mut b = Builder::new();
    let size_t = b.p.types.size_t(ir::DataModel::LP64);
    let void = b.p.types.void();
    let void_ptr = b.ty(Type::Pointer(void));
    let int_ptr = b.ty(Type::Pointer(b.int));
    let malloc = b.external("malloc", void_ptr, &[("n", size_t)]);
    let free = b.external("free", void, &[("p", void_ptr)]);
    let raw = b.local("raw", void_ptr);
    let p = b.local("p", int_ptr);
    b.call(Some(raw.clone()), malloc, vec![Expr::int(4, size_t)]);
    b.assign(p.clone(), Expr::cast(raw.clone(), int_ptr));
    let deref = Expr::new(ExprKind::Deref(Box::new(p.clone())), b.int);
    b.call(None, free, vec![raw.clone()]);
    if second_free {
        b.call(None, free, vec![raw]);
    } else {
        b.assign(deref, b.c(2));
    }
    b.finish()
}

#[test]
fn heap_errors_are_detected() {
    let options = Options { force_malloc_success: true, ..Options::default() };
    let answer = check(&heap_program(true), &options).unwrap();
    assert_eq!(answer, Answer::Violated(PropertyClass::InvalidFree, "free: double free".into()));
    let answer = check(&heap_program(false), &options).unwrap();
    assert_eq!(answer, Answer::Violated(PropertyClass::PointerDereference, "dereference failure: memory freed".into()));
    let may_fail = check(&heap_program(false), &Options::default()).unwrap();
    assert!(violated(PropertyClass::PointerDereference)(&may_fail));
}

#[test]
fn unions_reinterpret_bytes_little_endian() {
    let mut b = Builder::new();
    let char_ty = b.p.types.int(8, true);
    let chars = b.ty(Type::Array(char_ty, ir::ArrayLen::Fixed(4)));
    let comp = b.p.types.composites.push(ir::Composite {
        kind: ir::CompositeKind::Union,
        name: "U".into(),
        fields: vec![
            ir::Field { name: "i".into(), ty: b.int, offset_bits: 0, bit_width: None },
            ir::Field { name: "c".into(), ty: chars, offset_bits: 0, bit_width: None },
        ],
        size: 4,
        align: 4,
        complete: true,
    });
    let union_ty = b.ty(Type::Composite(comp));
    let u = b.local("u", union_ty);
    let field_i = Expr::new(ExprKind::Member(Box::new(u.clone()), 0), b.int);
    b.assign(field_i, b.c(0x0102_0304));
    let field_c = Expr::new(ExprKind::Member(Box::new(u), 1), chars);
    let first = Expr::new(ExprKind::Index(Box::new(field_c), Box::new(b.c(0))), char_ty);
    let ok = b.bin(BinOp::Eq, first, Expr::int(4, char_ty));
    b.assert(ok);
    assert_eq!(check(&b.finish(), &Options::default()).unwrap(), Answer::Safe);
}

#[test]
fn float_arithmetic_is_ieee_in_double_and_x87_long_double() {
    let check_sum = |format: ir::FloatFormat, [x, y, claim]: [u128; 3]| {
        let mut b = Builder::new();
        let float = b.ty(Type::Float(format));
        let d = b.local("d", float);
        b.assign(d.clone(), Expr::new(ExprKind::FloatConst(x), float));
        let sum = Expr::binary(BinOp::Add, d.clone(), Expr::new(ExprKind::FloatConst(y), float), float);
        b.assign(d.clone(), sum);
        let ok = Expr::binary(BinOp::Eq, d, Expr::new(ExprKind::FloatConst(claim), float), b.boolean);
        b.assert(ok);
        check(&b.finish(), &Options::default()).unwrap()
    };
    // 0.1 + 0.2 is 0.30000000000000004 in binary64, not 0.3.
    let (tenth, fifth) = (0x3fb9_9999_9999_999a, 0x3fc9_9999_9999_999a);
    assert_eq!(check_sum(ir::FloatFormat::Double, [tenth, fifth, 0x3fd3_3333_3333_3334]), Answer::Safe);
    assert!(violated(PropertyClass::UserAssertion)(&check_sum(ir::FloatFormat::Double, [tenth, fifth, 0x3fd3_3333_3333_3333])));
    // In x87 extended precision (80-bit images) 0.1L + 0.2L is 0.3L.
    let (tenth, fifth) = (0x3FFB_CCCC_CCCC_CCCC_CCCD, 0x3FFC_CCCC_CCCC_CCCC_CCCD);
    let x87 = ir::FloatFormat::X87Extended;
    assert_eq!(check_sum(x87, [tenth, fifth, 0x3FFD_9999_9999_9999_999A]), Answer::Safe);
    assert!(violated(PropertyClass::UserAssertion)(&check_sum(x87, [tenth, fifth, 0x3FFD_9999_9999_9999_9999])));
}

/// `a[i] = 1` with bounds checks off, for `0 <= i < limit` and `int a[4]`:
/// whether the solver finds a path on which the write is ignored.
fn unchecked_write_may_be_ignored(limit: i64) -> bool {
    let mut b = Builder::new();
    let arr = b.ty(Type::Array(b.int, ir::ArrayLen::Fixed(4)));
    let a = b.global("a", arr);
    let i = b.local("i", b.int);
    let nondet = b.nondet(b.int);
    b.assign(i.clone(), nondet);
    let low = b.bin(BinOp::Ge, i.clone(), b.c(0));
    let high = b.bin(BinOp::Lt, i.clone(), b.c(limit));
    let in_range = b.bin(BinOp::And, low, high);
    b.assume(in_range);
    let elem = Expr::new(ExprKind::Index(Box::new(a), Box::new(i)), b.int);
    b.assign(elem, b.c(1));
    let options = Options { bounds_checks: false, pointer_checks: false, ..Options::default() };
    let mut store = TermStore::new();
    let execution = execute(&b.finish(), &options, &mut store).unwrap();
    let equation = &execution.equation;
    assert!(!equation.approximations_affect_true(), "the approximation is conditional");
    let conditions: Vec<_> = equation.conditional_approximations.iter().map(|(c, _)| *c).collect();
    let any = store.or(&conditions);
    BitBlastSolver::new().check(&store, &[any]) == SatResult::Sat
}

#[test]
fn an_unchecked_write_is_an_approximation_only_where_it_can_leave_its_object() {
    assert!(!unchecked_write_may_be_ignored(4));
    assert!(unchecked_write_may_be_ignored(5));
}
