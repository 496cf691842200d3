//! The representation of variadic arguments (`...`, `va_list`), shared by
//! the front end, symex and the interpreter.
//!
//! - A call passes its extra arguments as ordinary `Call` arguments after
//!   the fixed ones, already default-promoted by the front end.
//! - A variadic function with a body has a hidden local, its *argument
//!   area* ([`crate::Function::variadic_area`], a `unsigned char[]`). On
//!   entry, symex and the interpreter create that object for the frame:
//!   its bytes start uninitialized (an input of kind "uninitialized"), then
//!   each extra argument is stored at the offset [`area_layout`] gives it,
//!   in its memory representation. The area dies when the frame returns.
//! - A `va_list` is a `void *` *cursor*: the address of the next unread
//!   slot in some frame's argument area. `va_start(ap, last)` sets
//!   `ap = &area`; `va_arg(ap, T)` reads `*(T *)ap` and advances `ap` by
//!   [`slot_size`]`(T)` bytes; `va_copy(d, s)` is `d = s`; `va_end` has no
//!   effect. A library model that consumes a `va_list` (`vprintf`, ...)
//!   reads its arguments the same way: slot after slot from the cursor.
//! - Reading past the last argument is an access outside the area object,
//!   so the pointer checks report it; a `va_list` never started holds an
//!   indeterminate pointer, and using it is an invalid dereference too.
//!
//! Slots follow the stack layout of the System V ABIs: each argument takes
//! its size rounded up to a multiple of the pointer size (8 bytes on LP64,
//! 4 on ILP32), so a `double` on ILP32 takes two words and `long double`
//! 16 (LP64) or 12 (ILP32) bytes. On LP64 a slot also starts at a multiple
//! of its type's alignment when that exceeds a word (`long double`,
//! `__int128`, structs holding them: 16), and `va_arg` of such a type first
//! moves the cursor up to it ([`slot_alignment`]); i386 aligns every slot
//! to 4 bytes only. Since a `va_list` is passed by value, a
//! function that consumes a `va_list` it was given does not advance its
//! caller's copy (C leaves the caller's copy indeterminate then).

use crate::program::DataModel;
use crate::types::{TypeId, TypeTable};

/// Bytes an argument of type `ty` takes in the argument area (`None` for a
/// type without a size).
pub fn slot_size(types: &TypeTable, ty: TypeId, model: DataModel) -> Option<u64> {
    let word = model.pointer_bytes();
    Some(types.size_of(ty, model)?.div_ceil(word) * word)
}

/// The alignment of the slot of an argument of type `ty` (`None` for a
/// type without one).
pub fn slot_alignment(types: &TypeTable, ty: TypeId, model: DataModel) -> Option<u64> {
    let word = model.pointer_bytes();
    match model {
        DataModel::LP64 => Some(types.align_of(ty, model)?.max(word)),
        DataModel::ILP32 => Some(word),
    }
}

/// Where the slot of an argument of type `ty` starts when the previous one
/// ends at `offset` of the argument area: moved up only for a type aligned
/// beyond a word (slots of the others keep the cursor's word steps).
pub fn slot_start(types: &TypeTable, ty: TypeId, model: DataModel, offset: u64) -> Option<u64> {
    let align = slot_alignment(types, ty, model)?;
    Some(if align > model.pointer_bytes() { offset.next_multiple_of(align) } else { offset })
}

/// The offset of each extra argument in the argument area, and the area's
/// size in bytes (`None` if an argument type has no size).
pub fn area_layout(types: &TypeTable, arg_types: &[TypeId], model: DataModel) -> Option<(Vec<u64>, u64)> {
    let mut offsets = Vec::with_capacity(arg_types.len());
    let mut end = 0;
    for &ty in arg_types {
        let start = slot_start(types, ty, model, end)?;
        offsets.push(start);
        end = start + slot_size(types, ty, model)?;
    }
    Some((offsets, end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{FloatFormat, Type};

    #[test]
    fn slots_are_whole_words_of_the_data_model() {
        let mut t = TypeTable::new();
        let char_ty = t.intern(Type::Int { bits: 8, signed: true });
        let int = t.intern(Type::Int { bits: 32, signed: true });
        let double = t.intern(Type::Float(FloatFormat::Double));
        let (offsets, size) = area_layout(&t, &[int, double, char_ty], DataModel::LP64).unwrap();
        assert_eq!((offsets, size), (vec![0, 8, 16], 24));
        let (offsets, size) = area_layout(&t, &[int, double, char_ty], DataModel::ILP32).unwrap();
        assert_eq!((offsets, size), (vec![0, 4, 12], 16));
    }

    #[test]
    fn a_slot_of_a_type_aligned_beyond_a_word_starts_at_its_alignment() {
        let mut t = TypeTable::new();
        let int = t.intern(Type::Int { bits: 32, signed: true });
        let x87 = t.intern(Type::Float(FloatFormat::X87Extended));
        let (offsets, size) = area_layout(&t, &[int, x87, int], DataModel::LP64).unwrap();
        assert_eq!((offsets, size), (vec![0, 16, 32], 40));
        let (offsets, size) = area_layout(&t, &[int, x87, int], DataModel::ILP32).unwrap();
        assert_eq!((offsets, size), (vec![0, 4, 16], 20));
    }

    #[test]
    fn an_unsized_argument_has_no_layout() {
        let mut t = TypeTable::new();
        let void = t.intern(Type::Void);
        assert_eq!(slot_size(&t, void, DataModel::LP64), None);
        assert_eq!(area_layout(&t, &[void], DataModel::LP64), None);
    }
}
