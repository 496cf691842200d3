//! The `math` family: the `<math.h>` functions with an exact IEEE
//! definition that the math model writes in C (sign and class functions,
//! `fmin`/`fmax`/`fdim`, `lrint`/`lround`, `frexp`, `scalbn`/`ldexp`/
//! `scalbln`, `ilogb`/`logb`, `nextafter`/`nexttoward`, `modf`, `remquol`,
//! and `<complex.h>`'s `creal`/`cimag`/`conj`) and the ones symex and the
//! interpreter compute natively (`sqrt`, `fma`, `fmod`, `remainder`, the
//! roundings to an integral value), in float, double and x87 long double,
//! under every rounding mode `fesetround` selects. Operands are the
//! special values (signed zeros, infinities, NaNs with payloads,
//! subnormals, the extremes, halfway cases) or random bit patterns, pinned
//! by their bits; results are observed by their bits (a long double by a
//! hash of its 10 bytes).

use super::{Case, Family, Kind};
use crate::oracle::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Float,
    Double,
    Long,
}

impl Format {
    fn c_type(self) -> &'static str {
        match self {
            Format::Float => "float",
            Format::Double => "double",
            Format::Long => "long double",
        }
    }

    /// The bytes of a value (x87's 10, not its padding).
    fn width(self) -> usize {
        match self {
            Format::Float => 4,
            Format::Double => 8,
            Format::Long => 10,
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            Format::Float => "f",
            Format::Double => "",
            Format::Long => "l",
        }
    }

    /// (exponent bits, fraction bits, explicit integer bit).
    fn shape(self) -> (u32, u32, bool) {
        match self {
            Format::Float => (8, 23, false),
            Format::Double => (11, 52, false),
            Format::Long => (15, 63, true),
        }
    }

    /// Bits of a value built from a sign, a biased exponent and a fraction.
    fn bits(self, negative: bool, exponent: u128, fraction: u128) -> u128 {
        let (e, f, explicit) = self.shape();
        let integer = if explicit && exponent != 0 { 1u128 << 63 } else { 0 };
        (u128::from(negative) << (e + f + u32::from(explicit))) | (exponent << (f + u32::from(explicit))) | integer | fraction
    }
}

/// An operand's bits: a special value or a random one.
fn operand(rng: &mut Rng, format: Format) -> u128 {
    let (e, f, _) = format.shape();
    let max_exponent = (1u128 << e) - 1;
    let bias = max_exponent >> 1;
    let negative = rng.chance(2);
    let fraction = |rng: &mut Rng| u128::from(rng.next_u64()) & ((1u128 << f) - 1);
    match rng.below(14) {
        0 => format.bits(negative, 0, 0),
        1 => format.bits(negative, max_exponent, 0),
        2 => format.bits(negative, max_exponent, (1u128 << (f - 1)) | rng.pick(&[0, 1, 5])),
        3 => format.bits(negative, max_exponent, rng.pick(&[1, 3])),
        4 => format.bits(negative, 0, rng.pick(&[1, (1u128 << f) - 1, 1u128 << (f - 1)])),
        5 => format.bits(negative, 0, fraction(rng)),
        6 => format.bits(negative, max_exponent - 1, (1u128 << f) - 1),
        7 => format.bits(negative, 1, 0),
        // Small integers and halfway cases: 0.5 .. 2^24 with few fraction bits.
        8 | 9 => format.bits(negative, bias - 1 + u128::from(rng.below(25) as u32), fraction(rng) & !((1u128 << (f - 3)) - 1)),
        10 => format.bits(negative, bias + rng.pick(&[0, 1, 31, 52, 53, 62, 63, 64]), 0),
        _ => format.bits(negative, u128::from(rng.below(max_exponent as u64)), fraction(rng)),
    }
}

/// Declares `name` of `format` with the given bits, pinned through
/// integers (so a NaN's payload and a zero's sign are pinned too).
fn pin_float(case: &mut Case, format: Format, name: &str, bits: u128) {
    let ty = format.c_type();
    match format {
        Format::Float => {
            case.pin("unsigned int", &format!("{name}_bits"), &format!("{:#x}u", bits as u32));
            case.code(format!("{ty} {name}; memcpy(&{name}, &{name}_bits, 4);"));
        }
        Format::Double => {
            case.pin("unsigned long long", &format!("{name}_bits"), &format!("{:#x}ull", bits as u64));
            case.code(format!("{ty} {name}; memcpy(&{name}, &{name}_bits, 8);"));
        }
        Format::Long => {
            case.pin("unsigned long long", &format!("{name}_low"), &format!("{:#x}ull", bits as u64));
            case.pin("unsigned short", &format!("{name}_high"), &format!("{:#x}", (bits >> 64) as u16));
            case.code(format!("{ty} {name} = 0; memcpy(&{name}, &{name}_low, 8); memcpy((char *)&{name} + 8, &{name}_high, 2);"));
        }
    }
}

