//! Runs the reference oracle at scale and prints operation × format ×
//! mismatches:
//! `cargo run --release -p ieee --example fp_reference -- --cases 1000000`
//! Options: `--cases N` (per operation and format, default 1000000),
//! `--formats f16,f32,f64,f128,x87,bf16,e4m4,e3m3,e17m47,e5m120` (default
//! f32,f64; the last five are unusual widths), `--ops add,fma,...`
//! (default all), `--seed S`. Exits with status 1 on any mismatch.

#[path = "../tests/oracle/mod.rs"]
mod oracle;

use oracle::{run_format, table, Fp6, Fp8, Tally, WidePrecision, WideRange};
use rustc_apfloat::ieee::{BFloat, Double, Half, Quad, Single, X87DoubleExtended};

struct Options {
    cases: u64,
    formats: Vec<String>,
    ops: Option<Vec<String>>,
    seed: u64,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options { cases: 1_000_000, formats: vec!["f32".into(), "f64".into()], ops: None, seed: 0x01EE_E754 };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let list = || value.split(',').map(str::to_string).collect::<Vec<_>>();
        match flag.as_str() {
            "--cases" => options.cases = value.parse().map_err(|e| format!("--cases {value}: {e}"))?,
            "--seed" => options.seed = value.parse().map_err(|e| format!("--seed {value}: {e}"))?,
            "--formats" => options.formats = list(),
            "--ops" => options.ops = Some(list()),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(options)
}

fn main() {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("fp_reference: {message}");
            std::process::exit(2);
        }
    };
    let only = options.ops.as_deref();
    let mut tallies: Vec<Tally> = Vec::new();
    for format in &options.formats {
        let (cases, seed) = (options.cases, options.seed);
        let results = match format.as_str() {
            "f16" => run_format::<Half>(cases, seed, only),
            "f32" => run_format::<Single>(cases, seed, only),
            "f64" => run_format::<Double>(cases, seed, only),
            "f128" => run_format::<Quad>(cases, seed, only),
            "x87" => run_format::<X87DoubleExtended>(cases, seed, only),
            "bf16" => run_format::<BFloat>(cases, seed, only),
            "e4m4" => run_format::<Fp8>(cases, seed, only),
            "e3m3" => run_format::<Fp6>(cases, seed, only),
            "e17m47" => run_format::<WideRange>(cases, seed, only),
            "e5m120" => run_format::<WidePrecision>(cases, seed, only),
            other => {
                eprintln!("fp_reference: unknown format {other}");
                std::process::exit(2);
            }
        };
        print!("{}", table(&results));
        tallies.extend(results);
    }
    let mismatches: u64 = tallies.iter().map(|t| t.mismatches).sum();
    let cases: u64 = tallies.iter().map(|t| t.cases).sum();
    println!("total: {cases} cases, {mismatches} mismatches");
    if mismatches > 0 {
        std::process::exit(1);
    }
}
