//! The stdio output functions symex models natively (the interpreter's
//! `interp::stdio` has the same semantics concretely): `printf`, `fprintf`,
//! `dprintf`, `sprintf`, `snprintf`, `asprintf`, their `va_list` forms,
//! `puts`, `fputs`, `putchar`, `putc`, `fputc`, `fflush`, `perror`, also
//! as `__builtin_*` and `*_unlocked`; the input functions are in
//! `stdio_input`.
//!
//! Output succeeds and writes nothing into program memory except `%n`. The
//! result of a printf-style call is the length of the text glibc prints,
//! built as a term over the parsed format (`ir::format`): exact for text,
//! integers (the digit count of a symbolic value is a sum of range tests),
//! characters, strings (read byte by byte with the dereference checks) and
//! constant floating-point values; for a symbolic floating-point value or
//! an address (`%p`, or a pointer printed as an integer) it is a fresh
//! value constrained to the lengths that are possible, which is sound for
//! TRUE while a FALSE still needs the interpreter's exact replay. The
//! interpreter's addresses are not the platform's, so a violation after a
//! printed address is not trusted at all, unless nothing observes the
//! length (the result is discarded and there is no `%n`).
//!
//! `sprintf`/`snprintf` store their text with the write checks, so a text
//! longer than the buffer is an overflow; `asprintf` stores it in a heap
//! block it allocates (and may fail to, as `malloc`). They support the
//! conversions whose text is known (constant values, `%c`) and `%s`
//! without a width.
//!
//! The `va_list` forms (`vprintf`, `vfprintf`, `vdprintf`, `vsprintf`,
//! `vsnprintf`, `vasprintf`) read the arguments their format needs from
//! the argument area their `va_list` points into (`ir::varargs`) and then
//! behave exactly as the plain forms.

use crate::equation::UnmodelledCall;
use crate::exec::Symex;
use crate::memory::ObjectId;
use crate::{repr, Result};
use ir::format::{self, Argument, Count, Dialect, Field, Piece, Spec, MAX_COUNT};
use ir::{Expr, TypeId};
use smt::{BvValue, TermId};

/// A call's argument types and values.
type CallArguments = (Vec<TypeId>, Vec<TermId>);

/// Width of the length terms.
const LENGTH_BITS: u32 = 64;

/// Longest string (format or `%s` argument) read byte by byte.
const MAX_STRING_BYTES: u64 = 4096;

/// Most characters a floating-point conversion of a value of `format`
/// prints beyond its precision: sign, the integer digits of the largest
/// value (309 for double, 4933 for long double), point.
fn max_float_extra(format: ir::FloatFormat) -> u64 {
    match format {
        ir::FloatFormat::X87Extended => 4940,
        _ => 320,
    }
}

/// What symex made of a call of a body-less function.
pub(crate) enum Stdio {
    /// Not a stdio function.
    Other,
    /// Modelled; the call's result, if it has one.
    Modelled(Option<TermId>),
    /// A stdio function called in a way the model does not cover.
    Unsupported(String),
}

/// A part of `sprintf`'s text.
enum Chunk {
    /// Characters of a known count.
    Bytes(Vec<TermId>),
    /// `%s`: the string at `pointer`, cut at `precision`, of `length`
    /// bytes (set once the chunks of a text are known).
    String { pointer: TermId, precision: Option<u32>, length: TermId },
    /// The first `length` of `bytes` (a symbolic integer's text).
    Prefix { bytes: Vec<TermId>, length: TermId },
}

/// A field width or precision as terms.
struct FieldTerms {
    width: TermId,
    /// (present, value) of the precision.
    precision: Option<(TermId, TermId)>,
    /// The same field when every count is a constant.
    constant: Option<Field>,
}

/// The global of the stdio model that holds the fmemopen streams.
const MEMORY_STREAMS: &str = "__tarsier_memory_streams";

/// The stream argument of a native stream function that a program can call
/// directly with a memory stream: the printf and scanf forms (variadic, so
/// the stdio model has no C wrapper for them) and the `__builtin_` forms of
/// the functions whose wrappers call the native model only for the
/// environment's streams.
fn unwrapped_stream_argument(name: &str) -> Option<usize> {
    let plain = format::stdio_name(name);
    let plain = format::va_list_form(plain).map_or(plain, |(plain, _)| plain);
    match plain {
        "fprintf" | "fscanf" => Some(0),
        _ if !name.starts_with("__builtin_") => None,
        "fflush" => Some(0),
        "fputs" | "fputc" | "putc" => Some(1),
        "fgets" => Some(2),
        _ => None,
    }
}

