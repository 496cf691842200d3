//! Descriptor calls in the executable harness. tarsier models the calls
//! on file descriptors (`read`, `recv`, `socket`, ...: the C model
//! `unistd.c` of the `models` crate) as an environment that may give any
//! answer its contract allows, taken from nondet calls inside the model;
//! natively the kernel answers (`recv` on a socket nobody connected
//! fails), so the native run left the counterexample's path. When the
//! counterexample takes values inside that model, the rewritten copy of
//! each program file that names its functions renames them (`#define recv
//! __tarsier_harness_recv`, as for the library calls of
//! [`crate::harness_library`]) and the harness compiles the model's own C
//! text under those names: its nondet calls return the counterexample's
//! values of the model's calls in order (one queue per type), its errno
//! is the program's `errno`.

use crate::harness::{byte_list, c_type};
use engine::Counterexample;
use ir::interp::InputKind;
use ir::Program;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The model's file name among the `models` units.
const MODEL_UNIT: &str = "unistd.c";

/// The functions the model defines for programs.
const FUNCTIONS: [&str; 12] = ["sleep", "usleep", "open", "creat", "socket", "pipe", "close", "read", "write", "recv", "send", "lseek"];

/// The model's nondet functions and the C type each returns.
const NONDET_FUNCTIONS: [(&str, &str); 4] = [
    ("__VERIFIER_nondet_tarsier_int", "int"),
    ("__VERIFIER_nondet_tarsier_long", "long"),
    ("__VERIFIER_nondet_tarsier_uint", "unsigned int"),
    ("__VERIFIER_nondet_tarsier_uchar", "unsigned char"),
];

/// The counterexample's values of the model's nondet calls, per C type in order.
pub struct DescriptorModel {
    values: BTreeMap<&'static str, Vec<Vec<u8>>>,
}

impl DescriptorModel {
    /// The model's values in `cex`; `None` when it takes none there (the
    /// native calls then stay the library's).
    pub fn of(program: &Program, cex: &Counterexample) -> Option<DescriptorModel> {
        let model_file = format!("{}/{MODEL_UNIT}", ir::LIBRARY_MODEL_DIR);
        let mut values: BTreeMap<&'static str, Vec<Vec<u8>>> = BTreeMap::new();
        let from_model = |loc: ir::Loc| !loc.is_none() && program.files.name(loc.file) == model_file;
        for input in cex.inputs.iter().filter(|i| matches!(i.kind, InputKind::Nondet) && from_model(i.loc)) {
            let spelling = c_type(program, input.ty?)?;
            let &(_, ty) = NONDET_FUNCTIONS.iter().find(|(_, ty)| *ty == spelling)?;
            values.entry(ty).or_default().push(input.bytes.clone());
        }
        (!values.is_empty()).then_some(DescriptorModel { values })
    }

    /// Whether a program file (`text`, its code mask `code`) calls the model's functions.
    pub fn names_any(text: &str, code: &[bool]) -> bool {
        FUNCTIONS.iter().any(|f| crate::harness_library::names(text, code, f))
    }

    /// The renaming lines a copy starts with, but for the functions in
    /// `own` (the program's own definitions stay its own).
    pub fn macros(own: &[&str]) -> String {
        FUNCTIONS.iter().filter(|f| !own.contains(f)).map(|f| format!("#define {f} {}\n", renamed(f))).collect()
    }

    /// The model's values, its nondet functions and its text under the renamed names.
    pub fn definitions(&self) -> String {
        let mut out = String::from("/* tarsier's model of the descriptor calls, whose nondet calls give the counterexample's values. */\n#include <errno.h>\n");
        for (function, ty) in NONDET_FUNCTIONS {
            let ident = format!("harness_model_{}", ty.replace(' ', "_"));
            let values = self.values.get(ty).map(Vec::as_slice).unwrap_or_default();
            let width = values.iter().map(Vec::len).max().unwrap_or(1).max(1);
            let rows: Vec<String> = values.iter().map(|v| format!("{{{}}}", byte_list(&[v.as_slice(), &vec![0; width - v.len()]].concat()))).collect();
            let rows = if rows.is_empty() { "{0}".to_string() } else { rows.join(", ") };
            let _ = writeln!(out, "static const unsigned char {ident}[][{width}] = {{{rows}}};");
            let _ = writeln!(out, "static const unsigned long {ident}_count = {};\nstatic unsigned long {ident}_next;", values.len());
            let _ = writeln!(out, "static {ty} harness_model_{function}(void)\n{{\n    {ty} value;\n    HARNESS_NEXT({ident}, value);\n    return value;\n}}");
            let _ = writeln!(out, "#define {function} harness_model_{function}");
        }
        out += "static void harness_model_assume(int condition)\n{\n    if (!condition) {\n        fputs(\"harness: the descriptor model's assumption does not hold: the run left the counterexample's path\\n\", stderr);\n        exit(0);\n    }\n}\n";
        out += "#define __VERIFIER_assume harness_model_assume\n#define __tarsier_errno errno\n";
        out += "long __tarsier_unmodelled_descriptor_call(void)\n{\n    fputs(\"harness: the descriptor model does not follow this call exactly\\n\", stderr);\n    exit(3);\n}\n";
        out += &Self::macros(&[]);
        out += model_text();
        for name in FUNCTIONS.iter().chain(NONDET_FUNCTIONS.iter().map(|(f, _)| f)).chain(["__VERIFIER_assume", "__tarsier_errno"].iter()) {
            let _ = writeln!(out, "#undef {name}");
        }
        out + "\n"
    }
}

/// The name the copy and the harness give the model's function `name`.
fn renamed(name: &str) -> String {
    format!("__tarsier_harness_{name}")
}

/// The model's C text.
fn model_text() -> &'static str {
    models::UNITS.iter().find(|(name, _)| *name == MODEL_UNIT).map(|(_, text)| *text).expect("the descriptor model is a unit")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_renamed_functions_are_the_models() {
        let text = model_text();
        let code = crate::harness_locals::code_mask(text);
        // Each listed function is defined at the start of a line, and every
        // function defined so that is listed or the model's own (`__tarsier_`).
        let defined: Vec<&str> = text
            .lines()
            .filter_map(|line| line.split('(').next().filter(|head| line.contains('(') && !head.is_empty() && !head.contains(' ')))
            .collect();
        for function in FUNCTIONS {
            assert!(defined.contains(&function), "{function} is not defined by the model");
        }
        for function in defined.iter().filter(|f| !f.starts_with("__tarsier_")) {
            assert!(FUNCTIONS.contains(function), "the model defines {function}, which the harness does not rename");
        }
        // Every nondet function the model calls has its queue.
        for (at, _) in text.match_indices("__VERIFIER_nondet_").filter(|&(at, _)| code[at]) {
            let name: String = text[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            assert!(NONDET_FUNCTIONS.iter().any(|(f, _)| *f == name), "{name} has no queue");
        }
    }
}
