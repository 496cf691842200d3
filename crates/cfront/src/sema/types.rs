//! The program's struct/union and enum tables, sizes and alignments of C
//! types per data model, and the mapping of C types to IR types.

use super::ctype::{compatible, ArraySize, CType, EnumId, FloatKind, IntKind, Kind, TypeEnv};
use std::cell::RefCell;
use super::layout::{self, MemberShape, RecordAttrs};
use ir::{ArrayLen, CompositeId, CompositeKind, DataModel, FloatFormat, FnSig, Loc, Type, TypeId, TypeTable};

/// A member of a struct or union as the type checker sees it.
#[derive(Clone, Debug)]
pub struct CField {
    /// Empty for unnamed bit-fields and anonymous struct/union members.
    pub name: String,
    pub ty: CType,
    pub bit_width: Option<u32>,
    pub offset_bits: u64,
}

#[derive(Clone, Debug)]
pub struct RecordInfo {
    pub kind: CompositeKind,
    pub tag: String,
    pub fields: Vec<CField>,
    pub complete: bool,
    pub size: u64,
    pub align: u64,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct EnumInfo {
    /// The compatible integer type (fixed once the enum is complete).
    pub int_kind: IntKind,
    pub complete: bool,
    /// The enumerators' values, in declaration order.
    pub values: Vec<i128>,
}

/// A field found by name, possibly inside anonymous members: the chain of
/// field indices from the outer record, and the field itself.
#[derive(Clone, Debug)]
pub struct FieldPath {
    pub indices: Vec<u32>,
    pub field: CField,
    /// Offset from the start of the outer record, in bits.
    pub offset_bits: u64,
}

/// A size/alignment question that has no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum SizeError {
    Incomplete,
    Function,
    Void,
    Variable,
}

impl SizeError {
    pub fn describe(&self) -> &'static str {
        match self {
            SizeError::Incomplete => "incomplete type",
            SizeError::Function => "function type",
            SizeError::Void => "void type",
            SizeError::Variable => "variable-length array type",
        }
    }
}

pub struct TypeCtx {
    pub dm: DataModel,
    pub records: Vec<RecordInfo>,
    pub enums: Vec<EnumInfo>,
    /// Record pairs assumed compatible while comparing recursive records.
    assumed: RefCell<Vec<(CompositeId, CompositeId)>>,
}

impl TypeEnv for TypeCtx {
    fn enum_kind(&self, e: EnumId) -> IntKind {
        TypeCtx::enum_kind(self, e)
    }

    fn records_compatible(&self, a: CompositeId, b: CompositeId) -> bool {
        if self.assumed.borrow().contains(&(a, b)) {
            return true;
        }
        let (ra, rb) = (&self.records[a.0 as usize], &self.records[b.0 as usize]);
        let anonymous = |r: &RecordInfo| r.tag.starts_with("__anon");
        if ra.kind != rb.kind || (ra.tag != rb.tag && !(anonymous(ra) && anonymous(rb))) {
            return false;
        }
        if !ra.complete || !rb.complete {
            return true;
        }
        if ra.fields.len() != rb.fields.len() {
            return false;
        }
        self.assumed.borrow_mut().push((a, b));
        let same = ra.fields.iter().zip(&rb.fields).all(|(x, y)| {
            x.name == y.name && x.bit_width == y.bit_width && compatible(&x.ty, &y.ty, self)
        });
        self.assumed.borrow_mut().pop();
        same
    }
}

impl TypeCtx {
    pub fn new(dm: DataModel) -> TypeCtx {
        TypeCtx { dm, records: Vec::new(), enums: Vec::new(), assumed: RefCell::new(Vec::new()) }
    }

    pub fn enum_kind(&self, id: EnumId) -> IntKind {
        self.enums.get(id).map_or(IntKind::UInt, |e| e.int_kind)
    }

    pub fn int_bits(&self, k: IntKind) -> u32 {
        if let Some(n) = k.bit_precise_width() {
            return n;
        }
        match k.rank() {
            1 => 8,
            2 => 16,
            3 => 32,
            4 => self.dm.long_bits(),
            5 => 64,
            _ => 128,
        }
    }

    /// The integer kind of an integer type (enums through their compatible
    /// type); `None` for `_Bool` and non-integers.
    pub fn int_kind_of(&self, ty: &CType) -> Option<IntKind> {
        super::ctype::int_kind(ty, |e| self.enum_kind(e))
    }

    pub fn is_signed(&self, ty: &CType) -> bool {
        self.int_kind_of(ty).is_some_and(|k| k.is_signed())
    }

