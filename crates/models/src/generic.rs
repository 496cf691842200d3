//! The generic blocks of the C library models: one definition of a
//! function, written once and instantiated for several types.
//!
//! The models are compiled without a preprocessor, so the build script
//! expands them: a block opened by a line `/*@ for float, double, long
//! double */` and closed by `/*@ end */` stands once for each type it
//! names, with every `$NAME` placeholder in it replaced by that type's
//! parameter (see [`TYPES`]). A block that two model files share is named
//! where it is written (`/*@ for char as string_copies */`) and stands in
//! the other file at a line that names it (`/*@ string_copies for wchar_t
//! */`): string.c and wchar.c share their str/wcs twins so. Text outside
//! the blocks is kept as it is.

use std::collections::HashMap;

/// The parameters of each type a block may name, by placeholder name.
///
/// For the character types: `T` the type, `STR` the prefix of its
/// string functions (`strlen`, `wcslen`).
///
/// For every float type: `T` the type, `F` the suffix of its math.h names
/// (`sqrtf`), `C` the suffix of its constants (`1.0f`). For the binary
/// interchange formats also: `BITS` the unsigned integer type of the same
/// width and `U` the suffix of its constants, `WIDTH` the width, `FRAC` the
/// fraction bits, `MANT` the precision (`FRAC + 1`), `EXP_MASK` the
/// exponent field's all-ones value, `EMAX` the largest exponent (also the
/// bias), and `EMIN` the magnitude of the least normal exponent (`1 - EMAX`
/// is `-EMIN`).
pub const TYPES: &[(&str, &[(&str, &str)])] = &[
    ("char", &[("T", "char"), ("STR", "str")]),
    ("wchar_t", &[("T", "wchar_t"), ("STR", "wcs")]),
    (
        "float",
        &[
            ("T", "float"),
            ("F", "f"),
            ("C", "f"),
            ("BITS", "unsigned int"),
            ("U", "U"),
            ("WIDTH", "32"),
            ("FRAC", "23"),
            ("MANT", "24"),
            ("EXP_MASK", "0xff"),
            ("EMAX", "127"),
            ("EMIN", "126"),
        ],
    ),
    (
        "double",
        &[
            ("T", "double"),
            ("F", ""),
            ("C", ""),
            ("BITS", "unsigned long long"),
            ("U", "ULL"),
            ("WIDTH", "64"),
            ("FRAC", "52"),
            ("MANT", "53"),
            ("EXP_MASK", "0x7ff"),
            ("EMAX", "1023"),
            ("EMIN", "1022"),
        ],
    ),
    ("long double", &[("T", "long double"), ("F", "l"), ("C", "L")]),
];

/// The bodies of the blocks a model file shares with others, by name.
pub type Shared = HashMap<String, String>;

/// A line of a model file, as the expander reads it.
enum Line<'a> {
    /// `/*@ for TYPES */`, or `/*@ for TYPES as NAME */` for a shared block.
    Start { types: Vec<&'a str>, name: Option<&'a str> },
    /// `/*@ end */`.
    End,
    /// `/*@ NAME for TYPES */`: the shared block NAME, for TYPES.
    Use { name: &'a str, types: Vec<&'a str> },
    /// Any other line: C text.
    Text(&'a str),
}

/// What `line` is, or what is wrong with the directive it holds.
fn classify(line: &str) -> Result<Line<'_>, String> {
    let Some(directive) = line.trim().strip_prefix("/*@").and_then(|rest| rest.strip_suffix("*/")) else {
        return Ok(Line::Text(line));
    };
    let directive = directive.trim();
    if directive == "end" {
        Ok(Line::End)
    } else if let Some(rest) = directive.strip_prefix("for ") {
        match rest.split_once(" as ") {
            Some((types, name)) => Ok(Line::Start { types: type_list(types), name: Some(name.trim()) }),
            None => Ok(Line::Start { types: type_list(rest), name: None }),
        }
    } else if let Some((name, types)) = directive.split_once(" for ") {
        Ok(Line::Use { name: name.trim(), types: type_list(types) })
    } else {
        Err(format!("`/*@ {directive} */` is no directive (`for TYPES`, `for TYPES as NAME`, `NAME for TYPES`, `end`)"))
    }
}

