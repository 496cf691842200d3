//! IR types, interned in a [`TypeTable`] and referred to by [`TypeId`].
//!
//! The IR keeps the shape of C data (arrays, structs, unions, pointers) but
//! none of C's type-system rules: signedness is part of the integer type,
//! `char`/`signed char` and enums are plain integers, qualifiers are gone.
//! Composite layouts (field offsets, size, alignment) are computed by the
//! front end for the program's data model and stored here.

use crate::entity::PrimaryMap;
use crate::program::SymbolId;
use std::collections::HashMap;

crate::entity!(
    /// An interned type.
    TypeId,
    "ty"
);
crate::entity!(
    /// A struct or union definition.
    CompositeId,
    "comp"
);

/// IEEE-754 binary formats (and x87 extended precision).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FloatFormat {
    /// binary16: `_Float16`.
    Half,
    /// binary32: `float`.
    Single,
    /// binary64: `double`.
    Double,
    /// x87 80-bit extended precision: `long double` on x86.
    X87Extended,
    /// binary128: `_Float128`.
    Quad,
}

impl FloatFormat {
    /// Exponent width in bits.
    pub fn exponent_bits(self) -> u32 {
        match self {
            FloatFormat::Half => 5,
            FloatFormat::Single => 8,
            FloatFormat::Double => 11,
            FloatFormat::X87Extended => 15,
            FloatFormat::Quad => 15,
        }
    }
    /// Significand precision in bits, including the hidden (or, for x87, explicit) integer bit.
    pub fn significand_bits(self) -> u32 {
        match self {
            FloatFormat::Half => 11,
            FloatFormat::Single => 24,
            FloatFormat::Double => 53,
            FloatFormat::X87Extended => 64,
            FloatFormat::Quad => 113,
        }
    }
    /// Number of value bits in memory (x87: 80; padding is not counted).
    pub fn storage_bits(self) -> u32 {
        match self {
            FloatFormat::Half => 16,
            FloatFormat::Single => 32,
            FloatFormat::Double => 64,
            FloatFormat::X87Extended => 80,
            FloatFormat::Quad => 128,
        }
    }
    /// The bit pattern of positive infinity (x87: with its explicit integer bit).
    pub fn infinity_bits(self) -> u128 {
        let fraction_bits = self.significand_bits() - 1;
        let exponent_ones = (1u128 << self.exponent_bits()) - 1;
        match self {
            FloatFormat::X87Extended => (exponent_ones << 64) | (1u128 << 63),
            _ => exponent_ones << fraction_bits,
        }
    }
}

/// The length of an array type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ArrayLen {
    /// A constant number of elements.
    Fixed(u64),
    /// A variable-length array: the element count is the value of this
    /// (integer-typed) symbol, assigned once before the array's `Decl`.
    Var(SymbolId),
    /// An incomplete array (`extern int a[];`, flexible array members).
    Unknown,
}

/// A function signature.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct FnSig {
    pub ret: TypeId,
    pub params: Vec<TypeId>,
    pub variadic: bool,
    /// Declared without a prototype (`int f();`): calls are not checked
    /// against `params`.
    pub unprototyped: bool,
}

/// A type. Build them through [`TypeTable::intern`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Type {
    Void,
    /// A truth value; stored in memory as one byte holding 0 or 1 (C `_Bool`).
    Bool,
    /// A two's-complement integer of `bits` bits (8, 16, 32, 64, 128, or a
    /// bit-field width).
    Int { bits: u32, signed: bool },
    Float(FloatFormat),
    Pointer(TypeId),
    Array(TypeId, ArrayLen),
    Composite(CompositeId),
    Function(FnSig),
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CompositeKind {
    Struct,
    Union,
}

/// A field of a struct or union.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Field {
    /// Empty for unnamed bit-fields and anonymous struct/union members.
    pub name: String,
    pub ty: TypeId,
    /// Offset from the start of the composite, in bits (a multiple of 8
    /// except for bit-fields).
    pub offset_bits: u64,
    /// `Some(w)` for a bit-field of width `w`; `ty` is then the declared
    /// integer (or `_Bool`) type.
    pub bit_width: Option<u32>,
}

/// A struct or union with its layout.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Composite {
    pub kind: CompositeKind,
    /// The C tag, or a generated name for anonymous composites.
    pub name: String,
    pub fields: Vec<Field>,
    /// Size in bytes, including padding (0 while incomplete).
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// False for a declared but never defined struct/union.
    pub complete: bool,
}

impl Composite {
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
}

/// Interned types and composite definitions.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    types: PrimaryMap<TypeId, Type>,
    index: HashMap<Type, TypeId>,
    pub composites: PrimaryMap<CompositeId, Composite>,
}

impl TypeTable {
    pub fn new() -> Self {
        Self::default()
    }
    /// Returns the id of `ty`, adding it if it is new.
    pub fn intern(&mut self, ty: Type) -> TypeId {
        if let Some(&id) = self.index.get(&ty) {
            return id;
        }
        let id = self.types.push(ty.clone());
        self.index.insert(ty, id);
        id
    }
    /// Looks up `ty` without adding it.
    pub fn lookup(&self, ty: &Type) -> Option<TypeId> {
        self.index.get(ty).copied()
    }
    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id]
    }
    pub fn len(&self) -> usize {
        self.types.len()
    }
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }
    pub fn bool(&mut self) -> TypeId {
        self.intern(Type::Bool)
    }
    pub fn int(&mut self, bits: u32, signed: bool) -> TypeId {
        self.intern(Type::Int { bits, signed })
    }
    pub fn pointer_to(&mut self, pointee: TypeId) -> TypeId {
        self.intern(Type::Pointer(pointee))
    }

    /// Whether a function of type `actual` may be called through a pointer
    /// to function type `expected`: the same type, one of them without a
    /// prototype (`void f()` is compatible with `void f(void)`, C11
    /// 6.7.6.3p15), or the same result and number of parameters.
    pub fn callable_as(&self, expected: TypeId, actual: TypeId) -> bool {
        match (self.get(expected), self.get(actual)) {
            (Type::Function(x), Type::Function(y)) => {
                expected == actual || x.unprototyped || y.unprototyped || (x.params.len() == y.params.len() && x.ret == y.ret)
            }
            _ => false,
        }
    }
}
