//! The stdio functions the interpreter implements when the program gives
//! them no body, also as `__builtin_*` and `*_unlocked`, with the
//! semantics symex's `stdio` models have:
//! - output: `printf`, `fprintf`, `dprintf` (the result is the length of
//!   the text glibc prints, see [`crate::format`]; `%n` stores the count so
//!   far), `sprintf` and `snprintf` (the text and a NUL stored, checked),
//!   `asprintf` (a heap block as `malloc` makes it, then the text), and
//!   the `va_list` forms of all these, which read the arguments their
//!   format needs from the argument area (see [`crate::varargs`]),
//!   `puts`, `fputs`, `putchar`, `putc`, `fputc`, `fflush`, `perror`.
//!   Output succeeds and goes nowhere (a run has no terminal); `%s`
//!   strings are read like any other access, so an invalid one is a
//!   dereference failure.
//! - input from an unknown stream: `scanf`, `fscanf`, `gets`, `fgets`. The
//!   input provider gives, as [`InputKind::ExternalCall`] requests in this
//!   order: scanf's result (4 bytes, -1 to the number of stores), then the
//!   value of each store the result covers; `gets`/`fgets` a failure flag
//!   (1 byte); a string as its length (8 bytes) then its characters.
//!   Values outside what the function can produce violate an assumption.
//!
//! A format the formatter does not support leaves the call to the generic
//! treatment of unknown functions, as symex does.

use super::eval::Place;
use super::exec::{Flow, Machine};
use super::memory::{Bytes, Pointer};
use super::value::{sign_extend, Value};
use super::{InputKind, Outcome};
use crate::expr::Expr;
use crate::format::{self, Argument, Count, Dialect, Field, InputChars, Piece, ScanTarget, Spec};
use crate::types::{Type, TypeId};

/// Longest format string read.
const MAX_FORMAT_BYTES: u64 = 4096;

