//! Sizes, alignments and integer ranges of IR types under a [`DataModel`].
//!
//! Scalars follow the x86 System V ABIs (i386 for ILP32, x86-64 for LP64).
//! Alignments are the ones a field gets inside a struct, which is what every
//! layout computation needs: on i386 that is 4 for 8-byte integers and
//! doubles and for the 12-byte x87 `long double`. Struct and union layouts
//! are not recomputed here: the front end stores them in the [`Composite`].
//!
//! [`Composite`]: crate::types::Composite

use crate::program::DataModel;
use crate::types::{ArrayLen, FloatFormat, Type, TypeId, TypeTable};

impl DataModel {
    /// Bytes in a pointer.
    pub fn pointer_bytes(self) -> u64 {
        u64::from(self.pointer_bits() / 8)
    }
    /// `SIZE_MAX`: the size in bytes of any object, `sizeof` included,
    /// must be representable in `size_t`.
    pub fn max_object_bytes(self) -> u64 {
        u64::MAX >> (64 - self.pointer_bits())
    }
    /// Largest block `malloc` can ever return: larger requests fail with
    /// NULL. On x86-64 the user address space has 2^47 bytes; on i386
    /// glibc refuses anything above `PTRDIFF_MAX`.
    pub fn max_allocation_bytes(self) -> u64 {
        match self {
            DataModel::ILP32 => (1 << 31) - 1,
            DataModel::LP64 => (1 << 47) - 1,
        }
    }
    /// Largest alignment the ABI gives a scalar inside a struct.
    fn max_scalar_align(self) -> u64 {
        match self {
            DataModel::ILP32 => 4,
            DataModel::LP64 => 16,
        }
    }
}

impl FloatFormat {
    /// (size, alignment) in bytes of a value of this format in memory.
    pub fn layout(self, model: DataModel) -> (u64, u64) {
        match (self, model) {
            (FloatFormat::Half, _) => (2, 2),
            (FloatFormat::Single, _) => (4, 4),
            (FloatFormat::Double, DataModel::ILP32) => (8, 4),
            (FloatFormat::Double, DataModel::LP64) => (8, 8),
            (FloatFormat::X87Extended, DataModel::ILP32) => (12, 4),
            (FloatFormat::X87Extended, DataModel::LP64) => (16, 16),
            (FloatFormat::Quad, _) => (16, 16),
        }
    }
}

/// (size, alignment) in bytes of an integer of `bits` bits. Up to 64 bits
/// and at 128 (`__int128`) the size is the next power of two bytes
/// (bit-field widths and C23 `_BitInt(N)` round up the same way); other
/// widths above 64 are C23 `_BitInt(N)`, which the psABIs store as whole
/// `long long` chunks (8 bytes on x86-64, 4 on i386: clang's rule).
pub fn int_layout(bits: u32, model: DataModel) -> (u64, u64) {
    let bytes = u64::from(bits.div_ceil(8).max(1));
    if bits <= 64 || bits == 128 {
        let size = bytes.next_power_of_two();
        return (size, size.min(model.max_scalar_align()));
    }
    let chunk = match model {
        DataModel::ILP32 => 4,
        DataModel::LP64 => 8,
    };
    (bytes.next_multiple_of(chunk), chunk)
}

impl TypeTable {
    /// Size in bytes of a complete object type; `None` for `void`,
    /// functions, incomplete composites, arrays of unknown or variable
    /// length, and sizes that overflow `u64`.
    pub fn size_of(&self, ty: TypeId, model: DataModel) -> Option<u64> {
        match self.get(ty) {
            Type::Void | Type::Function(_) => None,
            Type::Bool => Some(1),
            Type::Int { bits, .. } => Some(int_layout(*bits, model).0),
            Type::Float(format) => Some(format.layout(model).0),
            Type::Pointer(_) => Some(model.pointer_bytes()),
            Type::Array(elem, ArrayLen::Fixed(count)) => self.size_of(*elem, model)?.checked_mul(*count),
            Type::Array(_, ArrayLen::Var(_) | ArrayLen::Unknown) => None,
            Type::Composite(id) => {
                let composite = &self.composites[*id];
                composite.complete.then_some(composite.size)
            }
        }
    }

