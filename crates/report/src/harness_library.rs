//! Library calls the executable harness answers itself. Where tarsier's
//! library model leaves open an outcome that the native library decides
//! on its own — whether an allocation fails, the initial contents of a
//! `malloc`ed block, the result of `rand`, `random` or `clock` — the
//! native run must take the counterexample's outcome. The rewritten copy
//! of each program file that names such a function renames it before its
//! first line (`#define malloc __tarsier_harness_malloc`, so the library
//! header's declaration is renamed with it), and the harness defines the
//! renamed function: it answers the program's calls with the
//! counterexample's outcomes in order, then (past them) calls the
//! library's own. Only the program's calls are renamed: allocations made
//! inside the native library stay the library's.

use crate::harness::{byte_list, c_type};
use engine::Counterexample;
use ir::interp::InputKind;
use ir::{InstrKind, Loc, Program, Type};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// The allocators whose outcomes the harness gives, with the C parameter
/// list of their renamed definition and how it calls the library's own.
const ALLOCATORS: [(&str, &str, &str); 3] = [
    ("malloc", "__SIZE_TYPE__ size", "malloc(size)"),
    ("calloc", "__SIZE_TYPE__ count, __SIZE_TYPE__ size", "calloc(count, size)"),
    ("realloc", "void *old, __SIZE_TYPE__ size", "realloc(old, size)"),
];

/// Library functions without parameters whose model returns one
/// nondeterministic value (crates/models/c: `rand` and `random` any value
/// in their range, `clock` also -1 for "unavailable"): the native call is
/// replaced by that value.
const RESULT_FUNCTIONS: [&str; 3] = ["rand", "random", "clock"];

/// The prefix of the renamed functions.
const RENAMED_PREFIX: &str = "__tarsier_harness_";

/// One call of an allocator on the counterexample's path.
#[derive(Debug, PartialEq, Eq)]
struct Allocation {
    fails: bool,
    /// The block's initial contents: bytes, then the byte of every later offset.
    contents: Option<(Vec<u8>, u8)>,
}

/// The counterexample's outcomes of the program's library calls.
#[derive(Default)]
pub struct LibraryCalls {
    allocations: BTreeMap<&'static str, Vec<Allocation>>,
    /// Per result function: its C return type and its results, in order.
    results: BTreeMap<&'static str, (String, Vec<Vec<u8>>)>,
    /// What a native run cannot be made to follow.
    pub notes: Vec<String>,
}

impl LibraryCalls {
    /// The outcomes of `cex`'s inputs that come from library calls.
    pub fn of(program: &Program, cex: &Counterexample) -> LibraryCalls {
        let mut calls = LibraryCalls::default();
        let allocators = allocator_calls(program);
        let result_sites = result_function_sites(program);
        // The allocator whose failure flag came last and said "succeeds":
        // the block's contents come next.
        let mut pending: Option<(&'static str, Loc)> = None;
        for input in &cex.inputs {
            let open = pending.take();
            match &input.kind {
                InputKind::AllocationFailure => {
                    let fails = input.bytes.iter().any(|&b| b != 0);
                    match allocators.get(&input.loc) {
                        Some(&allocator) if !program.files.is_library_model(input.loc) => {
                            calls.allocations.entry(allocator).or_default().push(Allocation { fails, contents: None });
                            pending = (!fails).then_some((allocator, input.loc));
                        }
                        _ if fails => calls.note("an allocation inside a library function fails on the counterexample's path (the native library's succeeds)"),
                        _ => {}
                    }
                }
                InputKind::Uninitialized(name) if !program.files.is_library_model(input.loc) => {
                    let Some(allocator) = block_allocator(name) else { continue };
                    let contents = Some((input.bytes.clone(), input.fill));
                    let record = calls.allocations.entry(allocator).or_default();
                    match (open, record.last_mut()) {
                        (Some((a, loc)), Some(last)) if a == allocator && loc == input.loc => last.contents = contents,
                        _ => record.push(Allocation { fails: false, contents }),
                    }
                }
                InputKind::Nondet | InputKind::NondetCall(_) => {
                    let Some(&(name, ref ret)) = result_sites.get(&input.loc) else { continue };
                    calls.results.entry(name).or_insert_with(|| (ret.clone(), Vec::new())).1.push(input.bytes.clone());
                }
                _ => {}
            }
        }
        calls
    }

    fn note(&mut self, what: &str) {
        if !self.notes.iter().any(|n| n == what) {
            self.notes.push(what.to_string());
        }
    }

    /// The library functions the harness answers, by their names in the program.
    pub fn renamed(&self) -> Vec<&'static str> {
        self.allocations.keys().chain(self.results.keys()).copied().collect()
    }

