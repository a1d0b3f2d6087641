//! The version of a package that a project's lockfile pins, read with each format's parser: `package-lock.json`
//! with serde_json, `pnpm-lock.yaml` with saphyr-parser (a YAML 1.2 event parser: its events are gathered into a
//! `serde_json::Value`; full binary only: the reader-only binary has no room for a YAML parser under its 6 MB, and
//! a pnpm project's installed version is read through its `node_modules` links), `yarn.lock` (classic v1 and berry)
//! with yarn-lock-parser. A workspace of a monorepo is read at its own key (npm: `packages/app/node_modules/<pkg>`,
//! pnpm: `importers["packages/app"]`; yarn: the entry whose range is the one the workspace's `package.json` asks
//! for), so two workspaces on two versions each get theirs.

use std::path::Path;

use super::VersionSource;

/// The lockfiles read, in the order tried, with the source each one is.
pub(super) const LOCKFILES: [(&str, VersionSource); 3] = [
    ("package-lock.json", VersionSource::NpmLock),
    ("pnpm-lock.yaml", VersionSource::PnpmLock),
    ("yarn.lock", VersionSource::YarnLock),
];

/// The version of `package` that the lockfile `file` of `root` pins for the workspace at `rel` (`""` for the root
/// itself, `packages/app` for a workspace), whose `package.json` asks for `range` (when it names the package).
/// `None` when the file is missing, does not parse, or does not name the package.
pub(super) fn locked_version(root: &Path, file: &str, rel: &str, package: &str, range: Option<&str>) -> Option<String> {
    let text = std::fs::read_to_string(root.join(file)).ok()?;
    match file {
        "package-lock.json" => npm_version(&text, rel, package),
        #[cfg(feature = "build")]
        "pnpm-lock.yaml" => pnpm_version(&text, rel, package),
        // The reader-only binary links no YAML parser (its 6 MB): pnpm's node_modules links say the version.
        #[cfg(not(feature = "build"))]
        "pnpm-lock.yaml" => None,
        _ => yarn_version(&text, package, range),
    }
}

/// npm's `package-lock.json`: `packages["<rel>/node_modules/<pkg>"]` (a copy nested in the workspace), else
/// `packages["node_modules/<pkg>"]` (hoisted; lockfile v2/v3), else `dependencies[<pkg>]` (v1).
fn npm_version(text: &str, rel: &str, package: &str) -> Option<String> {
    let lock: serde_json::Value = serde_json::from_str(text).ok()?;
    let packages = lock.get("packages");
    let nested = (!rel.is_empty()).then(|| format!("{rel}/node_modules/{package}"));
    let entry = nested
        .and_then(|k| packages?.get(k))
        .or_else(|| packages?.get(format!("node_modules/{package}")))
        .or_else(|| lock.get("dependencies")?.get(package))?;
    entry.get("version")?.as_str().map(str::to_string)
}

/// The version part of a pnpm dependency value: `2.61.3(react@18.3.1)` (v6+), `2.58.1_react@18.3.1` (v5).
#[cfg(feature = "build")]
fn pnpm_plain(v: &str) -> Option<semver::Version> {
    crate::version::parse_whole(v.split(['(', '_']).next().unwrap_or(v))
}

/// pnpm's `pnpm-lock.yaml`: the importer's (`importers[rel]`, `.` for the root; a lockfile without `importers`
/// is its own importer) `dependencies` / `devDependencies` / `optionalDependencies` entry (`version:` of
/// `{specifier, version}`, v6+, or the plain value, v5); else the highest `<pkg>@<version>` key of `packages:`
/// (`'@s/p@2.61.3'`, `/@s/p@2.61.3(react@18.0.0)`, v5's `/@s/p/2.61.3`).
#[cfg(feature = "build")]
fn pnpm_version(text: &str, rel: &str, package: &str) -> Option<String> {
    let lock = yaml_value(text)?;
    let importer = match lock.get("importers") {
        Some(importers) => importers.get(if rel.is_empty() { "." } else { rel }),
        None => Some(&lock),
    };
    let direct = importer.and_then(|imp| {
        ["dependencies", "devDependencies", "optionalDependencies"].iter().find_map(|section| {
            let entry = imp.get(section)?.get(package)?;
            let v = entry.as_str().or_else(|| entry.get("version")?.as_str())?;
            pnpm_plain(v)
        })
    });
    if let Some(v) = direct {
        return Some(v.to_string());
    }
    let keys = lock.get("packages")?.as_object()?.keys();
    keys.filter_map(|key| {
        let key = key.strip_prefix('/').unwrap_or(key);
        let rest = key.strip_prefix(package)?;
        pnpm_plain(rest.strip_prefix('@').or_else(|| rest.strip_prefix('/'))?)
    })
    .max()
    .map(|v| v.to_string())
}