    /// The element size of the fresh objects a pointer to `pointee` may
    /// point to when it is a parameter of the entry function: the size of
    /// `pointee` (one byte for `void`), or `None` when its objects would
    /// hold pointers (which would need objects of their own) or it has no
    /// size.
    pub fn entry_pointee_size(&self, pointee: TypeId, model: DataModel) -> Option<u64> {
        if self.holds_pointer(pointee, false) {
            return None;
        }
        match self.get(pointee) {
            Type::Void => Some(1),
            _ => self.size_of(pointee, model).filter(|&size| size > 0),
        }
    }

    /// Whether a value of type `ty` holds a pointer (or a function); with
    /// `unknown_holds`, `void` and incomplete composites count as holding
    /// one, since their objects' real types are not known.
    pub fn holds_pointer(&self, ty: TypeId, unknown_holds: bool) -> bool {
        let mut stack = vec![ty];
        while let Some(ty) = stack.pop() {
            match self.get(ty) {
                Type::Pointer(_) | Type::Function(_) => return true,
                Type::Array(elem, _) => stack.push(*elem),
                Type::Composite(id) if unknown_holds && !self.composites[*id].complete => return true,
                Type::Composite(id) => stack.extend(self.composites[*id].fields.iter().map(|f| f.ty)),
                Type::Void if unknown_holds => return true,
                Type::Void | Type::Bool | Type::Int { .. } | Type::Float(_) => {}
            }
        }
        false
    }

    /// Whether `ty` is (or has as elements) a variable-length array: each
    /// execution of its declaration makes an object of a new size.
    pub fn is_variably_modified(&self, ty: TypeId) -> bool {
        let mut t = ty;
        while let Type::Array(elem, len) = self.get(t) {
            if matches!(len, crate::types::ArrayLen::Var(_)) {
                return true;
            }
            t = *elem;
        }
        false
    }

    /// Alignment in bytes (as a struct field); `None` for `void`, functions
    /// and incomplete composites. Arrays of any length align as their element.
    pub fn align_of(&self, ty: TypeId, model: DataModel) -> Option<u64> {
        match self.get(ty) {
            Type::Void | Type::Function(_) => None,
            Type::Bool => Some(1),
            Type::Int { bits, .. } => Some(int_layout(*bits, model).1),
            Type::Float(format) => Some(format.layout(model).1),
            Type::Pointer(_) => Some(model.pointer_bytes()),
            Type::Array(elem, _) => self.align_of(*elem, model),
            Type::Composite(id) => {
                let composite = &self.composites[*id];
                composite.complete.then_some(composite.align)
            }
        }
    }

    /// Value bits of a scalar (`Bool` is 1, pointers the model's pointer
    /// width, x87 80); `None` for aggregates, `void` and functions.
    pub fn bits_of(&self, ty: TypeId, model: DataModel) -> Option<u32> {
        match self.get(ty) {
            Type::Bool => Some(1),
            Type::Int { bits, .. } => Some(*bits),
            Type::Float(format) => Some(format.storage_bits()),
            Type::Pointer(_) => Some(model.pointer_bits()),
            _ => None,
        }
    }

