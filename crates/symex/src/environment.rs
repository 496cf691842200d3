//! The environment a program starts in and reads from: the entry
//! function's arguments and the strings of the environment (`getenv`),
//! built as the interpreter builds them (`ir::interp`, its `environment`
//! module) so that counterexamples replay.
//!
//! A hosted `main(int argc, char **argv[, char **envp])` gets
//! `1 <= argc <= ir::interp::MAX_ARGC` (an `argc` of a type too narrow for
//! that bound gets any value of its type: the count converted) and, in
//! `argv`, `argc` pointers to
//! fresh NUL-terminated strings and a final NULL (C11 5.1.2.2.1); `envp`
//! is an empty NULL-terminated array. Each string is a byte-array object of
//! input length up to [`ir::interp::MAX_ARG_LEN`] (Linux's
//! `MAX_ARG_STRLEN` less the NUL) and input contents, so its size is exact
//! and costs no more than the bytes the program reads. The first
//! [`EXACT_ARGC`] slots of `argv` hold such strings; an access to a later
//! slot that exists (`argc` larger) is an approximation on the paths where
//! it can happen, and only there. A counterexample should still stay
//! within the exact slots, which the engine tries first
//! ([`crate::Equation::preferences`]).
//! A pointer parameter of any other entry function that points to data
//! without pointers is NULL or the start of a fresh array of input length
//! and contents (as the interpreter builds it: CBMC's and ESBMC's
//! `--function` harnesses give such a parameter a fresh object); other
//! pointer parameters are unconstrained, and reading one is an
//! approximation.

use crate::equation::{Approximation, InputKind};
use crate::exec::Symex;
use crate::memory::{ObjectId, ObjectKind};
use crate::Result;
use ir::{FuncId, SymbolId};
use smt::TermId;

/// Command-line arguments symex builds exact strings for.
pub const EXACT_ARGC: u64 = 4;

