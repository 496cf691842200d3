//! Tests of the stutter-loop removal on hand-built function bodies: which
//! loops go (their back edges become assumptions) and which stay.

use super::*;
use ir::{DataModel, FnSig, Function, InstrIdx, Loc, LoopUnwind, Property, PropertyClass, Symbol, SymbolKind, Type, TypeId};

struct Fixture {
    program: Program,
    func: FuncId,
    flag: Expr,
    int: TypeId,
    bool_ty: TypeId,
}

impl Fixture {
    fn new() -> Fixture {
        let mut program = Program::new(DataModel::LP64);
        let int = program.types.int(32, true);
        let bool_ty = program.types.bool();
        let ty = program.types.intern(Type::Function(FnSig { ret: int, params: vec![], variadic: false, unprototyped: false }));
        let func = FuncId(0);
        let symbol = program.symbols.push(named("f", ty, SymbolKind::Function(func)));
        program.functions.push(Function { name: "f".into(), symbol, ty, params: vec![], body: None, variadic_area: None, loc: Loc::NONE });
        let flag = Expr::sym(program.symbols.push(named("flag", int, SymbolKind::Global)), int);
        Fixture { program, func, flag, int, bool_ty }
    }

    /// `flag == value`.
    fn flag_is(&self, value: u128) -> Expr {
        Expr::binary(BinOp::Eq, self.flag.clone(), Expr::int(value, self.int), self.bool_ty)
    }

    /// The body after the pass, and how many loops it removed.
    fn run(mut self, body: Vec<Instr>) -> (Vec<Instr>, usize) {
        self.program.functions[self.func].body = Some(body);
        let removed = remove_stutter_loops(&mut self.program);
        (self.program.functions[self.func].body.take().unwrap_or_default(), removed)
    }
}

fn named(name: &str, ty: TypeId, kind: SymbolKind) -> Symbol {
    Symbol {
        name: name.into(),
        display_name: name.into(),
        ty,
        kind,
        thread_local: false,
        read_only: false,
        align: 0,
        trailing_bytes: 0,
        loc: Loc::NONE,
    }
}

fn instr(kind: InstrKind) -> Instr {
    Instr::new(kind, Loc::NONE)
}

fn goto(cond: Expr, target: u32) -> Instr {
    instr(InstrKind::Goto { cond, target: InstrIdx(target) })
}

fn is_assume(i: &Instr) -> bool {
    matches!(i.kind, InstrKind::Assume(_))
}

#[test]
fn a_jump_on_a_read_becomes_the_assumption_that_the_loop_is_left() {
    let f = Fixture::new();
    let body = vec![goto(f.flag_is(0), 0), instr(InstrKind::Return(None))];
    let (body, removed) = f.run(body);
    assert_eq!(removed, 1);
    let InstrKind::Assume(cond) = &body[0].kind else { panic!("not an assumption: {:?}", body[0]) };
    assert!(matches!(cond.kind, ExprKind::Unary(UnOp::Not, _)), "{cond:?}");
}

#[test]
fn a_loop_with_a_test_at_its_head_and_a_jump_back_goes() {
    // 0: if (flag == 1) goto 2; 1: goto 0; 2: return
    let f = Fixture::new();
    let always = Expr::int(1, f.bool_ty);
    let body = vec![goto(f.flag_is(1), 2), goto(always, 0), instr(InstrKind::Return(None))];
    let (body, removed) = f.run(body);
    assert_eq!(removed, 1);
    assert!(matches!(body[0].kind, InstrKind::Goto { .. }), "the exit stays a jump");
    assert!(is_assume(&body[1]));
}

#[test]
fn loops_that_write_or_check_or_follow_pointers_stay() {
    let mut f = Fixture::new();
    let write = instr(InstrKind::Assign(f.flag.clone(), Expr::int(0, f.int)));
    let check = instr(InstrKind::Assert(f.flag_is(0), Property { class: PropertyClass::UserAssertion, message: String::new() }));
    let pointer_ty = f.program.types.pointer_to(f.int);
    let through = Expr::new(ExprKind::Deref(Box::new(Expr::new(ExprKind::Null, pointer_ty))), f.int);
    let deref_cond = Expr::binary(BinOp::Eq, through, Expr::int(0, f.int), f.bool_ty);
    for (what, first) in [("a write", write), ("an assertion", check), ("a dereference", goto(deref_cond, 2))] {
        let f = Fixture::new();
        let body = vec![first, goto(f.flag_is(0), 0), instr(InstrKind::Return(None))];
        let (after, removed) = f.run(body.clone());
        assert_eq!(removed, 0, "a loop with {what} was removed");
        assert_eq!(after, body);
    }
}

