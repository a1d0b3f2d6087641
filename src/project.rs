//! The version a project uses (`serve --project DIR`): read from the project's files, never from a network, then
//! matched against the installed sets with SemVer ordering.
//!
//! Where the version of a package comes from, first found wins ([`project_version`]):
//! 1. `node_modules/<package>/package.json` (`version`): what is installed;
//! 2. the lockfile: npm `package-lock.json` (`packages["node_modules/<package>"].version`, lockfile v2/v3, else
//!    `dependencies[<package>].version`, v1), pnpm `pnpm-lock.yaml` (the `<package>@<version>` keys of `packages:`,
//!    v6–v9, and `/<package>/<version>` of v5; the highest when several), yarn `yarn.lock` (the `version` of the
//!    entry whose header names `<package>@…`, classic and berry);
//! 3. the range in `package.json` (`dependencies`, `devDependencies`, `peerDependencies`).
//!
//! The lockfiles are read line by line for exactly these shapes (no YAML parser).

use std::path::{Path, PathBuf};

/// Where a project's version of a package was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionSource {
    /// `node_modules/<package>/package.json`.
    NodeModules,
    /// `package-lock.json`.
    NpmLock,
    /// `pnpm-lock.yaml`.
    PnpmLock,
    /// `yarn.lock`.
    YarnLock,
    /// The range in `package.json` (no lockfile, nothing installed).
    PackageJsonRange,
}

impl VersionSource {
    /// The file it names, relative to the project.
    pub fn file(self) -> &'static str {
        match self {
            VersionSource::NodeModules => "node_modules",
            VersionSource::NpmLock => "package-lock.json",
            VersionSource::PnpmLock => "pnpm-lock.yaml",
            VersionSource::YarnLock => "yarn.lock",
            VersionSource::PackageJsonRange => "package.json",
        }
    }
}

/// A package's version in a project: exact (installed or locked) or a range (`package.json` only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectVersion {
    /// The package, e.g. `@douyinfe/semi-ui`.
    pub package: String,
    /// The version (`2.61.3`) or, from `package.json`, the range (`^2.60.0`).
    pub version: String,
    /// Where it was read.
    pub source: VersionSource,
}

/// The project directory to read when `serve` is given none: the current directory when it has a `package.json`.
pub fn default_project() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.join("package.json").is_file().then_some(cwd)
}

/// The version of `package` in the project at `dir` (see the module docs for the order), or `None` when the project
/// does not depend on it.
pub fn project_version(dir: &Path, package: &str) -> Option<ProjectVersion> {
    let found = |version: String, source| Some(ProjectVersion { package: package.to_string(), version, source });
    let json = |path: PathBuf| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
    };
    let installed = dir.join("node_modules").join(package).join("package.json");
    if let Some(v) = json(installed).and_then(|j| j.get("version")?.as_str().map(str::to_string)) {
        return found(v, VersionSource::NodeModules);
    }
    if let Some(lock) = json(dir.join("package-lock.json")) {
        let v = lock
            .get("packages")
            .and_then(|p| p.get(format!("node_modules/{package}")))
            .or_else(|| lock.get("dependencies").and_then(|d| d.get(package)))
            .and_then(|e| e.get("version")?.as_str().map(str::to_string));
        if let Some(v) = v {
            return found(v, VersionSource::NpmLock);
        }
    }
    if let Some(v) = std::fs::read_to_string(dir.join("pnpm-lock.yaml")).ok().and_then(|t| pnpm_version(&t, package)) {
        return found(v, VersionSource::PnpmLock);
    }
    if let Some(v) = std::fs::read_to_string(dir.join("yarn.lock")).ok().and_then(|t| yarn_version(&t, package)) {
        return found(v, VersionSource::YarnLock);
    }
    let manifest = json(dir.join("package.json"))?;
    ["dependencies", "devDependencies", "peerDependencies"]
        .iter()
        .find_map(|k| manifest.get(k)?.get(package)?.as_str().map(str::to_string))
        .and_then(|range| found(range, VersionSource::PackageJsonRange))
}

