//! The version a project uses (`serve --project DIR`, and the CLI's lookups run inside a project): read from the
//! project's files, never from a network, then matched against the installed sets with SemVer ordering; and the
//! sets the project's own dependencies ship ([`installed`]), served first.
//!
//! Where the version of a package comes from, first found wins ([`project_version`]):
//! 1. the installed package, as Node resolves it from the project directory (`node_modules/<package>/package.json`
//!    of the directory or of a parent: a workspace's nested copy, else the monorepo's hoisted one), else its
//!    companion `<package>-docs` (same version);
//! 2. the lockfile of the nearest directory that has one ([`lockfiles`]: `package-lock.json`, `pnpm-lock.yaml`,
//!    `yarn.lock`, each read with its format's parser, at the workspace's own key);
//! 3. the range in `package.json` (`dependencies`, `devDependencies`, `optionalDependencies`, `peerDependencies`).

use std::path::{Path, PathBuf};

pub mod installed;
mod library;
mod lockfiles;

pub use library::{ProjectLibrary, project_library};

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
    // The package, else its companion (`<package>-docs`, whose version is the design system's: `pack --npm`).
    let companion = format!("{package}{}", installed::COMPANION_SUFFIX);
    let installed = [package, companion.as_str()].into_iter().find_map(|p| installed::resolve(dir, p)?.version);
    if let Some(v) = installed {
        return found(v, VersionSource::NodeModules);
    }
    let range = installed::direct_dependencies(dir).into_iter().find(|(n, _)| n == package).map(|(_, r)| r);
    // The nearest directory with a lockfile: the project's own, else its monorepo's (the workspace at `rel`).
    let locked = dir.ancestors().find_map(|root| {
        let present: Vec<_> = lockfiles::LOCKFILES.iter().filter(|(f, _)| root.join(f).is_file()).collect();
        if present.is_empty() {
            return None;
        }
        let rel = dir.strip_prefix(root).ok()?.to_string_lossy().replace('\\', "/");
        Some(present.into_iter().find_map(|(file, source)| {
            Some((lockfiles::locked_version(root, file, &rel, package, range.as_deref())?, *source))
        }))
    });
    if let Some(Some((v, source))) = locked {
        return found(v, source);
    }
    range.filter(|r| !r.is_empty()).and_then(|r| found(r, VersionSource::PackageJsonRange))
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
}
