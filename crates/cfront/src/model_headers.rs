//! tarsier's own model headers (under `crates/cfront/include/`): C headers
//! that verification programs include but that no system provides, such as
//! the Linux kernel API models at
//! `<ubuntu20.04/kernel_5.15.0-76/include/linux/slab.h>`. They are compiled
//! into the binary and written once per process to a temporary directory
//! that the preprocessor searches after the system directories
//! (`-idirafter`), so a real header of the same name always wins.

use std::path::PathBuf;
use std::sync::OnceLock;

/// Each model header: its path relative to the include directory, and its text.
const HEADERS: &[(&str, &str)] = &[
    (
        KERNEL_TYPES,
        include_str!("../include/ubuntu20.04/kernel_5.15.0-76/include/linux/types.h"),
    ),
    (
        KERNEL_SLAB,
        include_str!("../include/ubuntu20.04/kernel_5.15.0-76/include/linux/slab.h"),
    ),
    (
        KERNEL_SPINLOCK,
        include_str!("../include/ubuntu20.04/kernel_5.15.0-76/include/linux/spinlock.h"),
    ),
    (
        KERNEL_UACCESS,
        include_str!("../include/ubuntu20.04/kernel_5.15.0-76/include/asm/uaccess.h"),
    ),
];

const KERNEL_TYPES: &str = "ubuntu20.04/kernel_5.15.0-76/include/linux/types.h";
const KERNEL_SLAB: &str = "ubuntu20.04/kernel_5.15.0-76/include/linux/slab.h";
const KERNEL_SPINLOCK: &str = "ubuntu20.04/kernel_5.15.0-76/include/linux/spinlock.h";
const KERNEL_UACCESS: &str = "ubuntu20.04/kernel_5.15.0-76/include/asm/uaccess.h";

/// The directory holding the model headers, shared by every run of
/// this build and created on first use; `None`
/// when it cannot be written (the programs that need a model then fail with
/// the preprocessor's "file not found").
pub fn include_dir() -> Option<PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("tarsier-model-headers-{:016x}", contents_hash()));
        for (path, text) in HEADERS {
            let file = dir.join(path);
            if std::fs::read_to_string(&file).is_ok_and(|old| old == *text) {
                continue;
            }
            std::fs::create_dir_all(file.parent()?).ok()?;
            // Written aside and renamed, so a concurrent run never reads half a header.
            let partial = file.with_extension(format!("tmp{}", std::process::id()));
            std::fs::write(&partial, text).ok()?;
            std::fs::rename(&partial, &file).ok()?;
        }
        Some(dir)
    })
    .clone()
}

/// Names the directory after the headers' contents, so runs of the same
/// build share it and a different build never sees stale headers.
fn contents_hash() -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    HEADERS.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_header_is_written_with_its_text() {
        let dir = include_dir().expect("temporary directory is writable");
        for (path, text) in HEADERS {
            assert_eq!(
                std::fs::read_to_string(dir.join(path)).unwrap(),
                *text,
                "{path}"
            );
        }
    }
}
