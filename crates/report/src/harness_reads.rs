//! Discarded reads in the executable harness. An expression statement
//! that only reads an object (`p[i];`, `s->f;`) reads it in the C
//! abstract machine — an out-of-bounds or invalid one is the violation
//! tarsier reports — but gcc leaves the read out, even at -O0, so the
//! sanitizers see nothing. When the violation lies in such a statement,
//! the rewritten copy performs the read: the statement `E;` becomes
//! `__tarsier_harness_read(&(E), sizeof (E));`, which evaluates `E`'s
//! address once (its side effects stay single) and reads its bytes
//! through a volatile pointer in the harness, where AddressSanitizer
//! checks them. Only a statement the text shows to be a plain lvalue is
//! rewritten: no call, assignment or comma, not a declaration, and
//! ending in a subscript or a member (or starting with `*`). A discarded
//! call of a pure library function (`memchr(a, c, n);`), which gcc drops
//! too, keeps its result in a volatile local, so the call is made and
//! AddressSanitizer's interceptor checks its range.
//!
//! A subscript of a named pointer or array (`p[i];`) may leave the object
//! `p` points into and land in another one, whose bytes AddressSanitizer
//! does not poison (a string literal's left neighbour is often data it
//! does not instrument). That read goes through
//! `__tarsier_harness_read_in(p, &(p[i]), size)`, which asks
//! AddressSanitizer for the global or heap object holding `p`'s byte and,
//! when the read leaves it, has AddressSanitizer report the read (whose
//! description names the object and the distance).

use ir::Loc;

/// The function the rewritten statement calls.
pub const READ_FUNCTION: &str = "__tarsier_harness_read";

/// The function the rewritten statement calls for a subscript of a named base.
const READ_IN_FUNCTION: &str = "__tarsier_harness_read_in";

/// The declaration the copy starts with when it performs a read.
pub fn declaration() -> String {
    format!(
        "void {READ_FUNCTION}(const volatile void *, unsigned long);\n\
         void {READ_IN_FUNCTION}(const volatile void *, const volatile void *, unsigned long);\n"
    )
}

/// The harness's definition of the read.
pub fn definition() -> String {
    format!(
        "/* The read a discarded lvalue makes in the C abstract machine, which gcc leaves out. */\n\
         void {READ_FUNCTION}(const volatile void *object, unsigned long size)\n{{\n    \
         const volatile unsigned char *byte = object;\n    \
         for (unsigned long i = 0; i < size; i++)\n        \
         (void)byte[i];\n}}\n\n{}",
        READ_IN_DEFINITION
    )
}

/// The checked read of a subscript: AddressSanitizer's object holding the
/// base's byte (a global or a heap block), and the read when it stays in
/// it; one that leaves it, AddressSanitizer reports. A base outside every
/// object (one past an end, say) is not checked.
const READ_IN_DEFINITION: &str = r#"#include <sanitizer/asan_interface.h>
/* The read of BASE[i] at OBJECT: outside the object BASE points into, AddressSanitizer reports it. */
void __tarsier_harness_read_in(const volatile void *base, const volatile void *object, unsigned long size)
{
    char name[8];
    void *region = 0;
    size_t length = 0;
    const char *kind = base ? __asan_locate_address((void *)base, name, sizeof name, &region, &length) : "";
    const char *start = region, *at = (const char *)object, *from = (const char *)base;
    int known = base && (strcmp(kind, "global") == 0 || strcmp(kind, "heap") == 0) && start && from >= start && from < start + length;
    if (known && (at < start || at + size > start + length)) {
        fprintf(stderr, "harness: the read of %lu bytes at %p leaves the object [%p, %p) its base %p points into\n",
                size, (void *)at, (void *)start, (void *)(start + length), (void *)from);
        __asan_report_error(__builtin_return_address(0), __builtin_frame_address(0), __builtin_frame_address(0), (void *)at, 0, size);
    }
    __tarsier_harness_read(object, size);
}

"#;

/// `text` (a program file) with the discarded read at `loc` performed, or
/// `None` when the statement there is not a plain discarded read. The
/// replacement keeps the statement on its lines.
pub fn rewrite(text: &str, loc: Loc) -> Option<String> {
    let code = crate::harness_locals::code_mask(text);
    let line_start = text.split_inclusive('\n').take(loc.line.checked_sub(1)? as usize).map(str::len).sum::<usize>();
    let at = line_start + (loc.col.max(1) as usize - 1);
    if at >= text.len() || !code[at] {
        return None;
    }
    let (around, end) = statement_around(text, &code, at)?;
    // Comments before the statement are not part of it.
    let around = (around..end).find(|&i| code[i] && !text.as_bytes()[i].is_ascii_whitespace())?;
    let expression = text[around..end].trim();
    if !is_plain_lvalue(expression) && !is_pure_call(expression) {
        return None;
    }
    let start = around + (text[around..end].len() - text[around..end].trim_start().len());
    let end = start + expression.len();
    let replacement = match (is_plain_lvalue(expression), subscripted_name(expression)) {
        // `i[p]` is allowed too: only a pointer base is checked.
        (true, Some(base)) => format!(
            "{READ_IN_FUNCTION}(__builtin_classify_type({base}) == 5 ? (const volatile void *)(__UINTPTR_TYPE__)({base}) : 0, &({expression}), sizeof ({expression}))"
        ),
        (true, None) => format!("{READ_FUNCTION}(&({expression}), sizeof ({expression}))"),
        (false, _) => format!("({{ __typeof__({expression}) volatile __tarsier_harness_kept = ({expression}); (void)__tarsier_harness_kept; }})"),
    };
    Some(format!("{}{replacement}{}", &text[..start], &text[end..]))
}

