//! The stdio input functions symex models natively: `scanf`, `fscanf`,
//! `gets` and `fgets` read from a stream whose contents are unknown (the
//! interpreter's `interp::stdio` has the same semantics concretely, and
//! asks for the same inputs in the same order); `sscanf` reads its string
//! and then converts as scanf does (in the interpreter too), an
//! over-approximation that blocks FALSE through it.
//!
//! scanf's result is an input in `[EOF, number of stores]`, and the i-th
//! store happens only when the result exceeds i; each store writes an
//! input value of its conversion's size through its pointer argument, with
//! the dereference checks. A string is an input length and input
//! characters of the allowed kind, then a NUL: `%s` without a width or
//! `gets` into a small buffer is a real overflow. `%ls` stores wide
//! characters the same way, each one any Unicode scalar value that is not
//! a space (glibc's conversion in the C locale gives fewer).
//! `gets`/`fgets` fail (NULL, nothing stored) on an input flag.

use crate::equation::InputKind;
use crate::exec::Symex;
use crate::stdio::Stdio;
use crate::{Result, Stop};
use ir::format::{self, Dialect, InputChars, ScanTarget};
use ir::Expr;
use smt::{BvValue, Sort, TermId};

/// Longest object an input string is stored into.
const MAX_INPUT_OBJECT_BYTES: u64 = 4096;

impl<'a> Symex<'a> {
    /// Models the stdio input function `name` if it is one.
    pub(crate) fn call_stdio_input(&mut self, name: &str, args: &'a [Expr], values: &[TermId]) -> Result<Option<Stdio>> {
        let Some(&first) = values.first() else { return Ok(None) };
        Ok(Some(match format::stdio_name(name) {
            "scanf" => self.scan(name, 0, args, values)?,
            "fscanf" => self.scan(name, 1, args, values)?,
            "sscanf" => self.scan_string(name, first, args, values)?,
            "gets" => Stdio::Modelled(Some(self.read_line(name, first, None)?)),
            "fgets" => {
                let Some(size) = values.get(1).and_then(|&v| self.store.as_bv_const(v)).and_then(BvValue::to_u64) else {
                    return Ok(Some(Stdio::Unsupported("a buffer size that is not a constant".into())));
                };
                Stdio::Modelled(Some(self.read_line(name, first, Some(size as u32 as i32))?))
            }
            _ => return Ok(None),
        }))
    }

    /// A fresh input of `sort` for a call of `name`, recorded under the
    /// current guard.
    fn external_input(&mut self, name: &str, sort: Sort) -> TermId {
        let value = self.store.var(&format!("{name}#input"), sort);
        self.record_input(value, None, InputKind::ExternalCall(name.to_string()));
        // Input functions store characters and numbers: bytes without a
        // pointer's provenance, read as a pointer they are an address.
        self.input_values.insert(value);
        value
    }

    /// Runs `body` only on the paths where `condition` holds: the state
    /// splits, and joins again after `body`.
    pub(crate) fn under(&mut self, condition: TermId, body: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let saved = self.state.guard;
        let taken = self.store.and2(saved, condition);
        if self.store.is_false(taken) {
            return Ok(());
        }
        let not_condition = self.store.not(condition);
        let skipped_guard = self.store.and2(saved, not_condition);
        let skipped = self.state.with_guard(skipped_guard);
        self.state.guard = taken;
        body(self)?;
        self.merge_into_current(skipped);
        Ok(())
    }

