//! Initializers: scalar, string literals for character arrays, brace
//! elision, designators (nested, out of order, overriding, GNU ranges),
//! unions, and arrays of unknown size completed by their initializer.
//!
//! An initializer becomes assignments to the sub-objects of the target
//! lvalue. Objects with automatic storage that get a braced initializer are
//! first assigned `Zero`, so members the initializer does not mention are
//! zero as C requires; static objects are zero before the init function runs.
//!
//! The expressions of a braced list are indeterminately sequenced (C11
//! 6.7.9p23): when one has side effects, they are all evaluated first, in
//! every order (`order`), and the assignments take their values; a GNU
//! range designator then also evaluates its expression once, as gcc does.

use super::ctype::{ArraySize, CType, Kind};
use super::{Sema, R};
use crate::ast::{self, Designator, InitItem, Initializer};
use ir::{Expr, ExprKind, InstrKind, Loc, SymbolId};

/// The expressions of a braced list, nested lists included, in order.
fn list_expressions<'e>(items: &'e [InitItem], out: &mut Vec<&'e ast::Expr>) {
    for item in items {
        match &item.init {
            Initializer::Expr(e) => out.push(e),
            Initializer::List(inner, _) => list_expressions(inner, out),
        }
    }
}

/// A string literal initializing a character array, if `e` is one.
fn string_literal(e: &ast::Expr) -> Option<&[u32]> {
    match &e.kind {
        ast::ExprKind::StringLit { units, .. } => Some(units),
        _ => None,
    }
}

/// For a store to an element of a flexible array member (at any depth of
/// `place`), the object holding the member and the end of the element in
/// it, in bytes: the object must reach that far (gcc's
/// `__builtin_object_size` and its address sanitizer give such an object
/// the larger of its `sizeof` and the end of its last element).
fn flexible_element_end<'e>(place: &'e Expr, program: &ir::Program) -> Option<(&'e Expr, u64)> {
    let mut e = place;
    loop {
        match &e.kind {
            ExprKind::Index(array, index) => {
                if let (ExprKind::Member(object, field), ExprKind::IntConst(i)) = (&array.kind, &index.kind) {
                    if is_flexible_member(program, object.ty, *field) {
                        let (ir::Type::Array(elem, _), ir::Type::Composite(id)) = (program.types.get(array.ty), program.types.get(object.ty))
                        else {
                            return None;
                        };
                        let offset = program.types.composites[*id].fields[*field as usize].offset_bits / 8;
                        let elem_size = program.types.size_of(*elem, program.data_model)?;
                        return Some((object, (*i as u64).saturating_add(1).saturating_mul(elem_size).saturating_add(offset)));
                    }
                }
                e = array;
            }
            ExprKind::Member(base, _) => e = base,
            _ => return None,
        }
    }
}

/// Whether field `index` of the composite type `ty` is a flexible array
/// member: a struct's last field, an array of unknown length.
fn is_flexible_member(program: &ir::Program, ty: ir::TypeId, index: u32) -> bool {
    let ir::Type::Composite(id) = program.types.get(ty) else { return false };
    let composite = &program.types.composites[*id];
    composite.kind == ir::CompositeKind::Struct
        && index as usize + 1 == composite.fields.len()
        && matches!(program.types.get(composite.fields[index as usize].ty), ir::Type::Array(_, ir::ArrayLen::Unknown))
}

/// Longest run of elements an initializer is expanded into.
const MAX_EXPANDED_ELEMENTS: i128 = 1 << 16;

fn list_loc(init: &Initializer) -> Option<Loc> {
    match init {
        Initializer::List(_, loc) => Some(*loc),
        Initializer::Expr(e) => Some(e.loc),
    }
}

impl<'a> Sema<'a> {
    /// Gives an array of unknown size the length its initializer implies.
    pub(super) fn complete_from_initializer(&mut self, ty: CType, init: &Initializer) -> R<CType> {
        let Kind::Array(elem, ArraySize::Unknown) = &ty.kind else {
            return Ok(ty);
        };
        let len = match init {
            Initializer::Expr(e) => match string_literal(e) {
                Some(units) if elem.is_integer() => units.len() as u64 + 1,
                _ => return Ok(ty),
            },
            Initializer::List(items, _) => {
                if let [InitItem { designators, init: Initializer::Expr(e) }] = &items[..] {
                    if designators.is_empty() && elem.is_integer() {
                        if let Some(units) = string_literal(e) {
                            return Ok(CType { kind: Kind::Array(elem.clone(), ArraySize::Fixed(units.len() as u64 + 1)), ..ty.clone() });
                        }
                    }
                }
                // Walk the list without keeping code to find the highest index.
                let void = self.prog.types.void();
                let dummy = Expr::new(ExprKind::Zero, void);
                let errors = self.diags.list.len();
                let walked = self.scratch(|s| {
                    let mut pos = 0;
                    s.fill_array(&dummy, elem, None, items, &mut pos, true)
                });
                self.diags.list.truncate(errors);
                match walked {
                    Ok((n, _)) => n,
                    Err(_) => items.len() as u64,
                }
            }
        };
        Ok(CType { kind: Kind::Array(elem.clone(), ArraySize::Fixed(len)), ..ty.clone() })
    }