/// The first document of a YAML text as a JSON value: mappings as objects (keys as their scalar text; a
/// non-scalar key is skipped with its value), sequences as arrays, every scalar as a string (a lockfile's versions
/// are compared as text, never as numbers), aliases as null. `None` when the text is not YAML.
///
/// Not serde_yaml_ng: libyaml, ryu and its `Value` cost ~37 KB more than this event parser and `serde_json::Value`
/// (linked already).
#[cfg(feature = "build")]
fn yaml_value(text: &str) -> Option<serde_json::Value> {
    use saphyr_parser::{Event, Parser};
    use serde_json::Value;
    // Open containers: an object waiting for a key or holding a key whose value is next, or an array.
    enum Open {
        Map(serde_json::Map<String, Value>, Option<Option<String>>),
        Seq(Vec<Value>),
    }
    fn put(stack: &mut [Open], value: Value) -> Option<Value> {
        match stack.last_mut() {
            None => return Some(value),
            Some(Open::Seq(items)) => items.push(value),
            Some(Open::Map(map, pending)) => match pending.take() {
                // A key: a scalar's text; a mapping or sequence as a key is skipped (`Some(None)`).
                None => *pending = Some(if let Value::String(k) = value { Some(k) } else { None }),
                Some(Some(key)) => {
                    map.insert(key, value);
                }
                Some(None) => {}
            },
        }
        None
    }
    let mut stack: Vec<Open> = Vec::new();
    for event in Parser::new_from_str(text) {
        let (event, _) = event.ok()?;
        let done = match event {
            Event::Scalar(v, ..) => put(&mut stack, Value::String(v.into_owned())),
            Event::Alias(_) => put(&mut stack, Value::Null),
            Event::MappingStart(..) => {
                stack.push(Open::Map(serde_json::Map::new(), None));
                None
            }
            Event::SequenceStart(..) => {
                stack.push(Open::Seq(Vec::new()));
                None
            }
            Event::MappingEnd | Event::SequenceEnd => match stack.pop()? {
                Open::Map(map, _) => put(&mut stack, Value::Object(map)),
                Open::Seq(items) => put(&mut stack, Value::Array(items)),
            },
            Event::DocumentEnd | Event::StreamEnd => return None,
            _ => None,
        };
        if done.is_some() {
            return done;
        }
    }
    None
}

/// The second line of yarn classic's header, and the whole header (with the blank lines yarn writes after it).
const YARN_V1_MARK: &str = "# yarn lockfile v1\n";
const YARN_V1_HEADER: &str = "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n";

