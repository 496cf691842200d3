//! Verdicts on programs that call the C library models: the models' exact
//! results make assertions provable, their failure cases make them fail
//! (every FALSE replayed by the interpreter running the same models), and
//! what they leave unmodelled keeps a verdict UNKNOWN.

use engine::{verify, Config, Verdict};
use ir::PropertyClass;
use std::io::Write;

fn run(source: &str, config: &Config) -> Verdict {
    let dir = std::env::temp_dir().join(format!("tarsier-libc-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hash = source.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let path = dir.join(format!("t{hash:x}.c"));
    std::fs::File::create(&path)
        .unwrap()
        .write_all(source.as_bytes())
        .unwrap();
    let mut diags = cfront::diag::Diagnostics::default();
    let program = cfront::compile(&[path], &cfront::Options::default(), &mut diags);
    let mut program = program.unwrap_or_else(|| panic!("does not compile: {:?}", diags.list));
    analysis::instrument(&mut program, &analysis::Checks::default());
    verify(&program, config).verdict
}

#[track_caller]
fn expect_true(source: &str, config: &Config) {
    match run(source, config) {
        Verdict::True => {}
        other => panic!("expected TRUE, got {other:?}"),
    }
}

#[track_caller]
fn expect_false(source: &str, config: &Config, class: PropertyClass) {
    match run(source, config) {
        Verdict::False(cex) => assert_eq!(cex.property.class, class, "{cex:?}"),
        other => panic!("expected FALSE({class:?}), got {other:?}"),
    }
}

fn leak_checks() -> Config {
    Config {
        memory_leak_checks: true,
        ..Config::default()
    }
}

const ATEXIT: &str = "#include <stdlib.h>\n#include <assert.h>\n\
    extern int __VERIFIER_nondet_int(void);\n\
    int *block; int order;\n\
    void release(void) { free(block); block = 0; }\n\
    void first(void) { assert(order == 1); order = 2; }\n\
    void second(void) { assert(order == 0); order = 1; }\n";

#[test]
fn atexit_handlers_run_in_reverse_order_at_exit_and_at_return_from_main() {
    let at_return = format!("{ATEXIT}int main(void) {{ block = malloc(4); atexit(release); atexit(first); atexit(second); return 0; }}");
    expect_true(&at_return, &leak_checks());
    let at_exit = format!("{ATEXIT}void leave(void) {{ exit(1); }}\nint main(void) {{ block = malloc(4); atexit(release); atexit(first); atexit(second); if (__VERIFIER_nondet_int()) leave(); return 0; }}");
    expect_true(&at_exit, &leak_checks());
    let wrong_order =
        format!("{ATEXIT}int main(void) {{ atexit(second); atexit(first); return 0; }}");
    expect_false(
        &wrong_order,
        &Config::default(),
        PropertyClass::UserAssertion,
    );
    let cleanup = Config {
        memory_cleanup_checks: true,
        ..Config::default()
    };
    let handled = format!("{ATEXIT}void allocate(void) {{ block = malloc(4); }}\nint main(void) {{ allocate(); atexit(release); exit(0); }}");
    expect_true(&handled, &cleanup);
    let quick = format!("{ATEXIT}void allocate(void) {{ block = malloc(4); }}\nint main(void) {{ allocate(); atexit(release); _Exit(0); }}");
    expect_false(&quick, &cleanup, PropertyClass::MemoryCleanup);
}

#[test]
fn string_conversions_are_exact() {
    let src = "#include <stdlib.h>\n#include <assert.h>\n#include <limits.h>\n#include <errno.h>\n\
        int main(void) { char *end; const char *s = \"0x2Az\"; long v = strtol(s, &end, 0);\n\
        assert(v == 42 && end == s + 4);\n\
        errno = 0; assert(strtoll(\"9223372036854775808\", 0, 10) == LLONG_MAX && errno == ERANGE);\n\
        div_t d = div(-7, 2); assert(d.quot == -3 && d.rem == -1); return 0; }";
    expect_true(src, &Config::default());
    let wrong = "#include <stdlib.h>\n#include <assert.h>\nint main(void) { assert(strtol(\"100\", 0, 10) == 200); return 0; }";
    expect_false(wrong, &Config::default(), PropertyClass::UserAssertion);
}

#[test]
fn broken_down_times_stay_in_range_and_failures_are_reachable() {
    let ranges = "#include <time.h>\n#include <assert.h>\n\
        int main(void) { time_t t = time(0); struct tm *r = localtime(&t);\n\
        if (r) { assert(r->tm_mday >= 1 && r->tm_mday <= 31 && r->tm_yday <= 365 && r->tm_hour <= 23); } return 0; }";
    expect_true(ranges, &Config::default());
    let exact = "#include <time.h>\n#include <assert.h>\n\
        int main(void) { time_t t = 951782400; struct tm *r = gmtime(&t); assert(r && r->tm_mon == 1 && r->tm_mday == 29); return 0; }";
    expect_true(exact, &Config::default());
    let bad_clock = "#include <time.h>\n#include <assert.h>\n\
        int main(void) { struct timespec ts; assert(clock_gettime(999, &ts) == 0); return 0; }";
    expect_false(bad_clock, &Config::default(), PropertyClass::UserAssertion);
}

#[test]
fn another_collation_orders_strings_arbitrarily() {
    let src = "#include <string.h>\n#include <locale.h>\n#include <assert.h>\n\
        int main(void) { setlocale(LC_COLLATE, \"cs_CZ\"); assert(strcoll(\"hrnec\", \"chrt\") >= 0); return 0; }";
    expect_false(src, &Config::default(), PropertyClass::UserAssertion);
    let in_c = "#include <string.h>\n#include <locale.h>\n#include <assert.h>\n\
        int main(void) { setlocale(LC_ALL, \"C\"); assert(strcoll(\"hrnec\", \"chrt\") > 0); return 0; }";
    expect_true(in_c, &Config::default());
}

#[test]
fn asctime_prints_every_field_as_glibc_does() {
    // Fields of any value: glibc's "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n",
    // which fits asctime's static buffer but not asctime_r's 26 bytes.
    let text = "#include <time.h>\n#include <assert.h>\n#include <string.h>\n\
        int main(void) { struct tm tm = {0}; tm.tm_year = 20000; tm.tm_mon = 12; tm.tm_hour = -5; char *text = asctime(&tm); \
        assert(text != 0 && text[4] == '?' && text[8] == ' ' && text[9] == '0' && text[11] == '-' && text[12] == '0' && text[13] == '5'); \
        assert(text[22] == '1' && text[23] == '9' && text[26] == '\\n' && text[27] == 0); \
        char buf[26]; tm.tm_hour = 5; assert(asctime_r(&tm, buf) == 0 && buf[25] == 0 && buf[24] == '0'); \
        tm.tm_year = 100; tm.tm_mon = 1; tm.tm_mday = 29; tm.tm_wday = 2; assert(asctime_r(&tm, buf) == buf && strcmp(buf, \"Tue Feb 29 05:00:00 2000\\n\") == 0); \
        assert(CHECK); return 0; }";
    expect_true(&text.replace("CHECK", "1"), &Config::default());
    expect_false(&text.replace("CHECK", "buf[8] != '2'"), &Config::default(), PropertyClass::UserAssertion);
}

#[test]
fn unmodelled_library_behaviour_keeps_the_verdict_unknown() {
    let other_ctype = "#include <locale.h>\n#include <ctype.h>\n#include <assert.h>\n\
        int main(void) { if (setlocale(LC_CTYPE, \"\")) assert(CHECK); return 0; }";
    for (program, checks, marker) in [
        (other_ctype, ["!isalpha(0xe9)", "isalpha(0xe9)"], "locale"),
    ] {
        for check in checks {
            match run(&program.replace("CHECK", check), &Config::default()) {
                Verdict::Unknown(reason) => assert!(reason.contains(marker), "{check}: {reason}"),
                other => panic!("{check}: expected UNKNOWN, got {other:?}"),
            }
        }
    }
}
