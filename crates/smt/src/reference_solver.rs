//! The outside solver the unit tests compare the evaluator with: `z3` on
//! `PATH`, trusted only from version [`MINIMUM_Z3`] on. Each older release
//! tried answers some query of the fixed-seed tests wrongly, checked by
//! hand against IEEE-754 and the array theory: Debian's 4.8.12 a
//! floating-point fused multiply-add, 4.12 to 4.15 an extensional equality
//! of two constant arrays over a 2-bit index, 4.16 to 5.3 a fused
//! multiply-add in FP(3,3). Trusted means its `sat`/`unsat` answers are
//! held against tarsier; an `unknown` never is (the tests skip it).

use std::process::Command;

/// The oldest z3 whose answers the tests trust.
pub(crate) const MINIMUM_Z3: (u32, u32, u32) = (5, 4, 0);

/// Whether a trusted z3 is installed; when it is not, says why `test`
/// skips (its cross-check, not the whole test when it checks more).
pub(crate) fn trusted_z3(test: &str) -> bool {
    match z3_version() {
        None => eprintln!("skipped {test}: no z3 on PATH (pip install z3-solver provides one)"),
        Some(version) if version < MINIMUM_Z3 => {
            let (major, minor, patch) = MINIMUM_Z3;
            let (a, b, c) = version;
            eprintln!("skipped {test}: z3 {a}.{b}.{c} answers some of its queries wrongly; it needs z3 {major}.{minor}.{patch} or later (pip install z3-solver)");
        }
        Some(_) => return true,
    }
    false
}

/// The installed z3's version, from `z3 -version` ("Z3 version 4.8.12 - 64 bit").
fn z3_version() -> Option<(u32, u32, u32)> {
    let out = Command::new("z3").arg("-version").output().ok()?;
    parse_version(&String::from_utf8_lossy(&out.stdout))
}

fn parse_version(text: &str) -> Option<(u32, u32, u32)> {
    let number = text.split_whitespace().skip_while(|w| *w != "version").nth(1)?;
    let mut parts = number.split('.').map(|p| p.parse::<u32>().ok());
    Some((parts.next()??, parts.next()??, parts.next().flatten().unwrap_or(0)))
}

#[test]
fn versions_are_read_from_z3s_banner() {
    assert_eq!(parse_version("Z3 version 4.8.12 - 64 bit\n"), Some((4, 8, 12)));
    assert_eq!(parse_version("Z3 version 5.4.1 - 64 bit"), Some((5, 4, 1)));
    assert_eq!(parse_version("Z3 version 4.15 - 64 bit"), Some((4, 15, 0)));
    assert_eq!(parse_version("something else"), None);
    let known_bad = [(4, 8, 12), (5, 3, 0)];
    assert!(known_bad.iter().all(|&version| version < MINIMUM_Z3));
}
