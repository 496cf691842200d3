//! Well-formedness checks of a [`Program`]: every id in range, jump targets
//! inside their function, operand types as each operator's definition in
//! [`crate::expr`] demands, lvalues where an object is needed, `Bool`
//! conditions, call arity and argument types for prototyped callees, and
//! returns matching the function's type.
//!
//! Each message names the function, the instruction index and its source
//! location, and says what is wrong, so a lowering bug can be found from it.

use crate::expr::{BinOp, Expr, ExprKind, UnOp};
use crate::instr::{Instr, InstrKind};
use crate::layout::low_mask;
use crate::program::{FuncId, Program, SymbolKind};
use crate::types::{ArrayLen, CompositeKind, FnSig, Type, TypeId};

/// Longest expression text quoted in a message.
const QUOTE_LIMIT: usize = 80;

/// Checks `program`; on failure returns every problem found.
pub fn validate(program: &Program) -> Result<(), Vec<String>> {
    let mut validator = Validator { program, errors: Vec::new() };
    validator.check_type_table();
    if validator.errors.is_empty() {
        validator.check_symbols();
        validator.check_functions();
    }
    if validator.errors.is_empty() {
        Ok(())
    } else {
        Err(validator.errors)
    }
}

struct Validator<'a> {
    program: &'a Program,
    errors: Vec<String>,
}

/// Where a problem was found: a function, and an instruction in it.
#[derive(Copy, Clone)]
struct Site<'a> {
    func: FuncId,
    func_name: &'a str,
    index: usize,
    instr: &'a Instr,
}

impl<'a> Validator<'a> {
    fn type_ok(&self, ty: TypeId) -> bool {
        ty.0 < self.program.types.len() as u32
    }

    fn ty(&self, ty: TypeId) -> String {
        self.program.types.display(ty).to_string()
    }

    fn quote(&self, expr: &Expr) -> String {
        let text = self.program.display_expr(expr).to_string();
        if text.chars().count() <= QUOTE_LIMIT {
            format!("`{text}`")
        } else {
            format!("`{}…`", text.chars().take(QUOTE_LIMIT).collect::<String>())
        }
    }

    fn report(&mut self, site: Site<'_>, message: String) {
        let loc = self.program.display_loc(site.instr.loc).to_string();
        let at = if loc.is_empty() { String::new() } else { format!(" ({loc})") };
        self.errors.push(format!("fn {}, instr {}{at}: {message}", site.func_name, site.index));
    }

    /// Every type id inside the type table refers to an existing type,
    /// composite or symbol; later checks rely on it to look types up.
    fn check_type_table(&mut self) {
        let types = &self.program.types;
        let composites = &types.composites;
        let exists = |t: &TypeId| (t.0 as usize) < types.len();
        for index in 0..types.len() {
            let id = TypeId(index as u32);
            let mut referenced = Vec::new();
            match types.get(id) {
                Type::Pointer(inner) => referenced.push(*inner),
                Type::Array(elem, len) => {
                    referenced.push(*elem);
                    if let ArrayLen::Var(sym) = len {
                        if self.program.symbols.get(*sym).is_none() {
                            self.errors.push(format!("type {id}: VLA length symbol {sym} does not exist"));
                        }
                    }
                }
                Type::Function(sig) => {
                    referenced.push(sig.ret);
                    referenced.extend(&sig.params);
                }
                Type::Composite(comp) if composites.get(*comp).is_none() => {
                    self.errors.push(format!("type {id}: composite {comp} does not exist"));
                }
                Type::Int { bits, .. } if *bits == 0 || *bits > 128 => {
                    self.errors.push(format!("type {id}: integer width {bits} is not in 1..=128"));
                }
                _ => {}
            }
            for inner in referenced.into_iter().filter(|t| !exists(t)) {
                self.errors.push(format!("type {id}: refers to missing type {inner}"));
            }
        }
        for (comp, composite) in composites.iter() {
            for field in composite.fields.iter().filter(|f| !exists(&f.ty)) {
                self.errors
                    .push(format!("{comp} ({}): field `{}` has missing type {}", composite.name, field.name, field.ty));
            }
        }
    }

