//! Small semantic mutations of a C source text: a constant compared
//! shifted by one, `<` and `<=` swapped (and their kin), an array size or
//! index moved by one, an integer type's width or signedness changed, an
//! assumption removed, a loop bound changed. The text is read by a
//! minimal lexer (comments, string and character literals and
//! preprocessor lines are skipped), so a mutation touches code only; the
//! result may not compile, which the caller checks with gcc.

use crate::oracle::Rng;

/// One token of the source: its kind and byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Number,
    Punct,
}

/// The kinds of mutation, each a class of likely off-by-one mistakes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mutation {
    /// A constant next to a comparison, plus or minus one.
    ShiftConstant,
    /// `<`/`<=`, `>`/`>=`, `==`/`!=` swapped.
    SwapRelation,
    /// A constant between brackets (an array size or index) plus or minus one.
    BracketConstant,
    /// A variable index `a[i]` made `a[i + 1]` or `a[i - 1]`.
    ShiftIndex,
    /// An integer type keyword made wider, narrower, signed or unsigned.
    ChangeType,
    /// An assumption call made a plain evaluation of its condition.
    RemoveAssume,
    /// A constant in a loop header changed.
    LoopBound,
}

impl Mutation {
    pub const ALL: [Mutation; 7] = [
        Mutation::ShiftConstant,
        Mutation::SwapRelation,
        Mutation::BracketConstant,
        Mutation::ShiftIndex,
        Mutation::ChangeType,
        Mutation::RemoveAssume,
        Mutation::LoopBound,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mutation::ShiftConstant => "shift-constant",
            Mutation::SwapRelation => "swap-relation",
            Mutation::BracketConstant => "bracket-constant",
            Mutation::ShiftIndex => "shift-index",
            Mutation::ChangeType => "change-type",
            Mutation::RemoveAssume => "remove-assume",
            Mutation::LoopBound => "loop-bound",
        }
    }
}

/// An applied mutation: the new text and what changed where.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub text: String,
    pub kind: Mutation,
    /// `line N: OLD -> NEW`.
    pub description: String,
}

const COMPARISONS: [&str; 6] = ["<", "<=", ">", ">=", "==", "!="];
const ASSUMES: [&str; 4] = ["__VERIFIER_assume", "__CPROVER_assume", "__ESBMC_assume", "assume"];
const LOOPS: [&str; 2] = ["for", "while"];

/// One mutation of `text` chosen by `rng` among the sites of a kind
/// chosen among those with sites; `None` when the text has none.
pub fn mutate(text: &str, rng: &mut Rng) -> Option<Mutant> {
    let tokens = lex(text);
    let kinds: Vec<(Mutation, Vec<usize>)> =
        Mutation::ALL.iter().map(|&m| (m, sites(text, &tokens, m))).filter(|(_, s)| !s.is_empty()).collect();
    if kinds.is_empty() {
        return None;
    }
    let (kind, sites) = &kinds[rng.below(kinds.len() as u64) as usize];
    let site = sites[rng.below(sites.len() as u64) as usize];
    let (start, end, new) = edit(text, &tokens, site, *kind, rng)?;
    let line = text[..start].matches('\n').count() + 1;
    let description = format!("line {line}: `{}` -> `{}`", &text[start..end], new.trim());
    let mutated = format!("{}{}{}", &text[..start], new, &text[end..]);
    Some(Mutant { text: mutated, kind: *kind, description })
}

/// The indices of the tokens where mutation `kind` applies.
fn sites(text: &str, tokens: &[Token], kind: Mutation) -> Vec<usize> {
    let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.start..t.end]);
    let loop_header = loop_headers(text, tokens);
    (0..tokens.len())
        .filter(|&i| {
            let t = tokens[i];
            let prev = if i > 0 { s(i - 1) } else { "" };
            match kind {
                Mutation::ShiftConstant => {
                    integer(s(i)).is_some() && !loop_header[i] && (COMPARISONS.contains(&prev) || COMPARISONS.contains(&s(i + 1)))
                }
                Mutation::SwapRelation => t.kind == Kind::Punct && COMPARISONS.contains(&s(i)),
                Mutation::BracketConstant => integer(s(i)).is_some() && prev == "[" && s(i + 1) == "]",
                Mutation::ShiftIndex => t.kind == Kind::Ident && prev == "[" && s(i + 1) == "]",
                Mutation::ChangeType => type_change_options(s(i), prev, s(i + 1), s(i + 2)).is_some(),
                Mutation::RemoveAssume => ASSUMES.contains(&s(i)) && s(i + 1) == "(" && !matches!(prev, "void" | "int"),
                Mutation::LoopBound => integer(s(i)).is_some() && loop_header[i],
            }
        })
        .collect()
}

