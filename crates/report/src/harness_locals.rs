//! Uninitialised locals in the executable harness. The verifier reads a
//! local declared without an initializer as a nondeterministic value
//! (ESBMC's and CBMC's semantics); C leaves it indeterminate, and no other
//! translation unit can set it. So when a counterexample depends on such
//! values, the harness comes with a copy of each program file that reads
//! them, rewritten only by a call after each such declaration,
//! `__tarsier_harness_fill(&x, sizeof x, SITE)`, which stores the
//! counterexample's value of that declaration's next execution (one queue
//! per declaration). A `#line` directive keeps the copy's lines and file
//! name those of the original. The copy is built instead of the original,
//! with `-iquote` the original's folder for its `#include "..."` files.
//!
//! A declaration the rewrite cannot place a statement after (in a `for`
//! header, inside a macro expansion, in a header file) is listed as not
//! reproduced.

use engine::Counterexample;
use ir::interp::InputKind;
use ir::{FileId, InstrKind, Loc, Program, SymbolKind};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// The function the rewritten copies call after each declaration.
pub const FILL_FUNCTION: &str = "__tarsier_harness_fill";

/// One declaration without an initializer whose values the counterexample gives.
pub struct Site {
    pub name: String,
    pub loc: Loc,
    /// The values of its executions in order: bytes, then the byte of every later offset.
    pub values: Vec<(Vec<u8>, u8)>,
}

/// The declarations of user-visible locals, by the location and name of their declarator.
fn declarations(program: &Program) -> HashMap<(Loc, &str), ()> {
    let mut found = HashMap::new();
    for function in program.functions.values() {
        for instr in function.body.iter().flatten() {
            let InstrKind::Decl(sym) = instr.kind else { continue };
            let symbol = &program.symbols[sym];
            // A repeated declaration (where a jump may enter the block) has another location.
            let user_visible = matches!(symbol.kind, SymbolKind::Local(_)) && !symbol.display_name.starts_with('$');
            if user_visible && symbol.loc == instr.loc {
                found.insert((instr.loc, symbol.display_name.as_str()), ());
            }
        }
    }
    found
}

/// The counterexample's values of uninitialised locals, by file, each
/// file's sites in the order of their first value.
pub fn sites(program: &Program, cex: &Counterexample) -> BTreeMap<FileId, Vec<Site>> {
    let declared = declarations(program);
    let mut by_file: BTreeMap<FileId, Vec<Site>> = BTreeMap::new();
    for input in &cex.inputs {
        let InputKind::Uninitialized(name) = &input.kind else { continue };
        if input.loc.is_none() || program.files.is_library_model(input.loc) || !declared.contains_key(&(input.loc, name.as_str())) {
            continue;
        }
        let sites = by_file.entry(input.loc.file).or_default();
        let value = (input.bytes.clone(), input.fill);
        match sites.iter_mut().find(|s| s.loc == input.loc && s.name == *name) {
            Some(site) => site.values.push(value),
            None => sites.push(Site { name: name.clone(), loc: input.loc, values: vec![value] }),
        }
    }
    by_file
}

/// A program file rewritten for its uninitialised locals.
pub struct Rewrite {
    /// The copy's text; `None` when no site needs a fill.
    pub text: Option<String>,
    /// The sites filled, in the order of their numbers.
    pub filled: Vec<Site>,
    /// The sites the rewrite cannot place a fill for, with why.
    pub skipped: Vec<String>,
}

