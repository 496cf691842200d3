//! ESBMC's quantifiers in a harness: `__ESBMC_forall(&v, body)` and
//! `__ESBMC_exists(&v, body)` hold for every or some value of `v`, which
//! no function called with the body's one value can decide. The rewritten
//! copy of a program file that uses them (see [`crate::harness_locals`])
//! defines both as macros that evaluate the body at the values the
//! counterexample gives the variable, one after the other, until one
//! decides: a value where the body fails shows a `forall` false, one where
//! it holds shows an `exists` true. The other answers (a `forall` true, an
//! `exists` false) need every value: a native run cannot give them, so it
//! stops there with exit code 3 and says so, rather than guess.

use crate::harness_library;
use engine::Counterexample;
use ir::{ExprKind, FileId, InstrKind, Program};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A quantifier of the program: its line, its variable, and the values
/// the counterexample gives the variable there.
pub struct QuantifierSite {
    pub line: u32,
    pub variable: String,
    pub values: Vec<Vec<u8>>,
}

/// The quantifiers of the program's own files, by file, with the
/// counterexample's values.
pub fn sites(program: &Program, cex: &Counterexample) -> BTreeMap<FileId, Vec<QuantifierSite>> {
    let mut by_file: BTreeMap<FileId, Vec<QuantifierSite>> = BTreeMap::new();
    for (_, function) in program.functions.iter() {
        for instr in function.body.iter().flatten() {
            let InstrKind::QuantifierBegin { bound, .. } = &instr.kind else { continue };
            let ExprKind::Sym(symbol) = bound.kind else { continue };
            if program.files.is_library_model(instr.loc) {
                continue;
            }
            let values = cex.witnesses.iter().filter(|(loc, _)| *loc == instr.loc).map(|(_, bytes)| bytes.clone()).collect();
            let variable = program.symbols[symbol].display_name.clone();
            by_file.entry(instr.loc.file).or_default().push(QuantifierSite { line: instr.loc.line, variable, values });
        }
    }
    by_file
}

/// The intrinsics the macros stand for.
const QUANTIFIERS: [&str; 2] = ["__ESBMC_forall", "__ESBMC_exists"];

/// Whether the macros can stand for the quantifiers in `text`: every use
/// is a call on an address or a declaration of the intrinsic (which
/// [`parenthesize_declarations`] keeps from the macros).
pub fn rewritable(text: &str) -> Result<(), String> {
    let code = crate::harness_locals::code_mask(text);
    for name in QUANTIFIERS {
        for at in harness_library::occurrences(text, &code, name) {
            let after = text[at + name.len()..].trim_start();
            let argument = after.strip_prefix('(').map(str::trim_start);
            let call_on_address = argument.is_some_and(|a| a.starts_with('&') || a.starts_with('('));
            if !call_on_address && !harness_library::is_declared_at(text, at) {
                return Err(format!("`{name}` is used other than as a call on a variable's address"));
            }
        }
    }
    Ok(())
}

/// `text` with each declaration of a quantifier intrinsic spelt with the
/// name in parentheses, `_Bool (__ESBMC_forall)(void *, _Bool);`: the same
/// declaration, which the function-like macros leave alone.
pub fn parenthesize_declarations(text: &str) -> String {
    let code = crate::harness_locals::code_mask(text);
    let mut declared: Vec<(usize, &str)> = QUANTIFIERS
        .iter()
        .flat_map(|&name| harness_library::occurrences(text, &code, name).map(move |at| (at, name)))
        .filter(|&(at, _)| harness_library::is_declared_at(text, at))
        .collect();
    declared.sort_unstable();
    let mut out = String::with_capacity(text.len() + 2 * declared.len());
    let mut from = 0;
    for (at, name) in declared {
        out += &text[from..at];
        out += &format!("({name})");
        from = at + name.len();
    }
    out += &text[from..];
    out
}

/// The declarations and macros a rewritten copy starts with.
pub fn macros() -> &'static str {
    "int __tarsier_harness_site(int, const char *);\n\
     int __tarsier_harness_bind(void *, unsigned long, int, unsigned long);\n\
     void __tarsier_harness_undecided(int);\n\
     #define __TARSIER_HARNESS_QUANTIFIER(var, body, decides, decision) ({ \\\n    \
     int harness_site_ = __tarsier_harness_site(__LINE__, #var), harness_result_ = -1; \\\n    \
     for (unsigned long harness_i_ = 0; harness_result_ < 0 && __tarsier_harness_bind((var), sizeof *(var), harness_site_, harness_i_); harness_i_++) \\\n        \
     if (!(body) == !(decides)) \\\n            \
     harness_result_ = (decision); \\\n    \
     if (harness_result_ < 0) \\\n        \
     __tarsier_harness_undecided(__LINE__); \\\n    \
     harness_result_; })\n\
     #define __ESBMC_forall(var, body) __TARSIER_HARNESS_QUANTIFIER(var, body, 0, 0)\n\
     #define __ESBMC_exists(var, body) __TARSIER_HARNESS_QUANTIFIER(var, body, 1, 1)\n"
}

