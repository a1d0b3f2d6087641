//! A bundle set inside an npm package (`pack --npm`): written into the design system's own package directory, or
//! as a companion package tarball (`<package>-docs`, `npm publish`-able as is); and read back from a tarball that
//! `npm pack` fetched (`install npm:<package>@<version>`).
//!
//! Either way the package's `package.json` names the set with a `"mydesign-docs"` field
//! ([`crate::project::installed::FIELD`]): `mydesign-docs/<system>@<version>`, relative to the package directory,
//! which `serve --project` follows in `node_modules`. The set's files are copied byte for byte (the bundles keep
//! their checksums; `install` and the reader verify them as for any set).
//!
//! The tarball is what `npm pack` writes: a gzip-compressed ustar archive whose entries are under `package/`,
//! regular files only, mode 0644, and npm's fixed modification time (1985-10-26 08:15 UTC, so that the same set
//! gives the same bytes).

#[cfg(feature = "build")]
use std::io::Write;
#[cfg(feature = "build")]
use std::path::Component;
use std::path::{Path, PathBuf};

#[cfg(feature = "build")]
use crate::project::installed::FIELD;
use crate::read::BundleSet;

#[cfg(feature = "build")]
use super::PACK_SET_CAP;
use super::{StoreError, io, read_set};

/// The directory of a package that holds its sets: `mydesign-docs/<system>@<version>/`.
pub const SETS_DIR: &str = "mydesign-docs";

/// npm's fixed entry time (seconds since the epoch: 1985-10-26T08:15:00Z), as `npm pack` writes it.
#[cfg(feature = "build")]
const NPM_MTIME: u64 = 499_162_500;

#[cfg(feature = "build")]
/// Most entries read from a fetched package (a set has a few dozen files; a design system's package thousands).
const MAX_ENTRIES: usize = 100_000;

/// A bundle set written for npm.
#[derive(Debug, Clone)]
pub struct NpmPacked {
    /// The tarball, or the set directory written inside the package.
    pub path: PathBuf,
    /// The npm package that carries it (`@s/ui-docs` for a companion, the design system's own name otherwise).
    pub package: String,
    /// The `"mydesign-docs"` field's value: the set's path inside the package.
    pub field: String,
    /// `system@version`.
    pub name: String,
    /// Bytes written (the tarball, or the set's files).
    pub bytes: u64,
}

/// Whether `name` is a name npm publishes: at most 214 bytes, lowercase, `@scope/name` or `name`, each part of
/// URL-safe characters (`a-z 0-9 - . _ ~`) not starting with `.` or `_` (npm's `validate-npm-package-name` rules
/// for new packages).
pub fn valid_package_name(name: &str) -> bool {
    let part = |p: &str| {
        !p.is_empty()
            && !p.starts_with(['.', '_'])
            && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-._~".contains(&b))
    };
    let parts: Option<(&str, &str)> = match name.strip_prefix('@') {
        Some(scoped) => scoped.split_once('/'),
        None => Some(("x", name)),
    };
    name.len() <= 214 && parts.is_some_and(|(scope, base)| part(scope) && part(base))
}

/// The design system's package and version of `set`, checked for npm: the manifest's `package` (else the system
/// name) must be a valid npm name and the version a SemVer version.
fn npm_identity(set: &BundleSet) -> Result<(String, String), StoreError> {
    let head = set.head();
    let package = head.package.clone().unwrap_or_else(|| head.system.clone());
    if !valid_package_name(&package) {
        return Err(StoreError::Usage(format!(
            "`{package}` is not an npm package name (lowercase, `@scope/name`); set `[system] package` in \
             mydesign-docs.toml to the design system's package.json name"
        )));
    }
    if semver::Version::parse(&head.version).is_err() {
        return Err(StoreError::Usage(format!(
            "version `{}` is not a SemVer version, which npm requires; build with --set-version X.Y.Z",
            head.version
        )));
    }
    Ok((package, head.version.clone()))
}

/// Writes `set` into the package directory `package_dir` as `mydesign-docs/<system>@<version>/` (replacing that
/// directory), after verifying it. The caller adds the returned field to the package's `package.json`.
///
/// # Errors
/// A set that fails verification, a name or version npm refuses, an I/O error.
pub fn write_into_package(set: &BundleSet, package_dir: &Path) -> Result<NpmPacked, StoreError> {
    set.verify()?;
    let (package, _) = npm_identity(set)?;
    let (manifest, files) = read_set(set)?;
    let name = manifest.name();
    let dir = package_dir.join(SETS_DIR).join(&name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(io(&dir))?;
    }
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    for (file, data) in &files {
        let path = dir.join(file);
        std::fs::write(&path, data).map_err(io(&path))?;
    }
    let bytes = files.iter().map(|(_, d)| d.len() as u64).sum();
    Ok(NpmPacked { path: dir, package, field: format!("{SETS_DIR}/{name}"), name, bytes })
}

/// The companion package's `package.json`: name `<package>-docs`, the design system's version, the field, and a
/// `files` list holding only the sets.
#[cfg(feature = "build")]
fn companion_manifest(package: &str, version: &str, system: &str, field: &str) -> serde_json::Value {
    serde_json::json!({
        "name": format!("{package}{}", crate::project::installed::COMPANION_SUFFIX),
        "version": version,
        "description": format!(
            "Docs of {package} {version} for AI coding agents: the mydesign-docs bundle set of {system}, \
             served by `mydesign-docs serve --project` from node_modules"
        ),
        "keywords": ["mydesign-docs", system],
        "files": [SETS_DIR],
        FIELD: field,
    })
}

