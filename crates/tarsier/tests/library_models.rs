//! The C library models against glibc and the kernel, one class at a time:
//! TRUE/FALSE twins whose TRUE side also runs natively (gcc -O0 against
//! the host glibc) when it is executable, so that the expectation is the
//! library's and not the model's. The differential sweep over every model
//! is `cargo xtask model-oracle` (its CI sample is `model_oracle.rs`).

mod common;

use common::{assert_verdict, scratch_dir, write};
use std::path::Path;
use std::process::Command;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

/// Runs `source` natively and checks it exits with status 0 (its
/// assertions hold on glibc); skipped without gcc.
fn holds_natively(test: &str, source: &str) {
    if let Some(status) = native_status(test, source) {
        assert!(status.success(), "{test}: the TRUE twin fails natively ({status})");
    }
}

/// Runs `source` natively and checks it aborts (an assertion fails on
/// glibc); skipped without gcc.
fn fails_natively(test: &str, source: &str) {
    if let Some(status) = native_status(test, source) {
        assert!(!status.success(), "{test}: the FALSE twin holds natively");
    }
}

/// The exit status of `source` built by gcc -O0 and run; `None` (said on
/// stderr) when gcc cannot build it.
fn native_status(test: &str, source: &str) -> Option<std::process::ExitStatus> {
    let dir = scratch_dir(&format!("{test}-native"));
    let file = write(&dir, "main.c", source);
    let exe = dir.join("main");
    match Command::new("gcc").args(["-O0", "-w", "-o"]).arg(&exe).arg(&file).output() {
        Ok(out) if out.status.success() => {}
        _ => {
            eprintln!("skipped the native run of {test}: gcc cannot build it");
            return None;
        }
    }
    Some(Command::new(&exe).output().expect("the native program runs").status)
}

/// A TRUE program (checked natively too) and its FALSE twin: `CHECK`
/// replaced by `holds`, then by `fails`.
fn twins(test: &str, source: &str, holds: &str, fails: &str) {
    let true_twin = source.replace("CHECK", holds);
    holds_natively(test, &true_twin);
    assert_verdict(test, &true_twin, &[], SUCCESSFUL);
    assert_verdict(&format!("{test}-false"), &source.replace("CHECK", fails), &[], FAILED);
}

/// The standard streams are glibc `FILE`s: a program may read them whole,
/// and sees the magic number, access bits and descriptors glibc sets.
#[test]
fn standard_streams_have_glibcs_file_layout() {
    let source = r#"
#include <assert.h>
#include <stdio.h>
int main(void) {
  FILE in = *stdin;
  assert(CHECK);
  return 0;
}
"#;
    let holds = "(in._flags & 0xffff000c) == (int)0xfbad0008 && stdout->_fileno == 1 && fileno(stderr) == 2 && stderr->_chain == stdout";
    twins("standard-streams", source, holds, "in._flags == 0 || stdout->_fileno != 1");
}

/// `fopen` gives a `FILE` with glibc's layout: `*f` is inside the object,
/// its flags follow the mode, and `fileno` reads its descriptor.
#[test]
fn fopen_streams_have_glibcs_file_layout() {
    let source = r#"
#include <assert.h>
#include <stdio.h>
int main(void) {
  FILE *f = fopen("/dev/null", "r");
  if (f == NULL)
    return 0;
  FILE *g = fopen("/dev/null", "a+e");
  if (g == NULL)
    return 0;
  FILE copy = *g;
  assert(CHECK);
  return 0;
}
"#;
    let holds = "f->_flags == (int)0xfbad2488 && copy._flags == (int)0xfbad3480 && copy._flags2 == 64 \
                 && copy._chain == f && f->_chain == stderr && copy._offset == -1 && fileno(f) >= 0";
    // glibc gives the lowest free descriptor, 3: the model must allow it.
    twins("fopen-file", source, holds, "fileno(f) != 3");
}