    fn check_symbols(&mut self) {
        let program = self.program;
        for (id, symbol) in program.symbols.iter() {
            if !self.type_ok(symbol.ty) {
                self.errors.push(format!("symbol {id} `{}`: missing type {}", symbol.name, symbol.ty));
                continue;
            }
            match symbol.kind {
                SymbolKind::Local(func) | SymbolKind::Function(func) if program.functions.get(func).is_none() => {
                    self.errors.push(format!("symbol {id} `{}`: function {func} does not exist", symbol.name));
                }
                SymbolKind::Function(func) if program.functions[func].symbol != id => {
                    self.errors.push(format!("symbol {id} `{}`: {func} names another symbol", symbol.name));
                }
                _ => {}
            }
        }
    }

    fn check_functions(&mut self) {
        let program = self.program;
        for (name, &func) in &program.function_index {
            if program.functions.get(func).is_none_or(|f| &f.name != name) {
                self.errors.push(format!("function index: `{name}` maps to {func}, which has another name"));
            }
        }
        for (role, func) in [("entry", program.entry), ("init", program.init)] {
            let Some(func) = func else { continue };
            match program.functions.get(func) {
                Some(f) if f.body.is_some() => {}
                Some(f) => self.errors.push(format!("{role} function `{}` has no body", f.name)),
                None => self.errors.push(format!("{role} function {func} does not exist")),
            }
        }
        for label in &program.labels {
            let len = program.functions.get(label.function).and_then(|f| f.body.as_ref()).map(Vec::len);
            if len.is_none_or(|len| label.at.0 as usize > len) {
                self.errors
                    .push(format!("label `{}`: {} is not a position in {}", label.name, label.at.0, label.function));
            }
        }
        for lp in &program.loop_unwinds {
            let len = program.functions.get(lp.function).and_then(|f| f.body.as_ref()).map(Vec::len);
            if len.is_none_or(|len| lp.head.0 as usize >= len) {
                self.errors.push(format!("loop unwinding bound: {} is not an instruction of {}", lp.head.0, lp.function));
            }
        }
        for order in &program.evaluation_orders {
            let len = program.functions.get(order.function).and_then(|f| f.body.as_ref()).map(Vec::len);
            if len.is_none_or(|len| order.at.0 as usize >= len) {
                self.errors.push(format!("evaluation order: {} is not an instruction of {}", order.at.0, order.function));
            }
        }
        for (func, function) in program.functions.iter() {
            self.check_signature(func);
            if let Some(body) = &function.body {
                self.check_body(func, body);
            }
        }
    }