    /// Initializes the variable `sym` of type `ty` with `init`. The
    /// elements given to a flexible array member become storage of the
    /// object, past its `sizeof`, as gcc allocates them for a variable of
    /// static storage (`extensible`); gcc refuses them for any other
    /// object (automatic variables, compound literals, members of other
    /// aggregates), and so does this.
    pub(super) fn initialize_variable(&mut self, sym: SymbolId, ty: &CType, init: &Initializer, zero_first: bool, extensible: bool, loc: Loc) -> R<()> {
        let target = Expr::sym(sym, self.prog.symbols[sym].ty);
        let start = self.fx.instrs.len();
        self.initialize(target, ty, init, zero_first)?;
        let mut end = 0;
        for instr in &self.fx.instrs[start..] {
            let InstrKind::Assign(lhs, _) = &instr.kind else { continue };
            let Some((object, element_end)) = flexible_element_end(lhs, &self.prog) else { continue };
            match object.kind {
                // A compound literal's own initialization, already judged.
                ExprKind::Sym(other) if other != sym => {}
                ExprKind::Sym(_) if extensible => end = end.max(element_end),
                ExprKind::Sym(_) => return Err(self.error(loc, "non-static initialization of a flexible array member")),
                _ => return Err(self.error(loc, "initialization of a flexible array member in a nested context")),
            }
        }
        let size = self.prog.types.size_of(self.prog.symbols[sym].ty, self.prog.data_model).unwrap_or(0);
        self.prog.symbols[sym].trailing_bytes = end.saturating_sub(size);
        Ok(())
    }

    /// Assigns the initial value `init` to the object `target` of type `ty`.
    pub(super) fn initialize(&mut self, target: Expr, ty: &CType, init: &Initializer, zero_first: bool) -> R<()> {
        match init {
            Initializer::Expr(e) => self.init_from_expr(target, ty, e),
            Initializer::List(items, loc) => {
                let evaluated = self.evaluate_list_expressions(items, *loc)?;
                if zero_first && !ty.is_scalar() {
                    let zero = Expr::new(ExprKind::Zero, target.ty);
                    self.emit(InstrKind::Assign(target.clone(), zero), *loc);
                }
                let result = self.init_braced(target, ty, items, *loc);
                for e in evaluated {
                    self.initial_values.remove(&e);
                }
                result
            }
        }
    }

    /// Evaluates the expressions of the braced list `items` (nested lists
    /// included) in every order C permits when one has side effects, and
    /// keeps their values for the assignments; returns the expressions
    /// evaluated (none when no side effect can make the order matter).
    fn evaluate_list_expressions(&mut self, items: &[InitItem], loc: Loc) -> R<Vec<*const ast::Expr>> {
        let mut expressions = Vec::new();
        list_expressions(items, &mut expressions);
        expressions.retain(|e| !self.initial_values.contains_key(&(*e as *const ast::Expr)) && !self.is_constant_operand(e));
        if !expressions.iter().any(|e| self.has_side_effects(e)) {
            return Ok(Vec::new());
        }
        let values = self.unordered(&expressions, loc, &mut |s, k| s.rvalue(expressions[k]))?;
        let keys: Vec<*const ast::Expr> = expressions.iter().map(|&e| e as *const ast::Expr).collect();
        self.initial_values.extend(keys.iter().copied().zip(values));
        Ok(keys)
    }

