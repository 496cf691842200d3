//! printf- and scanf-style format strings: parsing into literal text and
//! conversion specifications, and the exact text a printf conversion
//! prints for a concrete value (glibc's output). The interpreter prints
//! with these functions; symex builds the length of the same text as terms
//! from the same parse, so both agree on which formats are supported.

use crate::program::DataModel;
use crate::types::{FloatFormat, Type, TypeId, TypeTable};

mod float;

pub use float::float_text;

/// One part of a format string.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Characters copied as they are (`%%` included, as one `%`).
    Text(Vec<u8>),
    Conversion(Spec),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub alternate: bool,
    pub zero: bool,
}

/// A field width or precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    Fixed(u32),
    /// `*`: taken from the next `int` argument.
    FromArgument,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    Default,
    Char,
    Short,
    Long,
    LongLong,
    IntMax,
    Size,
    PtrDiff,
    LongDouble,
}

/// A conversion specification: `%[flags][width][.precision][length]conversion`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub flags: Flags,
    pub width: Option<Count>,
    pub precision: Option<Count>,
    pub length: Length,
    /// The conversion character (`d`, `s`, `[` ...).
    pub conversion: u8,
    /// scanf's `*`: the conversion reads but assigns nothing.
    pub suppressed: bool,
}

/// What a conversion takes from the argument list (after `*` counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Argument {
    /// `d`, `i`: an integer of this many bits, printed signed.
    Signed(u32),
    /// `u`, `o`, `x`, `X`: an integer of this many bits, printed unsigned.
    Unsigned(u32),
    /// `f`, `F`, `e`, `E`, `g`, `G`, `a`, `A`: a `double`, with `L` a
    /// `long double`.
    Float(FloatFormat),
    /// `c`: an `int` printed as `unsigned char`.
    Char,
    /// `s`: a pointer to a NUL-terminated string.
    String,
    /// `p`: a pointer.
    Pointer,
    /// `n`: a pointer to an integer of this many bits that receives the
    /// count of characters so far.
    Count(u32),
}

impl Spec {
    /// What a printf conversion consumes, or why it is not supported.
    pub fn printf_argument(&self, model: DataModel) -> Result<Argument, String> {
        let bits = self.integer_bits(model);
        let unsupported = || Err(format!("`{}` in a format", self.text()));
        match (self.conversion, self.length) {
            (b'd' | b'i', Length::LongDouble) | (b'u' | b'o' | b'x' | b'X' | b'n', Length::LongDouble) => unsupported(),
            (b'd' | b'i', _) => Ok(Argument::Signed(bits)),
            (b'u' | b'o' | b'x' | b'X', _) => Ok(Argument::Unsigned(bits)),
            (b'n', _) => Ok(Argument::Count(bits)),
            (b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A', Length::Default | Length::Long) => {
                Ok(Argument::Float(FloatFormat::Double))
            }
            (b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A', Length::LongDouble) => {
                Ok(Argument::Float(FloatFormat::X87Extended))
            }
            (b'c', Length::Default) => Ok(Argument::Char),
            (b's', Length::Default) => Ok(Argument::String),
            (b'p', Length::Default) => Ok(Argument::Pointer),
            _ => unsupported(),
        }
    }

    /// The integer width the length modifier selects.
    pub fn integer_bits(&self, model: DataModel) -> u32 {
        match self.length {
            Length::Char => 8,
            Length::Short => 16,
            Length::Long | Length::Size | Length::PtrDiff => model.long_bits(),
            Length::LongLong | Length::IntMax => 64,
            Length::Default | Length::LongDouble => 32,
        }
    }

    /// The digit base of an integer conversion.
    pub fn base(&self) -> u32 {
        match self.conversion {
            b'o' => 8,
            b'x' | b'X' | b'p' => 16,
            _ => 10,
        }
    }

