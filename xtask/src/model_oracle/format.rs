//! The `format` family: the printf functions symex and the interpreter
//! model natively (`sprintf`, `snprintf`, `asprintf`, `printf`,
//! `fprintf`, `dprintf`, their `va_list` forms), the output functions
//! (`puts`, `fputs`, `putchar`, `fputc`, `putc`, `fflush`), and `sscanf`.
//! Formats are random conversions (`d i u o x X c s f e g a F E G A % n`)
//! with random flags, widths and precisions (also as `*` arguments) and
//! length modifiers, each with an argument of the type it needs: the count
//! returned, the text written (by a hash of the whole buffer) and `%n`'s
//! stores are observed. Arguments are constants (the models format a
//! known value exactly; a value only known to lie in a range is not
//! formatted). `sscanf` converts texts written to match or to stop its
//! formats.

use super::{c_string, Case, Family, Kind};
use crate::oracle::Rng;

/// One conversion with its argument(s).
struct Conversion {
    spec: String,
    arguments: Vec<String>,
}

/// A signed value of `bits` (as C text), boundaries included.
fn signed(rng: &mut Rng, bits: u32) -> String {
    let max = if bits == 64 { i64::MAX } else { (1i64 << (bits - 1)) - 1 };
    let value = match rng.below(5) {
        0 => max,
        1 => -max - 1,
        2 => rng.below(21) as i64 - 10,
        _ => ((rng.next_u64() >> (64 - bits)) as i64) >> rng.below(u64::from(bits)),
    };
    if value == i64::MIN {
        "(-9223372036854775807LL - 1)".into()
    } else {
        format!("{value}LL")
    }
}

fn unsigned(rng: &mut Rng, bits: u32) -> String {
    let value = match rng.below(4) {
        0 => u64::MAX >> (64 - bits),
        1 => rng.below(20),
        _ => (rng.next_u64() >> (64 - bits)) >> rng.below(u64::from(bits)),
    };
    format!("{value}ULL")
}

/// A double, as a hexadecimal literal or a special value.
fn double(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => rng.pick(&["0.0", "-0.0", "1.0 / 0.0", "-1.0 / 0.0", "0.0 / 0.0", "0.5", "1e300", "4.9406564584124654e-324", "123456.789", "0.1"]).into(),
        1 => format!("{}.5", rng.below(100)),
        _ => {
            let mantissa = rng.next_u64() & ((1 << 52) - 1);
            let exponent = rng.below(120) as i64 - 60;
            format!("{}0x1.{mantissa:013x}p{exponent}", if rng.chance(3) { "-" } else { "" })
        }
    }
}

/// Flags, width and precision for a conversion of `kind`.
fn modifiers(rng: &mut Rng, kind: char, arguments: &mut Vec<String>) -> String {
    let mut text = String::new();
    for flag in ['-', '+', ' ', '#', '0'] {
        let allowed = match flag {
            '#' => "oxXaAeEfFgG".contains(kind),
            '0' => "diouxXaAeEfFgG".contains(kind),
            '+' | ' ' => "diaAeEfFgG".contains(kind),
            _ => true,
        };
        if allowed && rng.chance(4) {
            text.push(flag);
        }
    }
    match rng.below(5) {
        0 => text.push_str(&(1 + rng.below(25)).to_string()),
        1 => {
            text.push('*');
            arguments.push(format!("(int){}", rng.below(30) as i64 - 10));
        }
        _ => {}
    }
    if kind != 'c' {
        match rng.below(5) {
            0 => text.push_str(&format!(".{}", rng.below(20))),
            1 => {
                text.push_str(".*");
                arguments.push(format!("(int){}", rng.below(25) as i64 - 5));
            }
            2 => text.push('.'),
            _ => {}
        }
    }
    text
}

