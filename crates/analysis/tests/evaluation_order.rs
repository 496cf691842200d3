//! Which choices of evaluation order survive `evaluation_order::settle`:
//! operands that cannot observe each other keep one order (no choice is
//! left), operands that write what another reads, or that may end the
//! execution or never return, keep every order.

use std::io::Write;

fn compile(source: &str) -> ir::Program {
    let dir = std::env::temp_dir().join(format!("tarsier-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hash = source.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let path = dir.join(format!("o{hash:x}.c"));
    std::fs::File::create(&path).unwrap().write_all(source.as_bytes()).unwrap();
    let mut diags = cfront::diag::Diagnostics::default();
    let program = cfront::compile(std::slice::from_ref(&path), &cfront::Options::default(), &mut diags);
    program.unwrap_or_else(|| panic!("does not compile: {:?}", diags.list))
}

/// The choices of `main` before and after settling.
fn choices(body: &str) -> (usize, usize) {
    let source = format!(
        "int n; int *p; void exit(int);\n\
         int pure(int x) {{ int y = x * 2; return y; }}\n\
         int bump(void) {{ return ++n; }}\n\
         int peek(void) {{ return n; }}\n\
         int getchar(void);\n\
         int fib(int x) {{ return x < 2 ? x : fib(x - 1) + fib(x - 2); }}\n\
         int poke(void) {{ *p = 1; return 0; }}\n\
         int leave(int x) {{ if (x) exit(1); return x; }}\n\
         int f(int a, int b) {{ return a - b; }}\n\
         int f3(int a, int b, int c) {{ return a - b - c; }}\n\
         int spin(int x) {{ while (x) x = x + 2; return x; }}\n\
         int count(int x) {{ int s = 0; for (int i = 0; i < x; i++) s += i; return s; }}\n\
         int (*fp)(int) = spin;\n\
         int main(void) {{ int a = 0, b = 1; {body} return a; }}\n"
    );
    let mut program = compile(&source);
    let main = program.function("main").expect("a main");
    let in_main = |p: &ir::Program| p.evaluation_orders.iter().filter(|o| o.function == main).count();
    let before = in_main(&program);
    analysis::evaluation_order::settle(&mut program);
    (before, in_main(&program))
}

#[test]
fn operands_that_cannot_observe_each_other_keep_one_order() {
    assert_eq!(choices("a = pure(a) + pure(b);"), (1, 0), "pure calls");
    assert_eq!(choices("a = f(pure(a), b);"), (1, 0), "a pure call and a read");
    assert_eq!(choices("a = f(a++, b);"), (1, 0), "a write to a local no other operand names");
    assert_eq!(choices("*p = pure(a);"), (1, 0), "a place through a pointer and a pure call");
    assert_eq!(choices("a = bump() + pure(b);"), (1, 0), "a call writing a global another call never names");
    assert_eq!(choices("a = pure(a) + b;"), (1, 0), "a pure call and a read of a local");
    assert_eq!(choices("a = f(pure(a), spin(b));"), (1, 0), "a call that may loop for ever, last in the first order");
    assert_eq!(choices("a = f(b / a, leave(a));"), (1, 0), "a call that may exit, last in the first order");
    assert_eq!(choices("a = f(spin(a), pure(b));"), (1, 0), "a call that may loop for ever, last in the reversed order");
    assert_eq!(choices("a = f(leave(a), b / a);"), (1, 0), "a call that may exit, last in the reversed order");
    assert_eq!(choices("a = f(count(a), count(b));"), (1, 0), "calls whose loops are counted, which end");
    assert_eq!(choices("a = a + b;"), (0, 0), "no side effect: no choice at all");
    assert_eq!(choices("a = f(bump(), 1);"), (0, 0), "one operand that reads something: no choice");
}

#[test]
fn operands_that_may_observe_each_other_keep_every_order() {
    assert_eq!(choices("a = bump() - bump();"), (1, 1), "both write a global");
    assert_eq!(choices("a = n + bump();"), (1, 1), "one reads the global the other writes");
    assert_eq!(choices("a = f(poke(), *p);"), (1, 1), "a write through a pointer");
    assert_eq!(choices("a = f(a++, a);"), (1, 1), "a local written by one operand and read by the other");
    assert_eq!(choices("n += bump();"), (1, 1), "the old value of a compound assignment and a call writing it");
    assert_eq!(choices("a = bump() + peek();"), (1, 1), "a call reading the global another call writes");
    assert_eq!(choices("a = getchar() - getchar();"), (1, 1), "two calls of a library function with a state");
    assert_eq!(choices("a = f3(b / a, leave(a), b / a);"), (1, 1), "a call that may exit between operands that may fail");
    assert_eq!(choices("a = f3(pure(a), spin(a), pure(b));"), (1, 1), "a call that may loop for ever between two calls");
    assert_eq!(choices("a = f(spin(a), leave(b));"), (1, 1), "two calls that may not return");
    assert_eq!(choices("a = fib(a) + fib(b);"), (1, 1), "recursive calls, which may not return");
    assert_eq!(choices("a = fp(a) + fp(b);"), (1, 1), "calls through a pointer to a function with a loop");
}

#[test]
fn a_recursive_function_keeps_the_orders_of_its_own_recursive_calls() {
    let mut program = compile("int fib(int x) { return x < 2 ? x : fib(x - 1) + fib(x - 2); }\nint main(void) { return fib(3); }\n");
    let fib = program.function("fib").expect("fib");
    analysis::evaluation_order::settle(&mut program);
    assert_eq!(program.evaluation_orders.iter().filter(|o| o.function == fib).count(), 1, "either call may not return");
}

/// Whether settling keeps one order of `loop(a) + loop(b)`, with `loop`
/// defined by `definition`: it does when `loop`'s loops are proved to end.
fn proved_to_end(definition: &str) -> bool {
    let source = format!(
        "int __VERIFIER_nondet_int(void);\n{definition}\n\
         int main(void) {{ int a = 0, b = 1; a = loop(a) + loop(b); return a; }}\n"
    );
    let mut program = compile(&source);
    assert_eq!(program.evaluation_orders.len(), 1, "one choice in {definition}");
    analysis::evaluation_order::settle(&mut program);
    program.evaluation_orders.is_empty()
}

#[test]
fn counted_loops_end() {
    let ending = [
        "int loop(int x) { int s = 0; for (int i = 0; i < 10; i++) s += x; return s; }",
        "int loop(int x) { int s = 0; for (int i = 0; i <= 9; i++) s += x; return s; }",
        "int loop(int x) { int s = 0; for (int i = 0; i < x; i++) s += i; return s; }",
        "int loop(int x) { int s = 0; for (int i = 0; i < 100; i += 7) s += x; return s; }",
        "int loop(int x) { int s = 0; for (unsigned i = 10; i > 0; i--) s += x; return s; }",
        "int loop(int x) { int s = 0; for (int i = x; 0 <= i; i -= 3) s += i; return s; }",
        "int loop(int x) { unsigned s = 0; for (unsigned i = 0; i < 4294967295u; i++) s += x; return s; }",
        "int loop(int x) { unsigned s = 0; for (unsigned i = 0; i <= 4294967294u; i++) s += x; return s; }",
        "int loop(int x) { unsigned n = 0; while (1) { if (n >= 5u) break; if (x) return 1; n += 2; } return x; }",
        "int loop(int x) { int s = 0; for (int i = 0; i < 10; i++) { if (x > i) continue; s += x; } return s; }",
    ];
    for definition in ending {
        assert!(proved_to_end(definition), "proved to end: {definition}");
    }
}

#[test]
fn loops_whose_end_is_not_proved_may_run_for_ever() {
    let unproved = [
        "int loop(int x) { int s = 0; for (int i = 0; i != x; i++) s += i; return s; }",
        "int loop(int x) { int s = 0; for (unsigned i = 0; i <= 4294967295u; i++) s += x; return s; }",
        "int loop(unsigned x) { int s = 0; for (unsigned i = 0; i <= x; i++) s += 1; return s; }",
        "int loop(int x) { int s = 0; for (int i = 0; i < x; i += 2) s += i; return s; }",
        "int loop(int x) { int s = 0; for (int i = 2147483600; i < 2147483647; i += 50) s += x; return s; }",
        "int loop(int x) { int s = 0; for (int i = 0; i < 10; i--) s += x; return s; }",
        "int loop(int x) { int s = 0; for (int i = 0; i < 10; i++) { if (x) i = 0; s += x; } return s; }",
        "int loop(int x) { int s = 0; for (int i = 0; i < 10; ) { if (x) i++; s += x; } return s; }",
        "int loop(int x) { int s = 0; for (int i = 0; i < x; i++) x++; return s; }",
        "int loop(int x) { int i, s = 0; int *q = &i; for (i = 0; i < 10; i++) *q = 0; return s; }",
        "int loop(int x) { int s = 0; while (1) { if (__VERIFIER_nondet_int()) break; s += x; } return s; }",
        "int loop(int x) { int s = 0; for (int i = 0; i < 10; i++) for (int j = 0; j < 10; j++) s += x; return s; }",
        "int loop(int x) { int s = 0; while (x > 0) { x = x - 2; x = x + 2; } return s; }",
    ];
    for definition in unproved {
        assert!(!proved_to_end(definition), "not proved: {definition}");
    }
}
