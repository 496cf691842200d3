//! Runs the system C preprocessor. (Being built.)
use crate::diag::Diagnostics;
use crate::Options;
use std::path::Path;

pub fn run(_input: &Path, _opts: &Options, diags: &mut Diagnostics) -> Option<String> {
    diags.error(ir::Loc::NONE, "unsupported: preprocessing is not built yet");
    None
}