    /// A scanf-style call whose format is argument `format_index`.
    fn scan(&mut self, name: &str, format_index: usize, args: &'a [Expr], values: &[TermId]) -> Result<Stdio> {
        let Some(&format) = values.get(format_index) else {
            return Ok(Stdio::Unsupported("a call without its format".into()));
        };
        let Some(text) = self.constant_string(format)? else {
            return Ok(Stdio::Unsupported("a format that is not a constant string".into()));
        };
        let pieces = match format::parse(&text, Dialect::Scanf) {
            Ok(pieces) => pieces,
            Err(why) => return Ok(Stdio::Unsupported(why)),
        };
        let types: Vec<ir::TypeId> = args[format_index + 1..].iter().map(|a| a.ty).collect();
        let targets = match format::scanf_targets(&pieces, self.program.data_model, &self.program.types, &types) {
            Ok(targets) => targets,
            Err(why) => return Ok(Stdio::Unsupported(why)),
        };
        let result = self.external_input(name, Sort::BitVec(32));
        let eof = self.store.bv_const(BvValue::from_i128(32, -1));
        let stores = self.store.bv_u64(32, targets.len() as u64);
        let low = self.store.bv_sle(eof, result);
        let high = self.store.bv_sle(result, stores);
        let in_range = self.store.and2(low, high);
        self.assume(in_range);
        for (i, target) in targets.into_iter().enumerate() {
            let pointer = values[format_index + 1 + i];
            let index = self.store.bv_u64(32, i as u64);
            let stored = self.store.bv_slt(index, result);
            self.under(stored, |s| s.scan_store(name, target, pointer))?;
        }
        Ok(Stdio::Modelled(Some(result)))
    }

    /// `sscanf(s, format, ...)`: glibc reads `s` up to its NUL first (its
    /// string stream ends at `rawmemchr(s, 0)`), with the dereference
    /// checks; the conversions are then scanf's on unknown input, which
    /// admits every result and stored value the text of `s` can give and
    /// more, so a violation on a path through the call is not trusted.
    fn scan_string(&mut self, name: &str, s: TermId, args: &'a [Expr], values: &[TermId]) -> Result<Stdio> {
        self.string_length(s, None)?;
        // Before the stores: a result the text cannot give may store through
        // a pointer the real call never touches.
        self.approximate(format!("`{name}` stores values its input string may not spell"), false);
        self.untrusted_call(name);
        self.scan(name, 1, args, values)
    }

    /// One scanf store through `pointer`.
    fn scan_store(&mut self, name: &str, target: ScanTarget, pointer: TermId) -> Result<()> {
        let bits = match target {
            ScanTarget::Integer(bits) | ScanTarget::Float(bits) => bits,
            ScanTarget::Chars(count) => count * 8,
            ScanTarget::String(width) => return self.input_string(name, pointer, width.map(u64::from), InputChars::Word, 1),
            ScanTarget::WideString(width) => {
                return self.input_string(name, pointer, width.map(u64::from), InputChars::WideWord, 1);
            }
        };
        let value = self.external_input(name, Sort::BitVec(bits));
        let place = self.deref_place(pointer, 1);
        self.write_place_bits(&place, value)
    }

    /// `gets(s)` (no `size`) or `fgets(s, size, stream)`: NULL at the end
    /// of input, else `s` holding a line.
    fn read_line(&mut self, name: &str, s: TermId, size: Option<i32>) -> Result<TermId> {
        let null = self.layout.null(self.store);
        let line_limit = match size {
            Some(size) if size <= 0 => return Ok(null),
            Some(1) => {
                let place = self.deref_place(s, 1);
                let nul = self.store.bv_u64(8, 0);
                self.write_place_bits(&place, nul)?;
                return Ok(s);
            }
            Some(size) => Some(size as u64 - 1),
            None => None,
        };
        let fails = self.external_input(name, Sort::Bool);
        let reads = self.store.not(fails);
        self.under(reads, |this| match line_limit {
            Some(limit) => this.input_string(name, s, Some(limit), InputChars::LineWithNewline, 1),
            None => this.input_string(name, s, None, InputChars::Line, 0),
        })?;
        Ok(self.store.ite(fails, null, s))
    }

