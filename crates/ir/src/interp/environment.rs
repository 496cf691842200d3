//! The environment a program starts in and reads from: the arguments of
//! the entry function and the strings of the environment. A C
//! `main(int argc, char **argv[, char **envp])` gets what Linux can give:
//! `1 <= argc <= MAX_ARGC` (other input values violate the environment
//! assumption, and so do more than `REPLAYED_ARGC`), `argv` an array of `argc` string pointers and a final
//! NULL, each string of an input length (at most `MAX_ARG_LEN`) and input
//! contents (named `argv[i]`), NUL-terminated; `envp` an empty
//! NULL-terminated array. Parameters of any other entry function are
//! inputs; a pointer to data without pointers is NULL or the start of a
//! fresh array of one to `MAX_ENTRY_OBJECT_BYTES / size` elements of
//! input contents (named `*p`), as CBMC's and ESBMC's `--function`
//! harnesses give a fresh object. `getenv` finds no variable or a fresh
//! string like an argument.

use super::exec::{Flow, Machine};
use super::memory::{Bytes, ObjectKind, Pointer};
use super::value::{sign_extend, Value};
use super::{InputKind, Outcome};
use crate::program::FuncId;
use crate::types::TypeId;

/// Largest `argc` the environment provides: Linux keeps the argument
/// pointers and strings (at least one byte each) within 6 MiB (fs/exec.c,
/// `_STK_LIM / 4 * 3`), fewer than 2^21 arguments even with 4-byte pointers.
pub const MAX_ARGC: u64 = 1 << 21;
/// Largest `argc` a replay builds (each argument is an object and two
/// inputs): a counterexample with more is not confirmed, as if the
/// environment could not give it.
const REPLAYED_ARGC: i128 = 1 << 12;
/// Largest object a pointer parameter of a non-`main` entry function
/// points to (the harness's choice: large enough for any bounded loop over
/// it, small enough to replay).
pub const MAX_ENTRY_OBJECT_BYTES: u64 = 1 << 20;
/// Longest command-line argument or environment string: Linux's
/// `MAX_ARG_STRLEN` (32 pages) less the NUL.
pub const MAX_ARG_LEN: u64 = 32 * 4096 - 1;

impl Machine<'_> {
    /// The values of the entry function's parameters.
    pub(super) fn entry_arguments(&mut self, entry: FuncId) -> Flow<Vec<Value>> {
        let params: Vec<(String, TypeId)> = self.program.functions[entry]
            .params
            .iter()
            .map(|p| (self.program.symbols[*p].display_name.clone(), self.program.symbols[*p].ty))
            .collect();
        if !self.program.is_hosted_main(entry) {
            return params.into_iter().map(|(name, ty)| self.entry_parameter(name, ty)).collect();
        }
        let (argc_name, argc_ty) = params[0].clone();
        let argc_value = self.input(InputKind::EntryArgument(argc_name), argc_ty)?;
        let (width, _) = self.int_type(argc_ty).unwrap_or((32, true));
        let argc = sign_extend(self.scalar(&argc_value)?, width);
        if !(1..=i128::from(MAX_ARGC).min(REPLAYED_ARGC)).contains(&argc) {
            return Err(Outcome::AssumptionViolated { loc: self.program.functions[entry].loc });
        }
        let strings = (0..argc).map(|i| self.argument_string(i)).collect::<Flow<Vec<Pointer>>>()?;
        let argv = self.pointer_array("argv", &strings)?;
        let mut values = vec![argc_value, Value::Ptr(argv)];
        if params.len() == 3 {
            values.push(Value::Ptr(self.pointer_array("envp", &[])?));
        }
        Ok(values)
    }

    /// The value of parameter `name` of a non-`main` entry function.
    fn entry_parameter(&mut self, name: String, ty: TypeId) -> Flow<Value> {
        let model = self.program.data_model;
        let element = self.program.types.pointee(ty).and_then(|pointee| self.program.types.entry_pointee_size(pointee, model));
        let Some(element) = element else {
            return self.input(InputKind::EntryArgument(name), ty);
        };
        if self.request_input(InputKind::EntryArgument(format!("{name} == NULL")), None, 1)?[0] != 0 {
            return Ok(Value::Ptr(Pointer::NULL));
        }
        let count = self.request_input(InputKind::EntryArgument(format!("elements of *{name}")), None, 4)?;
        let count = u64::from(u32::from_le_bytes([count[0], count[1], count[2], count[3]]));
        if count == 0 || count > MAX_ENTRY_OBJECT_BYTES / element {
            let entry = self.program.entry.expect("running the entry function");
            return Err(Outcome::AssumptionViolated { loc: self.program.functions[entry].loc });
        }
        let object_name = format!("*{name}");
        let object = self.allocate(object_name.clone(), ObjectKind::Environment, count * element)?;
        let contents = self.request_input(InputKind::EntryArgument(object_name), None, count * element)?;
        self.memory.write(Pointer { object, offset: 0 }, &Bytes::from_data(contents)).map_err(|e| self.access_error(e))?;
        Ok(Value::Ptr(Pointer { object, offset: 0 }))
    }

    /// `argv[index]`.
    fn argument_string(&mut self, index: i128) -> Flow<Pointer> {
        let entry = self.program.entry.expect("running the entry function");
        let loc = self.program.functions[entry].loc;
        self.environment_string(&format!("argv[{index}]"), InputKind::EntryArgument, loc)
    }

    /// A fresh NUL-terminated string `name` of input length (at most
    /// [`MAX_ARG_LEN`]) and contents, both asked for as `kind` (a longer
    /// length violates the environment assumption at `loc`).
    pub(super) fn environment_string(&mut self, name: &str, kind: fn(String) -> InputKind, loc: crate::loc::Loc) -> Flow<Pointer> {
        let len_bytes = self.request_input(kind(format!("strlen({name})")), None, 4)?;
        let len = u64::from(u32::from_le_bytes([len_bytes[0], len_bytes[1], len_bytes[2], len_bytes[3]]));
        if len > MAX_ARG_LEN {
            return Err(Outcome::AssumptionViolated { loc });
        }
        let object = self.allocate(name.to_string(), ObjectKind::Environment, len + 1)?;
        let mut contents = self.request_input(kind(name.to_string()), None, len + 1)?;
        contents[len as usize] = 0;
        self.memory.write(Pointer { object, offset: 0 }, &Bytes::from_data(contents)).map_err(|e| self.access_error(e))?;
        Ok(Pointer { object, offset: 0 })
    }

    /// A fresh array holding `pointers` and a final NULL.
    fn pointer_array(&mut self, name: &str, pointers: &[Pointer]) -> Flow<Pointer> {
        let width = self.memory.pointer_bytes();
        let mut bytes = Bytes::zeroed(((pointers.len() as u64 + 1) * width) as usize);
        for (i, p) in pointers.iter().enumerate() {
            let mut slot = Bytes::from_u128(u128::from(self.memory.address_of(*p)), width);
            slot.pointers.insert(0, (*p, width));
            bytes.write(i as u64 * width, &slot);
        }
        let object = self.allocate(name.to_string(), ObjectKind::Environment, bytes.len())?;
        let start = Pointer { object, offset: 0 };
        self.memory.write(start, &bytes).map_err(|e| self.access_error(e))?;
        Ok(start)
    }
}