    /// `= expr` for an object of type `ty`.
    fn init_from_expr(&mut self, target: Expr, ty: &CType, e: &ast::Expr) -> R<()> {
        if let (Kind::Array(elem, size), Some(units)) = (&ty.kind, string_literal(e)) {
            if elem.is_integer() {
                let len = match size {
                    ArraySize::Fixed(n) => *n,
                    _ => units.len() as u64 + 1,
                };
                let flexible = matches!(size, ArraySize::Unknown);
                if flexible || len > units.len() as u64 + MAX_EXPANDED_ELEMENTS as u64 {
                    // A huge array holding a short string: zero, then the
                    // characters; a flexible array member has no length to
                    // zero, only the characters and the null one.
                    let written = if flexible {
                        units.len() + 1
                    } else {
                        let zero = Expr::new(ExprKind::Zero, target.ty);
                        self.emit(InstrKind::Assign(target.clone(), zero), e.loc);
                        units.len()
                    };
                    let elem_ir = self.ir_ty(elem);
                    for (i, u) in units.iter().chain(&[0]).take(written).enumerate() {
                        let sub = self.element(&target, elem, i as u64);
                        self.emit(InstrKind::Assign(sub, Expr::int(u128::from(*u), elem_ir)), e.loc);
                    }
                    return Ok(());
                }
                let value = self.string_array_value(units, elem, len);
                self.emit(InstrKind::Assign(target, value), e.loc);
                return Ok(());
            }
        }
        if ty.is_array() {
            return Err(self.error(e.loc, "array initializer must be a braced list or a string literal"));
        }
        let v = match self.initial_values.get(&(e as *const ast::Expr)) {
            Some(v) => v.clone(),
            None => self.rvalue(e)?,
        };
        let value = self.cast_to(v, &ty.unqualified(), e.loc, false)?;
        self.emit(InstrKind::Assign(target, value), e.loc);
        Ok(())
    }

    /// A braced list that initializes exactly the object `target`.
    fn init_braced(&mut self, target: Expr, ty: &CType, items: &[InitItem], loc: Loc) -> R<()> {
        self.enter(loc)?;
        let result = self.init_braced_kind(target, ty, items, loc);
        self.leave();
        result
    }

    fn init_braced_kind(&mut self, target: Expr, ty: &CType, items: &[InitItem], loc: Loc) -> R<()> {
        match &ty.kind {
            Kind::Vector(elem, n) => {
                let mut pos = 0;
                self.fill_array(&target, elem, Some(*n), items, &mut pos, true)?;
                Ok(())
            }
            Kind::Array(elem, size) => {
                // `char s[] = {"abc"}`
                if let [InitItem { designators, init: Initializer::Expr(e) }] = items {
                    if designators.is_empty() && elem.is_integer() && string_literal(e).is_some() {
                        return self.init_from_expr(target, ty, e);
                    }
                }
                let limit = match size {
                    ArraySize::Fixed(n) => Some(*n),
                    _ => None,
                };
                let mut pos = 0;
                self.fill_array(&target, elem, limit, items, &mut pos, true)?;
                Ok(())
            }
            Kind::Record(_) => {
                let mut pos = 0;
                self.fill_record(&target, ty, items, &mut pos, true)
            }
            _ => match items.first() {
                None => {
                    let zero = Expr::new(ExprKind::Zero, target.ty);
                    self.emit(InstrKind::Assign(target, zero), loc);
                    Ok(())
                }
                Some(item) => {
                    if items.len() > 1 {
                        self.warn(loc, "excess elements in scalar initializer");
                    }
                    if !item.designators.is_empty() {
                        return Err(self.error(loc, "designator in a scalar initializer"));
                    }
                    self.initialize(target, ty, &item.init, false)
                }
            },
        }
    }

    /// Initializes array elements from `items[*pos..]`. A braced list
    /// consumes every item; an elided one stops when the array is full or
    /// at a designator. Returns the number of elements the list implies.
    fn fill_array(
        &mut self,
        target: &Expr,
        elem: &CType,
        limit: Option<u64>,
        items: &[InitItem],
        pos: &mut usize,
        braced: bool,
    ) -> R<u64> {
        let mut index: u64 = 0;
        let mut count: u64 = 0;
        while *pos < items.len() {
            let item = &items[*pos];
            if let Some(first) = item.designators.first() {
                if !braced {
                    break;
                }
                let (lo, hi) = match first {
                    Designator::Index(e) => {
                        let i = self.const_int(e, "array designator")?;
                        (i, i)
                    }
                    Designator::Range(a, b) => (self.const_int(a, "array designator")?, self.const_int(b, "array designator")?),
                    Designator::Field(name, loc) => {
                        return Err(self.error(*loc, format!("field designator `.{name}` in an array initializer")))
                    }
                };
                if lo < 0 || hi < lo || limit.is_some_and(|n| hi as u64 >= n) {
                    let loc = list_loc(&item.init).unwrap_or(Loc::NONE);
                    return Err(self.error(loc, "array designator index out of range"));
                }
                self.check_range(lo, hi, &item.init)?;
                for i in lo..=hi {
                    let sub = self.element(target, elem, i as u64);
                    self.designated(sub, elem, &item.designators[1..], &item.init)?;
                }
                *pos += 1;
                index = hi as u64 + 1;
                count = count.max(index);
                continue;
            }
            if limit.is_some_and(|n| index >= n) {
                if !braced {
                    break;
                }
                let loc = list_loc(&item.init).unwrap_or(Loc::NONE);
                self.warn(loc, "excess elements in array initializer");
                *pos = items.len();
                break;
            }
            let sub = self.element(target, elem, index);
            self.init_member(sub, elem, items, pos)?;
            index += 1;
            count = count.max(index);
        }
        Ok(count)
    }