    /// The specification as written, for messages.
    pub fn text(&self) -> String {
        let mut s = String::from("%");
        let f = self.flags;
        for (on, c) in [(f.left, '-'), (f.plus, '+'), (f.space, ' '), (f.alternate, '#'), (f.zero, '0')] {
            if on {
                s.push(c);
            }
        }
        let count = |c: Count| match c {
            Count::Fixed(n) => n.to_string(),
            Count::FromArgument => "*".to_string(),
        };
        if let Some(w) = self.width {
            s.push_str(&count(w));
        }
        if let Some(p) = self.precision {
            s.push('.');
            s.push_str(&count(p));
        }
        s.push_str(match self.length {
            Length::Default => "",
            Length::Char => "hh",
            Length::Short => "h",
            Length::Long => "l",
            Length::LongLong => "ll",
            Length::IntMax => "j",
            Length::Size => "z",
            Length::PtrDiff => "t",
            Length::LongDouble => "L",
        });
        s.push(self.conversion as char);
        s
    }
}

/// The stdio function `name` stands for: without a `__builtin_` prefix
/// and an `_unlocked` suffix (the variants behave alike in one thread),
/// and without the `__tarsier_native_` prefix through which the C models
/// of streams call the native model for the environment's streams.
pub fn stdio_name(name: &str) -> &str {
    let name = name.strip_prefix("__builtin_").unwrap_or(name);
    let name = name.strip_prefix("__tarsier_native_").unwrap_or(name);
    name.strip_suffix("_unlocked").unwrap_or(name)
}

/// Whether an argument of type `ty` fits what a printf conversion takes
/// (an integer conversion also prints a pointer's address).
pub fn printf_accepts(argument: Argument, types: &TypeTable, ty: TypeId) -> bool {
    let ty = types.get(ty);
    let integer = matches!(ty, Type::Int { .. } | Type::Bool);
    let pointer = matches!(ty, Type::Pointer(_));
    match argument {
        Argument::Signed(_) | Argument::Unsigned(_) => integer || pointer,
        Argument::Char => integer,
        Argument::Float(format) => *ty == Type::Float(format),
        Argument::String | Argument::Pointer | Argument::Count(_) => pointer,
    }
}

/// Checks that every conversion of a printf format is supported and has
/// an argument of a fitting type among `arguments` (`int` for `*`).
pub fn check_printf_arguments(
    pieces: &[Piece],
    model: DataModel,
    types: &TypeTable,
    arguments: &[TypeId],
) -> Result<(), String> {
    let mut next = arguments.iter();
    let mut take = |what: &str| next.next().copied().ok_or_else(|| format!("a format with more conversions than arguments ({what})"));
    for piece in pieces {
        let Piece::Conversion(spec) = piece else { continue };
        for count in [spec.width, spec.precision] {
            if count == Some(Count::FromArgument) && !matches!(types.get(take("*")?), Type::Int { .. }) {
                return Err(format!("a `*` argument that is not an integer for `{}`", spec.text()));
            }
        }
        let argument = spec.printf_argument(model)?;
        if !printf_accepts(argument, types, take(&spec.text())?) {
            return Err(format!("an argument of another type for `{}`", spec.text()));
        }
    }
    Ok(())
}

/// The printf-family function a `va_list` form stands for, and the index
/// of its format argument (the `va_list` comes right after the format):
/// `vprintf` is `printf`, `vsnprintf` is `snprintf`, ...
pub fn va_list_form(name: &str) -> Option<(&'static str, usize)> {
    Some(match name {
        "vprintf" => ("printf", 0),
        "vfprintf" => ("fprintf", 1),
        "vdprintf" => ("dprintf", 1),
        "vsprintf" => ("sprintf", 1),
        "vasprintf" => ("asprintf", 1),
        "vsnprintf" => ("snprintf", 2),
        _ => return None,
    })
}