/// yarn's `yarn.lock` (classic v1 and berry): among the entries of `package`, the one whose descriptors include
/// `range` (berry writes it `npm:<range>`), else the highest version.
fn yarn_version(text: &str, package: &str, range: Option<&str>) -> Option<String> {
    // The parser expects the header yarn classic writes (`# THIS IS AN AUTOGENERATED FILE…`, then `# yarn
    // lockfile v1`); a file whose first comment line was dropped is read with it restored.
    let restored;
    let lock = match yarn_lock_parser::parse_str(text) {
        Ok(lock) => lock,
        Err(_) if text.starts_with(YARN_V1_MARK) => {
            restored = format!("{YARN_V1_HEADER}{}", &text[YARN_V1_MARK.len()..]);
            yarn_lock_parser::parse_str(&restored).ok()?
        }
        Err(_) => return None,
    };
    let entries: Vec<_> = lock.entries.iter().filter(|e| e.name == package).collect();
    let asked = |r: &str| range.is_some_and(|want| r == want || r.strip_prefix("npm:") == Some(want));
    if let Some(e) = entries.iter().find(|e| e.descriptors.iter().any(|(n, r)| *n == package && asked(r))) {
        return Some(e.version.to_string());
    }
    entries.iter().filter_map(|e| crate::version::parse_whole(e.version)).max().map(|v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npm_lock_nested_hoisted_and_v1() {
        let lock = r#"{"lockfileVersion": 3, "packages": {
            "": {"workspaces": ["packages/*"]},
            "node_modules/@s/ui": {"version": "2.61.3"},
            "packages/app-b/node_modules/@s/ui": {"version": "2.50.0"},
            "node_modules/@s/ui-extra": {"version": "9.9.9"}}}"#;
        assert_eq!(npm_version(lock, "", "@s/ui").as_deref(), Some("2.61.3"));
        assert_eq!(npm_version(lock, "packages/app-a", "@s/ui").as_deref(), Some("2.61.3"));
        assert_eq!(npm_version(lock, "packages/app-b", "@s/ui").as_deref(), Some("2.50.0"));
        let v1 = r#"{"lockfileVersion": 1, "dependencies": {"@s/ui": {"version": "2.40.1"}}}"#;
        assert_eq!(npm_version(v1, "", "@s/ui").as_deref(), Some("2.40.1"));
        assert_eq!(npm_version("{not json", "", "@s/ui"), None);
    }

    #[cfg(feature = "build")]
    #[test]
    fn pnpm_lock_importers_and_packages() {
        let v9 = "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      '@s/ui':\n        specifier: ^2.0.0\n        version: 2.61.3(react@18.3.1)\n\n  packages/app-b:\n    devDependencies:\n      '@s/ui':\n        specifier: 2.50.0\n        version: 2.50.0\n\npackages:\n\n  '@s/ui-extra@9.9.9':\n    resolution: {integrity: x}\n\n  '@s/ui@2.61.3':\n    resolution: {integrity: y}\n\n  '@s/ui@2.50.0':\n    resolution: {integrity: z}\n";
        assert_eq!(pnpm_version(v9, "", "@s/ui").as_deref(), Some("2.61.3"));
        assert_eq!(pnpm_version(v9, "packages/app-b", "@s/ui").as_deref(), Some("2.50.0"));
        // A workspace without its own entry: the highest of `packages:`.
        assert_eq!(pnpm_version(v9, "packages/app-c", "@s/ui").as_deref(), Some("2.61.3"));
        let v6 = "lockfileVersion: '6.0'\n\ndependencies:\n  '@s/ui':\n    specifier: ^2.55.0\n    version: 2.55.2(react@18.2.0)\n\npackages:\n\n  /@s/ui@2.55.2(react@18.2.0):\n    resolution: {integrity: y}\n";
        assert_eq!(pnpm_version(v6, "", "@s/ui").as_deref(), Some("2.55.2"));
        let v5 = "lockfileVersion: 5.4\n\nspecifiers:\n  '@s/ui': ^2.58.0\n\ndependencies:\n  '@s/ui': 2.58.1_react@18.3.1\n\npackages:\n\n  /@s/ui/2.58.1_react@18.3.1:\n    resolution: {integrity: y}\n";
        assert_eq!(pnpm_version(v5, "", "@s/ui").as_deref(), Some("2.58.1"));
        let only_packages = "lockfileVersion: 5.4\n\npackages:\n\n  /@s/ui/2.57.0:\n    resolution: {integrity: y}\n";
        assert_eq!(pnpm_version(only_packages, "", "@s/ui").as_deref(), Some("2.57.0"));
        assert_eq!(pnpm_version(v9, "", "@s/u"), None);
        assert_eq!(pnpm_version("importers: [unclosed", "", "@s/ui"), None);
    }

    #[test]
    fn yarn_lock_classic_and_berry() {
        let classic = "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n\n\n\"@s/ui-extra@^1.0.0\":\n  version \"1.0.0\"\n  resolved \"https://registry.example/x.tgz#0\"\n  integrity sha512-x\n\n\"@s/ui@^2.0.0\", \"@s/ui@~2.61.0\":\n  version \"2.61.3\"\n  resolved \"https://registry.example/ui.tgz#1\"\n  integrity sha512-y\n\n\"@s/ui@2.50.0\":\n  version \"2.50.0\"\n  resolved \"https://registry.example/ui-2.50.tgz#2\"\n  integrity sha512-z\n";
        assert_eq!(yarn_version(classic, "@s/ui", Some("~2.61.0")).as_deref(), Some("2.61.3"));
        assert_eq!(yarn_version(classic, "@s/ui", Some("2.50.0")).as_deref(), Some("2.50.0"));
        assert_eq!(yarn_version(classic, "@s/ui", None).as_deref(), Some("2.61.3"));
        // Without yarn's first header line.
        let short = "# yarn lockfile v1\n\n\"@s/ui@^2.0.0\":\n  version \"2.61.3\"\n";
        assert_eq!(yarn_version(short, "@s/ui", None).as_deref(), Some("2.61.3"));
        assert_eq!(yarn_version("not a lockfile", "@s/ui", None), None);
        let berry = "# This file is generated by running \"yarn install\" inside your project.\n# Manual changes might be lost - proceed with caution!\n\n__metadata:\n  version: 8\n  cacheKey: 10c0\n\n\"@s/ui@npm:^2.0.0\":\n  version: 2.59.0\n  resolution: \"@s/ui@npm:2.59.0\"\n  checksum: 10c0/abc\n  languageName: node\n  linkType: hard\n\n\"@s/ui@npm:2.40.0\":\n  version: 2.40.0\n  resolution: \"@s/ui@npm:2.40.0\"\n  checksum: 10c0/def\n  languageName: node\n  linkType: hard\n";
        assert_eq!(yarn_version(berry, "@s/ui", Some("^2.0.0")).as_deref(), Some("2.59.0"));
        assert_eq!(yarn_version(berry, "@s/ui", Some("2.40.0")).as_deref(), Some("2.40.0"));
        assert_eq!(yarn_version(berry, "@s/u", None), None);
    }
}