#[test]
fn a_bounded_loop_keeps_its_bound() {
    let mut f = Fixture::new();
    f.program.loop_unwinds.push(LoopUnwind { function: f.func, head: InstrIdx(0), bound: Some(3) });
    let body = vec![goto(f.flag_is(0), 0), instr(InstrKind::Return(None))];
    assert_eq!(f.run(body).1, 0);
}

#[test]
fn an_inner_busy_wait_goes_while_the_outer_loop_that_writes_stays() {
    // 0: flag = 1; 1: if (flag == 0) goto 1; 2: if (flag == 2) goto 0; 3: return
    let f = Fixture::new();
    let body = vec![
        instr(InstrKind::Assign(f.flag.clone(), Expr::int(1, f.int))),
        goto(f.flag_is(0), 1),
        goto(f.flag_is(2), 0),
        instr(InstrKind::Return(None)),
    ];
    let (body, removed) = f.run(body);
    assert_eq!(removed, 1);
    assert!(is_assume(&body[1]));
    assert!(matches!(body[2].kind, InstrKind::Goto { .. }));
}

#[test]
fn a_loop_that_writes_on_some_paths_only_loses_the_iterations_that_write_nothing() {
    // 0: flag = 1; 1: if !(flag == 2) goto 5; 2: if (flag == 3) goto 4;
    // 3: flag = 0; 4: goto 1; 5: return
    let mut f = Fixture::new();
    let leave = Expr::unary(UnOp::Not, f.flag_is(2), f.bool_ty);
    let always = Expr::int(1, f.bool_ty);
    let body = vec![
        instr(InstrKind::Assign(f.flag.clone(), Expr::int(1, f.int))),
        goto(leave, 5),
        goto(f.flag_is(3), 4),
        instr(InstrKind::Assign(f.flag.clone(), Expr::int(0, f.int))),
        goto(always, 1),
        instr(InstrKind::Return(None)),
    ];
    f.program.functions[f.func].body = Some(body);
    assert_eq!(remove_stutter_loops(&mut f.program), 0);
    assert_eq!(cut_stutter_iterations(&mut f.program), 1);
    let body = f.program.functions[f.func].body.take().unwrap_or_default();
    let shape: Vec<String> = body
        .iter()
        .map(|i| match &i.kind {
            InstrKind::Goto { target, .. } => format!("goto {}", target.0),
            InstrKind::Assign(lhs, _) if *lhs == f.flag => "write".into(),
            InstrKind::Assign(..) => "flag".into(),
            InstrKind::Decl(_) => "decl".into(),
            InstrKind::Assume(_) => "assume".into(),
            InstrKind::Return(_) => "return".into(),
            other => format!("{other:?}"),
        })
        .collect();
    let expected = [
        "write", "decl", "flag", "goto 10", // the head clears the flag; the exit
        "goto 7", "flag", "write", // a write sets the flag first
        "goto 10", "assume", "goto 1", // the back edge asks it
        "return",
    ];
    assert_eq!(shape, expected);
    let goto_targets_in_range = body.iter().all(|i| !matches!(i.kind, InstrKind::Goto { target, .. } if target.0 as usize >= body.len()));
    assert!(goto_targets_in_range);
}

#[test]
fn a_loop_whose_every_iteration_writes_is_left_alone() {
    // 0: flag = 1; 1: if (flag == 0) goto 0; 2: return
    let mut f = Fixture::new();
    let body = vec![instr(InstrKind::Assign(f.flag.clone(), Expr::int(1, f.int))), goto(f.flag_is(0), 0), instr(InstrKind::Return(None))];
    f.program.functions[f.func].body = Some(body.clone());
    assert_eq!(cut_stutter_iterations(&mut f.program), 0);
    assert_eq!(f.program.functions[f.func].body.as_ref(), Some(&body));
}