/// The tarball's file name, as npm names a package's: `@s/ui-docs` 2.61.3 is `s-ui-docs-2.61.3.tgz`.
#[cfg(feature = "build")]
pub fn tarball_name(package: &str, version: &str) -> String {
    let flat = package.trim_start_matches('@').replace('/', "-");
    format!("{flat}{}-{version}.tgz", crate::project::installed::COMPANION_SUFFIX)
}

/// Writes `set` as the companion package tarball into `out` (a directory, made when missing, gets
/// [`tarball_name`]; else the file), atomically, after verifying the set.
///
/// # Errors
/// A set that fails verification, a name or version npm refuses, an I/O error.
#[cfg(feature = "build")]
pub fn write_tarball(set: &BundleSet, out: &Path) -> Result<NpmPacked, StoreError> {
    set.verify()?;
    let (package, version) = npm_identity(set)?;
    let (manifest, files) = read_set(set)?;
    let name = manifest.name();
    let field = format!("{SETS_DIR}/{name}");
    let json = companion_manifest(&package, &version, &manifest.system, &field);
    let json = serde_json::to_vec_pretty(&json).map_err(|e| StoreError::Usage(e.to_string()))?;
    let names_dir = out.is_dir() || out.as_os_str().to_string_lossy().ends_with('/');
    if names_dir {
        std::fs::create_dir_all(out).map_err(io(out))?;
    }
    let path = if names_dir { out.join(tarball_name(&package, &version)) } else { out.to_path_buf() };
    let mut tar = tar::Builder::new(Vec::new());
    let mut append = |entry: &str, data: &[u8]| {
        let mut h = super::tar_header(data.len() as u64);
        h.set_mtime(NPM_MTIME);
        tar.append_data(&mut h, format!("package/{entry}"), data)
    };
    append("package.json", &json).map_err(io(&path))?;
    for (file, data) in &files {
        append(&format!("{field}/{file}"), data).map_err(io(&path))?;
    }
    let archive = tar.into_inner().map_err(io(&path))?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&archive).map_err(io(&path))?;
    let bytes = gz.finish().map_err(io(&path))?;
    crate::bundle::writer::write_atomically(&path, &bytes).map_err(io(&path))?;
    Ok(NpmPacked { path, package: format!("{package}-docs"), field, name, bytes: bytes.len() as u64 })
}

#[cfg(feature = "build")]
/// Unpacks the npm tarball `tgz` into `dest` (an empty directory) as npm does: the first path component of each
/// entry (`package/`) is dropped, only regular files are written, none outside `dest`, at most [`MAX_ENTRIES`]
/// entries and [`PACK_SET_CAP`] bytes in all. Returns the package's `package.json`, parsed.
///
/// # Errors
/// [`StoreError::BadPack`] for a file that is not a gzip tar, a hostile entry or one over the caps; I/O errors.
pub fn unpack_tarball(tgz: &Path, dest: &Path) -> Result<serde_json::Value, StoreError> {
    let bad = |message: String| StoreError::BadPack { path: tgz.display().to_string(), message };
    let file = std::fs::File::open(tgz).map_err(io(tgz))?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(std::io::BufReader::new(file)));
    let entries = archive.entries().map_err(|e| bad(format!("not an npm tarball (gzip tar): {e}")))?;
    let mut total = 0u64;
    for (n, entry) in entries.enumerate() {
        let mut entry = entry.map_err(|e| bad(format!("not an npm tarball (gzip tar): {e}")))?;
        if n >= MAX_ENTRIES {
            return Err(bad(format!("more than {MAX_ENTRIES} entries")));
        }
        if entry.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        let path = entry.path().map_err(|e| bad(format!("an entry's name does not read: {e}")))?.into_owned();
        let inner: PathBuf = path.components().skip(1).collect();
        if inner.as_os_str().is_empty() || inner.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(bad(format!("entry `{}` leaves the package", path.display())));
        }
        total = total.saturating_add(entry.size());
        if total > PACK_SET_CAP {
            return Err(bad(format!("its files total over {PACK_SET_CAP} bytes")));
        }
        let out = dest.join(&inner);
        if let Some(parent) = out.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        let mut file = std::fs::File::create(&out).map_err(io(&out))?;
        std::io::copy(&mut entry, &mut file).map_err(|e| bad(format!("entry `{}`: {e}", path.display())))?;
    }
    let manifest = dest.join("package.json");
    let text = std::fs::read_to_string(&manifest).map_err(|_| bad("it has no package/package.json".into()))?;
    serde_json::from_str(&text).map_err(|e| bad(format!("its package.json is not JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npm_names() {
        for ok in ["@douyinfe/semi-ui", "antd-mobile", "vant", "@s/ui.x~1"] {
            assert!(valid_package_name(ok), "{ok}");
        }
        for bad in ["Semi", "@s", "@s/", "/x", "_x", ".x", "a b", "@S/ui", ""] {
            assert!(!valid_package_name(bad), "{bad}");
        }
    }
}
