//! Struct, union, bit-field, array, packed and aligned layouts against gcc.
//!
//! A deterministic generator (plus hand-written tricky cases) produces a few
//! hundred type definitions. gcc compiles a probe of `sizeof`, `_Alignof`
//! and `offsetof` of each into assembly, from which the values are read
//! (no linking or running needed, so ILP32 works without 32-bit libraries).
//! Then tarsier must accept a file of `_Static_assert`s stating those
//! values, and reject the same file with one value off by one.

mod common;
use common::*;
use std::fmt::Write as _;

/// Member types written as declarator templates (`{}` is the name).
const SCALARS: &[&str] = &[
    "char {}", "signed char {}", "unsigned char {}", "short {}", "unsigned short {}", "int {}", "unsigned {}", "long {}",
    "unsigned long {}", "long long {}", "unsigned long long {}", "float {}", "double {}", "long double {}", "_Bool {}",
    "void *{}", "char *{}", "int (*{})(int)", "__int128 {}",
];
/// Bit-field base types with their width in bits.
const BIT_FIELD_TYPES: &[(&str, u32)] =
    &[("int", 32), ("unsigned", 32), ("char", 8), ("unsigned char", 8), ("short", 16), ("unsigned long long", 64), ("long long", 64), ("_Bool", 1)];

/// Type definitions and the layout questions asked about them.
#[derive(Default)]
struct Layouts {
    definitions: String,
    /// C constant expressions whose values gcc tells us.
    questions: Vec<String>,
    /// The generated types, which later generated types may contain.
    type_names: Vec<String>,
}

impl Layouts {
    fn ask_about(&mut self, name: &str, members: &[String]) {
        self.questions.push(format!("sizeof({name})"));
        self.questions.push(format!("_Alignof({name})"));
        for member in members {
            self.questions.push(format!("offsetof({name}, {member})"));
        }
    }

    fn generated(&mut self, rng: &mut Rng, index: usize, scalars: &[&str]) {
        let name = format!("G{index}");
        let is_union = rng.chance(20);
        let mut body = String::new();
        let mut plain_members = Vec::new();
        for field in 0..1 + rng.below(6) {
            let member = format!("m{field}");
            match rng.below(100) {
                0..=19 => {
                    let (ty, bits) = BIT_FIELD_TYPES[rng.below(BIT_FIELD_TYPES.len())];
                    let width = rng.below(bits as usize + 1);
                    if width == 0 {
                        let _ = writeln!(body, "    {ty} : 0;");
                    } else {
                        let _ = writeln!(body, "    {ty} {member} : {width};");
                    }
                    continue;
                }
                20..=34 if !self.type_names.is_empty() => {
                    let inner = &self.type_names[rng.below(self.type_names.len())];
                    let _ = writeln!(body, "    {inner} {member}[{}];", 1 + rng.below(3));
                }
                35..=49 if !self.type_names.is_empty() => {
                    let inner = &self.type_names[rng.below(self.type_names.len())];
                    let _ = writeln!(body, "    {inner} {member};");
                }
                50..=59 => {
                    let scalar = scalars[rng.below(scalars.len())].replace("{}", &format!("{member}[{}]", 1 + rng.below(5)));
                    let _ = writeln!(body, "    {scalar};");
                }
                60..=64 => {
                    let scalar = scalars[rng.below(scalars.len())].replace("{}", &member);
                    let _ = writeln!(body, "    _Alignas({}) {scalar};", [16, 32][rng.below(2)]);
                }
                _ => {
                    let scalar = scalars[rng.below(scalars.len())].replace("{}", &member);
                    let _ = writeln!(body, "    {scalar};");
                }
            }
            plain_members.push(member);
        }
        if plain_members.is_empty() {
            let _ = writeln!(body, "    int last;");
            plain_members.push("last".into());
        }
        let attribute = match rng.below(10) {
            0 | 1 => " __attribute__((packed))",
            2 => " __attribute__((aligned(16)))",
            3 => " __attribute__((packed, aligned(4)))",
            _ => "",
        };
        let keyword = if is_union { "union" } else { "struct" };
        let _ = writeln!(self.definitions, "typedef {keyword}{attribute} {{\n{body}}} {name};");
        self.ask_about(&name, &plain_members);
        self.type_names.push(name);
    }
}

