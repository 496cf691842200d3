//! Declarations: type specifiers and declarators to C types, struct/union
//! and enum definitions, typedefs, objects and functions at file and block
//! scope with their linkage across translation units, function
//! definitions (prototyped and K&R), and `_Static_assert`.

use super::aliases;
use super::ctype::{self, ArraySize, ComplexElem, CType, FloatKind, FnType, IntKind, Kind, TypeEnv};
use super::layout::{MemberShape, RecordAttrs};
use super::scope::{Ordinary, Tag};
use super::types::{CField, EnumInfo, RecordInfo};
use super::{FnCtx, Sema, R};
use crate::ast::{self, BasicType, Derived, ExternalDecl, StorageClass, TypeSpec};
use ir::{CompositeId, CompositeKind, Expr, ExprKind, InstrKind, Loc, SymbolId, SymbolKind};
use std::rc::Rc;

/// The widest `_BitInt(N)`: gcc's `BITINT_MAXWIDTH` on x86-64.
const BIT_INT_MAX_WIDTH: i128 = 65535;

/// Vector operations are expanded lane by lane: bounded.
const MAX_VECTOR_LANES: u64 = 1024;

/// `aligned` without an argument means the target's biggest alignment.
const BIGGEST_ALIGNMENT: u64 = 16;

pub fn item_loc(item: &ExternalDecl) -> Option<Loc> {
    match item {
        ExternalDecl::Function(f) => Some(f.loc),
        ExternalDecl::Declaration(d) => Some(d.loc),
        ExternalDecl::StaticAssert(s) => Some(s.loc),
        ExternalDecl::Asm(_, loc) => Some(*loc),
    }
}

fn has_attr(attrs: &[ast::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.name == name)
}

/// Whether `f` is a GNU `extern inline` definition (`extern`, `inline`
/// and `gnu_inline`) of a C library function, which is not an external
/// definition of the function: libc (here a model, or nothing) has it.
/// Other such bodies (GCC's `mmintrin.h` intrinsics) are the only ones
/// there are, and are definitions.
fn is_gnu_inline_hint(f: &ast::FunctionDef, name: &str) -> bool {
    ir::external::is_glibc_function(name)
        && f.specs.storage == Some(StorageClass::Extern)
        && f.specs.is_inline
        && (has_attr(&f.specs.attrs, "gnu_inline") || has_attr(&f.declarator.attrs, "gnu_inline"))
}

/// Whether an object of type `ty` is const as a whole (a const type, or an
/// array of them).
fn is_const_object(mut ty: &CType) -> bool {
    while let (false, Kind::Array(elem, _)) = (ty.quals.is_const, &ty.kind) {
        ty = elem;
    }
    ty.quals.is_const
}

/// A definition of an external object, for the linker's choice of its
/// initial value.
#[derive(Clone, Debug)]
pub(super) struct Definition {
    /// `__attribute__((weak))`.
    weak: bool,
    /// With an initializer (otherwise a tentative definition).
    initialized: bool,
    /// The translation unit it is in.
    unit: String,
}

/// A parameter: its name (if any), adjusted type and location.
type Param = (Option<String>, CType, Loc);

/// What a function definition's declarator says.
pub(super) struct DefinitionSignature<'f> {
    pub name: String,
    pub ret: CType,
    pub params: Vec<Param>,
    pub fdecl: &'f ast::FunctionDecl,
    /// The function type, parameters and result together.
    pub ty: CType,
}

/// How a declared name links.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Linkage {
    External,
    Internal,
}

impl<'a> Sema<'a> {
    /// Collects names that any unit declares with external linkage, so a
    /// file-static symbol never takes such a name.
    pub(super) fn reserve_external_names(&mut self, units: &[ast::TranslationUnit]) {
        for unit in units {
            for item in &unit.items {
                let (specs, declarators): (&ast::DeclSpecs, Vec<&ast::Declarator>) = match item {
                    ExternalDecl::Function(f) => (&f.specs, vec![&f.declarator]),
                    ExternalDecl::Declaration(d) => (&d.specs, d.declarators.iter().map(|i| &i.declarator).collect()),
                    _ => continue,
                };
                if matches!(specs.storage, Some(StorageClass::Static | StorageClass::Typedef)) {
                    continue;
                }
                for d in declarators {
                    if let Some(name) = &d.name {
                        self.external_names.insert(name.clone());
                    }
                }
            }
        }
    }

    pub(super) fn lower_external(&mut self, item: &ExternalDecl) -> R<()> {
        match item {
            ExternalDecl::Function(f) => self.function_definition(f),
            ExternalDecl::Declaration(d) => self.declaration(d),
            ExternalDecl::StaticAssert(s) => self.static_assert(s),
            ExternalDecl::Asm(_, loc) => {
                self.warn(*loc, "file-scope asm is ignored");
                Ok(())
            }
        }
    }

    pub(super) fn static_assert(&mut self, s: &ast::StaticAssert) -> R<()> {
        let value = self.const_int(&s.cond, "static assertion condition")?;
        if value == 0 {
            let msg = s.message.as_deref().unwrap_or("");
            return Err(self.error(s.loc, format!("static assertion failed: {msg}")));
        }
        Ok(())
    }

    // ----- types from specifiers and declarators -----

    /// The type named by declaration specifiers, with their qualifiers.
    pub(super) fn resolve_specs(&mut self, specs: &ast::DeclSpecs) -> R<CType> {
        let ty = match &specs.ty {
            TypeSpec::Basic { ty, complex } => self.basic_type(*ty, *complex, specs.loc)?,
            TypeSpec::Record(r) => self.record_type(r, &specs.attrs)?,
            TypeSpec::Enum(e) => self.enum_type(e, &specs.attrs)?,
            TypeSpec::TypedefName(name) => match self.scopes.lookup(name) {
                Some(Ordinary::Typedef(t)) => t.clone(),
                None if name == "__CPROVER_size_t" => self.tcx.size_t(),
                None if name == "__CPROVER_ssize_t" => self.tcx.ptrdiff_t(),
                _ => return Err(self.error(specs.loc, format!("unknown type name `{name}`"))),
            },
            TypeSpec::TypeofExpr(e) => {
                let (v, _) = self.scratch(|s| s.expr(e))?;
                v.ty
            }
            TypeSpec::TypeofType(tn) => self.type_name(tn)?,
            TypeSpec::AutoType => return Err(self.error(specs.loc, "`__auto_type` needs an initializer")),
            TypeSpec::VaList => CType::pointer_to(CType::void()),
            TypeSpec::BitInt { width, unsigned } => self.bit_int_type(width, *unsigned, specs.loc)?,
            TypeSpec::Implicit => CType::int(),
        };
        let ty = self.apply_vector_size(ty, &specs.attrs, specs.loc)?;
        self.note_atomic_qualifier(specs.qualifiers, specs.loc);
        Ok(ty.with_quals(specs.qualifiers))
    }

    /// `_BitInt(N)` / `unsigned _BitInt(N)`, N up to gcc's
    /// `BITINT_MAXWIDTH`; on x86-64 `_BitInt(128)` is 8-aligned while the
    /// IR's 128-bit integer has `__int128`'s 16, so that one width is refused.
    fn bit_int_type(&mut self, width: &ast::Expr, unsigned: bool, loc: Loc) -> R<CType> {
        let n = self.const_int(width, "_BitInt width")?;
        let min = if unsigned { 1 } else { 2 };
        if n < min {
            let sign = if unsigned { "unsigned" } else { "signed" };
            return Err(self.error(loc, format!("{sign} _BitInt must have a width of at least {min}, not {n}")));
        }
        if n > BIT_INT_MAX_WIDTH {
            return Err(self.error(loc, format!("_BitInt({n}) is wider than {BIT_INT_MAX_WIDTH} bits")));
        }
        if n == 128 && self.tcx.dm == ir::DataModel::LP64 {
            return Err(self.error(loc, "unsupported: _BitInt(128) on x86-64 (8-byte aligned, unlike the 16-byte __int128)"));
        }
        let n = n as u32;
        Ok(CType::new(Kind::Int(if unsigned { IntKind::UBitInt(n) } else { IntKind::BitInt(n) })))
    }