fn conversion(rng: &mut Rng) -> Conversion {
    let mut arguments = Vec::new();
    let kind = rng.pick(&['d', 'i', 'u', 'o', 'x', 'X', 'c', 's', 'f', 'e', 'g', 'a', 'E', 'G', 'F', 'A', '%']);
    if kind == '%' {
        return Conversion { spec: "%%".into(), arguments };
    }
    let mods = modifiers(rng, kind, &mut arguments);
    let (length, argument) = match kind {
        'd' | 'i' => {
            let (length, cast, bits) = rng.pick(&[("", "int", 32), ("hh", "int", 8), ("h", "int", 16), ("l", "long", 64), ("ll", "long long", 64), ("j", "long", 64), ("z", "long", 64), ("t", "long", 64)]);
            (length, format!("({cast}){}", signed(rng, bits)))
        }
        'u' | 'o' | 'x' | 'X' => {
            let (length, cast, bits) = rng.pick(&[("", "unsigned", 32), ("hh", "unsigned", 8), ("h", "unsigned", 16), ("l", "unsigned long", 64), ("ll", "unsigned long long", 64), ("z", "unsigned long", 64)]);
            (length, format!("({cast}){}", unsigned(rng, bits)))
        }
        'c' => ("", rng.pick(&["'a'", "'Z'", "' '", "0", "'%'", "65 + 256"]).to_string()),
        's' => ("", c_string(&super::strings::text(rng, 12))),
        _ => {
            if rng.chance(4) {
                ("L", format!("(long double)({})", double(rng)))
            } else {
                ("", double(rng))
            }
        }
    };
    arguments.push(argument);
    Conversion { spec: format!("%{mods}{length}{kind}"), arguments }
}

/// A format of literal text and conversions, with its arguments.
fn format_and_arguments(rng: &mut Rng) -> (String, Vec<String>) {
    let mut format = String::new();
    let mut arguments = Vec::new();
    for _ in 0..1 + rng.below(3) {
        if rng.chance(3) {
            format.push_str(rng.pick(&["x=", " ", "|", "--"]));
        }
        let c = conversion(rng);
        format.push_str(&c.spec);
        arguments.extend(c.arguments);
    }
    (format, arguments)
}

pub fn case(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Format, Kind::Exact);
    case.include("stdio.h");
    case.include("string.h");
    case.include("stdlib.h");
    case.include("stdarg.h");
    if rng.chance(5) {
        scan(rng, &mut case);
        return case;
    }
    let (format, arguments) = format_and_arguments(rng);
    let literal = c_string(format.as_bytes());
    let list = if arguments.is_empty() { String::new() } else { format!(", {}", arguments.join(", ")) };
    case.code("char out[2048]; memset(out, 'x', sizeof out);");
    match rng.below(9) {
        0 | 1 => {
            case.uses("sprintf");
            case.code(format!("int n = sprintf(out, {literal}{list});"));
            case.observe("n");
        }
        2 | 3 => {
            case.uses("snprintf");
            let size = rng.pick(&[0, 1, 2, 7, 16, 2048]);
            case.code(format!("int n = snprintf(out, {size}, {literal}{list});"));
            case.observe("n");
        }
        4 => {
            // A va_list form, through a variadic wrapper.
            let (function, call) = match rng.below(6) {
                0 => ("vsnprintf", format!("vsnprintf(out, {}, format, args)", rng.pick(&[3, 40, 2048]))),
                1 => ("vsprintf", "vsprintf(out, format, args)".to_string()),
                2 => ("vprintf", "vprintf(format, args)".to_string()),
                3 => ("vfprintf", "vfprintf(stdout, format, args)".to_string()),
                4 => ("vdprintf", "vdprintf(1, format, args)".to_string()),
                _ => ("vasprintf", "vasprintf(&text, format, args)".to_string()),
            };
            case.uses(function);
            case.top.push_str(&format!("static int @format(char *out, const char *format, ...) {{\n  char *text = 0;\n  va_list args;\n  va_start(args, format);\n  int n = {call};\n  va_end(args);\n  if (text != 0) {{ oracle_sink = oracle_hash(text, (unsigned)n < 64u ? n + 1 : 64); free(text); }}\n  return n;\n}}\n"));
            case.code(format!("int n = @format(out, {literal}{list});"));
            if function == "vasprintf" {
                // glibc's allocation succeeds here; the model's may fail.
                case.assume("n >= 0");
                case.observe("oracle_sink");
            }
            case.observe("n");
        }
        5 => {
            case.uses("asprintf");
            case.code(format!("char *text = 0; int n = asprintf(&text, {literal}{list});"));
            // glibc's allocation succeeds here; the model's may fail.
            case.assume("n >= 0");
            case.observe("n");
            case.observe("oracle_hash(text, (unsigned)n < 64u ? n + 1 : 64)");
            case.code("free(text); n = 0;");
        }
        6 => {
            let function = rng.pick(&["printf", "fprintf", "dprintf"]);
            case.uses(function);
            let call = match function {
                "printf" => format!("printf({literal}{list})"),
                "fprintf" => format!("fprintf(stdout, {literal}{list})"),
                _ => format!("dprintf(1, {literal}{list})"),
            };
            case.code(format!("int n = {call};"));
            case.observe("n");
            case.code("n = 0;");
        }
        7 => {
            // %n stores the count so far (the models take it in printf,
            // not in a text they write).
            case.uses("printf");
            case.code("int count = -1;");
            let counted = c_string(format!("{format}%n|").as_bytes());
            case.code(format!("int n = printf({counted}{list}, &count);"));
            case.observe("n");
            case.observe("count");
            case.code("n = 0;");
        }
        _ => {
            output(rng, &mut case);
            case.code("int n = 0;");
        }
    }
    // The text and the two bytes after it (a terminator, then the fill);
    // a count the model does not know bounds the hash to 600 bytes.
    case.observe("oracle_hash(out, (unsigned)n < 598u ? n + 2 : 600)");
    case
}

