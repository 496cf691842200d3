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
