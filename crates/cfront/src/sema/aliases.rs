//! GCC's `alias("target")` attribute: the declared function or object is
//! another name for `target`, which the same unit must define (as GCC
//! requires). The alias is declared as an ordinary symbol (so other units
//! find it by name, in any order); when its unit ends, the target's name
//! is resolved in that unit's file scope, and at the end of the program
//! every reference to the alias becomes one to the target, so `&alias ==
//! &target`. A `weak` alias gives way to a definition of the same name in
//! another unit, as the linker's choice does.

use super::scope::Ordinary;
use super::{Sema, R};
use crate::ast::{Attribute, ExprKind as A};
use ir::{Loc, SymbolId, SymbolKind};

/// An alias declared in the unit being lowered, its target not yet looked up.
pub(super) struct PendingAlias {
    alias: SymbolId,
    target: String,
    weak: bool,
    loc: Loc,
}

/// An alias whose target is known.
pub(super) struct Alias {
    alias: SymbolId,
    target: SymbolId,
    weak: bool,
    loc: Loc,
}

/// The target named by an `alias` attribute among `attrs`, if any.
pub(super) fn alias_target(attrs: &[&[Attribute]]) -> Option<Result<String, Loc>> {
    let attr = attrs.iter().flat_map(|list| list.iter()).find(|a| a.name == "alias")?;
    Some(match attr.args.first().map(|a| &a.kind) {
        Some(A::StringLit { units, .. }) => Ok(units.iter().filter_map(|&u| char::from_u32(u)).collect()),
        _ => Err(attr.loc),
    })
}

impl Sema<'_> {
    /// Records that `alias` (just declared) names `target`.
    pub(super) fn note_alias(&mut self, alias: SymbolId, target: Result<String, Loc>, weak: bool, loc: Loc) -> R<()> {
        let target = target.map_err(|at| self.error(at, "the `alias` attribute takes the target's name as a string"))?;
        self.pending_aliases.push(PendingAlias { alias, target, weak, loc });
        Ok(())
    }

    /// At the end of a unit: each alias it declared names its target's
    /// symbol.
    pub(super) fn resolve_unit_aliases(&mut self) {
        for pending in std::mem::take(&mut self.pending_aliases) {
            let Some(Ordinary::Symbol { sym: target }) = self.scopes.lookup_file(&pending.target).cloned() else {
                let name = self.prog.symbols[pending.alias].display_name.clone();
                self.diags.error(pending.loc, format!("`{name}` is an alias of `{}`, which this unit does not declare", pending.target));
                continue;
            };
            self.aliases.push(Alias { alias: pending.alias, target, weak: pending.weak, loc: pending.loc });
        }
    }

    /// Whether `sym` was declared as an alias (an object alias starts with
    /// its target's value, not an unknown one).
    pub(super) fn is_alias(&self, sym: SymbolId) -> bool {
        self.aliases.iter().any(|a| a.alias == sym)
    }

    /// At the end of the program: every reference to an alias becomes one
    /// to its target, unless a weak alias gave way to a definition of its
    /// own.
    pub(super) fn apply_aliases(&mut self) {
        for alias in std::mem::take(&mut self.aliases) {
            if let Err(message) = self.alias_redirect(&alias) {
                self.diags.error(alias.loc, message);
            }
        }
    }

    fn alias_redirect(&mut self, a: &Alias) -> Result<(), String> {
        let name = self.prog.symbols[a.alias].display_name.clone();
        let target_name = self.prog.symbols[a.target].display_name.clone();
        if self.defines(a.alias) {
            return if a.weak { Ok(()) } else { Err(format!("`{name}` is defined twice: as an alias of `{target_name}` and in another unit")) };
        }
        if !self.defines(a.target) {
            return Err(format!("`{name}` is an alias of `{target_name}`, which is not defined"));
        }
        if self.prog.symbols[a.alias].ty != self.prog.symbols[a.target].ty {
            return Err(format!("unsupported: alias `{name}` of `{target_name}` with another type"));
        }
        let bodies = self.prog.functions.iter_mut().filter_map(|(_, f)| f.body.as_mut());
        for instr in bodies.flatten() {
            for e in instr.kind.exprs_mut() {
                e.replace_symbol(a.alias, a.target);
            }
        }
        if let (SymbolKind::Function(alias), SymbolKind::Function(target)) = (&self.prog.symbols[a.alias].kind, &self.prog.symbols[a.target].kind) {
            let (alias, target) = (*alias, *target);
            self.function_aliases.insert(alias, target);
        }
        Ok(())
    }

    /// Whether the program defines `sym` itself (a function body, an
    /// object's definition), not through an alias.
    fn defines(&self, sym: SymbolId) -> bool {
        match self.prog.symbols[sym].kind {
            SymbolKind::Function(f) => self.prog.functions[f].body.is_some(),
            _ => self.defined_objects.contains(&sym),
        }
    }
}