    pub fn is_integer(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Int { .. })
    }
    pub fn is_bool(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Bool)
    }
    pub fn is_float(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Float(_))
    }
    pub fn is_pointer(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Pointer(_))
    }
    /// Integers, floats, `Bool` and pointers.
    pub fn is_scalar(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Bool | Type::Int { .. } | Type::Float(_) | Type::Pointer(_))
    }
    /// `Some((bits, signed))` for an integer type.
    pub fn int_info(&self, ty: TypeId) -> Option<(u32, bool)> {
        match self.get(ty) {
            Type::Int { bits, signed } => Some((*bits, *signed)),
            _ => None,
        }
    }
    /// True only for signed integer types.
    pub fn is_signed(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Int { signed: true, .. })
    }
    /// The pointee of a pointer type.
    pub fn pointee(&self, ty: TypeId) -> Option<TypeId> {
        match self.get(ty) {
            Type::Pointer(pointee) => Some(*pointee),
            _ => None,
        }
    }
    /// Smallest value of an integer type (`None` for other types).
    pub fn int_min(&self, ty: TypeId) -> Option<i128> {
        self.int_info(ty).map(|(bits, signed)| int_min(bits, signed))
    }
    /// Largest value of an integer type (`None` for other types).
    pub fn int_max(&self, ty: TypeId) -> Option<u128> {
        self.int_info(ty).map(|(bits, signed)| int_max(bits, signed))
    }

    /// The unsigned integer type of `sizeof` (`size_t`).
    pub fn size_t(&mut self, model: DataModel) -> TypeId {
        self.int(model.pointer_bits(), false)
    }
    /// The signed integer type of a pointer difference (`ptrdiff_t`).
    pub fn ptrdiff_t(&mut self, model: DataModel) -> TypeId {
        self.int(model.pointer_bits(), true)
    }
}

/// Smallest value of a `bits`-bit integer (`bits` in 1..=128).
pub fn int_min(bits: u32, signed: bool) -> i128 {
    if signed {
        i128::MIN >> (128 - bits)
    } else {
        0
    }
}

/// Largest value of a `bits`-bit integer (`bits` in 1..=128).
pub fn int_max(bits: u32, signed: bool) -> u128 {
    let value_bits = if signed { bits - 1 } else { bits };
    low_mask(value_bits)
}

