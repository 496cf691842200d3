//! Which body-less functions are the program's environment: functions the
//! program declares (or calls undeclared) but nobody defines, and that are
//! not C library functions. Such a function stands for any implementation,
//! so a counterexample in which it returns a value and does nothing else is
//! a real one; a library function's behaviour is fixed by the library, so a
//! nondeterministic result for it is only an approximation. Symex and the
//! interpreter ask the same questions here, so a replay runs a call of the
//! environment as symex did.

use crate::program::{FuncId, Program};
use crate::types::Type;

/// The functions of glibc 2.36 (x86-64), one per line, sorted: those libc
/// and libm export (`nm -D --defined-only`) and those glibc's headers
/// declare (`gcc -aux-info` over every header of libc6-dev, with
/// `_GNU_SOURCE`), which adds the ones that live in `libc_nonshared.a`
/// (`atexit`, `stat`) or are inline (`gnu_dev_major`).
const GLIBC_FUNCTIONS: &str = include_str!("glibc_functions.txt");

/// Whether the body-less function `name`, declared in the file
/// `declared_in`, is the program's own external function rather than a
/// library one: not a glibc or GCC built-in name, not a tarsier marker,
/// and declared in the program's sources rather than a system header or a
/// library model.
pub fn is_program_external(name: &str, declared_in: &str) -> bool {
    let reserved = ["__builtin_", "__tarsier_", "__ESBMC_", "__CPROVER_", "__VERIFIER_"].iter().any(|p| name.starts_with(p));
    let system = declared_in.starts_with("/usr/")
        || declared_in.starts_with(crate::LIBRARY_MODEL_DIR)
        || declared_in.contains("tarsier-model-headers-");
    !reserved && !system && !is_glibc_function(name)
}

/// Whether a call of the body-less function `name` with `args` is only a
/// source of a nondeterministic value (`__VERIFIER_nondet_int()`,
/// `nondet_x()`): a nondet-named function that takes a pointer may fill
/// memory through it, so it is a call like any other body-less one
/// (`__VERIFIER_nondet_memory(p, n)`, a program's `nondet_fill(&x)`).
/// Instrumentation and the interpreter classify calls by this one rule.
pub fn is_nondet_value_call(program: &Program, name: &str, args: &[crate::Expr]) -> bool {
    let takes_pointer = args.iter().any(|a| matches!(program.types.get(a.ty), Type::Pointer(_)));
    ["__VERIFIER_nondet", "nondet_", "__ESBMC_nondet", "__CPROVER_nondet"].iter().any(|p| name.starts_with(p)) && !takes_pointer
}

/// Whether glibc defines or declares a function named `name`.
pub fn is_glibc_function(name: &str) -> bool {
    GLIBC_FUNCTIONS.lines().any(|known| known == name)
}

/// Whether `func` is the program's own external function (see
/// [`is_program_external`]) returning no pointer: any value it returns is
/// one some implementation returns, and the replay takes that value as an
/// input, so a violation through it is real. Only scalar results qualify:
/// a returned pointer would be an address of the model's layout, which no
/// implementation can know.
pub fn is_environment_function(program: &Program, func: FuncId) -> bool {
    let function = &program.functions[func];
    let returns_scalar = match program.types.get(function.ty) {
        Type::Function(sig) => matches!(program.types.get(sig.ret), Type::Void | Type::Bool | Type::Int { .. } | Type::Float(_)),
        _ => false,
    };
    !function.loc.is_none() && returns_scalar && is_program_external(&function.name, program.files.name(function.loc.file))
}

/// The arguments (by index) whose targets a call of the environment
/// function overwrites: pointers to data (not to functions), each target
/// object getting arbitrary bytes as `__ESBMC_init_object` gives them.
/// The environment is taken to write only there: it calls no function
/// pointer it is given and writes through no pointer it finds in those
/// objects (see [`environment_writes_are_exact`]).
pub fn environment_written_arguments<'e>(program: &'e Program, args: &'e [crate::Expr]) -> impl Iterator<Item = usize> + 'e {
    args.iter().enumerate().filter(|(_, a)| program.types.pointee(a.ty).is_some_and(|t| !is_function(program, t))).map(|(i, _)| i)
}

/// Whether havocking the targets of the data-pointer arguments covers
/// everything the environment function can do to the program's state
/// through `args`: no argument is a function pointer (a callback it might
/// call) and no data pointer's target type holds a pointer (through which
/// it might write further objects; `void` and incomplete types count as
/// holding pointers).
pub fn environment_writes_are_exact(program: &Program, args: &[crate::Expr]) -> bool {
    args.iter().all(|a| match program.types.pointee(a.ty) {
        None => !program.types.holds_pointer(a.ty, true),
        Some(pointee) => !program.types.holds_pointer(pointee, true),
    })
}

fn is_function(program: &Program, ty: crate::TypeId) -> bool {
    matches!(program.types.get(ty), Type::Function(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_names_and_system_headers_are_not_the_programs() {
        assert!(is_program_external("nd", "main.c"));
        assert!(is_program_external("__builtin", "/work/task/main.c"));
        assert!(!is_program_external("fclose", "main.c"));
        assert!(!is_program_external("__fpending", "main.c"));
        assert!(!is_program_external("cos", "main.c"));
        assert!(!is_program_external("atexit", "main.c"));
        assert!(!is_program_external("__builtin_popcount", "main.c"));
        assert!(!is_program_external("helper", "/usr/include/stdio.h"));
        assert!(!is_program_external("helper", &format!("{}/stdio.c", crate::LIBRARY_MODEL_DIR)));
    }

}
