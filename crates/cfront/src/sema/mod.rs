//! Type checking and lowering to the IR. (Being built.)
use crate::ast::TranslationUnit;
use crate::diag::Diagnostics;
use crate::Options;
use ir::SourceFiles;

pub fn lower(_units: &[TranslationUnit], _files: SourceFiles, _opts: &Options, diags: &mut Diagnostics) -> Option<ir::Program> {
    diags.error(ir::Loc::NONE, "unsupported: lowering is not built yet");
    None
}
