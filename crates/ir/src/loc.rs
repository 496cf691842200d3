//! Source locations: every token, AST node and IR instruction points back to
//! an original file, line and column (after following preprocessor line
//! markers).

use crate::entity::PrimaryMap;
use std::collections::HashMap;

crate::entity!(
    /// An original source file (as named by the preprocessor's line markers).
    FileId,
    "file"
);

/// A position in an original source file. Lines and columns count from 1;
/// `line == 0` means "no location" (compiler-generated code).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Loc {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
}

impl Loc {
    pub const NONE: Loc = Loc { file: FileId(0), line: 0, col: 0 };
    pub fn is_none(&self) -> bool {
        self.line == 0
    }
}

/// The folder name under which the front end registers the C library
/// models it links into a program (`<tarsier models>/string.c`), so later
/// stages can tell the user's code from the library's.
pub const LIBRARY_MODEL_DIR: &str = "<tarsier models>";

/// The table of file names that [`FileId`]s refer to. File 0 is always the
/// pseudo-file `<built-in>`.
#[derive(Clone, Debug)]
pub struct SourceFiles {
    names: PrimaryMap<FileId, String>,
    by_name: HashMap<String, FileId>,
}

impl Default for SourceFiles {
    fn default() -> Self {
        let mut files = SourceFiles { names: PrimaryMap::new(), by_name: HashMap::new() };
        files.intern("<built-in>");
        files
    }
}

impl SourceFiles {
    /// Returns the id of `name`, adding it if it is new.
    pub fn intern(&mut self, name: &str) -> FileId {
        if let Some(&id) = self.by_name.get(name) {
            return id;
        }
        let id = self.names.push(name.to_string());
        self.by_name.insert(name.to_string(), id);
        id
    }
    pub fn name(&self, id: FileId) -> &str {
        &self.names[id]
    }
    /// Whether `loc` lies in one of the linked C library models.
    pub fn is_library_model(&self, loc: Loc) -> bool {
        !loc.is_none() && self.name(loc.file).starts_with(LIBRARY_MODEL_DIR)
    }
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &String)> {
        self.names.iter()
    }
}
