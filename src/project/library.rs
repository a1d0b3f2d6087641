//! The library a project is served from: the sets its dependencies ship ([`super::installed`]) first, then
//! `--bundles` (else `./out` or the store), each system pinned to the version the project uses ([`super::choose`]).

use std::path::{Path, PathBuf};

use crate::read::{Library, LookupError};

use super::installed::{ShippedSets, shipped_sets};
use super::{choose, project_version};

/// A project's library and what was chosen for it.
pub struct ProjectLibrary {
    /// The sets, each system pinned to the project's version.
    pub library: Library,
    /// One line per system served: the version the project uses, where it was read, the version served and where
    /// its set came from (`serve` logs them).
    pub report: Vec<String>,
    /// The sets the project's dependencies ship, as found.
    pub shipped: Vec<ShippedSets>,
}

/// The library for `project`: the sets shipped in its dependency tree, then those of `bundles` (when empty:
/// `./out` when it holds a set, else the store, as [`Library::open`]). A copy shipped in the project comes first,
/// so it is the one served for its version. Every system whose package the project uses is pinned to the
/// project's version ([`choose`]); when the served copy is the project's own, every answer header says where it
/// came from (`from node_modules/@s/ui-docs`).
///
/// # Errors
/// [`LookupError::NoBundles`] when neither the project nor the directories hold a set; a damaged set given
/// directly.
pub fn project_library(bundles: &[PathBuf], project: &Path) -> Result<ProjectLibrary, LookupError> {
    let shipped = shipped_sets(project);
    let mut library = if shipped.is_empty() {
        Library::open(bundles)?
    } else {
        let base: Vec<PathBuf> = match bundles {
            [] => match Library::open(&[]) {
                Ok(l) => l.dirs().to_vec(),
                Err(LookupError::NoBundles { .. }) => Vec::new(),
                Err(e) => return Err(e),
            },
            given => given.to_vec(),
        };
        let dirs: Vec<PathBuf> = shipped.iter().map(|s| s.dir.clone()).chain(base).collect();
        Library::scan(&dirs)?
    };
    let shipped_roots: Vec<(PathBuf, &ShippedSets)> =
        shipped.iter().map(|s| (s.dir.canonicalize().unwrap_or_else(|_| s.dir.clone()), s)).collect();
    let mut report = Vec::new();
    for (system, versions) in library.systems() {
        let set = library.select(Some(&system), None)?;
        let package = set.head().package.clone().unwrap_or_else(|| system.clone());
        let Some(wanted) = project_version(project, &package) else {
            report.push(format!("no dependency on {package}; serving {system} {}", set.head().version));
            continue;
        };
        let Some(choice) = choose(&wanted, &versions) else { continue };
        let served = library.select(Some(&system), Some(&choice.version))?;
        // Both sides canonical: a set is given by the path it was found at (pnpm's link), a root by its target.
        let served_at = served.dir().canonicalize().unwrap_or_else(|_| served.dir().to_path_buf());
        let origin = shipped_roots.iter().find(|(root, _)| served_at.starts_with(root)).map(|(_, s)| s);
        let from = origin.map(|s| format!("from {}", s.package.shown()));
        let note = match (choice.note, &from) {
            (Some(n), Some(f)) => Some(format!("{n}; {f}")),
            (n, f) => n.or_else(|| f.clone()),
        };
        report.push(format!(
            "{package} {} ({}); serving {system} {} {}",
            wanted.version,
            wanted.source.file(),
            choice.version,
            from.unwrap_or_else(|| format!("from {}", served.dir().display()))
        ));
        library.pin(&system, &choice.version, note)?;
    }
    Ok(ProjectLibrary { library, report, shipped })
}
