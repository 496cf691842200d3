//! Values of a run in C syntax, for counterexample traces: integers in
//! decimal, floats with their hex bits, pointers as `&object + offset`,
//! aggregates as brace lists through the composite layout.

use super::memory::{Bytes, Pointer, INVALID_OBJECT, NULL_OBJECT};
use super::value::{sign_extend, Value};
use super::Run;
use crate::layout::low_mask;
use crate::program::Program;
use crate::types::{ArrayLen, CompositeKind, FloatFormat, Type, TypeId};

/// Array elements shown before the rest is elided.
const ELEMENTS_SHOWN: u64 = 16;

impl Run {
    /// `value` (of type `ty`) as C text, naming objects as this run did.
    pub fn format_value(&self, program: &Program, ty: TypeId, value: &Value) -> String {
        let formatter = ValueFormatter { program, object_names: &self.object_names };
        match value {
            Value::Scalar(bits) => formatter.scalar(ty, *bits),
            Value::Ptr(p) => formatter.pointer(*p),
            Value::Agg(bytes) => formatter.aggregate(ty, bytes),
        }
    }
}

struct ValueFormatter<'a> {
    program: &'a Program,
    object_names: &'a [String],
}

impl ValueFormatter<'_> {
    fn scalar(&self, ty: TypeId, bits: u128) -> String {
        match self.program.types.get(ty) {
            Type::Bool => u128::from(bits != 0).to_string(),
            Type::Int { bits: width, signed: true } => sign_extend(bits, *width).to_string(),
            Type::Int { bits: width, signed: false } => (bits & low_mask(*width)).to_string(),
            Type::Float(format) => float_text(*format, bits),
            _ => format!("0x{bits:x}"),
        }
    }

    fn pointer(&self, p: Pointer) -> String {
        let name = self.object_names.get(p.object.0 as usize);
        match (p.object, name) {
            (NULL_OBJECT, _) if p.offset == 0 => "NULL".to_string(),
            (NULL_OBJECT | INVALID_OBJECT, _) | (_, None) => format!("(void *)0x{:x}", p.offset),
            (_, Some(name)) if p.offset == 0 => format!("&{name}"),
            (_, Some(name)) => format!("&{name} + {}", p.offset as i64),
        }
    }

    fn aggregate(&self, ty: TypeId, bytes: &Bytes) -> String {
        let types = &self.program.types;
        let model = self.program.data_model;
        match types.get(ty) {
            Type::Array(elem, ArrayLen::Fixed(count)) => {
                let Some(size) = types.size_of(*elem, model).filter(|s| *s > 0) else { return "{ ... }".into() };
                let shown = (*count).min(ELEMENTS_SHOWN).min(bytes.len() / size);
                let mut items: Vec<String> = (0..shown).map(|i| self.element(*elem, bytes, i * size, size)).collect();
                if shown < *count {
                    items.push("...".into());
                }
                format!("{{ {} }}", items.join(", "))
            }
            Type::Composite(id) => {
                let composite = &types.composites[*id];
                let fields = match composite.kind {
                    CompositeKind::Struct => &composite.fields[..],
                    // The bytes of a union are shown through its first member.
                    CompositeKind::Union => &composite.fields[..composite.fields.len().min(1)],
                };
                let items: Vec<String> = fields
                    .iter()
                    .map(|field| {
                        let text = match (field.bit_width, types.size_of(field.ty, model)) {
                            (Some(width), _) => self.bitfield(field.ty, bytes, field.offset_bits, width),
                            (None, Some(size)) => self.element(field.ty, bytes, field.offset_bits / 8, size),
                            (None, None) => "...".into(),
                        };
                        format!(".{}={text}", field.name)
                    })
                    .collect();
                format!("{{ {} }}", items.join(", "))
            }
            _ => format!("<{} bytes>", bytes.len()),
        }
    }

    /// A bit-field of `width` bits at bit `offset_bits` of `bytes`.
    fn bitfield(&self, ty: TypeId, bytes: &Bytes, offset_bits: u64, width: u32) -> String {
        let (start, bit) = (offset_bits / 8, offset_bits % 8);
        let len = (bit + u64::from(width)).div_ceil(8);
        if start + len > bytes.len() {
            return "?".into();
        }
        let raw = (bytes.slice(start, len).to_u128() >> bit) & low_mask(width);
        let value = if self.program.types.is_signed(ty) { sign_extend(raw, width) as u128 } else { raw };
        self.scalar(ty, value)
    }

    /// The value of type `ty` stored at `[start, start + size)` of `bytes`.
    fn element(&self, ty: TypeId, bytes: &Bytes, start: u64, size: u64) -> String {
        if start.checked_add(size).is_none_or(|end| end > bytes.len()) {
            return "?".into();
        }
        let span = bytes.slice(start, size);
        match self.program.types.get(ty) {
            Type::Pointer(_) => {
                let stored = span.pointers.get(&0).filter(|(_, width)| *width == size).map(|(p, _)| *p);
                let address = span.to_u128() as u64;
                let unknown =
                    Pointer { object: if address == 0 { NULL_OBJECT } else { INVALID_OBJECT }, offset: address };
                self.pointer(stored.unwrap_or(unknown))
            }
            Type::Array(..) | Type::Composite(_) => self.aggregate(ty, &span),
            _ => self.scalar(ty, span.to_u128()),
        }
    }
}

