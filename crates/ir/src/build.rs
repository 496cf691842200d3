//! Helpers that add symbols and functions to a [`Program`] while keeping
//! its tables consistent (symbol kind, function index, parameter locals).
//! Used by hand-written IR in tests and by passes that synthesise code.

use crate::loc::Loc;
use crate::program::{FuncId, Function, Program, Symbol, SymbolId, SymbolKind};
use crate::types::{FnSig, Type, TypeId};

impl Program {
    /// Adds a symbol; its display name is the last `::` component of `name`.
    pub fn add_symbol(&mut self, name: &str, ty: TypeId, kind: SymbolKind, loc: Loc) -> SymbolId {
        let display_name = name.rsplit("::").next().unwrap_or(name).to_string();
        self.symbols.push(Symbol { name: name.to_string(), display_name, ty, kind, thread_local: false, read_only: false, align: 0, trailing_bytes: 0, loc })
    }

    pub fn add_global(&mut self, name: &str, ty: TypeId, loc: Loc) -> SymbolId {
        self.add_symbol(name, ty, SymbolKind::Global, loc)
    }

    /// Adds a local variable of `func`, named `function::name`.
    pub fn add_local(&mut self, func: FuncId, name: &str, ty: TypeId, loc: Loc) -> SymbolId {
        let qualified = format!("{}::{name}", self.functions[func].name);
        self.add_symbol(&qualified, ty, SymbolKind::Local(func), loc)
    }

    /// Declares a prototyped function without a body, with one local per
    /// parameter; give it a body with [`Program::set_body`].
    pub fn declare_function(
        &mut self,
        name: &str,
        ret: TypeId,
        params: &[(&str, TypeId)],
        variadic: bool,
        loc: Loc,
    ) -> FuncId {
        let sig = FnSig { ret, params: params.iter().map(|p| p.1).collect(), variadic, unprototyped: false };
        let ty = self.types.intern(Type::Function(sig));
        let func = FuncId(self.functions.len() as u32);
        let symbol = self.add_symbol(name, ty, SymbolKind::Function(func), loc);
        let pushed =
            self.functions.push(Function { name: name.to_string(), symbol, ty, params: vec![], body: None, variadic_area: None, loc });
        debug_assert_eq!(pushed, func);
        self.function_index.insert(name.to_string(), func);
        let param_syms = params.iter().map(|(pname, pty)| self.add_local(func, pname, *pty, loc)).collect();
        self.functions[func].params = param_syms;
        func
    }

    pub fn set_body(&mut self, func: FuncId, body: Vec<crate::instr::Instr>) {
        self.functions[func].body = Some(body);
    }
}