/// Cases the generator is unlikely to hit; each is `(definition, name,
/// members to ask the offset of)`.
const TRICKY: &[(&str, &str, &[&str])] = &[
    ("struct flex { int n; char data[]; };", "struct flex", &["data"]),
    ("struct flex_double { char c; double d[]; };", "struct flex_double", &["d"]),
    ("struct bits_span { char a; int b : 31; int c : 2; };", "struct bits_span", &["a"]),
    ("struct bits_ll { char a; long long b : 40; char c; };", "struct bits_ll", &["a", "c"]),
    ("struct bits_zero { char a : 3; int : 0; char b; };", "struct bits_zero", &["b"]),
    ("struct bits_char_zero { char a : 3; char : 0; char b : 2; };", "struct bits_char_zero", &[]),
    ("struct bits_bool { _Bool a : 1; _Bool b : 1; int c; };", "struct bits_bool", &["c"]),
    ("struct __attribute__((packed)) packed_bits { char a; int b : 17; short c; };", "struct packed_bits", &["a", "c"]),
    ("struct unnamed_pad { int : 3; char c; };", "struct unnamed_pad", &["c"]),
    ("struct anon { int a; union { char b; double c; }; struct { short d; char e; }; };", "struct anon", &["a", "b", "c", "d", "e"]),
    ("union u_mixed { char c[5]; int i; short s; };", "union u_mixed", &["c", "i"]),
    ("union u_bits { int a : 3; long long b : 50; };", "union u_bits", &[]),
    ("struct ld { char c; long double x; };", "struct ld", &["x"]),
    ("struct ll { char c; long long x; double d; };", "struct ll", &["x", "d"]),
    ("struct al_member { char c; int x __attribute__((aligned(8))); };", "struct al_member", &["x"]),
    ("struct pk_member { char c; int x __attribute__((packed)); };", "struct pk_member", &["x"]),
    ("struct al_alignas { char c; _Alignas(double) char d; };", "struct al_alignas", &["d"]),
    ("struct arr2d { char c; short m[3][5]; int t; };", "struct arr2d", &["m", "t"]),
    ("struct nested_packed { char c; struct __attribute__((packed)) { char a; int b; } in; };", "struct nested_packed", &["in"]),
    ("typedef int aligned_int __attribute__((aligned(16)));", "aligned_int", &[]),
    ("enum small { SMALL_A, SMALL_B };", "enum small", &[]),
    ("enum big { BIG_A = 0x100000000LL };", "enum big", &[]),
    ("enum __attribute__((packed)) packed_enum { PE_A, PE_B = 200 };", "enum packed_enum", &[]),
    ("struct with_enum { char c; enum small e; };", "struct with_enum", &["e"]),
    ("struct fnptr_arr { char c; void (*handlers[3])(void); };", "struct fnptr_arr", &["handlers"]),
    ("struct i128 { char c; __int128 x; };", "struct i128", &["x"]),
    ("struct cplx { char c; _Complex double z; float _Complex f; };", "struct cplx", &["z", "f"]),
    ("struct empty_arr { int a[0]; char c; };", "struct empty_arr", &["c"]),
];

const GENERATED: usize = 300;
const SEED: u64 = 0x7a45_1e12;

