//! The coverage list of `cargo xtask model-oracle`: every library function
//! tarsier models (the C models of `crates/models`, the kernel model
//! headers, and the functions symex and the interpreter model natively,
//! all read from the workspace's sources rather than linked, so that the
//! oracle shares nothing with the verifier)
//! with what checks it: the oracle's tasks of the run, the kernel twins of
//! `crates/tarsier/tests/library_models.rs`, or a documented approximation
//! (where its answer is UNKNOWN, and where that is written down).

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Where a modelled function is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    /// A C model (`crates/models/c/<file>`).
    Model(&'static str),
    /// A kernel model header.
    Kernel,
    /// Modelled natively by symex and the interpreter.
    Native,
}

/// Functions whose model is an approximation in part, with where their
/// answer is UNKNOWN (an unmodelled marker or an untrusted path) and where
/// that is documented. The oracle still runs them; UNKNOWN there is this.
pub const APPROXIMATIONS: &[(&str, &str)] = &[
    ("strtod", "beyond the exact decimal fast path (hexadecimal, inf, nan, long mantissas, large exponents): __tarsier_unmodelled_strtod; stdlib.c"),
    ("strtof", "as strtod; stdlib.c"),
    ("strtold", "as strtod; stdlib.c"),
    ("atof", "as strtod; stdlib.c"),
    ("strftime", "conversions other than %Y %m %d %H %M %S %j %%, negative fields, a text that does not fit: __tarsier_unmodelled_strftime; time.c"),
    ("swprintf", "flags, widths, precisions, other conversions, narrow characters above 127: __tarsier_unmodelled_swprintf; wchar.c"),
    ("sscanf", "converts as scanf on unknown input, a superset: FALSE through it is not trusted; docs/decisions/values-and-library-semantics.md"),
    ("setlocale", "a switch of LC_CTYPE, LC_NUMERIC, LC_MONETARY or LC_ALL to a locale other than C: __tarsier_unmodelled_locale_switch; locale.c"),
    ("readdir", "an entry is a superset of the kernel's (names may hold '/'): FALSE through it is not trusted; docs/decisions/ir-and-environment.md"),
    ("readdir64", "as readdir"),
    ("ftell", "on a stream that is not an fmemopen stream: __tarsier_unmodelled_stream_call; stdio.c"),
    ("ftello", "as ftell"),
    ("feof", "as ftell"),
    ("ferror", "as ftell"),
    ("clearerr", "as ftell"),
    ("rewind", "as ftell"),
    ("__fpending", "as ftell"),
    ("__freading", "as ftell"),
    ("__fwriting", "as ftell"),
    ("fmemopen", "glibc's own buffer (NULL), more than 4 streams, more than 64 bytes buffered or read ahead, seeks in append mode: __tarsier_unmodelled_memory_stream; docs/decisions/ir-and-environment.md"),
    ("fopen", "more than 8 streams on a path: __tarsier_unmodelled_stream (blocks FALSE); docs/decisions/ir-and-environment.md"),
    ("cabs", "hypot, an inexact function (see the libm row); math.c"),
    ("carg", "atan2, an inexact function; math.c"),
    ("cabsf", "as cabs"),
    ("cargf", "as carg"),
    ("strcmp", "only the sign is compared: it is all C fixes; glibc's magnitude depends on the CPU's implementation (strcmp gives -1 for \"a\" and \"c\" on one, -2 on others) and the model's is any int of the sign; docs/decisions/library-models.md"),
    ("strncmp", "as strcmp"),
    ("memcmp", "as strcmp"),
    ("strcasecmp", "as strcmp"),
    ("strncasecmp", "as strcmp"),
    ("wcscmp", "as strcmp"),
    ("wcsncmp", "as strcmp"),
    ("wmemcmp", "as strcmp"),
    ("strcoll", "as strcmp, in the C locale"),
];

/// The functions symex and the interpreter model natively, besides the
/// inexact libm functions ([`inexact_functions`]).
const NATIVE: &[&str] = &[
    "printf", "fprintf", "dprintf", "sprintf", "snprintf", "asprintf", "vprintf", "vfprintf", "vdprintf", "vsprintf", "vsnprintf",
    "vasprintf", "puts", "putchar", "scanf", "fscanf", "sscanf", "gets", "malloc", "calloc", "realloc", "free", "alloca", "memcpy",
    "memmove", "memset", "exit", "_Exit", "_exit", "abort", "sqrt", "sqrtf", "sqrtl", "fma", "fmaf", "fmal", "fmod", "fmodf", "fmodl",
    "remainder", "remainderf", "remainderl", "trunc", "truncf", "truncl", "floor", "floorf", "floorl", "ceil", "ceilf", "ceill",
    "round", "roundf", "roundl", "rint", "rintf", "rintl", "nearbyint", "nearbyintf", "nearbyintl",
];