/// The types a directive names, separated by commas.
fn type_list(types: &str) -> Vec<&str> {
    types.split(',').map(str::trim).collect()
}

/// A part of a model file.
enum Piece<'a> {
    /// A line of C text outside the blocks.
    Text(&'a str),
    /// A block opened at `line`: its types, its name if it is shared, and
    /// its lines.
    Block { line: usize, types: Vec<&'a str>, name: Option<&'a str>, body: String },
    /// A use at `line` of the shared block `name`, for `types`.
    Use { line: usize, name: &'a str, types: Vec<&'a str> },
}

/// `text` cut into its pieces, or what is wrong with it: blocks must not
/// nest and must end, and no `$` may stand outside them.
fn pieces<'a>(text: &'a str, file: &str) -> Result<Vec<Piece<'a>>, String> {
    let mut pieces = Vec::new();
    let mut block: Option<(usize, Vec<&str>, Option<&str>, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let at = |message: String| format!("{file}:{}: {message}", index + 1);
        match (classify(line).map_err(at)?, &mut block) {
            (Line::Start { .. } | Line::Use { .. }, Some(_)) => return Err(at("a generic block inside another".into())),
            (Line::Start { types, name }, None) => block = Some((index + 1, types, name, String::new())),
            (Line::Use { name, types }, None) => pieces.push(Piece::Use { line: index + 1, name, types }),
            (Line::End, None) => return Err(at("`/*@ end */` outside a generic block".into())),
            (Line::End, Some(_)) => {
                let (line, types, name, body) = block.take().expect("inside a block");
                pieces.push(Piece::Block { line, types, name, body });
            }
            (Line::Text(text), Some((_, _, _, body))) => {
                body.push_str(text);
                body.push('\n');
            }
            (Line::Text(text), None) if text.contains('$') => {
                return Err(at("a `$` placeholder outside a generic block".into()))
            }
            (Line::Text(text), None) => pieces.push(Piece::Text(text)),
        }
    }
    match block {
        Some((start, _, _, _)) => Err(format!("{file}:{start}: a generic block without `/*@ end */`")),
        None => Ok(pieces),
    }
}

/// The blocks of `text` named for sharing (`/*@ for TYPES as NAME */`),
/// with their bodies as written, or what is wrong with `text`.
pub fn shared_blocks(text: &str, file: &str) -> Result<Shared, String> {
    let mut shared = Shared::new();
    for piece in pieces(text, file)? {
        if let Piece::Block { line, name: Some(name), body, .. } = piece {
            if shared.insert(name.to_string(), body).is_some() {
                return Err(format!("{file}:{line}: a second shared block `{name}`"));
            }
        }
    }
    Ok(shared)
}

/// `text` with every generic block instantiated for its types, the blocks
/// it uses from `shared` included, or what is wrong with it
/// (`file:line: ...`).
pub fn expand(text: &str, file: &str, shared: &Shared) -> Result<String, String> {
    let mut out = String::with_capacity(text.len() * 2);
    for piece in pieces(text, file)? {
        match piece {
            Piece::Text(line) => {
                out.push_str(line);
                out.push('\n');
            }
            Piece::Block { line, types, body, .. } => instantiate(&mut out, &body, &types, file, line)?,
            Piece::Use { line, name, types } => {
                let body = shared.get(name).ok_or_else(|| format!("{file}:{line}: no shared block `{name}`"))?;
                instantiate(&mut out, body, &types, file, line)?;
            }
        }
    }
    Ok(out)
}

/// Appends `body` once for each of `types`, its placeholders filled in.
fn instantiate(out: &mut String, body: &str, types: &[&str], file: &str, line: usize) -> Result<(), String> {
    for ty in types {
        let params = parameters(ty).ok_or_else(|| format!("{file}:{line}: no parameters for the type `{ty}`"))?;
        out.push_str(&substitute(body, params).map_err(|e| format!("{file}:{line}: for `{ty}`: {e}"))?);
    }
    Ok(())
}

fn parameters(ty: &str) -> Option<&'static [(&'static str, &'static str)]> {
    TYPES.iter().find(|(name, _)| *name == ty).map(|(_, params)| *params)
}

