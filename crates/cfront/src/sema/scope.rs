//! Lexical scopes of one translation unit: ordinary identifiers (objects,
//! functions, typedefs, enum constants) and tags (struct/union/enum) in
//! separate name spaces, innermost scope first.

use super::ctype::{CType, EnumId};
use ir::{CompositeId, SymbolId};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub enum Ordinary {
    /// An object or function.
    Symbol { sym: SymbolId },
    /// An object another unit defines, seen through this unit's
    /// incompatible `extern` declaration of type `ty`: `*(ty *)&sym`.
    View { sym: SymbolId, ty: CType },
    Typedef(CType),
    EnumConst { value: i128, ty: CType },
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Tag {
    Record(CompositeId),
    Enum(EnumId),
}

pub struct Scopes {
    ordinary: Vec<HashMap<String, Ordinary>>,
    tags: Vec<HashMap<String, Tag>>,
}

impl Scopes {
    /// A fresh file scope.
    pub fn new() -> Scopes {
        Scopes { ordinary: vec![HashMap::new()], tags: vec![HashMap::new()] }
    }
    pub fn push(&mut self) {
        self.ordinary.push(HashMap::new());
        self.tags.push(HashMap::new());
    }
    pub fn pop(&mut self) {
        if self.ordinary.len() > 1 {
            self.ordinary.pop();
            self.tags.pop();
        }
    }
    pub fn at_file_scope(&self) -> bool {
        self.ordinary.len() == 1
    }
    pub fn lookup(&self, name: &str) -> Option<&Ordinary> {
        self.ordinary.iter().rev().find_map(|s| s.get(name))
    }
    pub fn lookup_file(&self, name: &str) -> Option<&Ordinary> {
        self.ordinary.first().and_then(|s| s.get(name))
    }
    pub fn insert(&mut self, name: &str, entry: Ordinary) {
        if let Some(s) = self.ordinary.last_mut() {
            s.insert(name.to_string(), entry);
        }
    }
    pub fn insert_file(&mut self, name: &str, entry: Ordinary) {
        if let Some(s) = self.ordinary.first_mut() {
            s.insert(name.to_string(), entry);
        }
    }
    pub fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.tags.iter().rev().find_map(|s| s.get(name).copied())
    }
    pub fn lookup_tag_current(&self, name: &str) -> Option<Tag> {
        self.tags.last().and_then(|s| s.get(name).copied())
    }
    pub fn insert_tag(&mut self, name: &str, tag: Tag) {
        if let Some(s) = self.tags.last_mut() {
            s.insert(name.to_string(), tag);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_scopes_shadow_and_pop() {
        let mut s = Scopes::new();
        s.insert("x", Ordinary::Typedef(CType::int()));
        s.push();
        s.insert("x", Ordinary::Typedef(CType::new(super::super::ctype::Kind::Int(super::super::ctype::IntKind::Char))));
        assert!(matches!(s.lookup("x"), Some(Ordinary::Typedef(t)) if *t == CType::new(super::super::ctype::Kind::Int(super::super::ctype::IntKind::Char))));
        assert!(s.lookup("y").is_none());
        s.pop();
        assert!(matches!(s.lookup("x"), Some(Ordinary::Typedef(t)) if *t == CType::int()));
        assert!(s.at_file_scope());
    }
}