    /// GNU range designators are expanded element by element: bounded.
    fn check_range(&mut self, lo: i128, hi: i128, init: &Initializer) -> R<()> {
        if hi - lo >= MAX_EXPANDED_ELEMENTS {
            let loc = list_loc(init).unwrap_or(Loc::NONE);
            return Err(self.error(loc, format!("unsupported: designator range of more than {MAX_EXPANDED_ELEMENTS} elements")));
        }
        Ok(())
    }

    fn element(&mut self, target: &Expr, elem: &CType, index: u64) -> Expr {
        let irty = self.ir_ty(elem);
        let size_t = self.tcx.size_t();
        let idx = self.int_val(i128::from(index), size_t).e;
        Expr::new(ExprKind::Index(Box::new(target.clone()), Box::new(idx)), irty)
    }

    fn field(&mut self, target: &Expr, id: ir::CompositeId, index: usize) -> (Expr, CType) {
        let fty = self.tcx.records[id.0 as usize].fields[index].ty.clone();
        let irty = self.ir_ty(&fty);
        (Expr::new(ExprKind::Member(Box::new(target.clone()), index as u32), irty), fty)
    }

    /// Initializes struct/union members from `items[*pos..]`.
    fn fill_record(&mut self, target: &Expr, ty: &CType, items: &[InitItem], pos: &mut usize, braced: bool) -> R<()> {
        let Kind::Record(id) = ty.kind else {
            return Err(self.error(Loc::NONE, "internal error: record initializer for a non-record"));
        };
        let is_union = self.tcx.records[id.0 as usize].kind == ir::CompositeKind::Union;
        let field_count = self.tcx.records[id.0 as usize].fields.len();
        let mut next = 0usize;
        let mut done_union = false;
        while *pos < items.len() {
            let item = &items[*pos];
            if let Some(first) = item.designators.first() {
                if !braced {
                    break;
                }
                let Designator::Field(name, loc) = first else {
                    let loc = list_loc(&item.init).unwrap_or(Loc::NONE);
                    return Err(self.error(loc, "array designator in a struct or union initializer"));
                };
                let Some(path) = self.tcx.find_field(id, name) else {
                    return Err(self.error(*loc, format!("no member named `{name}` to initialize")));
                };
                let (sub, fty) = self.field_path(target, id, &path.indices);
                self.designated(sub, &fty, &item.designators[1..], &item.init)?;
                *pos += 1;
                next = path.indices[0] as usize + 1;
                done_union = true;
                continue;
            }
            while next < field_count && self.skipped_field(id, next) {
                next += 1;
            }
            if next >= field_count || (is_union && done_union) {
                if !braced {
                    break;
                }
                let loc = list_loc(&item.init).unwrap_or(Loc::NONE);
                self.warn(loc, "excess elements in struct or union initializer");
                *pos = items.len();
                break;
            }
            let (sub, fty) = self.field(target, id, next);
            self.init_member(sub, &fty, items, pos)?;
            next += 1;
            done_union = true;
        }
        Ok(())
    }

    /// Unnamed bit-fields take no initializer.
    fn skipped_field(&self, id: ir::CompositeId, index: usize) -> bool {
        let f = &self.tcx.records[id.0 as usize].fields[index];
        f.name.is_empty() && f.bit_width.is_some()
    }

    fn field_path(&mut self, target: &Expr, id: ir::CompositeId, indices: &[u32]) -> (Expr, CType) {
        let mut e = target.clone();
        let mut rec = id;
        let mut ty = CType::void();
        for idx in indices {
            let (sub, fty) = self.field(&e, rec, *idx as usize);
            e = sub;
            if let Kind::Record(inner) = fty.kind {
                rec = inner;
            }
            ty = fty;
        }
        (e, ty)
    }

