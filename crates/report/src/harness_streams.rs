//! Closed streams in the executable harness. `fclose` frees the FILE
//! (glibc allocates it with `malloc`), and every stdio function reads the
//! FILE first — tarsier's model reports a call on a closed stream as an
//! access to a dead object. Natively that read happens inside glibc,
//! which AddressSanitizer does not instrument, so the use after free went
//! unseen. When a program file calls `fclose`, its rewritten copy
//! redirects its calls of the stream functions (`#define fputs(...)
//! __tarsier_harness_fputs(__VA_ARGS__)`, with an asm label as for the
//! input functions, see [`crate::harness_input`]) to the harness's
//! definitions, which first make that read of the FILE's first byte in
//! instrumented code, then call the library's function.

use std::fmt::Write;

/// The stream functions checked: name, return type, parameters of the
/// redirected form (the stream is `stream`) and the library call's arguments.
const STREAM_FUNCTIONS: [(&str, &str, &str, &str); 29] = [
    ("fputs", "int", "const char *a, struct _IO_FILE *stream", "a, stream"),
    ("fputs_unlocked", "int", "const char *a, struct _IO_FILE *stream", "a, stream"),
    ("fputc", "int", "int a, struct _IO_FILE *stream", "a, stream"),
    ("putc", "int", "int a, struct _IO_FILE *stream", "a, stream"),
    ("fputc_unlocked", "int", "int a, struct _IO_FILE *stream", "a, stream"),
    ("putc_unlocked", "int", "int a, struct _IO_FILE *stream", "a, stream"),
    ("ungetc", "int", "int a, struct _IO_FILE *stream", "a, stream"),
    ("fgetc", "int", "struct _IO_FILE *stream", "stream"),
    ("getc", "int", "struct _IO_FILE *stream", "stream"),
    ("fgetc_unlocked", "int", "struct _IO_FILE *stream", "stream"),
    ("getc_unlocked", "int", "struct _IO_FILE *stream", "stream"),
    ("fgets", "char *", "char *a, int b, struct _IO_FILE *stream", "a, b, stream"),
    ("fgets_unlocked", "char *", "char *a, int b, struct _IO_FILE *stream", "a, b, stream"),
    ("fread", "__SIZE_TYPE__", "void *a, __SIZE_TYPE__ b, __SIZE_TYPE__ c, struct _IO_FILE *stream", "a, b, c, stream"),
    ("fread_unlocked", "__SIZE_TYPE__", "void *a, __SIZE_TYPE__ b, __SIZE_TYPE__ c, struct _IO_FILE *stream", "a, b, c, stream"),
    ("fwrite", "__SIZE_TYPE__", "const void *a, __SIZE_TYPE__ b, __SIZE_TYPE__ c, struct _IO_FILE *stream", "a, b, c, stream"),
    ("fwrite_unlocked", "__SIZE_TYPE__", "const void *a, __SIZE_TYPE__ b, __SIZE_TYPE__ c, struct _IO_FILE *stream", "a, b, c, stream"),
    ("fflush", "int", "struct _IO_FILE *stream", "stream"),
    ("fflush_unlocked", "int", "struct _IO_FILE *stream", "stream"),
    ("ftell", "long", "struct _IO_FILE *stream", "stream"),
    ("fseek", "int", "struct _IO_FILE *stream, long a, int b", "stream, a, b"),
    ("rewind", "void", "struct _IO_FILE *stream", "stream"),
    ("feof", "int", "struct _IO_FILE *stream", "stream"),
    ("ferror", "int", "struct _IO_FILE *stream", "stream"),
    ("clearerr", "void", "struct _IO_FILE *stream", "stream"),
    ("fileno", "int", "struct _IO_FILE *stream", "stream"),
    ("setbuf", "void", "struct _IO_FILE *stream, char *a", "stream, a"),
    ("fprintf", "int", "struct _IO_FILE *stream, const char *a, ...", ""),
    ("vfprintf", "int", "struct _IO_FILE *stream, const char *a, __builtin_va_list b", "stream, a, b"),
];

/// The stream functions `text` (a program file whose code mask is `code`)
/// calls, when it also calls `fclose`, except those in `taken` (redirected otherwise).
pub fn checked(text: &str, code: &[bool], taken: &[&str]) -> Vec<&'static str> {
    if !crate::harness_library::names(text, code, "fclose") {
        return Vec::new();
    }
    STREAM_FUNCTIONS
        .iter()
        .map(|(name, ..)| *name)
        .filter(|name| !taken.contains(name) && crate::harness_library::names(text, code, name))
        .collect()
}

/// The lines a copy starts with: each checked function's prototype and macro.
pub fn macros(names: &[&str]) -> String {
    let mut out = String::from("struct _IO_FILE;\n");
    for (name, ret, params, _) in STREAM_FUNCTIONS.iter().filter(|(name, ..)| names.contains(name)) {
        let _ = writeln!(out, "{ret} __tarsier_harness_{name}({params}) __asm__(\"__tarsier_harness_{name}\");");
        let _ = writeln!(out, "#define {name}(...) __tarsier_harness_{name}(__VA_ARGS__)");
    }
    out
}

/// The harness's definitions of the checked functions.
pub fn definitions(names: &[&str]) -> String {
    if names.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "#include <stdarg.h>\n\n\
         /* glibc reads a stream's FILE first, which fclose has freed: the read, where AddressSanitizer sees it. */\n\
         static void harness_read_stream(FILE *stream)\n{\n    if (stream)\n        (void)*(volatile const char *)stream;\n}\n\n",
    );
    for (name, ret, params, arguments) in STREAM_FUNCTIONS.iter().filter(|(name, ..)| names.contains(name)) {
        let _ = writeln!(out, "{ret} __tarsier_harness_{name}({params})\n{{\n    harness_read_stream(stream);");
        match (*name, *ret) {
            ("fprintf", _) => {
                out += "    va_list args;\n    va_start(args, a);\n    int result = vfprintf(stream, a, args);\n    va_end(args);\n    return result;\n";
            }
            (_, "void") => {
                let _ = writeln!(out, "    {name}({arguments});");
            }
            _ => {
                let _ = writeln!(out, "    return {name}({arguments});");
            }
        }
        out += "}\n\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_programs_that_close_streams_are_checked() {
        let check = |text: &str| checked(text, &crate::harness_locals::code_mask(text), &["fgets"]);
        assert_eq!(check("fputs(s, f); fgets(b, 4, f); fclose(f);"), vec!["fputs"]);
        assert!(check("fputs(s, f);").is_empty());
    }

    #[test]
    fn void_functions_return_nothing() {
        let text = definitions(&["rewind", "fprintf"]);
        assert!(text.contains("void __tarsier_harness_rewind(struct _IO_FILE *stream)\n{\n    harness_read_stream(stream);\n    rewind(stream);\n}"), "{text}");
        assert!(text.contains("vfprintf(stream, a, args)"), "{text}");
    }
}