/// The types `va_arg` reads a printf format's arguments as, in order, so
/// that a `va_list` form can read them from the argument area: `int` for a
/// `*` count and for a conversion narrower than `int` (its argument was
/// promoted), the conversion's integer width otherwise, the float type,
/// and `pointer` (any pointer type) for `%s`, `%p` and `%n`. An integer
/// type of the other signedness serves as well, since the conversion
/// reinterprets the bits; a type the program never uses is not supported.
pub fn va_argument_types(pieces: &[Piece], model: DataModel, types: &TypeTable, pointer: TypeId) -> Result<Vec<TypeId>, String> {
    let integer = |bits: u32| {
        let bits = bits.max(32);
        [true, false]
            .iter()
            .find_map(|&signed| types.lookup(&Type::Int { bits, signed }))
            .ok_or_else(|| format!("a `va_list` argument of {bits} bits in a program without such an integer type"))
    };
    let mut read = Vec::new();
    for piece in pieces {
        let Piece::Conversion(spec) = piece else { continue };
        for count in [spec.width, spec.precision] {
            if count == Some(Count::FromArgument) {
                read.push(integer(32)?);
            }
        }
        read.push(match spec.printf_argument(model)? {
            Argument::Signed(bits) | Argument::Unsigned(bits) => integer(bits)?,
            Argument::Char => integer(32)?,
            Argument::Float(format) => types
                .lookup(&Type::Float(format))
                .ok_or_else(|| format!("a `{format:?}` `va_list` argument in a program without that type"))?,
            Argument::String | Argument::Pointer | Argument::Count(_) => pointer,
        });
    }
    Ok(read)
}

/// What an assigning scanf conversion stores through its pointer argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanTarget {
    /// `d i u o x X`: an integer of this many bits.
    Integer(u32),
    /// `f e g a` (and capitals): a `float` (32) or `double` (64).
    Float(u32),
    /// `c`: this many characters, not terminated.
    Chars(u32),
    /// `s`: non-whitespace characters (at most the width) and a NUL.
    String(Option<u32>),
    /// `ls` (and glibc's `S`): the same as wide characters (`wchar_t`).
    WideString(Option<u32>),
}

impl Spec {
    /// What a scanf conversion stores, or why it is not supported.
    pub fn scanf_target(&self, model: DataModel) -> Result<ScanTarget, String> {
        let width = match self.width {
            None => None,
            Some(Count::Fixed(n)) if n > 0 => Some(n),
            _ => return Err(format!("`{}` in a format", self.text())),
        };
        match (self.conversion, self.length) {
            (b'd' | b'i' | b'u' | b'o' | b'x' | b'X', length) if length != Length::LongDouble => {
                Ok(ScanTarget::Integer(self.integer_bits(model)))
            }
            (b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A', Length::Default) => Ok(ScanTarget::Float(32)),
            (b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A', Length::Long) => Ok(ScanTarget::Float(64)),
            (b'c', Length::Default) => Ok(ScanTarget::Chars(width.unwrap_or(1))),
            (b's', Length::Default) => Ok(ScanTarget::String(width)),
            (b's', Length::Long) | (b'S', Length::Default) => Ok(ScanTarget::WideString(width)),
            _ => Err(format!("`{}` in a format", self.text())),
        }
    }
}

/// The stores of a scanf format, in order, each checked to have a pointer
/// argument among `arguments`.
pub fn scanf_targets(
    pieces: &[Piece],
    model: DataModel,
    types: &TypeTable,
    arguments: &[TypeId],
) -> Result<Vec<ScanTarget>, String> {
    let mut targets = Vec::new();
    for piece in pieces {
        let Piece::Conversion(spec) = piece else { continue };
        let target = spec.scanf_target(model)?;
        if spec.suppressed {
            continue;
        }
        match arguments.get(targets.len()).map(|&ty| types.get(ty)) {
            Some(Type::Pointer(_)) => targets.push(target),
            Some(_) => return Err(format!("an argument that is not a pointer for `{}`", spec.text())),
            None => return Err(format!("a format with more conversions than arguments (`{}`)", spec.text())),
        }
    }
    Ok(targets)
}

/// Which characters a line or word read from input may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputChars {
    /// scanf `%s`: anything but whitespace.
    Word,
    /// `gets`: anything but a newline.
    Line,
    /// `fgets`: a newline only as the last character.
    LineWithNewline,
    /// scanf `%ls`: wide characters that are not whitespace.
    WideWord,
}

impl InputChars {
    /// Whether character `c` (a byte, or a `wchar_t` for wide kinds) may
    /// stand at `index` of a string of `length` characters.
    pub fn allows(self, c: u32, index: u64, length: u64) -> bool {
        match self {
            InputChars::Word => !u8::try_from(c).is_ok_and(is_c_space),
            InputChars::Line => c != u32::from(b'\n'),
            InputChars::LineWithNewline => c != u32::from(b'\n') || index + 1 == length,
            InputChars::WideWord => is_input_wide_char(c) && !is_wide_space(c),
        }
    }