impl<'a> Symex<'a> {
    /// Models the stdio output function `name` if it is one; `result_used`
    /// says whether the call's result is assigned.
    pub(crate) fn call_stdio(&mut self, name: &str, args: &'a [Expr], values: &[TermId], result_used: bool) -> Result<Stdio> {
        let int = |s: &mut Self, v: u64| -> Result<Stdio> { Ok(Stdio::Modelled(Some(s.store.bv_u64(32, v)))) };
        let Some(&first) = values.first() else { return Ok(Stdio::Other) };
        let types: Vec<TypeId> = args.iter().map(|a| a.ty).collect();
        if let Some(stream) = unwrapped_stream_argument(name).and_then(|i| values.get(i)) {
            if self.may_be_memory_stream(*stream)? {
                return Ok(Stdio::Unsupported("a stream that may be a memory stream (fmemopen)".into()));
            }
        }
        if let Some((plain, format_index)) = format::va_list_form(format::stdio_name(name)) {
            return match self.va_arguments(format_index, &types, values)? {
                Ok((types, values)) => self.call_print(name, plain, &types, &values, result_used),
                Err(why) => Ok(Stdio::Unsupported(why)),
            };
        }
        match format::stdio_name(name) {
            plain @ ("printf" | "fprintf" | "dprintf" | "sprintf" | "snprintf" | "asprintf") => {
                self.call_print(name, plain, &types, values, result_used)
            }
            "puts" => {
                let length = self.string_length(first, None)?;
                let one = self.length_const(1);
                let sum = self.store.bv_add(length, one);
                Ok(Stdio::Modelled(Some(repr::resize(self.store, sum, 32, false))))
            }
            "fputs" => {
                self.string_length(first, None)?;
                int(self, 1)
            }
            "putchar" | "putc" | "fputc" => {
                let byte = repr::resize(self.store, first, 8, false);
                Ok(Stdio::Modelled(Some(repr::resize(self.store, byte, 32, false))))
            }
            "fflush" => int(self, 0),
            "perror" => {
                let null = self.layout.null(self.store);
                let is_null = self.store.eq(first, null);
                let saved = self.state.guard;
                let not_null = self.store.not(is_null);
                self.state.guard = self.store.and2(saved, not_null);
                let read = self.string_length(first, None);
                self.state.guard = saved;
                read?;
                Ok(Stdio::Modelled(None))
            }
            _ => Ok(self.call_stdio_input(name, args, values)?.unwrap_or(Stdio::Other)),
        }
    }

    /// Whether `stream` may be one of the stdio model's fmemopen streams,
    /// whose bytes live in the program's memory: the native printf and
    /// scanf models read and write no stream.
    fn may_be_memory_stream(&mut self, stream: TermId) -> Result<bool> {
        let pool = self.program.symbols.iter().find(|(_, s)| s.name == MEMORY_STREAMS && s.kind == ir::SymbolKind::Global);
        let Some((pool, _)) = pool else { return Ok(false) };
        let pool = self.variable_object(pool)?;
        let pool = self.address_of_object(pool)?;
        let pool = self.layout.object_of(self.store, pool);
        let target = self.layout.object_of(self.store, stream);
        let same = self.store.eq(target, pool);
        let possible = self.store.and2(self.state.guard, same);
        Ok(!self.store.is_false(possible))
    }

    /// The printf-family function `plain` (called as `name`) with its
    /// arguments' types and values.
    fn call_print(&mut self, name: &str, plain: &str, types: &[TypeId], values: &[TermId], result_used: bool) -> Result<Stdio> {
        let Some(&first) = values.first() else { return Ok(Stdio::Other) };
        match plain {
            "printf" => self.print(name, 0, types, values, result_used),
            "fprintf" | "dprintf" => self.print(name, 1, types, values, result_used),
            "sprintf" => self.print_to_string(first, None, 1, types, values),
            "asprintf" => self.print_allocated(first, types, values),
            _ => match values.get(1).and_then(|&v| self.store.as_bv_const(v)).and_then(BvValue::to_u64) {
                Some(size) => self.print_to_string(first, Some(size), 2, types, values),
                None => Ok(Stdio::Unsupported("a buffer size that is not a constant".into())),
            },
        }
    }

    /// The arguments of a `va_list` form (`vprintf`, ...) as its plain form
    /// takes them: the fixed ones up to the format, then the values its
    /// format reads slot after slot from the `va_list` cursor that follows
    /// the format (checked reads: reading past the arguments is an access
    /// outside the argument area).
    fn va_arguments(
        &mut self,
        format_index: usize,
        types: &[TypeId],
        values: &[TermId],
    ) -> Result<std::result::Result<CallArguments, String>> {
        let (Some(&format), Some(&cursor), Some(&list_type)) =
            (values.get(format_index), values.get(format_index + 1), types.get(format_index + 1))
        else {
            return Ok(Err("a call without its format and `va_list`".into()));
        };
        if !self.program.types.is_pointer(list_type) {
            return Ok(Err("a `va_list` that is not a pointer".into()));
        }
        let Some(text) = self.constant_string(format)? else {
            return Ok(Err("a format that is not a constant string".into()));
        };
        let model = self.program.data_model;
        let read = match format::parse(&text, Dialect::Printf)
            .and_then(|pieces| format::va_argument_types(&pieces, model, &self.program.types, list_type))
        {
            Ok(read) => read,
            Err(why) => return Ok(Err(why)),
        };
        let mut plain_types = types[..=format_index].to_vec();
        let mut plain_values = values[..=format_index].to_vec();
        let mut at = cursor;
        for ty in read {
            let align = ir::varargs::slot_alignment(&self.program.types, ty, model).expect("a va_arg type has an alignment");
            if align > model.pointer_bytes() {
                at = self.align_pointer_up(at, align);
            }
            let place = self.deref_place(at, 1);
            plain_values.push(self.read_place(&place, ty)?);
            plain_types.push(ty);
            at = self.offset_pointer(at, ir::varargs::slot_size(&self.program.types, ty, model).expect("a va_arg type has a size"));
        }
        Ok(Ok((plain_types, plain_values)))
    }

    /// A printf-style call whose format is argument `format_index`. The
    /// text goes nowhere, so the length of a printed address matters only
    /// when the result is used or a `%n` stores a count.
    fn print(&mut self, name: &str, format_index: usize, types: &[TypeId], values: &[TermId], result_used: bool) -> Result<Stdio> {
        let pieces = match self.checked_format(format_index, types, values)? {
            Ok(pieces) => pieces,
            Err(why) => return Ok(Stdio::Unsupported(why)),
        };
        let stores_count = pieces.iter().any(|p| matches!(p, Piece::Conversion(spec) if spec.conversion == b'n'));
        let observer = (result_used || stores_count).then_some(name);
        let mut next = format_index + 1;
        let mut printed = self.length_const(0);
        for piece in &pieces {
            let length = match piece {
                Piece::Text(text) => self.length_const(text.len() as u64),
                Piece::Conversion(spec) => self.conversion_length(observer, spec, types, values, &mut next, printed)?,
            };
            printed = self.store.bv_add(printed, length);
        }
        Ok(Stdio::Modelled(Some(repr::resize(self.store, printed, 32, false))))
    }

