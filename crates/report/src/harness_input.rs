//! Input calls in the executable harness: `scanf`, `fscanf`, `gets` and
//! `fgets` read an unknown stream, which tarsier models by taking each store from
//! the counterexample (`ir::interp`'s stdio: the result, then per store
//! covered by it the value's bytes, or for a string its length and its
//! characters; for `gets` and `fgets` a failure flag, then the line; the C
//! model of `fgets` reads a memory stream itself and asks its native model,
//! `__tarsier_native_fgets`, about any other stream). The native run
//! takes the same stores: the rewritten copy of each program file that
//! calls them redirects the calls (`#define scanf(...)
//! __tarsier_harness_scanf(__VA_ARGS__)`, a function-like macro so that
//! glibc's `__REDIRECT (scanf, ...)` declaration stays as it is) to the
//! harness's definitions, which read the format as the model does and
//! store the counterexample's values at the call's pointers — past the
//! end of a buffer too small, where AddressSanitizer sees the overflow.
//! Past the counterexample's input, a call finds the end of the input.

use crate::harness::byte_list;
use engine::Counterexample;
use ir::interp::InputKind;
use ir::Program;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The input functions the harness answers, with the prototype of their
/// redirected form (as the copy declares it) and its definition's head.
/// The asm label keeps the name when glibc's `__REDIRECT (scanf, ...,
/// __isoc99_scanf)` (whose expansion the macro renames) declares it again.
const INPUT_FUNCTIONS: [(&str, &str); 4] = [
    ("scanf", "int __tarsier_harness_scanf(const char *, ...) __asm__(\"__tarsier_harness_scanf\");"),
    ("fscanf", "struct _IO_FILE;\nint __tarsier_harness_fscanf(struct _IO_FILE *, const char *, ...) __asm__(\"__tarsier_harness_fscanf\");"),
    ("gets", "char *__tarsier_harness_gets(char *) __asm__(\"__tarsier_harness_gets\");"),
    ("fgets", "struct _IO_FILE;\nchar *__tarsier_harness_fgets(char *, int, struct _IO_FILE *) __asm__(\"__tarsier_harness_fgets\");"),
];

/// The prefix of the functions through which the C models of streams ask
/// the native models about the environment's streams.
const NATIVE_PREFIX: &str = "__tarsier_native_";

/// The counterexample's input of the program's calls of the input functions.
#[derive(Default)]
pub struct InputCalls {
    /// Per function: the chunks the model read, in order.
    chunks: BTreeMap<&'static str, Vec<Vec<u8>>>,
}

impl InputCalls {
    pub fn of(program: &Program, cex: &Counterexample) -> InputCalls {
        let mut calls = InputCalls::default();
        for input in &cex.inputs {
            let InputKind::ExternalCall(name) = &input.kind else { continue };
            // The program's own calls, and the C models' calls of native models.
            let name = match (program.files.is_library_model(input.loc), name.strip_prefix(NATIVE_PREFIX)) {
                (false, None) => name.as_str(),
                (true, Some(function)) => function,
                _ => continue,
            };
            if let Some(&(function, _)) = INPUT_FUNCTIONS.iter().find(|(f, _)| *f == name) {
                calls.chunks.entry(function).or_default().push(input.bytes.clone());
            }
        }
        calls
    }

    /// Whether the harness answers the calls of `name`.
    pub fn answers(name: &str) -> bool {
        INPUT_FUNCTIONS.iter().any(|(f, _)| *f == name)
    }

    /// The functions whose calls the copies redirect.
    pub fn redirected(&self) -> Vec<&'static str> {
        self.chunks.keys().copied().collect()
    }

    /// The lines a copy starts with: each redirected function's prototype and macro.
    pub fn macros(&self) -> String {
        let mut out = String::new();
        for name in self.redirected() {
            let (_, prototype) = INPUT_FUNCTIONS.iter().find(|(f, _)| *f == name).expect("an input function");
            let _ = writeln!(out, "{prototype}\n#define {name}(...) __tarsier_harness_{name}(__VA_ARGS__)");
        }
        out
    }

    /// The harness's definitions of the redirected functions.
    pub fn definitions(&self) -> String {
        if self.chunks.is_empty() {
            return String::new();
        }
        let mut out = String::from(SUPPORT);
        for (name, chunks) in &self.chunks {
            for (n, chunk) in chunks.iter().enumerate() {
                let _ = writeln!(out, "static const unsigned char harness_{name}_{n}[] = {{{}}};", byte_list(chunk));
            }
            let _ = writeln!(out, "/* The input the counterexample's calls of `{name}` read, chunk by chunk. */");
            let _ = writeln!(out, "static const struct harness_chunk harness_{name}_chunks[] = {{");
            for (n, chunk) in chunks.iter().enumerate() {
                let _ = writeln!(out, "    {{harness_{name}_{n}, {}}},", chunk.len());
            }
            let _ = writeln!(out, "}};\nstatic struct harness_input harness_{name}_input = {{harness_{name}_chunks, {}, 0}};\n", chunks.len());
            out += match *name {
                "scanf" => SCANF,
                "fscanf" => FSCANF,
                "fgets" => FGETS,
                _ => GETS,
            };
        }
        out
    }
}

/// The reading of chunks and of a scanf format, as the model does it.
const SUPPORT: &str = r#"#include <stdarg.h>

/* One request of the model for input bytes, and a function's requests. */
struct harness_chunk { const unsigned char *bytes; unsigned long size; };
struct harness_input { const struct harness_chunk *chunks; unsigned long count, next; };

static const struct harness_chunk *harness_next_chunk(struct harness_input *input)
{
    return input->next < input->count ? &input->chunks[input->next++] : 0;
}