/// The hosted `main`'s command line, as terms.
#[derive(Clone, Debug)]
pub(crate) struct CommandLine {
    argc: TermId,
    argc_signed: bool,
    /// `argc`'s type cannot hold every count: `argc` is the count
    /// converted, and `argv` is not modelled exactly.
    narrow: bool,
    /// The `argv` array: its exact slots, then slots it does not model.
    argv: ObjectId,
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
            let (name, ty) = (sym.display_name.clone(), sym.ty);
            let model = self.program.data_model;
            let element = self.program.types.pointee(ty).and_then(|pointee| self.program.types.entry_pointee_size(pointee, model));
            if let Some(element) = element {
                values.push(self.entry_pointer(&name, element)?);
                continue;
            }
            if self.program.types.is_pointer(ty) {
                self.entry_pointer_params.insert(p);
            }
            values.push(self.fresh(&name, ty, InputKind::EntryArgument(name.clone()))?);
        }
        Ok(values)
    }

    /// Pointer parameter `name` to elements of `element` bytes: NULL or the
    /// start of a fresh array of one to
    /// [`ir::interp::MAX_ENTRY_OBJECT_BYTES`]` / element` elements.
    fn entry_pointer(&mut self, name: &str, element: u64) -> Result<TermId> {
        let is_null = self.store.var(&format!("{name} == NULL"), smt::Sort::Bool);
        self.record_input(is_null, None, InputKind::EntryArgument(format!("{name} == NULL")));
        let saved = self.state.guard;
        let not_null = self.store.not(is_null);
        self.state.guard = self.store.and2(saved, not_null);
        let count = self.store.var(&format!("elements of *{name}"), smt::Sort::BitVec(32));
        self.record_input(count, None, InputKind::EntryArgument(format!("elements of *{name}")));
        let wide = self.layout.wide_bits();
        let wide_count = self.store.zero_extend(wide - 32, count);
        let element_size = self.store.bv_u64(wide, element);
        let size = self.store.bv_mul(wide_count, element_size);
        let object_name = format!("*{name}");
        let object = self.add_object(ObjectKind::Environment, object_name.clone(), size)?;
        let sort = self.objects.get(object).value_sort(self.store);
        let contents = self.store.var(&object_name, sort);
        self.record_input(contents, None, InputKind::EntryArgument(object_name));
        self.state.guard = saved;
        let one = self.store.bv_u64(32, 1);
        let most = self.store.bv_u64(32, ir::interp::MAX_ENTRY_OBJECT_BYTES / element);
        let low = self.store.bv_ule(one, count);
        let high = self.store.bv_ule(count, most);
        let fits = self.store.and2(low, high);
        self.assume(fits);
        self.set_initial_value(object, contents);
        let pointer = self.address_of_object(object)?;
        let null = self.layout.null(self.store);
        Ok(self.store.ite(is_null, null, pointer))
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
        // An `argc` of a type that cannot hold every count Linux gives
        // (`unsigned char argc`) receives the count converted: any value
        // of its type. Its `argv` is then not modelled exactly.
        let narrow = u64::from(width) < 64 && ir::interp::MAX_ARGC >> (width - u32::from(signed)) != 0;
        if narrow {
            self.equation.preferences.push(positive);
        } else {
            let max = self.store.bv_u64(width, ir::interp::MAX_ARGC);
            let possible = crate::arith::compare(self.store, ir::BinOp::Le, argc, max, signed);
            let possible = self.store.and2(positive, possible);
            self.assume(possible);
        }
        let exact = self.store.bv_u64(width, EXACT_ARGC);
        let within_exact_slots = crate::arith::compare(self.store, ir::BinOp::Le, argc, exact, signed);
        self.equation.preferences.push(within_exact_slots);

        let pointer_bytes = u64::from(self.layout.pointer_bits / 8);
        let mut slots = Vec::new();
        for index in 0..EXACT_ARGC {
            let present = self.argc_above(argc, index, signed);
            let name = format!("argv[{index}]");
            let pointer = self.environment_string(&name, present, InputKind::EntryArgument)?;
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
        self.command_line = Some(CommandLine { argc, argc_signed: signed, narrow, argv: argv_object });
        Ok(values)
    }

    /// `argc > index` for the `argc` term.
    fn argc_above(&mut self, argc: TermId, index: u64, signed: bool) -> TermId {
        let width = self.store.sort(argc).bv_width().expect("argc is an integer");
        let index = self.store.bv_u64(width, index);
        crate::arith::compare(self.store, ir::BinOp::Gt, argc, index, signed)
    }

    /// A fresh string `name` of input length (at most
    /// [`ir::interp::MAX_ARG_LEN`]) and contents, NUL-terminated, and its
    /// address; both inputs are asked for (tagged by `kind`) only where
    /// `exists` holds, as the interpreter asks for them.
    pub(crate) fn environment_string(&mut self, name: &str, exists: TermId, kind: fn(String) -> InputKind) -> Result<TermId> {
        let saved = self.state.guard;
        self.state.guard = self.store.and2(saved, exists);
        let length = self.store.var(&format!("strlen({name})"), smt::Sort::BitVec(32));
        self.record_input(length, None, kind(format!("strlen({name})")));
        let wide_length = self.store.zero_extend(self.layout.wide_bits() - 32, length);
        let one = self.store.bv_u64(self.layout.wide_bits(), 1);
        let size = self.store.bv_add(wide_length, one);
        let object = self.add_object(ObjectKind::Environment, name.to_string(), size)?;
        let sort = self.objects.get(object).value_sort(self.store);
        let contents = self.store.var(name, sort);
        self.record_input(contents, None, kind(name.to_string()));
        self.state.guard = saved;
        let longest = self.store.bv_u64(32, ir::interp::MAX_ARG_LEN);
        let fits = self.store.bv_ule(length, longest);
        self.assume(fits);
        let eight = self.store.bv_u64(self.layout.wide_bits(), 8);
        let terminator_bit = self.store.bv_mul(wide_length, eight);
        let nul = self.store.bv_u64(8, 0);
        let value = self.write_object_bits(object, contents, terminator_bit, nul)?;
        self.set_initial_value(object, value);
        self.environment_strings.insert(object, value);
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
        self.write_object(object, value);
        for (index, &slot) in slots.iter().enumerate() {
            let at = self.store.bv_u64(self.layout.wide_bits(), index as u64 * pointer_bytes * 8);
            self.note_pointer_store(object, at, slot);
        }
        Ok((object, self.address_of_object(object)?))
    }

    /// Called for an access of `width` bits (a wide term) at `bit_offset`
    /// into `object` (where `reaches` holds): an access to an `argv` slot
    /// past the exact ones that exists is an approximation wherever it can
    /// happen.
    pub(crate) fn accessing_environment(&mut self, object: ObjectId, bit_offset: TermId, width: TermId, reaches: TermId) {
        let Some(line) = &self.command_line else { return };
        if line.argv != object {
            return;
        }
        let (argc, signed) = (line.argc, line.argc_signed);
        if line.narrow {
            let condition = self.store.and2(self.state.guard, reaches);
            let what = "`main`'s argc has a type narrower than the argument count, and argv is accessed".to_string();
            let approximation = Approximation { what, loc: self.loc, affects_true: true };
            self.equation.conditional_approximations.push((condition, approximation));
            return;
        }
        let wide = self.layout.wide_bits();
        let slot_bits = u64::from(self.layout.pointer_bits);
        let exact_end = self.store.bv_u64(wide, EXACT_ARGC * slot_bits);
        let end = self.store.bv_add(bit_offset, width);
        let past_exact = self.store.bv_slt(exact_end, end);
        let wide_argc = crate::repr::resize(self.store, argc, wide, signed);
        let slot_width = self.store.bv_u64(wide, slot_bits);
        let arguments_end = self.store.bv_mul(wide_argc, slot_width);
        let before_null = self.store.bv_slt(bit_offset, arguments_end);
        let condition = self.store.and(&[self.state.guard, reaches, past_exact, before_null]);
        if self.store.is_false(condition) {
            return;
        }
        let what = format!("the command line is modelled exactly for its first {EXACT_ARGC} arguments, and a later one is accessed");
        let approximation = Approximation { what, loc: self.loc, affects_true: true };
        self.equation.conditional_approximations.push((condition, approximation));
    }
}