/// Observes the bits of the floating-point expression `value`.
fn observe_float(case: &mut Case, format: Format, value: &str, slot: usize) {
    let ty = format.c_type();
    case.code(format!("{ty} r{slot} = {value};"));
    case.observe(format!("oracle_hash(&r{slot}, {})", format.width()));
}

/// The rounding modes, as `<fenv.h>` names them.
const MODES: [&str; 4] = ["FE_TONEAREST", "FE_UPWARD", "FE_DOWNWARD", "FE_TOWARDZERO"];

pub fn case(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Math, Kind::Exact);
    case.include("math.h");
    case.include("string.h");
    let format = rng.pick(&[Format::Float, Format::Double, Format::Long]);
    if rng.chance(3) {
        case.include("fenv.h");
        case.uses("fesetround");
        let mode = rng.pick(&MODES);
        case.observe(format!("fesetround({mode})"));
        if rng.chance(4) {
            case.uses("fegetround");
            case.observe("fegetround()");
        }
    }
    for slot in 0..1 + rng.below(3) {
        call(rng, &mut case, format, slot as usize);
    }
    case
}

/// A function of one operand returning the operand's type.
const UNARY: [&str; 9] = ["fabs", "sqrt", "trunc", "floor", "ceil", "round", "rint", "nearbyint", "logb"];

/// A function of two operands returning the operand's type.
const BINARY: [&str; 8] = ["copysign", "fmax", "fmin", "fdim", "nextafter", "fmod", "remainder", "fmax"];

/// A function of one operand returning an int.
const CLASSIFY: [&str; 8] = ["__signbit", "__isnan", "__isinf", "__finite", "__fpclassify", "isnan", "isinf", "finite"];

fn call(rng: &mut Rng, case: &mut Case, format: Format, slot: usize) {
    let s = format.suffix();
    let x = format!("x{slot}");
    let y = format!("y{slot}");
    pin_float(case, format, &x, operand(rng, format));
    match rng.below(11) {
        10 => inexact(rng, case, format, slot),
        0 | 1 => {
            let base = rng.pick(&UNARY);
            uses(case, base, format);
            observe_float(case, format, &format!("{base}{s}({x})"), slot);
        }
        2 | 3 => {
            let base = rng.pick(&BINARY);
            let function = if base == "fmin" && format == Format::Long { "fminl".to_string() } else { format!("{base}{s}") };
            uses(case, base, format);
            pin_float(case, format, &y, operand(rng, format));
            observe_float(case, format, &format!("{function}({x}, {y})"), slot);
        }
        4 => {
            let base = rng.pick(&CLASSIFY);
            let function = match format {
                Format::Double => base.to_string(),
                _ => format!("{base}{s}"),
            };
            uses(case, base, format);
            // `(isnan)(x)` calls the function, not glibc's macro. gcc
            // expands a direct call of isnan or isinf as its built-in,
            // whose nonzero value is not glibc's (see math.c): only
            // whether it is nonzero is the library's.
            let call = format!("({function})({x})");
            case.observe(if matches!(base, "isnan" | "isinf") { format!("{call} != 0") } else { call });
        }
        5 => {
            uses(case, "fma", format);
            pin_float(case, format, &y, operand(rng, format));
            pin_float(case, format, &format!("z{slot}"), operand(rng, format));
            observe_float(case, format, &format!("fma{s}({x}, {y}, z{slot})"), slot);
        }
        6 => {
            let base = rng.pick(&["frexp", "ilogb"]);
            uses(case, base, format);
            if base == "frexp" {
                case.code(format!("int e{slot} = 12345;"));
                observe_float(case, format, &format!("frexp{s}({x}, &e{slot})"), slot);
                case.observe(format!("e{slot}"));
            } else {
                case.observe(format!("ilogb{s}({x})"));
            }
        }
        7 => {
            let base = rng.pick(&["scalbn", "ldexp", "scalbln"]);
            uses(case, base, format);
            let n = rng.pick(&["0", "1", "-1", "64", "-1074", "-16445", "16383", "2147483647", "-2147483647 - 1", "-150", "127"]);
            let ty = if base == "scalbln" { "long" } else { "int" };
            case.pin(ty, &format!("n{slot}"), n);
            observe_float(case, format, &format!("{base}{s}({x}, n{slot})"), slot);
        }
        8 => {
            let base = rng.pick(&["modf", "nexttoward"]);
            uses(case, base, format);
            if base == "modf" {
                let ty = format.c_type();
                case.code(format!("{ty} i{slot} = 0;"));
                observe_float(case, format, &format!("modf{s}({x}, &i{slot})"), slot);
                case.observe(format!("oracle_hash(&i{slot}, {})", format.width()));
            } else {
                pin_float(case, Format::Long, &y, operand(rng, Format::Long));
                observe_float(case, format, &format!("nexttoward{s}({x}, {y})"), slot);
            }
        }
        _ => rounding_to_integer(rng, case, format, slot, &x, &y),
    }
}

