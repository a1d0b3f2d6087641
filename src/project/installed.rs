//! Bundle sets shipped in a project's dependency tree: a package whose `package.json` has a `"mydesign-docs"`
//! field (the design system's own package, or its companion `<package>-docs` written by `pack --npm`) carries the
//! set at that path inside the package.
//!
//! Packages are found as Node resolves them from the project directory: `node_modules/<name>` of the directory,
//! then of each parent (a workspace's nested copy before the monorepo's hoisted one); pnpm's
//! `node_modules/<name>` is a link into `node_modules/.pnpm/<name>@<version>/node_modules/<name>`, followed. Only
//! the project's direct dependencies are read (a companion is one: the project installs it), one `package.json`
//! each, whatever the size of `node_modules`.

use std::path::{Component, Path, PathBuf};

/// The `package.json` field naming the bundle set inside a package: a path relative to the package directory, to
/// one set (`mydesign-docs/<system>@<version>`) or to a directory of sets.
pub const FIELD: &str = "mydesign-docs";

/// Suffix of a companion package's name: `<package>-docs` carries the sets of `<package>`.
pub const COMPANION_SUFFIX: &str = "-docs";

/// One installed package, as Node resolves it from a project directory.
#[derive(Debug, Clone)]
pub struct InstalledPackage {
    /// Its name (`@douyinfe/semi-ui`).
    pub name: String,
    /// Its `version`, when it has one.
    pub version: Option<String>,
    /// `node_modules/<name>` where it was found (not followed through links, as the user sees it).
    pub dir: PathBuf,
    /// How many directories above the project that `node_modules` is (0: the project's own; 2: a monorepo root
    /// two levels up, where the package is hoisted).
    pub up: usize,
    /// Its parsed `package.json`.
    pub manifest: serde_json::Value,
}

/// A bundle set (or directory of sets) carried by an installed package.
#[derive(Debug, Clone)]
pub struct ShippedSets {
    /// The package that carries it.
    pub package: InstalledPackage,
    /// The set directory (or directory of sets): the package directory joined with the field's path.
    pub dir: PathBuf,
}

/// Reads a JSON file; `None` when it is missing or not JSON.
pub(super) fn read_json(path: &Path) -> Option<serde_json::Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// `package` as Node resolves it from `from`: `<dir>/node_modules/<package>/package.json` for `from` and then
/// each parent directory, the first that exists. `None` when no directory has it (or the name is not a package
/// name: a path with `..`).
pub fn resolve(from: &Path, package: &str) -> Option<InstalledPackage> {
    resolve_if(from, package, |_| true)
}

/// [`resolve`], parsing the `package.json` found only when `wanted` accepts its text (`None` otherwise: the
/// package is there but not wanted).
fn resolve_if(from: &Path, package: &str, wanted: impl Fn(&str) -> bool) -> Option<InstalledPackage> {
    let rel = Path::new(package);
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let (up, pkg, text) = from.ancestors().enumerate().find_map(|(up, dir)| {
        let pkg = dir.join("node_modules").join(rel);
        let text = std::fs::read_to_string(pkg.join("package.json")).ok()?;
        Some((up, pkg, text))
    })?;
    if !wanted(&text) {
        return None;
    }
    let manifest: serde_json::Value = serde_json::from_str(&text).ok()?;
    let version = manifest.get("version").and_then(|v| v.as_str()).map(str::to_string);
    Some(InstalledPackage { name: package.to_string(), version, dir: pkg, up, manifest })
}

impl InstalledPackage {
    /// Where it is, relative to the project it was resolved from: `node_modules/@s/ui`, `../../node_modules/@s/ui`.
    pub fn shown(&self) -> String {
        format!("{}node_modules/{}", "../".repeat(self.up), self.name)
    }
}

/// The names of the project's direct dependencies (`dependencies`, `devDependencies`, `optionalDependencies`,
/// `peerDependencies` of `<project>/package.json`), with each one's range, in file order per section.
pub fn direct_dependencies(project: &Path) -> Vec<(String, String)> {
    let Some(manifest) = read_json(&project.join("package.json")) else { return Vec::new() };
    let mut out: Vec<(String, String)> = Vec::new();
    for section in ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] {
        let Some(deps) = manifest.get(section).and_then(|d| d.as_object()) else { continue };
        for (name, range) in deps {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.clone(), range.as_str().unwrap_or_default().to_string()));
            }
        }
    }
    out
}

/// The path a package's `"mydesign-docs"` field names, inside the package: `None` when the field is absent, not
/// a string, absolute or leaving the package (`..`), or names no directory.
fn field_dir(package: &InstalledPackage) -> Option<PathBuf> {
    let rel = Path::new(package.manifest.get(FIELD)?.as_str()?);
    if rel.as_os_str().is_empty() || rel.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return None;
    }
    let dir = package.dir.join(rel);
    dir.is_dir().then_some(dir)
}

/// Every bundle set shipped by the project's direct dependencies (the design system's package, a companion
/// `<dep>-docs` the project installed), each package once, as Node resolves them from `project`. A `package.json`
/// is parsed only when its text names the field: the others (nearly all) cost one read.
pub fn shipped_sets(project: &Path) -> Vec<ShippedSets> {
    let quoted = format!("\"{FIELD}\"");
    let mut out: Vec<ShippedSets> = Vec::new();
    for (name, _) in direct_dependencies(project) {
        let Some(package) = resolve_if(project, &name, |text| text.contains(&quoted)) else { continue };
        if let Some(dir) = field_dir(&package) {
            out.push(ShippedSets { package, dir });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn nested_copies_win_over_hoisted_and_fields_stay_inside_the_package() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(&root.join("package.json"), r#"{"workspaces": ["packages/*"]}"#);
        let app = root.join("packages/app");
        write(
            &app.join("package.json"),
            r#"{"dependencies": {"@s/ui": "2.50.0", "evil": "1.0.0", "@s/ui-docs": "*"}}"#,
        );
        write(&root.join("node_modules/@s/ui/package.json"), r#"{"version": "2.61.3", "mydesign-docs": "d"}"#);
        std::fs::create_dir_all(root.join("node_modules/@s/ui/d")).unwrap();
        write(&app.join("node_modules/@s/ui/package.json"), r#"{"version": "2.50.0", "mydesign-docs": "./d"}"#);
        std::fs::create_dir_all(app.join("node_modules/@s/ui/d")).unwrap();
        write(&root.join("node_modules/evil/package.json"), r#"{"version": "1.0.0", "mydesign-docs": "../@s/ui/d"}"#);
        write(&root.join("node_modules/@s/ui-docs/package.json"), r#"{"version": "2.61.3", "mydesign-docs": "x"}"#);
        std::fs::create_dir_all(root.join("node_modules/@s/ui-docs/x")).unwrap();

        let found = shipped_sets(&app);
        let names: Vec<(&str, Option<&str>)> =
            found.iter().map(|s| (s.package.name.as_str(), s.package.version.as_deref())).collect();
        assert_eq!(names, [("@s/ui", Some("2.50.0")), ("@s/ui-docs", Some("2.61.3"))]);
        assert_eq!(found[0].dir, app.join("node_modules/@s/ui/./d"));
        assert_eq!(resolve(root, "@s/ui").unwrap().version.as_deref(), Some("2.61.3"));
        assert!(resolve(root, "../x").is_none());
    }
}