    /// The parsed constant format at argument `format_index`, checked
    /// against the argument types after it, or why it is not supported.
    fn checked_format(
        &mut self,
        format_index: usize,
        types: &[TypeId],
        values: &[TermId],
    ) -> Result<std::result::Result<Vec<Piece>, String>> {
        let Some(&format) = values.get(format_index) else {
            return Ok(Err("a call without its format".into()));
        };
        let Some(text) = self.constant_string(format)? else {
            return Ok(Err("a format that is not a constant string".into()));
        };
        let model = self.program.data_model;
        Ok(format::parse(&text, Dialect::Printf).and_then(|pieces| {
            format::check_printf_arguments(&pieces, model, &self.program.types, &types[format_index + 1..])?;
            Ok(pieces)
        }))
    }

    /// `sprintf(buffer, ...)` or `snprintf(buffer, size, ...)`: the text
    /// and a NUL stored (at most `size` bytes), the full length returned.
    fn print_to_string(
        &mut self,
        buffer: TermId,
        size: Option<u64>,
        format_index: usize,
        types: &[TypeId],
        values: &[TermId],
    ) -> Result<Stdio> {
        let chunks = match self.string_chunks(format_index, types, values)? {
            Ok(chunks) => chunks,
            Err(why) => return Ok(Stdio::Unsupported(why)),
        };
        let limit = size.map(|n| n.saturating_sub(1));
        let position = self.write_chunks(buffer, chunks, limit)?;
        if size != Some(0) {
            let end = match limit {
                Some(limit) => {
                    let limit = self.length_const(limit);
                    self.min(position, limit)
                }
                None => position,
            };
            let nul = self.store.bv_u64(8, 0);
            self.store_output_byte(buffer, end, nul, None)?;
        }
        Ok(Stdio::Modelled(Some(repr::resize(self.store, position, 32, false))))
    }

    /// `asprintf(&s, ...)`: a heap block as `malloc` makes it, holding the
    /// text and a NUL, stored in `s`; the text's length, or -1 (and `s`
    /// unchanged) when the allocation fails.
    fn print_allocated(&mut self, target: TermId, types: &[TypeId], values: &[TermId]) -> Result<Stdio> {
        let chunks = match self.string_chunks(1, types, values)? {
            Ok(chunks) => chunks,
            Err(why) => return Ok(Stdio::Unsupported(why)),
        };
        let mut length = self.length_const(0);
        for chunk in &chunks {
            let chunk_length = match chunk {
                Chunk::Bytes(bytes) => self.length_const(bytes.len() as u64),
                Chunk::String { length, .. } | Chunk::Prefix { length, .. } => *length,
            };
            length = self.store.bv_add(length, chunk_length);
        }
        let one = self.length_const(1);
        let size = self.store.bv_add(length, one);
        let block = self.allocate(&[size], 1, false, "asprintf")?;
        let null = self.layout.null(self.store);
        let failed = self.store.eq(block, null);
        let allocated = self.store.not(failed);
        self.under(allocated, |this| {
            let place = this.deref_place(target, 1);
            this.write_place_bits(&place, block)?;
            this.note_pointer_store_at(&place, block);
            let end = this.write_chunks(block, chunks, None)?;
            let nul = this.store.bv_u64(8, 0);
            this.store_output_byte(block, end, nul, None)
        })?;
        let length = repr::resize(self.store, length, 32, false);
        let minus_one = self.store.bv_const(BvValue::from_i128(32, -1));
        Ok(Stdio::Modelled(Some(self.store.ite(failed, minus_one, length))))
    }

    /// The text of the printf-style format at argument `format_index` as
    /// chunks, or why it is not supported in a string: conversions whose
    /// text is known up to `%c` characters, and `%s` without a width.
    fn string_chunks(
        &mut self,
        format_index: usize,
        types: &[TypeId],
        values: &[TermId],
    ) -> Result<std::result::Result<Vec<Chunk>, String>> {
        let pieces = match self.checked_format(format_index, types, values)? {
            Ok(pieces) => pieces,
            Err(why) => return Ok(Err(why)),
        };
        let mut chunks = Vec::new();
        let mut next = format_index + 1;
        for piece in &pieces {
            let chunk = match piece {
                Piece::Text(text) => Chunk::Bytes(text.iter().map(|&b| self.store.bv_u64(8, u64::from(b))).collect()),
                Piece::Conversion(spec) => match self.chunk(spec, types, values, &mut next) {
                    Ok(chunk) => chunk,
                    Err(why) => return Ok(Err(why)),
                },
            };
            chunks.push(chunk);
        }
        for chunk in &mut chunks {
            if let Chunk::String { pointer, precision, length } = chunk {
                if self.layout.known_targets(self.store, *pointer).is_none() {
                    // Copied byte by byte, its reads would be checked where
                    // `string_length` does not check them.
                    return Ok(Err("`%s` of a pointer of unknown origin in a string".into()));
                }
                let limit = precision.map(|p| self.length_const(u64::from(p)));
                *length = self.string_length(*pointer, limit)?;
            }
        }
        Ok(Ok(chunks))
    }

