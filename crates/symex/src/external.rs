//! Which body-less functions are the program's environment: functions the
//! program declares (or calls undeclared) but nobody defines, and that are
//! not C library functions. Such a function stands for any implementation,
//! so a counterexample in which it returns a value and does nothing else is
//! a real one; a library function's behaviour is fixed by the library, so a
//! nondeterministic result for it is only an approximation.

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
pub(crate) fn is_program_external(name: &str, declared_in: &str) -> bool {
    let reserved = ["__builtin_", "__tarsier_", "__ESBMC_", "__CPROVER_", "__VERIFIER_"].iter().any(|p| name.starts_with(p));
    let system = declared_in.starts_with("/usr/")
        || declared_in.starts_with(ir::LIBRARY_MODEL_DIR)
        || declared_in.contains("tarsier-model-headers-");
    !reserved && !system && !GLIBC_FUNCTIONS.lines().any(|known| known == name)
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
        assert!(!is_program_external("helper", &format!("{}/stdio.c", ir::LIBRARY_MODEL_DIR)));
    }

}