/* A chunk's little-endian value. */
static unsigned long long harness_chunk_value(const struct harness_chunk *chunk)
{
    unsigned long long value = 0;
    for (unsigned long i = chunk->size < 8 ? chunk->size : 8; i-- > 0;)
        value = value << 8 | chunk->bytes[i];
    return value;
}

/* A string store: its length, then its characters of UNIT bytes, then a NUL. */
static void harness_store_string(struct harness_input *input, void *target, unsigned long unit)
{
    const struct harness_chunk *length = harness_next_chunk(input), *chars = harness_next_chunk(input);
    unsigned long size = length ? harness_chunk_value(length) * unit : 0;
    if (chars)
        memcpy(target, chars->bytes, size < chars->size ? size : chars->size);
    memset((unsigned char *)target + size, 0, unit);
}

/* The conversions of FORMAT the model stores through: 's' (string), 'w' (wide
   string), 'v' (one chunk: an integer, a float or %c's characters), in order;
   0 when the model does not take the format (then only the result is read). */
static int harness_scan_targets(const char *format, char *targets, int room)
{
    int count = 0;
    for (const char *f = format; *f; f++) {
        if (*f != '%')
            continue;
        if (*++f == '%')
            continue;
        if (!*f)
            return 0;
        int suppressed = *f == '*', digits = 0, longer = 0, other = 0;
        unsigned long long width = 0;
        f += suppressed;
        for (; *f >= '0' && *f <= '9'; f++, digits++)
            width = width > 0xffffffffULL ? width : width * 10 + (unsigned)(*f - '0');
        /* A width of 0 or above 65536 is not the model's; above INT_MAX it is ignored. */
        if (digits && (width == 0 || (width > 65536 && width <= 0x7fffffffULL)))
            return 0;
        for (; *f && strchr("hlLqjzt", *f); f++)
            other |= *f != 'l', longer += *f == 'l';
        char kind;
        if (!*f)
            return 0;
        if (strchr("diuoxX", *f) && f[-1] != 'L')
            kind = 'v';
        else if (strchr("fFeEgGaA", *f) && !other && longer <= 1)
            kind = 'v';
        else if (*f == 'c' && !other && !longer)
            kind = 'v';
        else if (*f == 's' && !other && longer <= 1)
            kind = longer ? 'w' : 's';
        else if (*f == 'S' && !other && !longer)
            kind = 'w';
        else
            return 0;
        if (suppressed)
            continue;
        if (count == room)
            return 0;
        targets[count++] = kind;
    }
    targets[count] = 0;
    return 1;
}

/* A scanf-style call: the result, then the stores it covers. */
static int harness_scan(struct harness_input *input, const char *format, va_list args)
{
    char targets[256];
    const struct harness_chunk *result_chunk = harness_next_chunk(input);
    if (!result_chunk)
        return -1;
    int result = (int)harness_chunk_value(result_chunk);
    if (!harness_scan_targets(format, targets, (int)sizeof targets - 1))
        return result;
    for (int i = 0; i < result && targets[i]; i++) {
        void *target = va_arg(args, void *);
        if (targets[i] == 'v') {
            const struct harness_chunk *value = harness_next_chunk(input);
            if (value)
                memcpy(target, value->bytes, value->size);
        } else {
            harness_store_string(input, target, targets[i] == 'w' ? 4 : 1);
        }
    }
    return result;
}

"#;

const SCANF: &str = "int __tarsier_harness_scanf(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int result = harness_scan(&harness_scanf_input, format, args);
    va_end(args);
    return result;
}

";

const FSCANF: &str = "int __tarsier_harness_fscanf(FILE *stream, const char *format, ...)
{
    va_list args;
    (void)stream;
    va_start(args, format);
    int result = harness_scan(&harness_fscanf_input, format, args);
    va_end(args);
    return result;
}

";

const GETS: &str = "char *__tarsier_harness_gets(char *line)
{
    const struct harness_chunk *fails = harness_next_chunk(&harness_gets_input);
    if (!fails || harness_chunk_value(fails) != 0)
        return 0;
    harness_store_string(&harness_gets_input, line, 1);
    return line;
}

";

/// The C model's `fgets`: a memory stream (no descriptor) and a stream not
/// open for reading (glibc's `_IO_NO_READS` flag, which the model checks
/// too) are the real function's; another stream gives the counterexample's line.
const FGETS: &str = "char *__tarsier_harness_fgets(char *line, int size, FILE *stream)
{
    if (size <= 0)
        return 0;
    if (fileno(stream) < 0 || (stream->_flags & 0x4))
        return fgets(line, size, stream);
    if (size == 1) {
        line[0] = 0;
        return line;
    }
    const struct harness_chunk *fails = harness_next_chunk(&harness_fgets_input);
    if (!fails || harness_chunk_value(fails) != 0)
        return 0;
    harness_store_string(&harness_fgets_input, line, 1);
    return line;
}

";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_redirected_by_function_like_macros() {
        let calls = InputCalls { chunks: BTreeMap::from([("scanf", vec![vec![1, 0, 0, 0], vec![7, 0, 0, 0]])]) };
        let macros = calls.macros();
        assert!(macros.contains("#define scanf(...) __tarsier_harness_scanf(__VA_ARGS__)"), "{macros}");
        assert!(macros.contains("__asm__(\"__tarsier_harness_scanf\")"), "{macros}");
        let text = calls.definitions();
        assert!(text.contains("static const unsigned char harness_scanf_1[] = {0x07, 0x00, 0x00, 0x00};"), "{text}");
        assert!(text.contains("static struct harness_input harness_scanf_input = {harness_scanf_chunks, 2, 0};"), "{text}");
        assert!(text.contains("int __tarsier_harness_scanf(const char *format, ...)"), "{text}");
    }
}
