//! GNU nested functions: a function defined inside another one, seeing the
//! enclosing function's variables.
//!
//! A nested function is lifted to a function of its own (`outer::n::name`).
//! Each variable of an enclosing function it uses is *captured by
//! reference*: the lifted function gets a hidden pointer parameter for it
//! (`$capture::x`, after the declared parameters) and every use reads or
//! writes through that pointer. A direct call passes the addresses of the
//! captured variables, as seen from the caller: its own locals, or its own
//! captures when the caller is itself nested. This is exact while the
//! enclosing frame is live, which holds for every direct call.
//!
//! Not supported (an `unsupported:` error): taking the address of a nested
//! function that captures variables (gcc builds a trampoline bound to the
//! enclosing frame, which a plain function pointer cannot carry here), and
//! a nested function that refers to itself (its captures are not known yet
//! while its body is lowered).

use super::ctype::CType;
use super::expr::{addr_of, Val};
use super::decl::DefinitionSignature;
use super::scope::Ordinary;
use super::{Sema, R};
use crate::ast;
use ir::{Expr, ExprKind, FuncId, Loc, SymbolId, SymbolKind};

/// What the front end knows of a nested function.
#[derive(Clone)]
pub(super) enum Nested {
    /// Its body is being lowered.
    Lowering,
    /// Lowered; the enclosing functions' variables it captures, in the
    /// order of its hidden parameters.
    Captures(Vec<SymbolId>),
}

impl<'a> Sema<'a> {
    /// A function definition inside a function body.
    pub(super) fn nested_function(&mut self, f: &ast::FunctionDef) -> R<()> {
        let loc = f.declarator.loc;
        let DefinitionSignature { name, ret, params, fdecl, ty } = self.definition_signature(f)?;
        self.fx.counter += 1;
        let unique = format!("{}::{}::{name}", self.fx.name, self.fx.counter);
        let sym = self.new_linked_symbol(&unique, &name, &ty, loc);
        self.scopes.insert(&name, Ordinary::Symbol { sym });
        let SymbolKind::Function(func) = self.prog.symbols[sym].kind else {
            return Err(self.error(loc, "internal error: a nested function without a function"));
        };
        self.nested.insert(func, Nested::Lowering);
        let (result, ctx) = self.lower_function(func, &unique, ret, loc, |s| s.function_body(func, &params, fdecl, &f.body, loc))?;
        result?;
        let captures: Vec<(SymbolId, SymbolId)> = ctx.captures.clone();
        self.finish_function(ctx);
        self.add_capture_parameters(func, &captures);
        self.nested.insert(func, Nested::Captures(captures.iter().map(|c| c.0).collect()));
        Ok(())
    }

    /// Appends the hidden capture parameters to the lifted function and
    /// its IR signature (its C type stays the declared one).
    fn add_capture_parameters(&mut self, func: FuncId, captures: &[(SymbolId, SymbolId)]) {
        if captures.is_empty() {
            return;
        }
        let function = &self.prog.functions[func];
        let ir::Type::Function(mut sig) = self.prog.types.get(function.ty).clone() else {
            return;
        };
        sig.params.extend(captures.iter().map(|&(_, param)| self.prog.symbols[param].ty));
        let irty = self.prog.types.intern(ir::Type::Function(sig));
        let symbol = self.prog.functions[func].symbol;
        self.prog.functions[func].params.extend(captures.iter().map(|c| c.1));
        self.prog.functions[func].ty = irty;
        self.prog.symbols[symbol].ty = irty;
    }

    /// A variable `outer` of an enclosing function, used in the nested
    /// function being lowered: an lvalue through its capture parameter.
    pub(super) fn captured_variable(&mut self, outer: SymbolId, loc: Loc) -> Val {
        let ty = self.sym_types[&outer].clone();
        let pointer = CType::pointer_to(ty.clone());
        let pointer_ir = self.ir_ty(&pointer);
        let param = match self.fx.captures.iter().find(|c| c.0 == outer) {
            Some(&(_, param)) => param,
            None => {
                let display = self.prog.symbols[outer].display_name.clone();
                let name = format!("{}::$capture::{display}", self.fx.name);
                let param = self.prog.add_symbol(&name, pointer_ir, SymbolKind::Local(self.fx.func), loc);
                self.prog.symbols[param].display_name = format!("$capture::{display}");
                self.sym_types.insert(param, pointer);
                self.fx.captures.push((outer, param));
                param
            }
        };
        let value_ir = self.prog.symbols[outer].ty;
        let through = Expr::new(ExprKind::Deref(Box::new(Expr::sym(param, pointer_ir))), value_ir);
        Val { e: through, ty, lvalue: true, bit_width: None }
    }

    /// True when `sym` is a local of a function enclosing the one being
    /// lowered (so a use of it must be captured).
    pub(super) fn is_enclosing_local(&self, sym: SymbolId) -> bool {
        match self.prog.symbols[sym].kind {
            SymbolKind::Local(f) => f != self.fx.func && !self.in_static_context(),
            _ => false,
        }
    }

    /// Checks a use of a nested function other than a direct call.
    pub(super) fn check_nested_function_use(&mut self, func: FuncId, loc: Loc) -> R<()> {
        match self.nested.get(&func) {
            Some(Nested::Lowering) => Err(self.error(loc, "unsupported: a nested function that refers to itself")),
            Some(Nested::Captures(c)) if !c.is_empty() => Err(self.error(
                loc,
                "unsupported: the address of a nested function that uses its enclosing function's variables",
            )),
            _ => Ok(()),
        }
    }

    /// The captured variables a direct call of `callee` must pass (empty
    /// for other callees).
    pub(super) fn call_captures(&self, callee: &ast::Expr) -> Vec<SymbolId> {
        let ast::ExprKind::Ident(name) = &callee.kind else { return Vec::new() };
        let Some(Ordinary::Symbol { sym }) = self.scopes.lookup(name) else { return Vec::new() };
        let SymbolKind::Function(func) = self.prog.symbols[*sym].kind else { return Vec::new() };
        match self.nested.get(&func) {
            Some(Nested::Captures(c)) => c.clone(),
            _ => Vec::new(),
        }
    }

    /// The address of captured variable `outer` as seen by the function
    /// being lowered.
    pub(super) fn capture_address(&mut self, outer: SymbolId, loc: Loc) -> Expr {
        let ty = self.sym_types[&outer].clone();
        let pointer_ir = self.ir_ty(&CType::pointer_to(ty));
        let place = if self.is_enclosing_local(outer) {
            self.captured_variable(outer, loc).e
        } else {
            Expr::sym(outer, self.prog.symbols[outer].ty)
        };
        addr_of(place, pointer_ir)
    }
}
