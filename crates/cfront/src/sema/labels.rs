//! GNU label addresses (`&&label`) and computed goto (`goto *p`).
//!
//! Each label whose address is taken gets a one-byte hidden global
//! (`f::$label::L`); `&&L` is that object's address as a `void *`, so the
//! same label always yields the same pointer, different labels different
//! ones, and the values can be compared, stored and chosen
//! nondeterministically like any pointer. A `goto *p` stores `p` in a
//! temporary and jumps to a dispatch block emitted at the end of the
//! function (once every address-taken label is known): it compares the
//! target with each label's address in turn and jumps to the first match;
//! when none matches, the property "computed goto to an invalid target"
//! fails (gcc jumps to an arbitrary address there).
//!
//! A label's address in a static initializer is not supported yet.

use super::ctype::CType;
use super::expr::Val;
use super::{Label, Sema, R};
use crate::ast;
use ir::{BinOp, Expr, ExprKind, InstrKind, Loc, Property, PropertyClass, SymbolId, SymbolKind};

/// A `goto *p` waiting for its dispatch block.
pub(super) struct ComputedGoto {
    target: SymbolId,
    dispatch: Label,
    loc: Loc,
}

impl<'a> Sema<'a> {
    /// `&&name`: the address of the label's hidden object.
    pub(super) fn label_address(&mut self, name: &str, loc: Loc) -> R<Val> {
        if self.in_static_context() {
            return Err(self.error(loc, "unsupported: address of a label in a static initializer"));
        }
        let name = &self.label_in_scope(name);
        self.user_label(name, Some(loc));
        let sym = match self.fx.label_addresses.iter().find(|(n, _)| n == name) {
            Some((_, sym)) => *sym,
            None => {
                let unique = format!("{}::$label::{name}", self.fx.name);
                let ty = CType::new(super::ctype::Kind::Int(super::ctype::IntKind::Char));
                let irty = self.ir_ty(&ty);
                let sym = self.prog.add_symbol(&unique, irty, SymbolKind::Global, loc);
                self.prog.symbols[sym].display_name = format!("&&{name}");
                self.sym_types.insert(sym, ty);
                self.fx.label_addresses.push((name.to_string(), sym));
                sym
            }
        };
        Ok(self.label_pointer(sym))
    }

    fn label_pointer(&mut self, sym: SymbolId) -> Val {
        let void_ptr = CType::pointer_to(CType::void());
        let void_ptr_ir = self.ir_ty(&void_ptr);
        let char_ptr = CType::pointer_to(self.sym_types[&sym].clone());
        let char_ptr_ir = self.ir_ty(&char_ptr);
        let object = Expr::sym(sym, self.prog.symbols[sym].ty);
        let address = Expr::new(ExprKind::AddrOf(Box::new(object)), char_ptr_ir);
        Val::rv(Expr::cast(address, void_ptr_ir), void_ptr)
    }

    /// `goto *target`.
    pub(super) fn computed_goto(&mut self, target: &ast::Expr, loc: Loc) -> R<()> {
        let v = self.rvalue(target)?;
        if !v.ty.is_pointer() {
            return Err(self.error(loc, "computed goto needs a pointer"));
        }
        let void_ptr = CType::pointer_to(CType::void());
        let value = self.cast_to(v, &void_ptr, loc, true)?;
        let tmp = self.temp(value, &void_ptr, loc);
        let ExprKind::Sym(target) = tmp.kind else {
            return Err(self.error(loc, "internal error: a temporary is not a variable"));
        };
        let dispatch = self.new_label();
        self.fx.computed_gotos.push(ComputedGoto { target, dispatch, loc });
        self.goto(dispatch, loc);
        Ok(())
    }

    /// The dispatch blocks of the function's computed gotos, after its
    /// last instruction.
    pub(super) fn emit_computed_goto_dispatch(&mut self) {
        let gotos = std::mem::take(&mut self.fx.computed_gotos);
        let labels = self.fx.label_addresses.clone();
        let mut last_loc = None;
        for ComputedGoto { target, dispatch, loc } in gotos {
            last_loc = Some(loc);
            self.place_label(dispatch);
            let target = Expr::sym(target, self.prog.symbols[target].ty);
            let bool_ty = self.prog.types.bool();
            for (name, sym) in &labels {
                let address = self.label_pointer(*sym).e;
                let hit = Expr::binary(BinOp::Eq, target.clone(), address, bool_ty);
                let label = self.user_label(name, None);
                self.goto_if(hit, label, loc);
            }
            let never = Expr::int(0, bool_ty);
            let property =
                Property { class: PropertyClass::PointerDereference, message: "computed goto to an invalid target".into() };
            self.emit(InstrKind::Assert(never.clone(), property), loc);
            self.emit(InstrKind::Assume(never), loc);
        }
        if let Some(loc) = last_loc {
            // Never reached; the body must still end in a return.
            let ret = self.fx.ret.clone();
            let value = (!ret.is_void()).then(|| Expr::new(ExprKind::Nondet, self.ir_ty(&ret)));
            self.emit(InstrKind::Return(value), loc);
        }
    }
}