/// A float's value and its bit pattern: `1.5 (0x3fc00000)`.
fn float_text(format: FloatFormat, bits: u128) -> String {
    let digits = (format.storage_bits() as usize).div_ceil(4);
    let hex = format!("0x{bits:0digits$x}");
    let value = match format {
        FloatFormat::Single => Some(f64::from(f32::from_bits(bits as u32))),
        FloatFormat::Double => Some(f64::from_bits(bits as u64)),
        _ => None,
    };
    match value {
        Some(v) if v.is_nan() => format!("NAN ({hex})"),
        Some(v) if v.is_infinite() => format!("{}INFINITY ({hex})", if v < 0.0 { "-" } else { "" }),
        Some(_) if format == FloatFormat::Single => format!("{:?} ({hex})", f32::from_bits(bits as u32)),
        Some(v) => format!("{v:?} ({hex})"),
        None => hex,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{ObjectId, Outcome};
    use crate::program::DataModel;
    use crate::types::{Composite, Field};

    fn run_with_names(names: &[&str]) -> Run {
        Run {
            outcome: Outcome::Completed(0),
            trace: vec![],
            steps: 0,
            object_names: names.iter().map(|n| n.to_string()).collect(),
            unfreed_heap: vec![],
            unknown_functions: vec![],
            context_switches: 0,
        }
    }

    #[test]
    fn scalars_and_pointers() {
        let mut p = Program::new(DataModel::LP64);
        let int = p.types.int(32, true);
        let uint = p.types.int(32, false);
        let float = p.types.intern(Type::Float(FloatFormat::Single));
        let ptr = p.types.pointer_to(int);
        let run = run_with_names(&["NULL", "INVALID", "x"]);
        assert_eq!(run.format_value(&p, int, &Value::Scalar(0xffff_ffff)), "-1");
        assert_eq!(run.format_value(&p, uint, &Value::Scalar(0xffff_ffff)), "4294967295");
        assert_eq!(run.format_value(&p, float, &Value::Scalar(u128::from(1.5f32.to_bits()))), "1.5 (0x3fc00000)");
        assert_eq!(run.format_value(&p, float, &Value::Scalar(0x7fc0_0000)), "NAN (0x7fc00000)");
        let x = ObjectId(2);
        assert_eq!(run.format_value(&p, ptr, &Value::Ptr(Pointer { object: x, offset: 8 })), "&x + 8");
        assert_eq!(run.format_value(&p, ptr, &Value::Ptr(Pointer::NULL)), "NULL");
        let wild = Pointer { object: INVALID_OBJECT, offset: 0x10 };
        assert_eq!(run.format_value(&p, ptr, &Value::Ptr(wild)), "(void *)0x10");
    }

    #[test]
    fn aggregates_follow_the_layout() {
        let mut p = Program::new(DataModel::LP64);
        let int = p.types.int(32, true);
        let ptr = p.types.pointer_to(int);
        let comp = p.types.composites.push(Composite {
            kind: CompositeKind::Struct,
            name: "S".into(),
            fields: vec![
                Field { name: "n".into(), ty: int, offset_bits: 0, bit_width: Some(4) },
                Field { name: "p".into(), ty: ptr, offset_bits: 64, bit_width: None },
            ],
            size: 16,
            align: 8,
            complete: true,
        });
        let s = p.types.intern(Type::Composite(comp));
        let arr = p.types.intern(Type::Array(s, ArrayLen::Fixed(20)));
        let mut one = Bytes::zeroed(16);
        one.data[0] = 0xf;
        let x = Pointer { object: ObjectId(2), offset: 4 };
        let mut stored = Bytes::from_u128(0x1004, 8);
        stored.pointers.insert(0, (x, 8));
        one.write(8, &stored);
        let run = run_with_names(&["NULL", "INVALID", "x"]);
        assert_eq!(run.format_value(&p, s, &Value::Agg(one.clone())), "{ .n=-1, .p=&x + 4 }");
        let mut many = Bytes::zeroed(16 * 20);
        many.write(0, &one);
        let text = run.format_value(&p, arr, &Value::Agg(many));
        assert!(text.starts_with("{ { .n=-1, .p=&x + 4 }, { .n=0, .p=NULL }, "), "{text}");
        assert!(text.ends_with(", ... }"), "{text}");
    }
}