/// A stream `fclose` released is freed by glibc: reading it faults.
#[test]
fn fileno_of_a_closed_or_null_stream_faults() {
    let source = r#"
#include <stdio.h>
int main(void) {
  FILE *f = fopen("/dev/null", "r");
  if (f == NULL)
    return 0;
  CHECK;
  return 0;
}
"#;
    assert_verdict("fileno-open", &source.replace("CHECK", "fileno(f); fclose(f)"), &[], SUCCESSFUL);
    assert_verdict("fileno-closed", &source.replace("CHECK", "fclose(f); fileno(f)"), &[], FAILED);
    assert_verdict("fileno-null", &source.replace("CHECK", "fileno(NULL)"), &[], FAILED);
}

/// The path of `open`, `creat` and `fopen` must be a string (C 7.1.4): a
/// null or freed one is a dereference failure, a valid one is not.
#[test]
fn open_creat_and_fopen_read_their_path() {
    let source = r#"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  char *path = malloc(2);
  if (path == NULL)
    return 0;
  path[0] = 'x';
  path[1] = 0;
  FREE;
  CALL;
  return 0;
}
"#;
    for call in ["open(PATH, O_RDONLY)", "creat(PATH, 0600)", "fopen(PATH, \"r\")"] {
        let program = |path: &str, free: &str| source.replace("CALL", &call.replace("PATH", path)).replace("FREE", free);
        let name = &call[..call.find('(').unwrap()];
        assert_verdict(&format!("{name}-path"), &program("path", "(void)0"), &[], SUCCESSFUL);
        assert_verdict(&format!("{name}-null-path"), &program("NULL", "(void)0"), &[], FAILED);
        assert_verdict(&format!("{name}-freed-path"), &program("path", "free(path)"), &[], FAILED);
    }
}

/// kmalloc rejects the zone flags the slab allocator cannot serve
/// (`GFP_SLAB_BUG_MASK`: `__GFP_DMA32`, `__GFP_HIGHMEM`, bits beyond
/// `__GFP_BITS_MASK`) with a warning and a stack dump, a kernel bug report;
/// `__GFP_DMA` and the usual flags are fine.
#[test]
fn kmalloc_reports_flags_of_the_slab_bug_mask() {
    let source = r#"
#include <ubuntu20.04/kernel_5.15.0-76/include/linux/slab.h>
int main(void) {
  char *p = kmalloc(16, FLAGS);
  if (p != NULL)
    p[15] = 1;
  kfree(p);
  return 0;
}
"#;
    for (flags, expected) in [
        ("GFP_KERNEL", SUCCESSFUL),
        ("GFP_KERNEL | __GFP_DMA | __GFP_ZERO", SUCCESSFUL),
        ("GFP_ATOMIC | __GFP_NOWARN", SUCCESSFUL),
        ("GFP_KERNEL | __GFP_DMA32", FAILED),
        ("GFP_KERNEL | __GFP_HIGHMEM", FAILED),
        ("GFP_KERNEL | (1u << 25)", FAILED),
    ] {
        let test = format!("kmalloc-{}", flags.replace([' ', '|', '(', ')', '<'], ""));
        assert_verdict(&test, &source.replace("FLAGS", flags), &[], expected);
    }
}

/// glibc's case tables map a negative `char` value (other than EOF) to its
/// byte's unsigned value, so `toupper((char)0xe9)` is 0xe9, not -23.
#[test]
fn case_conversions_map_negative_chars_to_their_bytes() {
    let source = r#"
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
int main(void) {
  char c = (char)0xe9;
  assert(CHECK);
  return 0;
}
"#;
    let holds = "toupper(c) == 0xe9 && tolower(-128) == 128 && toupper(-2) == 254 && toupper(EOF) == EOF && tolower('Q') == 'q'";
    twins("case-conversions", source, holds, "toupper(c) == c");
}