    /// The lines a rewritten copy starts with: a declaration of each
    /// renamed allocator (unprototyped, so a program's own declaration of
    /// it, renamed too, agrees) and the renaming macros.
    pub fn macros(&self) -> String {
        let mut out = String::new();
        for name in self.renamed() {
            if self.allocations.contains_key(name) {
                let _ = writeln!(out, "void *{RENAMED_PREFIX}{name}();");
            }
            let _ = writeln!(out, "#define {name} {RENAMED_PREFIX}{name}");
        }
        out
    }

    /// The harness's definitions of the renamed functions.
    pub fn definitions(&self) -> String {
        if self.renamed().is_empty() {
            return String::new();
        }
        let mut out = String::new();
        if !self.allocations.is_empty() {
            out += ALLOCATION_SUPPORT;
        }
        for (allocator, calls) in &self.allocations {
            out += &allocator_definition(allocator, calls);
        }
        for (name, (ret, values)) in &self.results {
            out += &result_definition(name, ret, values);
        }
        out
    }
}

/// The allocator each program call of `malloc`, `calloc` or `realloc` calls, by the call's location.
fn allocator_calls(program: &Program) -> HashMap<Loc, &'static str> {
    let mut found = HashMap::new();
    for function in program.functions.values() {
        for instr in function.body.iter().flatten() {
            let InstrKind::Call { callee, .. } = &instr.kind else { continue };
            let Some(called) = program.called_function(callee) else { continue };
            let name = program.functions[called].name.as_str();
            if let Some(&(allocator, _, _)) = ALLOCATORS.iter().find(|(a, _, _)| *a == name) {
                found.insert(instr.loc, allocator);
            }
        }
    }
    found
}

/// The allocator of a heap block named `name` (`malloc` by symex, `malloc#3` by the interpreter).
fn block_allocator(name: &str) -> Option<&'static str> {
    let allocator = match name.split_once('#') {
        Some((allocator, number)) => number.parse::<u64>().is_ok().then_some(allocator)?,
        None => name,
    };
    ALLOCATORS.iter().map(|(a, _, _)| *a).find(|a| *a == allocator)
}

/// The locations inside the models of the result functions, with the
/// function's name and C return type.
fn result_function_sites(program: &Program) -> HashMap<Loc, (&'static str, String)> {
    let mut sites = HashMap::new();
    for name in RESULT_FUNCTIONS {
        let Some(id) = program.function(name) else { continue };
        let function = &program.functions[id];
        let Some(body) = &function.body else { continue };
        let Type::Function(sig) = program.types.get(function.ty) else { continue };
        let Some(ret) = c_type(program, sig.ret) else { continue };
        for instr in body.iter().filter(|i| program.files.is_library_model(i.loc)) {
            sites.insert(instr.loc, (name, ret.clone()));
        }
    }
    sites
}

/// What every allocator's definition uses: the next outcome of a call and
/// the filling of a new block with its contents.
const ALLOCATION_SUPPORT: &str = "/* The counterexample's outcome of one allocation: whether it fails, and the block's contents. */
struct harness_allocation { int fails, filled; const unsigned char *bytes; unsigned long size; unsigned char fill; };

static const struct harness_allocation *harness_next_allocation(const struct harness_allocation *calls, unsigned long count, unsigned long *next)
{
    return *next < count ? &calls[(*next)++] : 0;
}

/* The given bytes, then the fill byte for at most HARNESS_FILL_TAIL more: past them a large
   block keeps the allocator's contents (filling gigabytes would take the run's time). */
#define HARNESS_FILL_TAIL 65536UL
static void *harness_fill_block(void *block, unsigned long size, const struct harness_allocation *outcome)
{
    if (block && outcome && outcome->filled) {
        unsigned long given = outcome->size < size ? outcome->size : size;
        unsigned long tail = size - given < HARNESS_FILL_TAIL ? size - given : HARNESS_FILL_TAIL;
        memcpy(block, outcome->bytes, given);
        memset((unsigned char *)block + given, outcome->fill, tail);
    }
    return block;
}

";

fn allocator_definition(allocator: &str, calls: &[Allocation]) -> String {
    let (_, params, call) = ALLOCATORS.iter().find(|(a, _, _)| *a == allocator).expect("a known allocator");
    let mut out = String::new();
    for (n, call) in calls.iter().enumerate() {
        if let Some((bytes, _)) = &call.contents {
            let _ = writeln!(out, "static const unsigned char harness_{allocator}_{n}[] = {{{}}};", byte_list(bytes));
        }
    }
    let _ = writeln!(out, "/* The outcomes of the program's calls of `{allocator}`, in order. */");
    let _ = writeln!(out, "static const struct harness_allocation harness_{allocator}_calls[] = {{");
    for (n, call) in calls.iter().enumerate() {
        let _ = match &call.contents {
            Some((bytes, fill)) => writeln!(out, "    {{{}, 1, harness_{allocator}_{n}, {}, 0x{fill:02x}}},", call.fails as u8, bytes.len()),
            None => writeln!(out, "    {{{}, 0, 0, 0, 0}},", call.fails as u8),
        };
    }
    out += "};\n";
    let _ = writeln!(out, "static unsigned long harness_{allocator}_next;\n");
    let _ = writeln!(out, "void *{RENAMED_PREFIX}{allocator}({params})\n{{");
    let _ = writeln!(
        out,
        "    const struct harness_allocation *outcome = harness_next_allocation(harness_{allocator}_calls, {}, &harness_{allocator}_next);",
        calls.len()
    );
    out += "    if (outcome && outcome->fails)\n        return 0;\n";
    let filled = if allocator == "malloc" { format!("harness_fill_block({call}, size, outcome)") } else { call.to_string() };
    let _ = writeln!(out, "    return {filled};\n}}\n");
    out
}

