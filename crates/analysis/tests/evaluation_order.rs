//! Which choices of evaluation order survive `evaluation_order::settle`:
//! operands that cannot observe each other keep one order (no choice is
//! left), operands that write what another reads, or that may end the
//! execution, keep every order.

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

/// The choices of `main` (and `fib`) before and after settling.
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
         int main(void) {{ int a = 0, b = 1; {body} return a; }}\n"
    );
    let mut program = compile(&source);
    let own = [program.function("main").expect("a main"), program.function("fib").expect("fib")];
    let in_main = |p: &ir::Program| p.evaluation_orders.iter().filter(|o| own.contains(&o.function)).count();
    let before = in_main(&program);
    analysis::evaluation_order::settle(&mut program);
    (before, in_main(&program))
}

#[test]
fn operands_that_cannot_observe_each_other_keep_one_order() {
    assert_eq!(choices("a = pure(a) + pure(b);"), (2, 0), "pure calls");
    assert_eq!(choices("a = f(pure(a), b);"), (2, 0), "a pure call and a read");
    assert_eq!(choices("a = f(a++, b);"), (2, 0), "a write to a local no other operand names");
    assert_eq!(choices("*p = pure(a);"), (2, 0), "a place through a pointer and a pure call");
    assert_eq!(choices("a = bump() + pure(b);"), (2, 0), "a call writing a global another call never names");
    assert_eq!(choices("a = fib(a) + fib(b);"), (2, 0), "recursive calls, whose locals are their own frames'");
    assert_eq!(choices("a = a + b;"), (1, 0), "no side effect: no choice at all");
    assert_eq!(choices("a = f(bump(), 1);"), (1, 0), "one operand that reads something: no choice");
}

#[test]
fn operands_that_may_observe_each_other_keep_every_order() {
    assert_eq!(choices("a = bump() - bump();"), (2, 1), "both write a global");
    assert_eq!(choices("a = n + bump();"), (2, 1), "one reads the global the other writes");
    assert_eq!(choices("a = f(poke(), *p);"), (2, 1), "a write through a pointer");
    assert_eq!(choices("a = f(a++, a);"), (2, 1), "a local written by one operand and read by the other");
    assert_eq!(choices("n += bump();"), (2, 1), "the old value of a compound assignment and a call writing it");
    assert_eq!(choices("a = bump() + peek();"), (2, 1), "a call reading the global another call writes");
    assert_eq!(choices("a = getchar() - getchar();"), (2, 1), "two calls of a library function with a state");
    assert_eq!(choices("a = f(leave(a), b / a);"), (2, 1), "a call that may exit before a later operand fails");
}
