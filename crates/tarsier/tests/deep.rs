//! Deeply nested and very long inputs: the front end must answer (accept,
//! or reject with a located error) and never overflow its stack or hang.

mod common;
use common::*;

/// Nesting depth of the generated inputs: far beyond hand-written code,
/// typical of generated code.
const DEPTH: usize = 20_000;

fn deep_inputs() -> Vec<(&'static str, String)> {
    let parens = format!("int main(void) {{ return {}0{}; }}\n", "(".repeat(DEPTH), ")".repeat(DEPTH));
    let sum = format!("int main(void) {{ int x = 0; return x{}; }}\n", " + 1".repeat(DEPTH * 5));
    let unary = format!("int main(void) {{ int x = 1; return {}x; }}\n", "-~".repeat(DEPTH));
    let blocks = format!("int main(void) {{ {} return 0; {} }}\n", "{".repeat(DEPTH), "}".repeat(DEPTH));
    let ifs = format!("int main(void) {{ int x = 0; {} x++; return x; }}\n", "if (x < 1) ".repeat(DEPTH));
    let pointers = format!("int {}p;\nint main(void) {{ return 0; }}\n", "*".repeat(DEPTH));
    let ternary = format!("int main(void) {{ int x = 0; return {} 0; }}\n", "x ? 1 : ".repeat(DEPTH));
    let unclosed = format!("int main(void) {{ return {}0; }}\n", "(".repeat(DEPTH));
    vec![
        ("parens", parens),
        ("sum", sum),
        ("unary", unary),
        ("blocks", blocks),
        ("ifs", ifs),
        ("pointers", pointers),
        ("ternary", ternary),
        ("unclosed", unclosed),
    ]
}

#[test]
fn deep_inputs_are_answered_without_crash() {
    let dir = scratch_dir("deep");
    let mut problems = Vec::new();
    for (name, text) in deep_inputs() {
        let file = write(&dir, &format!("{name}.c"), &text);
        let out = run([file.as_os_str(), "--parse-only".as_ref()]);
        let first_error = out.stderr.lines().find(|l| l.contains("error:")).unwrap_or("");
        let answered = match exit_code(&out) {
            Some(EXIT_SUCCESS) => true,
            Some(EXIT_INPUT_ERROR) => names_location(first_error) || first_error.contains("not built yet"),
            _ => false,
        };
        if !answered {
            let stderr_head: String = out.stderr.chars().take(300).collect();
            problems.push(format!("{name}: {:?}: {stderr_head}", out.ending));
        }
    }
    assert!(problems.is_empty(), "deep inputs went wrong:\n{}", problems.join("\n"));
}

/// `x && x && ... && x` with `links` operators, as one assertion.
fn chain_assertion(operator: &str, links: usize, prologue: &str) -> String {
    let chain = vec!["x"; links + 1].join(operator);
    format!("int main(void) {{ int x = nondet_int(); {prologue} __ESBMC_assert({chain}, \"chain\"); return 0; }}\n")
}

/// Long `&&`/`||` chains are lowered in linear time and verified (the IR
/// stays shallow): the conjunction fails for `x == 0` and holds once `x`
/// is assumed nonzero; the disjunction likewise.
#[test]
fn long_logical_chains_are_verified() {
    let links = 12_000;
    assert_verdict("and_chain_fails", &chain_assertion(" && ", links, ""), &[], "VERIFICATION FAILED");
    assert_verdict("and_chain_holds", &chain_assertion(" && ", links, "__VERIFIER_assume(x != 0);"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("or_chain_fails", &chain_assertion(" || ", links, ""), &[], "VERIFICATION FAILED");
    assert_verdict("or_chain_holds", &chain_assertion(" || ", links, "__VERIFIER_assume(x > 5);"), &[], "VERIFICATION SUCCESSFUL");
}

/// A chain whose operands read memory takes the control-flow lowering at
/// every link; a division inside is checked only where it is evaluated.
#[test]
fn long_guarded_chains_are_verified() {
    let links = 3_000;
    let operands = vec!["a[x] / x"; links + 1].join(" && ");
    let source = |assumption: &str| {
        format!("int a[4] = {{1, 1, 1, 1}};\nint main(void) {{ int x = nondet_int(); {assumption} __ESBMC_assert(x == 0 || ({operands}), \"chain\"); return 0; }}\n")
    };
    assert_verdict("guarded_chain_holds", &source("__VERIFIER_assume(x == 0 || x == 1);"), &[], "VERIFICATION SUCCESSFUL");
    assert_verdict("guarded_chain_fails", &source("__VERIFIER_assume(x >= 0 && x < 4);"), &[], "VERIFICATION FAILED");
}