/// `body` with each `$NAME` (capitals and underscores) replaced by its value.
fn substitute(body: &str, params: &[(&str, &str)]) -> Result<String, String> {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(dollar) = rest.find('$') {
        out.push_str(&rest[..dollar]);
        let after = &rest[dollar + 1..];
        let len = after.find(|c: char| !(c.is_ascii_uppercase() || c == '_')).unwrap_or(after.len());
        let name = &after[..len];
        let value = params.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        out.push_str(value.ok_or_else(|| format!("no parameter `${name}`"))?);
        rest = &after[len..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_stands_once_for_each_of_its_types() {
        let text = "int a;\n/*@ for float, long double */\n$T\nfabs$F($T x) { return x < 0.0$C ? -x : x; }\n/*@ end */\nint b;\n";
        let expected = "int a;\nfloat\nfabsf(float x) { return x < 0.0f ? -x : x; }\n\
                        long double\nfabsl(long double x) { return x < 0.0L ? -x : x; }\nint b;\n";
        assert_eq!(expand(text, "m.c", &Shared::new()).as_deref(), Ok(expected));
    }

    #[test]
    fn placeholders_end_at_the_first_character_that_is_no_capital() {
        let text = "/*@ for double */\nf = 0x1p$EMAX$C; g = $EXP_MASK$U;\n/*@ end */\n";
        assert_eq!(expand(text, "m.c", &Shared::new()).as_deref(), Ok("f = 0x1p1023; g = 0x7ffULL;\n"));
    }

    #[test]
    fn mistakes_are_reported_with_their_line() {
        let no_end = "int a;\n/*@ for float */\n";
        assert_eq!(expand(no_end, "m.c", &Shared::new()), Err("m.c:2: a generic block without `/*@ end */`".into()));
        let stray_end = "/*@ end */\n";
        assert_eq!(expand(stray_end, "m.c", &Shared::new()), Err("m.c:1: `/*@ end */` outside a generic block".into()));
        let nested = "/*@ for float */\n/*@ for double */\n";
        assert_eq!(expand(nested, "m.c", &Shared::new()), Err("m.c:2: a generic block inside another".into()));
        let unknown_type = "/*@ for half */\n/*@ end */\n";
        assert_eq!(expand(unknown_type, "m.c", &Shared::new()), Err("m.c:1: no parameters for the type `half`".into()));
        let long_double_bits = "/*@ for long double */\n$BITS b;\n/*@ end */\n";
        assert_eq!(expand(long_double_bits, "m.c", &Shared::new()), Err("m.c:1: for `long double`: no parameter `$BITS`".into()));
        assert_eq!(expand("x = $T;\n", "m.c", &Shared::new()), Err("m.c:1: a `$` placeholder outside a generic block".into()));
    }

    #[test]
    fn a_shared_block_stands_where_another_file_names_it() {
        let string = "int a;\n/*@ for char as lengths */\nsize_t $STRlen(const $T *s);\n/*@ end */\nint b;\n";
        let shared = shared_blocks(string, "string.c").expect("a shared block");
        assert_eq!(expand(string, "string.c", &shared).as_deref(), Ok("int a;\nsize_t strlen(const char *s);\nint b;\n"));
        let wchar = "int c;\n/*@ lengths for wchar_t */\nint d;\n";
        assert_eq!(expand(wchar, "wchar.c", &shared).as_deref(), Ok("int c;\nsize_t wcslen(const wchar_t *s);\nint d;\n"));
    }

    #[test]
    fn mistakes_in_shared_blocks_are_reported_with_their_line() {
        let twice = "/*@ for char as x */\n/*@ end */\n/*@ for wchar_t as x */\n/*@ end */\n";
        assert_eq!(shared_blocks(twice, "m.c"), Err("m.c:3: a second shared block `x`".into()));
        assert_eq!(expand("/*@ x for char */\n", "m.c", &Shared::new()), Err("m.c:1: no shared block `x`".into()));
        let inside = "/*@ for char */\n/*@ x for char */\n/*@ end */\n";
        assert_eq!(expand(inside, "m.c", &Shared::new()), Err("m.c:2: a generic block inside another".into()));
        let unknown = "/*@ expand x */\n";
        assert!(expand(unknown, "m.c", &Shared::new()).is_err_and(|e| e.starts_with("m.c:1: `/*@ expand x */` is no directive")));
    }
}