/// gcc expands a direct call of isdigit, isinf or isnanl as its own
/// built-in (1 for a digit, for -infinity, for a NaN) while glibc's
/// function, reached through a pointer, gives its class bit 0x800, -1 and
/// 0xffff: C says only "nonzero", and a program may get either, so an
/// assertion on one value fails.
#[test]
fn class_functions_called_directly_or_through_a_pointer_give_either_value() {
    let source = r#"
#include <assert.h>
#include <ctype.h>
#include <math.h>
int main(void) {
  int (*volatile digit)(int) = isdigit;
  int (*volatile infinite)(double) = isinf;
  int (*volatile not_a_number)(long double) = isnanl;
  volatile int c = '7';
  volatile double minus = -HUGE_VAL;
  volatile long double nan = __builtin_nanl("");
  int d = digit(c), i = infinite(minus), n = not_a_number(nan);
  assert(CHECK);
  return 0;
}
"#;
    let holds = "(d == 0x800 || d == 1) && (i == -1 || i == 1) && (n == 0xffff || n == 1) && (isdigit)(c) != 0 && (isinf)(minus) != 0 && (isnanl)(nan) != 0 && !digit('a')";
    twins("class-function-values", source, holds, "(isdigit)(c) == 0x800");
    for (test, fails) in [("class-function-digit", "(isdigit)(c) == 1"), ("class-function-pointer", "d == 0x800"), ("class-function-isinf", "(isinf)(minus) == 1"), ("class-function-isnanl", "n == 0xffff")] {
        assert_verdict(test, &source.replace("CHECK", fails), &[], FAILED);
    }
}

/// glibc's __fwriting returns the stream's flag bits _IO_NO_READS (4) and
/// _IO_CURRENTLY_PUTTING (0x800), not a truth value.
#[test]
fn fwriting_gives_glibcs_flag_bits() {
    let source = r#"
#include <assert.h>
#include <stdio.h>
#include <stdio_ext.h>
int main(void) {
  char b[16] = "abc";
  FILE *f = fmemopen(b, 11, "a");
  if (f == 0)
    return 0;
  int before = __fwriting(f);
  fputc('x', f);
  assert(CHECK);
  fclose(f);
  return 0;
}
"#;
    twins("fwriting-flags", source, "before == 4 && __fwriting(f) == 0x804 && !__freading(f)", "before == 1");
}

/// Before its buffer exists, a readable memory stream's failed seek may
/// leave the position at the end (glibc reads a block first:
/// fmemopen(b, 5, "r") then fseek to 10 gives -1 with ftell 5, to 10000
/// ftell 0): the model says it does not know, rather than keep position 0.
#[test]
fn a_failed_seek_before_the_first_read_is_not_modelled_exactly() {
    let source = r#"
#include <assert.h>
#include <stdio.h>
int main(void) {
  char b[8] = "abcdef";
  FILE *f = fmemopen(b, 5, "r");
  if (f == 0)
    return 0;
  assert(fseek(f, 10, SEEK_SET) == -1);
  assert(fgetc(f) == 'a');
  return 0;
}
"#;
    assert_verdict("fmemopen-failed-seek", source, &[], "VERIFICATION UNKNOWN");
}

/// glibc 2.36's aligned_alloc takes any alignment (rounded up to a power
/// of two, at least malloc's) and any size; only an alignment above
/// SIZE_MAX / 2 + 1 is EINVAL.
#[test]
fn aligned_alloc_takes_any_alignment_as_glibc_does() {
    let source = r#"
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
int main(void) {
  void *p = aligned_alloc(24, 20);
  void *q = aligned_alloc(0, 3);
  errno = 0;
  void *r = aligned_alloc(((size_t)1 << 63) + 1, 8);
  assert(CHECK);
  free(p);
  free(q);
  return 0;
}
"#;
    let holds = "(p == 0 || (uintptr_t)p % 32 == 0) && r == 0 && errno == EINVAL";
    twins("aligned-alloc", source, holds, "p == 0 || q == 0");
}

