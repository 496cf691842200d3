//! Unit tests of the parser's decisions that golden files show less
//! directly: typedef scoping, error messages and depth limits.

use crate::ast::*;
use crate::diag::Diagnostics;
use crate::lex::tokenize;
use ir::SourceFiles;
use std::path::Path;

fn parse_text(text: &str) -> Result<TranslationUnit, String> {
    let mut files = SourceFiles::default();
    let mut diags = Diagnostics::default();
    let tokens = tokenize(text, Path::new("t.c"), &mut files, &mut diags).ok_or_else(|| format!("{:?}", diags.list))?;
    super::parse(&tokens, &mut diags).ok_or_else(|| {
        let d = &diags.list[0];
        format!("{}:{}: {}", d.loc.line, d.loc.col, d.message)
    })
}

fn body(unit: &TranslationUnit) -> &[Stmt] {
    match unit.items.last() {
        Some(ExternalDecl::Function(f)) => &f.body.items,
        other => panic!("no function: {other:?}"),
    }
}

#[test]
fn typedef_star_at_block_scope_is_a_declaration() {
    let unit = parse_text("typedef int T; int x, y; void f(void) { T * x; x * y; }").unwrap();
    let stmts = body(&unit);
    assert!(matches!(stmts[0].kind, StmtKind::Decl(_)));
    assert!(matches!(stmts[1].kind, StmtKind::Expr(Some(_))));
}

#[test]
fn variables_shadow_typedef_names_in_inner_scopes() {
    let unit = parse_text("typedef int T; void f(void) { int T = 2; { T * 3; } } void g(void) { T y; }").unwrap();
    let stmts = body(&unit);
    assert!(matches!(stmts[0].kind, StmtKind::Decl(_)));
    let ExternalDecl::Function(f) = &unit.items[1] else { panic!() };
    let StmtKind::Compound(inner) = &f.body.items[1].kind else { panic!() };
    assert!(matches!(inner.items[0].kind, StmtKind::Expr(Some(_))));
    assert!(matches!(body(&unit)[0].kind, StmtKind::Decl(_)));
}

#[test]
fn parameters_shadow_typedef_names_in_the_body() {
    let unit = parse_text("typedef int T; int f(int T) { return T * 2; }").unwrap();
    assert!(matches!(body(&unit)[0].kind, StmtKind::Return(Some(_))));
}

#[test]
fn declarators_flatten_innermost_first() {
    let unit = parse_text("int *a[3]; int (*f)(void); char * const * volatile p;").unwrap();
    let shapes: Vec<String> = unit
        .items
        .iter()
        .map(|item| {
            let ExternalDecl::Declaration(d) = item else { panic!() };
            d.declarators[0]
                .declarator
                .derived
                .iter()
                .map(|derived| match derived {
                    Derived::Pointer(q) if q.is_const => "Pc",
                    Derived::Pointer(q) if q.is_volatile => "Pv",
                    Derived::Pointer(_) => "P",
                    Derived::Array(_) => "A",
                    Derived::Function(_) => "F",
                })
                .collect()
        })
        .collect();
    assert_eq!(shapes, vec!["AP", "PF", "PvPc"]);
}

#[test]
fn invalid_type_combinations_are_rejected() {
    let err = parse_text("long char c;").unwrap_err();
    assert_eq!(err, "1:1: invalid combination of type specifiers");
    assert!(parse_text("unsigned signed x;").is_err());
    assert!(parse_text("long long long x;").is_err());
    assert!(parse_text("short double x;").is_err());
}

#[test]
fn errors_say_what_was_expected_and_where() {
    assert_eq!(parse_text("int f(void) {\n  return 1\n}").unwrap_err(), "3:1: expected `;`, found `}`");
    assert_eq!(parse_text("int x = ;").unwrap_err(), "1:9: expected an expression, found `;`");
    assert_eq!(parse_text("int f(void) { if (1) ").unwrap_err(), "1:22: expected an expression, found end of file");
}