/// The highest version of `package` among the keys of a pnpm lockfile's `packages:` (`'@s/p@2.61.3':`,
/// `/@s/p@2.61.3(react@18.0.0):`, v5's `/@s/p/2.61.3:`).
fn pnpm_version(text: &str, package: &str) -> Option<String> {
    let mut best: Option<semver::Version> = None;
    let mut in_packages = false;
    for line in text.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            in_packages = line.trim_end() == "packages:";
            continue;
        }
        if !in_packages || line.starts_with("    ") || !line.trim_end().ends_with(':') {
            continue;
        }
        let key = line.trim().trim_end_matches(':').trim_matches(|c| c == '\'' || c == '"');
        let key = key.strip_prefix('/').unwrap_or(key);
        let Some(rest) = key.strip_prefix(package) else { continue };
        let Some(rest) = rest.strip_prefix('@').or_else(|| rest.strip_prefix('/')) else { continue };
        let v = rest.split(['(', '_']).next().unwrap_or(rest);
        if let Ok(v) = semver::Version::parse(v)
            && best.as_ref().is_none_or(|b| v > *b)
        {
            best = Some(v);
        }
    }
    best.map(|v| v.to_string())
}

/// The `version` of the yarn.lock entry whose header names `package@…` (classic: `"@s/p@^2.0.0", "@s/p@~2.1":`
/// then `  version "2.61.3"`; berry: `"@s/p@npm:^2.0.0":` then `  version: 2.61.3`).
fn yarn_version(text: &str, package: &str) -> Option<String> {
    let mut in_entry = false;
    for line in text.lines() {
        if !line.starts_with(' ') {
            in_entry = line.trim_end().ends_with(':')
                && line
                    .trim_end()
                    .trim_end_matches(':')
                    .split(',')
                    .map(|s| s.trim().trim_matches('"'))
                    .any(|spec| spec.strip_prefix(package).is_some_and(|r| r.starts_with('@')));
            continue;
        }
        if in_entry && let Some(v) = line.trim().strip_prefix("version") {
            let v = v.trim_start_matches(':').trim().trim_matches('"');
            if !v.is_empty() {
                return Some(v.to_string());
            }
        }
    }
    None
}

/// Which installed version serves a project, and what to say about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The installed version to serve.
    pub version: String,
    /// Said in every answer's header and in the server instructions when the version served is not exactly the
    /// project's: "project uses 2.61.3; serving 2.60.0, the nearest installed".
    pub note: Option<String>,
}

