//! Random integer expressions computed two ways. The first way is the C a
//! program would write: typed temporaries, promotions and usual
//! arithmetic conversions left to the compiler, literals of every radix
//! and suffix, compound assignment, `++`/`--`, `?:`, `,`, `sizeof` of an
//! expression. The second way ("alt") redoes every step on canonical
//! 64-bit forms in `unsigned long long` with explicit masks, from the
//! generator's own knowledge of the types, so the two share no implicit
//! conversion. Every operation that could be undefined is guarded or done
//! in the unsigned type of its width, so both ways are defined for every
//! input.

use super::types::{alt_convert, canonical, common_type, literal, typed_constant, IntTy};
use super::Body;
use crate::oracle::Rng;
use std::fmt::Write as _;

/// An operand: its C text, the text of its canonical form in the alt
/// computation, and its type.
#[derive(Clone)]
struct Operand {
    text: String,
    alt: String,
    ty: IntTy,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LogicalAnd,
    LogicalOr,
}

impl BinOp {
    const ALL: [BinOp; 18] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::LogicalAnd,
        BinOp::LogicalOr,
    ];

    fn token(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::LogicalAnd => "&&",
            BinOp::LogicalOr => "||",
        }
    }

    fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr)
    }

    fn is_comparison(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }

    /// The type of `a op b`.
    fn result_type(self, a: IntTy, b: IntTy) -> IntTy {
        if self.is_shift() {
            a.promoted()
        } else if self.is_comparison() || matches!(self, BinOp::LogicalAnd | BinOp::LogicalOr) {
            IntTy::Int
        } else {
            common_type(a, b)
        }
    }
}

/// Builds one case: the statements of both ways, appended to `body`.
pub struct ExprBuilder<'a> {
    rng: &'a mut Rng,
    body: Body,
    values: Vec<Operand>,
    next_temp: usize,
}