/// The replacement of the site: byte range and new text.
fn edit(text: &str, tokens: &[Token], site: usize, kind: Mutation, rng: &mut Rng) -> Option<(usize, usize, String)> {
    let t = tokens[site];
    let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.start..t.end]);
    let old = s(site);
    let new = match kind {
        Mutation::ShiftConstant | Mutation::BracketConstant => shifted(old, if rng.chance(2) { 1 } else { -1 })?,
        Mutation::LoopBound => shifted(old, rng.pick(&[1, -1, 2]))?,
        Mutation::SwapRelation => match old {
            "<" => "<=",
            "<=" => "<",
            ">" => ">=",
            ">=" => ">",
            "==" => "!=",
            _ => "==",
        }
        .to_string(),
        Mutation::ShiftIndex => format!("{old} {}", rng.pick(&["+ 1", "- 1"])),
        Mutation::ChangeType => {
            let prev = if site > 0 { s(site - 1) } else { "" };
            rng.pick(type_change_options(old, prev, s(site + 1), s(site + 2))?).to_string()
        }
        Mutation::RemoveAssume => "(void)".to_string(),
    };
    Some((t.start, t.end, new))
}

/// The types a type keyword may become, given its neighbours; `None`
/// where a change would not be a plain integer type (or would be
/// `main`'s return type).
fn type_change_options(word: &str, prev: &str, next: &str, after: &str) -> Option<&'static [&'static str]> {
    const INT: [&str; 5] = ["unsigned int", "short", "long long", "signed char", "unsigned char"];
    const WORDS: [&str; 5] = ["unsigned", "signed", "short", "long", "char"];
    if next == "main" || after == "main" || WORDS.contains(&prev) {
        return None;
    }
    match word {
        "int" => Some(&INT),
        "unsigned" => Some(&["signed"]),
        "signed" => Some(&["unsigned"]),
        "char" => Some(&["unsigned char", "signed char", "int"]),
        "short" if next != "int" => Some(&["int", "unsigned short", "signed char"]),
        "long" if !matches!(next, "long" | "int" | "double") => Some(&["int", "unsigned long", "short"]),
        _ => None,
    }
}

/// Which tokens lie between the parentheses of a `for` or `while` header.
fn loop_headers(text: &str, tokens: &[Token]) -> Vec<bool> {
    let mut inside = vec![false; tokens.len()];
    // For each open parenthesis: whether it opens a loop header or lies in one.
    let mut stack: Vec<bool> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match &text[t.start..t.end] {
            "(" => {
                let opens_loop = i > 0 && LOOPS.contains(&&text[tokens[i - 1].start..tokens[i - 1].end]);
                stack.push(opens_loop || stack.last().copied().unwrap_or(false));
            }
            ")" => {
                stack.pop();
            }
            _ => inside[i] = stack.last().copied().unwrap_or(false),
        }
    }
    inside
}

/// The value of a plain integer literal (decimal or hex, with an
/// optional `u`/`l` suffix) and its suffix.
fn integer(token: &str) -> Option<(i128, &str)> {
    let digits_end = token.find(['u', 'U', 'l', 'L']).unwrap_or(token.len());
    let (digits, suffix) = token.split_at(digits_end);
    if !suffix.chars().all(|c| matches!(c, 'u' | 'U' | 'l' | 'L')) {
        return None;
    }
    let value = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => i128::from_str_radix(hex, 16).ok()?,
        None if digits.len() > 1 && digits.starts_with('0') => return None,
        None => digits.parse().ok()?,
    };
    Some((value, suffix))
}

/// The literal `token` plus `delta`, in decimal with its suffix; a
/// negative result is parenthesised.
fn shifted(token: &str, delta: i128) -> Option<String> {
    let (value, suffix) = integer(token)?;
    let new = value + delta;
    if new < 0 && suffix.contains(['u', 'U']) {
        return None;
    }
    Some(if new < 0 { format!("(-{}{suffix})", -new) } else { format!("{new}{suffix}") })
}