    /// Stores `chunks` from `buffer` on, not at or past `limit`; returns
    /// the length of the whole text.
    fn write_chunks(&mut self, buffer: TermId, chunks: Vec<Chunk>, limit: Option<u64>) -> Result<TermId> {
        let mut position = self.length_const(0);
        for chunk in chunks {
            position = match chunk {
                Chunk::Bytes(bytes) => {
                    for byte in bytes {
                        self.store_output_byte(buffer, position, byte, limit)?;
                        let one = self.length_const(1);
                        position = self.store.bv_add(position, one);
                    }
                    position
                }
                Chunk::String { pointer, precision, length } => {
                    self.copy_string(buffer, position, pointer, precision, length, limit)?
                }
                Chunk::Prefix { bytes, length } => {
                    for (i, byte) in bytes.into_iter().enumerate() {
                        let index = self.length_const(i as u64);
                        let inside = self.store.bv_ult(index, length);
                        let at = self.store.bv_add(position, index);
                        self.under(inside, |this| this.store_output_byte(buffer, at, byte, limit))?;
                    }
                    self.store.bv_add(position, length)
                }
            };
        }
        Ok(position)
    }

    /// The text of one conversion for `sprintf`, or why it is not supported.
    fn chunk(&mut self, spec: &Spec, types: &[TypeId], values: &[TermId], next: &mut usize) -> std::result::Result<Chunk, String> {
        let unsupported = || format!("`{}` of a value that is not a constant in a string", spec.text());
        let mut star = |s: &mut Self, count: Option<Count>| -> std::result::Result<Option<i32>, String> {
            if count != Some(Count::FromArgument) {
                return Ok(None);
            }
            *next += 1;
            s.store.as_bv_const(values[*next - 1]).and_then(BvValue::to_u64).map(|c| Some(c as u32 as i32)).ok_or_else(unsupported)
        };
        let width = star(self, spec.width)?;
        let precision = star(self, spec.precision)?;
        let field = Field::resolve(spec, width, precision);
        let argument = spec.printf_argument(self.program.data_model)?;
        let (value, ty) = (values[*next], types[*next]);
        *next += 1;
        if matches!(argument, Argument::Float(_)) {
            self.approximate_directed_printing();
        }
        let constant_bits = || self.store.as_bv_const(value).and_then(BvValue::to_u128).filter(|_| !self.program.types.is_pointer(ty));
        let text = match argument {
            Argument::Signed(bits) | Argument::Unsigned(bits) if constant_bits().is_none() => {
                let plain = spec.flags == format::Flags::default() && spec.width.is_none() && spec.precision.is_none();
                if !plain || self.program.types.is_pointer(ty) || self.store.sort(value) == smt::Sort::Bool {
                    return Err(unsupported());
                }
                let value = repr::resize(self.store, value, bits, self.program.types.is_signed(ty));
                return Ok(self.integer_chunk(spec, value, bits, matches!(argument, Argument::Signed(_))));
            }
            Argument::Signed(bits) | Argument::Unsigned(bits) => {
                let value_bits = constant_bits().ok_or_else(unsupported)?;
                let extended = match self.program.types.get(ty) {
                    ir::Type::Int { bits: width, signed: true } => format::sign_and_magnitude(value_bits, *width, true),
                    _ => (false, value_bits),
                };
                let extended = if extended.0 { extended.1.wrapping_neg() } else { extended.1 };
                let signed = matches!(argument, Argument::Signed(_));
                let (negative, magnitude) = format::sign_and_magnitude(extended, bits, signed);
                format::integer_text(spec, field, negative, magnitude)
            }
            Argument::Float(float) => {
                let bits_value = constant_bits().ok_or_else(unsupported)?;
                format::float_text(spec, field, float, bits_value)
            }
            Argument::Char => {
                let marker = format::char_text(field, 0);
                let byte = repr::resize(self.store, value, 8, false);
                let space = self.store.bv_u64(8, u64::from(b' '));
                return Ok(Chunk::Bytes(marker.iter().map(|&c| if c == 0 { byte } else { space }).collect()));
            }
            Argument::String if field.width == 0 => {
                let unknown = self.length_const(0);
                return Ok(Chunk::String { pointer: value, precision: field.precision, length: unknown });
            }
            _ => return Err(format!("`{}` in a string", spec.text())),
        };
        Ok(Chunk::Bytes(text.iter().map(|&b| self.store.bv_u64(8, u64::from(b))).collect()))
    }