    /// The bytes of one character in memory.
    pub fn unit_bytes(self) -> u64 {
        match self {
            InputChars::WideWord => WCHAR_BYTES,
            _ => 1,
        }
    }
}

/// Size of `wchar_t` on the x86 Linux targets (a signed 32-bit `int`).
pub const WCHAR_BYTES: u64 = 4;

/// Whether glibc's conversion of input to wide characters can give `c`:
/// a byte in the C locale, a Unicode scalar value (no surrogate) in a
/// UTF-8 one; which locale is current is not modelled, so both.
pub fn is_input_wide_char(c: u32) -> bool {
    c <= MAX_WIDE_INPUT && !(SURROGATES.0..=SURROGATES.1).contains(&c)
}

/// The ranges of `iswspace` in the C locale and glibc's UTF-8 locales:
/// the C spaces, and Unicode's spaces other than the no-break ones.
pub const WIDE_SPACES: [(u32, u32); 8] =
    [(0x09, 0x0d), (0x20, 0x20), (0x1680, 0x1680), (0x2000, 0x2006), (0x2008, 0x200a), (0x2028, 0x2029), (0x205f, 0x205f), (0x3000, 0x3000)];

/// Surrogates, which no conversion to a wide character gives.
pub const SURROGATES: (u32, u32) = (0xd800, 0xdfff);

/// Largest Unicode scalar value.
pub const MAX_WIDE_INPUT: u32 = 0x10ffff;

/// Whether `c` is in [`WIDE_SPACES`].
pub fn is_wide_space(c: u32) -> bool {
    WIDE_SPACES.iter().any(|&(low, high)| (low..=high).contains(&c))
}

/// `isspace` in the C locale.
pub fn is_c_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Largest width or precision accepted (larger ones are unsupported).
pub const MAX_COUNT: u32 = 1 << 16;

/// Which family a format belongs to: in scanf, a `*` after the `%`
/// suppresses the assignment; in printf, it is a width argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Printf,
    Scanf,
}

