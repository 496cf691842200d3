//! The environment a program starts in: the entry function's arguments,
//! built as the interpreter builds them (`ir::interp`, its `environment`
//! module) so that counterexamples replay.
//!
//! A hosted `main(int argc, char **argv[, char **envp])` gets `argc >= 1`
//! and, in `argv`, `argc` pointers to fresh NUL-terminated strings and a
//! final NULL (C11 5.1.2.2.1); `envp` is an empty NULL-terminated array.
//! Symex models at most [`MODELLED_ARGC`] strings of at most
//! [`MODELLED_ARG_LEN`] characters: a path that reads `argv` (or takes its
//! address) assumes from there on that `argc` fits, which is recorded as an
//! approximation (a TRUE verdict is then unsafe); the lengths are bounded
//! from the start, which is exact while `argv` is not read because nothing
//! else reaches the strings. `argc` alone is exact; a counterexample should still
//! ask for no more arguments than the interpreter provides
//! ([`ir::interp::MAX_ARGC`]), which the engine tries first
//! ([`crate::Equation::preferences`]).
//! Pointer parameters of any other entry function are unconstrained, and
//! reading one is an approximation.

use crate::equation::InputKind;
use crate::exec::Symex;
use crate::memory::{ObjectId, ObjectKind};
use crate::Result;
use ir::{FuncId, SymbolId};
use smt::TermId;

/// Command-line arguments symex builds strings for.
pub const MODELLED_ARGC: u64 = 4;
/// Longest command-line argument symex models.
pub const MODELLED_ARG_LEN: u64 = 16;

/// The hosted `main`'s command line, as terms.
#[derive(Clone, Debug)]
pub(crate) struct CommandLine {
    argc: TermId,
    argc_signed: bool,
    /// `argv`, and `envp` when `main` has it.
    arrays: Vec<SymbolId>,
    /// Set once a path has read `argv`.
    bounded: bool,
}