    fn signature(&self, func: FuncId) -> Option<&'a FnSig> {
        let ty = self.program.functions[func].ty;
        if !self.type_ok(ty) {
            return None;
        }
        match self.program.types.get(ty) {
            Type::Function(sig) => Some(sig),
            _ => None,
        }
    }

    fn check_signature(&mut self, func: FuncId) {
        let program = self.program;
        let function = &program.functions[func];
        let Some(sig) = self.signature(func) else {
            self.errors.push(format!("fn {}: its type {} is not a function type", function.name, function.ty));
            return;
        };
        if program.symbols.get(function.symbol).is_none_or(|s| s.kind != SymbolKind::Function(func)) {
            self.errors.push(format!("fn {}: symbol {} is not this function's symbol", function.name, function.symbol));
        }
        for (i, param) in function.params.iter().enumerate() {
            match program.symbols.get(*param) {
                Some(symbol) if symbol.kind == SymbolKind::Local(func) => {
                    if !sig.unprototyped && sig.params.get(i).is_some_and(|t| *t != symbol.ty) {
                        let (declared, actual) = (self.ty(sig.params[i]), self.ty(symbol.ty));
                        self.errors.push(format!(
                            "fn {}: parameter {i} `{}` has type {actual}, the signature says {declared}",
                            function.name, symbol.display_name
                        ));
                    }
                }
                _ => self.errors.push(format!("fn {}: parameter {i} ({param}) is not a local of it", function.name)),
            }
        }
        if function.body.is_some() && !sig.unprototyped && function.params.len() != sig.params.len() {
            self.errors.push(format!(
                "fn {}: {} parameter symbols for {} parameter types",
                function.name,
                function.params.len(),
                sig.params.len()
            ));
        }
    }

    fn check_body(&mut self, func: FuncId, body: &[Instr]) {
        let func_name = self.program.functions[func].name.as_str();
        for (index, instr) in body.iter().enumerate() {
            let site = Site { func, func_name, index, instr };
            if self.check_expr_types_exist(site) {
                self.check_instr(site, body.len());
            }
        }
        let falls_off = match body.last().map(|i| &i.kind) {
            None => true,
            Some(InstrKind::Return(_) | InstrKind::EndThread) => false,
            Some(InstrKind::Goto { cond, .. }) => !self.is_true(cond),
            Some(_) => true,
        };
        if falls_off {
            self.errors.push(format!("fn {func_name}: control can run past the last instruction"));
        }
    }

    fn is_true(&self, cond: &Expr) -> bool {
        matches!(cond.kind, ExprKind::IntConst(1)) && self.type_ok(cond.ty) && self.program.types.is_bool(cond.ty)
    }

    /// Reports nodes whose type id is out of range; the printer (used in
    /// later messages) needs every type to exist.
    fn check_expr_types_exist(&mut self, site: Site<'_>) -> bool {
        let missing = site.instr.kind.exprs().into_iter().flat_map(Expr::walk).find(|e| !self.type_ok(e.ty));
        if let Some(expr) = missing {
            self.report(site, format!("an expression has the missing type {}", expr.ty));
            return false;
        }
        true
    }

    fn check_instr(&mut self, site: Site<'_>, body_len: usize) {
        for expr in site.instr.kind.exprs() {
            self.check_expr(site, expr);
        }
        match &site.instr.kind {
            InstrKind::Decl(sym) | InstrKind::Dead(sym) => {
                if self.program.symbols.get(*sym).is_none_or(|s| s.kind != SymbolKind::Local(site.func)) {
                    self.report(site, format!("{sym} is not a local variable of this function"));
                }
            }
            InstrKind::Assign(lhs, rhs) => {
                self.require_lvalue(site, lhs, "assignment target");
                if lhs.ty != rhs.ty {
                    let message =
                        format!("assignment of {} to {} of type {}", self.ty(rhs.ty), self.quote(lhs), self.ty(lhs.ty));
                    self.report(site, message);
                }
            }
            InstrKind::Assume(cond) | InstrKind::Assert(cond, _) => self.require_bool(site, cond, "condition"),
            InstrKind::Goto { cond, target } => {
                self.require_bool(site, cond, "jump condition");
                self.require_target(site, target.0, body_len);
            }
            InstrKind::StartThread(target) => self.require_target(site, target.0, body_len),
            InstrKind::Call { lhs, callee, args } => self.check_call(site, lhs.as_ref(), callee, args),
            InstrKind::Return(value) => self.check_return(site, value.as_ref()),
            InstrKind::QuantifierBegin { bound, .. } => {
                if !matches!(bound.kind, ExprKind::Sym(_)) {
                    self.report(site, format!("quantifier bound {} is not a variable", self.quote(bound)));
                }
            }
            InstrKind::QuantifierEnd { lhs, body } => {
                self.require_lvalue(site, lhs, "quantifier result");
                self.require_bool(site, body, "quantifier body");
            }
            InstrKind::Skip
            | InstrKind::Asm(_)
            | InstrKind::EndThread
            | InstrKind::AtomicBegin
            | InstrKind::AtomicEnd => {}
        }
    }

    fn require_target(&mut self, site: Site<'_>, target: u32, body_len: usize) {
        if target as usize >= body_len {
            self.report(site, format!("jump target {target} is outside the body (length {body_len})"));
        }
    }

    fn require_bool(&mut self, site: Site<'_>, cond: &Expr, what: &str) {
        if !self.program.types.is_bool(cond.ty) {
            let message = format!("{what} {} has type {}, not bool", self.quote(cond), self.ty(cond.ty));
            self.report(site, message);
        }
    }

    fn require_lvalue(&mut self, site: Site<'_>, expr: &Expr, what: &str) {
        if !expr.is_lvalue() {
            let message = format!("{what} {} is not an lvalue", self.quote(expr));
            self.report(site, message);
        }
    }

    fn check_call(&mut self, site: Site<'_>, lhs: Option<&Expr>, callee: &Expr, args: &[Expr]) {
        let types = &self.program.types;
        let callee_ty = types.pointee(callee.ty).unwrap_or(callee.ty);
        let Type::Function(sig) = types.get(callee_ty) else {
            let message = format!("callee {} of type {} is not a function", self.quote(callee), self.ty(callee.ty));
            return self.report(site, message);
        };
        if let Some(lhs) = lhs {
            self.require_lvalue(site, lhs, "call result target");
            if lhs.ty != sig.ret {
                let message = format!(
                    "call result of type {} assigned to {} of type {}",
                    self.ty(sig.ret),
                    self.quote(lhs),
                    self.ty(lhs.ty)
                );
                self.report(site, message);
            }
        }
        if sig.unprototyped {
            return;
        }
        let arity_ok = if sig.variadic { args.len() >= sig.params.len() } else { args.len() == sig.params.len() };
        if !arity_ok {
            let expected = format!("{}{}", sig.params.len(), if sig.variadic { " or more" } else { "" });
            let message = format!("call of {} with {} arguments, expected {expected}", self.quote(callee), args.len());
            return self.report(site, message);
        }
        for (i, (arg, param)) in args.iter().zip(&sig.params).enumerate() {
            if arg.ty != *param {
                let message = format!(
                    "argument {i} {} has type {}, parameter type is {}",
                    self.quote(arg),
                    self.ty(arg.ty),
                    self.ty(*param)
                );
                self.report(site, message);
            }
        }
    }

    fn check_return(&mut self, site: Site<'_>, value: Option<&Expr>) {
        let Some(sig) = self.signature(site.func) else { return };
        let returns_void = matches!(self.program.types.get(sig.ret), Type::Void);
        match value {
            None if !returns_void => {
                self.report(site, format!("return without a value from a function returning {}", self.ty(sig.ret)))
            }
            Some(v) if returns_void => {
                let message = format!("return of {} from a void function", self.quote(v));
                self.report(site, message);
            }
            Some(v) if v.ty != sig.ret => {
                let message = format!(
                    "return of {} of type {}, the function returns {}",
                    self.quote(v),
                    self.ty(v.ty),
                    self.ty(sig.ret)
                );
                self.report(site, message);
            }
            _ => {}
        }
    }

    fn check_expr(&mut self, site: Site<'_>, root: &Expr) {
        for node in root.walk() {
            if let Err(problem) = self.check_node(site.func, node) {
                let message = format!("in {}: {problem}", self.quote(node));
                self.report(site, message);
            }
        }
    }

    /// Checks one node against its immediate operands.
    fn check_node(&self, func: FuncId, e: &Expr) -> Result<(), String> {
        let program = self.program;
        let types = &program.types;
        let ty = types.get(e.ty);
        let same = |a: &Expr| a.ty == e.ty;
        let int_like = |t: TypeId| types.is_integer(t);
        match &e.kind {
            ExprKind::Sym(sym) => {
                let Some(symbol) = program.symbols.get(*sym) else {
                    return Err(format!("symbol {sym} does not exist"));
                };
                if let SymbolKind::Local(owner) = symbol.kind {
                    if owner != func {
                        return Err(format!("`{}` is a local of another function", symbol.name));
                    }
                }
                if symbol.ty != e.ty {
                    return Err(format!("symbol typed {} used as {}", self.ty(symbol.ty), self.ty(e.ty)));
                }
            }
            ExprKind::IntConst(value) => {
                let bits = match ty {
                    Type::Bool => 1,
                    Type::Int { bits, .. } => *bits,
                    _ => return Err(format!("integer constant of non-integer type {}", self.ty(e.ty))),
                };
                if *value > low_mask(bits) {
                    return Err(format!("constant 0x{value:x} does not fit in {bits} bits"));
                }
            }
            ExprKind::FloatConst(value) => match ty {
                Type::Float(format) if *value <= low_mask(format.storage_bits()) => {}
                Type::Float(_) => return Err("float constant has bits beyond its format".into()),
                _ => return Err(format!("float constant of non-float type {}", self.ty(e.ty))),
            },
            ExprKind::Null if !types.is_pointer(e.ty) => return Err("NULL of a non-pointer type".into()),
            ExprKind::Zero | ExprKind::Nondet if matches!(ty, Type::Void | Type::Function(_)) => {
                return Err(format!("value of type {}", self.ty(e.ty)))
            }
            ExprKind::Null | ExprKind::Zero | ExprKind::Nondet => {}
            ExprKind::Unary(op, a) => {
                let ok = same(a)
                    && match op {
                        UnOp::Neg => int_like(e.ty) || types.is_float(e.ty),
                        UnOp::BitNot => int_like(e.ty),
                        UnOp::Not => types.is_bool(e.ty),
                    };
                if !ok {
                    return Err(format!("{:?} of {} giving {}", op, self.ty(a.ty), self.ty(e.ty)));
                }
            }
            ExprKind::Binary(op, a, b) => self.check_binary(*op, e, a, b)?,
            ExprKind::Cast(a) => {
                let (from, to) = (types.get(a.ty), ty);
                let scalar_cast = types.is_scalar(a.ty)
                    && types.is_scalar(e.ty)
                    && !matches!((from, to), (Type::Float(_), Type::Pointer(_)) | (Type::Pointer(_), Type::Float(_)));
                if a.ty != e.ty && !scalar_cast {
                    return Err(format!("no conversion from {} to {}", self.ty(a.ty), self.ty(e.ty)));
                }
            }
            ExprKind::Ite(c, t, f) => {
                if !types.is_bool(c.ty) || !same(t) || !same(f) {
                    return Err("ite needs a bool condition and branches of the result type".into());
                }
            }
            ExprKind::AddrOf(a) => {
                if !a.is_lvalue() {
                    return Err("address of a non-lvalue".into());
                }
                if let ExprKind::Member(base, index) = &a.kind {
                    let is_bitfield = match types.get(base.ty) {
                        Type::Composite(comp) => {
                            types.composites[*comp].fields.get(*index as usize).is_some_and(|f| f.bit_width.is_some())
                        }
                        _ => false,
                    };
                    if is_bitfield {
                        return Err("address of a bit-field".into());
                    }
                }
                if types.pointee(e.ty) != Some(a.ty) {
                    return Err(format!("address of a {} typed {}", self.ty(a.ty), self.ty(e.ty)));
                }
            }
            ExprKind::Deref(a) => {
                if types.pointee(a.ty) != Some(e.ty) {
                    return Err(format!("dereference of {} typed {}", self.ty(a.ty), self.ty(e.ty)));
                }
            }
            ExprKind::Member(base, index) => {
                let Type::Composite(comp) = types.get(base.ty) else {
                    return Err(format!("member of non-composite type {}", self.ty(base.ty)));
                };
                match types.composites[*comp].fields.get(*index as usize) {
                    Some(field) if field.ty == e.ty => {}
                    Some(field) => return Err(format!("field typed {} used as {}", self.ty(field.ty), self.ty(e.ty))),
                    None => return Err(format!("field {index} does not exist")),
                }
            }
            ExprKind::Index(base, index) => {
                let Type::Array(elem, _) = types.get(base.ty) else {
                    return Err(format!("index into non-array type {}", self.ty(base.ty)));
                };
                if *elem != e.ty || !int_like(index.ty) {
                    return Err("index needs an integer index and gives the element type".into());
                }
            }
            ExprKind::StructLit(items) => {
                let fields =
                    self.composite_fields(e.ty, CompositeKind::Struct).ok_or("struct literal of a non-struct type")?;
                if items.len() != fields.len() || items.iter().zip(fields).any(|(item, f)| item.ty != f.ty) {
                    return Err("struct literal values do not match the fields".into());
                }
            }
            ExprKind::UnionLit(index, value) => {
                let fields =
                    self.composite_fields(e.ty, CompositeKind::Union).ok_or("union literal of a non-union type")?;
                if fields.get(*index as usize).is_none_or(|f| f.ty != value.ty) {
                    return Err("union literal value does not match the field".into());
                }
            }
            ExprKind::ArrayLit(items) => {
                let ok = match ty {
                    Type::Array(elem, ArrayLen::Fixed(n)) => {
                        items.len() as u64 == *n && items.iter().all(|i| i.ty == *elem)
                    }
                    _ => false,
                };
                if !ok {
                    return Err("array literal does not match its fixed-length array type".into());
                }
            }
            ExprKind::PointerObject(p) | ExprKind::PointerOffset(p) | ExprKind::ObjectSize(p) => {
                if !types.is_pointer(p.ty) || !int_like(e.ty) {
                    return Err("pointer primitive needs a pointer operand and an integer result".into());
                }
            }
            ExprKind::IsDynamic(p) | ExprKind::IsInvalid(p) => {
                if !types.is_pointer(p.ty) || !types.is_bool(e.ty) {
                    return Err("pointer predicate needs a pointer operand and a bool result".into());
                }
            }
            ExprKind::ByteExtract { value, offset } => {
                let sized = |t| types.size_of(t, program.data_model).is_some();
                if !int_like(offset.ty) || !sized(value.ty) || !sized(e.ty) {
                    return Err("byte_extract needs sized types and an integer offset".into());
                }
            }
            ExprKind::ByteUpdate { value, offset, update } => {
                let sized = |t| types.size_of(t, program.data_model).is_some();
                if !same(value) || !int_like(offset.ty) || !sized(update.ty) {
                    return Err(
                        "byte_update needs a value of the result type, an integer offset and a sized update".into()
                    );
                }
            }
        }
        Ok(())
    }

    fn composite_fields(&self, ty: TypeId, kind: CompositeKind) -> Option<&'a [crate::types::Field]> {
        match self.program.types.get(ty) {
            Type::Composite(comp) if self.program.types.composites[*comp].kind == kind => {
                Some(&self.program.types.composites[*comp].fields)
            }
            _ => None,
        }
    }

    fn check_binary(&self, op: BinOp, e: &Expr, a: &Expr, b: &Expr) -> Result<(), String> {
        let types = &self.program.types;
        let (int, float, ptr, boolean) =
            (types.is_integer(e.ty), types.is_float(e.ty), types.is_pointer(e.ty), types.is_bool(e.ty));
        let operands_are_result = a.ty == e.ty && b.ty == e.ty;
        let ok = match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => operands_are_result && (int || float),
            BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => operands_are_result && int,
            BinOp::Shl | BinOp::Shr => int && a.ty == e.ty && types.is_integer(b.ty),
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let comparable = types.is_integer(a.ty) || types.is_float(a.ty) || types.is_pointer(a.ty);
                let bool_equality = matches!(op, BinOp::Eq | BinOp::Ne) && types.is_bool(a.ty);
                boolean && a.ty == b.ty && (comparable || bool_equality)
            }
            BinOp::And | BinOp::Or => operands_are_result && boolean,
            BinOp::PtrAdd => ptr && a.ty == e.ty && types.is_integer(b.ty),
            BinOp::PtrDiff => {
                let ptrdiff = types.int_info(e.ty) == Some((self.program.data_model.pointer_bits(), true));
                types.is_pointer(a.ty) && a.ty == b.ty && ptrdiff
            }
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{op:?} of {} and {} giving {}", self.ty(a.ty), self.ty(b.ty), self.ty(e.ty)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instr::{InstrIdx, Property, PropertyClass};
    use crate::loc::Loc;
    use crate::program::DataModel;

    /// `int f(int a) { return a; }` and `int main() { int x; x = f(1); if (x) goto 3; return x; }`
    struct Fixture {
        program: Program,
        main: FuncId,
        f: FuncId,
        x: Expr,
        int: TypeId,
    }

    fn fixture() -> Fixture {
        let mut p = Program::new(DataModel::LP64);
        let int = p.types.int(32, true);
        let boolean = p.types.bool();
        let f = p.declare_function("f", int, &[("a", int)], false, Loc::NONE);
        let a = Expr::sym(p.functions[f].params[0], int);
        p.set_body(f, vec![Instr::new(InstrKind::Return(Some(a)), Loc::NONE)]);
        let main = p.declare_function("main", int, &[], false, Loc::NONE);
        let xsym = p.add_local(main, "x", int, Loc::NONE);
        let x = Expr::sym(xsym, int);
        let callee = Expr::sym(p.functions[f].symbol, p.functions[f].ty);
        let cond = Expr::binary(BinOp::Ne, x.clone(), Expr::int(0, int), boolean);
        p.set_body(
            main,
            vec![
                Instr::new(InstrKind::Decl(xsym), Loc::NONE),
                Instr::new(InstrKind::Call { lhs: Some(x.clone()), callee, args: vec![Expr::int(1, int)] }, Loc::NONE),
                Instr::new(InstrKind::Goto { cond, target: InstrIdx(3) }, Loc::NONE),
                Instr::new(InstrKind::Return(Some(x.clone())), Loc::NONE),
            ],
        );
        p.entry = Some(main);
        Fixture { program: p, main, f, x, int }
    }

    fn body(fx: &mut Fixture, func: FuncId) -> &mut Vec<Instr> {
        fx.program.functions[func].body.as_mut().unwrap()
    }

    fn errors(fx: &Fixture) -> Vec<String> {
        validate(&fx.program).expect_err("the program is broken")
    }

    #[test]
    fn accepts_a_well_formed_program() {
        assert_eq!(validate(&fixture().program), Ok(()));
    }

    #[test]
    fn rejects_a_jump_outside_the_body() {
        let mut fx = fixture();
        let main = fx.main;
        if let InstrKind::Goto { target, .. } = &mut body(&mut fx, main)[2].kind {
            *target = InstrIdx(9);
        }
        assert_eq!(errors(&fx), ["fn main, instr 2: jump target 9 is outside the body (length 4)"]);
    }

    #[test]
    fn rejects_mismatched_operands_and_non_bool_conditions() {
        let mut fx = fixture();
        let long = fx.program.types.int(64, true);
        let (x, int, main) = (fx.x.clone(), fx.int, fx.main);
        let bad_sum = Expr::binary(BinOp::Add, x.clone(), Expr::int(1, long), int);
        body(&mut fx, main)[3] = Instr::new(InstrKind::Return(Some(bad_sum)), Loc::NONE);
        body(&mut fx, main).insert(3, Instr::new(InstrKind::Assume(x), Loc::NONE));
        assert_eq!(
            errors(&fx),
            [
                "fn main, instr 3: condition `x` has type int32, not bool",
                "fn main, instr 4: in `x + 1i64`: Add of int32 and int64 giving int32",
            ]
        );
    }

    #[test]
    fn rejects_wrong_arity_and_non_lvalue_targets() {
        let mut fx = fixture();
        let (int, main, f) = (fx.int, fx.main, fx.f);
        let callee = Expr::sym(fx.program.functions[f].symbol, fx.program.functions[f].ty);
        let call = InstrKind::Call { lhs: Some(Expr::int(0, int)), callee, args: vec![] };
        body(&mut fx, main)[1] = Instr::new(call, Loc::NONE);
        assert_eq!(
            errors(&fx),
            [
                "fn main, instr 1: call result target `0i32` is not an lvalue",
                "fn main, instr 1: call of `f` with 0 arguments, expected 1",
            ]
        );
    }

    #[test]
    fn rejects_foreign_locals_missing_symbols_and_bad_returns() {
        let mut fx = fixture();
        let (x, int, f) = (fx.x.clone(), fx.int, fx.f);
        body(&mut fx, f)[0] = Instr::new(InstrKind::Return(Some(x)), Loc::NONE);
        let file = fx.program.files.intern("t.c");
        let ghost = Expr::sym(crate::program::SymbolId(999), int);
        body(&mut fx, f)
            .insert(0, Instr::new(InstrKind::Assign(ghost, Expr::int(1, int)), Loc { file, line: 7, col: 3 }));
        body(&mut fx, f).push(Instr::new(InstrKind::Return(None), Loc::NONE));
        assert_eq!(
            errors(&fx),
            [
                "fn f, instr 0 (t.c:7): in `<unknown symbol>`: symbol sym999 does not exist",
                "fn f, instr 1: in `x`: `main::x` is a local of another function",
                "fn f, instr 2: return without a value from a function returning int32",
            ]
        );
    }

    #[test]
    fn rejects_bodies_that_fall_off_the_end_and_bad_assert_conditions() {
        let mut fx = fixture();
        let (x, main) = (fx.x.clone(), fx.main);
        let property = Property { class: PropertyClass::UserAssertion, message: "x".into() };
        body(&mut fx, main)[3] = Instr::new(InstrKind::Assert(x, property), Loc::NONE);
        assert_eq!(
            errors(&fx),
            [
                "fn main, instr 3: condition `x` has type int32, not bool",
                "fn main: control can run past the last instruction",
            ]
        );
    }

    #[test]
    fn rejects_the_address_of_a_bit_field() {
        let mut fx = fixture();
        let (int, main) = (fx.int, fx.main);
        let comp = fx.program.types.composites.push(crate::types::Composite {
            kind: CompositeKind::Struct,
            name: "B".into(),
            fields: vec![crate::types::Field { name: "f".into(), ty: int, offset_bits: 0, bit_width: Some(3) }],
            size: 4,
            align: 4,
            complete: true,
        });
        let b_ty = fx.program.types.intern(Type::Composite(comp));
        let int_ptr = fx.program.types.pointer_to(int);
        let ptr_var = fx.program.add_local(main, "q", int_ptr, Loc::NONE);
        let b_var = fx.program.add_local(main, "b", b_ty, Loc::NONE);
        let field = Expr::new(ExprKind::Member(Box::new(Expr::sym(b_var, b_ty)), 0), int);
        let address = Expr::new(ExprKind::AddrOf(Box::new(field)), int_ptr);
        body(&mut fx, main).insert(0, Instr::new(InstrKind::Assign(Expr::sym(ptr_var, int_ptr), address), Loc::NONE));
        assert_eq!(errors(&fx), ["fn main, instr 0: in `&b.f`: address of a bit-field"]);
    }

    #[test]
    fn rejects_out_of_range_types_without_panicking() {
        let mut fx = fixture();
        let main = fx.main;
        body(&mut fx, main)[3] = Instr::new(InstrKind::Return(Some(Expr::int(0, TypeId(4242)))), Loc::NONE);
        assert_eq!(errors(&fx), ["fn main, instr 3: an expression has the missing type ty4242"]);
    }
}
