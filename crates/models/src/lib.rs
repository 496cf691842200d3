//! models: tarsier's C library models, written in C.
//!
//! Each model file under `c/` is one translation unit that the front end
//! (`cfront`) compiles together with the program, without the system
//! preprocessor: the files use no directives, and the types they share with
//! the C library (`size_t`, `time_t`, …) come from a prelude chosen by the
//! data model, so their declarations match glibc's in ILP32 and LP64 alike.
//! The front end links a model only when the program calls the function
//! and does not define it (see `cfront::library_models`).
//!
//! `malloc`, `calloc`, `realloc`, `free`, `alloca`, `memcpy`, `memmove`,
//! `memset`, `exit` and `abort` are not here: symex and the interpreter
//! implement them (a C byte loop would unroll per byte).

use ir::DataModel;

/// (file name, C text) of every model translation unit.
pub const UNITS: &[(&str, &str)] = &[
    ("string.c", include_str!("../c/string.c")),
    ("stdlib.c", include_str!("../c/stdlib.c")),
    ("ctype.c", include_str!("../c/ctype.c")),
    ("stdio.c", include_str!("../c/stdio.c")),
    ("unistd.c", include_str!("../c/unistd.c")),
    ("time.c", include_str!("../c/time.c")),
    ("locale.c", include_str!("../c/locale.c")),
    ("math.c", include_str!("../c/math.c")),
    ("fenv.c", include_str!("../c/fenv.c")),
    ("pthread.c", include_str!("../c/pthread.c")),
    ("wchar.c", include_str!("../c/wchar.c")),
];

/// The library types the models use, as glibc defines them for `model`.
pub fn prelude(model: DataModel) -> &'static str {
    match model {
        DataModel::ILP32 => "typedef unsigned int size_t; typedef long time_t; typedef long wchar_t;\n",
        DataModel::LP64 => "typedef unsigned long size_t; typedef long time_t; typedef int wchar_t;\n",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_unit_needs_the_preprocessor() {
        for (file, text) in UNITS {
            assert!(
                !text.lines().any(|l| l.trim_start().starts_with('#')),
                "{file} uses a preprocessor directive"
            );
        }
    }
}