impl Symex<'_> {
    /// The values of the entry function's parameters.
    pub(crate) fn entry_arguments(&mut self, entry: FuncId) -> Result<Vec<TermId>> {
        let params = self.program.functions[entry].params.clone();
        if self.program.is_hosted_main(entry) {
            return self.command_line(&params);
        }
        let mut values = Vec::new();
        for p in params {
            let sym = &self.program.symbols[p];
            self.loc = sym.loc;
            if self.program.types.is_pointer(sym.ty) {
                self.entry_pointer_params.insert(p);
            }
            let name = sym.display_name.clone();
            values.push(self.fresh(&name, sym.ty, InputKind::EntryArgument(name.clone()))?);
        }
        Ok(values)
    }

    fn command_line(&mut self, params: &[SymbolId]) -> Result<Vec<TermId>> {
        let argc_sym = &self.program.symbols[params[0]];
        self.loc = argc_sym.loc;
        let name = argc_sym.display_name.clone();
        let argc = self.fresh(&name, argc_sym.ty, InputKind::EntryArgument(name.clone()))?;
        let width = self.store.sort(argc).bv_width().expect("argc is an integer");
        let signed = self.program.types.is_signed(argc_sym.ty);
        let one = self.store.bv_u64(width, 1);
        let positive = crate::arith::compare(self.store, ir::BinOp::Ge, argc, one, signed);
        self.assume(positive);
        let max = self.store.bv_u64(width, ir::interp::MAX_ARGC);
        let replayable = crate::arith::compare(self.store, ir::BinOp::Le, argc, max, signed);
        self.equation.preferences.push(replayable);

        let pointer_bytes = u64::from(self.layout.pointer_bits / 8);
        let mut slots = Vec::new();
        for index in 0..MODELLED_ARGC {
            let present = self.argc_above(argc, index, signed);
            let pointer = self.argument_string(index, present)?;
            let null = self.layout.null(self.store);
            slots.push(self.store.ite(present, pointer, null));
        }
        let null = self.layout.null(self.store);
        slots.push(null);
        let (argv_object, argv) = self.pointer_array("argv", &slots)?;
        let wide_argc = crate::repr::resize(self.store, argc, self.layout.wide_bits(), signed);
        let wide_one = self.store.bv_u64(self.layout.wide_bits(), 1);
        let count = self.store.bv_add(wide_argc, wide_one);
        let slot_size = self.store.bv_u64(self.layout.wide_bits(), pointer_bytes);
        let size = self.store.bv_mul(count, slot_size);
        self.objects.set_symbolic_size(argv_object, size);
        let mut values = vec![argc, argv];
        if params.len() == 3 {
            values.push(self.pointer_array("envp", &[null])?.1);
        }
        self.command_line = Some(CommandLine { argc, argc_signed: signed, arrays: params[1..].to_vec(), bounded: false });
        Ok(values)
    }

    /// `argc > index` for the `argc` term.
    fn argc_above(&mut self, argc: TermId, index: u64, signed: bool) -> TermId {
        let width = self.store.sort(argc).bv_width().expect("argc is an integer");
        let index = self.store.bv_u64(width, index);
        crate::arith::compare(self.store, ir::BinOp::Gt, argc, index, signed)
    }

    /// A fresh string `argv[index]` of input length (at most
    /// [`MODELLED_ARG_LEN`]) and contents, both inputs only when the
    /// argument exists (as the interpreter asks for them).
    fn argument_string(&mut self, index: u64, present: TermId) -> Result<TermId> {
        let name = format!("argv[{index}]");
        let capacity = MODELLED_ARG_LEN + 1;
        let object = self.objects.add(ObjectKind::Environment, name.clone(), capacity);
        let saved = self.state.guard;
        self.state.guard = self.store.and2(saved, present);
        let length = self.store.var(&format!("strlen({name})"), smt::Sort::BitVec(32));
        self.record_input(length, None, InputKind::EntryArgument(format!("strlen({name})")));
        let contents = self.store.var(&name, smt::Sort::BitVec((capacity * 8) as u32));
        self.record_input(contents, None, InputKind::EntryArgument(name));
        self.state.guard = saved;
        let longest = self.store.bv_u64(32, MODELLED_ARG_LEN);
        let fits = self.store.bv_ule(length, longest);
        self.assume(fits);
        let wide_length = self.store.zero_extend(self.layout.wide_bits() - 32, length);
        let eight = self.store.bv_u64(self.layout.wide_bits(), 8);
        let terminator_bit = self.store.bv_mul(wide_length, eight);
        let nul = self.store.bv_u64(8, 0);
        let value = self.insert_bits(contents, terminator_bit, nul)?;
        self.state.set_value(object, value);
        let one = self.store.bv_u64(self.layout.wide_bits(), 1);
        let size = self.store.bv_add(wide_length, one);
        self.objects.set_symbolic_size(object, size);
        self.address_of_object(object)
    }

    /// A fresh array object holding the pointers `slots`, and its address.
    fn pointer_array(&mut self, name: &str, slots: &[TermId]) -> Result<(ObjectId, TermId)> {
        let pointer_bytes = u64::from(self.layout.pointer_bits / 8);
        let object = self.objects.add(ObjectKind::Environment, name.to_string(), pointer_bytes * slots.len() as u64);
        let mut value = slots[0];
        for &slot in &slots[1..] {
            value = self.store.concat(slot, value);
        }
        self.state.set_value(object, value);
        Ok((object, self.address_of_object(object)?))
    }

    /// Called when `symbol` is read or its address taken: from there on,
    /// the path assumes that the arguments fit the model.
    pub(crate) fn reading_command_line(&mut self, symbol: SymbolId) {
        let Some(line) = &self.command_line else { return };
        if !line.arrays.contains(&symbol) {
            return;
        }
        let (argc, signed, first) = (line.argc, line.argc_signed, !line.bounded);
        let beyond = self.argc_above(argc, MODELLED_ARGC, signed);
        let fits = self.store.not(beyond);
        self.assume(fits);
        if !first {
            return;
        }
        self.approximate(
            format!("the command line is modelled with at most {MODELLED_ARGC} arguments of at most {MODELLED_ARG_LEN} characters"),
            true,
        );
        if let Some(line) = &mut self.command_line {
            line.bounded = true;
        }
    }
}