    /// The text of the symbolic `bits`-bit integer `value` printed by a
    /// conversion without flags, width or precision: a `-` for a negative
    /// `signed` value, then its digits. The digits are fresh values that
    /// are assumed to spell the magnitude; exactly one choice does, so the
    /// assumption cuts no path.
    fn integer_chunk(&mut self, spec: &Spec, value: TermId, bits: u32, signed: bool) -> Chunk {
        let base = spec.base();
        let zero = self.store.bv_u64(bits, 0);
        let negative = if signed { self.store.bv_slt(value, zero) } else { self.store.false_term() };
        let minus = self.store.bv_neg(value);
        let magnitude = self.store.ite(negative, minus, value);
        let count = self.digit_count(magnitude, bits, base);
        let most = format::radix_digits(ir::layout::low_mask(bits), base, false).len();
        // Wide enough for base^most - 1: the spelled value never wraps.
        let wide = bits + 4;
        let digits: Vec<TermId> = (0..most)
            .map(|_| {
                let digit = self.store.var("printed_digit", smt::Sort::BitVec(wide));
                let largest = self.store.bv_u64(wide, u64::from(base) - 1);
                let is_digit = self.store.bv_ule(digit, largest);
                self.assume(is_digit);
                digit
            })
            .collect();
        let base_term = self.store.bv_u64(wide, u64::from(base));
        let mut spelled = self.store.bv_u64(wide, 0);
        for &digit in digits.iter().rev() {
            let shifted = self.store.bv_mul(spelled, base_term);
            spelled = self.store.bv_add(shifted, digit);
        }
        let wide_magnitude = repr::resize(self.store, magnitude, wide, false);
        let spells = self.store.eq(spelled, wide_magnitude);
        self.assume(spells);
        let characters: Vec<TermId> = digits.iter().map(|&d| self.digit_character(d, spec.conversion == b'X')).collect();
        // Character i of the digits is digit (count - 1 - i), counted from the least significant.
        let mut text: Vec<TermId> = (0..most)
            .map(|i| {
                let mut byte = self.store.bv_u64(8, u64::from(b'0'));
                for n in i + 1..=most {
                    let is_count = {
                        let n_term = self.length_const(n as u64);
                        self.store.eq(count, n_term)
                    };
                    byte = self.store.ite(is_count, characters[n - 1 - i], byte);
                }
                byte
            })
            .collect();
        let mut length = count;
        if signed {
            let dash = self.store.bv_u64(8, u64::from(b'-'));
            let shifted: Vec<TermId> =
                (0..=most).map(|i| if i == 0 { dash } else { text[i - 1] }).collect();
            text.push(text[most - 1]);
            text = (0..=most).map(|i| self.store.ite(negative, shifted[i], text[i])).collect();
            let (one, none) = (self.length_const(1), self.length_const(0));
            let sign = self.store.ite(negative, one, none);
            length = self.store.bv_add(count, sign);
        }
        Chunk::Prefix { bytes: text, length }
    }

    /// The character of the `digit` (a value below 16).
    fn digit_character(&mut self, digit: TermId, upper: bool) -> TermId {
        let byte = repr::resize(self.store, digit, 8, false);
        let ten = self.store.bv_u64(8, 10);
        let is_decimal = self.store.bv_ult(byte, ten);
        let letter_start = self.store.bv_u64(8, u64::from(if upper { b'A' } else { b'a' }) - 10);
        let zero_char = self.store.bv_u64(8, u64::from(b'0'));
        let as_decimal = self.store.bv_add(byte, zero_char);
        let as_letter = self.store.bv_add(byte, letter_start);
        self.store.ite(is_decimal, as_decimal, as_letter)
    }

    /// Copies the `length` bytes of the string at `pointer` (at most
    /// `precision`) to `buffer + position`; returns the position after it.
    fn copy_string(
        &mut self,
        buffer: TermId,
        position: TermId,
        pointer: TermId,
        precision: Option<u32>,
        length: TermId,
        limit: Option<u64>,
    ) -> Result<TermId> {
        let largest = self.pointer_targets(pointer).iter().map(|&(o, _)| self.objects.get(o).size).max().unwrap_or(0);
        let count = precision.map_or(largest, |p| u64::from(p).min(largest));
        for i in 0..count {
            let index = self.length_const(i);
            let inside = self.store.bv_ult(index, length);
            let at = self.store.bv_add(position, index);
            self.under(inside, |this| {
                let byte = this.read_byte(pointer, i)?;
                this.store_output_byte(buffer, at, byte, limit)
            })?;
        }
        Ok(self.store.bv_add(position, length))
    }

    /// Stores `byte` at `buffer + position` (checked) unless `position`
    /// reaches `limit`.
    fn store_output_byte(&mut self, buffer: TermId, position: TermId, byte: TermId, limit: Option<u64>) -> Result<()> {
        let store = |this: &mut Self| {
            let at = this.advance_pointer(buffer, position);
            let place = this.deref_place(at, 1);
            this.note_data_store(byte);
            this.write_place_bits(&place, byte)
        };
        match limit {
            Some(limit) => {
                let limit = self.length_const(limit);
                let before = self.store.bv_ult(position, limit);
                self.under(before, store)
            }
            None => store(self),
        }
    }

    /// `pointer + delta` for a length term `delta`.
    /// `pointer` moved up to the next offset in its object that is a
    /// multiple of `align` (a power of two), as `va_arg` moves its cursor.
    fn align_pointer_up(&mut self, pointer: TermId, align: u64) -> TermId {
        let bits = self.layout.wide_bits();
        let offset = self.layout.wide_offset_of(self.store, pointer);
        let mask = self.store.bv_u64(bits, align - 1);
        let sum = self.store.bv_add(offset, mask);
        let inverted = self.store.bv_not(mask);
        let aligned = self.store.bv_and(sum, inverted);
        self.move_pointer(pointer, aligned)
    }

    pub(crate) fn advance_pointer(&mut self, pointer: TermId, delta: TermId) -> TermId {
        let offset = self.layout.wide_offset_of(self.store, pointer);
        let delta = repr::resize(self.store, delta, self.layout.wide_bits(), false);
        let moved = self.store.bv_add(offset, delta);
        self.move_pointer(pointer, moved)
    }

    fn length_const(&mut self, n: u64) -> TermId {
        self.store.bv_u64(LENGTH_BITS, n)
    }

    fn max(&mut self, a: TermId, b: TermId) -> TermId {
        let less = self.store.bv_ult(a, b);
        self.store.ite(less, b, a)
    }

    fn min(&mut self, a: TermId, b: TermId) -> TermId {
        let less = self.store.bv_ult(a, b);
        self.store.ite(less, a, b)
    }