/// `text` (the file `path`) with a fill call after the declaration of each
/// site without an initializer, numbered from `first_id` in order, and
/// `prefix` (declarations and macros of the harness) before it all.
pub fn rewrite(text: &str, path: &str, sites: Vec<Site>, first_id: usize, prefix: &str) -> Rewrite {
    let masked = code_mask(text);
    let line_starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let mut insertions: BTreeMap<usize, String> = BTreeMap::new();
    let mut done = Rewrite { text: None, filled: Vec::new(), skipped: Vec::new() };
    for site in sites {
        let placed = identifier_at(text, &masked, &line_starts, &site).and_then(|at| match has_initializer(text, &masked, at + site.name.len()) {
            true => Ok(None),
            false => declaration_end(text, &masked, at).map(Some),
        });
        match placed {
            // Its initializer gives its value.
            Ok(None) => {}
            Ok(Some(end)) => {
                let call = format!(" {FILL_FUNCTION}(&{0}, sizeof {0}, {1});", site.name, first_id + done.filled.len());
                insertions.entry(end).or_default().push_str(&call);
                done.filled.push(site);
            }
            Err(why) => done.skipped.push(format!("the uninitialised local `{}` at {path}:{}: {why}", site.name, site.loc.line)),
        }
    }
    if insertions.is_empty() && prefix.is_empty() {
        return done;
    }
    let mut out = format!("void {FILL_FUNCTION}(void *, unsigned long, unsigned);\n{prefix}#line 1 \"{}\"\n", c_string(path));
    let mut from = 0;
    for (&at, call) in &insertions {
        out += &text[from..at];
        out += call;
        from = at;
    }
    out += &text[from..];
    done.text = Some(out);
    done
}

/// The C definitions the harness adds for `sites` (numbered in order): the
/// values of each and the fill function.
pub fn fill_definitions(sites: &[Site]) -> String {
    let mut out = String::from("/* Values of the uninitialised locals the rewritten program reads, per declaration, in order. */\n");
    out += "struct harness_value { const unsigned char *bytes; unsigned long size; unsigned char fill; };\n";
    out += "struct harness_site { const struct harness_value *values; unsigned long count, next; };\n";
    for (id, site) in sites.iter().enumerate() {
        for (n, (bytes, _)) in site.values.iter().enumerate() {
            let _ = writeln!(out, "static const unsigned char harness_local_{id}_{n}[] = {{{}}};", crate::harness::byte_list(bytes));
        }
        let _ = writeln!(out, "/* `{}` at line {} */", site.name, site.loc.line);
        let _ = writeln!(out, "static const struct harness_value harness_local_{id}[] = {{");
        for (n, (bytes, fill)) in site.values.iter().enumerate() {
            let _ = writeln!(out, "    {{harness_local_{id}_{n}, {}, 0x{fill:02x}}},", bytes.len());
        }
        out += "};\n";
    }
    out += "static struct harness_site harness_sites[] = {\n";
    for id in 0..sites.len() {
        let _ = writeln!(out, "    {{harness_local_{id}, sizeof harness_local_{id} / sizeof harness_local_{id}[0], 0}},");
    }
    out += "};\n\n";
    let _ = writeln!(out, "void {FILL_FUNCTION}(void *object, unsigned long size, unsigned site)\n{{");
    out += "    struct harness_site *s = &harness_sites[site];\n";
    out += "    if (s->next >= s->count) {\n        memset(object, 0, size);\n        return;\n    }\n";
    out += "    const struct harness_value *v = &s->values[s->next++];\n";
    out += "    memset(object, v->fill, size);\n";
    out += "    memcpy(object, v->bytes, v->size < size ? v->size : size);\n}\n";
    out
}

/// `path` inside a C string literal.
fn c_string(path: &str) -> String {
    path.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Per byte of `text`: whether it is code (not in a comment, a string or
/// character literal, or a preprocessor directive).
pub(crate) fn code_mask(text: &str) -> Vec<bool> {
    let bytes = text.as_bytes();
    let mut code = vec![true; bytes.len()];
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let start = i;
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_line(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(bytes.len());
            }
            b'#' if line_start => i = skip_line(bytes, i),
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
            }
            _ => {
                line_start = match bytes[i] {
                    b'\n' => true,
                    b' ' | b'\t' | b'\r' => line_start,
                    _ => false,
                };
                i += 1;
                continue;
            }
        }
        code[start..i].iter_mut().for_each(|c| *c = false);
        line_start = bytes.get(i.wrapping_sub(1)) == Some(&b'\n');
    }
    code
}