    /// `size_t` and `ptrdiff_t` of the data model.
    pub fn size_t(&self) -> CType {
        CType::new(Kind::Int(match self.dm {
            DataModel::LP64 => IntKind::ULong,
            DataModel::ILP32 => IntKind::UInt,
        }))
    }
    pub fn ptrdiff_t(&self) -> CType {
        CType::new(Kind::Int(match self.dm {
            DataModel::LP64 => IntKind::Long,
            DataModel::ILP32 => IntKind::Int,
        }))
    }

    fn float_size_align(&self, k: FloatKind) -> (u64, u64) {
        match k {
            FloatKind::Float16 => (2, 2),
            FloatKind::Float => (4, 4),
            FloatKind::Double => (8, if self.dm == DataModel::ILP32 { 4 } else { 8 }),
            FloatKind::LongDouble => match self.dm {
                DataModel::LP64 => (16, 16),
                DataModel::ILP32 => (12, 4),
            },
            FloatKind::Float128 => (16, 16),
        }
    }

    /// Size in bytes of a complete object type.
    pub fn size_of(&self, ty: &CType) -> Result<u64, SizeError> {
        let p = u64::from(self.dm.pointer_bits() / 8);
        Ok(match &ty.kind {
            Kind::Void => return Err(SizeError::Void),
            Kind::Function(_) => return Err(SizeError::Function),
            Kind::Bool => 1,
            Kind::Int(_) | Kind::Enum(_) => self.int_layout(ty).0,
            Kind::Float(k) => self.float_size_align(*k).0,
            Kind::Complex(e) => 2 * self.size_of(&e.part_type())?,
            Kind::Pointer(_) => p,
            Kind::Array(elem, size) => match size {
                ArraySize::Fixed(n) => self.size_of(elem)?.saturating_mul(*n),
                ArraySize::Unknown => return Err(SizeError::Incomplete),
                ArraySize::Var(_) => return Err(SizeError::Variable),
            },
            Kind::Record(id) => {
                let r = &self.records[id.0 as usize];
                if !r.complete {
                    return Err(SizeError::Incomplete);
                }
                r.size
            }
            Kind::Vector(elem, n) => self.size_of(elem)?.saturating_mul(*n),
        })
    }

    /// Alignment in bytes (the ABI alignment, which is also what gcc's
    /// `_Alignof` reports; `long long` and `double` are 4 on ILP32).
    pub fn align_of(&self, ty: &CType) -> Result<u64, SizeError> {
        if ty.align > 0 {
            return Ok(ty.align);
        }
        let p = u64::from(self.dm.pointer_bits() / 8);
        Ok(match &ty.kind {
            Kind::Void => return Err(SizeError::Void),
            Kind::Function(_) => return Err(SizeError::Function),
            Kind::Bool => 1,
            Kind::Int(_) | Kind::Enum(_) => self.int_layout(ty).1,
            Kind::Float(k) => self.float_size_align(*k).1,
            Kind::Complex(e) => self.align_of(&e.part_type())?,
            Kind::Pointer(_) => p,
            Kind::Array(elem, _) => self.align_of(elem)?,
            Kind::Record(id) => {
                let r = &self.records[id.0 as usize];
                if !r.complete {
                    return Err(SizeError::Incomplete);
                }
                r.align
            }
            // gcc aligns a vector to its size.
            Kind::Vector(..) => self.size_of(ty)?,
        })
    }

    /// (size, alignment) of an integer type: the IR's layout of its width.
    fn int_layout(&self, ty: &CType) -> (u64, u64) {
        let bits = self.int_bits(self.int_kind_of(ty).unwrap_or(IntKind::Int));
        ir::layout::int_layout(bits, self.dm)
    }

    /// Lays out the record `id` from its fields' types and stores the
    /// offsets, size and alignment.
    pub fn complete_record(&mut self, id: CompositeId, shapes: &[MemberShape], attrs: RecordAttrs) {
        let kind = self.records[id.0 as usize].kind;
        let l = match kind {
            CompositeKind::Struct => layout::layout_struct(shapes, attrs),
            CompositeKind::Union => layout::layout_union(shapes, attrs),
        };
        let r = &mut self.records[id.0 as usize];
        for (f, off) in r.fields.iter_mut().zip(&l.offsets_bits) {
            f.offset_bits = *off;
        }
        r.size = l.size;
        r.align = l.align;
        r.complete = true;
    }