impl<'a> ExprBuilder<'a> {
    pub fn new(rng: &'a mut Rng, inputs: &[IntTy]) -> ExprBuilder<'a> {
        let mut body = Body::default();
        let mut values = Vec::new();
        for (index, &ty) in inputs.iter().enumerate() {
            let _ = writeln!(body.alt, "  unsigned long long a{index} = (unsigned long long)in{index};");
            values.push(Operand { text: format!("in{index}"), alt: format!("a{index}"), ty });
        }
        ExprBuilder { rng, body, values, next_temp: 0 }
    }

    /// `steps` random operations; the result folds every value.
    pub fn build(mut self, steps: usize) -> Body {
        for _ in 0..steps {
            self.step();
        }
        // Every value is folded into the result, so no step is dead.
        for value in &self.values {
            let _ = writeln!(self.body.text, "  r = r * 1000003u + (unsigned long long){};", value.text);
            let _ = writeln!(self.body.alt, "  alt = alt * 1000003u + {};", value.alt);
        }
        self.body
    }

    fn step(&mut self) {
        match self.rng.below(12) {
            0..=5 => {
                let op = self.rng.pick(&BinOp::ALL);
                self.binary(op);
            }
            6 => self.unary(),
            7 => self.conditional(),
            8 => self.compound_assignment(),
            9 => self.increment(),
            10 => self.size_of(),
            _ => {
                let ty = self.rng.pick(&IntTy::ALL);
                let a = self.operand();
                self.define(ty, &format!("({}){}", ty.c_name(), a.text), &alt_convert(ty, &a.alt), "");
            }
        }
    }

    /// A recent value (most often the last), an input, or a fresh literal.
    fn operand(&mut self) -> Operand {
        if self.rng.chance(4) {
            return self.literal();
        }
        let count = self.values.len() as u64;
        let index = if self.rng.chance(2) { count - 1 } else { self.rng.below(count) };
        self.values[index as usize].clone()
    }

    fn literal(&mut self) -> Operand {
        let ty = self.rng_type();
        let magnitude = super::edge_value(self.rng, ty);
        let hex = self.rng.chance(2);
        let suffix = self.rng.pick(&["", "", "u", "l", "ul", "ll", "ull"]);
        let negate = self.rng.chance(4);
        match literal(magnitude & (u64::MAX >> self.rng.below(2)), hex, suffix, negate) {
            Some((text, ty, value)) => Operand { text, alt: format!("0x{value:x}ull"), ty },
            None => {
                let ty = self.rng_type();
                let value = canonical(ty, magnitude);
                Operand { text: typed_constant(ty, value), alt: format!("0x{value:x}ull"), ty }
            }
        }
    }

    fn rng_type(&mut self) -> IntTy {
        self.rng.pick(&IntTy::ALL)
    }

    /// Declares a temporary of the expression's type, or now and then of
    /// another type, so that the expression's type shows in the value.
    fn define(&mut self, ty: IntTy, text: &str, alt: &str, prelude: &str) {
        let declared = if self.rng.chance(4) { self.rng_type() } else { ty };
        let name = self.next_temp;
        self.next_temp += 1;
        let _ = writeln!(self.body.text, "  {prelude}{} t{name} = {text};", declared.c_name());
        let _ = writeln!(self.body.alt, "  unsigned long long u{name} = {};", alt_convert(declared, &format!("({alt})")));
        self.values.push(Operand { text: format!("t{name}"), alt: format!("u{name}"), ty: declared });
    }

    fn fresh_name(&mut self) -> String {
        self.next_temp += 1;
        format!("w{}", self.next_temp)
    }

    fn binary(&mut self, op: BinOp) {
        let a = self.operand();
        let b = self.operand();
        let ty = op.result_type(a.ty, b.ty);
        let (text, prelude) = self.binary_text(op, &a, &b, ty);
        let alt = binary_alt(op, &a.alt, a.ty, &b.alt, b.ty, ty);
        self.define(ty, &text, &alt, &prelude);
    }

    /// The C text of `a op b` of type `ty`, undefined behaviour guarded,
    /// and the statements it needs first.
    fn binary_text(&mut self, op: BinOp, a: &Operand, b: &Operand, ty: IntTy) -> (String, String) {
        let (x, y) = (&a.text, &b.text);
        let token = op.token();
        let name = ty.c_name();
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul if ty.is_signed() => {
                let builtin = match op {
                    BinOp::Add => "add",
                    BinOp::Sub => "sub",
                    _ => "mul",
                };
                let unsigned = ty.to_unsigned().c_name();
                // gcc refuses `_Bool` operands of the overflow builtins.
                let forms = if a.ty == IntTy::Bool || b.ty == IntTy::Bool { 1 } else { 3 };
                match self.rng.below(forms) {
                    0 => (format!("({name})(({unsigned}){x} {token} ({unsigned}){y})"), String::new()),
                    1 => {
                        let wrapped = self.fresh_name();
                        (wrapped.clone(), format!("{name} {wrapped}; (void)__builtin_{builtin}_overflow({x}, {y}, &{wrapped});\n  "))
                    }
                    _ => {
                        let wrapped = self.fresh_name();
                        (format!("__builtin_{builtin}_overflow({x}, {y}, &{wrapped}) ? {wrapped} : {x} {token} {y}"), format!("{name} {wrapped};\n  "))
                    }
                }
            }
            BinOp::Div | BinOp::Rem if ty.is_signed() => (
                format!("(({name}){y} != 0 && !(({name}){x} == {} && ({name}){y} == -1)) ? {x} {token} {y} : ({name}){x}", ty.min_macro()),
                String::new(),
            ),
            BinOp::Div | BinOp::Rem => (format!("{y} != 0 ? {x} {token} {y} : ({name}){x}"), String::new()),
            BinOp::Shl | BinOp::Shr => {
                let amount = format!("({y} & {})", ty.width() - 1);
                if op == BinOp::Shl && ty.is_signed() {
                    (format!("({name})(({}){x} << {amount})", ty.to_unsigned().c_name()), String::new())
                } else {
                    (format!("{x} {token} {amount}"), String::new())
                }
            }
            _ => (format!("{x} {token} {y}"), String::new()),
        }
    }

    fn unary(&mut self) {
        let a = self.operand();
        let ty = a.ty.promoted();
        let converted = alt_convert(ty, &a.alt);
        let x = &a.text;
        let (text, alt) = match self.rng.below(4) {
            0 => (format!("~{x}"), format!("~{converted}")),
            1 if ty.is_signed() => (
                format!("{x} == {} ? {x} : -{x}", ty.min_macro()),
                format!("{converted} == 0x{:x}ull ? {converted} : 0 - {converted}", ty.min_canonical()),
            ),
            1 => (format!("-{x}"), format!("0 - {converted}")),
            2 => {
                self.define(IntTy::Int, &format!("!{x}"), &format!("(unsigned long long)({} == 0)", a.alt), "");
                return;
            }
            _ => (format!("+{x}"), converted.clone()),
        };
        self.define(ty, &text, &alt_convert(ty, &format!("({alt})")), "");
    }