/// The index past the line at `i`, following backslash continuations (the newline stays).
fn skip_line(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i] != b'\n' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    i.min(bytes.len())
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The offset of the site's declarator: the one occurrence of its name on
/// its line, or the one at its column (preprocessing may have shifted columns).
fn identifier_at(text: &str, code: &[bool], line_starts: &[usize], site: &Site) -> Result<usize, String> {
    let start = *line_starts.get(site.loc.line as usize - 1).ok_or("the line is not in the file")?;
    let end = line_starts.get(site.loc.line as usize).copied().unwrap_or(text.len());
    let bytes = text.as_bytes();
    let found: Vec<usize> = text[start..end]
        .match_indices(site.name.as_str())
        .map(|(i, _)| start + i)
        .filter(|&i| code[i] && (i == 0 || !is_ident_byte(bytes[i - 1])) && !bytes.get(i + site.name.len()).is_some_and(|&b| is_ident_byte(b)))
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        _ => found.into_iter().find(|&i| i - start + 1 == site.loc.col as usize).ok_or_else(|| "its declarator is not in the file's text (a macro?)".into()),
    }
}

/// Whether the declarator ending before `from` has an initializer: an `=`
/// outside brackets before the next `,` or `;`.
fn has_initializer(text: &str, code: &[bool], from: usize) -> bool {
    let mut depth = 0usize;
    for i in (from..text.len()).filter(|&i| code[i]) {
        match text.as_bytes()[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'=' if depth == 0 => return true,
            b',' | b';' if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

/// The offset just past the `;` that ends the declaration whose declarator
/// starts at `at`; an error in a `for` header.
fn declaration_end(text: &str, code: &[bool], at: usize) -> Result<usize, String> {
    let bytes = text.as_bytes();
    // Backwards: an unclosed `(` right after `for` means a `for` header.
    let mut depth = 0usize;
    for i in (0..at).rev().filter(|&i| code[i]) {
        match bytes[i] {
            b')' => depth += 1,
            b'(' if depth > 0 => depth -= 1,
            b'(' => {
                let before = text[..i].trim_end();
                let word_before = before.strip_suffix("for").map(|rest| rest.bytes().last().is_some_and(is_ident_byte));
                if word_before == Some(false) {
                    return Err("it is in a `for` header".into());
                }
            }
            b';' | b'{' | b'}' if depth == 0 => break,
            _ => {}
        }
    }
    // Forwards: the first `;` outside brackets; a declarator's own `)` closes nothing.
    let mut depth = 0usize;
    for i in (at..bytes.len()).filter(|&i| code[i]) {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'}' if depth == 0 => break,
            b'}' => depth -= 1,
            b';' if depth == 0 => return Ok(i + 1),
            _ => {}
        }
    }
    Err("the end of its declaration was not found".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(name: &str, line: u32, col: u32) -> Site {
        Site { name: name.into(), loc: Loc { file: FileId(1), line, col }, values: vec![(vec![1], 0)] }
    }

    #[test]
    fn fills_follow_the_whole_declaration() {
        let text = "int main() {\n  int a, b[2] = {1, 2}, (*f)(int);\n  struct { int x; } s; /* s; */\n  return a;\n}\n";
        let done = rewrite(text, "m.c", vec![site("a", 2, 7), site("b", 2, 10), site("f", 2, 27), site("s", 3, 21)], 0, "");
        assert!(done.skipped.is_empty(), "{:?}", done.skipped);
        assert_eq!(done.filled.len(), 3);
        let out = done.text.expect("rewritten");
        assert!(out.starts_with("void __tarsier_harness_fill(void *, unsigned long, unsigned);\n#line 1 \"m.c\"\nint main() {\n"), "{out}");
        assert!(out.contains("(*f)(int); __tarsier_harness_fill(&a, sizeof a, 0); __tarsier_harness_fill(&f, sizeof f, 1);\n"), "{out}");
        assert!(out.contains("struct { int x; } s; __tarsier_harness_fill(&s, sizeof s, 2); /* s; */"), "{out}");
    }

    #[test]
    fn a_for_header_or_a_missing_name_is_skipped() {
        let text = "void g() {\n  for (int i; i < 3; i++) {}\n  // int k;\n}\n";
        let done = rewrite(text, "m.c", vec![site("i", 2, 12), site("k", 3, 9)], 0, "");
        assert_eq!(done.skipped.len(), 2, "{:?}", done.skipped);
        assert!(done.skipped[0].contains("`for` header"), "{:?}", done.skipped);
        assert!(done.text.is_none());
    }
}
