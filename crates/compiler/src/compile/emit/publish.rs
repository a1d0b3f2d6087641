//! Publishing: the spool each bundle is written to as soon as its unit is done, the set written into a temporary
//! sibling directory (`.<system>@<version>.tmp-PID`) and swapped into place, the generation already published
//! recognised, and the temporaries of killed builds removed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::CompiledSet;
use super::assemble::bundle_file_name;
use crate::bundle::format::{CHANGELOG_KEY, Identity, MANIFEST_KEY, SEARCH_KEY};
use crate::bundle::writer::{BundleWriter, Frame, SpooledBundle, Written, write_atomically};
use crate::model::*;
use crate::search::index as search_index;

/// The directory (`out/.build.tmp-<pid>`) where each compiled bundle is written as soon as its unit is finished
/// (issue 12: a build held every component's frames until the end). Removed when dropped; what the published set
/// keeps is renamed out of it first by [`write_bundle_set`].
pub struct Spool {
    dir: PathBuf,
}

impl Spool {
    /// A new, empty spool directory in `out` (created when missing); spools of killed builds are removed.
    ///
    /// # Errors
    /// `out` or the directory cannot be created.
    pub fn new(out: &Path) -> anyhow::Result<Spool> {
        std::fs::create_dir_all(out)
            .map_err(|e| anyhow::anyhow!("{}: cannot create output directory: {e}", out.display()))?;
        remove_stale_temporaries(out, "build");
        let dir = out.join(format!(".build.tmp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).map_err(|e| anyhow::anyhow!("{}: cannot create {e}", dir.display()))?;
        Ok(Spool { dir })
    }

    /// Writes `frames` as bundle file `name` of the spool (see [`BundleWriter::spool`]); or, with `hold` (a
    /// component reused from the cache, whose bundle the published generation most likely has already), keeps
    /// them in memory until the set is written ([`BundleWriter::hold`]).
    pub(super) fn bundle(&self, name: &str, frames: Vec<Frame>, hold: bool) -> std::io::Result<SpooledBundle> {
        let mut w = BundleWriter::new();
        for f in frames {
            w.push(f);
        }
        if hold { w.hold(&self.dir.join(name)) } else { w.spool(&self.dir.join(name)) }
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Removes `.<name>.tmp-<pid>` / `.<name>.old-<pid>` directories left by builds that were killed: those whose
/// process no longer runs (checked in /proc; where there is no /proc nothing is removed, as another build may be
/// writing).
pub(crate) fn remove_stale_temporaries(out: &Path, name: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(out) else { return };
    for e in entries.filter_map(Result::ok) {
        let file = e.file_name().to_string_lossy().into_owned();
        let pid = [".tmp-", ".old-"]
            .iter()
            .find_map(|sep| file.strip_prefix(&format!(".{name}{sep}")))
            .and_then(|pid| pid.parse::<u32>().ok());
        if pid.is_some_and(|p| p != std::process::id() && !Path::new(&format!("/proc/{p}")).exists()) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// The build id of `set`: a hash of everything the manifest says before the bundle list (deterministic, so
/// identical inputs give identical sets). The manifest carries it in its `Identity` (format 7: the other bundles
/// carry 0, so an unchanged bundle keeps its bytes from build to build). The frames of
/// every component and the changelog are hashed too, so an edit that changes no count still gives another id (the
/// search index derives from the same inputs).
fn build_id(set: &CompiledSet) -> anyhow::Result<u64> {
    let mut id = xxhash_rust::xxh3::Xxh3::new();
    id.update(&rmp_serde::to_vec(&set.manifest)?);
    for (key, b) in &set.components {
        id.update(key.as_bytes());
        id.update(&b.fingerprint().to_le_bytes());
    }
    if let Some(w) = &set.changelog {
        id.update(b"(changelog)");
        id.update(&w.fingerprint().to_le_bytes());
    }
    id.update(b"(design tokens)");
    id.update(&rmp_serde::to_vec(&set.design_tokens)?);
    Ok(id.digest())
}

/// The manifest and directory of the set published in `out` when it is `set` already (its link names the
/// generation of `set`'s build id, and that generation opens, undamaged): then a build has nothing to write (it only removes
/// the temporaries of killed builds, as a writing build does).
pub fn published(out: &Path, set: &CompiledSet) -> Option<(Manifest, PathBuf)> {
    let id = build_id(set).ok()?;
    published_as(out, &format!("{}@{}", set.manifest.system, set.manifest.version), id)
}

/// Why the generation `set` would be published as is damaged, when it exists and is ([`BundleSet::damage`]: a
/// bundle whose size or whole-file checksum is not what its manifest pins, naming the file): writing `set` then
/// repairs it ([`crate::publish::publish_generation`] replaces it), and the build says so.
///
/// [`BundleSet::damage`]: crate::read::BundleSet::damage
pub fn published_damage(out: &Path, set: &CompiledSet) -> Option<String> {
    let id = build_id(set).ok()?;
    let name = format!("{}@{}", set.manifest.system, set.manifest.version);
    let generation = out.join(crate::bundle::writer::generation_name(&name, id));
    generation.is_dir().then(|| crate::read::BundleSet::damage(&generation)).flatten()
}

/// The manifest and directory of the set `out/<name>` when it is published as the generation of build `id` and
/// opens with every bundle as its manifest pins it (see [`published`]).
pub fn published_as(out: &Path, name: &str, id: u64) -> Option<(Manifest, PathBuf)> {
    let dest = out.join(name);
    let generation = crate::bundle::writer::generation_name(name, id);
    if std::fs::read_link(&dest).ok()?.to_string_lossy() != generation {
        return None;
    }
    let opened = crate::read::BundleSet::open(&dest).ok()?;
    let manifest = opened.manifest().ok()?.clone();
    if manifest.build_id != id || crate::read::BundleSet::damage(&dest).is_some() {
        return None;
    }
    // What a build that writes would clean up, this one does too.
    remove_stale_temporaries(out, name);
    Some((manifest, dest))
}

/// The directory of the generation published as `out/<name>` and what its manifest records of each bundle file
/// (`None` when there is none, or it does not open).
fn previous_generation(out: &Path, name: &str) -> Option<(PathBuf, BTreeMap<String, Written>)> {
    let dir = std::fs::canonicalize(out.join(name)).ok()?;
    let set = crate::read::BundleSet::open(&dir).ok()?;
    let files = set
        .manifest()
        .ok()?
        .bundles
        .iter()
        .map(|b| (b.name.clone(), Written { bytes: b.bytes, xxh3: b.xxh3, header_xxh3: b.header_xxh3 }))
        .collect();
    Some((dir, files))
}

/// Writes `set` into `out/<system>@<version>/`: every bundle into a temporary sibling directory, the manifest last,
/// then the directory is swapped into place. A bundle whose bytes are those of the published generation's file is
/// hard-linked from it instead of written (format 7), so a one-document rebuild writes that component's bundle, the
/// search index and the manifest. Returns the final manifest and directory.
///
/// # Errors
/// Any I/O error; the temporary directory is removed and an existing set is left as it was.
pub fn write_bundle_set(out: &Path, set: CompiledSet) -> anyhow::Result<(Manifest, PathBuf)> {
    write_bundle_set_publishing(out, set, true)
}

/// [`write_bundle_set`], publishing the set only when `publish` is true. Unpublished (`build --deny-warnings` with
/// a warning, TRIAL item 15), the set is written in full into its temporary directory (so the manifest's sizes
/// and checksums are those a publication would have had) and that directory is then removed: whatever
/// `out/<system>@<version>` pointed to before stays, untouched. The directory returned is where the set would be.
///
/// # Errors
/// As [`write_bundle_set`].
pub(crate) fn write_bundle_set_publishing(
    out: &Path,
    set: CompiledSet,
    publish: bool,
) -> anyhow::Result<(Manifest, PathBuf)> {
    let build_id = build_id(&set)?;
    let CompiledSet { mut manifest, components, changelog, search, spool, design_tokens, .. } = set;
    let name = format!("{}@{}", manifest.system, manifest.version);
    manifest.build_id = build_id;
    let base = Identity {
        system: manifest.system.clone(),
        version: manifest.version.clone(),
        key: String::new(),
        encoding: manifest.encoding.clone(),
        build_id: manifest.build_id,
    };
    // Format 7: only the manifest carries the build id, so an unchanged bundle keeps its bytes from build to build.
    let identity = |key: &str| Identity { key: key.to_string(), build_id: 0, ..base.clone() };
    let previous = previous_generation(out, &name);
    std::fs::create_dir_all(out)
        .map_err(|e| anyhow::anyhow!("{}: cannot create output directory: {e}", out.display()))?;
    remove_stale_temporaries(out, &name);
    let tmp = out.join(format!(".{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let result = (|| -> anyhow::Result<()> {
        std::fs::create_dir_all(&tmp)?;
        let mut named: Vec<(String, String, SpooledBundle)> = components
            .into_iter()
            .map(|(key, w)| (bundle_file_name(&key), key, w))
            .chain(changelog.map(|w| ("changelog.bundle".to_string(), CHANGELOG_KEY.to_string(), w)))
            .collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        // The search index is built (postings merged, frames compressed) while the other bundles are written.
        let (written, indexed) = rayon::join(
            || {
                named
                    .into_par_iter()
                    .map(|(file, key, b)| {
                        let old =
                            previous.as_ref().and_then(|(dir, files)| Some((dir.join(&file), *files.get(&file)?)));
                        let old = old.as_ref().map(|(path, w)| (path.as_path(), *w));
                        let done = b.finish_or_reuse(identity(&key), &tmp.join(&file), old)?;
                        let Written { bytes, xxh3, header_xxh3 } = done.written;
                        Ok(BundleFile { name: file, bytes, xxh3, header_xxh3 })
                    })
                    .collect::<std::io::Result<Vec<BundleFile>>>()
            },
            || -> std::io::Result<(BundleFile, SearchEntry)> {
                let (mut w, entry) = search_index::build_packed(search, Default::default())?;
                crate::compile::timing::timing("search index built");
                w.identify(identity(SEARCH_KEY));
                let Written { bytes, xxh3, header_xxh3 } = w.finish(&tmp.join(&entry.bundle))?;
                Ok((BundleFile { name: entry.bundle.clone(), bytes, xxh3, header_xxh3 }, entry))
            },
        );
        crate::compile::timing::timing("bundles and search index written");
        let (search_file, search_entry) = indexed?;
        let mut written = written?;
        written.push(search_file);
        written.sort_by(|a, b| a.name.cmp(&b.name));
        manifest.search = Some(search_entry);
        manifest.stats.bundle_bytes = written.iter().map(|b| b.bytes).sum();
        manifest.bundles = written;
        let mut w = BundleWriter::new();
        w.identify(Identity { build_id: manifest.build_id, ..identity(MANIFEST_KEY) });
        w.add_manifest(&manifest)?;
        // Format 12: the set's design tokens, one frame (none when the repository has none).
        if !design_tokens.tokens.is_empty() {
            w.add(crate::model::keys::DESIGN_TOKENS, &design_tokens)?;
        }
        write_atomically(&tmp.join("manifest.bundle"), &w.into_bytes()?)?;
        Ok(())
    })();
    drop(spool);
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e.context(format!("cannot write bundles into {}", out.display())));
    }
    let dest = out.join(&name);
    if !publish {
        let _ = std::fs::remove_dir_all(&tmp);
        return Ok((manifest, dest));
    }
    crate::publish::publish_generation(out, &name, &tmp, manifest.build_id)?;
    Ok((manifest, dest))
}