/// Parses a printf or scanf format (without its terminating NUL).
pub fn parse(format: &[u8], dialect: Dialect) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut text = Vec::new();
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            text.push(format[i]);
            i += 1;
            continue;
        }
        if format.get(i + 1) == Some(&b'%') {
            text.push(b'%');
            i += 2;
            continue;
        }
        let (spec, next) = parse_spec(format, i + 1, dialect)?;
        if !text.is_empty() {
            pieces.push(Piece::Text(std::mem::take(&mut text)));
        }
        pieces.push(Piece::Conversion(spec));
        i = next;
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// Parses the specification that starts after the `%` at `start`; returns
/// it and the index after it.
fn parse_spec(format: &[u8], start: usize, dialect: Dialect) -> Result<(Spec, usize), String> {
    let mut i = start;
    let at = |i: usize| format.get(i).copied();
    let mut spec = Spec {
        flags: Flags::default(),
        width: None,
        precision: None,
        length: Length::Default,
        conversion: 0,
        suppressed: false,
    };
    if dialect == Dialect::Scanf && at(i) == Some(b'*') {
        spec.suppressed = true;
        i += 1;
    }
    while let Some(c) = at(i) {
        let flag = match c {
            b'-' => &mut spec.flags.left,
            b'+' => &mut spec.flags.plus,
            b' ' => &mut spec.flags.space,
            b'#' => &mut spec.flags.alternate,
            b'0' => &mut spec.flags.zero,
            _ => break,
        };
        *flag = true;
        i += 1;
    }
    (spec.width, i) = parse_count(format, i, dialect)?;
    if at(i) == Some(b'.') {
        let (precision, next) = parse_count(format, i + 1, dialect)?;
        spec.precision = Some(precision.unwrap_or(Count::Fixed(0)));
        i = next;
    }
    let two = (at(i), at(i + 1));
    (spec.length, i) = match two {
        (Some(b'h'), Some(b'h')) => (Length::Char, i + 2),
        (Some(b'l'), Some(b'l')) => (Length::LongLong, i + 2),
        (Some(b'h'), _) => (Length::Short, i + 1),
        (Some(b'l'), _) => (Length::Long, i + 1),
        (Some(b'q'), _) => (Length::LongLong, i + 1),
        (Some(b'j'), _) => (Length::IntMax, i + 1),
        (Some(b'z'), _) => (Length::Size, i + 1),
        (Some(b't'), _) => (Length::PtrDiff, i + 1),
        (Some(b'L'), _) => (Length::LongDouble, i + 1),
        _ => (Length::Default, i),
    };
    match at(i) {
        Some(c) if c.is_ascii_alphabetic() || c == b'[' => {
            spec.conversion = c;
            Ok((spec, i + 1))
        }
        Some(_) => Err(format!("conversion `%{}` in a format", String::from_utf8_lossy(&format[start..=i]))),
        None => Err("a format that ends inside a conversion".to_string()),
    }
}

/// A width or precision at `i` and the index after it. glibc's scanf
/// reads a count too large for an `int` as none (`read_int` gives -1,
/// which vfscanf takes for no width), so only printf refuses it.
fn parse_count(format: &[u8], mut i: usize, dialect: Dialect) -> Result<(Option<Count>, usize), String> {
    if format.get(i) == Some(&b'*') {
        return Ok((Some(Count::FromArgument), i + 1));
    }
    let start = i;
    let mut n: u32 = 0;
    while let Some(d) = format.get(i).filter(|c| c.is_ascii_digit()) {
        n = n.saturating_mul(10).saturating_add(u32::from(d - b'0'));
        i += 1;
    }
    if i == start {
        return Ok((None, i));
    }
    if dialect == Dialect::Scanf && n > i32::MAX as u32 {
        return Ok((None, i));
    }
    if n > MAX_COUNT {
        return Err(format!("a field width or precision of {n} in a format"));
    }
    Ok((Some(Count::Fixed(n)), i))
}

/// Width and precision of one conversion once `*` arguments are known: a
/// negative `*` width means left adjustment, a negative `*` precision none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub left: bool,
    pub width: u32,
    pub precision: Option<u32>,
}

impl Field {
    /// The field of `spec` with `width` and `precision` arguments for its
    /// `*` counts.
    pub fn resolve(spec: &Spec, width: Option<i32>, precision: Option<i32>) -> Field {
        let mut left = spec.flags.left;
        let width = match (spec.width, width) {
            (Some(Count::Fixed(n)), _) => n,
            (Some(Count::FromArgument), Some(w)) => {
                left |= w < 0;
                w.unsigned_abs().min(MAX_COUNT)
            }
            _ => 0,
        };
        let precision = match (spec.precision, precision) {
            (Some(Count::Fixed(n)), _) => Some(n),
            (Some(Count::FromArgument), Some(p)) if p >= 0 => Some((p as u32).min(MAX_COUNT)),
            _ => None,
        };
        Field { left, width, precision }
    }
}

