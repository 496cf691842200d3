//! Struct and union layout as gcc computes it on x86 and x86-64 (System V):
//! field alignment, `packed`, `aligned(N)`, bit-fields that never straddle
//! an alignment unit of their declared type (unless packed), zero-width
//! bit-fields, unnamed bit-fields that do not raise the struct's alignment,
//! and flexible array members. The algorithm works on sizes only, so it is
//! independent of the type representation.

/// What layout needs to know about one member.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberShape {
    /// Size in bytes of the member's type (of the declared type for bit-fields).
    pub size: u64,
    /// Alignment in bytes of the member's type inside a struct.
    pub align: u64,
    /// Explicit `aligned(N)`/`_Alignas` on the member (0: none).
    pub explicit_align: u64,
    /// `Some(w)` for a bit-field of width `w`.
    pub bit_width: Option<u32>,
    /// Unnamed members (bit-fields) do not raise the struct's alignment.
    pub named: bool,
    /// The member carries `packed` itself.
    pub packed: bool,
}

/// Attributes of the whole struct or union.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct RecordAttrs {
    pub packed: bool,
    /// `aligned(N)` on the struct (0: none).
    pub align: u64,
    /// `#pragma pack(N)` in effect (0: none).
    pub max_align: u64,
}

/// The computed layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub offsets_bits: Vec<u64>,
    pub size: u64,
    pub align: u64,
}

fn round_up(value: u64, multiple: u64) -> u64 {
    if multiple <= 1 {
        value
    } else {
        value.div_ceil(multiple).saturating_mul(multiple)
    }
}

fn member_align(m: &MemberShape, attrs: RecordAttrs) -> u64 {
    let natural = if attrs.packed || m.packed { 1 } else { m.align.max(1) };
    let align = natural.max(m.explicit_align);
    // `#pragma pack` caps even a member's explicit `aligned(N)` (as gcc does).
    if attrs.max_align > 0 {
        align.min(attrs.max_align)
    } else {
        align
    }
}

/// Lays out a struct.
pub fn layout_struct(members: &[MemberShape], attrs: RecordAttrs) -> Layout {
    let mut offset: u64 = 0;
    let mut align: u64 = 1;
    let mut offsets = Vec::with_capacity(members.len());
    for m in members {
        let m_align = member_align(m, attrs);
        match m.bit_width {
            None => {
                offset = round_up(offset, m_align * 8);
                offsets.push(offset);
                offset = offset.saturating_add(m.size.saturating_mul(8));
                align = align.max(m_align);
            }
            // A zero-width bit-field moves to its declared type's boundary
            // even under `packed` or `#pragma pack` (gcc does so), and does
            // not raise the struct's alignment.
            Some(0) => {
                offset = round_up(offset, m.align.max(m.explicit_align).max(1) * 8);
                offsets.push(offset);
            }
            Some(width) => {
                let width = u64::from(width);
                let unit = m_align * 8;
                let straddles = (offset % unit) + width > m.size * 8;
                if !(attrs.packed || m.packed) && straddles {
                    offset = round_up(offset, unit);
                }
                offsets.push(offset);
                offset = offset.saturating_add(width);
                if m.named {
                    align = align.max(m_align);
                }
            }
        }
    }
    finish(offsets, offset, align, attrs)
}

/// Lays out a union: every member at offset 0.
pub fn layout_union(members: &[MemberShape], attrs: RecordAttrs) -> Layout {
    let mut size_bits: u64 = 0;
    let mut align: u64 = 1;
    for m in members {
        let m_align = member_align(m, attrs);
        let bits = match m.bit_width {
            Some(w) => u64::from(w),
            None => m.size.saturating_mul(8),
        };
        size_bits = size_bits.max(bits);
        if m.named || m.bit_width.is_none() {
            align = align.max(m_align);
        }
    }
    finish(vec![0; members.len()], size_bits, align, attrs)
}