/// The layouts to check; `__int128` exists only on 64-bit targets.
fn layouts(with_int128: bool) -> Layouts {
    let usable = |text: &str| with_int128 || !text.contains("__int128");
    let scalars: Vec<&str> = SCALARS.iter().copied().filter(|s| usable(s)).collect();
    let mut layouts = Layouts::default();
    for (definition, name, members) in TRICKY.iter().filter(|(d, _, _)| usable(d)) {
        let _ = writeln!(layouts.definitions, "{definition}");
        let members: Vec<String> = members.iter().map(|m| m.to_string()).collect();
        layouts.ask_about(name, &members);
    }
    let mut rng = Rng(SEED);
    for index in 0..GENERATED {
        layouts.generated(&mut rng, index, &scalars);
    }
    for scalar in &scalars {
        layouts.ask_about(&scalar.replace("{}", ""), &[]);
    }
    layouts
}

fn static_asserts(layouts: &Layouts, answers: &[u64], off_by_one: Option<usize>) -> String {
    let mut text = format!("#include <stddef.h>\n{}\n", layouts.definitions);
    for (i, (q, a)) in layouts.questions.iter().zip(answers).enumerate() {
        let value = if off_by_one == Some(i) { a + 1 } else { *a };
        let _ = writeln!(text, "_Static_assert({q} == {value}, \"layout check {i}: {q} == {value}\");");
    }
    text.push_str("int main(void) { return 0; }\n");
    text
}

fn check_data_model(model_flag: &str, gcc_flags: &[&str]) {
    let test = format!("layout{model_flag}");
    let with_int128 = model_flag == "--64";
    if !front_end_ready(&test) {
        return;
    }
    if !gcc_works(gcc_flags) {
        println!("SKIP {test}: 'gcc {}' cannot compile here", gcc_flags.join(" "));
        return;
    }
    let dir = scratch_dir(&test);
    let layouts = layouts(with_int128);
    let answers = gcc_layout_answers(&layouts.definitions, &layouts.questions, gcc_flags, &dir);
    let good = write(&dir, "layout.c", &static_asserts(&layouts, &answers, None));
    let out = run([good.as_os_str(), model_flag.as_ref(), "--parse-only".as_ref()]);
    let failed: Vec<&str> = out.stderr.lines().filter(|l| l.contains("error:")).take(20).collect();
    assert_eq!(exit_code(&out), Some(EXIT_SUCCESS), "{test}: tarsier disagrees with gcc on:\n{}", failed.join("\n"));

    let wrong_index = layouts.questions.len() / 2;
    let wrong = write(&dir, "layout_wrong.c", &static_asserts(&layouts, &answers, Some(wrong_index)));
    let out = run([wrong.as_os_str(), model_flag.as_ref(), "--parse-only".as_ref()]);
    assert_eq!(exit_code(&out), Some(EXIT_INPUT_ERROR), "{test}: a wrong layout value was accepted:\n{}", out.stderr);
    assert!(out.stderr.contains(&format!("layout check {wrong_index}:")), "the failing assertion is not named:\n{}", out.stderr);
    println!("{test}: {} layout facts agree with gcc", layouts.questions.len());
}

#[test]
fn layouts_match_gcc_lp64() {
    check_data_model("--64", &["-m64"]);
}

#[test]
fn layouts_match_gcc_ilp32() {
    check_data_model("--32", &["-m32"]);
}

#[test]
fn generator_is_deterministic_and_large() {
    let (a, b) = (layouts(true), layouts(true));
    assert_eq!(a.definitions, b.definitions);
    assert!(a.questions.len() > 600, "only {} questions", a.questions.len());
}

/// The generated definitions are valid C for gcc in both data models, so a
/// disagreement is tarsier's, not the generator's.
#[test]
fn gcc_accepts_the_generated_types() {
    for (flags, with_int128) in [(["-m64"], true), (["-m32"], false)] {
        if !gcc_works(&flags) {
            println!("SKIP gcc_accepts_the_generated_types {flags:?}: gcc cannot compile here");
            continue;
        }
        let layouts = layouts(with_int128);
        let answers = gcc_layout_answers(&layouts.definitions, &layouts.questions, &flags, &scratch_dir(&format!("layout-gcc{}", flags[0])));
        assert!(answers.iter().all(|&a| a < 1 << 16), "implausible layout values from gcc");
    }
}