/// `lrint`/`llrint`/`lround`/`llround` on operands whose rounding fits
/// long (beyond, C leaves the result unspecified), `remquol` and the
/// complex parts.
fn rounding_to_integer(rng: &mut Rng, case: &mut Case, format: Format, slot: usize, x: &str, y: &str) {
    let s = format.suffix();
    match rng.below(3) {
        0 => {
            let base = rng.pick(&["lrint", "llrint", "lround", "llround"]);
            uses(case, base, format);
            // An operand whose rounding fits long: below 2^62 in magnitude.
            let (e, f, explicit) = format.shape();
            let bias = (1u128 << (e - 1)) - 1;
            let operand = loop {
                let bits = operand(rng, format);
                let exponent = (bits >> (f + u32::from(explicit))) & ((1u128 << e) - 1);
                if exponent < bias + 62 {
                    break bits;
                }
            };
            let rounded = format!("{x}_fits");
            pin_float(case, format, &rounded, operand);
            case.observe(format!("{base}{s}({rounded})"));
        }
        1 if format == Format::Long => {
            case.uses("remquol");
            pin_float(case, format, y, operand(rng, format));
            case.code(format!("int q{slot} = 12345;"));
            observe_float(case, format, &format!("remquol({x}, {y}, &q{slot})"), slot);
            case.observe(format!("q{slot}"));
        }
        _ if format != Format::Long => {
            let part = rng.pick(&["creal", "cimag", "conj", "cabs", "carg"]);
            uses(case, part, format);
            case.include("complex.h");
            pin_float(case, format, y, operand(rng, format));
            let ty = format.c_type();
            case.code(format!("{ty} _Complex z{slot}; __real__ z{slot} = {x}; __imag__ z{slot} = {y};"));
            if part == "conj" {
                case.code(format!("{ty} _Complex w{slot} = conj{s}(z{slot});"));
                observe_float(case, format, &format!("__imag__ w{slot}"), slot);
            } else {
                observe_float(case, format, &format!("{part}{s}(z{slot})"), slot);
            }
        }
        _ => {
            uses(case, "fabs", format);
            observe_float(case, format, &format!("fabs{s}({x})"), slot);
        }
    }
}

/// Records the function `base` in `format`'s name for the coverage table.
fn uses(case: &mut Case, base: &str, format: Format) {
    case.uses(format!("{base}{}", format.suffix()));
}

/// An inexact function (`ir::libm`) in rounding to nearest, on constant
/// operands (gcc computes the call correctly rounded, the host library's
/// last bit may differ: tarsier must admit both) or on pinned ones (the
/// host library's value at run time).
fn inexact(rng: &mut Rng, case: &mut Case, format: Format, slot: usize) {
    let functions = super::coverage::inexact_functions();
    let (names, arity) = &functions[rng.below(functions.len() as u64) as usize];
    let name = match format {
        Format::Double => names[0].clone(),
        Format::Float => names[1].clone(),
        Format::Long => names[2].clone(),
    };
    let ty = format.c_type();
    let constant = rng.chance(2);
    let mut arguments = Vec::new();
    for i in 0..*arity {
        // Eighths: exact in every format.
        let eighths = rng.pick(&["4", "-2", "8", "16", "24", "1", "80", "-12", "0", "800"]);
        if constant {
            arguments.push(format!("({ty}){eighths} / 8"));
        } else {
            let pinned = format!("k{slot}_{i}");
            case.pin("int", &pinned, eighths);
            arguments.push(format!("({ty}){pinned} / 8"));
        }
    }
    case.code("fesetround(FE_TONEAREST);");
    case.include("fenv.h");
    case.uses(name.clone());
    observe_float(case, format, &format!("{name}({})", arguments.join(", ")), slot);
}
