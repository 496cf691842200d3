//! A minimal driver for trying the engine on one C file without the CLI:
//! `cargo run -p engine --example verify -- FILE [--unwind K]
//! [--no-unwinding-assertions] [--no-pointer-check] [--no-bounds-check]
//! [--memory-leak-check] [--memory-cleanup-check] [--force-malloc-success] [--incremental-bmc]
//! [--32] [--overflow-check] [--unsigned-overflow-check] [--timeout SECONDS]`. Prints TRUE, FALSE(class) or UNKNOWN(reason).

use engine::{verify, Config, Verdict};
use std::path::PathBuf;
use std::time::Duration;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut config = Config::default();
    let mut front = cfront::Options::default();
    let mut checks = analysis::Checks::default();
    let mut file = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--unwind" => config.unwind = args.next().and_then(|k| k.parse().ok()),
            "--no-unwinding-assertions" => config.unwinding_assertions = false,
            "--no-pointer-check" => config.pointer_checks = false,
            "--no-bounds-check" => config.bounds_checks = false,
            "--memory-leak-check" => config.memory_leak_checks = true,
            "--memory-cleanup-check" => config.memory_cleanup_checks = true,
            "--force-malloc-success" => config.force_malloc_success = true,
            "--incremental-bmc" => config.strategy = engine::Strategy::IncrementalBmc,
            "--k-induction" => config.strategy = engine::Strategy::KInduction,
            "--32" => front.data_model = ir::DataModel::ILP32,
            "--overflow-check" => {
                checks.signed_overflow = true;
                checks.float_overflow = true;
            }
            "--unsigned-overflow-check" => checks.unsigned_overflow = true,
            "--timeout" => config.timeout = args.next().and_then(|s| s.parse().ok()).map(Duration::from_secs),
            _ => file = Some(PathBuf::from(arg)),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: verify FILE [options]");
        std::process::exit(2);
    };
    let mut diags = cfront::diag::Diagnostics::default();
    let Some(mut program) = cfront::compile(&[file], &front, &mut diags) else {
        let first = diags.list.first().map(|d| d.message.clone()).unwrap_or_default();
        println!("UNKNOWN(front end: {first})");
        return;
    };
    analysis::instrument(&mut program, &checks);
    let outcome = verify(&program, &config);
    for a in &outcome.approximations {
        eprintln!("approximation: {}", a.what);
    }
    match outcome.verdict {
        Verdict::True => println!("TRUE"),
        Verdict::BoundedTrue { bound: Some(bound) } => println!("TRUE(bounded {bound})"),
        Verdict::BoundedTrue { bound: None } => println!("TRUE(bounded by the program's loop bounds)"),
        Verdict::False(cex) => println!("FALSE({:?}: {})", cex.property.class, cex.property.message),
        Verdict::Unknown(reason) => println!("UNKNOWN({reason})"),
    }
}