/// A mask of the low `bits` bits (all ones from 128 on).
pub fn low_mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Composite, CompositeKind, FnSig};

    #[test]
    fn entry_pointees_are_sized_only_when_their_objects_hold_no_pointers() {
        let mut t = TypeTable::new();
        let int = t.int(32, true);
        let void = t.void();
        let ints = t.intern(Type::Array(int, ArrayLen::Fixed(3)));
        let int_ptr = t.pointer_to(int);
        let ptrs = t.intern(Type::Array(int_ptr, ArrayLen::Fixed(2)));
        assert_eq!(t.entry_pointee_size(int, DataModel::LP64), Some(4));
        assert_eq!(t.entry_pointee_size(ints, DataModel::LP64), Some(12));
        assert_eq!(t.entry_pointee_size(void, DataModel::LP64), Some(1));
        assert_eq!(t.entry_pointee_size(int_ptr, DataModel::LP64), None);
        assert_eq!(t.entry_pointee_size(ptrs, DataModel::LP64), None);
        assert!(t.holds_pointer(ptrs, false) && !t.holds_pointer(ints, true));
        assert!(!t.holds_pointer(void, false) && t.holds_pointer(void, true));
    }

    #[test]
    fn scalar_sizes_follow_the_data_model() {
        let mut t = TypeTable::new();
        let long = t.int(64, true);
        let ptr = t.pointer_to(long);
        let boolean = t.bool();
        let ld = t.intern(Type::Float(FloatFormat::X87Extended));
        let dbl = t.intern(Type::Float(FloatFormat::Double));
        assert_eq!(t.size_of(boolean, DataModel::LP64), Some(1));
        assert_eq!(t.size_of(ptr, DataModel::ILP32), Some(4));
        assert_eq!(t.size_of(ptr, DataModel::LP64), Some(8));
        assert_eq!((t.size_of(ld, DataModel::LP64), t.align_of(ld, DataModel::LP64)), (Some(16), Some(16)));
        assert_eq!((t.size_of(ld, DataModel::ILP32), t.align_of(ld, DataModel::ILP32)), (Some(12), Some(4)));
        assert_eq!(t.align_of(long, DataModel::ILP32), Some(4));
        assert_eq!(t.align_of(dbl, DataModel::ILP32), Some(4));
        assert_eq!(t.align_of(long, DataModel::LP64), Some(8));
        assert_eq!(t.bits_of(ld, DataModel::LP64), Some(80));
        assert_eq!(t.bits_of(ptr, DataModel::ILP32), Some(32));
    }

    #[test]
    fn odd_integer_widths_follow_clangs_bit_int_layout() {
        use DataModel::{ILP32, LP64};
        assert_eq!(int_layout(1, LP64), (1, 1));
        assert_eq!(int_layout(10, LP64), (2, 2));
        assert_eq!(int_layout(17, LP64), (4, 4));
        assert_eq!(int_layout(37, LP64), (8, 8));
        assert_eq!(int_layout(37, ILP32), (8, 4));
        assert_eq!(int_layout(65, LP64), (16, 8));
        assert_eq!(int_layout(65, ILP32), (12, 4));
        assert_eq!(int_layout(100, ILP32), (16, 4));
        assert_eq!(int_layout(128, LP64), (16, 16));
        assert_eq!(int_layout(128, ILP32), (16, 4));
    }

    #[test]
    fn aggregates_and_unsized_types() {
        let mut t = TypeTable::new();
        let int = t.int(32, true);
        let arr = t.intern(Type::Array(int, ArrayLen::Fixed(10)));
        let open = t.intern(Type::Array(int, ArrayLen::Unknown));
        let huge = t.intern(Type::Array(int, ArrayLen::Fixed(u64::MAX / 2)));
        let void = t.void();
        let func = t.intern(Type::Function(FnSig { ret: int, params: vec![], variadic: false, unprototyped: false }));
        let comp = t.composites.push(Composite {
            kind: CompositeKind::Struct,
            name: "S".into(),
            fields: vec![],
            size: 24,
            align: 8,
            complete: true,
        });
        let incomplete = t.composites.push(Composite {
            kind: CompositeKind::Union,
            name: "U".into(),
            fields: vec![],
            size: 0,
            align: 1,
            complete: false,
        });
        let s = t.intern(Type::Composite(comp));
        let u = t.intern(Type::Composite(incomplete));
        assert_eq!(t.size_of(arr, DataModel::LP64), Some(40));
        assert_eq!(t.align_of(arr, DataModel::LP64), Some(4));
        assert_eq!(t.size_of(open, DataModel::LP64), None);
        assert_eq!(t.size_of(huge, DataModel::LP64), None);
        assert_eq!(t.size_of(void, DataModel::LP64), None);
        assert_eq!(t.size_of(func, DataModel::LP64), None);
        assert_eq!((t.size_of(s, DataModel::LP64), t.align_of(s, DataModel::LP64)), (Some(24), Some(8)));
        assert_eq!(t.size_of(u, DataModel::LP64), None);
    }

    #[test]
    fn integer_ranges() {
        let mut t = TypeTable::new();
        let i8_ = t.int(8, true);
        let u32_ = t.int(32, false);
        let i128_ = t.int(128, true);
        let u128_ = t.int(128, false);
        assert_eq!((t.int_min(i8_), t.int_max(i8_)), (Some(-128), Some(127)));
        assert_eq!((t.int_min(u32_), t.int_max(u32_)), (Some(0), Some(u32::MAX as u128)));
        assert_eq!((t.int_min(i128_), t.int_max(i128_)), (Some(i128::MIN), Some(i128::MAX as u128)));
        assert_eq!(t.int_max(u128_), Some(u128::MAX));
        let size_t = t.size_t(DataModel::ILP32);
        assert_eq!(t.int_info(size_t), Some((32, false)));
        let ptrdiff = t.ptrdiff_t(DataModel::LP64);
        assert_eq!(t.int_info(ptrdiff), Some((64, true)));
        let bitfield = t.int(3, false);
        assert_eq!(t.size_of(bitfield, DataModel::LP64), Some(1));
    }
}