/// Chooses among `installed` (any order) for the project's `wanted` version: the same version; else the nearest
/// lower installed (SemVer order: `2.61.0-beta.1` < `2.61.0`); else, when every installed version is higher, the
/// lowest. A range (`^2.60.0`) takes the highest installed version that satisfies it, else the nearest below its
/// lowest bound. Versions are read by [`crate::version::parse_whole`] (`v2.62.0` and npm's `=2.62.0` are 2.62.0;
/// `2.62` stays a requirement for `semver::VersionReq`, not the version 2.62.0). `None` when nothing installed parses as a version.
pub fn choose(wanted: &ProjectVersion, installed: &[String]) -> Option<Choice> {
    let mut parsed: Vec<(semver::Version, &String)> =
        installed.iter().filter_map(|v| crate::version::parse_whole(v).map(|p| (p, v))).collect();
    parsed.sort();
    let (first, last) = (parsed.first()?, parsed.last()?);
    let from = wanted.source.file();
    let uses = format!("project uses {} ({from})", wanted.version);
    let (target, range) = match crate::version::parse_whole(&wanted.version) {
        Some(v) => (v, None),
        None => {
            let req = semver::VersionReq::parse(&wanted.version).ok()?;
            if let Some((_, v)) = parsed.iter().rev().find(|(p, _)| req.matches(p)) {
                return Some(Choice {
                    version: (*v).clone(),
                    note: Some(format!(
                        "project requires {} ({from}: no lockfile or node_modules); serving {v}, the highest installed that matches",
                        wanted.version
                    )),
                });
            }
            let low = req
                .comparators
                .first()
                .map(|c| semver::Version::new(c.major, c.minor.unwrap_or(0), c.patch.unwrap_or(0)))?;
            (low, Some(()))
        }
    };
    if range.is_none()
        && let Some((_, v)) = parsed.iter().find(|(p, _)| *p == target)
    {
        return Some(Choice { version: (*v).clone(), note: None });
    }
    let uses = if range.is_some() { format!("project requires {} ({from})", wanted.version) } else { uses };
    Some(match parsed.iter().rev().find(|(p, _)| *p < target) {
        Some((_, v)) => {
            Choice { version: (*v).clone(), note: Some(format!("{uses}; serving {v}, the nearest installed")) }
        }
        None => {
            let v = if first.0 > target { first.1 } else { last.1 };
            Choice {
                version: v.clone(),
                note: Some(format!("{uses}; serving {v}, the nearest installed (none lower is installed)")),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pv(v: &str, source: VersionSource) -> ProjectVersion {
        ProjectVersion { package: "@s/ui".into(), version: v.into(), source }
    }

    fn installed() -> Vec<String> {
        ["2.60.0", "2.9.0", "2.62.0-beta.1", "2.62.0", "3.0.0"].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn exact_versions_match_or_fall_to_the_nearest_lower() {
        let c = choose(&pv("2.62.0", VersionSource::NodeModules), &installed()).unwrap();
        assert_eq!(c, Choice { version: "2.62.0".into(), note: None });
        let c = choose(&pv("2.61.3", VersionSource::NpmLock), &installed()).unwrap();
        assert_eq!(c.version, "2.60.0");
        assert_eq!(
            c.note.as_deref(),
            Some("project uses 2.61.3 (package-lock.json); serving 2.60.0, the nearest installed")
        );
        // A prerelease orders below its release: 2.62.0-rc.1 falls to 2.62.0-beta.1, 2.62.1 to 2.62.0.
        assert_eq!(choose(&pv("2.62.0-rc.1", VersionSource::YarnLock), &installed()).unwrap().version, "2.62.0-beta.1");
        assert_eq!(choose(&pv("2.62.1", VersionSource::YarnLock), &installed()).unwrap().version, "2.62.0");
        let c = choose(&pv("1.0.0", VersionSource::PnpmLock), &installed()).unwrap();
        assert_eq!(c.version, "2.9.0");
        assert!(c.note.unwrap().ends_with("the nearest installed (none lower is installed)"));
    }

    #[test]
    fn ranges_take_the_highest_match() {
        let c = choose(&pv("^2.60.0", VersionSource::PackageJsonRange), &installed()).unwrap();
        assert_eq!(c.version, "2.62.0");
        assert!(c.note.unwrap().contains("project requires ^2.60.0 (package.json"));
        let c = choose(&pv("^4.1.0", VersionSource::PackageJsonRange), &installed()).unwrap();
        assert_eq!(c.version, "3.0.0");
        assert_eq!(
            c.note.as_deref(),
            Some("project requires ^4.1.0 (package.json); serving 3.0.0, the nearest installed")
        );
    }

    #[test]
    fn prefixed_versions_are_exact_and_a_release_line_is_a_range() {
        for wanted in ["v2.62.0", "=2.62.0", " 2.62.0 "] {
            let c = choose(&pv(wanted, VersionSource::PackageJsonRange), &installed()).unwrap();
            assert_eq!(c, Choice { version: "2.62.0".into(), note: None }, "{wanted}");
        }
        // `2.60` in a package.json is a range: the highest installed that matches, not 2.60.0 padded.
        let versions = ["2.60.0", "2.60.4"].map(String::from);
        let c = choose(&pv("2.60", VersionSource::PackageJsonRange), &versions).unwrap();
        assert_eq!(c.version, "2.60.4");
        assert!(c.note.unwrap().ends_with("the highest installed that matches"));
    }

    #[test]
    fn lockfile_lines() {
        let pnpm = "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      '@s/ui':\n        specifier: ^2.0.0\n        version: 2.61.3(react@18.3.1)\n\npackages:\n\n  '@s/ui-extra@9.9.9':\n    resolution: {integrity: x}\n\n  '@s/ui@2.61.3':\n    resolution: {integrity: y}\n\n  '@s/ui@2.5.0':\n    resolution: {integrity: z}\n";
        assert_eq!(pnpm_version(pnpm, "@s/ui").as_deref(), Some("2.61.3"));
        let pnpm5 =
            "lockfileVersion: 5.4\n\npackages:\n\n  /@s/ui/2.58.1_react@18.3.1:\n    resolution: {integrity: y}\n";
        assert_eq!(pnpm_version(pnpm5, "@s/ui").as_deref(), Some("2.58.1"));
        let yarn = "# yarn lockfile v1\n\n\"@s/ui-extra@^1.0.0\":\n  version \"1.0.0\"\n\n\"@s/ui@^2.0.0\", \"@s/ui@~2.61.0\":\n  version \"2.61.3\"\n  resolved \"x\"\n";
        assert_eq!(yarn_version(yarn, "@s/ui").as_deref(), Some("2.61.3"));
        let berry = "__metadata:\n  version: 6\n\n\"@s/ui@npm:^2.0.0\":\n  version: 2.59.0\n  resolution: \"@s/ui@npm:2.59.0\"\n";
        assert_eq!(yarn_version(berry, "@s/ui").as_deref(), Some("2.59.0"));
        assert_eq!(yarn_version(berry, "@s/u"), None);
    }
}