/// The kernel's user-copy functions: a copy within user memory moves every
/// byte and returns 0, clear_user zeroes, access_ok bounds the user range;
/// a copy whose user side is kernel memory is a kernel bug. And a spin
/// lock held is not taken again by spin_trylock.
#[test]
fn uaccess_and_spinlocks_follow_the_kernel() {
    let source = r#"
#include <ubuntu20.04/kernel_5.15.0-76/include/asm/uaccess.h>
#include <ubuntu20.04/kernel_5.15.0-76/include/linux/spinlock.h>
int main(void) {
  char kernel[8] = "abcdefg";
  char back[8];
  DEFINE_SPINLOCK(lock);
  unsigned long to = copy_to_user(user_memory + 10, kernel, 8);
  unsigned long from = copy_from_user(back, user_memory + 10, 8);
  unsigned long cleared = clear_user(user_memory + 10, 2);
  spin_lock(&lock);
  int again = spin_trylock(&lock);
  spin_unlock(&lock);
  __ESBMC_assert(CHECK, "kernel");
  SOURCE;
  return 0;
}
"#;
    let holds = "to == 0 && from == 0 && cleared == 0 && back[3] == 'd' && user_memory[10] == 0 && user_memory[12] == 'c' \
                 && access_ok(user_memory, USER_MEMORY_SPACE) && !access_ok(user_memory + 1, USER_MEMORY_SPACE) && !again && spin_trylock(&lock)";
    let text = |check: &str, last: &str| source.replace("CHECK", check).replace("SOURCE", last);
    assert_verdict("uaccess", &text(holds, "(void)0"), &[], SUCCESSFUL);
    assert_verdict("uaccess-false", &text("back[3] != 'd'", "(void)0"), &[], FAILED);
    assert_verdict("uaccess-kernel-source", &text(holds, "copy_from_user(back, kernel, 8)"), &[], FAILED);
}

/// glibc fails a transfer the stream's mode does not allow (EOF, 0 or NULL
/// with EBADF): reading a stream opened for writing, writing one opened
/// for reading (fwrite, fputs, fprintf), and writing stdin.
#[test]
fn streams_refuse_what_their_mode_does_not_allow() {
    let source = r#"
#include <assert.h>
#include <errno.h>
#include <stdio.h>
int main(void) {
  FILE *out = fopen("/dev/null", "w");
  FILE *in = fopen("/dev/null", "r");
  if (out == NULL || in == NULL)
    return 0;
  char line[4];
  int c = fgetc(out);
  char *got = fgets(line, sizeof line, out);
  size_t read = fread(line, 1, 2, out);
  size_t written = fwrite("ab", 1, 2, in);
  int put = fputs("ab", in);
  errno = 0;
  int printed = fprintf(stdin, "x%d", 3);
  assert(CHECK);
  return 0;
}
"#;
    let holds = "c == EOF && got == NULL && read == 0 && written == 0 && put == EOF && printed < 0 && errno == EBADF";
    twins("stream-modes", source, holds, "c != EOF");
}

/// Whether `source`, built by gcc, exits with status 0 in the time zone
/// `zone`; `None` without gcc or the zone's tzfile.
fn holds_natively_in_zone(test: &str, source: &str, zone: &str) -> Option<bool> {
    if !Path::new("/usr/share/zoneinfo").join(zone).exists() {
        eprintln!("skipped the native run of {test} in {zone}: no tzfile");
        return None;
    }
    let dir = scratch_dir(&format!("{test}-native"));
    let file = write(&dir, "main.c", source);
    let exe = dir.join("main");
    let built = Command::new("gcc").args(["-O0", "-w", "-o"]).arg(&exe).arg(&file).output().ok()?;
    if !built.status.success() {
        eprintln!("skipped the native run of {test}: gcc cannot build it");
        return None;
    }
    Some(Command::new(&exe).env("TZ", zone).output().expect("the native program runs").status.success())
}