    fn basic_type(&mut self, b: BasicType, complex: bool, loc: Loc) -> R<CType> {
        use BasicType as B;
        let kind = match b {
            B::Void => Kind::Void,
            B::Bool => Kind::Bool,
            B::Char => Kind::Int(IntKind::Char),
            B::SChar => Kind::Int(IntKind::SChar),
            B::UChar => Kind::Int(IntKind::UChar),
            B::Short => Kind::Int(IntKind::Short),
            B::UShort => Kind::Int(IntKind::UShort),
            B::Int => Kind::Int(IntKind::Int),
            B::UInt => Kind::Int(IntKind::UInt),
            B::Long => Kind::Int(IntKind::Long),
            B::ULong => Kind::Int(IntKind::ULong),
            B::LongLong => Kind::Int(IntKind::LongLong),
            B::ULongLong => Kind::Int(IntKind::ULongLong),
            B::Int128 | B::UInt128 => {
                if self.tcx.dm == ir::DataModel::ILP32 {
                    return Err(self.error(loc, "__int128 is not supported on ILP32 targets"));
                }
                Kind::Int(if b == B::Int128 { IntKind::Int128 } else { IntKind::UInt128 })
            }
            B::Float | B::Float32 => Kind::Float(FloatKind::Float),
            B::Double | B::Float64 | B::Float32x => Kind::Float(FloatKind::Double),
            B::LongDouble | B::Float64x => Kind::Float(FloatKind::LongDouble),
            B::Float16 => Kind::Float(FloatKind::Float16),
            B::Float128 => Kind::Float(FloatKind::Float128),
        };
        if complex {
            return match ComplexElem::of_real(&kind) {
                Some(elem) => Ok(CType::new(Kind::Complex(elem))),
                None => Err(self.error(loc, "`_Complex` needs a floating or integer type")),
            };
        }
        Ok(CType::new(kind))
    }

    /// The IR has no `_Atomic` types: where the program first names one
    /// is kept, so that checks that depend on it can refuse.
    fn note_atomic_qualifier(&mut self, quals: ast::Qualifiers, loc: Loc) {
        if quals.is_atomic && self.prog.atomic_qualified.is_none() {
            self.prog.atomic_qualified = Some(loc);
        }
    }

    pub(super) fn type_name(&mut self, tn: &ast::TypeName) -> R<CType> {
        let base = self.resolve_specs(&tn.specs)?;
        self.apply_declarator(base, &tn.declarator)
    }

    /// Applies a declarator's derivations (innermost last) to `base`.
    pub(super) fn apply_declarator(&mut self, base: CType, d: &ast::Declarator) -> R<CType> {
        let mut ty = base;
        for derived in d.derived.iter().rev() {
            ty = match derived {
                Derived::Pointer(q) => {
                    self.note_atomic_qualifier(*q, d.loc);
                    CType::pointer_to(ty).with_quals(*q)
                }
                Derived::Array(a) => {
                    if ty.is_function() {
                        return Err(self.error(d.loc, "array of functions is not allowed"));
                    }
                    let size = match &a.size {
                        None => ArraySize::Unknown,
                        Some(e) => self.array_size(e)?,
                    };
                    CType::array_of(ty, size)
                }
                Derived::Function(f) => {
                    if ty.is_function() || ty.is_array() {
                        return Err(self.error(d.loc, "a function cannot return a function or an array"));
                    }
                    let (fnty, _) = self.function_type(f, ty, None)?;
                    CType::new(Kind::Function(Rc::new(fnty)))
                }
            };
        }
        let mut ty = self.apply_vector_size(ty, &d.attrs, d.loc)?;
        let align = self.aligned_attr(&d.attrs)?;
        if align > 0 {
            ty.align = align;
        }
        Ok(ty)
    }

    /// `vector_size(N)` turns an arithmetic type into a GCC vector.
    fn apply_vector_size(&mut self, ty: CType, attrs: &[ast::Attribute], loc: Loc) -> R<CType> {
        let Some(attr) = attrs.iter().find(|a| a.name == "vector_size") else {
            return Ok(ty);
        };
        let Some(arg) = attr.args.first() else {
            return Err(self.error(attr.loc, "`vector_size` needs a size"));
        };
        let bytes = self.const_int(arg, "vector size")?;
        let elem_size = self.tcx.size_of(&ty).unwrap_or(0);
        if !ty.is_arithmetic() || elem_size == 0 || bytes <= 0 || !(bytes as u64).is_multiple_of(elem_size) {
            return Err(self.error(loc, "invalid vector type"));
        }
        if bytes as u64 / elem_size > MAX_VECTOR_LANES {
            return Err(self.error(loc, format!("unsupported: vectors of more than {MAX_VECTOR_LANES} elements")));
        }
        let quals = ty.quals;
        Ok(CType::new(Kind::Vector(Box::new(ty.unqualified()), bytes as u64 / elem_size)).with_quals(quals))
    }

    /// The function type of a declarator part, with the parameter names.
    /// `kr_decls` gives the parameter types of a K&R definition.
    pub(super) fn function_type(
        &mut self,
        f: &ast::FunctionDecl,
        ret: CType,
        kr_decls: Option<&[ast::Declaration]>,
    ) -> R<(FnType, Vec<Param>)> {
        let mut params = Vec::new();
        if !f.kr_names.is_empty() {
            for name in &f.kr_names {
                let ty = match kr_decls {
                    Some(decls) => self.kr_param_type(decls, name)?,
                    None => CType::int(),
                };
                params.push((Some(name.clone()), ty, Loc::NONE));
            }
        } else {
            self.in_params += 1;
            let result = self.prototype_params(f);
            self.in_params -= 1;
            params = result?;
        }
        let unprototyped = f.unprototyped || !f.kr_names.is_empty();
        let fnty = FnType {
            ret: ret.unqualified(),
            params: params.iter().map(|p| p.1.clone()).collect(),
            variadic: f.variadic,
            unprototyped,
        };
        Ok((fnty, params))
    }

    fn prototype_params(&mut self, f: &ast::FunctionDecl) -> R<Vec<Param>> {
        let mut params = Vec::new();
        for p in &f.params {
            let base = self.resolve_specs(&p.specs)?;
            let ty = self.apply_declarator(base, &p.declarator)?;
            if ty.is_void() && f.params.len() == 1 && p.declarator.name.is_none() {
                break;
            }
            params.push((p.declarator.name.clone(), adjust_param(ty), p.loc));
        }
        Ok(params)
    }

    fn kr_param_type(&mut self, decls: &[ast::Declaration], name: &str) -> R<CType> {
        for d in decls {
            for id in &d.declarators {
                if id.declarator.name.as_deref() == Some(name) {
                    let base = self.resolve_specs(&d.specs)?;
                    let ty = self.apply_declarator(base, &id.declarator)?;
                    return Ok(adjust_param(ty));
                }
            }
        }
        Ok(CType::int())
    }

