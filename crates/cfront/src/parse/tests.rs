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

/// The expression statement `stmt` of a one-statement body, as a
/// parenthesised tree of its operators and names.
fn shape(source: &str) -> String {
    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Ident(name) => name.clone(),
            ExprKind::IntLit { value, .. } => value.to_string(),
            ExprKind::Unary(UnaryOp::Not, x) => format!("!{}", show(x)),
            ExprKind::Unary(UnaryOp::Minus, x) => format!("-{}", show(x)),
            ExprKind::Binary(op, l, r) => format!("({} {op:?} {})", show(l), show(r)),
            ExprKind::Conditional(c, Some(t), f) => format!("({} ? {} : {})", show(c), show(t), show(f)),
            ExprKind::Quantifier { quantifier, bound, body } => {
                let names: Vec<_> = bound.declarators.iter().filter_map(|d| d.declarator.name.clone()).collect();
                format!("({quantifier:?} {}. {})", names.join(","), show(body))
            }
            ExprKind::Index(a, i) => format!("{}[{}]", show(a), show(i)),
            ExprKind::Assign(None, l, r) => format!("({} = {})", show(l), show(r)),
            ExprKind::Call(f, args) => format!("{}({})", show(f), args.iter().map(show).collect::<Vec<_>>().join(", ")),
            other => format!("{other:?}"),
        }
    }
    let unit = parse_text(&format!("void f(void) {{ {source}; }}")).unwrap_or_else(|e| panic!("{source}: {e}"));
    let StmtKind::Expr(Some(e)) = &body(&unit)[0].kind else { panic!("{source}: not an expression") };
    show(e)
}

#[test]
fn cbmc_connectives_have_cbmc_precedence() {
    // `==>` is `!a || b`, right associative, looser than `||`.
    assert_eq!(shape("a || b ==> c"), "(!(a LogOr b) LogOr c)");
    assert_eq!(shape("a ==> b ==> c"), "(!a LogOr (!b LogOr c))");
    // `<==>` is `==`, left associative, looser than `==>`.
    assert_eq!(shape("a <==> b ==> c <==> d"), "((a Eq (!b LogOr c)) Eq d)");
    // `^^` sits between `&&` and `||`.
    assert_eq!(shape("a || b ^^ c && d"), "(a LogOr (!b Ne !(c LogAnd d)))");
    // All of them bind tighter than `?:` and assignment.
    assert_eq!(shape("a ==> b ? c : d"), "((!a LogOr b) ? c : d)");
    // ACSL's symbols spell the same operators, glued to names or not.
    assert_eq!(shape("a⇒b∧c≥−d"), "(!a LogOr (b LogAnd (c Ge -d)))");
    assert_eq!(shape("¬a ⇔ b ≢ c ∨ d ⊻ e"), "(!a Eq ((b Ne c) LogOr (!d Ne !e)))");
}

#[test]
fn cbmc_quantifiers_scope_their_variables() {
    assert_eq!(shape("__CPROVER_forall { int i, j; i < j ==> a[i] }"), "(Forall i,j. (!(i Lt j) LogOr a[i]))");
    assert_eq!(shape("__CPROVER_exists { char c; c == x } && y"), "((Exists c. (c Eq x)) LogAnd y)");
    // ACSL's binder takes everything up to the end of the conditional.
    assert_eq!(shape("g(∀ int i; 1 ? 1 : i, 2)"), "g((Forall i. (1 ? 1 : i)), 2)");
    assert_eq!(shape("g(\\exists int i; i, 2)"), "g((Exists i. i), 2)");
    assert_eq!(shape("x = ∃ int i; ∀ int j; j == i ==> i > 0"), "(x = (Exists i. (Forall j. (!(j Eq i) LogOr (i Gt 0)))))");
    // As in CBMC's grammar, a binder is no operand: it needs parentheses.
    assert!(parse_text("void f(void) { x = 1 ==> ∀ int j; j == 0; }").is_err());
    // The variable is not in scope after the body: `T` names the type again.
    let unit = parse_text("typedef int T; void f(void) { __CPROVER_forall { int T; T > 0 }; T * p; }").unwrap();
    assert!(matches!(body(&unit)[1].kind, StmtKind::Decl(_)));
}

#[test]
fn malformed_cbmc_quantifiers_are_located_errors() {
    let error = |body: &str| parse_text(&format!("void f(void) {{\n  {body};\n}}")).unwrap_err();
    assert_eq!(error("__CPROVER_forall int i; i"), "2:20: expected `{` after `__CPROVER_forall`, found `int`");
    assert_eq!(error("__CPROVER_exists { i > 0 }"), "2:22: expected the declaration of the variable that `__CPROVER_exists` binds, found `i`");
    assert_eq!(error("__CPROVER_forall { int i; i > 0"), "2:34: expected `}`, found `;`");
    assert_eq!(error("∀ i > 0"), "2:7: expected the declaration of the variable that `∀` binds, found `i`");
}