/// A time zone is a history: every instant has its own offset and daylight
/// flag (Berlin kept local mean time, +0:53:28, until 1893), and mktime
/// need not give back the instant localtime converted where local time
/// repeats with one flag (Moscow, 2014-10-26, from +4 to +3). The model
/// had one standard offset per run and proved both wrong. The TRUE twin
/// holds natively in every zone tried, each FALSE twin fails in its zone.
#[test]
fn a_time_zone_gives_each_instant_its_own_offset() {
    let holds = r#"
#include <assert.h>
#include <time.h>
int main(void) {
  time_t a = -2500000000L, c = 1414270800L;
  struct tm x, y, z, again;
  struct tm *p = localtime_r(&a, &x), *q = localtime_r(&a, &y);
  assert(p == 0 || (q != 0 && x.tm_gmtoff == y.tm_gmtoff && x.tm_isdst == y.tm_isdst && x.tm_hour == y.tm_hour));
  if (localtime_r(&c, &z) != 0) {
    z.tm_isdst = -1;
    time_t back = mktime(&z);
    assert(back == -1 || (localtime_r(&back, &again) != 0 && again.tm_isdst == z.tm_isdst && again.tm_gmtoff == z.tm_gmtoff));
  }
  return 0;
}
"#;
    for zone in ["UTC", "Europe/Berlin", "Europe/Moscow", "America/New_York", "Australia/Lord_Howe"] {
        assert_ne!(holds_natively_in_zone("zone-history", holds, zone), Some(false), "the TRUE twin fails natively in {zone}");
    }
    assert_verdict("zone-history", holds, &[], SUCCESSFUL);
    let offsets_differ = r#"
#include <assert.h>
#include <time.h>
int main(void) {
  time_t a = -2500000000L, b = 1700000000L;
  struct tm x, y;
  if (localtime_r(&a, &x) != 0 && localtime_r(&b, &y) != 0)
    assert(x.tm_isdst || y.tm_isdst || x.tm_gmtoff == y.tm_gmtoff);
  return 0;
}
"#;
    let repeated_hour = r#"
#include <assert.h>
#include <time.h>
int main(void) {
  time_t c = 1414270800L;
  struct tm z;
  if (localtime_r(&c, &z) != 0) {
    z.tm_isdst = -1;
    assert(mktime(&z) == c);
  }
  return 0;
}
"#;
    for (name, source, zone) in [("zone-history-offsets", offsets_differ, "Europe/Berlin"), ("zone-history-repeated-hour", repeated_hour, "Europe/Moscow")] {
        assert_ne!(holds_natively_in_zone(name, source, zone), Some(true), "{name} holds natively in {zone}");
        assert_verdict(name, source, &[], FAILED);
    }
}