    /// The size of an array declarator: a constant, or a VLA whose length
    /// is evaluated once into a fresh symbol.
    fn array_size(&mut self, e: &ast::Expr) -> R<ArraySize> {
        if self.in_params > 0 {
            // Sizes in parameter lists only matter for inner dimensions;
            // they may name other parameters, which are not in scope here.
            let errors_before = self.diags.list.len();
            let folded = self.scratch(|s| s.rvalue(e)).ok().and_then(|(v, instrs)| {
                if instrs.is_empty() { super::consteval::fold_value(&self.prog.types, &v.e) } else { None }
            });
            self.diags.list.truncate(errors_before);
            return Ok(match folded {
                Some(n) if n >= 0 => ArraySize::Fixed(n as u64),
                _ => ArraySize::Unknown,
            });
        }
        let (v, instrs) = self.scratch(|s| s.rvalue(e))?;
        if !v.ty.is_integer() {
            return Err(self.error(e.loc, "size of array has non-integer type"));
        }
        if instrs.is_empty() {
            if let Some(n) = super::consteval::fold_value(&self.prog.types, &v.e) {
                if n < 0 {
                    return Err(self.error(e.loc, "size of array is negative"));
                }
                return Ok(ArraySize::Fixed(n as u64));
            }
        }
        if self.in_static_context() {
            return Err(self.error(e.loc, "variable length array outside a function body"));
        }
        if self.in_record > 0 {
            return Err(self.error(e.loc, "unsupported: a variable length array as a member of a struct or union (a GNU extension)"));
        }
        // Re-emit the size computation for real and keep its value.
        let v = self.rvalue(e)?;
        let size_t = self.tcx.size_t();
        let value = self.cast_to(v, &size_t, e.loc, true)?;
        let len = self.fresh_local("$vla_len", &size_t, e.loc);
        let irty = self.prog.symbols[len].ty;
        self.emit(InstrKind::Assign(Expr::sym(len, irty), value), e.loc);
        Ok(ArraySize::Var(len))
    }

    /// Evaluates an integer constant expression.
    pub(super) fn const_int(&mut self, e: &ast::Expr, what: &str) -> R<i128> {
        let (v, instrs) = self.scratch(|s| s.rvalue(e))?;
        if !v.ty.is_integer() {
            return Err(self.error(e.loc, format!("{what} is not an integer")));
        }
        match super::consteval::fold_value(&self.prog.types, &v.e) {
            Some(n) if instrs.is_empty() => Ok(n),
            _ => Err(self.error(e.loc, format!("{what} is not an integer constant expression"))),
        }
    }

    /// The alignment an `aligned` attribute asks for (0: none).
    fn aligned_attr(&mut self, attrs: &[ast::Attribute]) -> R<u64> {
        let mut align = 0;
        for a in attrs.iter().filter(|a| a.name == "aligned") {
            let n = match a.args.first() {
                Some(e) => self.const_int(e, "alignment")?,
                None => BIGGEST_ALIGNMENT as i128,
            };
            if n <= 0 || (n & (n - 1)) != 0 {
                return Err(self.error(a.loc, "requested alignment is not a positive power of 2"));
            }
            align = align.max(n as u64);
        }
        Ok(align)
    }

    /// The `#pragma pack(N)` in force at a record definition (recorded by the
    /// parser as the attribute `pack(N)`): the largest member alignment, 0
    /// for none. Like gcc, values that are not powers of two are ignored.
    fn pack_attr(&mut self, attrs: &[ast::Attribute]) -> R<u64> {
        let Some(e) = attrs.iter().find(|a| a.name == "pack").and_then(|a| a.args.first()) else { return Ok(0) };
        let n = self.const_int(e, "#pragma pack value")?;
        Ok(if n > 0 && (n & (n - 1)) == 0 { n as u64 } else { 0 })
    }

    fn alignas(&mut self, specs: &[ast::AlignSpec]) -> R<u64> {
        let mut align = 0;
        for s in specs {
            let n = match s {
                ast::AlignSpec::Type(tn) => {
                    let ty = self.type_name(tn)?;
                    self.tcx.align_of(&ty).unwrap_or(1)
                }
                ast::AlignSpec::Expr(e) => self.const_int(e, "alignment")?.max(0) as u64,
            };
            align = align.max(n);
        }
        Ok(align)
    }

    // ----- struct, union, enum -----

    fn new_record(&mut self, kind: CompositeKind, tag: Option<&str>, loc: Loc) -> CompositeId {
        let name = match tag {
            Some(t) => t.to_string(),
            None => {
                self.anon_records += 1;
                format!("__anon{}", self.anon_records)
            }
        };
        let id = self.prog.types.composites.push(ir::Composite {
            kind,
            name: name.clone(),
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
        });
        self.tcx.records.push(RecordInfo {
            kind,
            tag: name,
            fields: Vec::new(),
            complete: false,
            size: 0,
            align: 1,
            loc,
        });
        id
    }

    fn record_type(&mut self, r: &ast::RecordSpec, outer_attrs: &[ast::Attribute]) -> R<CType> {
        let kind = match r.kind {
            ast::RecordKind::Struct => CompositeKind::Struct,
            ast::RecordKind::Union => CompositeKind::Union,
        };
        let Some(fields) = &r.fields else {
            let tag = r.tag.as_deref().unwrap_or("");
            return match self.scopes.lookup_tag(tag) {
                Some(Tag::Record(id)) => {
                    if self.tcx.records[id.0 as usize].kind != kind {
                        return Err(self.error(r.loc, format!("`{tag}` defined as a different kind of tag")));
                    }
                    Ok(CType::new(Kind::Record(id)))
                }
                Some(Tag::Enum(_)) => Err(self.error(r.loc, format!("`{tag}` defined as a different kind of tag"))),
                None => {
                    // Declared only: the same tag's definition in an earlier
                    // unit serves, so pointer types agree across units.
                    let earlier = self.records_by_tag.get(tag).and_then(|ids| {
                        ids.iter().copied().find(|id| self.tcx.records[id.0 as usize].kind == kind)
                    });
                    let id = match earlier {
                        Some(id) if !tag.is_empty() => id,
                        _ => self.new_record(kind, Some(tag), r.loc),
                    };
                    self.scopes.insert_tag(tag, Tag::Record(id));
                    Ok(CType::new(Kind::Record(id)))
                }
            };
        };
        let current = r.tag.as_deref().map(|t| (t, self.scopes.lookup_tag_current(t)));
        let current = match current {
            Some((t, Some(Tag::Record(id)))) if (id.0 as usize) < self.unit_first_record => Some((t, None)),
            other => other,
        };
        let id = match current {
            Some((t, Some(Tag::Record(id)))) => {
                let info = &self.tcx.records[id.0 as usize];
                if info.complete && info.kind == kind {
                    return self.record_defined_again(id, t, r, outer_attrs);
                }
                if info.kind != kind {
                    return Err(self.redefinition(id, t, r.loc));
                }
                id
            }
            Some((t, _)) => {
                let id = self.new_record(kind, Some(t), r.loc);
                self.scopes.insert_tag(t, Tag::Record(id));
                id
            }
            None => self.new_record(kind, None, r.loc),
        };
        self.define_record(id, fields, r, outer_attrs)?;
        Ok(CType::new(Kind::Record(self.unify_record(id, r.tag.as_deref()))))
    }