impl Machine<'_> {
    /// Runs the stdio output function `name`; `None` when `name` is not
    /// one or its format is not supported. The inner option is the result.
    pub(super) fn call_stdio(
        &mut self,
        name: &str,
        values: &[Value],
        args: &[Expr],
        ret: TypeId,
    ) -> Flow<Option<Option<Value>>> {
        let arg = |i: usize| values.get(i).ok_or_else(|| self.malformed(format!("`{name}` needs argument {i}")));
        let types: Vec<TypeId> = args.iter().map(|a| a.ty).collect();
        if let Some((plain, format_index)) = format::va_list_form(format::stdio_name(name)) {
            let Some((types, values)) = self.va_arguments(format_index, &types, values)? else { return Ok(None) };
            return self.call_print(plain, &types, &values, ret);
        }
        let result: u128 = match format::stdio_name(name) {
            plain @ ("printf" | "fprintf" | "dprintf" | "sprintf" | "snprintf" | "asprintf") => {
                return self.call_print(plain, &types, values, ret)
            }
            "scanf" => return self.scan(name, 0, values, args, ret),
            "fscanf" => return self.scan(name, 1, values, args, ret),
            "sscanf" => {
                let s = self.pointer(arg(0)?)?;
                self.string_length(s, u64::MAX)?;
                // Its results are inputs, not the conversions of `s`: a
                // run through it is not a real one (as in symex).
                self.unknown_functions.insert(name.to_string());
                return self.scan(name, 1, values, args, ret);
            }
            "gets" => {
                let s = self.pointer(arg(0)?)?;
                return self.read_line(name, s, None).map(Some);
            }
            "fgets" => {
                let s = self.pointer(arg(0)?)?;
                let size = self.integer_argument(arg(1)?, args[1].ty)? as i32;
                return self.read_line(name, s, Some(size)).map(Some);
            }
            "puts" => {
                let s = self.pointer(arg(0)?)?;
                u128::from(self.string_length(s, u64::MAX)?) + 1
            }
            "fputs" => {
                let s = self.pointer(arg(0)?)?;
                self.string_length(s, u64::MAX)?;
                1
            }
            "putchar" | "putc" | "fputc" => self.scalar(arg(0)?)? & 0xff,
            "fflush" => 0,
            "perror" => {
                let s = self.pointer(arg(0)?)?;
                if !s.is_null() {
                    self.string_length(s, u64::MAX)?;
                }
                return Ok(Some(None));
            }
            _ => return Ok(None),
        };
        self.int_result(result, ret).map(|v| Some(Some(v)))
    }

    /// The printf-family function `plain` with its arguments' types and
    /// values.
    fn call_print(&mut self, plain: &str, types: &[TypeId], values: &[Value], ret: TypeId) -> Flow<Option<Option<Value>>> {
        match plain {
            "printf" => self.print(0, values, types, ret),
            "fprintf" | "dprintf" => self.print(1, values, types, ret),
            "sprintf" => self.print_to_string(values, types, ret, None),
            "asprintf" => self.print_allocated(values, types, ret),
            _ => {
                let size = values.get(1).ok_or_else(|| self.malformed("`snprintf` needs a size".into()))?;
                let size = self.integer_argument(size, types[1])?;
                self.print_to_string(values, types, ret, Some(size as u64))
            }
        }
    }

    /// The arguments of a `va_list` form as its plain form takes them: the
    /// fixed ones up to the format, then the values the format reads slot
    /// after slot from the `va_list` after it; `None` when the format is
    /// not supported.
    fn va_arguments(&mut self, format_index: usize, types: &[TypeId], values: &[Value]) -> Flow<Option<(Vec<TypeId>, Vec<Value>)>> {
        let (Some(Value::Ptr(format)), Some(cursor), Some(&list_type)) =
            (values.get(format_index), values.get(format_index + 1), types.get(format_index + 1))
        else {
            return Ok(None);
        };
        let cursor = self.pointer(cursor)?;
        let text = self.format_text(*format)?;
        let model = self.program.data_model;
        let Ok(read) = format::parse(&text, Dialect::Printf)
            .and_then(|pieces| format::va_argument_types(&pieces, model, &self.program.types, list_type))
        else {
            return Ok(None);
        };
        let mut plain_types = types[..=format_index].to_vec();
        let mut plain_values = values[..=format_index].to_vec();
        let mut offset = cursor.offset;
        for ty in read {
            let start = crate::varargs::slot_start(&self.program.types, ty, model, offset).expect("a va_arg type has an alignment");
            let at = Pointer { offset: start, ..cursor };
            plain_values.push(self.load(Place::whole(at), ty)?);
            plain_types.push(ty);
            offset = start.wrapping_add(crate::varargs::slot_size(&self.program.types, ty, model).expect("a va_arg type has a size"));
        }
        Ok(Some((plain_types, plain_values)))
    }

    /// The format string at `format`.
    fn format_text(&self, format: Pointer) -> Flow<Vec<u8>> {
        let length = self.string_length(format, MAX_FORMAT_BYTES)?;
        Ok(self.memory.read(format, length).map_err(|e| self.access_error(e))?.data)
    }

    /// A printf-style call whose format is argument `format_index`.
    fn print(&mut self, format_index: usize, values: &[Value], types: &[TypeId], ret: TypeId) -> Flow<Option<Option<Value>>> {
        let Some(text) = self.formatted(format_index, values, types)? else { return Ok(None) };
        self.int_result(text.len() as u128, ret).map(|v| Some(Some(v)))
    }

    /// `sprintf(s, ...)` or `snprintf(s, size, ...)` (`size` given): the
    /// text and a NUL stored (at most `size` bytes), its length returned.
    fn print_to_string(&mut self, values: &[Value], types: &[TypeId], ret: TypeId, size: Option<u64>) -> Flow<Option<Option<Value>>> {
        let format_index = if size.is_some() { 2 } else { 1 };
        let Some(mut text) = self.formatted(format_index, values, types)? else { return Ok(None) };
        let length = text.len() as u64;
        let buffer = self.pointer(&values[0])?;
        if let Some(size) = size {
            text.truncate(size.saturating_sub(1) as usize);
        }
        if size != Some(0) {
            text.push(0);
            self.memory.write(buffer, &Bytes::from_data(text)).map_err(|e| self.access_error(e))?;
        }
        self.int_result(u128::from(length), ret).map(|v| Some(Some(v)))
    }

    /// `asprintf(&s, ...)`: a heap block as `malloc` makes it, holding the
    /// text and a NUL, stored in `s`; -1 when the allocation fails.
    fn print_allocated(&mut self, values: &[Value], types: &[TypeId], ret: TypeId) -> Flow<Option<Option<Value>>> {
        let Some(mut text) = self.formatted(1, values, types)? else { return Ok(None) };
        let Some(string_type) = self.program.types.pointee(types[0]) else { return Ok(None) };
        let target = self.pointer(&values[0])?;
        let length = text.len() as u64;
        let block = self.heap_allocate("asprintf", length + 1, true)?;
        if matches!(block, Value::Ptr(p) if p.is_null()) {
            return self.int_result(u128::MAX, ret).map(|v| Some(Some(v)));
        }
        self.store(Place::whole(target), string_type, &block)?;
        text.push(0);
        let start = self.pointer(&block)?;
        self.memory.write(start, &Bytes::from_data(text)).map_err(|e| self.access_error(e))?;
        self.int_result(u128::from(length), ret).map(|v| Some(Some(v)))
    }

    /// The text of a printf-style format at argument `format_index` with
    /// the arguments after it; `None` when it is not supported.
    fn formatted(&mut self, format_index: usize, values: &[Value], types: &[TypeId]) -> Flow<Option<Vec<u8>>> {
        let Some(Value::Ptr(format)) = values.get(format_index) else { return Ok(None) };
        let text = self.format_text(*format)?;
        let Ok(pieces) = format::parse(&text, Dialect::Printf) else { return Ok(None) };
        let model = self.program.data_model;
        if format::check_printf_arguments(&pieces, model, &self.program.types, &types[format_index + 1..]).is_err() {
            return Ok(None);
        }
        let mut next = format_index + 1;
        let mut printed = Vec::new();
        for piece in &pieces {
            match piece {
                Piece::Text(text) => printed.extend_from_slice(text),
                Piece::Conversion(spec) => {
                    let text = self.conversion_text(spec, values, types, &mut next, printed.len() as u64)?;
                    printed.extend(text);
                }
            }
        }
        Ok(Some(printed))
    }

    /// The text of one conversion; consumes its arguments.
    fn conversion_text(
        &mut self,
        spec: &Spec,
        values: &[Value],
        types: &[TypeId],
        next: &mut usize,
        printed: u64,
    ) -> Flow<Vec<u8>> {
        let mut star = |machine: &Self, count: Option<Count>| -> Flow<Option<i32>> {
            if count != Some(Count::FromArgument) {
                return Ok(None);
            }
            *next += 1;
            Ok(Some(machine.integer_argument(&values[*next - 1], types[*next - 1])? as i32))
        };
        let width = star(self, spec.width)?;
        let precision = star(self, spec.precision)?;
        let field = Field::resolve(spec, width, precision);
        let argument = spec.printf_argument(self.program.data_model).map_err(|e| self.malformed(e))?;
        let (value, ty) = (&values[*next], types[*next]);
        *next += 1;
        Ok(match argument {
            Argument::Signed(bits) | Argument::Unsigned(bits) => {
                let extended = self.integer_argument(value, ty)?;
                let signed = matches!(argument, Argument::Signed(_));
                let (negative, magnitude) = format::sign_and_magnitude(extended, bits, signed);
                format::integer_text(spec, field, negative, magnitude)
            }
            Argument::Float(float) => {
                // glibc rounds the printed digits in the current mode, the formatter to nearest.
                if self.rounding_mode()? != crate::rounding::RoundingMode::NearestEven {
                    return Err(Outcome::Unsupported("printf's float conversions in a rounding mode other than to nearest".into()));
                }
                format::float_text(spec, field, float, self.scalar(value)?)
            }
            Argument::Char => format::char_text(field, self.scalar(value)? as u8),
            Argument::String => {
                let s = self.pointer(value)?;
                let limit = field.precision.map_or(u64::MAX, u64::from);
                let length = self.string_length(s, limit)?;
                let bytes = self.memory.read(s, length).map_err(|e| self.access_error(e))?;
                format::string_text(field, &bytes.data)
            }
            Argument::Pointer => format::pointer_text(field, self.memory.address_of(self.pointer(value)?)),
            Argument::Count(bits) => {
                let target = self.pointer(value)?;
                self.store_count(target, printed, bits)?;
                Vec::new()
            }
        })
    }

    /// An integer argument's bits, extended by its own type to 128 bits
    /// (a pointer gives its address).
    fn integer_argument(&self, value: &Value, ty: TypeId) -> Flow<u128> {
        if let Value::Ptr(p) = value {
            return Ok(u128::from(self.memory.address_of(*p)));
        }
        let bits = self.scalar(value)?;
        Ok(match self.program.types.get(ty) {
            Type::Int { bits: width, signed: true } => sign_extend(bits, *width) as u128,
            _ => bits,
        })
    }

    /// `%n`: stores `count` as a `bits`-bit integer at `target`.
    fn store_count(&mut self, target: Pointer, count: u64, bits: u32) -> Flow<()> {
        let bytes = Bytes::from_u128(u128::from(count), u64::from(bits / 8));
        self.memory.write(target, &bytes).map_err(|e| self.access_error(e))
    }

    /// A scanf-style call whose format is argument `format_index`.
    fn scan(&mut self, name: &str, format_index: usize, values: &[Value], args: &[Expr], ret: TypeId) -> Flow<Option<Option<Value>>> {
        let Some(Value::Ptr(format)) = values.get(format_index) else { return Ok(None) };
        let text = self.format_text(*format)?;
        let Ok(pieces) = format::parse(&text, Dialect::Scanf) else { return Ok(None) };
        let types: Vec<TypeId> = args[format_index + 1..].iter().map(|a| a.ty).collect();
        let Ok(targets) = format::scanf_targets(&pieces, self.program.data_model, &self.program.types, &types) else {
            return Ok(None);
        };
        let result = i32::from_le_bytes(self.external_bytes(name, 4)?.try_into().expect("4 bytes"));
        if !(-1..=targets.len() as i64).contains(&i64::from(result)) {
            return Err(Outcome::AssumptionViolated { loc: self.current_loc() });
        }
        for (i, target) in targets.iter().enumerate().take(result.max(0) as usize) {
            let p = self.pointer(&values[format_index + 1 + i])?;
            let bytes = match *target {
                ScanTarget::Integer(bits) | ScanTarget::Float(bits) => u64::from(bits / 8),
                ScanTarget::Chars(count) => u64::from(count),
                ScanTarget::String(width) => {
                    self.input_string(name, p, width.map(u64::from), InputChars::Word, 1)?;
                    continue;
                }
                ScanTarget::WideString(width) => {
                    self.input_string(name, p, width.map(u64::from), InputChars::WideWord, 1)?;
                    continue;
                }
            };
            let data = self.external_bytes(name, bytes)?;
            self.memory.write(p, &Bytes::from_data(data)).map_err(|e| self.access_error(e))?;
        }
        self.int_result(result as i64 as u128, ret).map(|v| Some(Some(v)))
    }

    /// `gets(s)` (no `size`) or `fgets(s, size, stream)`: NULL at the end
    /// of input, else `s` holding a line.
    fn read_line(&mut self, name: &str, s: Pointer, size: Option<i32>) -> Flow<Option<Value>> {
        let line_limit = match size {
            Some(size) if size <= 0 => return Ok(Some(Value::Ptr(Pointer::NULL))),
            Some(1) => {
                self.memory.write(s, &Bytes::from_data(vec![0])).map_err(|e| self.access_error(e))?;
                return Ok(Some(Value::Ptr(s)));
            }
            Some(size) => Some(size as u64 - 1),
            None => None,
        };
        if self.external_bytes(name, 1)?[0] != 0 {
            return Ok(Some(Value::Ptr(Pointer::NULL)));
        }
        match line_limit {
            Some(limit) => self.input_string(name, s, Some(limit), InputChars::LineWithNewline, 1)?,
            None => self.input_string(name, s, None, InputChars::Line, 0)?,
        }
        Ok(Some(Value::Ptr(s)))
    }

    /// Stores an input string of `min_length` to `max_length` characters
    /// of the kind `chars`, and a NUL, at `s`.
    fn input_string(&mut self, name: &str, s: Pointer, max_length: Option<u64>, chars: InputChars, min_length: u64) -> Flow<()> {
        let length = u64::from_le_bytes(self.external_bytes(name, 8)?.try_into().expect("8 bytes"));
        if length < min_length || max_length.is_some_and(|max| length > max) {
            return Err(Outcome::AssumptionViolated { loc: self.current_loc() });
        }
        let unit = chars.unit_bytes();
        let mut text = self.external_bytes(name, length.saturating_mul(unit))?;
        let char_at = |c: &[u8]| c.iter().rev().fold(0u32, |value, &byte| value << 8 | u32::from(byte));
        if text.chunks(unit as usize).enumerate().any(|(i, c)| !chars.allows(char_at(c), i as u64, length)) {
            return Err(Outcome::AssumptionViolated { loc: self.current_loc() });
        }
        text.extend(std::iter::repeat_n(0, unit as usize));
        self.memory.write(s, &Bytes::from_data(text)).map_err(|e| self.access_error(e))
    }

    /// `count` bytes of input for a call of `name`.
    fn external_bytes(&mut self, name: &str, count: u64) -> Flow<Vec<u8>> {
        self.request_input(InputKind::ExternalCall(name.to_string()), None, count)
    }
}