/// glibc counts a mutex's users (successful first locks less unlocks; an
/// unlock of a NORMAL mutex counts even when it is not held) and refuses
/// to destroy a mutex whose count is not zero, whatever its lock state.
#[test]
fn destroying_a_mutex_follows_glibcs_count_of_users() {
    let source = r#"
#include <assert.h>
#include <pthread.h>
int main(void) {
  pthread_mutexattr_t attr; pthread_mutex_t normal, recursive, checked, balanced, unbalanced;
  pthread_mutexattr_init(&attr);
  pthread_mutex_init(&normal, 0);
  pthread_mutex_unlock(&normal);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&recursive, &attr);
  pthread_mutex_lock(&recursive);
  pthread_mutex_lock(&recursive);
  pthread_mutex_unlock(&recursive);
  int recursive_held = pthread_mutex_destroy(&recursive);
  pthread_mutex_unlock(&recursive);
  pthread_mutexattr_settype(&attr, 2); /* error-checking (the name holds the placeholder) */
  pthread_mutex_init(&checked, &attr);
  int refused = pthread_mutex_unlock(&checked);
  pthread_mutex_init(&balanced, 0);
  pthread_mutex_trylock(&balanced);
  pthread_mutex_unlock(&balanced);
  pthread_mutex_init(&unbalanced, 0);
  pthread_mutex_unlock(&unbalanced);
  int relocked = pthread_mutex_trylock(&unbalanced); /* held, and no users left */
  assert(CHECK);
  return 0;
}
"#;
    let holds = "pthread_mutex_destroy(&normal) == 16 && recursive_held == 16 && pthread_mutex_destroy(&recursive) == 0 \
                 && refused == 1 && pthread_mutex_destroy(&checked) == 0 && pthread_mutex_destroy(&balanced) == 0 \
                 && relocked == 0 && pthread_mutex_destroy(&unbalanced) == 0";
    twins("mutex-users", source, holds, "pthread_mutex_destroy(&normal) == 0");
    twins("mutex-users-held", source, holds, "pthread_mutex_destroy(&unbalanced) == 16");
}

/// A comparison's result has the sign C fixes and any magnitude: a TRUE
/// rests on the sign only, and a FALSE on a magnitude is found. glibc on
/// x86-64 gives the byte difference (`strcmp("abc", "adc") == -2`,
/// `memcmp("DWga", "DWGA", 4) == 32`), so each FALSE twin aborts natively
/// too (without sanitizers: ASan's own strcmp gives -1). glibc's wide
/// comparisons give -1 or 1, which C does not promise either: their FALSE
/// twin is tarsier's only.
#[test]
fn comparisons_fix_only_the_sign() {
    let source = r#"
#include <assert.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>
int main(void) {
  char a[] = "abc", b[] = "adc", m[] = "DWga", n[] = "DWGA", upper[] = "ABE";
  wchar_t w[] = L"ab", v[] = L"ad";
  assert(CHECK);
  return 0;
}
"#;
    let signs = [
        "strcmp(a, b) < 0 && strcmp(b, a) > 0 && strcmp(a, a) == 0",
        "strncmp(a, b, 3) < 0 && strncmp(a, b, 1) == 0",
        "memcmp(m, n, 4) > 0 && memcmp(n, m, 4) < 0",
        "strcasecmp(a, upper) < 0 && strncasecmp(upper, a, 2) == 0",
        "strcoll(b, a) > 0",
        "wcscmp(w, v) < 0 && wcsncmp(v, w, 2) > 0 && wmemcmp(w, v, 1) == 0",
    ];
    let holds = signs.join(" && ");
    let true_twin = source.replace("CHECK", &holds);
    holds_natively("comparison-signs", &true_twin);
    assert_verdict("comparison-signs", &true_twin, &[], SUCCESSFUL);
    let magnitudes = [
        "strcmp(a, b) == -1",
        "strncmp(b, a, 3) == 1",
        "memcmp(m, n, 4) <= 1",
        "strcasecmp(a, upper) == -1",
        "strcoll(a, b) >= -1",
    ];
    for (index, fails) in magnitudes.iter().enumerate() {
        let test = format!("comparison-magnitude-{index}");
        let false_twin = source.replace("CHECK", fails);
        fails_natively(&test, &false_twin);
        assert_verdict(&test, &false_twin, &[], FAILED);
    }
    let wide = source.replace("CHECK", "wcscmp(w, v) == -1");
    assert_verdict("comparison-magnitude-wide", &wide, &[], FAILED);
}