    /// Lays out the members of the record `id` from its definition `r`.
    fn define_record(
        &mut self,
        id: CompositeId,
        fields: &[ast::FieldDecl],
        r: &ast::RecordSpec,
        outer_attrs: &[ast::Attribute],
    ) -> R<()> {
        self.tcx.records[id.0 as usize].loc = r.loc;
        self.in_record += 1;
        let members = self.record_members(fields);
        self.in_record -= 1;
        let (cfields, shapes) = members?;
        let attrs = RecordAttrs {
            packed: has_attr(&r.attrs, "packed") || has_attr(outer_attrs, "packed"),
            align: self.aligned_attr(&r.attrs)?.max(self.aligned_attr(outer_attrs)?),
            max_align: self.pack_attr(&r.attrs)?,
        };
        self.tcx.records[id.0 as usize].fields = cfields;
        self.tcx.complete_record(id, &shapes, attrs);
        self.tcx.sync_composite(&mut self.prog.types, id);
        Ok(())
    }

    /// A second definition of a tag in the same scope. C23 (6.7.2.3p1,
    /// tag compatibility) allows it when the content is the same, which is
    /// what code that copies a system header's definition relies on; it is
    /// then the same type. Anything else is a redefinition error.
    fn record_defined_again(
        &mut self,
        id: CompositeId,
        tag: &str,
        r: &ast::RecordSpec,
        outer_attrs: &[ast::Attribute],
    ) -> R<CType> {
        let Some(fields) = &r.fields else {
            return Ok(CType::new(Kind::Record(id)));
        };
        let kind = self.tcx.records[id.0 as usize].kind;
        let again = self.new_record(kind, Some(tag), r.loc);
        self.define_record(again, fields, r, outer_attrs)?;
        let (a, b) = (&self.tcx.records[id.0 as usize], &self.tcx.records[again.0 as usize]);
        let same_layout = a.size == b.size
            && a.align == b.align
            && a.fields.iter().zip(&b.fields).all(|(x, y)| x.offset_bits == y.offset_bits);
        if same_layout && self.tcx.records_compatible(id, again) {
            return Ok(CType::new(Kind::Record(id)));
        }
        Err(self.redefinition(id, tag, r.loc))
    }

    /// The "redefinition" error, with a note at the first definition.
    fn redefinition(&mut self, id: CompositeId, tag: &str, loc: Loc) -> super::Reported {
        let prev = self.tcx.records[id.0 as usize].loc;
        self.diags.note(prev, "previous definition is here");
        self.error(loc, format!("redefinition of `{tag}`"))
    }

    /// The same struct defined in an earlier unit (same tag and members)
    /// is one type of the program: its id is used from now on.
    fn unify_record(&mut self, id: CompositeId, tag: Option<&str>) -> CompositeId {
        let key = tag.unwrap_or("").to_string();
        let earlier = self.records_by_tag.get(&key).and_then(|ids| {
            ids.iter().copied().find(|e| (e.0 as usize) < self.unit_first_record && self.tcx.records_compatible(*e, id))
        });
        match earlier {
            Some(e) => {
                if let Some(t) = tag {
                    self.scopes.insert_tag(t, Tag::Record(e));
                }
                e
            }
            None => {
                self.records_by_tag.entry(key).or_default().push(id);
                id
            }
        }
    }

    fn record_members(&mut self, fields: &[ast::FieldDecl]) -> R<(Vec<CField>, Vec<MemberShape>)> {
        let mut cfields = Vec::new();
        let mut shapes = Vec::new();
        let count = fields.iter().map(|f| f.declarators.len().max(1)).sum::<usize>();
        for fd in fields {
            let base = self.resolve_specs(&fd.specs)?;
            let explicit = self.aligned_attr(&fd.specs.attrs)?.max(self.alignas(&fd.specs.alignas)?);
            let packed = has_attr(&fd.specs.attrs, "packed");
            if fd.declarators.is_empty() {
                if base.is_record() {
                    let shape = self.member_shape(&base, None, explicit, packed, false, fd.loc)?;
                    cfields.push(CField { name: String::new(), ty: base, bit_width: None, offset_bits: 0 });
                    shapes.push(shape);
                }
                continue;
            }
            for fdecl in &fd.declarators {
                let (name, ty, attrs) = match &fdecl.declarator {
                    Some(d) => (d.name.clone().unwrap_or_default(), self.apply_declarator(base.clone(), d)?, &d.attrs[..]),
                    None => (String::new(), base.clone(), &[][..]),
                };
                let width = match &fdecl.bit_width {
                    Some(w) => Some(self.bit_width(w, &ty, &name, fd.loc)?),
                    None => None,
                };
                let is_last = cfields.len() + 1 == count;
                let field_align = explicit.max(self.aligned_attr(attrs)?);
                let field_packed = packed || has_attr(attrs, "packed");
                let shape = self.member_shape(&ty, width, field_align, field_packed, is_last, fd.loc)?;
                let named = !name.is_empty();
                shapes.push(MemberShape { named, ..shape });
                cfields.push(CField { name, ty, bit_width: width, offset_bits: 0 });
            }
        }
        Ok((cfields, shapes))
    }

    fn bit_width(&mut self, w: &ast::Expr, ty: &CType, name: &str, loc: Loc) -> R<u32> {
        let n = self.const_int(w, "bit-field width")?;
        if !ty.is_integer() {
            return Err(self.error(loc, format!("bit-field `{name}` has non-integral type")));
        }
        let max = self.tcx.size_of(ty).unwrap_or(0) * 8;
        let max = if ty.is_bool() { 1 } else { max };
        if n < 0 || n as u64 > max {
            return Err(self.error(loc, format!("width of bit-field `{name}` ({n} bits) exceeds its type")));
        }
        if self.tcx.int_kind_of(ty).and_then(|k| k.bit_precise_width()).is_some_and(|w| w > 128) {
            return Err(self.error(loc, format!("unsupported: bit-field `{name}` of a _BitInt type wider than 128 bits")));
        }
        if n == 0 && !name.is_empty() {
            return Err(self.error(loc, format!("named bit-field `{name}` has zero width")));
        }
        Ok(n as u32)
    }

    fn member_shape(
        &mut self,
        ty: &CType,
        bit_width: Option<u32>,
        explicit_align: u64,
        packed: bool,
        may_be_flexible: bool,
        loc: Loc,
    ) -> R<MemberShape> {
        let flexible = may_be_flexible && matches!(ty.kind, Kind::Array(_, ArraySize::Unknown));
        let size = if flexible {
            0
        } else {
            match self.tcx.size_of(ty) {
                Ok(s) => s,
                Err(e) => return Err(self.error(loc, format!("field has {}", e.describe()))),
            }
        };
        let align = match self.tcx.align_of(ty) {
            Ok(a) => a,
            Err(e) => return Err(self.error(loc, format!("field has {}", e.describe()))),
        };
        Ok(MemberShape { size, align, explicit_align, bit_width, named: true, packed })
    }