    fn conditional(&mut self) {
        let c = self.operand();
        let a = self.operand();
        let b = self.operand();
        let ty = common_type(a.ty, b.ty);
        if self.rng.chance(3) {
            // The comma operator: the right operand's type, unpromoted.
            self.define(b.ty, &format!("({}, {})", a.text, b.text), &b.alt, "");
            return;
        }
        let text = format!("{} ? {} : {}", c.text, a.text, b.text);
        let alt = format!("{} != 0 ? {} : {}", c.alt, alt_convert(ty, &a.alt), alt_convert(ty, &b.alt));
        self.define(ty, &text, &alt, "");
    }

    /// `T t = a; t op= b;`, only where the computation cannot overflow a
    /// signed type.
    fn compound_assignment(&mut self) {
        let ty = self.rng_type();
        let a = self.operand();
        let b = self.operand();
        let op = self.rng.pick(&[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Rem, BinOp::Shl, BinOp::Shr, BinOp::And, BinOp::Or, BinOp::Xor]);
        let computation = op.result_type(ty, b.ty);
        let small = |t: IntTy, bits| t.width() <= bits;
        let defined = match op {
            BinOp::Add | BinOp::Sub => !computation.is_signed() || (small(ty, 16) && small(b.ty, 16)),
            BinOp::Mul => !computation.is_signed() || (small(ty, 8) && small(b.ty, 8)),
            BinOp::Shl => !computation.is_signed(),
            _ => true,
        };
        if !defined {
            return self.binary(op);
        }
        let name = self.next_temp;
        self.next_temp += 1;
        let target = Operand { text: format!("t{name}"), alt: format!("u{name}"), ty };
        let (text, _) = self.binary_text(op, &target, &b, computation);
        let guarded = match op {
            BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr => format!("t{name} = {text};"),
            _ => format!("t{name} {}= {};", op.token(), b.text),
        };
        let _ = writeln!(self.body.text, "  {} t{name} = {};\n  {guarded}", ty.c_name(), a.text);
        let start = alt_convert(ty, &a.alt);
        let updated = alt_convert(ty, &format!("({})", binary_alt(op, &format!("u{name}"), ty, &b.alt, b.ty, computation)));
        let _ = writeln!(self.body.alt, "  unsigned long long u{name} = {start};\n  u{name} = {updated};");
        self.values.push(target);
    }

    /// `T t = a; T v = t++;` (or `++t`, `t--`, `--t`) on a type whose
    /// promotion cannot overflow.
    fn increment(&mut self) {
        let ty = self.rng.pick(&[IntTy::Bool, IntTy::Char, IntTy::SChar, IntTy::UChar, IntTy::Short, IntTy::UShort, IntTy::UInt, IntTy::ULong, IntTy::ULLong]);
        let a = self.operand();
        let (token, delta) = self.rng.pick(&[("++", "+ 1"), ("--", "- 1")]);
        let prefix = self.rng.chance(2);
        let counter = self.next_temp;
        let result = counter + 1;
        self.next_temp += 2;
        let expression = if prefix { format!("{token}t{counter}") } else { format!("t{counter}{token}") };
        let _ = writeln!(self.body.text, "  {0} t{counter} = {1};\n  {0} t{result} = {expression};", ty.c_name(), a.text);
        let start = alt_convert(ty, &a.alt);
        let stepped = alt_convert(ty, &format!("(u{counter} {delta})"));
        let value = if prefix { format!("u{counter}") } else { format!("u{result}") };
        let _ = writeln!(
            self.body.alt,
            "  unsigned long long u{counter} = {start};\n  unsigned long long u{result} = u{counter};\n  u{counter} = {stepped};\n  u{result} = {value};"
        );
        self.values.push(Operand { text: format!("t{counter}"), alt: format!("u{counter}"), ty });
        self.values.push(Operand { text: format!("t{result}"), alt: format!("u{result}"), ty });
    }

