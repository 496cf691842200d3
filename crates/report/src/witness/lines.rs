//! Where a location of the program is in the files the verifier was given.
//! The front end follows the line markers of preprocessed files (`.i`)
//! back to the original sources; a witness speaks of the files as given,
//! so each location is mapped back to the physical line that holds it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The physical lines of the input files, by the (file name, line) their
/// line markers give them.
#[derive(Default)]
pub struct InputLines {
    inputs: Vec<PathBuf>,
    physical: HashMap<(String, u32), (usize, u32)>,
}

impl InputLines {
    /// Reads the line markers of every input (unreadable files have none).
    pub fn of(inputs: &[PathBuf]) -> InputLines {
        let mut lines = InputLines { inputs: inputs.to_vec(), physical: HashMap::new() };
        for (index, path) in inputs.iter().enumerate() {
            if let Ok(text) = std::fs::read_to_string(path) {
                lines.add_markers(index, &text);
            }
        }
        lines
    }

    fn add_markers(&mut self, input: usize, text: &str) {
        let mut current: Option<(String, u32)> = None;
        for (index, line) in text.lines().enumerate() {
            if let Some(marker) = line_marker(line) {
                current = Some(marker);
                continue;
            }
            if let Some((name, logical)) = &mut current {
                self.physical.entry((name.clone(), *logical)).or_insert((input, index as u32 + 1));
                *logical += 1;
            }
        }
    }

    /// The input file and physical line of line `line` of `file` (a name
    /// as the front end reports it); the first input and `line` itself
    /// when no marker names it.
    pub fn locate(&self, file: &str, line: u32) -> (PathBuf, u32) {
        if let Some(&(input, physical)) = self.physical.get(&(file.to_string(), line)) {
            return (self.inputs[input].clone(), physical);
        }
        let named = self.inputs.iter().find(|p| p.as_path() == Path::new(file) || p.file_name() == Path::new(file).file_name());
        (named.or(self.inputs.first()).map_or_else(|| PathBuf::from(file), PathBuf::clone), line)
    }
}

/// `# 12 "file.c" 1 3` → (`file.c`, 12).
fn line_marker(line: &str) -> Option<(String, u32)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").map_or(rest, str::trim_start);
    let (number, rest) = rest.split_once(' ')?;
    let name = rest.trim_start().strip_prefix('"')?.split('"').next()?;
    Some((name.to_string(), number.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_map_logical_lines_to_physical_ones() {
        let mut lines = InputLines { inputs: vec![PathBuf::from("t.i")], physical: HashMap::new() };
        lines.add_markers(0, "# 1 \"t.c\"\n# 1 \"<built-in>\"\n# 1 \"t.c\"\nint x;\n\nint main() {}\n");
        assert_eq!(lines.locate("t.c", 1), (PathBuf::from("t.i"), 4));
        assert_eq!(lines.locate("t.c", 3), (PathBuf::from("t.i"), 6));
        assert_eq!(lines.locate("other.c", 9), (PathBuf::from("t.i"), 9), "unmarked: as it is");
    }

    #[test]
    fn reads_both_marker_spellings() {
        assert_eq!(line_marker("# 7 \"a.c\" 2"), Some(("a.c".to_string(), 7)));
        assert_eq!(line_marker("#line 3 \"b.c\""), Some(("b.c".to_string(), 3)));
        assert_eq!(line_marker("#define X 1"), None);
    }
}
