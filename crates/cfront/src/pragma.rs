//! Loop-unrolling pragmas: `#pragma unroll [N]`, `#pragma GCC unroll N` and
//! `#pragma clang loop unroll_count(N)` / `unroll(full)`. For a verifier
//! they bound the unwinding of the loop that follows, as ESBMC reads them:
//! the count replaces `--unwind` for that loop, and without a count the
//! loop is unwound until it exits. `nounroll` and the other `clang loop`
//! hints only steer a compiler's optimiser and bound nothing.
//!
//! The preprocessor leaves these pragmas unexpanded, so a count written as
//! a macro name is looked up in the object-like macro definitions that
//! `cpp -dD` keeps in its output ([`Macros`]).

use std::collections::HashMap;

/// How many macro names a count may go through before it must be a number.
const MAX_MACRO_STEPS: usize = 32;

/// What an unrolling pragma asks: `Ok(Some(n))` unwind the next loop `n`
/// times, `Ok(None)` until it exits, `Err` a count that is no integer
/// constant (the message says why).
pub type UnrollBound = Result<Option<u64>, String>;

/// The object-like macros defined so far (`#define NAME body` lines).
#[derive(Default)]
pub struct Macros {
    bodies: HashMap<String, String>,
}

impl Macros {
    /// Records `#define` with its arguments `args` (`NAME body`); a
    /// function-like macro only hides an object-like one of its name.
    pub fn define(&mut self, args: &str) {
        let (name, rest) = split_identifier(args.trim_start());
        if name.is_empty() {
            return;
        }
        if rest.starts_with('(') {
            self.bodies.remove(name);
        } else {
            self.bodies.insert(name.to_string(), rest.trim().to_string());
        }
    }

    /// Records `#undef NAME`.
    pub fn undefine(&mut self, args: &str) {
        let (name, _) = split_identifier(args.trim_start());
        self.bodies.remove(name);
    }

    /// The value of the count `text`: an integer literal, possibly in
    /// parentheses, or a macro name whose body is one.
    fn count(&self, text: &str) -> Result<u64, String> {
        let mut current = text.trim();
        for _ in 0..MAX_MACRO_STEPS {
            current = strip_parentheses(current);
            if let Some(value) = integer_literal(current) {
                return match value {
                    0 => Err(format!("unsupported: unrolling count `{}` is 0", text.trim())),
                    n => Ok(n),
                };
            }
            match self.bodies.get(current) {
                Some(body) => current = body.trim(),
                None => break,
            }
        }
        Err(format!("unsupported: unrolling count `{}` is not an integer constant", text.trim()))
    }
}

/// The bound that `#pragma` with arguments `args` gives the next loop;
/// `None` when it is no unrolling pragma.
pub fn unroll_bound(args: &str, macros: &Macros) -> Option<UnrollBound> {
    match unroll_count_text(args)? {
        UnrollText::Full => Some(Ok(None)),
        UnrollText::Count(text) => Some(macros.count(text).map(Some)),
    }
}

/// Whether some unrolling pragma in preprocessed `text` counts with a
/// name, which only the macro definitions (`cpp -dD`) can resolve.
pub fn counts_with_macros(text: &str) -> bool {
    text.lines().filter_map(pragma_arguments).filter_map(unroll_count_text).any(|count| match count {
        UnrollText::Count(text) => integer_literal(strip_parentheses(text.trim())).is_none(),
        UnrollText::Full => false,
    })
}

/// The arguments of a `#pragma` line.
fn pragma_arguments(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let (word, args) = split_identifier(rest);
    (word == "pragma").then_some(args)
}

enum UnrollText<'a> {
    Full,
    Count(&'a str),
}

fn unroll_count_text(args: &str) -> Option<UnrollText<'_>> {
    let (first, rest) = split_identifier(args.trim_start());
    match first {
        "unroll" if rest.trim().is_empty() => Some(UnrollText::Full),
        "unroll" => Some(UnrollText::Count(rest)),
        "GCC" => {
            let (second, rest) = split_identifier(rest.trim_start());
            (second == "unroll").then_some(UnrollText::Count(rest))
        }
        "clang" => {
            let (second, rest) = split_identifier(rest.trim_start());
            if second != "loop" {
                return None;
            }
            if let Some(at) = rest.find("unroll_count") {
                let inner = rest[at + "unroll_count".len()..].trim_start().strip_prefix('(')?;
                return Some(UnrollText::Count(&inner[..inner.find(')')?]));
            }
            let compact: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
            compact.contains("unroll(full)").then_some(UnrollText::Full)
        }
        _ => None,
    }
}

/// The leading identifier of `text` and what follows it.
fn split_identifier(text: &str) -> (&str, &str) {
    let end = text.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(text.len());
    text.split_at(end)
}

fn strip_parentheses(mut text: &str) -> &str {
    while let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        text = inner.trim();
    }
    text
}

/// A C integer literal (decimal, octal, hexadecimal or binary, with
/// `u`/`l` suffixes) that fits in 64 bits.
fn integer_literal(text: &str) -> Option<u64> {
    let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let lower = digits.to_ascii_lowercase();
    let (radix, body) = if let Some(hex) = lower.strip_prefix("0x") {
        (16, hex)
    } else if let Some(binary) = lower.strip_prefix("0b") {
        (2, binary)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(body, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_an_unrolling_pragma_gives_its_bound() {
        let none = Macros::default();
        assert_eq!(unroll_bound("unroll 4", &none), Some(Ok(Some(4))));
        assert_eq!(unroll_bound("unroll(0x10)", &none), Some(Ok(Some(16))));
        assert_eq!(unroll_bound("unroll", &none), Some(Ok(None)));
        assert_eq!(unroll_bound("GCC unroll 8u", &none), Some(Ok(Some(8))));
        assert_eq!(unroll_bound("clang loop vectorize(enable) unroll_count( 3 )", &none), Some(Ok(Some(3))));
        assert_eq!(unroll_bound("clang loop unroll ( full )", &none), Some(Ok(None)));
        for hint in ["clang loop unroll(enable)", "nounroll", "GCC nounroll", "unrolled 3", "once", "pack(1)"] {
            assert_eq!(unroll_bound(hint, &none), None, "{hint}");
        }
    }

    #[test]
    fn a_count_may_be_a_macro_that_is_still_defined() {
        let mut macros = Macros::default();
        macros.define("OUTER 4");
        macros.define("ALIAS (OUTER)");
        macros.define("F(x) x");
        assert_eq!(unroll_bound("unroll ALIAS", &macros), Some(Ok(Some(4))));
        macros.undefine("OUTER");
        assert!(unroll_bound("unroll ALIAS", &macros).is_some_and(|b| b.is_err()));
        assert!(unroll_bound("GCC unroll F", &macros).is_some_and(|b| b.is_err()), "a function-like macro is no count");
        assert!(unroll_bound("unroll 0", &macros).is_some_and(|b| b.is_err()));
        macros.define("SELF SELF");
        assert!(unroll_bound("unroll SELF", &macros).is_some_and(|b| b.is_err()), "a macro naming itself ends");
    }

    #[test]
    fn only_counts_written_as_names_need_the_macro_definitions() {
        assert!(counts_with_macros("int x;\n#pragma unroll N\nfor(;;);\n"));
        assert!(counts_with_macros("  #  pragma clang loop unroll_count(K)\n"));
        assert!(!counts_with_macros("#pragma unroll 4\n#pragma unroll\n#pragma once\n"));
    }
}
