//! ESBMC's overflow-result built-ins in the executable harness.
//! `DEFINE_ESBMC_OVERFLOW_TYPE(T)` declares `__ESBMC_overflow_result`
//! (`T result; _Bool overflow;`) and `__ESBMC_overflow_result_plus` (and
//! `minus`, `mult`, `shl`, `unary_minus`) return one: the exact result
//! wrapped to `T`, and whether it differs from the exact one (for `shl`
//! also a negative count or one not below the promoted operand's width),
//! as tarsier's front end lowers them (cfront's `sema::overflow`). gcc
//! knows none of them, so a rewritten copy of a program file that uses
//! them starts with these macros, built on gcc's overflow built-ins (a shift
//! as the product by a power of two, exact for every count in range).

/// Whether a program file's text (`code` its code mask) uses the built-ins.
pub fn uses_builtins(text: &str, code: &[bool]) -> bool {
    ["DEFINE_ESBMC_OVERFLOW_TYPE", "__ESBMC_overflow_result_"].iter().any(|name| text.match_indices(name).any(|(at, _)| code[at]))
}

/// The macros the copy starts with.
pub const MACROS: &str = "#define DEFINE_ESBMC_OVERFLOW_TYPE(T) typedef struct { T result; _Bool overflow; } __ESBMC_overflow_result;
#define __TARSIER_HARNESS_OVERFLOW(builtin, a, b) \\
    ({ __ESBMC_overflow_result harness_r_; harness_r_.overflow = builtin((a), (b), &harness_r_.result); harness_r_; })
#define __ESBMC_overflow_result_plus(a, b) __TARSIER_HARNESS_OVERFLOW(__builtin_add_overflow, a, b)
#define __ESBMC_overflow_result_minus(a, b) __TARSIER_HARNESS_OVERFLOW(__builtin_sub_overflow, a, b)
#define __ESBMC_overflow_result_mult(a, b) __TARSIER_HARNESS_OVERFLOW(__builtin_mul_overflow, a, b)
#define __ESBMC_overflow_result_unary_minus(a) __TARSIER_HARNESS_OVERFLOW(__builtin_sub_overflow, 0, a)
#define __ESBMC_overflow_result_shl(a, b) \\
    ({ __ESBMC_overflow_result harness_r_; __typeof__(+(a)) harness_a_ = (a); long long harness_b_ = (b); \\
       int harness_out_ = harness_b_ < 0 || harness_b_ >= (long long)(8 * sizeof harness_a_); \\
       harness_r_.overflow = __builtin_mul_overflow(harness_a_, harness_out_ ? 0ULL : 1ULL << harness_b_, &harness_r_.result) \\
                             || harness_out_; harness_r_; })
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_ins_are_found_in_code_only() {
        let text = "DEFINE_ESBMC_OVERFLOW_TYPE(int)\nint main() { return 0; }";
        assert!(uses_builtins(text, &crate::harness_locals::code_mask(text)));
        let comment = "/* __ESBMC_overflow_result_plus */ int x;";
        assert!(!uses_builtins(comment, &crate::harness_locals::code_mask(comment)));
    }
}