    /// Finds a member by name, looking through anonymous struct/union
    /// members. Iterative over the nesting so deep chains cannot overflow.
    pub fn find_field(&self, id: CompositeId, name: &str) -> Option<FieldPath> {
        let mut stack: Vec<(CompositeId, Vec<u32>, u64)> = vec![(id, Vec::new(), 0)];
        while let Some((rid, path, base)) = stack.pop() {
            let rec = &self.records[rid.0 as usize];
            for (i, f) in rec.fields.iter().enumerate() {
                let mut p = path.clone();
                p.push(i as u32);
                if f.name == name {
                    return Some(FieldPath { indices: p, field: f.clone(), offset_bits: base + f.offset_bits });
                }
                if f.name.is_empty() && f.bit_width.is_none() {
                    if let Kind::Record(inner) = f.ty.kind {
                        stack.push((inner, p, base + f.offset_bits));
                    }
                }
            }
        }
        None
    }

    /// The IR type of a C type.
    pub fn to_ir(&self, tt: &mut TypeTable, ty: &CType) -> TypeId {
        match &ty.kind {
            Kind::Void => tt.void(),
            Kind::Bool => tt.bool(),
            Kind::Int(_) | Kind::Enum(_) => {
                let k = self.int_kind_of(ty).unwrap_or(IntKind::Int);
                tt.int(self.int_bits(k), k.is_signed())
            }
            Kind::Float(k) => tt.intern(Type::Float(float_format(*k))),
            Kind::Complex(e) => {
                let part = self.to_ir(tt, &e.part_type());
                tt.intern(Type::Array(part, ArrayLen::Fixed(2)))
            }
            Kind::Pointer(p) => {
                let inner = self.to_ir(tt, p);
                tt.pointer_to(inner)
            }
            Kind::Array(elem, size) => {
                let e = self.to_ir(tt, elem);
                let len = match size {
                    ArraySize::Fixed(n) => ArrayLen::Fixed(*n),
                    ArraySize::Unknown => ArrayLen::Unknown,
                    ArraySize::Var(s) => ArrayLen::Var(*s),
                };
                tt.intern(Type::Array(e, len))
            }
            Kind::Record(id) => tt.intern(Type::Composite(*id)),
            Kind::Vector(elem, n) => {
                let e = self.to_ir(tt, elem);
                tt.intern(Type::Array(e, ArrayLen::Fixed(*n)))
            }
            Kind::Function(f) => {
                let ret = self.to_ir(tt, &f.ret);
                let params = f.params.iter().map(|p| self.to_ir(tt, p)).collect();
                tt.intern(Type::Function(FnSig { ret, params, variadic: f.variadic, unprototyped: f.unprototyped }))
            }
        }
    }

    /// Copies the record's fields and layout into the IR composite.
    pub fn sync_composite(&self, tt: &mut TypeTable, id: CompositeId) {
        let r = &self.records[id.0 as usize];
        let fields = r
            .fields
            .iter()
            .map(|f| ir::Field {
                name: f.name.clone(),
                ty: self.to_ir(tt, &f.ty),
                offset_bits: f.offset_bits,
                bit_width: f.bit_width,
            })
            .collect();
        let c = &mut tt.composites[id];
        c.fields = fields;
        c.size = r.size;
        c.align = r.align;
        c.complete = r.complete;
    }
}

pub fn float_format(k: FloatKind) -> FloatFormat {
    match k {
        FloatKind::Float16 => FloatFormat::Half,
        FloatKind::Float => FloatFormat::Single,
        FloatKind::Double => FloatFormat::Double,
        FloatKind::LongDouble => FloatFormat::X87Extended,
        FloatKind::Float128 => FloatFormat::Quad,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_sizes_per_data_model() {
        let lp = TypeCtx::new(DataModel::LP64);
        let ilp = TypeCtx::new(DataModel::ILP32);
        let long = CType::new(Kind::Int(IntKind::Long));
        let ld = CType::new(Kind::Float(FloatKind::LongDouble));
        let dbl = CType::new(Kind::Float(FloatKind::Double));
        let ll = CType::new(Kind::Int(IntKind::LongLong));
        assert_eq!(lp.size_of(&long), Ok(8));
        assert_eq!(ilp.size_of(&long), Ok(4));
        assert_eq!((lp.size_of(&ld), lp.align_of(&ld)), (Ok(16), Ok(16)));
        assert_eq!((ilp.size_of(&ld), ilp.align_of(&ld)), (Ok(12), Ok(4)));
        assert_eq!((ilp.size_of(&dbl), ilp.align_of(&dbl)), (Ok(8), Ok(4)));
        assert_eq!((ilp.size_of(&ll), ilp.align_of(&ll)), (Ok(8), Ok(4)));
        let p = CType::pointer_to(CType::void());
        assert_eq!(ilp.size_of(&p), Ok(4));
        assert_eq!(lp.size_of(&CType::array_of(CType::int(), ArraySize::Fixed(10))), Ok(40));
        assert_eq!(lp.size_of(&CType::void()), Err(SizeError::Void));
    }
}