/// The sign and magnitude a `bits`-bit integer conversion (`signed` for
/// `d i`) prints of an argument whose bits, extended by the argument's own
/// type, are `extended`.
pub fn sign_and_magnitude(extended: u128, bits: u32, signed: bool) -> (bool, u128) {
    let raw = extended & crate::layout::low_mask(bits);
    let shift = 128 - bits.clamp(1, 128);
    let value = ((raw << shift) as i128) >> shift;
    if signed && value < 0 {
        (true, value.unsigned_abs())
    } else {
        (false, raw)
    }
}

/// `body` padded to the field width: spaces on the left or right, or zeros
/// after the first `zero_at` characters (the sign and prefix).
fn pad(field: Field, body: Vec<u8>, zero_at: Option<usize>) -> Vec<u8> {
    let missing = (field.width as usize).saturating_sub(body.len());
    if missing == 0 {
        return body;
    }
    let mut out = Vec::with_capacity(body.len() + missing);
    match (field.left, zero_at) {
        (true, _) => {
            out.extend_from_slice(&body);
            out.resize(body.len() + missing, b' ');
        }
        (false, Some(at)) => {
            out.extend_from_slice(&body[..at]);
            out.resize(at + missing, b'0');
            out.extend_from_slice(&body[at..]);
        }
        (false, None) => {
            out.resize(missing, b' ');
            out.extend_from_slice(&body);
        }
    }
    out
}

/// The text of an integer conversion (`d i u o x X`) of the number
/// `-magnitude` (if `negative`) or `magnitude`.
pub fn integer_text(spec: &Spec, field: Field, negative: bool, magnitude: u128) -> Vec<u8> {
    let mut digits = match (field.precision, magnitude) {
        (Some(0), 0) => Vec::new(),
        _ => radix_digits(magnitude, spec.base(), spec.conversion == b'X'),
    };
    if let Some(p) = field.precision {
        let p = p as usize;
        if digits.len() < p {
            let mut padded = vec![b'0'; p - digits.len()];
            padded.extend_from_slice(&digits);
            digits = padded;
        }
    }
    let mut prefix: Vec<u8> = Vec::new();
    if negative {
        prefix.push(b'-');
    } else if matches!(spec.conversion, b'd' | b'i') && spec.flags.plus {
        prefix.push(b'+');
    } else if matches!(spec.conversion, b'd' | b'i') && spec.flags.space {
        prefix.push(b' ');
    }
    if spec.flags.alternate {
        match spec.conversion {
            b'o' if digits.first() != Some(&b'0') => digits.insert(0, b'0'),
            b'x' if magnitude != 0 => prefix.extend_from_slice(b"0x"),
            b'X' if magnitude != 0 => prefix.extend_from_slice(b"0X"),
            _ => {}
        }
    }
    let zero_at = (spec.flags.zero && field.precision.is_none()).then_some(prefix.len());
    prefix.extend_from_slice(&digits);
    pad(field, prefix, zero_at)
}

