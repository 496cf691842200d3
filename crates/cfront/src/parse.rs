//! The parser. (Being built.)
use crate::ast::TranslationUnit;
use crate::diag::Diagnostics;
use crate::lex::Token;

pub fn parse(_tokens: &[Token], diags: &mut Diagnostics) -> Option<TranslationUnit> {
    diags.error(ir::Loc::NONE, "unsupported: parsing is not built yet");
    None
}
