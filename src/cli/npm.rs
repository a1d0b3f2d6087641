//! `pack --npm`: a bundle set as an npm package ([`mydesign_docs::store::npm`]).

use std::path::Path;
use std::process::ExitCode;

use mydesign_docs::project::installed::FIELD;
use mydesign_docs::read::BundleSet;
use mydesign_docs::render::thousands;
use mydesign_docs::store::npm;

use super::emit;

/// Writes the companion tarball into `output`, or with `into` the set into that package directory, setting its
/// `package.json` field with `npm pkg set` (npm edits its own file, keeping its order and indentation).
pub fn pack(set: &BundleSet, output: &Path, into: Option<&Path>) -> anyhow::Result<ExitCode> {
    let Some(dir) = into else {
        #[cfg(feature = "build")]
        {
            let p = npm::write_tarball(set, output)?;
            emit(&format!(
                "packed {} into {} ({} bytes): npm package {}@{}, \"{FIELD}\": \"{}\"; publish it with `npm publish {}`",
                p.name,
                p.path.display(),
                thousands(p.bytes),
                p.package,
                set.head().version,
                p.field,
                p.path.display()
            ))?;
            return Ok(ExitCode::SUCCESS);
        }
        #[cfg(not(feature = "build"))]
        {
            let _ = output;
            anyhow::bail!(
                "this binary writes no npm tarball (built without the `build` feature): use `pack --npm --into DIR`, \
                 or the full binary"
            );
        }
    };
    if !dir.join("package.json").is_file() {
        anyhow::bail!("--into {}: no package.json there (the design system's package directory)", dir.display());
    }
    let p = npm::write_into_package(set, dir)?;
    let npm = std::env::var_os("MYDESIGN_DOCS_NPM").filter(|v| !v.is_empty()).unwrap_or_else(|| "npm".into());
    let mut sets = vec![format!("{FIELD}={}", p.field)];
    // A package with a `files` list publishes only those: the sets must be in it. Without one, npm publishes all.
    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("package.json"))?)?;
    let listed = manifest
        .get("files")
        .and_then(|f| f.as_array())
        .map(|files| files.iter().filter_map(|f| f.as_str()).any(|f| f.trim_end_matches('/') == npm::SETS_DIR));
    if listed == Some(false) {
        sets.push(format!("files[]={}", npm::SETS_DIR));
    }
    let status = std::process::Command::new(&npm).arg("pkg").arg("set").args(&sets).current_dir(dir).status();
    let set_field = match status {
        Ok(s) if s.success() => format!("set {} in its package.json", sets.join(", ")),
        _ => format!(
            "`npm pkg set` did not run: add \"{FIELD}\": \"{}\" to its package.json{}",
            p.field,
            if listed == Some(false) { format!(" and \"{}\" to its files", npm::SETS_DIR) } else { String::new() }
        ),
    };
    emit(&format!(
        "wrote {} into {} ({} bytes of bundles) for package {}; {set_field}",
        p.name,
        p.path.display(),
        thousands(p.bytes),
        p.package
    ))?;
    Ok(ExitCode::SUCCESS)
}