fn finish(offsets_bits: Vec<u64>, end_bits: u64, align: u64, attrs: RecordAttrs) -> Layout {
    let align = align.max(attrs.align).max(1);
    let size = round_up(end_bits.div_ceil(8), align);
    Layout { offsets_bits, size, align }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(size: u64, align: u64) -> MemberShape {
        MemberShape { size, align, explicit_align: 0, bit_width: None, named: true, packed: false }
    }
    fn bits(size: u64, width: u32, named: bool) -> MemberShape {
        MemberShape { size, align: size, explicit_align: 0, bit_width: Some(width), named, packed: false }
    }

    #[test]
    fn char_int_char_pads_to_twelve() {
        let l = layout_struct(&[plain(1, 1), plain(4, 4), plain(1, 1)], RecordAttrs::default());
        assert_eq!(l.offsets_bits, vec![0, 32, 64]);
        assert_eq!((l.size, l.align), (12, 4));
    }

    #[test]
    fn pragma_pack_caps_explicit_member_alignment() {
        let attrs = RecordAttrs { max_align: 2, ..Default::default() };
        let aligned_int = MemberShape { explicit_align: 8, ..plain(4, 4) };
        let l = layout_struct(&[plain(1, 1), aligned_int], attrs);
        assert_eq!((l.offsets_bits[1], l.size, l.align), (16, 6, 2));
    }

    #[test]
    fn zero_width_bit_field_ignores_packing() {
        let members = [plain(1, 1), bits(4, 0, false), plain(1, 1)];
        for attrs in [
            RecordAttrs::default(),
            RecordAttrs { packed: true, ..Default::default() },
            RecordAttrs { max_align: 1, ..Default::default() },
        ] {
            let l = layout_struct(&members, attrs);
            assert_eq!(l.offsets_bits[2], 32, "{attrs:?}");
            assert_eq!((l.size, l.align), (5, 1), "{attrs:?}");
        }
    }

    #[test]
    fn packed_struct_has_no_padding() {
        let attrs = RecordAttrs { packed: true, ..Default::default() };
        let l = layout_struct(&[plain(1, 1), plain(4, 4), plain(1, 1)], attrs);
        assert_eq!(l.offsets_bits, vec![0, 8, 40]);
        assert_eq!((l.size, l.align), (6, 1));
    }

    #[test]
    fn bit_fields_do_not_straddle_their_unit() {
        // struct { int a:30; int b:4; }: b starts a new int.
        let l = layout_struct(&[bits(4, 30, true), bits(4, 4, true)], RecordAttrs::default());
        assert_eq!(l.offsets_bits, vec![0, 32]);
        assert_eq!(l.size, 8);
        // struct { char a; int b:8; }: b shares the first int unit.
        let l = layout_struct(&[plain(1, 1), bits(4, 8, true)], RecordAttrs::default());
        assert_eq!(l.offsets_bits, vec![0, 8]);
        assert_eq!((l.size, l.align), (4, 4));
    }

    #[test]
    fn zero_width_and_unnamed_bit_fields() {
        // struct { char a; int :0; char b; } is 5 bytes with alignment 1.
        let l = layout_struct(&[plain(1, 1), bits(4, 0, false), plain(1, 1)], RecordAttrs::default());
        assert_eq!(l.offsets_bits, vec![0, 32, 32]);
        assert_eq!((l.size, l.align), (5, 1));
        // struct { char a; int :4; } keeps alignment 1.
        let l = layout_struct(&[plain(1, 1), bits(4, 4, false)], RecordAttrs::default());
        assert_eq!((l.size, l.align), (2, 1));
    }

    #[test]
    fn union_takes_the_largest_member_and_alignment() {
        let l = layout_union(&[plain(1, 1), plain(8, 8), plain(3, 1)], RecordAttrs::default());
        assert_eq!((l.size, l.align), (8, 8));
        let l = layout_union(&[plain(5, 1), plain(4, 4)], RecordAttrs::default());
        assert_eq!((l.size, l.align), (8, 4));
    }

    #[test]
    fn aligned_attribute_raises_alignment_and_size() {
        let attrs = RecordAttrs { align: 16, ..Default::default() };
        let l = layout_struct(&[plain(4, 4)], attrs);
        assert_eq!((l.size, l.align), (16, 16));
        let mut m = plain(1, 1);
        m.explicit_align = 8;
        let l = layout_struct(&[plain(1, 1), m], RecordAttrs::default());
        assert_eq!(l.offsets_bits, vec![0, 64]);
        assert_eq!((l.size, l.align), (16, 8));
    }

    #[test]
    fn flexible_array_member_adds_no_size() {
        let l = layout_struct(&[plain(4, 4), plain(0, 8)], RecordAttrs::default());
        assert_eq!(l.offsets_bits, vec![0, 64]);
        assert_eq!((l.size, l.align), (8, 8));
    }
}