/// The workspace's file `path`, read at run time: the oracle lists what the
/// models define from their sources, without linking the verifier's
/// crates (it must not share their semantics).
fn workspace_file(path: &str) -> String {
    let full = crate::corpus::workspace_root().join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The C model files.
const MODEL_FILES: [&str; 13] =
    ["string.c", "stdlib.c", "ctype.c", "stdio.c", "unistd.c", "time.c", "locale.c", "math.c", "fenv.c", "pthread.c", "wchar.c", "dirent.c", "inet.c"];

/// The suffix or prefix a generic block's type gives a name: `$F` (the
/// math functions' suffix) and `$STR` (the string functions' prefix).
fn instantiate(name: &str, ty: &str) -> String {
    let suffix = match ty {
        "float" => "f",
        "long double" => "l",
        _ => "",
    };
    let prefix = if ty == "wchar_t" { "wcs" } else { "str" };
    name.replace("$F", suffix).replace("$STR", prefix)
}

/// The names the C models define for programs: every non-static function
/// of the model files (generic blocks instantiated for each of their
/// types, the opaque models under their library names), not the internal
/// `__tarsier_` helpers.
fn c_model_functions() -> Vec<(String, Origin)> {
    let mut found = Vec::new();
    // The functions of each named block (for a later `/*@ NAME for TYPE */`,
    // in another file too).
    let mut named: Vec<(String, Vec<String>)> = Vec::new();
    for file in MODEL_FILES {
        let text = workspace_file(&format!("crates/models/c/{file}"));
        let lines: Vec<&str> = text.lines().collect();
        // The types of the generic block being read, and its name.
        let mut types: Vec<String> = vec![String::new()];
        let mut block: Option<String> = None;
        for (i, line) in lines.iter().enumerate() {
            if let Some(header) = line.strip_prefix("/*@ ").and_then(|l| l.strip_suffix(" */")) {
                match header.split_once(" for ") {
                    _ if header == "end" => {
                        types = vec![String::new()];
                        block = None;
                    }
                    Some(("", _)) | None => {}
                    Some((name, ty)) if !name.starts_with("for") => {
                        // A named block instantiated again for another type.
                        let names = named.iter().find(|(n, _)| n == name).map(|(_, f)| f.clone()).unwrap_or_default();
                        found.extend(names.iter().map(|f| (instantiate(f, ty), Origin::Model(file))));
                    }
                    _ => {}
                }
                if let Some(rest) = header.strip_prefix("for ") {
                    let (list, name) = rest.split_once(" as ").map_or((rest, None), |(l, n)| (l, Some(n)));
                    types = list.split(", ").map(str::to_string).collect();
                    block = name.map(str::to_string);
                    if let Some(name) = &block {
                        named.push((name.clone(), Vec::new()));
                    }
                }
                continue;
            }
            let Some(name) = line.split('(').next().filter(|n| line.contains('(') && is_identifier(&n.replace('$', ""))) else { continue };
            let previous = if i > 0 { lines[i - 1] } else { "" };
            let defines = lines.get(i + 1).is_some_and(|next| next.starts_with('{')) && !line.ends_with(';');
            if !defines || previous.starts_with("static") || previous.is_empty() {
                continue;
            }
            // A named block's functions, for its later instantiations.
            if let (Some(_), Some((_, functions))) = (&block, named.last_mut()) {
                functions.push(name.to_string());
            }
            for ty in &types {
                let name = instantiate(name, ty);
                let name = match name.strip_prefix("__tarsier_opaque_") {
                    Some(library) => library.to_string(),
                    None if name.starts_with("__tarsier_") => continue,
                    None => name,
                };
                found.push((name, Origin::Model(file)));
            }
        }
    }
    found
}

fn is_identifier(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && !word.as_bytes()[0].is_ascii_digit()
}

/// The kernel model headers' functions (`static inline` definitions).
fn kernel_functions() -> Vec<(String, Origin)> {
    const HEADERS: [&str; 3] = ["linux/slab.h", "asm/uaccess.h", "linux/spinlock.h"];
    let mut found = Vec::new();
    for header in HEADERS {
        let text = workspace_file(&format!("crates/cfront/include/ubuntu20.04/kernel_5.15.0-76/include/{header}"));
        for line in text.lines().filter(|l| l.starts_with("static inline")) {
            let head = line.split('(').next().unwrap_or_default();
            let name = head.rsplit([' ', '*']).next().unwrap_or_default();
            if is_identifier(name) {
                found.push((name.to_string(), Origin::Kernel));
            }
        }
    }
    found
}

/// The inexact math functions symex bounds and the interpreter answers
/// with the host library (`ir::libm`'s table, read from its source): each
/// function's double, float and long double names and its arity.
pub fn inexact_functions() -> Vec<([String; 3], usize)> {
    let text = workspace_file("crates/ir/src/libm.rs");
    let table = text.split("inexact_functions! {").nth(1).unwrap_or_default();
    let table = table.split('}').next().unwrap_or_default();
    table
        .lines()
        .filter_map(|line| {
            let (_, rest) = line.trim().split_once(": ")?;
            let (names, params) = rest.split_once(" (")?;
            let names: Vec<String> = names.split(", ").map(str::to_string).collect();
            let arity = params.trim_end_matches(");").split(", ").count();
            Some(([names.first()?.clone(), names.get(1)?.clone(), names.get(2)?.clone()], arity))
        })
        .collect()
}

/// Every modelled function with its origin, sorted by name.
pub fn modelled_functions() -> Vec<(String, Origin)> {
    let mut all: BTreeMap<String, Origin> = BTreeMap::new();
    for (name, origin) in c_model_functions().into_iter().chain(kernel_functions()) {
        all.entry(name).or_insert(origin);
    }
    for name in NATIVE {
        all.entry((*name).to_string()).or_insert(Origin::Native);
    }
    for (names, _) in inexact_functions() {
        for name in names {
            all.entry(name).or_insert(Origin::Native);
        }
    }
    all.into_iter().collect()
}

/// The approximation note of `function`, if it has one.
pub fn approximation(function: &str) -> Option<&'static str> {
    if inexact_functions().iter().any(|(names, _)| names.iter().any(|n| n == function)) {
        return Some("inexact (libm): within 4 ulps of the host's value for constant arguments; the replay's host value decides FALSE; crates/symex/src/libm.rs");
    }
    APPROXIMATIONS.iter().find(|(name, _)| *name == function).map(|(_, note)| *note)
}

