//! Where bundle sets are looked for: the store directory and the default search order. The reader's side of the
//! store (`mydesign_docs::store` installs and packs; this only locates), so `serve` and the lookups find sets
//! without the release code.

use std::path::{Path, PathBuf};

/// Environment variable that overrides the store directory (as `--store` does).
pub const STORE_ENV: &str = "MYDESIGN_DOCS_HOME";

/// The store: `explicit` (`--store`), else `$MYDESIGN_DOCS_HOME`, else the user data directory
/// (`$XDG_DATA_HOME/mydesign-docs`, `~/.local/share/mydesign-docs` on Linux; the platform's data directory
/// elsewhere, from the `directories` crate). `None` only when no home directory is known.
pub fn store_dir(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = explicit {
        return Some(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os(STORE_ENV).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "mydesign-docs").map(|p| p.data_dir().to_path_buf())
}

/// Where bundles are looked for when no `--bundles` is given, in order: `./out` (what `build` writes), then the
/// store ([`store_dir`]). The first that holds a set is used.
pub fn default_dirs() -> Vec<PathBuf> {
    std::iter::once(PathBuf::from("out")).chain(store_dir(None)).collect()
}
