//! The `--show-ir` text of a hand-built program that uses every kind of
//! top-level item (globals, string literals, init and entry functions,
//! declarations without bodies) and most expression forms, compared with
//! `tests/data/show_ir.txt`. Set `UPDATE_EXPECTED=1` to rewrite the file
//! after an intended format change, and review the diff.

use ir::{
    ArrayLen, BinOp, Composite, CompositeKind, DataModel, Expr, ExprKind, Field, FloatFormat, Instr, InstrIdx,
    InstrKind, Loc, Program, Property, PropertyClass, SymbolKind, Type, UnOp,
};

fn sample_program() -> Program {
    let mut p = Program::new(DataModel::ILP32);
    let file = p.files.intern("list.c");
    let at = |line| Loc { file, line, col: 1 };
    let int = p.types.int(32, true);
    let uint = p.types.int(32, false);
    let boolean = p.types.bool();
    let void = p.types.void();
    let char_ty = p.types.int(8, true);
    let float = p.types.intern(Type::Float(FloatFormat::Single));
    let node_id = p.types.composites.push(Composite {
        kind: CompositeKind::Struct,
        name: "node".into(),
        fields: vec![],
        size: 12,
        align: 4,
        complete: true,
    });
    let node = p.types.intern(Type::Composite(node_id));
    let node_ptr = p.types.pointer_to(node);
    p.types.composites[node_id].fields = vec![
        Field { name: "value".into(), ty: int, offset_bits: 0, bit_width: None },
        Field { name: "next".into(), ty: node_ptr, offset_bits: 32, bit_width: None },
        Field { name: "flags".into(), ty: uint, offset_bits: 64, bit_width: Some(3) },
    ];
    let text_ty = p.types.intern(Type::Array(char_ty, ArrayLen::Fixed(3)));
    let head = p.add_global("head", node_ptr, at(3));
    let text = p.add_symbol("str#0", text_ty, SymbolKind::StringLiteral, at(9));
    p.symbols[text].display_name = "\"hi\"".into();

    let init = p.declare_function("__init", void, &[], false, Loc::NONE);
    p.set_body(
        init,
        vec![
            Instr::new(InstrKind::Assign(Expr::sym(head, node_ptr), Expr::new(ExprKind::Null, node_ptr)), at(3)),
            Instr::new(InstrKind::Return(None), Loc::NONE),
        ],
    );
    p.init = Some(init);

    let size_t = p.types.size_t(DataModel::ILP32);
    let void_ptr = p.types.pointer_to(void);
    p.declare_function("malloc", void_ptr, &[("size", size_t)], false, at(1));
    let char_ptr = p.types.pointer_to(char_ty);
    p.declare_function("printf", int, &[("fmt", char_ptr)], true, at(2));

    let length = p.declare_function("length", int, &[("list", node_ptr)], false, at(5));
    let list = p.functions[length].params[0];
    let n = p.add_local(length, "n", int, at(6));
    let (vlist, vn) = (Expr::sym(list, node_ptr), Expr::sym(n, int));
    let node_deref = Expr::new(ExprKind::Deref(Box::new(vlist.clone())), node);
    let next = Expr::new(ExprKind::Member(Box::new(node_deref.clone()), 1), node_ptr);
    let flags = Expr::new(ExprKind::Member(Box::new(node_deref), 2), uint);
    let is_null = Expr::binary(BinOp::Eq, vlist.clone(), Expr::new(ExprKind::Null, node_ptr), boolean);
    let flag_set = Expr::binary(BinOp::Ne, flags, Expr::int(0, uint), boolean);
    let stop = Expr::binary(BinOp::Or, is_null, flag_set, boolean);
    let float_n = Expr::cast(vn.clone(), float);
    let half = Expr::new(ExprKind::FloatConst(u128::from(0.5f32.to_bits())), float);
    let small = Expr::binary(
        BinOp::Lt,
        Expr::binary(BinOp::Mul, float_n, half, float),
        Expr::new(ExprKind::FloatConst(u128::from(1e6f32.to_bits())), float),
        boolean,
    );
    let first = Expr::new(ExprKind::Index(Box::new(Expr::sym(text, text_ty)), Box::new(Expr::int(0, int))), char_ty);
    let char_code = Expr::new(
        ExprKind::Ite(
            Box::new(Expr::unary(UnOp::Not, small.clone(), boolean)),
            Box::new(Expr::unary(UnOp::Neg, Expr::int(1, int), int)),
            Box::new(Expr::cast(first, int)),
        ),
        int,
    );
    p.set_body(
        length,
        vec![
            Instr::new(InstrKind::Decl(n), at(6)),
            Instr::new(InstrKind::Assign(vn.clone(), Expr::int(0, int)), at(6)),
            Instr::new(InstrKind::Goto { cond: stop, target: InstrIdx(6) }, at(7)),
            Instr::new(
                InstrKind::Assign(vn.clone(), Expr::binary(BinOp::Add, vn.clone(), Expr::int(1, int), int)),
                at(8),
            ),
            Instr::new(InstrKind::Assign(vlist, next), at(8)),
            Instr::new(InstrKind::Goto { cond: Expr::int(1, boolean), target: InstrIdx(2) }, at(7)),
            Instr::new(
                InstrKind::Assert(
                    small,
                    Property { class: PropertyClass::UserAssertion, message: "n * 0.5f < 1e6f".into() },
                ),
                at(9),
            ),
            Instr::new(InstrKind::Return(Some(Expr::binary(BinOp::Add, vn, char_code, int))), at(10)),
        ],
    );

    let main = p.declare_function("main", int, &[], false, at(12));
    let r = p.add_local(main, "r", int, at(13));
    let length_fn = Expr::sym(p.functions[length].symbol, p.functions[length].ty);
    let call =
        InstrKind::Call { lhs: Some(Expr::sym(r, int)), callee: length_fn, args: vec![Expr::sym(head, node_ptr)] };
    p.set_body(
        main,
        vec![
            Instr::new(InstrKind::Decl(r), at(13)),
            Instr::new(call, at(13)),
            Instr::new(InstrKind::Assign(Expr::sym(r, int), Expr::unary(UnOp::Neg, Expr::sym(r, int), int)), at(14)),
            Instr::new(InstrKind::Return(Some(Expr::unary(UnOp::Neg, Expr::int(1, int), int))), at(14)),
        ],
    );
    p.entry = Some(main);
    p
}

#[test]
fn show_ir_matches_the_expected_text() {
    let program = sample_program();
    assert_eq!(ir::validate(&program), Ok(()));
    let actual = program.to_string();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/show_ir.txt");
    if std::env::var_os("UPDATE_EXPECTED").is_some() {
        std::fs::write(&path, &actual).expect("write the expected text");
    }
    let expected = std::fs::read_to_string(&path).expect("tests/data/show_ir.txt exists");
    assert_eq!(actual, expected, "--show-ir output changed; rerun with UPDATE_EXPECTED=1 if intended");
}