/// The models' nondeterministic values do not come from the program's own
/// input functions: a program that defines `__VERIFIER_nondet_int` (as 0)
/// does not fix `rand`'s result or a comparison's magnitude. glibc's first
/// `rand()` is 1804289383 and its `strcmp("a", "c")` is -2.
#[test]
fn model_inputs_are_not_the_programs() {
    let source = r#"
#include <assert.h>
#include <stdlib.h>
#include <string.h>
int __VERIFIER_nondet_int(void) { return 0; }
int main(void) {
  char a[] = "a", c[] = "c";
  assert(CHECK);
  return 0;
}
"#;
    let true_twin = source.replace("CHECK", "rand() >= 0 && strcmp(a, c) < 0");
    holds_natively("model-inputs", &true_twin);
    assert_verdict("model-inputs", &true_twin, &[], SUCCESSFUL);
    for (index, fails) in ["rand() == 0", "strcmp(a, c) >= -1"].iter().enumerate() {
        let test = format!("model-inputs-{index}");
        let false_twin = source.replace("CHECK", fails);
        fails_natively(&test, &false_twin);
        assert_verdict(&test, &false_twin, &[], FAILED);
    }
}


/// A library function called without a declaration (no `#include`) has
/// its model's prototype, as GCC gives an undeclared library function its
/// built-in one: `strnlen`'s `-1` converts to `SIZE_MAX` and its result
/// stays a `size_t`, `strstr`'s a pointer. With the implicit `int f()`
/// the calls did not fit the models and stayed unmodelled (UNKNOWN).
#[test]
fn undeclared_library_calls_have_the_models_prototypes() {
    let source = r#"
#include <assert.h>
int main(void) {
  char a[8] = "abcab";
  char *p = strstr(a, "ca");
  unsigned long n = strnlen(a, -1);
  int d = strncasecmp(a, "ABD", 3);
  assert(CHECK);
  return 0;
}
"#;
    twins("undeclared-library-calls", source, "p == a + 2 && p[1] == 'a' && n == 5 && d < 0 && strnlen(a, 3) == 3", "strnlen(a, 3) == 4");
}

/// The GNU and BSD string functions (`stpcpy`, `stpncpy`, `mempcpy`,
/// `memccpy`, `strchrnul`, `rawmemchr`, `bzero`, `bcmp`, `bcopy`,
/// `index`, `rindex`) have glibc's results, not a nondeterministic value.
#[test]
fn gnu_and_bsd_string_functions_give_glibcs_results() {
    let source = r#"
#define _GNU_SOURCE
#include <assert.h>
#include <string.h>
#include <strings.h>
int main(void) {
  char s[8] = "abcab", d[12];
  memset(d, 'x', sizeof d);
  char *end = stpcpy(d, s);
  char *padded = stpncpy(d + 6, "ab", 4);
  char *after = mempcpy(d, "zz", 2);
  char *copied = memccpy(d, s, 'c', 5);
  char *missing = memccpy(d, s, 'q', 3);
  bzero(d + 10, 2);
  bcopy(s, s + 1, 3);
  assert(CHECK);
  return 0;
}
"#;
    let holds = "end == d + 5 && padded == d + 8 && d[9] == 0 && after == d + 2 && copied == d + 3 \
                 && missing == 0 && d[10] == 0 && d[11] == 0 && strcmp(s, \"aabcb\") == 0 \
                 && strchrnul(s, 'q') == s + 5 && strchrnul(s, 'b') == s + 2 && rawmemchr(s, 'c') == s + 3 \
                 && bcmp(s, \"aab\", 3) == 0 && bcmp(s, \"aac\", 3) != 0 && index(s, 'b') == s + 2 && rindex(s, 'b') == s + 4";
    twins("gnu-strings", source, holds, "copied == d + 2 || rindex(s, 'b') == s + 2");
}

