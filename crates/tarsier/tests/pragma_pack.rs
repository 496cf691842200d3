//! `#pragma pack` layouts against gcc: gcc compiles a probe of `sizeof`,
//! `_Alignof` and `offsetof` of structs defined under `pack(N)`, `push`,
//! `pop` and reset into assembly, the values are read back, and tarsier
//! must accept `_Static_assert`s of exactly those values and reject the
//! file when one value is off by one.

mod common;
use common::*;
use std::fmt::Write as _;

/// Struct definitions under changing `#pragma pack` states, and the members
/// whose offsets are asked.
const DEFINITIONS: &str = r#"
#pragma pack(1)
struct P1 { char c; int i; short s; double d; };
#pragma pack(2)
struct P2 { char c; int i; char t; long long l; };
#pragma pack(push, 4)
struct P4 { char c; double d; short s; long double x; };
#pragma pack(push, 8)
struct P8 { char c; long double x; int i; };
#pragma pack(pop)
struct P4Again { char c; double d; };
#pragma pack(pop)
struct P2Again { char c; int i; };
#pragma pack()
struct Default { char c; double d; int i; };
#pragma pack(2)
struct WithBits { char c; int a : 7; int b : 30; short s; };
struct __attribute__((aligned(8))) AlignedUnderPack { char c; int i; };
struct MemberAligned { char c; int i __attribute__((aligned(8))); };
union U2 { char c[3]; int i; };
struct Nested { char c; struct Default inner; };
#pragma pack()
"#;

const MEMBERS: &[(&str, &[&str])] = &[
    ("struct P1", &["c", "i", "s", "d"]),
    ("struct P2", &["c", "i", "t", "l"]),
    ("struct P4", &["c", "d", "s", "x"]),
    ("struct P8", &["c", "x", "i"]),
    ("struct P4Again", &["c", "d"]),
    ("struct P2Again", &["c", "i"]),
    ("struct Default", &["c", "d", "i"]),
    ("struct WithBits", &["c", "s"]),
    ("struct AlignedUnderPack", &["c", "i"]),
    ("struct MemberAligned", &["c", "i"]),
    ("union U2", &["c", "i"]),
    ("struct Nested", &["c", "inner"]),
];

fn questions() -> Vec<String> {
    let mut questions = Vec::new();
    for (name, members) in MEMBERS {
        questions.push(format!("sizeof({name})"));
        questions.push(format!("_Alignof({name})"));
        questions.extend(members.iter().map(|m| format!("offsetof({name}, {m})")));
    }
    questions
}

fn static_asserts(questions: &[String], answers: &[u64], off_by_one: Option<usize>) -> String {
    let mut text = format!("#include <stddef.h>\n{DEFINITIONS}\n");
    for (i, (q, a)) in questions.iter().zip(answers).enumerate() {
        let value = if off_by_one == Some(i) { a + 1 } else { *a };
        let _ = writeln!(
            text,
            "_Static_assert({q} == {value}, \"pack check {i}: {q} == {value}\");"
        );
    }
    text.push_str("int main(void) { return 0; }\n");
    text
}

fn check_data_model(model_flag: &str, gcc_flags: &[&str]) {
    let test = format!("pragma_pack{model_flag}");
    if !front_end_ready(&test) {
        return;
    }
    if !gcc_works(gcc_flags) {
        println!(
            "SKIP {test}: 'gcc {}' cannot compile here",
            gcc_flags.join(" ")
        );
        return;
    }
    let dir = scratch_dir(&test);
    let questions = questions();
    let answers = gcc_layout_answers(DEFINITIONS, &questions, gcc_flags, &dir);
    let good = write(&dir, "pack.c", &static_asserts(&questions, &answers, None));
    let out = run([
        good.as_os_str(),
        model_flag.as_ref(),
        "--parse-only".as_ref(),
    ]);
    let failed: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("error:"))
        .collect();
    assert_eq!(
        exit_code(&out),
        Some(EXIT_SUCCESS),
        "{test}: tarsier disagrees with gcc on:\n{}",
        failed.join("\n")
    );

    for wrong_index in [0, questions.len() / 2] {
        let wrong = write(
            &dir,
            "pack_wrong.c",
            &static_asserts(&questions, &answers, Some(wrong_index)),
        );
        let out = run([
            wrong.as_os_str(),
            model_flag.as_ref(),
            "--parse-only".as_ref(),
        ]);
        assert_eq!(
            exit_code(&out),
            Some(EXIT_INPUT_ERROR),
            "{test}: a wrong value was accepted:\n{}",
            out.stderr
        );
        assert!(
            out.stderr.contains(&format!("pack check {wrong_index}:")),
            "the failing check is not named:\n{}",
            out.stderr
        );
    }
}

#[test]
fn pragma_pack_matches_gcc_lp64() {
    check_data_model("--64", &["-m64"]);
}

#[test]
fn pragma_pack_matches_gcc_ilp32() {
    check_data_model("--32", &["-m32"]);
}