    /// The length of one conversion's text; consumes its arguments.
    /// `observer` names the call when something observes the length.
    fn conversion_length(
        &mut self,
        observer: Option<&str>,
        spec: &Spec,
        types: &[TypeId],
        values: &[TermId],
        next: &mut usize,
        printed: TermId,
    ) -> Result<TermId> {
        let field = self.field_terms(spec, values, next);
        let argument = spec.printf_argument(self.program.data_model).expect("checked with the arguments");
        let (value, ty) = (values[*next], types[*next]);
        *next += 1;
        let body = match argument {
            Argument::Signed(bits) | Argument::Unsigned(bits) => {
                let signed = matches!(argument, Argument::Signed(_));
                let value = self.integer_argument(observer, value, ty, bits);
                self.integer_length(spec, &field, value, bits, signed)
            }
            Argument::Float(float) => self.float_length(spec, &field, float, value),
            Argument::Char => self.length_const(1),
            Argument::String => {
                let limit = field.precision.map(|(present, p)| {
                    let unlimited = self.length_const(u64::MAX);
                    self.store.ite(present, p, unlimited)
                });
                self.string_length(value, limit)?
            }
            Argument::Pointer => self.pointer_length(observer, value),
            Argument::Count(bits) => {
                let count = repr::resize(self.store, printed, bits, false);
                let place = self.deref_place(value, 1);
                self.note_data_store(count);
                self.write_place_bits(&place, count)?;
                return Ok(self.length_const(0));
            }
        };
        Ok(self.max(field.width, body))
    }

    /// The width and precision of `spec`, taking `*` arguments.
    fn field_terms(&mut self, spec: &Spec, values: &[TermId], next: &mut usize) -> FieldTerms {
        let limit = self.length_const(u64::from(MAX_COUNT));
        let zero = self.length_const(0);
        let mut constant_star = Vec::new();
        let mut star = |s: &mut Self| {
            let v = values[*next];
            *next += 1;
            constant_star.push(s.store.as_bv_const(v).and_then(BvValue::to_u64).map(|c| c as u32 as i32));
            // A `*` count is an `int`: its low 32 bits, as the interpreter reads it.
            let int = repr::resize(s.store, v, 32, false);
            let wide = repr::resize(s.store, int, LENGTH_BITS, true);
            let negative = s.store.bv_slt(wide, zero);
            (negative, wide)
        };
        let width = match spec.width {
            Some(Count::Fixed(n)) => self.length_const(u64::from(n)),
            Some(Count::FromArgument) => {
                let (negative, w) = star(self);
                let minus = self.store.bv_neg(w);
                let magnitude = self.store.ite(negative, minus, w);
                let over = self.store.bv_ult(limit, magnitude);
                self.store.ite(over, limit, magnitude)
            }
            None => zero,
        };
        let precision = match spec.precision {
            Some(Count::Fixed(n)) => Some((self.store.true_term(), self.length_const(u64::from(n)))),
            Some(Count::FromArgument) => {
                let (negative, p) = star(self);
                let present = self.store.not(negative);
                let over = self.store.bv_ult(limit, p);
                Some((present, self.store.ite(over, limit, p)))
            }
            None => None,
        };
        let mut stars = constant_star.into_iter();
        let width_star = (spec.width == Some(Count::FromArgument)).then(|| stars.next().flatten());
        let precision_star = (spec.precision == Some(Count::FromArgument)).then(|| stars.next().flatten());
        let constant = match (width_star, precision_star) {
            (Some(None), _) | (_, Some(None)) => None,
            (w, p) => Some(Field::resolve(spec, w.flatten(), p.flatten())),
        };
        FieldTerms { width, precision, constant }
    }

    /// An integer argument as `bits` bits: extended by its own type, or,
    /// for a pointer, an arbitrary address.
    fn integer_argument(&mut self, observer: Option<&str>, value: TermId, ty: ir::TypeId, bits: u32) -> TermId {
        if self.program.types.is_pointer(ty) {
            let address = self.observed_address(observer, value);
            return repr::resize(self.store, address, bits, false);
        }
        if self.store.sort(value) == smt::Sort::Bool {
            let one = self.store.bv_u64(bits, 1);
            let zero = self.store.bv_u64(bits, 0);
            return self.store.ite(value, one, zero);
        }
        repr::resize(self.store, value, bits, self.program.types.is_signed(ty))
    }

    /// The length of an integer conversion (`d i u o x X`) without padding.
    fn integer_length(&mut self, spec: &Spec, field: &FieldTerms, value: TermId, bits: u32, signed: bool) -> TermId {
        let zero_bits = self.store.bv_u64(bits, 0);
        let negative = if signed { self.store.bv_slt(value, zero_bits) } else { self.store.false_term() };
        let minus = self.store.bv_neg(value);
        let magnitude = self.store.ite(negative, minus, value);
        let is_zero = self.store.eq(magnitude, zero_bits);
        let digits = self.digit_count(magnitude, bits, spec.base());
        let mut shown = digits;
        let mut padded_by_precision = self.store.false_term();
        if let Some((present, p)) = field.precision {
            let zero = self.length_const(0);
            let p_is_zero = self.store.eq(p, zero);
            let none = self.store.and(&[present, p_is_zero, is_zero]);
            shown = self.store.ite(none, zero, digits);
            let longer = self.store.bv_ult(shown, p);
            padded_by_precision = self.store.and2(present, longer);
            shown = self.store.ite(padded_by_precision, p, shown);
        }
        let one = self.length_const(1);
        let zero = self.length_const(0);
        if spec.flags.alternate && spec.conversion == b'o' {
            // A leading zero is added unless the digits already start with one.
            let shows_zero = self.store.bv_ult(zero, shown);
            let zero_shown = self.store.and2(is_zero, shows_zero);
            let starts_with_zero = self.store.or2(zero_shown, padded_by_precision);
            let extra = self.store.ite(starts_with_zero, zero, one);
            shown = self.store.bv_add(shown, extra);
        }
        let mut prefix = if signed && (spec.flags.plus || spec.flags.space) {
            one
        } else {
            self.store.ite(negative, one, zero)
        };
        if spec.flags.alternate && matches!(spec.conversion, b'x' | b'X') {
            let two = self.length_const(2);
            let extra = self.store.ite(is_zero, zero, two);
            prefix = self.store.bv_add(prefix, extra);
        }
        self.store.bv_add(prefix, shown)
    }