#[test]
fn contract_clauses_are_unsupported_not_syntax_errors() {
    let function = "int f(int x) __CPROVER_requires(x > 0) __CPROVER_ensures(1) { return x; }";
    assert_eq!(parse_text(function).unwrap_err(), "1:14: unsupported: function contracts (`__CPROVER_requires`)");
    let esbmc = "int f(int x)\n__ESBMC_ensures(x > 0);";
    assert_eq!(parse_text(esbmc).unwrap_err(), "2:1: unsupported: function contracts (`__ESBMC_ensures`)");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("int x = {}1{};", "(".repeat(5000), ")".repeat(5000));
    assert!(parse_text(&deep).unwrap_err().contains("unsupported: nesting deeper than"));
    let ok = format!("int x = {}1{};", "(".repeat(200), ")".repeat(200));
    assert!(parse_text(&ok).is_ok());
    let long_chain = format!("int x = 1{};", " + 1".repeat(15000));
    assert!(parse_text(&long_chain).is_ok());
    // Longer chains would be deeper trees than later stages can drop.
    let too_long = format!("int x = 1{};", " + 1".repeat(100_000));
    assert!(parse_text(&too_long).unwrap_err().contains("unsupported: nesting deeper than 1000 levels"));
    let member_chain = format!("int x = p{};", "->next".repeat(100_000));
    assert!(parse_text(&member_chain).unwrap_err().contains("unsupported: nesting deeper"));
}

#[test]
fn expressions_are_located_at_their_operator_or_callee() {
    let unit = parse_text("void f(void) {\n  x = g(1) + a[2];\n}").unwrap();
    let StmtKind::Expr(Some(assign)) = &body(&unit)[0].kind else { panic!() };
    assert_eq!((assign.loc.line, assign.loc.col), (2, 5));
    let ExprKind::Assign(_, _, sum) = &assign.kind else { panic!() };
    assert_eq!(sum.loc.col, 12);
    let ExprKind::Binary(_, call, index) = &sum.kind else { panic!() };
    assert_eq!((call.loc.col, index.loc.col), (7, 15));
}

#[test]
fn bit_precise_integers_keep_width_and_signedness() {
    let unit = parse_text("unsigned _BitInt(3 + 4) a; _ExtInt(10) b; signed _BitInt(2) c; int d = (_BitInt(9))1;").unwrap();
    let spec = |i: usize| match &unit.items[i] {
        ExternalDecl::Declaration(d) => d.specs.ty.clone(),
        other => panic!("not a declaration: {other:?}"),
    };
    assert!(matches!(spec(0), TypeSpec::BitInt { unsigned: true, width } if matches!(width.kind, ExprKind::Binary(..))));
    assert!(matches!(spec(1), TypeSpec::BitInt { unsigned: false, .. }));
    assert!(matches!(spec(2), TypeSpec::BitInt { unsigned: false, .. }));
    for bad in ["long _BitInt(8) x;", "_BitInt(8) int x;", "unsigned signed _BitInt(8) x;", "_BitInt x;"] {
        assert!(parse_text(bad).is_err(), "{bad} was accepted");
    }
}

#[test]
fn a_bare_name_after_declared_parameters_is_an_implicit_int_parameter() {
    let unit = parse_text("typedef int T; int e(char *f, g, T) { return g; }").unwrap();
    let ExternalDecl::Function(f) = &unit.items[1] else { panic!() };
    let Some(Derived::Function(fun)) = f.declarator.derived.first() else { panic!("{:?}", f.declarator) };
    assert_eq!(fun.params.len(), 3);
    assert!(matches!(fun.params[1].specs.ty, TypeSpec::Implicit));
    assert_eq!(fun.params[1].declarator.name.as_deref(), Some("g"));
    assert!(matches!(fun.params[2].specs.ty, TypeSpec::TypedefName(_)));
    assert!(parse_text("int e(char *f, g h) { return 0; }").is_err());
}
