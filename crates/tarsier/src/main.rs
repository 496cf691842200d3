//! The `tarsier` command line: parses the arguments into a
//! [`config::Config`], runs it ([`driver`]), and maps the outcome to an exit
//! code ([`exit::Exit`]). A panic anywhere is reported as an internal error
//! with its own exit code, never as a verdict.

mod args;
mod config;
mod driver;
mod exit;
mod help;
mod limits;
mod loop_ids;
mod output;
mod progress;
mod svcomp;
mod task;
mod verify;
mod witness;
mod witness_search;

use exit::Exit;
use std::process::ExitCode;

/// The work runs on a thread with a large stack: C inputs can nest deeply,
/// and a stack overflow would kill the process without a message.
const WORKER_STACK_BYTES: usize = 256 << 20;

/// A failed allocation ends the run with VERIFICATION UNKNOWN, not an abort.
#[global_allocator]
static ALLOCATOR: limits::ExhaustionGuard = limits::ExhaustionGuard;

fn main() -> ExitCode {
    install_panic_hook();
    let argv: Vec<String> = match std::env::args_os().skip(1).map(|a| a.into_string()).collect() {
        Ok(argv) => argv,
        Err(bad) => return usage_error(&format!("argument is not valid UTF-8: {bad:?}")).into(),
    };
    let command = match args::parse(&argv) {
        Ok(command) => command,
        Err(err) => return usage_error(&err.0).into(),
    };
    let config = match command {
        args::Command::Help => {
            print!("{}", help::MANUAL);
            return Exit::Success.into();
        }
        args::Command::Version => {
            println!("tarsier {}", env!("CARGO_PKG_VERSION"));
            println!("commit {}", env!("TARSIER_COMMIT"));
            println!("built for {}", env!("TARSIER_BUILD"));
            return Exit::Success.into();
        }
        args::Command::Run(config) => config,
    };
    let runs = match task::runs(*config) {
        Ok(runs) => runs,
        Err(err) => {
            eprintln!("tarsier: error: {err}");
            return Exit::InputError.into();
        }
    };
    let Some(first) = runs.first() else { return Exit::InputError.into() };
    let verify = &first.config.verify;
    let timeout = verify.timeout.map(|t| t * u32::try_from(runs.len()).unwrap_or(u32::MAX));
    limits::start(timeout, verify.memlimit_mb, verify::printer(&first.config, None));
    let worker = std::thread::Builder::new().stack_size(WORKER_STACK_BYTES).spawn(move || run_all(&runs));
    match worker.map(|w| w.join()) {
        Ok(Ok(exit)) => exit.into(),
        // The panic hook has already printed the message.
        Ok(Err(_)) => Exit::InternalError.into(),
        Err(err) => {
            eprintln!("tarsier: internal error: cannot start the worker thread: {err}");
            Exit::InternalError.into()
        }
    }
}

/// Runs one after the other; the exit code is the most telling one (a
/// violation, else an unknown or an error, else success).
fn run_all(runs: &[task::Run]) -> Exit {
    let mut exits = Vec::new();
    for run in runs {
        if let Some(heading) = &run.heading {
            println!("{heading}");
        }
        exits.push(driver::run(&run.config));
    }
    exits.into_iter().max_by_key(|exit| exit.severity()).unwrap_or(Exit::Success)
}

fn usage_error(message: &str) -> Exit {
    eprintln!("tarsier: error: {message}\n(run 'tarsier --help' for the manual)");
    Exit::UsageError
}

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".into());
        eprintln!(
            "tarsier: internal error: {message}{place}\n\
             This is a bug in tarsier; please report it together with the input files and the command line."
        );
        std::process::exit(i32::from(Exit::InternalError.code()));
    }));
}