/// The tokens of `text`, skipping comments, literals and preprocessor lines.
fn lex(text: &str) -> Vec<Token> {
    const PUNCTS: [&str; 22] =
        ["<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="];
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if line_start && c == b'#' {
            i = end_of_directive(bytes, i);
        } else if text[i..].starts_with("//") {
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
        } else if text[i..].starts_with("/*") {
            i = text[i + 2..].find("*/").map_or(bytes.len(), |n| i + n + 4);
        } else if c == b'"' || c == b'\'' {
            i = end_of_literal(bytes, i);
            line_start = false;
        } else {
            line_start = false;
            let start = i;
            let kind = if c.is_ascii_alphabetic() || c == b'_' {
                Kind::Ident
            } else if c.is_ascii_digit() {
                Kind::Number
            } else {
                Kind::Punct
            };
            i = match kind {
                Kind::Ident | Kind::Number => {
                    start + text[start..].find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '.')).unwrap_or(bytes.len() - start)
                }
                Kind::Punct => start + PUNCTS.iter().find(|p| text[start..].starts_with(**p)).map_or(1, |p| p.len()),
            };
            tokens.push(Token { kind, start, end: i });
        }
    }
    tokens
}

/// The end of a preprocessor directive starting at `i` (continuation
/// lines included).
fn end_of_directive(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && !(bytes[i] == b'\n' && (i == 0 || bytes[i - 1] != b'\\')) {
        i += 1;
    }
    i
}

/// The end of the string or character literal starting at `i`.
fn end_of_literal(bytes: &[u8], i: usize) -> usize {
    let quote = bytes[i];
    let mut j = i + 1;
    while j < bytes.len() && bytes[j] != quote && bytes[j] != b'\n' {
        j += if bytes[j] == b'\\' { 2 } else { 1 };
    }
    (j + 1).min(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "#include <assert.h>\n// x < 3\nint main() {\n  int a[4]; unsigned n = 0;\n  for (int i = 0; i < 4; i++) a[i] = i;\n  __VERIFIER_assume(n < 10);\n  assert(a[n] != \"<\"[0] && n <= 3);\n  return 0;\n}\n";

    fn all_mutants(kind: Mutation) -> Vec<String> {
        let tokens = lex(PROGRAM);
        sites(PROGRAM, &tokens, kind)
            .into_iter()
            .map(|site| {
                let (start, end, new) = edit(PROGRAM, &tokens, site, kind, &mut Rng::new(3)).expect("applies");
                format!("{}=>{}", &PROGRAM[start..end], new)
            })
            .collect()
    }

    #[test]
    fn comments_strings_and_directives_are_not_code() {
        let relations = all_mutants(Mutation::SwapRelation);
        assert_eq!(relations.len(), 4, "{relations:?}");
        assert!(relations.iter().all(|r| !r.contains('"')));
    }

    #[test]
    fn each_kind_finds_its_sites() {
        assert_eq!(all_mutants(Mutation::BracketConstant).len(), 2, "a[4] and \"<\"[0]");
        assert_eq!(all_mutants(Mutation::ShiftIndex).len(), 2);
        assert_eq!(all_mutants(Mutation::RemoveAssume), ["__VERIFIER_assume=>(void)"]);
        // The loop header's 0 and 4 are loop bounds, not compared constants.
        assert_eq!(all_mutants(Mutation::LoopBound).len(), 2);
        assert_eq!(all_mutants(Mutation::ShiftConstant).len(), 2);
        // main's return type stays; `unsigned` and the two other ints change.
        assert_eq!(all_mutants(Mutation::ChangeType).len(), 3);
    }

    #[test]
    fn constants_shift_with_their_suffix_and_sign() {
        assert_eq!(shifted("0x10", 1).as_deref(), Some("17"));
        assert_eq!(shifted("0", -1).as_deref(), Some("(-1)"));
        assert_eq!(shifted("7UL", 1).as_deref(), Some("8UL"));
        assert_eq!(shifted("0u", -1), None);
        assert_eq!(shifted("1.5", 1), None);
        assert_eq!(shifted("017", 1), None);
    }

    #[test]
    fn a_mutant_says_what_changed() {
        let mutant = mutate(PROGRAM, &mut Rng::new(9)).expect("sites exist");
        assert_ne!(mutant.text, PROGRAM);
        assert!(mutant.description.starts_with("line "), "{}", mutant.description);
        assert!(mutate("/* nothing */\n", &mut Rng::new(1)).is_none());
    }
}