/// `<inttypes.h>`'s helpers (`imaxabs`, `imaxdiv`, `strtoimax`,
/// `strtoumax`) compute on 64-bit `intmax_t` in both data models, and a
/// struct-returning model links whatever other anonymous structs the
/// program's headers declared first (`imaxdiv_t` before `ldiv_t`).
#[test]
fn intmax_helpers_compute_on_64_bits() {
    let source = r#"
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
int main(void) {
  intmax_t big = INTMAX_MIN + 1;
  imaxdiv_t q = imaxdiv(-7, 2);
  ldiv_t l = ldiv(7L, 2L);
  char *end;
  intmax_t parsed = strtoimax("-9223372036854775809x", &end, 10);
  uintmax_t unsigned_parsed = strtoumax("0x10", 0, 0);
  assert(CHECK);
  return 0;
}
"#;
    let holds = "imaxabs(big) == INTMAX_MAX && q.quot == -3 && q.rem == -1 && l.quot == 3 && l.rem == 1 \
                 && parsed == INTMAX_MIN && *end == 'x' && unsigned_parsed == 16";
    twins("intmax-helpers", source, holds, "imaxabs(big) != INTMAX_MAX || q.rem == 1");
    assert_verdict("intmax-helpers-32", &source.replace("CHECK", holds), &["--32"], SUCCESSFUL);
}

/// The byte order functions swap on x86, and `inet_ntoa` writes the
/// address's bytes in network order into one buffer that every call
/// overwrites.
#[test]
fn byte_order_and_address_text_follow_glibc() {
    let source = r#"
#include <arpa/inet.h>
#include <assert.h>
#include <string.h>
int main(void) {
  struct in_addr a, b;
  a.s_addr = htonl(0xc0a8000a);
  b.s_addr = htonl(0x7f000001);
  char *first = inet_ntoa(a);
  int first_was = strcmp(first, "192.168.0.10") == 0;
  char *second = inet_ntoa(b);
  assert(CHECK);
  return 0;
}
"#;
    let holds = "htonl(0x01020304) == 0x04030201 && ntohl(0x04030201) == 0x01020304 && htons(0x1234) == 0x3412 \
                 && ntohs(0x3412) == 0x1234 && first_was && first == second && strcmp(second, \"127.0.0.1\") == 0";
    twins("byte-order", source, holds, "strcmp(first, \"192.168.0.10\") == 0");
}

/// `posix_memalign` refuses an alignment that is not a power of two
/// multiple of `sizeof(void *)` with EINVAL and leaves the pointer alone;
/// `memalign` and `valloc` give malloc's blocks (freed by `free`) at
/// their alignment; every one of them may fail.
#[test]
fn aligned_allocators_check_their_alignment() {
    let source = r#"
#include <assert.h>
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
int main(void) {
  void *p = 0, *q = 0;
  int refused = posix_memalign(&p, 12, 8);
  int small = posix_memalign(&p, 4, 8);
  int ok = posix_memalign(&q, 64, 8);
  void *m = memalign(256, 3);
  void *v = valloc(10);
  assert(CHECK);
  free(q); free(m); free(v);
  return 0;
}
"#;
    let holds = "refused == EINVAL && small == EINVAL && p == 0 && (ok == ENOMEM || (ok == 0 && (uintptr_t)q % 64 == 0)) \
                 && (m == 0 || (uintptr_t)m % 256 == 0) && (v == 0 || (uintptr_t)v % 4096 == 0)";
    twins("aligned-allocators", source, holds, "ok == 0");
}

/// The 48-bit generator's draws are unknown, within their ranges:
/// `lrand48` in [0, 2^31), `mrand48` in [-2^31, 2^31), `drand48` in [0, 1).
#[test]
fn rand48_draws_stay_in_their_ranges() {
    let source = r#"
#include <assert.h>
#include <stdlib.h>
int main(void) {
  srand48(7);
  long l = lrand48(), m = mrand48();
  double d = drand48();
  assert(CHECK);
  return 0;
}
"#;
    let holds = "l >= 0 && l <= 2147483647L && m >= -2147483648L && m <= 2147483647L && d >= 0 && d < 1";
    twins("rand48", source, holds, "l != 12345 && m >= 0");
}