    /// Stores an input string of `min_length` to `max_length` characters
    /// of the kind `chars`, and a NUL, at `s`. Lengths beyond the largest
    /// object `s` may point into are left out: such a string has
    /// overflowed the object already at that length.
    fn input_string(&mut self, name: &str, s: TermId, max_length: Option<u64>, chars: InputChars, min_length: u64) -> Result<()> {
        if self.layout.known_targets(self.store, s).is_none() {
            return Err(Stop::unsupported("input stored through a pointer of unknown origin", self.loc));
        }
        let largest = self.pointer_targets(s).iter().map(|&(o, _)| self.objects.get(o).size).max().unwrap_or(0);
        if largest > MAX_INPUT_OBJECT_BYTES {
            return Err(Stop::unsupported(format!("input stored into an object of {largest} bytes"), self.loc));
        }
        let unit = chars.unit_bytes();
        let fitting = largest.div_ceil(unit);
        let cap = max_length.map_or(fitting, |max| max.min(fitting)).max(min_length);
        let length = self.external_input(name, Sort::BitVec(64));
        let (low, high) = (self.store.bv_u64(64, min_length), self.store.bv_u64(64, cap));
        let above = self.store.bv_ule(low, length);
        let below = self.store.bv_ule(length, high);
        let in_range = self.store.and2(above, below);
        self.assume(in_range);
        let bits = (unit * 8) as u32;
        let text = self.external_input(name, Sort::BitVec(cap.max(1) as u32 * bits));
        let nul = self.store.bv_u64(bits, 0);
        for i in 0..=cap {
            let index = self.store.bv_u64(64, i);
            let inside = self.store.bv_ult(index, length);
            let at_end = self.store.eq(index, length);
            let c = if i < cap {
                let c = self.store.extract(i as u32 * bits + bits - 1, i as u32 * bits, text);
                let allowed = self.allowed_char(chars, c, i, length);
                let constrained = self.store.implies(inside, allowed);
                self.assume(constrained);
                self.store.ite(at_end, nul, c)
            } else {
                nul
            };
            let written = self.store.or2(inside, at_end);
            let at = self.offset_pointer(s, i * unit);
            self.under(written, |this| {
                let place = this.deref_place(at, 1);
                this.write_place_bits(&place, c)
            })?;
        }
        Ok(())
    }

    /// The condition that character `c` may stand at `index` of an input
    /// string of `length` characters ([`InputChars::allows`] as a term).
    fn allowed_char(&mut self, chars: InputChars, c: TermId, index: u64, length: TermId) -> TermId {
        let is = |this: &mut Self, byte: u8| {
            let b = this.store.bv_u64(8, u64::from(byte));
            this.store.eq(c, b)
        };
        match chars {
            InputChars::WideWord => self.allowed_wide_char(c),
            InputChars::Word => {
                let spaces: Vec<TermId> = (0..=255u8).filter(|&b| format::is_c_space(b)).map(|b| is(self, b)).collect();
                let any = self.store.or(&spaces);
                self.store.not(any)
            }
            InputChars::Line => {
                let newline = is(self, b'\n');
                self.store.not(newline)
            }
            InputChars::LineWithNewline => {
                let newline = is(self, b'\n');
                let not_newline = self.store.not(newline);
                let last = self.store.bv_u64(64, index + 1);
                let is_last = self.store.eq(last, length);
                self.store.or2(not_newline, is_last)
            }
        }
    }

    /// [`format::is_input_wide_char`] and not [`format::is_wide_space`],
    /// as a term over the 32-bit character `c`.
    fn allowed_wide_char(&mut self, c: TermId) -> TermId {
        let within = |this: &mut Self, low: u32, high: u32| {
            let (low, high) = (this.store.bv_u64(32, u64::from(low)), this.store.bv_u64(32, u64::from(high)));
            let above = this.store.bv_ule(low, c);
            let below = this.store.bv_ule(c, high);
            this.store.and2(above, below)
        };
        let scalar = within(self, 0, format::MAX_WIDE_INPUT);
        let excluded: Vec<TermId> = [format::SURROGATES].iter().chain(&format::WIDE_SPACES).map(|&(low, high)| within(self, low, high)).collect();
        let any_excluded = self.store.or(&excluded);
        let kept = self.store.not(any_excluded);
        self.store.and2(scalar, kept)
    }

    /// `pointer + bytes`.
    pub(crate) fn offset_pointer(&mut self, pointer: TermId, bytes: u64) -> TermId {
        let delta = self.store.bv_u64(64, bytes);
        self.advance_pointer(pointer, delta)
    }
}
