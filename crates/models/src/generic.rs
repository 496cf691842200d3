//! The generic blocks of the C library models: one definition of a
//! function, written once and instantiated for several float types.
//!
//! The models are compiled without a preprocessor, so the build script
//! expands them: a block opened by a line `/*@ for float, double, long
//! double */` and closed by `/*@ end */` stands once for each type it
//! names, with every `$NAME` placeholder in it replaced by that type's
//! parameter (see [`FORMATS`]). Text outside the blocks is kept as it is.

/// The parameters of each float type, by placeholder name.
///
/// For every type: `T` the type, `F` the suffix of its math.h names
/// (`sqrtf`), `C` the suffix of its constants (`1.0f`). For the binary
/// interchange formats also: `BITS` the unsigned integer type of the same
/// width and `U` the suffix of its constants, `WIDTH` the width, `FRAC` the
/// fraction bits, `MANT` the precision (`FRAC + 1`), `EXP_MASK` the
/// exponent field's all-ones value, `EMAX` the largest exponent (also the
/// bias), and `EMIN` the magnitude of the least normal exponent (`1 - EMAX`
/// is `-EMIN`).
pub const FORMATS: &[(&str, &[(&str, &str)])] = &[
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

const BLOCK_START: &str = "/*@ for ";
const BLOCK_END: &str = "/*@ end */";

/// `text` with every generic block instantiated for its types, or what is
/// wrong with it (`file:line: ...`).
pub fn expand(text: &str, file: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len() * 2);
    let mut block: Option<(usize, Vec<&str>, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let at = |message: String| format!("{file}:{}: {message}", index + 1);
        let trimmed = line.trim();
        if let Some(types) = trimmed.strip_prefix(BLOCK_START).and_then(|rest| rest.strip_suffix("*/")) {
            if block.is_some() {
                return Err(at("a generic block inside another".into()));
            }
            let types: Vec<&str> = types.split(',').map(str::trim).collect();
            block = Some((index + 1, types, String::new()));
        } else if trimmed == BLOCK_END {
            let Some((start, types, body)) = block.take() else { return Err(at("`/*@ end */` outside a generic block".into())) };
            for ty in types {
                let params = parameters(ty).ok_or_else(|| format!("{file}:{start}: no parameters for the type `{ty}`"))?;
                out.push_str(&substitute(&body, params).map_err(|e| format!("{file}:{start}: for `{ty}`: {e}"))?);
            }
        } else if let Some((_, _, body)) = &mut block {
            body.push_str(line);
            body.push('\n');
        } else if line.contains('$') {
            return Err(at("a `$` placeholder outside a generic block".into()));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    match block {
        Some((start, _, _)) => Err(format!("{file}:{start}: a generic block without `/*@ end */`")),
        None => Ok(out),
    }
}

fn parameters(ty: &str) -> Option<&'static [(&'static str, &'static str)]> {
    FORMATS.iter().find(|(name, _)| *name == ty).map(|(_, params)| *params)
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
        assert_eq!(expand(text, "m.c").as_deref(), Ok(expected));
    }

    #[test]
    fn placeholders_end_at_the_first_character_that_is_no_capital() {
        let text = "/*@ for double */\nf = 0x1p$EMAX$C; g = $EXP_MASK$U;\n/*@ end */\n";
        assert_eq!(expand(text, "m.c").as_deref(), Ok("f = 0x1p1023; g = 0x7ffULL;\n"));
    }

    #[test]
    fn mistakes_are_reported_with_their_line() {
        let no_end = "int a;\n/*@ for float */\n";
        assert_eq!(expand(no_end, "m.c"), Err("m.c:2: a generic block without `/*@ end */`".into()));
        let stray_end = "/*@ end */\n";
        assert_eq!(expand(stray_end, "m.c"), Err("m.c:1: `/*@ end */` outside a generic block".into()));
        let nested = "/*@ for float */\n/*@ for double */\n";
        assert_eq!(expand(nested, "m.c"), Err("m.c:2: a generic block inside another".into()));
        let unknown_type = "/*@ for half */\n/*@ end */\n";
        assert_eq!(expand(unknown_type, "m.c"), Err("m.c:1: no parameters for the type `half`".into()));
        let long_double_bits = "/*@ for long double */\n$BITS b;\n/*@ end */\n";
        assert_eq!(expand(long_double_bits, "m.c"), Err("m.c:1: for `long double`: no parameter `$BITS`".into()));
        assert_eq!(expand("x = $T;\n", "m.c"), Err("m.c:1: a `$` placeholder outside a generic block".into()));
    }
}