/// The name `p` of a plain lvalue `p[...]`: one subscript of a named
/// pointer or array (a second one may read another object: `rows[i][j]`),
/// which names its object without side effects.
fn subscripted_name(expression: &str) -> Option<&str> {
    let end = expression.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let name = &expression[..end];
    let starts_as_name = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let subscript = expression[end..].trim_start();
    let mut depth = 0;
    let closing = subscript.char_indices().find(|&(_, c)| {
        depth += match c {
            '[' => 1,
            ']' => -1,
            _ => 0,
        };
        depth == 0
    });
    let single = subscript.starts_with('[') && closing.is_some_and(|(at, _)| at == subscript.len() - 1);
    (starts_as_name && single).then_some(name)
}

/// The bounds of the expression statement holding `at` (without its `;`):
/// after the `;`, brace or label colon before it, up to the `;` after it,
/// both outside brackets. `None` when `at` is inside brackets of an
/// enclosing construct (an `if` condition, a call's arguments).
fn statement_around(text: &str, code: &[bool], at: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    let mut start = 0;
    for i in (0..at).rev().filter(|&i| code[i]) {
        match bytes[i] {
            b')' if depth == 0 && closes_statement_head(text, code, i) => {
                start = i + 1;
                break;
            }
            b')' | b']' => depth += 1,
            b'(' | b'[' => depth -= 1,
            b';' | b'{' | b'}' | b':' if depth == 0 => {
                start = i + 1;
                break;
            }
            b'e' | b'o' if depth == 0 && (word_ends(text, i, "else") || word_ends(text, i, "do")) => {
                start = i + 1;
                break;
            }
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    let mut depth = 0i32;
    for i in (at..bytes.len()).filter(|&i| code[i]) {
        match bytes[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' if depth == 0 => return Some((start, i)),
            b'{' | b'}' | b',' | b'?' if depth == 0 => return None,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    None
}

/// Whether the `)` at `close` ends the head of an `if`, `while` or `for`
/// (the statement after it is their body).
fn closes_statement_head(text: &str, code: &[bool], close: usize) -> bool {
    let bytes = text.as_bytes();
    let mut depth = 0;
    for i in (0..close).rev().filter(|&i| code[i]) {
        match bytes[i] {
            b')' => depth += 1,
            b'(' if depth > 0 => depth -= 1,
            b'(' => {
                let before = text[..i].trim_end();
                return ["if", "while", "for"].iter().any(|w| before.len() >= w.len() && word_ends(before, before.len() - 1, w));
            }
            _ => {}
        }
    }
    false
}

/// Whether the word `word` ends at `at` in `text`, as a whole word.
fn word_ends(text: &str, at: usize, word: &str) -> bool {
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    let Some(start) = (at + 1).checked_sub(word.len()) else { return false };
    text.get(start..=at) == Some(word)
        && (start == 0 || !is_ident(bytes[start - 1]))
        && !bytes.get(at + 1).is_some_and(|&b| is_ident(b))
}

/// C library functions gcc knows to have no effect but their result (it
/// drops a call whose result is unused, even at -O0).
const PURE_FUNCTIONS: [&str; 12] =
    ["memchr", "memcmp", "strlen", "strnlen", "strcmp", "strncmp", "strchr", "strrchr", "strstr", "strspn", "strcspn", "strpbrk"];

/// Whether `expression` is, by its text, one call of a pure library
/// function with arguments that assign nothing.
fn is_pure_call(expression: &str) -> bool {
    let Some((name, rest)) = expression.split_once('(') else { return false };
    let arguments = rest.strip_suffix(')').unwrap_or("");
    let balanced = arguments.chars().try_fold(0i32, |depth, c| {
        let depth = depth + i32::from(c == '(') - i32::from(c == ')');
        (depth >= 0).then_some(depth)
    }) == Some(0);
    PURE_FUNCTIONS.contains(&name.trim()) && rest.ends_with(')') && balanced && !arguments.replace("==", "").replace("!=", "").contains(['=', '{'])
        && !arguments.contains("++") && !arguments.contains("--")
}

/// C keywords that start a statement or a declaration.
const KEYWORDS: [&str; 30] = [
    "if", "else", "while", "do", "for", "switch", "case", "default", "return", "goto", "break", "continue", "int", "char", "short", "long",
    "unsigned", "signed", "float", "double", "void", "struct", "union", "enum", "const", "volatile", "static", "extern", "typedef",
    "_Bool",
];

/// Whether `expression` is, by its text, an lvalue read with no call,
/// assignment or comma: a subscript or member access (or a dereference).
fn is_plain_lvalue(expression: &str) -> bool {
    let bytes = expression.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    if expression.is_empty() || expression.contains(['=', ',', '"', '\'', '{', '}', '?']) {
        return false;
    }
    let words: Vec<(usize, &str)> = words(expression);
    if words.iter().any(|(_, w)| KEYWORDS.contains(w)) {
        return false;
    }
    for (i, (at, word)) in words.iter().enumerate() {
        let after = expression[at + word.len()..].trim_start();
        if after.starts_with('(') && *word != "sizeof" {
            return false; // a call
        }
        // Two words in a row outside brackets: a declaration.
        if let Some((next, _)) = words.get(i + 1) {
            if expression[at + word.len()..*next].trim().is_empty() && !word.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
        }
    }
    if expression.contains(")(") {
        return false;
    }
    let last = bytes[bytes.len() - 1];
    let ends_in_member = is_ident(last) && {
        let head = expression.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_').trim_end();
        head.ends_with('.') || head.ends_with("->")
    };
    last == b']' || ends_in_member || expression.starts_with('*')
}

/// The identifiers and numbers of `text`, with their offsets.
fn words(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if is_ident(bytes[i]) {
            let start = i;
            while i < bytes.len() && is_ident(bytes[i]) {
                i += 1;
            }
            found.push((start, &text[start..i]));
        } else {
            i += 1;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::FileId;

    fn at(line: u32, col: u32) -> Loc {
        Loc { file: FileId(1), line, col }
    }

    #[test]
    fn a_discarded_subscript_or_member_is_read() {
        let text = "int main() {\n  int i = -5;\n  p[i];\n  switch (x) case 0: (b++)->d.c;\n  if (i < 0) *q; else s.t[2];\n}\n";
        let out = rewrite(text, at(3, 3)).expect("rewritten");
        assert!(out.contains("\n  __tarsier_harness_read_in(__builtin_classify_type(p) == 5 ? (const volatile void *)(__UINTPTR_TYPE__)(p) : 0, &(p[i]), sizeof (p[i]));\n"), "{out}");
        let out = rewrite(text, at(4, 22)).expect("rewritten");
        assert!(out.contains("case 0: __tarsier_harness_read(&((b++)->d.c), sizeof ((b++)->d.c));\n"), "{out}");
        assert_eq!(out.lines().count(), text.lines().count());
        let out = rewrite(text, at(5, 15)).expect("rewritten");
        assert!(out.contains("if (i < 0) __tarsier_harness_read(&(*q), sizeof (*q)); else"), "{out}");
        let out = rewrite(text, at(5, 24)).expect("rewritten");
        assert!(out.contains("else __tarsier_harness_read(&(s.t[2]), sizeof (s.t[2]));"), "{out}");
        let subscripts = "a[1][j];\n";
        assert_eq!(rewrite(subscripts, at(1, 1)).expect("rewritten"), "__tarsier_harness_read(&(a[1][j]), sizeof (a[1][j]));\n");
    }

    #[test]
    fn a_discarded_pure_call_is_kept() {
        let text = "  /* too far */ memchr(a, 9, 8);\n";
        let out = rewrite(text, at(1, 17)).expect("rewritten");
        assert_eq!(out, "  /* too far */ ({ __typeof__(memchr(a, 9, 8)) volatile __tarsier_harness_kept = (memchr(a, 9, 8)); (void)__tarsier_harness_kept; });\n");
        for text in ["free(p);\n", "strlen(s = t);\n", "strlen(s)(x);\n", "strlen(p++);\n"] {
            assert_eq!(rewrite(text, at(1, 1)), None, "{text}");
        }
    }

    #[test]
    fn other_statements_are_left_alone() {
        for text in ["x = p[i];\n", "f(p[i]);\n", "if (p[i]) y;\n", "(p)[i] + g(x)[1];\n", "return p[i];\n", "int a[3];\n", "p[i], q[i];\n", "g(x)->y;\n", "a + b;\n"] {
            assert_eq!(rewrite(text, at(1, 1)), None, "{text}");
        }
        let call_argument = "f(p[i]);\n";
        assert_eq!(rewrite(call_argument, at(1, 3)), None);
    }

    #[test]
    fn the_read_touches_every_byte_through_a_volatile_pointer() {
        assert!(definition().contains("const volatile unsigned char *byte = object;"));
        assert!(declaration().starts_with("void __tarsier_harness_read(const volatile void *, unsigned long);"));
    }
}