    fn enum_type(&mut self, e: &ast::EnumSpec, outer_attrs: &[ast::Attribute]) -> R<CType> {
        let Some(list) = &e.enumerators else {
            let tag = e.tag.as_deref().unwrap_or("");
            return match self.scopes.lookup_tag(tag) {
                Some(Tag::Enum(id)) => Ok(CType::new(Kind::Enum(id))),
                Some(Tag::Record(_)) => Err(self.error(e.loc, format!("`{tag}` defined as a different kind of tag"))),
                None => {
                    let id = self.tcx.enums.len();
                    self.tcx.enums.push(EnumInfo { int_kind: IntKind::UInt, complete: false, values: Vec::new() });
                    self.scopes.insert_tag(tag, Tag::Enum(id));
                    Ok(CType::new(Kind::Enum(id)))
                }
            };
        };
        let id = match e.tag.as_deref().map(|t| (t, self.scopes.lookup_tag_current(t))) {
            Some((_, Some(Tag::Enum(id)))) if !self.tcx.enums[id].complete => id,
            other => {
                let id = self.tcx.enums.len();
                let tag = other.map(|(t, _)| t.to_string()).unwrap_or_default();
                self.tcx.enums.push(EnumInfo { int_kind: IntKind::UInt, complete: false, values: Vec::new() });
                if !tag.is_empty() {
                    self.scopes.insert_tag(&tag, Tag::Enum(id));
                }
                id
            }
        };
        let fixed = match &e.underlying {
            Some(tn) => self.type_name(tn)?.kind.clone(),
            None => Kind::Void,
        };
        let (mut next, mut min, mut max) = (0i128, 0i128, 0i128);
        for en in list {
            let value = match &en.value {
                Some(v) => self.const_int(v, "enumerator value")?,
                None => next,
            };
            min = min.min(value);
            max = max.max(value);
            let ty = CType::new(Kind::Int(constant_kind(value, self.tcx.dm)));
            self.scopes.insert(&en.name, Ordinary::EnumConst { value, ty });
            self.tcx.enums[id].values.push(value);
            next = value + 1;
        }
        let packed = has_attr(&e.attrs, "packed") || has_attr(outer_attrs, "packed");
        let kind = match fixed {
            Kind::Int(k) => k,
            _ => enum_int_kind(min, max, packed, self.tcx.dm),
        };
        self.tcx.enums[id].int_kind = kind;
        self.tcx.enums[id].complete = true;
        Ok(CType::new(Kind::Enum(id)))
    }

    // ----- declarations -----

    pub(super) fn declaration(&mut self, d: &ast::Declaration) -> R<()> {
        if matches!(d.specs.ty, TypeSpec::AutoType) {
            for id in &d.declarators {
                self.auto_type_declarator(d, id)?;
            }
            return Ok(());
        }
        let base = self.resolve_specs(&d.specs)?;
        let mut result = Ok(());
        for id in &d.declarators {
            if let Err(e) = self.init_declarator(d, &base, id).and_then(|()| self.record_declared_alignment(d, id)) {
                result = Err(e);
            }
        }
        result
    }

    /// Gives the declared object the alignment its declaration asks for
    /// (`_Alignas`, `aligned` on the specifiers or the declarator), which
    /// its type does not carry; addresses seen as integers follow it.
    fn record_declared_alignment(&mut self, d: &ast::Declaration, id: &ast::InitDeclarator) -> R<()> {
        if d.specs.storage == Some(StorageClass::Typedef) {
            return Ok(());
        }
        let declared = self
            .aligned_attr(&d.specs.attrs)?
            .max(self.aligned_attr(&id.declarator.attrs)?)
            .max(self.alignas(&d.specs.alignas)?);
        let Some(name) = &id.declarator.name else { return Ok(()) };
        if let Some(Ordinary::Symbol { sym }) = self.scopes.lookup(name).cloned() {
            let symbol = &mut self.prog.symbols[sym];
            if !matches!(symbol.kind, SymbolKind::Function(_)) {
                symbol.align = symbol.align.max(declared);
            }
        }
        Ok(())
    }

    fn auto_type_declarator(&mut self, d: &ast::Declaration, id: &ast::InitDeclarator) -> R<()> {
        let Some(ast::Initializer::Expr(init)) = &id.init else {
            return Err(self.error(d.loc, "`__auto_type` needs an initializer expression"));
        };
        let (v, _) = self.scratch(|s| s.rvalue(init))?;
        let base = v.ty.with_quals(d.specs.qualifiers);
        self.init_declarator(d, &base, id)
    }

    fn init_declarator(&mut self, d: &ast::Declaration, base: &CType, id: &ast::InitDeclarator) -> R<()> {
        let loc = id.declarator.loc;
        let Some(name) = id.declarator.name.clone() else {
            return Err(self.error(loc, "declaration does not declare a name"));
        };
        let mut ty = self.apply_declarator(base.clone(), &id.declarator)?;
        let storage = d.specs.storage;
        if storage == Some(StorageClass::Typedef) {
            let align = self.aligned_attr(&d.specs.attrs)?;
            if align > 0 {
                ty.align = align;
            }
            self.scopes.insert(&name, Ordinary::Typedef(ty));
            return Ok(());
        }
        let link_name = id.asm_label.clone().unwrap_or_else(|| name.clone());
        if ty.is_function() {
            if id.init.is_some() {
                return Err(self.error(loc, format!("function `{name}` is initialized like a variable")));
            }
            let internal = storage == Some(StorageClass::Static);
            let sym = self.declare_linked(&name, &link_name, &ty, internal, loc)?;
            self.scopes.insert(&name, Ordinary::Symbol { sym });
            let attrs = [&d.specs.attrs[..], &id.declarator.attrs[..]];
            self.note_startup_attributes(sym, &attrs)?;
            if let Some(target) = aliases::alias_target(&attrs) {
                self.note_alias(sym, target, attrs.iter().any(|a| has_attr(a, "weak")), loc)?;
            }
            return Ok(());
        }
        let attrs = [&d.specs.attrs[..], &id.declarator.attrs[..]];
        if let Some(target) = aliases::alias_target(&attrs) {
            // Another name for an object this unit defines: no storage of its own.
            if id.init.is_some() {
                return Err(self.error(loc, format!("alias `{name}` has an initializer")));
            }
            let internal = storage == Some(StorageClass::Static);
            let sym = self.declare_linked(&name, &link_name, &ty, internal, loc)?;
            self.scopes.insert(&name, Ordinary::Symbol { sym });
            return self.note_alias(sym, target, attrs.iter().any(|a| has_attr(a, "weak")), loc);
        }
        if let Some(init) = &id.init {
            ty = self.complete_from_initializer(ty, init)?;
        }
        let file_scope = self.scopes.at_file_scope();
        match (file_scope, storage) {
            (true, _) | (false, Some(StorageClass::Extern)) => {
                let internal = file_scope && storage == Some(StorageClass::Static);
                if storage == Some(StorageClass::Extern) && id.init.is_none() {
                    if let Some(sym) = self.other_units_object(&name, &link_name, &ty) {
                        self.warn(loc, format!("`{name}` is declared with a type that differs from its definition in another unit: this unit reinterprets its bytes"));
                        self.scopes.insert(&name, Ordinary::View { sym, ty });
                        return Ok(());
                    }
                }
                let sym = self.declare_linked(&name, &link_name, &ty, internal, loc)?;
                self.prog.symbols[sym].thread_local |= d.specs.thread_local;
                if id.init.is_some() || storage != Some(StorageClass::Extern) {
                    self.prog.symbols[sym].read_only |= is_const_object(&ty);
                }
                if storage == Some(StorageClass::Extern) && id.init.is_none() {
                    self.extern_objects.push((sym, loc));
                } else {
                    self.defined_objects.insert(sym);
                }
                let ty = self.sym_types[&sym].clone();
                self.scopes.insert(&name, Ordinary::Symbol { sym });
                if id.init.is_some() && !file_scope {
                    return Err(self.error(loc, format!("`extern` variable `{name}` has an initializer")));
                }
                let is_definition = id.init.is_some() || storage != Some(StorageClass::Extern);
                if is_definition && id.init.is_none() {
                    self.tentative.push((sym, loc));
                }
                if internal || !is_definition {
                    return match &id.init {
                        Some(init) => self.static_initializer(sym, &ty, init, false, loc),
                        None => Ok(()),
                    };
                }
                let weak = has_attr(&d.specs.attrs, "weak") || has_attr(&id.declarator.attrs, "weak");
                let definition = Definition { weak, initialized: id.init.is_some(), unit: self.unit_file.clone() };
                self.external_definition(sym, &ty, id.init.as_ref(), definition, loc)
            }
            (false, Some(StorageClass::Static)) => {
                let qualified = format!("{}::{name}", self.fx.name);
                let unique = self.unique_name(&qualified, &self.unit_file.clone());
                let irty = self.ir_ty(&ty);
                let sym = self.prog.add_symbol(&unique, irty, SymbolKind::Global, loc);
                self.prog.symbols[sym].display_name = name.clone();
                self.prog.symbols[sym].thread_local = d.specs.thread_local;
                self.prog.symbols[sym].read_only = is_const_object(&ty);
                self.sym_types.insert(sym, ty.clone());
                self.scopes.insert(&name, Ordinary::Symbol { sym });
                match &id.init {
                    Some(init) => self.static_initializer(sym, &ty, init, false, loc),
                    None => Ok(()),
                }
            }
            (false, _) => self.local_object(&name, ty, id.init.as_ref(), loc),
        }
    }