    /// `sizeof` or `_Generic` of an expression: its type, as the compiler
    /// sees it.
    fn size_of(&mut self) {
        let a = self.operand();
        let b = self.operand();
        let (text, ty) = match self.rng.below(4) {
            0 => (format!("({}, {})", a.text, b.text), b.ty),
            1 => (format!("{} ? {} : {}", a.text, a.text, b.text), common_type(a.ty, b.ty)),
            2 => (format!("-{}", a.text), a.ty.promoted()),
            _ => {
                let op = self.rng.pick(&BinOp::ALL);
                (format!("{} {} {}", a.text, op.token(), b.text), op.result_type(a.ty, b.ty))
            }
        };
        if self.rng.chance(2) {
            let bytes = ty.width().div_ceil(8);
            self.define(IntTy::ULong, &format!("sizeof({text})"), &format!("{bytes}ull"), "");
            return;
        }
        // `_Generic` tells apart types of one size (`long`, `long long`).
        let associations: Vec<String> = IntTy::ALL.iter().enumerate().map(|(i, t)| format!("{}: {i}", t.c_name())).collect();
        let index = IntTy::ALL.iter().position(|&t| t == ty).unwrap_or_default();
        self.define(IntTy::Int, &format!("_Generic(({text}), {})", associations.join(", ")), &format!("{index}ull"), "");
    }
}

/// The alt computation of `a op b` (canonical forms `a`, `b` of types
/// `a_ty`, `b_ty`) whose C type is `ty`; it mirrors the guards of
/// [`ExprBuilder::binary_text`].
fn binary_alt(op: BinOp, a: &str, a_ty: IntTy, b: &str, b_ty: IntTy, ty: IntTy) -> String {
    let token = op.token();
    if op.is_comparison() {
        let common = common_type(a_ty, b_ty);
        let (x, y) = (alt_convert(common, a), alt_convert(common, b));
        return if common.is_signed() {
            format!("(unsigned long long)((long long){x} {token} (long long){y})")
        } else {
            format!("(unsigned long long)({x} {token} {y})")
        };
    }
    if matches!(op, BinOp::LogicalAnd | BinOp::LogicalOr) {
        return format!("(unsigned long long)({a} != 0 {token} {b} != 0)");
    }
    let x = alt_convert(ty, a);
    if op.is_shift() {
        let amount = format!("({b} & {})", ty.width() - 1);
        return match (op, ty.is_signed()) {
            (BinOp::Shr, true) => format!("(unsigned long long)((long long){x} >> {amount})"),
            _ => alt_convert(ty, &format!("({x} {token} {amount})")),
        };
    }
    let y = alt_convert(ty, b);
    match op {
        BinOp::Div | BinOp::Rem if ty.is_signed() => format!(
            "({y} != 0 && !({x} == 0x{:x}ull && {y} == 0xffffffffffffffffull)) ? (unsigned long long)((long long){x} {token} (long long){y}) : {x}",
            ty.min_canonical()
        ),
        BinOp::Div | BinOp::Rem => format!("{y} != 0 ? {x} {token} {y} : {x}"),
        _ => alt_convert(ty, &format!("({x} {token} {y})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guards_mirror_each_other() {
        let alt = binary_alt(BinOp::Div, "a", IntTy::Int, "b", IntTy::Int, IntTy::Int);
        assert!(alt.contains("0xffffffff80000000ull") && alt.contains("(long long)"), "{alt}");
        let shift = binary_alt(BinOp::Shr, "a", IntTy::Short, "b", IntTy::Int, IntTy::Int);
        assert!(shift.starts_with("(unsigned long long)((long long)") && shift.contains("& 31"), "{shift}");
        let compare = binary_alt(BinOp::Lt, "a", IntTy::Int, "b", IntTy::UInt, IntTy::Int);
        assert_eq!(compare, "(unsigned long long)((a & 0xffffffffull) < (b & 0xffffffffull))");
    }

    #[test]
    fn every_step_defines_a_value_in_both_ways() {
        let mut rng = Rng::new(5);
        for _ in 0..50 {
            let body = ExprBuilder::new(&mut rng, &[IntTy::Int, IntTy::UChar]).build(6);
            assert!(body.text.contains("  r = r * 1000003u + (unsigned long long)t") && body.alt.contains("  alt = alt * 1000003u + u"), "{body:?}");
            assert!(!body.alt.contains("in0 ") && !body.alt.contains("t0"), "alt reads only canonical forms: {}", body.alt);
        }
    }
}