/// The unformatted output functions' results on stdout.
fn output(rng: &mut Rng, case: &mut Case) {
    let text = c_string(&super::strings::text(rng, 10));
    let (function, call) = match rng.below(6) {
        0 => ("puts", format!("puts({text})")),
        1 => ("fputs", format!("fputs({text}, stdout)")),
        2 => ("putchar", "putchar(0x1e9)".to_string()),
        3 => ("fputc", "fputc(-3, stdout)".to_string()),
        4 => ("putc", "putc('q', stdout)".to_string()),
        _ => ("fflush", "fflush(stdout)".to_string()),
    };
    case.uses(function);
    case.observe(call);
}

/// sscanf of a text meant for (or stopping) its format.
fn scan(rng: &mut Rng, case: &mut Case) {
    case.uses("sscanf");
    let (format, text) = rng.pick(&[
        ("%d %d", "12 -7"),
        ("%d%n", "  +42xyz"),
        ("%x:%o", "ff:17"),
        ("%5s %c", "abcdefgh k"),
        ("%[a-c]%s", "abcabd rest"),
        ("%i %i %i", "0x10 010 -9"),
        ("%u", "-1"),
        ("%lf %f", "1.5e3 -0.25"),
        ("%d", "z"),
        ("%d", ""),
        ("%hhd %hd %ld", "300 70000 -5"),
    ]);
    case.code("int i0 = -1, i1 = -1, i2 = -1, n = -1; char s0[16] = \"\"; char c0 = 0; double d0 = 0; float f0 = 0; long l0 = 0; short h0 = 0; signed char b0 = 0;");
    let targets = match format {
        "%d %d" | "%x:%o" => "&i0, &i1",
        "%d%n" => "&i0, &n",
        "%5s %c" => "s0, &c0",
        "%[a-c]%s" => "s0, s0 + 8",
        "%i %i %i" => "&i0, &i1, &i2",
        "%u" | "%d" => "(int *)&i0",
        "%lf %f" => "&d0, &f0",
        _ => "&b0, &h0, &l0",
    };
    case.observe(format!("sscanf({}, {}, {targets})", c_string(text.as_bytes()), c_string(format.as_bytes())));
    case.observe("oracle_hash(&i0, sizeof i0) ^ oracle_hash(&i1, sizeof i1) ^ oracle_hash(&i2, sizeof i2) ^ n");
    case.observe("oracle_hash(s0, sizeof s0) ^ c0 ^ oracle_hash(&d0, 8) ^ oracle_hash(&f0, 4) ^ l0 ^ h0 ^ b0");
}
