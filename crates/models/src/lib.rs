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
//! A function that is the same for several types is written once, in
//! a generic block that the build script instantiates per type (`generic`).
//!
//! `malloc`, `calloc`, `realloc`, `free`, `alloca`, `memcpy`, `memmove`,
//! `memset`, `exit` and `abort` are not here: symex and the interpreter
//! implement them (a C byte loop would unroll per byte).

use ir::DataModel;

pub mod generic;

/// A model translation unit as the build script expanded it (see
/// [`generic`]): (file name, C text).
macro_rules! unit {
    ($file:literal) => {
        ($file, include_str!(concat!(env!("OUT_DIR"), "/", $file)))
    };
}

/// (file name, C text) of every model translation unit.
pub const UNITS: &[(&str, &str)] = &[
    unit!("string.c"),
    unit!("stdlib.c"),
    unit!("ctype.c"),
    unit!("stdio.c"),
    unit!("unistd.c"),
    unit!("time.c"),
    unit!("locale.c"),
    unit!("math.c"),
    unit!("fenv.c"),
    unit!("pthread.c"),
    unit!("wchar.c"),
    unit!("dirent.c"),
    unit!("inet.c"),
    unit!("atomic.c"),
];

/// The library types the models use, as glibc defines them for `model`.
pub fn prelude(model: DataModel) -> &'static str {
    match model {
        DataModel::ILP32 => {
            "typedef unsigned int size_t; typedef long time_t; typedef long wchar_t; \
             typedef long long intmax_t; typedef unsigned long long uintmax_t;\n"
        }
        DataModel::LP64 => {
            "typedef unsigned long size_t; typedef long time_t; typedef int wchar_t; \
             typedef long intmax_t; typedef unsigned long uintmax_t;\n"
        }
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

    #[test]
    fn every_generic_block_is_expanded() {
        for (file, text) in UNITS {
            assert!(!text.contains('$') && !text.contains("/*@"), "{file} keeps a generic block");
        }
        let unit = |name: &str| UNITS.iter().find(|(file, _)| *file == name).expect("a model unit").1;
        for (file, definition) in [
            ("math.c", "\nfdimf(float x"),
            ("math.c", "\nfdim(double x"),
            ("math.c", "\nfdiml(long double x"),
            ("string.c", "\nstrncat(char *restrict dst, const char *restrict src"),
            ("wchar.c", "\nwcsncat(wchar_t *restrict dst, const wchar_t *restrict src"),
        ] {
            assert!(unit(file).contains(definition), "{file} defines {definition:?}");
        }
    }
}