    /// Initializes one sub-object from `items[*pos]`, eliding braces when
    /// an aggregate is initialized by a scalar.
    fn init_member(&mut self, target: Expr, ty: &CType, items: &[InitItem], pos: &mut usize) -> R<()> {
        let item = &items[*pos];
        match &item.init {
            Initializer::List(sub, loc) => {
                *pos += 1;
                self.init_braced(target, ty, sub, *loc)
            }
            Initializer::Expr(e) => {
                if ty.is_scalar() {
                    *pos += 1;
                    return self.init_from_expr(target, ty, e);
                }
                if let Kind::Array(elem, size) = &ty.kind {
                    if elem.is_integer() && string_literal(e).is_some() {
                        *pos += 1;
                        return self.init_from_expr(target, ty, e);
                    }
                    let limit = match size {
                        ArraySize::Fixed(n) => Some(*n),
                        _ => None,
                    };
                    return self.fill_array(&target, elem, limit, items, pos, false).map(|_| ());
                }
                if let Kind::Vector(elem, n) = &ty.kind {
                    if self.expr_type(e)?.is_vector() {
                        *pos += 1;
                        return self.init_from_expr(target, ty, e);
                    }
                    return self.fill_array(&target, elem, Some(*n), items, pos, false).map(|_| ());
                }
                if ty.is_record() && self.expr_type(e)?.unqualified() == ty.unqualified() {
                    *pos += 1;
                    return self.init_from_expr(target, ty, e);
                }
                if ty.is_record() {
                    return self.fill_record(&target, ty, items, pos, false);
                }
                Err(self.error(e.loc, "cannot initialize an object of this type"))
            }
        }
    }

    /// The type of an expression, without keeping its code.
    fn expr_type(&mut self, e: &ast::Expr) -> R<CType> {
        let (v, _) = self.scratch(|s| s.rvalue(e))?;
        Ok(v.ty)
    }

    /// Initializes the sub-object reached through `designators` (the rest
    /// after the first) with `init`.
    fn designated(&mut self, target: Expr, ty: &CType, designators: &[Designator], init: &Initializer) -> R<()> {
        let Some((first, rest)) = designators.split_first() else {
            return match init {
                Initializer::List(items, loc) => self.init_braced(target, ty, items, *loc),
                Initializer::Expr(original) => {
                    let item = InitItem { designators: Vec::new(), init: init.clone() };
                    // The copy takes the value evaluated for the original, if any.
                    let Initializer::Expr(copy) = &item.init else {
                        return Err(self.error(original.loc, "internal error: an initializer changed its kind when copied"));
                    };
                    let copy = copy as *const ast::Expr;
                    let value = self.initial_values.get(&(original as *const ast::Expr)).cloned();
                    if let Some(value) = value {
                        self.initial_values.insert(copy, value);
                    }
                    let mut pos = 0;
                    let result = self.init_member(target, ty, std::slice::from_ref(&item), &mut pos);
                    self.initial_values.remove(&copy);
                    result
                }
            };
        };
        match (first, &ty.kind) {
            (Designator::Field(name, loc), Kind::Record(id)) => {
                let Some(path) = self.tcx.find_field(*id, name) else {
                    return Err(self.error(*loc, format!("no member named `{name}` to initialize")));
                };
                let (sub, fty) = self.field_path(&target, *id, &path.indices);
                self.designated(sub, &fty, rest, init)
            }
            (Designator::Index(e), Kind::Array(elem, _)) => {
                let i = self.const_int(e, "array designator")?;
                if i < 0 {
                    return Err(self.error(e.loc, "array designator index out of range"));
                }
                let sub = self.element(&target, elem, i as u64);
                self.designated(sub, elem, rest, init)
            }
            (Designator::Range(a, b), Kind::Array(elem, _)) => {
                let (lo, hi) = (self.const_int(a, "array designator")?, self.const_int(b, "array designator")?);
                self.check_range(lo, hi, init)?;
                for i in lo.max(0)..=hi {
                    let sub = self.element(&target, elem, i as u64);
                    self.designated(sub, elem, rest, init)?;
                }
                Ok(())
            }
            _ => {
                let loc = list_loc(init).unwrap_or(Loc::NONE);
                Err(self.error(loc, "designator does not match the type being initialized"))
            }
        }
    }
}
