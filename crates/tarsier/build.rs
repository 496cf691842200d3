//! Records what `tarsier --version` prints besides the version: the git
//! commit the binary was built from (with its date) when the source is a
//! git checkout and `git` runs, and the build's target, profile and
//! compiler. Without git the commit is said to be unknown; the build never
//! fails for want of it.

use std::process::Command;

fn main() {
    let commit = git(&["log", "-1", "--format=%h %cs"]).unwrap_or_else(|| "unknown (not built from a git checkout)".into());
    println!("cargo:rustc-env=TARSIER_COMMIT={commit}");
    let rustc = std::env::var("RUSTC").ok().and_then(|rustc| output(Command::new(rustc).arg("--version")));
    let build = format!(
        "{} {}, {}",
        std::env::var("TARGET").unwrap_or_default(),
        std::env::var("PROFILE").unwrap_or_default(),
        rustc.unwrap_or_else(|| "rustc unknown".into())
    );
    println!("cargo:rustc-env=TARSIER_BUILD={build}");
    rerun_when_the_commit_moves();
}

/// A new commit or checkout changes HEAD or the branch it names.
fn rerun_when_the_commit_moves() {
    for path in ["HEAD", "packed-refs"] {
        if let Some(file) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={file}");
        }
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]).and_then(|r| git(&["rev-parse", "--git-path", &r])) {
        println!("cargo:rerun-if-changed={branch}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}

fn git(args: &[&str]) -> Option<String> {
    output(Command::new("git").args(args))
}

/// The trimmed standard output of a command that succeeded with some.
fn output(command: &mut Command) -> Option<String> {
    let out = command.output().ok().filter(|o| o.status.success())?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}