/// The digits of `value` in `base` (2 to 16).
pub fn radix_digits(mut value: u128, base: u32, upper: bool) -> Vec<u8> {
    let table: &[u8; 16] = if upper { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
    let mut digits = Vec::new();
    loop {
        digits.push(table[(value % u128::from(base)) as usize]);
        value /= u128::from(base);
        if value == 0 {
            break;
        }
    }
    digits.reverse();
    digits
}

/// The text of `%c` of `byte`.
pub fn char_text(field: Field, byte: u8) -> Vec<u8> {
    pad(field, vec![byte], None)
}

/// The text of `%s` of `string` (already cut to the precision).
pub fn string_text(field: Field, string: &[u8]) -> Vec<u8> {
    pad(field, string.to_vec(), None)
}

/// The text of `%p` of a pointer with address `address` (glibc: `(nil)`
/// for NULL, else like `%#lx`).
pub fn pointer_text(field: Field, address: u64) -> Vec<u8> {
    if address == 0 {
        return pad(field, b"(nil)".to_vec(), None);
    }
    let mut body = b"0x".to_vec();
    body.extend(radix_digits(u128::from(address), 16, false));
    pad(field, body, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_of(format: &str) -> Spec {
        match parse(format.as_bytes(), Dialect::Printf).expect("parses").as_slice() {
            [Piece::Conversion(spec)] => *spec,
            other => panic!("not one conversion: {other:?}"),
        }
    }

    fn int(format: &str, value: i128) -> String {
        let spec = spec_of(format);
        let field = Field::resolve(&spec, None, None);
        String::from_utf8(integer_text(&spec, field, value < 0, value.unsigned_abs())).unwrap()
    }


    #[test]
    fn va_list_arguments_are_read_as_promoted_types() {
        let mut types = TypeTable::new();
        let int = types.int(32, true);
        let unsigned_long = types.int(64, false);
        let double = types.intern(Type::Float(FloatFormat::Double));
        let pointer = types.pointer_to(int);
        let pieces = parse(b"%hhd %*.*lu %s %c %f %n", Dialect::Printf).unwrap();
        let read = va_argument_types(&pieces, DataModel::LP64, &types, pointer).unwrap();
        assert_eq!(read, vec![int, int, int, unsigned_long, pointer, int, double, pointer]);
        let wide = parse(b"%lld", Dialect::Printf).unwrap();
        assert_eq!(va_argument_types(&wide, DataModel::ILP32, &types, pointer).unwrap(), vec![unsigned_long]);
        let no_double = TypeTable::new();
        let floats = parse(b"%g", Dialect::Printf).unwrap();
        assert!(va_argument_types(&floats, DataModel::LP64, &no_double, pointer).is_err());
        assert_eq!(va_list_form("vsnprintf"), Some(("snprintf", 2)));
        assert_eq!(va_list_form("snprintf"), None);
    }

    #[test]
    fn parse_splits_text_and_conversions() {
        let pieces = parse(b"a%%b%-08.3lds%", Dialect::Printf).unwrap_err();
        assert!(pieces.contains("ends inside"));
        let pieces = parse(b"a%%b%-08.3ld!", Dialect::Printf).unwrap();
        assert_eq!(pieces.len(), 3);
        assert_eq!(pieces[0], Piece::Text(b"a%b".to_vec()));
        let Piece::Conversion(spec) = pieces[1] else { panic!() };
        assert!(spec.flags.left && spec.flags.zero);
        assert_eq!((spec.width, spec.precision, spec.length), (Some(Count::Fixed(8)), Some(Count::Fixed(3)), Length::Long));
        assert_eq!(spec.text(), "%-08.3ld");
        assert_eq!(spec_of("%*.*d").width, Some(Count::FromArgument));
        assert_eq!(spec_of("%.d").precision, Some(Count::Fixed(0)));
        assert!(spec_of("%*d").width.is_some() && !spec_of("%*d").suppressed);
        let scanf = parse(b"%*5d", Dialect::Scanf).unwrap();
        assert!(matches!(scanf[0], Piece::Conversion(Spec { suppressed: true, width: Some(Count::Fixed(5)), .. })));
        assert!(parse(b"%99999999d", Dialect::Printf).is_err());
    }

    #[test]
    fn arguments_follow_the_length_modifier() {
        let lp64 = DataModel::LP64;
        assert_eq!(spec_of("%ld").printf_argument(lp64), Ok(Argument::Signed(64)));
        assert_eq!(spec_of("%lu").printf_argument(DataModel::ILP32), Ok(Argument::Unsigned(32)));
        assert_eq!(spec_of("%hhn").printf_argument(lp64), Ok(Argument::Count(8)));
        assert_eq!(spec_of("%lf").printf_argument(lp64), Ok(Argument::Float(FloatFormat::Double)));
        assert_eq!(spec_of("%La").printf_argument(lp64), Ok(Argument::Float(FloatFormat::X87Extended)));
        assert_eq!(spec_of("%Lg").printf_argument(DataModel::ILP32), Ok(Argument::Float(FloatFormat::X87Extended)));
        assert!(spec_of("%ls").printf_argument(lp64).is_err());
        assert_eq!(spec_of("%A").printf_argument(lp64), Ok(Argument::Float(FloatFormat::Double)));
        assert!(spec_of("%Lc").printf_argument(lp64).is_err());
    }

    #[test]
    fn scanf_conversions_name_their_stores() {
        let pieces = parse(b"%d %*s %5s %lf %3c", Dialect::Scanf).unwrap();
        let pointer = {
            let mut types = TypeTable::default();
            let char_ty = types.intern(Type::Int { bits: 8, signed: true });
            (types.intern(Type::Pointer(char_ty)), char_ty, types)
        };
        let (ptr, char_ty, types) = pointer;
        let targets = scanf_targets(&pieces, DataModel::LP64, &types, &[ptr; 4]).unwrap();
        use ScanTarget::*;
        assert_eq!(targets, vec![Integer(32), String(Some(5)), Float(64), Chars(3)]);
        assert!(scanf_targets(&pieces, DataModel::LP64, &types, &[ptr; 3]).is_err());
        assert!(scanf_targets(&pieces, DataModel::LP64, &types, &[ptr, char_ty, ptr, ptr]).is_err());
        assert!(scanf_targets(&parse(b"%[abc]", Dialect::Scanf).unwrap(), DataModel::LP64, &types, &[ptr]).is_err());
        assert!(InputChars::LineWithNewline.allows(u32::from(b'\n'), 2, 3) && !InputChars::LineWithNewline.allows(u32::from(b'\n'), 1, 3));
        assert!(!InputChars::Word.allows(u32::from(b'\t'), 0, 1) && InputChars::Line.allows(u32::from(b' '), 0, 1));
        let wide = scanf_targets(&parse(b"%ls%3S", Dialect::Scanf).unwrap(), DataModel::LP64, &types, &[ptr; 2]).unwrap();
        assert_eq!(wide, vec![WideString(None), WideString(Some(3))]);
        let word = InputChars::WideWord;
        assert!(word.allows(0x263a, 0, 1) && !word.allows(0x3000, 0, 1) && !word.allows(0xd800, 0, 1) && !word.allows(0x110000, 0, 1));
        // glibc's scanf takes a width beyond INT_MAX for none; printf refuses it.
        let huge = parse(b"%100000000000d", Dialect::Scanf).unwrap();
        assert!(matches!(huge[0], Piece::Conversion(Spec { width: None, .. })));
        assert!(parse(b"%70000d", Dialect::Scanf).is_err());
    }

    #[test]
    fn integers_print_like_glibc() {
        assert_eq!(int("%d", 100000), "100000");
        assert_eq!(int("%05d", -3), "-0003");
        assert_eq!(int("%-5d", 3), "3    ");
        assert_eq!(int("%+d", 3), "+3");
        assert_eq!(int("% d", 3), " 3");
        assert_eq!(int("%.0d", 0), "");
        assert_eq!(int("%5.3d", -7), " -007");
        assert_eq!(int("%08.3d", 7), "     007");
        assert_eq!(int("%#x", 255), "0xff");
        assert_eq!(int("%#x", 0), "0");
        assert_eq!(int("%02X", 10), "0A");
        assert_eq!(int("%#o", 8), "010");
        assert_eq!(int("%#.0o", 0), "0");
        assert_eq!(int("%#08x", 255), "0x0000ff");
        assert_eq!(int("%u", 4294967295), "4294967295");
    }


    #[test]
    fn other_conversions_pad_with_spaces() {
        let field = Field::resolve(&spec_of("%5s"), None, None);
        assert_eq!(string_text(field, b"ab"), b"   ab");
        assert_eq!(char_text(Field::resolve(&spec_of("%-3c"), None, None), b'x'), b"x  ");
        assert_eq!(pointer_text(Field::resolve(&spec_of("%p"), None, None), 0), b"(nil)");
        assert_eq!(pointer_text(Field::resolve(&spec_of("%p"), None, None), 0x1f), b"0x1f");
        let star = Field::resolve(&spec_of("%*.*d"), Some(-4), Some(-1));
        assert_eq!(star, Field { left: true, width: 4, precision: None });
    }
}