/// The coverage list: every modelled function, its origin, the tasks of
/// this run that called it (correct/wrong/unknown/timeout/error) and its
/// approximation note.
pub fn render(per_function: &BTreeMap<String, [usize; 5]>) -> String {
    let mut text = format!("{:<28} {:<14} {:>7} {:>6} {:>7} {:>7}  note\n", "function", "model", "correct", "wrong", "unknown", "timeout");
    let mut untested = Vec::new();
    let all = modelled_functions();
    let exercised = all.iter().filter(|(name, _)| per_function.get(name).is_some_and(|c| c.iter().sum::<usize>() > 0)).count();
    for (name, origin) in all.iter().cloned() {
        let origin_name = match origin {
            Origin::Model(file) => file.to_string(),
            Origin::Kernel => "kernel header".to_string(),
            Origin::Native => "native".to_string(),
        };
        let counts = per_function.get(&name).copied().unwrap_or_default();
        let outside = OUTSIDE_THE_ORACLE.iter().find(|(n, _)| *n == name).map(|(_, test)| *test);
        let note = match (approximation(&name), origin) {
            (Some(note), _) => note.to_string(),
            (None, _) if outside.is_some() => format!("checked outside the oracle: {}", outside.unwrap_or_default()),
            (None, Origin::Kernel) => "checked against the kernel source by twins (crates/tarsier/tests/library_models.rs)".to_string(),
            (None, _) if counts.iter().sum::<usize>() == 0 => {
                untested.push(name.clone());
                "NOT EXERCISED by this run".to_string()
            }
            (None, _) => String::new(),
        };
        let _ = writeln!(text, "{name:<28} {origin_name:<14} {:>7} {:>6} {:>7} {:>7}  {note}", counts[0], counts[1], counts[2], counts[3]);
    }
    let _ = writeln!(text, "{exercised} of {} modelled functions exercised by this run", all.len());
    let _ = writeln!(text, "{} functions not exercised by this run{}", untested.len(), if untested.is_empty() { String::new() } else { format!(": {}", untested.join(", ")) });
    text
}

