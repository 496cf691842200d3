//! cfront: tarsier's C front end.
//!
//! C files go through the system preprocessor ([`preprocess`]), are split
//! into tokens ([`lex`]) whose locations follow the line markers back to the
//! original files, parsed into an [`ast`] ([`parse`]), and type-checked and
//! lowered to the IR ([`sema`]). Several translation units are linked into
//! one [`ir::Program`], with the C library models the program needs
//! ([`library_models`]).

pub mod ast;
pub mod diag;
pub mod exit_handlers;
pub mod lex;
pub mod library_models;
pub mod model_headers;
pub mod parse;
pub mod pragma;
pub mod preprocess;
pub mod sema;

use diag::Diagnostics;
use ir::{DataModel, SourceFiles};
use std::path::PathBuf;

/// Options of one compilation (the front-end part of the command line).
#[derive(Clone, Debug)]
pub struct Options {
    pub data_model: DataModel,
    /// `-D NAME[=VALUE]` and `-U NAME`, in order, as the preprocessor takes them
    /// (`-DNAME=V`, `-UNAME`).
    pub macro_args: Vec<String>,
    pub include_dirs: Vec<PathBuf>,
    /// Files to `-include` before each translation unit.
    pub include_files: Vec<PathBuf>,
    /// The preprocessor command (`cpp`, else `cc -E` when `None`).
    pub cpp: Option<String>,
    /// The entry function (`main` when `None`).
    pub entry: Option<String>,
    /// Link the C library models (crate `models`) for the library functions
    /// the program calls without defining them.
    pub library_models: bool,
    /// The rounding mode the program starts in (the initial value of
    /// `ir::ROUNDING_MODE_VARIABLE`).
    pub rounding_mode: ir::RoundingMode,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            data_model: DataModel::LP64,
            macro_args: Vec::new(),
            include_dirs: Vec::new(),
            include_files: Vec::new(),
            cpp: None,
            entry: None,
            library_models: true,
            rounding_mode: ir::RoundingMode::NearestEven,
        }
    }
}

/// Preprocesses and parses every input file.
pub fn parse_files(
    inputs: &[PathBuf],
    opts: &Options,
    files: &mut SourceFiles,
    diags: &mut Diagnostics,
) -> Option<Vec<ast::TranslationUnit>> {
    let mut units = Vec::new();
    for input in inputs {
        let text = preprocess::run(input, opts, diags)?;
        let tokens = lex::tokenize(&text, input, files, diags)?;
        units.push(parse::parse(&tokens, diags)?);
    }
    Some(units)
}

/// Compiles `inputs` (one program) to the IR. Returns `None` when an error
/// was reported in `diags`.
pub fn compile(inputs: &[PathBuf], opts: &Options, diags: &mut Diagnostics) -> Option<ir::Program> {
    let mut files = SourceFiles::default();
    let units = parse_files(inputs, opts, &mut files, diags)?;
    lower(units, files, opts, diags)
}

/// Type-checks and lowers parsed units to the IR, linking the library
/// models when `opts.library_models` asks for them. Returns `None` when an
/// error was reported in `diags`.
pub fn lower(
    units: Vec<ast::TranslationUnit>,
    files: SourceFiles,
    opts: &Options,
    diags: &mut Diagnostics,
) -> Option<ir::Program> {
    if opts.library_models {
        return library_models::lower_with_models(units, files, opts, diags);
    }
    sema::lower(&units, files, opts, diags)
}