    fn local_object(&mut self, name: &str, ty: CType, init: Option<&ast::Initializer>, loc: Loc) -> R<()> {
        if let Err(e) = self.tcx.size_of(&ty) {
            if e != super::types::SizeError::Variable {
                return Err(self.error(loc, format!("variable `{name}` has {}", e.describe())));
            }
        }
        let sym = self.fresh_local(name, &ty, loc);
        if let Some(block) = self.fx.live.last_mut() {
            block.locals.push(sym);
            if !ty.is_vla() {
                block.hoistable.push(sym);
            }
        }
        self.scopes.insert(name, Ordinary::Symbol { sym });
        let nonempty = init.is_some_and(|i| !matches!(i, ast::Initializer::List(items, _) if items.is_empty()));
        if ty.is_vla() && nonempty {
            // C11 6.7.9p3; C23 allows only the empty initializer `= {}`.
            return Err(self.error(loc, format!("variable-sized object `{name}` may not be initialized")));
        }
        if let Some(init) = init {
            self.initialize_variable(sym, &ty, init, true, false, loc)?;
        }
        Ok(())
    }

    /// Lowers the initial value of an external object's definition under
    /// the linker's rules: a strong definition (with an initializer, or a
    /// tentative one from another unit) overrides a weak one, whichever
    /// unit comes first; of two weak ones the first stays. Units are lowered
    /// in order into one init function, so an overriding definition clears
    /// the object before its own initializer runs.
    fn external_definition(
        &mut self,
        sym: SymbolId,
        ty: &CType,
        init: Option<&ast::Initializer>,
        definition: Definition,
        loc: Loc,
    ) -> R<()> {
        let (overrides, overridden) = match self.object_definitions.get(&sym) {
            None => (false, false),
            Some(old) => {
                let other_unit = old.unit != definition.unit;
                let strong_over_weak = |strong: &Definition, weak: &Definition| {
                    !strong.weak && weak.weak && (strong.initialized || other_unit)
                };
                let weak_twice = old.weak && definition.weak && old.initialized && other_unit;
                (strong_over_weak(&definition, old), strong_over_weak(old, &definition) || weak_twice)
            }
        };
        if overridden {
            return Ok(());
        }
        let known = self.object_definitions.contains_key(&sym);
        if overrides || !known || definition.initialized {
            self.object_definitions.insert(sym, definition);
        }
        match init {
            Some(init) => self.static_initializer(sym, ty, init, overrides, loc),
            None if overrides => {
                let irty = self.prog.symbols[sym].ty;
                let zero = Expr::new(ir::ExprKind::Zero, irty);
                self.in_init_function(|s| s.emit(InstrKind::Assign(Expr::sym(sym, irty), zero), loc));
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Lowers the initializer of an object with static storage into the
    /// init function; `zero_first` clears the object before (static objects
    /// start as zero, so only an overriding definition needs it).
    fn static_initializer(&mut self, sym: SymbolId, ty: &CType, init: &ast::Initializer, zero_first: bool, loc: Loc) -> R<()> {
        self.in_init_function(|s| s.initialize_variable(sym, ty, init, zero_first, true, loc))
    }

    /// Runs `lower` with the init function as the function being lowered.
    fn in_init_function<T>(&mut self, lower: impl FnOnce(&mut Self) -> T) -> T {
        if self.in_static_context() {
            return lower(self);
        }
        let init_ctx = std::mem::replace(&mut self.saved[0], FnCtx::new(ir::FuncId(0), "", CType::void()));
        let own = std::mem::replace(&mut self.fx, init_ctx);
        let result = lower(self);
        let init_ctx = std::mem::replace(&mut self.fx, own);
        self.saved[0] = init_ctx;
        result
    }

    /// True while lowering code of the init function (static initializers).
    pub(super) fn in_static_context(&self) -> bool {
        Some(self.fx.func) == self.prog.init
    }

    /// The object an earlier unit defines as `link_name` when this unit's
    /// `extern` declaration gives it an incompatible type. Units are
    /// compiled apart and the linker joins names, not types, so this unit
    /// reads and writes the same bytes through its own type (bounds and
    /// pointer checks still apply to the defined object).
    fn other_units_object(&self, name: &str, link_name: &str, ty: &CType) -> Option<SymbolId> {
        match self.scopes.lookup_file(name) {
            Some(Ordinary::View { sym, ty: seen }) => {
                return ctype::compatible_unqualified(seen, ty, &self.tcx).then_some(*sym);
            }
            Some(_) => return None,
            None => {}
        }
        let sym = self.externals.get(link_name)?.0;
        let defined = &self.sym_types[&sym];
        let conflicting = !defined.is_function() && !ctype::compatible_unqualified(defined, ty, &self.tcx);
        (conflicting && self.defined_objects.contains(&sym)).then_some(sym)
    }

    /// Declares an object or function with linkage (file scope, or
    /// `extern` at block scope), merging it with earlier declarations.
    pub(super) fn declare_linked(&mut self, name: &str, link_name: &str, ty: &CType, internal: bool, loc: Loc) -> R<SymbolId> {
        let prior = match self.scopes.lookup_file(name) {
            Some(Ordinary::Symbol { sym }) => Some(*sym),
            // An internal name never refers to another unit's object.
            _ if internal => None,
            _ => self.externals.get(link_name).map(|e| e.0),
        };
        if let Some(sym) = prior {
            // An `asm` label makes a second name for a symbol (glibc's
            // redirects) whose declared type may differ: the first type
            // stays, whichever of the two names is declared first.
            let aliased = name != link_name || self.prog.symbols[sym].display_name != name;
            self.merge_declaration(sym, ty, loc, aliased)?;
            if self.scopes.at_file_scope() {
                self.scopes.insert_file(name, Ordinary::Symbol { sym });
            }
            return Ok(sym);
        }
        let linkage = if internal { Linkage::Internal } else { Linkage::External };
        let unique = match linkage {
            Linkage::External => {
                self.used_names.insert(link_name.to_string());
                link_name.to_string()
            }
            Linkage::Internal => {
                let file = self.unit_file.clone();
                self.unique_name(link_name, &file)
            }
        };
        let sym = self.new_linked_symbol(&unique, name, ty, loc);
        if linkage == Linkage::External {
            self.externals.insert(link_name.to_string(), (sym, ty.clone(), loc));
        }
        if !self.scopes.at_file_scope() {
            self.scopes.insert_file(name, Ordinary::Symbol { sym });
        }
        Ok(sym)
    }

    pub(super) fn new_linked_symbol(&mut self, unique: &str, display: &str, ty: &CType, loc: Loc) -> SymbolId {
        let irty = self.ir_ty(ty);
        let sym = if ty.is_function() {
            let func = ir::FuncId(self.prog.functions.len() as u32);
            let sym = self.prog.add_symbol(unique, irty, SymbolKind::Function(func), loc);
            self.prog.functions.push(ir::Function {
                name: unique.to_string(),
                symbol: sym,
                ty: irty,
                params: Vec::new(),
                body: None,
                variadic_area: None,
                loc,
            });
            self.prog.function_index.insert(unique.to_string(), func);
            sym
        } else {
            self.prog.add_symbol(unique, irty, SymbolKind::Global, loc)
        };
        self.prog.symbols[sym].display_name = display.to_string();
        self.sym_types.insert(sym, ty.clone());
        sym
    }

    /// Checks a redeclaration against the earlier type and stores the
    /// composite type. An `aliased` declaration (another name through an
    /// `asm` label, as glibc's redirects) may differ: the first type stays.
    fn merge_declaration(&mut self, sym: SymbolId, ty: &CType, loc: Loc, aliased: bool) -> R<()> {
        let old = self.sym_types[&sym].clone();
        let tcx = &self.tcx;
        let ok = ctype::compatible_unqualified(&old, ty, tcx);
        if !ok && aliased {
            return Ok(());
        }
        if !ok && self.implicit_builtins.remove(&sym) {
            // The program's own declaration replaces an assumed prototype.
            let irty = self.ir_ty(ty);
            self.retype_symbol(sym, irty, ty.clone());
            return Ok(());
        }
        if !ok {
            let prev = self.prog.symbols[sym].loc;
            let name = self.prog.symbols[sym].display_name.clone();
            self.diags.note(prev, "previous declaration is here");
            return Err(self.error(loc, format!("conflicting types for `{name}`")));
        }
        let merged = ctype::composite(&old, ty);
        let irty = self.ir_ty(&merged);
        self.retype_symbol(sym, irty, merged);
        Ok(())
    }

    /// At the end of a unit, a tentative definition whose type is still an
    /// array of unknown size gets one element, as if it were initialized
    /// with zero (C11 6.9.2p2; gcc warns and does the same).
    pub(super) fn complete_tentative_arrays(&mut self) {
        for (sym, loc) in std::mem::take(&mut self.tentative) {
            let ty = self.sym_types[&sym].clone();
            let Kind::Array(elem, ArraySize::Unknown) = &ty.kind else { continue };
            let completed = CType { kind: Kind::Array(elem.clone(), ArraySize::Fixed(1)), ..ty.clone() };
            let name = self.prog.symbols[sym].display_name.clone();
            self.warn(loc, format!("array `{name}` assumed to have one element"));
            let irty = self.ir_ty(&completed);
            self.retype_symbol(sym, irty, completed);
        }
    }

    fn retype_symbol(&mut self, sym: SymbolId, irty: ir::TypeId, ty: CType) {
        if irty != self.prog.symbols[sym].ty {
            self.stale.insert(sym);
        }
        self.prog.symbols[sym].ty = irty;
        if let SymbolKind::Function(f) = self.prog.symbols[sym].kind {
            self.prog.functions[f].ty = irty;
        }
        self.sym_types.insert(sym, ty);
    }

    // ----- function definitions -----

    /// The name, result, parameters and type a function definition's
    /// declarator gives (for file-scope and nested definitions alike).
    pub(super) fn definition_signature<'f>(&mut self, f: &'f ast::FunctionDef) -> R<DefinitionSignature<'f>> {
        let loc = f.declarator.loc;
        let Some(name) = f.declarator.name.clone() else {
            return Err(self.error(loc, "function definition without a name"));
        };
        let Some((Derived::Function(fdecl), outer)) = f.declarator.derived.split_first() else {
            return Err(self.error(loc, format!("`{name}` is defined like a function but is not one")));
        };
        let base = self.resolve_specs(&f.specs)?;
        let ret_decl = ast::Declarator { name: None, derived: outer.to_vec(), attrs: Vec::new(), loc };
        let ret = self.apply_declarator(base, &ret_decl)?;
        let (fnty, params) = self.function_type(fdecl, ret.clone(), Some(&f.kr_decls))?;
        let ty = CType::new(Kind::Function(Rc::new(fnty)));
        Ok(DefinitionSignature { name, ret, params, fdecl, ty })
    }

    fn function_definition(&mut self, f: &ast::FunctionDef) -> R<()> {
        let loc = f.declarator.loc;
        let DefinitionSignature { name, ret, params, fdecl, ty } = self.definition_signature(f)?;
        let internal = f.specs.storage == Some(StorageClass::Static);
        let sym = self.declare_linked(&name, &name, &ty, internal, loc)?;
        self.scopes.insert(&name, Ordinary::Symbol { sym });
        let SymbolKind::Function(func) = self.prog.symbols[sym].kind else {
            return Err(self.error(loc, format!("`{name}` redeclared as a different kind of symbol")));
        };
        self.note_startup_attributes(sym, &[&f.specs.attrs[..], &f.declarator.attrs[..]])?;
        if is_gnu_inline_hint(f, &name) {
            // GNU `extern inline` (glibc's `__extern_always_inline`,
            // `__fortify_function`): the body only may be inlined, the call
            // goes to the external definition (another unit, the library
            // model, or none). glibc's bodies call that definition through
            // an alias, so taking them as definitions would recurse forever.
            return Ok(());
        }
        if self.prog.functions[func].body.is_some() || self.defining.contains(&func) {
            if f.specs.is_inline || self.inline_defined.contains(&func) {
                // The same inline definition from a header seen by several units.
                return Ok(());
            }
            return Err(self.error(loc, format!("redefinition of function `{name}`")));
        }
        if f.specs.is_inline {
            self.inline_defined.insert(func);
        }
        self.note_definition(sym);
        self.defining.insert(func);
        let diags_before = self.diags.list.len();
        let fname = self.prog.functions[func].name.clone();
        let (result, ctx) = self.lower_function(func, &fname, ret, loc, |s| s.function_body(func, &params, fdecl, &f.body, loc))?;
        let failed = self.diags.list[diags_before..].iter().any(|d| d.severity == crate::diag::Severity::Error);
        if failed {
            // Header code often holds inline functions a program never
            // calls: errors count only if the function is reachable from
            // the entry or the init function (see `finish`).
            let errors = self.diags.list.split_off(diags_before);
            self.deferred.push((func, errors));
            return Ok(());
        }
        self.finish_function(ctx);
        result
    }

    /// Runs `lower` with a fresh context for function `func` (in a scope
    /// of its own) and gives back its result and the finished context.
    pub(super) fn lower_function(
        &mut self,
        func: ir::FuncId,
        name: &str,
        ret: CType,
        loc: Loc,
        lower: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<(R<()>, FnCtx)> {
        let ctx = FnCtx::new(func, name, ret.unqualified());
        let outer_ctx = std::mem::replace(&mut self.fx, ctx);
        self.saved.push(outer_ctx);
        self.scopes.push();
        let result = lower(self);
        self.scopes.pop();
        let Some(outer_ctx) = self.saved.pop() else {
            return Err(self.error(loc, "internal error: lost the enclosing context"));
        };
        Ok((result, std::mem::replace(&mut self.fx, outer_ctx)))
    }

    pub(super) fn function_body(
        &mut self,
        func: ir::FuncId,
        params: &[Param],
        fdecl: &ast::FunctionDecl,
        body: &ast::Block,
        loc: Loc,
    ) -> R<()> {
        let mut syms = Vec::new();
        for (i, (pname, pty, ploc)) in params.iter().enumerate() {
            let display = pname.clone().unwrap_or_else(|| format!("$param{i}"));
            let name = format!("{}::{display}", self.fx.name);
            let irty = self.ir_ty(pty);
            let ploc = if ploc.is_none() { loc } else { *ploc };
            let sym = self.prog.add_symbol(&name, irty, SymbolKind::Local(func), ploc);
            self.prog.symbols[sym].display_name = display.clone();
            self.sym_types.insert(sym, pty.clone());
            if let Some(n) = pname {
                self.scopes.insert(n, Ordinary::Symbol { sym });
            }
            syms.push(sym);
        }
        self.prog.functions[func].params = syms;
        if fdecl.variadic {
            self.declare_variadic_area(func, loc);
        }
        if fdecl.kr_names.is_empty() {
            for (p, (_, pty, _)) in fdecl.params.iter().zip(params) {
                if has_unknown_array(pty) {
                    self.variably_modified_param(p, pty)?;
                }
            }
        }
        let result = self.block_items(&body.items);
        self.implicit_return(body.loc);
        self.emit_computed_goto_dispatch();
        result
    }

    /// A parameter like `int m[n][n]`: its signature type has an array of
    /// unknown size; in the body the sizes are evaluated at entry and the
    /// name refers to a copy of the parameter with the variably modified type.
    fn variably_modified_param(&mut self, p: &ast::ParamDecl, signature_ty: &CType) -> R<()> {
        let Some(name) = &p.declarator.name else { return Ok(()) };
        let Some(Ordinary::Symbol { sym }) = self.scopes.lookup(name).cloned() else { return Ok(()) };
        let base = self.resolve_specs(&p.specs)?;
        let full = adjust_param(self.apply_declarator(base, &p.declarator)?);
        if full == *signature_ty {
            return Ok(());
        }
        let copy = self.fresh_local(name, &full, p.loc);
        let copy_ir = self.prog.symbols[copy].ty;
        let param = Expr::sym(sym, self.prog.symbols[sym].ty);
        self.emit(InstrKind::Assign(Expr::sym(copy, copy_ir), Expr::cast(param, copy_ir)), p.loc);
        self.scopes.insert(name, Ordinary::Symbol { sym: copy });
        Ok(())
    }

    /// The return at the end of a body: `main` returns 0, other non-void
    /// functions an unspecified value.
    fn implicit_return(&mut self, loc: Loc) {
        let ret = self.fx.ret.clone();
        let value = if ret.is_void() {
            None
        } else {
            let irty = self.ir_ty(&ret);
            let kind = if self.fx.name == "main" { ExprKind::Zero } else { ExprKind::Nondet };
            Some(Expr::new(kind, irty))
        };
        self.emit_scope_exits(0);
        self.emit(InstrKind::Return(value), loc);
    }

    /// Implicitly declares `int name()` for a call of an undeclared function.
    /// A builtin or library function gets its known prototype instead (a
    /// function a library model defines, the model's), and a name another
    /// unit declares is that unit's function.
    pub(super) fn implicit_function(&mut self, name: &str, loc: Loc) -> R<(SymbolId, CType)> {
        if let Some((sym, _, _)) = self.externals.get(name) {
            let sym = *sym;
            self.scopes.insert_file(name, Ordinary::Symbol { sym });
            return Ok((sym, self.sym_types[&sym].clone()));
        }
        let builtin = super::builtins::prototype(name, &self.tcx.size_t());
        let modelled = match builtin.is_none() && self.opts.library_models {
            true => super::builtins::model_prototype(name, self.opts.data_model),
            false => None,
        };
        let kind = match (&builtin, &modelled) {
            (Some(_), _) => "built-in ",
            (_, Some(_)) => "library ",
            _ => "",
        };
        let known = builtin.or(modelled);
        let quiet = ["__VERIFIER_", "nondet_", "__ESBMC_", "__CPROVER_", "__builtin_", "__tarsier_"].iter().any(|p| name.starts_with(p));
        if !quiet {
            self.warn(loc, format!("implicit declaration of {kind}function `{name}`"));
        }
        let ty = known.clone().unwrap_or_else(|| {
            CType::new(Kind::Function(Rc::new(FnType {
                ret: CType::int(),
                params: Vec::new(),
                variadic: false,
                unprototyped: true,
            })))
        });
        let sym = self.declare_linked(name, name, &ty, false, loc)?;
        if known.is_some() {
            self.implicit_builtins.insert(sym);
        }
        let ty = self.sym_types[&sym].clone();
        self.scopes.insert_file(name, Ordinary::Symbol { sym });
        Ok((sym, ty))
    }
}

/// Whether a (pointer or array) type contains an array of unknown size.
fn has_unknown_array(ty: &CType) -> bool {
    let mut t = ty;
    loop {
        match &t.kind {
            Kind::Array(_, ArraySize::Unknown) => return true,
            Kind::Array(e, _) | Kind::Pointer(e) => t = e,
            _ => return false,
        }
    }
}

/// Parameter type adjustment: arrays and functions become pointers.
fn adjust_param(ty: CType) -> CType {
    match ty.kind {
        Kind::Array(elem, _) => CType::pointer_to(*elem).with_quals(ty.quals),
        Kind::Function(_) => CType::pointer_to(ty),
        _ => ty,
    }
}

/// The type of an enumeration constant: `int` when the value fits.
fn constant_kind(value: i128, dm: ir::DataModel) -> IntKind {
    if i32::try_from(value).is_ok() {
        IntKind::Int
    } else if u32::try_from(value).is_ok() {
        IntKind::UInt
    } else if i64::try_from(value).is_ok() {
        if dm == ir::DataModel::LP64 { IntKind::Long } else { IntKind::LongLong }
    } else if dm == ir::DataModel::LP64 {
        IntKind::ULong
    } else {
        IntKind::ULongLong
    }
}

/// The compatible integer type gcc gives an enum with values in `min..=max`.
fn enum_int_kind(min: i128, max: i128, packed: bool, dm: ir::DataModel) -> IntKind {
    if packed {
        let candidates = [
            (IntKind::UChar, 0, 255),
            (IntKind::SChar, -128, 127),
            (IntKind::UShort, 0, 65535),
            (IntKind::Short, -32768, 32767),
        ];
        if let Some((k, _, _)) = candidates.iter().find(|(_, lo, hi)| min >= *lo && max <= *hi) {
            return *k;
        }
    }
    if min >= 0 && max <= i128::from(u32::MAX) {
        IntKind::UInt
    } else if min >= i128::from(i32::MIN) && max <= i128::from(i32::MAX) {
        IntKind::Int
    } else if min >= 0 && max > i128::from(i64::MAX) {
        if dm == ir::DataModel::LP64 { IntKind::ULong } else { IntKind::ULongLong }
    } else if dm == ir::DataModel::LP64 {
        IntKind::Long
    } else {
        IntKind::LongLong
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_types_follow_gcc() {
        use ir::DataModel::LP64;
        assert_eq!(enum_int_kind(0, 10, false, LP64), IntKind::UInt);
        assert_eq!(enum_int_kind(-1, 10, false, LP64), IntKind::Int);
        assert_eq!(enum_int_kind(0, 1 << 40, false, LP64), IntKind::Long);
        assert_eq!(enum_int_kind(0, 10, true, LP64), IntKind::UChar);
        assert_eq!(enum_int_kind(-3, 300, true, LP64), IntKind::Short);
        assert_eq!(constant_kind(5, LP64), IntKind::Int);
        assert_eq!(constant_kind(0x8000_0000, LP64), IntKind::UInt);
    }
}