    /// The number of digits of the unsigned `bits`-bit `magnitude` in `base`.
    fn digit_count(&mut self, magnitude: TermId, bits: u32, base: u32) -> TermId {
        let mut count = self.length_const(1);
        let one = self.length_const(1);
        let zero = self.length_const(0);
        let max = ir::layout::low_mask(bits);
        let mut power = u128::from(base);
        while power <= max {
            let threshold = self.store.bv_const(BvValue::from_u128(bits, power));
            let below = self.store.bv_ult(magnitude, threshold);
            let extra = self.store.ite(below, zero, one);
            count = self.store.bv_add(count, extra);
            power = match power.checked_mul(u128::from(base)) {
                Some(p) => p,
                None => break,
            };
        }
        count
    }

    /// glibc rounds the digits it prints in the current rounding mode,
    /// `ir::format` to nearest: a float printed where the mode may be
    /// another is an approximation (and the interpreter refuses to replay
    /// it).
    fn approximate_directed_printing(&mut self) {
        let other_mode = match self.rounding_mode() {
            Ok(mode) => {
                let nearest = self.store.rm_const(smt::RoundingMode::Rne);
                let nearest = self.store.eq(mode, nearest);
                self.store.not(nearest)
            }
            Err(_) => self.store.true_term(),
        };
        self.approximate_when(other_mode, "a float printed in a rounding mode other than to nearest (glibc rounds the printed digits in the current mode)");
    }

    /// The length of a floating-point conversion without padding: exact
    /// for a constant, else any length the conversion can print.
    fn float_length(&mut self, spec: &Spec, field: &FieldTerms, float: ir::FloatFormat, value: TermId) -> TermId {
        let constant = self.store.as_bv_const(value).and_then(BvValue::to_u128);
        if let (Some(bits), Some(field)) = (constant, field.constant) {
            self.approximate_directed_printing();
            let text = format::float_text(spec, Field { width: 0, ..field }, float, bits);
            return self.length_const(text.len() as u64);
        }
        let precision_limit = match spec.precision {
            Some(Count::Fixed(n)) => u64::from(n),
            Some(Count::FromArgument) => u64::from(MAX_COUNT),
            None => 6,
        };
        self.length_between(1, precision_limit + max_float_extra(float), "printed_float_length")
    }

    /// `%p`: `(nil)` for address 0, else `0x` and the address's hex
    /// digits, as glibc prints it.
    fn pointer_length(&mut self, observer: Option<&str>, pointer: TermId) -> TermId {
        let address = self.observed_address(observer, pointer);
        let bits = self.layout.pointer_bits;
        let zero = self.store.bv_u64(bits, 0);
        let is_null = self.store.eq(address, zero);
        let digits = self.digit_count(address, bits, 16);
        let prefix = self.length_const(2);
        let hex = self.store.bv_add(prefix, digits);
        let nil = self.length_const(5);
        self.store.ite(is_null, nil, hex)
    }

    /// The address of a printed `pointer` (pointer width). When the call
    /// `observer` lets the printed length be observed, it is the address
    /// a cast gives (exposing the object, PNVI-ae) if that needs no
    /// approximation, else a fresh value; otherwise the length matters to
    /// nothing and it is a fresh value. The layout the solver picks is one
    /// that some run may have, not every run's, so a violation on the path
    /// is trusted only if it happens whatever the address is.
    fn observed_address(&mut self, observer: Option<&str>, pointer: TermId) -> TermId {
        let fresh = |s: &mut Self| s.store.var("printed_address", s.layout.sort());
        let Some(name) = observer else { return fresh(self) };
        let address = match self.printed_address(pointer) {
            Some(address) => address,
            None => fresh(self),
        };
        let call = UnmodelledCall {
            guard: self.state.guard,
            name: format!("{name} (an address printed)"),
            loc: self.loc,
            assertions_before: self.equation.assertions.len(),
            layout_values: vec![address],
        };
        self.equation.unmodelled_calls.push(call);
        address
    }

    /// A fresh length in `[low, high]`: any value of a fresh variable,
    /// folded into the range (so the range is no path condition, and a
    /// violation can be checked for every value of the variable).
    fn length_between(&mut self, low: u64, high: u64, name: &str) -> TermId {
        let length = self.store.var(name, smt::Sort::BitVec(LENGTH_BITS));
        let (low, high) = (self.length_const(low), self.length_const(high));
        let above = self.store.bv_ule(low, length);
        let below = self.store.bv_ule(length, high);
        let in_range = self.store.and2(above, below);
        self.store.ite(in_range, length, low)
    }

    /// The bytes of the NUL-terminated string at `pointer` if they are all
    /// constant (checked reads), else `None`.
    pub(crate) fn constant_string(&mut self, pointer: TermId) -> Result<Option<Vec<u8>>> {
        let mut text = Vec::new();
        for i in 0..MAX_STRING_BYTES {
            let byte = self.read_byte(pointer, i)?;
            match self.store.as_bv_const(byte).and_then(BvValue::to_u64) {
                Some(0) => return Ok(Some(text)),
                Some(c) => text.push(c as u8),
                None => return Ok(None),
            }
        }
        Ok(None)
    }

