//! `install npm:<package>@<version>`: the package is fetched by `npm pack` (so the user's `.npmrc`, a private
//! registry or mirror and its authentication apply exactly as for `npm install`), unpacked into a hidden
//! temporary directory of the store, and the set its `"mydesign-docs"` field names is installed like any set
//! directory (verified, then renamed into place). This program opens no connection itself. Full binary only (the
//! gzip layer is ~45 KB the reader-only binary has no room for).

use std::path::{Path, PathBuf};

use crate::project::installed::{COMPANION_SUFFIX, FIELD};

use super::npm::unpack_tarball;
use super::{InstallReport, StoreError, install, io};

/// The npm command: `$MYDESIGN_DOCS_NPM` when set (a wrapper, another path), else `npm` on `PATH` (`npm.cmd` on
/// Windows).
fn npm_command() -> std::ffi::OsString {
    std::env::var_os("MYDESIGN_DOCS_NPM")
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| if cfg!(windows) { "npm.cmd" } else { "npm" }.into())
}

/// Runs `npm pack <spec> --json --ignore-scripts --pack-destination <dir>` and returns the tarball it wrote.
///
/// # Errors
/// [`StoreError::Usage`] naming npm's own message when npm is missing or fails (no such version, no access).
fn npm_pack(spec: &str, dir: &Path) -> Result<PathBuf, StoreError> {
    let npm = npm_command();
    let output = std::process::Command::new(&npm)
        .args(["pack", spec, "--json", "--ignore-scripts", "--pack-destination"])
        .arg(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            StoreError::Usage(format!(
                "`{} pack {spec}` could not run ({e}): install npm, or set MYDESIGN_DOCS_NPM to it",
                npm.to_string_lossy()
            ))
        })?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        let said: Vec<&str> = said.lines().filter(|l| l.contains("ERR!")).take(6).collect();
        return Err(StoreError::Usage(format!(
            "`npm pack {spec}` failed ({}): {}",
            output.status,
            if said.is_empty() { "npm said nothing on stderr".to_string() } else { said.join(" / ") }
        )));
    }
    // `--json`: `[{"filename": "s-ui-docs-2.61.3.tgz", …}]`; npm ≥ 7 (older ones ignore it and print the name).
    let stdout = String::from_utf8_lossy(&output.stdout);
    let from_json = serde_json::from_str::<serde_json::Value>(&stdout).ok().and_then(|j| {
        j.get(0)?.get("filename")?.as_str().map(|f| f.replace('/', "-").trim_start_matches('@').to_string())
    });
    let name = from_json.or_else(|| stdout.lines().rev().find(|l| l.ends_with(".tgz")).map(str::to_string));
    let name = name.ok_or_else(|| StoreError::Usage(format!("`npm pack {spec}` named no tarball: {stdout}")))?;
    let tgz = dir.join(name.trim());
    if tgz.is_file() {
        return Ok(tgz);
    }
    // Whatever the name, the only tarball in the fresh directory is the one npm wrote.
    let mut found = std::fs::read_dir(dir).map_err(io(dir))?.filter_map(|e| e.ok()).map(|e| e.path());
    found
        .find(|p| p.extension().is_some_and(|e| e == "tgz"))
        .ok_or_else(|| StoreError::Usage(format!("`npm pack {spec}` reported {} but wrote no tarball", tgz.display())))
}

/// Fetches `spec` (after `npm:`: `@s/ui-docs@2.61.3`, `@s/ui@^2.61`, a tarball path or URL, anything `npm pack`
/// takes) and installs the set it carries into `store`. Returns the reports and the package fetched
/// (`name@version`).
///
/// # Errors
/// npm's failure, a tarball that does not unpack, a package without the `"mydesign-docs"` field (naming its
/// companion to try), or any error of [`install`].
pub fn install_npm(spec: &str, store: &Path, force: bool) -> Result<(Vec<InstallReport>, String), StoreError> {
    std::fs::create_dir_all(store).map_err(io(store))?;
    let tmp = store.join(format!(".install-npm-{}", super::unique_suffix()));
    std::fs::create_dir(&tmp).map_err(io(&tmp))?;
    let result = fetch_and_install(spec, &tmp, store, force);
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

fn fetch_and_install(
    spec: &str,
    tmp: &Path,
    store: &Path,
    force: bool,
) -> Result<(Vec<InstallReport>, String), StoreError> {
    let tgz = npm_pack(spec, tmp)?;
    let package_dir = tmp.join("package");
    std::fs::create_dir(&package_dir).map_err(io(&package_dir))?;
    let manifest = unpack_tarball(&tgz, &package_dir)?;
    let field = |k: &str| manifest.get(k).and_then(|v| v.as_str()).unwrap_or("?").to_string();
    let fetched = format!("{}@{}", field("name"), field("version"));
    let rel = manifest.get(FIELD).and_then(|v| v.as_str()).ok_or_else(|| {
        StoreError::Usage(format!(
            "npm:{spec} ({fetched}) carries no bundle set: its package.json has no \"{FIELD}\" field; a companion \
             package may carry it: install npm:{}{COMPANION_SUFFIX}@{}",
            field("name"),
            field("version")
        ))
    })?;
    let rel_path = Path::new(rel);
    if rel_path.components().any(|c| !matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir)) {
        return Err(StoreError::Usage(format!(
            "npm:{spec} ({fetched}): its \"{FIELD}\" field `{rel}` leaves the package"
        )));
    }
    let reports = install(&package_dir.join(rel_path), store, force)?;
    Ok((reports, fetched))
}