/// Modelled functions the oracle does not call, with the tests that check
/// them instead.
pub const OUTSIDE_THE_ORACLE: &[(&str, &str)] = &[
    ("malloc", "the heap: the c-oracle heap class and crates/tarsier/tests/memory_model.rs"),
    ("__CPROVER_havoc_slice", "CBMC's intrinsic, no C library function: crates/tarsier/tests/cbmc_syntax.rs"),
    ("calloc", "as malloc"),
    ("realloc", "as malloc"),
    ("free", "as malloc"),
    ("alloca", "as malloc"),
    ("exit", "ends the program (and a case): crates/tarsier/tests/memory_model.rs (atexit, leaks at exit)"),
    ("_Exit", "as exit"),
    ("_exit", "as exit"),
    ("abort", "as exit"),
    ("pthread_exit", "as exit: crates/tarsier/tests/library_builtins.rs"),
    ("pthread_create", "starts a thread, whose interleavings one native run cannot cover: crates/tarsier/tests/threads.rs"),
    ("pthread_cond_wait", "blocks until another thread signals, which one native run cannot cover: crates/tarsier/tests/threads.rs (threads-condition)"),
    ("pthread_cond_signal", "as pthread_cond_wait"),
    ("pthread_cond_broadcast", "wakes every blocked waiter where a signal wakes one: crates/tarsier/tests/threads.rs (threads-condition-wake)"),
    ("pthread_cond_timedwait", "as pthread_cond_wait, or times out: crates/tarsier/tests/threads.rs (threads-condition-timed)"),
    ("pthread_cond_init", "as pthread_cond_wait: crates/tarsier/tests/threads.rs (threads-condition-wake)"),
    ("pthread_cond_destroy", "as pthread_cond_init"),
    ("pthread_spin_lock", "blocks while another thread holds the lock: crates/tarsier/tests/threads.rs (spin-lock deadlock rows)"),
    ("pthread_spin_unlock", "as pthread_spin_lock"),
    ("pthread_spin_init", "as pthread_spin_lock"),
    ("pthread_spin_trylock", "as pthread_spin_lock: crates/tarsier/tests/threads.rs (threads-spin-trylock)"),
    ("pthread_spin_destroy", "as pthread_spin_trylock"),
    ("thrd_create", "starts a thread, as pthread_create: crates/tarsier/tests/threads.rs (threads-c11)"),
    ("thrd_join", "as thrd_create"),
    ("thrd_exit", "as thrd_create"),
    ("thrd_detach", "as pthread_detach, over thrd_create's threads: crates/tarsier/tests/threads.rs (threads-c11-detach)"),
    ("thrd_yield", "does nothing, as every interleaving is explored anyway: as thrd_detach"),
    ("__sigsetjmp", "its first return, the one pthread_cleanup_push sees: crates/tarsier/tests/threads.rs (threads-cleanup)"),
    ("__pthread_register_cancel", "as __sigsetjmp"),
    ("__pthread_unregister_cancel", "as __sigsetjmp"),
    ("pthread_barrier_wait", "blocks until the count of threads arrives, which one native run cannot cover: crates/tarsier/tests/threads.rs (threads-barrier)"),
    ("pthread_barrier_init", "as pthread_barrier_wait (its EINVAL row too)"),
    ("pthread_barrier_destroy", "as pthread_barrier_wait"),
    ("sem_wait", "blocks until another thread posts, which one native run cannot cover: crates/tarsier/tests/threads.rs (threads-semaphore)"),
    ("sem_post", "as sem_wait"),
    ("sem_init", "as sem_wait"),
    ("sem_trywait", "as sem_wait (its EAGAIN rows too)"),
    ("sem_getvalue", "as sem_wait"),
    ("sem_destroy", "as sem_wait"),
    ("gets", "removed from C11 and glibc's headers for it: crates/tarsier/tests/stdio.rs"),
    ("tzset", "sets the zone localtime and mktime read: the time family's local cases"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_models_functions_are_found() {
        let all = modelled_functions();
        let has = |name: &str| all.iter().any(|(n, _)| n == name);
        for name in ["strlen", "wcslen", "strncat", "wcsncat", "fdimf", "fdiml", "pthread_mutex_lock", "mbsinit", "kmalloc", "copy_to_user", "printf", "sinl"] {
            assert!(has(name), "{name} is missing");
        }
        assert!(!all.iter().any(|(n, _)| n.starts_with("__tarsier_") || n.contains('$')), "internal helpers are listed");
        assert_eq!(inexact_functions().len(), 24, "ir::libm's table is read");
    }

    /// Every modelled function is generated by some family of the oracle,
    /// or is a kernel model (checked by twins), or allocates or ends the
    /// program (checked by the memory and exit tests).
    #[test]
    fn every_modelled_function_is_exercised() {
        let cases = super::super::generate_cases(&mut crate::oracle::Rng::new(7), &super::super::Family::ALL, 3000);
        let exercised: std::collections::HashSet<&str> = cases.iter().flat_map(|c| c.functions.iter().map(String::as_str)).collect();
        let missing: Vec<String> = modelled_functions()
            .into_iter()
            .filter(|(name, origin)| *origin != Origin::Kernel && !exercised.contains(name.as_str()) && !OUTSIDE_THE_ORACLE.iter().any(|(n, _)| n == name))
            .map(|(name, _)| name)
            .collect();
        assert!(missing.is_empty(), "model functions no family generates: {missing:?}");
    }
}