    /// The byte at `pointer + index` (a checked read).
    fn read_byte(&mut self, pointer: TermId, index: u64) -> Result<TermId> {
        let at = self.offset_pointer(pointer, index);
        let place = self.deref_place(at, 1);
        self.read_place_data(&place, 8)
    }

    /// The length of the string at `pointer`, reading at most `limit`
    /// bytes; each byte is read (with the dereference checks) only on the
    /// paths where the string has not ended before it. A string that runs
    /// past every object it may lie in has had an out-of-bounds read by
    /// then, and the path ends there.
    pub(crate) fn string_length(&mut self, pointer: TermId, limit: Option<TermId>) -> Result<TermId> {
        if self.layout.known_targets(self.store, pointer).is_none() {
            // Reading through every addressable object costs more than the
            // rest of most programs; such pointers come from unmodelled
            // inputs, which make the checks untrusted anyway.
            self.approximate("a string read through a pointer of unknown origin is not checked", true);
            let length = self.store.var("string_length", smt::Sort::BitVec(LENGTH_BITS));
            return Ok(match limit {
                Some(limit) => self.min(length, limit),
                None => length,
            });
        }
        if let Some(length) = self.environment_string_length(pointer, limit)? {
            return Ok(length);
        }
        let targets = self.pointer_targets(pointer);
        // A byte array of symbolic size has no `size` to read up to (that
        // would cut the string off), nor has an object too large to read
        // byte by byte: both are checked at their first byte only.
        let symbolic = |o: ObjectId| self.objects.get(o).size_term.is_some();
        let largest = targets.iter().map(|&(o, _)| self.objects.get(o).size).max().unwrap_or(0);
        let any_byte_array = targets.iter().any(|&(o, _)| self.objects.get(o).byte_array);
        if any_byte_array && (largest >= MAX_STRING_BYTES || targets.iter().any(|&(o, _)| symbolic(o))) {
            self.read_byte(pointer, 0)?;
            self.approximate("a string in an object of symbolic or large size is checked at its first byte only", true);
            let length = self.store.var("string_length", smt::Sort::BitVec(LENGTH_BITS));
            return Ok(match limit {
                Some(limit) => self.min(length, limit),
                None => length,
            });
        }
        if largest >= MAX_STRING_BYTES {
            return Err(crate::Stop::unsupported(format!("a string in an object of {largest} bytes"), self.loc));
        }
        let saved = self.state.guard;
        let mut going = self.store.true_term();
        let mut length = self.length_const(0);
        let (zero, one) = (self.length_const(0), self.length_const(1));
        for i in 0..=largest {
            if let Some(limit) = limit {
                let index = self.length_const(i);
                let within = self.store.bv_ult(index, limit);
                going = self.store.and2(going, within);
            }
            self.state.guard = self.store.and2(saved, going);
            if self.store.is_false(self.state.guard) {
                break;
            }
            let byte = self.read_byte(pointer, i);
            let byte = match byte {
                Ok(byte) => byte,
                Err(e) => {
                    self.state.guard = saved;
                    return Err(e);
                }
            };
            let zero_byte = self.store.bv_u64(8, 0);
            let is_end = self.store.eq(byte, zero_byte);
            let continues = self.store.not(is_end);
            going = self.store.and2(going, continues);
            let counted = self.store.ite(going, one, zero);
            length = self.store.bv_add(length, counted);
        }
        self.state.guard = saved;
        if !self.store.is_false(going) {
            if !self.options.pointer_checks {
                self.approximate("a string read past its object (unchecked) is cut off", true);
            }
            let ended = self.store.not(going);
            self.assume(ended);
        }
        Ok(length)
    }

    /// The length of the string at `pointer` when every object it may
    /// point into is an environment string still holding its initial value,
    /// so that a NUL ends it inside its object: after the checks of its
    /// first byte, the length is a position of a NUL from there on (any
    /// one, a superset of the first), and no byte is read one by one.
    fn environment_string_length(&mut self, pointer: TermId, limit: Option<TermId>) -> Result<Option<TermId>> {
        let targets = self.pointer_targets(pointer);
        if targets.is_empty() {
            return Ok(None);
        }
        for &(object, _) in &targets {
            let unchanged = self.environment_strings.get(&object).copied();
            if unchanged.is_none() || unchanged != Some(self.object_value(object)) {
                return Ok(None);
            }
        }
        self.read_byte(pointer, 0)?;
        let length = self.store.var("string_length", smt::Sort::BitVec(LENGTH_BITS));
        let wide = self.layout.wide_bits();
        let offset = self.layout.wide_offset_of(self.store, pointer);
        let wide_length = repr::resize(self.store, length, wide, false);
        let end = self.store.bv_add(offset, wide_length);
        let eight = self.store.bv_u64(wide, 8);
        let end_bit = self.store.bv_mul(end, eight);
        let nul = self.store.bv_u64(8, 0);
        let mut ends = Vec::new();
        for (object, cond) in targets {
            let size = self.object_size(object);
            let inside = self.store.bv_ult(end, size);
            let whole = self.object_value(object);
            let byte = self.read_object_bits(object, whole, end_bit, 8)?;
            let terminated = self.store.eq(byte, nul);
            let found = self.store.and2(inside, terminated);
            ends.push(self.store.implies(cond, found));
        }
        let ends = self.store.and(&ends);
        self.assume(ends);
        Ok(Some(match limit {
            Some(limit) => self.min(length, limit),
            None => length,
        }))
    }
}
