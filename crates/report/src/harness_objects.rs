//! The object intrinsics in a harness: ESBMC's and CPROVER's questions
//! about the object a pointer points into (`__ESBMC_r_ok`,
//! `__ESBMC_get_object_size`, `__CPROVER_same_object`, ...) and
//! `__ESBMC_init_object`, which gives an object new contents. A native
//! run has no objects, only addresses; AddressSanitizer does know each
//! object's start, size and liveness (`__asan_locate_address`, poisoned
//! memory), for globals, locals and the heap alike, one past the end
//! included. So a harness that defines them answers from AddressSanitizer
//! and must be built with it: the file refuses to compile otherwise.
//! Questions it cannot answer natively (whether an object is read-only,
//! for `w_ok`) get no definition, and the build fails at link time.

use ir::intrinsics::PointerIntrinsic;
use std::fmt::Write;

/// The gcc flag the definitions need.
pub const ADDRESS_SANITIZER: &str = "-fsanitize=address";

/// The names under which symex records `__ESBMC_init_object`'s new contents.
pub const INIT_OBJECT_INPUT: &str = "__ESBMC_init_object";

/// Whether `name` gives its object new contents (the counterexample's).
pub fn is_init_object(name: &str) -> bool {
    matches!(name, "__ESBMC_init_object" | "__CPROVER_havoc_object")
}

/// The code every definition relies on: the guard that the build has
/// AddressSanitizer, and `harness_object`, which finds the object a
/// pointer points into.
pub fn support() -> &'static str {
    r#"/* The program asks about objects (their bounds, liveness): AddressSanitizer knows them. */
#ifndef __SANITIZE_ADDRESS__
#error "this harness answers the program's questions about objects with AddressSanitizer: build with -fsanitize=address"
#endif
#include <sanitizer/asan_interface.h>

enum harness_kind { HARNESS_NO_OBJECT, HARNESS_GLOBAL, HARNESS_STACK, HARNESS_HEAP };

/* The object P points into or one past: its kind, start and size. */
static enum harness_kind harness_object(const void *p, const char **start, unsigned long *size)
{
    char name[8];
    void *region = 0;
    size_t length = 0;
    const char *kind;
    if (p == 0)
        return HARNESS_NO_OBJECT;
    kind = __asan_locate_address((void *)p, name, sizeof name, &region, &length);
    *start = region;
    *size = length;
    if (strcmp(kind, "global") == 0)
        return HARNESS_GLOBAL;
    if (strcmp(kind, "stack") == 0)
        return HARNESS_STACK;
    return strcmp(kind, "heap") == 0 ? HARNESS_HEAP : HARNESS_NO_OBJECT;
}

"#
}

/// The native definition of the pointer intrinsic `name` returning
/// `ret` (its C spelling); `None` for one a native run cannot answer.
pub fn definition(name: &str, intrinsic: PointerIntrinsic, ret: &str) -> Option<String> {
    let body = match intrinsic {
        PointerIntrinsic::Offset => "    return harness_object(p, &start, &size) ? (const char *)p - start : (long)p;",
        PointerIntrinsic::Object => "    return harness_object(p, &start, &size) ? (unsigned long)start : (unsigned long)p;",
        PointerIntrinsic::ObjectSize => "    return harness_object(p, &start, &size) ? size : 0;",
        PointerIntrinsic::IsDynamic => "    return harness_object(p, &start, &size) == HARNESS_HEAP;",
        PointerIntrinsic::IsLive => "    return harness_object(p, &start, &size) && (size == 0 || !__asan_address_is_poisoned(start));",
        PointerIntrinsic::SameObject => {
            return Some(format!(
                "{ret} {name}(const void *p, const void *q)\n{{\n    const char *start, *other;\n    unsigned long size, other_size;\n    \
                 int in_p = harness_object(p, &start, &size) != HARNESS_NO_OBJECT, in_q = harness_object(q, &other, &other_size) != HARNESS_NO_OBJECT;\n    \
                 return in_p && in_q ? start == other : !in_p && !in_q && p == 0 && q == 0;\n}}\n"
            ))
        }
        PointerIntrinsic::Accessible { write: false } => {
            return Some(format!(
                "{ret} {name}(const void *p, unsigned long n)\n{{\n    const char *start;\n    unsigned long size;\n    \
                 if (n == 0)\n        return 1;\n    \
                 if (!harness_object(p, &start, &size) || (const char *)p < start || (unsigned long)((const char *)p - start) > size)\n        return 0;\n    \
                 return n <= size - ((const char *)p - start) && !__asan_region_is_poisoned((void *)p, n);\n}}\n"
            ))
        }
        PointerIntrinsic::Accessible { write: true } | PointerIntrinsic::GccObjectSize | PointerIntrinsic::AllocSizeClaim => return None,
    };
    Some(format!("{ret} {name}(const void *p)\n{{\n    const char *start;\n    unsigned long size;\n{body}\n}}\n"))
}

/// The definition of `name` (an init-object function) that gives the
/// objects it is called on, in order, the counterexample's `contents`
/// (bytes, then a fill byte for the rest of the object).
pub fn init_object_definition(name: &str, contents: &[(Vec<u8>, u8)]) -> String {
    let mut out = String::new();
    for (index, (bytes, _)) in contents.iter().enumerate() {
        let _ = writeln!(out, "static const unsigned char harness_{name}_{index}[] = {{{}}};", crate::harness::byte_list(bytes));
    }
    let names: String = (0..contents.len()).map(|i| format!("harness_{name}_{i}, ")).collect();
    let lengths: String = contents.iter().map(|(bytes, _)| format!("{}, ", bytes.len())).collect();
    let fills: String = contents.iter().map(|(_, fill)| format!("{fill}, ")).collect();
    let _ = writeln!(out, "static const unsigned char *const harness_{name}[] = {{{names}0}};");
    let _ = writeln!(out, "static const unsigned long harness_{name}_length[] = {{{lengths}0}};");
    let _ = writeln!(out, "static const unsigned char harness_{name}_fill[] = {{{fills}0}};");
    let _ = write!(
        out,
        "void {name}(void *p)\n{{\n    static unsigned long next;\n    const char *start;\n    unsigned long size, i;\n    \
         if (next >= {count} || !harness_object(p, &start, &size))\n        return;\n    \
         for (i = 0; i < size; i++)\n        ((char *)start)[i] = i < harness_{name}_length[next] ? harness_{name}[next][i] : harness_{name}_fill[next];\n    \
         next++;\n}}\n",
        count = contents.len()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_access_has_no_native_answer() {
        assert!(definition("__ESBMC_w_ok", PointerIntrinsic::Accessible { write: true }, "_Bool").is_none());
        let r_ok = definition("__ESBMC_r_ok", PointerIntrinsic::Accessible { write: false }, "int").unwrap();
        assert!(r_ok.starts_with("int __ESBMC_r_ok(const void *p, unsigned long n)"), "{r_ok}");
        assert!(r_ok.contains("__asan_region_is_poisoned"), "{r_ok}");
    }

    #[test]
    fn init_object_lists_every_value_in_order() {
        let text = init_object_definition("__ESBMC_init_object", &[(vec![1, 2], 0), (vec![], 0xff)]);
        assert!(text.contains("harness___ESBMC_init_object_length[] = {2, 0, 0};"), "{text}");
        assert!(text.contains("harness___ESBMC_init_object_fill[] = {0, 255, 0};"), "{text}");
        assert!(text.contains("if (next >= 2 ||"), "{text}");
    }
}