fn result_definition(name: &str, ret: &str, values: &[Vec<u8>]) -> String {
    let width = values.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let mut out = format!("/* The results of the program's calls of `{name}`, in order (zero past them). */\n");
    let _ = writeln!(out, "static const unsigned char harness_{name}_results[][{width}] = {{");
    for value in values {
        let mut bytes = value.clone();
        bytes.resize(width, 0);
        let _ = writeln!(out, "    {{{}}},", byte_list(&bytes));
    }
    out += "};\n";
    let _ = writeln!(out, "static const unsigned long harness_{name}_results_count = {};", values.len());
    let _ = writeln!(out, "static unsigned long harness_{name}_results_next;\n");
    let _ = writeln!(out, "{ret} {RENAMED_PREFIX}{name}(void)\n{{\n    {ret} value;\n    HARNESS_NEXT(harness_{name}_results, value);\n    return value;\n}}\n");
    out
}

/// The offsets where `text` (a program file) names `name` in its code.
pub(crate) fn occurrences<'t>(text: &'t str, code: &'t [bool], name: &'t str) -> impl Iterator<Item = usize> + 't {
    let bytes = text.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    text.match_indices(name)
        .map(|(i, _)| i)
        .filter(move |&i| code[i] && (i == 0 || !is_ident(bytes[i - 1])) && !bytes.get(i + name.len()).is_some_and(|&b| is_ident(b)))
}

/// Whether `text` (a program file) names `name` in its code.
pub fn names(text: &str, code: &[bool], name: &str) -> bool {
    occurrences(text, code, name).next().is_some()
}

/// Whether `text` may declare the function `name`: a mention after a
/// word other than a statement keyword (a type), or after `*` (a
/// pointer type, or a product: taken as a declaration either way).
pub fn declares(text: &str, code: &[bool], name: &str) -> bool {
    occurrences(text, code, name).any(|at| is_declared_at(text, at))
}

/// Whether the mention of a name at `at` in `text` may declare it (see [`declares`]).
pub(crate) fn is_declared_at(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end();
    let word_start = before.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    let word = &before[word_start..];
    before.ends_with('*') || (!word.is_empty() && !["return", "case", "sizeof", "else", "do"].contains(&word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_blocks_are_named_by_their_allocator() {
        assert_eq!(block_allocator("malloc#3"), Some("malloc"));
        assert_eq!(block_allocator("realloc#12"), Some("realloc"));
        assert_eq!(block_allocator("alloca#1"), None);
        assert_eq!(block_allocator("malloc"), Some("malloc"));
        assert_eq!(block_allocator("malloc#x"), None);
    }

    #[test]
    fn names_are_whole_identifiers_in_code() {
        let text = "int mallocs; /* malloc */ void *p = malloc (4); char *s = \"rand\";";
        let code = crate::harness_locals::code_mask(text);
        assert!(names(text, &code, "malloc"));
        assert!(!names(text, &code, "rand"));
        assert!(!names("int my_malloc;", &crate::harness_locals::code_mask("int my_malloc;"), "malloc"));
    }

    #[test]
    fn declarations_are_told_from_calls() {
        let declared = |text: &str| declares(text, &crate::harness_locals::code_mask(text), "nondet_float");
        assert!(declared("float nondet_float(void);"));
        assert!(declared("extern float\nnondet_float();"));
        assert!(!declared("float x = nondet_float();"));
        assert!(!declared("  return nondet_float() + 1;\n  f(nondet_float());"));
    }

    #[test]
    fn a_failing_call_returns_null_and_others_get_their_contents() {
        let calls = [Allocation { fails: true, contents: None }, Allocation { fails: false, contents: Some((vec![7, 8], 0xbe)) }];
        let text = allocator_definition("malloc", &calls);
        assert!(text.contains("{1, 0, 0, 0, 0},"), "{text}");
        assert!(text.contains("{0, 1, harness_malloc_1, 2, 0xbe},"), "{text}");
        assert!(text.contains("void *__tarsier_harness_malloc(__SIZE_TYPE__ size)"), "{text}");
        assert!(text.contains("return harness_fill_block(malloc(size), size, outcome);"), "{text}");
    }
}