/// The harness's side: each quantifier's values and the three functions
/// the macros call.
pub fn definitions(sites: &[QuantifierSite]) -> String {
    let mut out = String::from("/* The values the counterexample gives each quantifier's variable, tried in order. */\n");
    out += "struct harness_quantifier { int line; const char *variable; const unsigned char *const *values; unsigned long count, size; };\n";
    for (id, site) in sites.iter().enumerate() {
        let size = site.values.iter().map(Vec::len).max().unwrap_or(0);
        for (n, bytes) in site.values.iter().enumerate() {
            let mut bytes = bytes.clone();
            bytes.resize(size, 0);
            let _ = writeln!(out, "static const unsigned char harness_quantifier_{id}_{n}[] = {{{}}};", crate::harness::byte_list(&bytes));
        }
        let list: String = (0..site.values.len()).map(|n| format!("harness_quantifier_{id}_{n}, ")).collect();
        let _ = writeln!(out, "static const unsigned char *const harness_quantifier_{id}[] = {{{list}0}};");
    }
    out += "static const struct harness_quantifier harness_quantifiers[] = {\n";
    for (id, site) in sites.iter().enumerate() {
        let size = site.values.iter().map(Vec::len).max().unwrap_or(0);
        let _ = writeln!(out, "    {{{}, \"{}\", harness_quantifier_{id}, {}, {size}}},", site.line, site.variable, site.values.len());
    }
    out += "    {0, 0, 0, 0, 0},\n};\n\n";
    out += "/* The quantifier at LINE whose variable is spelt VARIABLE (`&v`), or -1. */\n";
    out += "int __tarsier_harness_site(int line, const char *variable)\n{\n";
    out += "    while (*variable == '&' || *variable == '(' || *variable == ' ')\n        variable++;\n";
    out += "    for (int i = 0; harness_quantifiers[i].variable; i++) {\n";
    out += "        unsigned long n = strlen(harness_quantifiers[i].variable);\n";
    out += "        if (harness_quantifiers[i].line == line && strncmp(variable, harness_quantifiers[i].variable, n) == 0 && (variable[n] == 0 || variable[n] == ')' || variable[n] == ' '))\n";
    out += "            return i;\n    }\n    return -1;\n}\n\n";
    out += "/* Gives the variable its INDEX-th value; 0 when there is none. */\n";
    out += "int __tarsier_harness_bind(void *variable, unsigned long size, int site, unsigned long index)\n{\n";
    out += "    if (site < 0 || index >= harness_quantifiers[site].count)\n        return 0;\n";
    out += "    memset(variable, 0, size);\n";
    out += "    memcpy(variable, harness_quantifiers[site].values[index], harness_quantifiers[site].size < size ? harness_quantifiers[site].size : size);\n";
    out += "    return 1;\n}\n\n";
    out += "void __tarsier_harness_undecided(int line)\n{\n";
    out += "    fprintf(stderr, \"harness: the quantifier at line %d holds for every value or for none, which a native run cannot check\\n\", line);\n";
    out += "    exit(3);\n}\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_calls_on_addresses_are_rewritten() {
        assert!(rewritable("int main() { return __ESBMC_forall(&i, i > 0) + __ESBMC_exists( (void *)&j, 1); }").is_ok());
        assert!(rewritable("_Bool __ESBMC_forall(void *, _Bool);").is_ok());
        assert!(rewritable("int (*q)(void *, _Bool) = __ESBMC_forall;").is_err());
        assert!(rewritable("/* a nested __ESBMC_forall */ int x = __ESBMC_forall(&i, 1);").is_ok());
    }

    #[test]
    fn declarations_keep_clear_of_the_macros() {
        let text = "extern _Bool __ESBMC_forall(void *, _Bool);\nint f(void) { return __ESBMC_forall(&i, i > 0); }";
        let expected = "extern _Bool (__ESBMC_forall)(void *, _Bool);\nint f(void) { return __ESBMC_forall(&i, i > 0); }";
        assert_eq!(parenthesize_declarations(text), expected);
    }

    #[test]
    fn sites_list_their_values() {
        let text = definitions(&[QuantifierSite { line: 7, variable: "i".into(), values: vec![vec![3, 0, 0, 0], vec![9]] }]);
        assert!(text.contains("harness_quantifier_0_1[] = {0x09, 0x00, 0x00, 0x00};"), "{text}");
        assert!(text.contains("{7, \"i\", harness_quantifier_0, 2, 4},"), "{text}");
    }
}
