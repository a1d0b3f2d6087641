//! The layout configuration: where a design system keeps each component's documents, sources and changelog,
//! what to exclude, and the rule numbers. Read from `mydesign-docs.toml` at the repository root, or chosen with
//! `--preset` (`default` for the sample in `corpus/`, `semi`, `blueprint`, `dumi`).
//!
//! Paths are matched with patterns of `/`-separated segments: `*` is one segment, `**` any number of segments
//! (zero included; a trailing `/**` means everything inside, at least one), and `{component}` captures a segment (or the part of one between a literal prefix and suffix,
//! as in `{component}.mdx`). Matching is case-sensitive on literals.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::model::Thresholds;

/// The whole configuration. Every field has a default, so an empty file is valid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Name and version of the system.
    pub system: SystemConfig,
    /// Where documents are, one rule per language.
    pub docs: Vec<DocRule>,
    /// Where the changelog is, one file per language.
    pub changelog: Vec<ChangelogRule>,
    /// Where sources are.
    pub sources: SourceRule,
    /// What the walk skips.
    pub walk: WalkConfig,
    /// The rule numbers (888 / 300 / 500).
    pub thresholds: Thresholds,
    /// Token encoding for every count: `o200k_base` (default) or `cl100k_base`.
    pub encoding: String,
}

/// Name, version and languages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SystemConfig {
    /// System name; default: `name` of the repository's `package.json` (scope removed), else the directory name.
    pub name: Option<String>,
    /// Version; default: `version` of the root `package.json`, else the newest release in the changelog.
    pub version: Option<String>,
    /// npm package that projects depend on (its version in a project picks the set `serve --project` serves);
    /// default: `name` of the repository's `package.json`, scope kept.
    pub package: Option<String>,
    /// Where the sources came from (set by `build`, never read from the file): stored in the manifest.
    #[serde(skip)]
    pub source: Option<crate::model::SourceInfo>,
    /// Language served when a lookup names none; default: the first language of `docs`.
    pub default_lang: Option<String>,
    /// Only compile these languages; default: every language of `docs`.
    pub langs: Option<Vec<String>>,
}

/// Documents of one language.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocRule {
    /// Pattern with a `{component}` capture, e.g. `docs/{component}/index.md`.
    pub pattern: String,
    /// Language tag, e.g. `en-US`.
    pub lang: String,
}

/// The changelog file of one language.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangelogRule {
    /// Repository-relative path.
    pub path: String,
    /// Language tag.
    pub lang: String,
}

/// Which files belong to which component.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SourceRule {
    /// Patterns with a `{component}` capture, e.g. `src/components/{component}/**`. A captured name is matched to
    /// documents by [`crate::model::component_key`], so `DatePicker` meets `date-picker`.
    pub patterns: Vec<String>,
    /// Files in a document's own directory (and below) belong to that document's component, before the patterns
    /// apply: Blueprint keeps `alert.mdx` next to `alert.tsx`.
    pub beside_docs: bool,
    /// Captured names that are never components (shared or build folders). Names starting with `_` or `.`, and
    /// `lib`, `es`, `dist`, `cjs`, are never components in any case.
    pub not_components: Vec<String>,
}

/// What the walk skips and how far it goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WalkConfig {
    /// Directory names skipped anywhere (DESIGN §2).
    pub exclude_dirs: Vec<String>,
    /// File-name globs skipped anywhere: tests and stories.
    pub exclude_files: Vec<String>,
    /// Deepest directory level walked below the root.
    pub max_depth: usize,
    /// Larger files are reported and skipped (bytes).
    pub max_file_bytes: u64,
}

impl Default for SourceRule {
    fn default() -> Self {
        SourceRule {
            patterns: vec!["src/components/{component}/**".into()],
            beside_docs: false,
            not_components: vec![],
        }
    }
}

impl Default for WalkConfig {
    fn default() -> Self {
        let dirs = ["lib", "es", "dist", "cjs", "__test__", "__tests__", "_story", "_stories", "node_modules"];
        WalkConfig {
            exclude_dirs: dirs.iter().map(|s| s.to_string()).collect(),
            exclude_files: ["*.test.*", "*.spec.*", "*.stories.*"].iter().map(|s| s.to_string()).collect(),
            max_depth: 10,
            max_file_bytes: 10_000_000,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::preset("default").expect("the default preset exists")
    }
}

/// Names of the built-in presets.
pub const PRESETS: [&str; 4] = ["default", "semi", "blueprint", "dumi"];

/// The configuration file looked for at the repository root.
pub const CONFIG_FILE: &str = "mydesign-docs.toml";

fn docs(rules: &[(&str, &str)]) -> Vec<DocRule> {
    rules.iter().map(|(p, l)| DocRule { pattern: p.to_string(), lang: l.to_string() }).collect()
}

fn changelog(rules: &[(&str, &str)]) -> Vec<ChangelogRule> {
    rules.iter().map(|(p, l)| ChangelogRule { path: p.to_string(), lang: l.to_string() }).collect()
}

impl Config {
    /// A built-in preset: `default` (the layout of `corpus/`), `semi`, `blueprint` or `dumi` (antd-mobile's layout:
    /// `src/components/<name>/index.en.md` + `index.zh.md`, demos in `demos/*.tsx`); `None` for another name.
    pub fn preset(name: &str) -> Option<Config> {
        let base = Config {
            system: SystemConfig::default(),
            docs: vec![],
            changelog: vec![],
            sources: SourceRule::default(),
            walk: WalkConfig::default(),
            thresholds: Thresholds::default(),
            encoding: "o200k_base".into(),
        };
        Some(match name {
            "default" => Config {
                docs: docs(&[("docs/{component}/index.md", "en-US"), ("docs/{component}/index.zh-CN.md", "zh-CN")]),
                changelog: changelog(&[("CHANGELOG.md", "en-US"), ("CHANGELOG.zh-CN.md", "zh-CN")]),
                ..base
            },
            "semi" => Config {
                system: SystemConfig {
                    name: Some("semi".into()),
                    package: Some("@douyinfe/semi-ui".into()),
                    ..SystemConfig::default()
                },
                docs: docs(&[
                    ("content/*/{component}/index.md", "zh-CN"),
                    ("content/*/{component}/index-en-US.md", "en-US"),
                ]),
                changelog: changelog(&[
                    ("content/ecosystem/changelog/index.md", "zh-CN"),
                    ("content/ecosystem/changelog/index-en-US.md", "en-US"),
                ]),
                sources: SourceRule {
                    patterns: vec!["packages/*/{component}/**".into()],
                    beside_docs: false,
                    not_components: ["base", "utils", "icons", "keyframes", "scripts"].map(String::from).to_vec(),
                },
                ..base
            },
            "blueprint" => Config {
                system: SystemConfig {
                    name: Some("blueprint".into()),
                    package: Some("@blueprintjs/core".into()),
                    ..SystemConfig::default()
                },
                docs: docs(&[("src/**/{component}.mdx", "en-US")]),
                sources: SourceRule {
                    patterns: vec!["src/components/{component}/**".into()],
                    beside_docs: true,
                    not_components: vec![],
                },
                ..base
            },
            "dumi" => Config {
                docs: docs(&[
                    ("src/components/{component}/index.en.md", "en-US"),
                    ("src/components/{component}/index.zh.md", "zh-CN"),
                ]),
                changelog: changelog(&[("CHANGELOG.md", "en-US"), ("CHANGELOG.zh-CN.md", "zh-CN")]),
                sources: SourceRule {
                    patterns: vec!["src/components/{component}/**".into()],
                    beside_docs: false,
                    not_components: vec![],
                },
                ..base
            },
            _ => return None,
        })
    }

    /// The configuration for `repo`: the preset when one is named, else `repo/mydesign-docs.toml` when it exists,
    /// else the `default` preset.
    ///
    /// # Errors
    /// An unknown preset name (listing the valid ones), an unreadable or invalid TOML file (with its message).
    pub fn load(repo: &Path, preset: Option<&str>) -> anyhow::Result<Config> {
        if let Some(name) = preset {
            return Config::preset(name)
                .ok_or_else(|| anyhow::anyhow!("unknown preset `{name}`; the presets are: {}", PRESETS.join(", ")));
        }
        let file = repo.join(CONFIG_FILE);
        if !file.exists() {
            return Ok(Config::default());
        }
        let text = std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let config: Config = toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        config.validate().map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        Ok(config)
    }

    /// Checks what serde cannot: every doc and source pattern captures `{component}`, the encoding is known, the
    /// thresholds are positive.
    ///
    /// # Errors
    /// A message naming the offending field.
    pub fn validate(&self) -> Result<(), String> {
        for p in self.docs.iter().map(|d| &d.pattern).chain(&self.sources.patterns) {
            Pattern::parse(p)?;
        }
        let rule_langs: Vec<&str> =
            self.docs.iter().map(|d| d.lang.as_str()).chain(self.changelog.iter().map(|c| c.lang.as_str())).collect();
        if rule_langs.iter().any(|l| l.trim().is_empty()) {
            return Err("every [[docs]] and [[changelog]] rule needs a non-empty `lang`".into());
        }
        let known = |l: &str| rule_langs.contains(&l);
        if let Some(l) = self.system.default_lang.as_deref().filter(|l| !known(l)) {
            return Err(format!("default_lang `{l}` is not the language of any [[docs]] or [[changelog]] rule"));
        }
        if let Some(l) = self.system.langs.iter().flatten().find(|l| !known(l)) {
            return Err(format!("langs lists `{l}`, which no [[docs]] or [[changelog]] rule has"));
        }
        if let Some(name) = &self.system.name {
            check_name("system name", name)?;
        }
        if let Some(version) = &self.system.version {
            check_name("version", version)?;
        }
        if !["o200k_base", "cl100k_base"].contains(&self.encoding.as_str()) {
            return Err(format!("encoding `{}` is not o200k_base or cl100k_base", self.encoding));
        }
        let t = &self.thresholds;
        if t.doc_hide_lines == 0 || t.changelog_page_lines == 0 || t.skeleton_min_lines == 0 {
            return Err("thresholds must be positive".into());
        }
        if t.max_tokens < crate::budget::MIN_MAX_TOKENS {
            return Err(format!("max_tokens must be at least {}", crate::budget::MIN_MAX_TOKENS));
        }
        Ok(())
    }
}

/// Checks that a system name or version can name a bundle set directory `<system>@<version>`: not empty, no `/`,
/// `\\`, `@` or control characters, not starting with `.`.
///
/// # Errors
/// A message naming `what` and the offending value.
pub fn check_name(what: &str, value: &str) -> Result<(), String> {
    let bad = value.trim().is_empty()
        || value.starts_with('.')
        || value.chars().any(|c| matches!(c, '/' | '\\' | '@') || c.is_control() || c.is_whitespace());
    if bad {
        return Err(format!(
            "{what} `{value}` cannot name a bundle set: it must be non-empty, without spaces, `/`, `\\`, `@`, and not start with `.`"
        ));
    }
    Ok(())
}

/// A compiled path pattern (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    segments: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Literal(String),
    AnyOne,
    AnyMany,
    Capture { prefix: String, suffix: String },
}

impl Pattern {
    /// Parses `text`.
    ///
    /// # Errors
    /// No `{component}`, or more than one.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let segments: Vec<Segment> = text
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| match s {
                "*" => Segment::AnyOne,
                "**" => Segment::AnyMany,
                _ => match s.split_once("{component}") {
                    Some((prefix, suffix)) => Segment::Capture { prefix: prefix.into(), suffix: suffix.into() },
                    None => Segment::Literal(s.into()),
                },
            })
            .collect();
        let captures = segments.iter().filter(|s| matches!(s, Segment::Capture { .. })).count();
        if captures != 1 {
            return Err(format!("pattern `{text}` must contain `{{component}}` exactly once"));
        }
        Ok(Pattern { segments })
    }

    /// The captured component name when `path` (`/`-separated, relative) matches, else `None`.
    pub fn capture<'a>(&self, path: &'a str) -> Option<&'a str> {
        self.capture_with_dir(path).map(|(name, _)| name)
    }

    /// Like [`Pattern::capture`], also returning the directory that holds the captured segment joined with the
    /// segment itself (`src/components/forms` for `src/components/{component}/**` on `src/components/forms/a.tsx`).
    pub fn capture_with_dir<'a>(&self, path: &'a str) -> Option<(&'a str, &'a str)> {
        let parts: Vec<&str> = path.split('/').collect();
        let (name, at) = match_from(&self.segments, &parts, 0)?;
        let dir_len: usize = parts[..=at].iter().map(|p| p.len() + 1).sum::<usize>() - 1;
        Some((name, &path[..dir_len]))
    }
}

/// Matches `segs` against `parts` (which start at index `base` of the whole path); returns the capture and the
/// index of the part it came from.
fn match_from<'a>(segs: &[Segment], parts: &[&'a str], base: usize) -> Option<(&'a str, usize)> {
    let Some((seg, rest)) = segs.split_first() else {
        return parts.is_empty().then_some(("", usize::MAX));
    };
    match seg {
        // A trailing `**` matches everything inside, not the directory itself (as in .gitignore).
        Segment::AnyMany if rest.is_empty() => (!parts.is_empty()).then_some(("", usize::MAX)),
        Segment::AnyMany => (0..=parts.len()).find_map(|skip| match_from(rest, &parts[skip..], base + skip)),
        _ => {
            let (part, tail) = parts.split_first()?;
            let captured = match seg {
                Segment::Literal(l) => (l == part).then_some(None)?,
                Segment::AnyOne => None,
                Segment::Capture { prefix, suffix } => {
                    let name = part.strip_prefix(prefix.as_str())?.strip_suffix(suffix.as_str())?;
                    (!name.is_empty()).then_some(Some(name))?
                }
                Segment::AnyMany => unreachable!("handled above"),
            };
            let inner = match_from(rest, tail, base + 1)?;
            Some(captured.map_or(inner, |name| (name, base)))
        }
    }
}

/// Reads `name` and `version` from `repo/package.json`, when it exists and parses.
pub fn package_json(repo: &Path) -> (Option<String>, Option<String>) {
    let Ok(text) = std::fs::read_to_string(repo.join("package.json")) else {
        return (None, None);
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return (None, None);
    };
    let field = |k: &str| value.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let name = field("name").map(|n| n.rsplit('/').next().unwrap_or(&n).to_string());
    (name, field("version"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(p: &str, path: &str) -> Option<String> {
        Pattern::parse(p).unwrap().capture(path).map(str::to_string)
    }

    #[test]
    fn patterns_capture_the_component() {
        assert_eq!(cap("docs/{component}/index.md", "docs/table/index.md").as_deref(), Some("table"));
        assert_eq!(cap("docs/{component}/index.md", "docs/table/index.zh-CN.md"), None);
        assert_eq!(cap("content/*/{component}/index.md", "content/show/table/index.md").as_deref(), Some("table"));
        assert_eq!(cap("content/*/{component}/index.md", "content/table/index.md"), None);
        assert_eq!(cap("src/**/{component}.mdx", "src/components/forms/checkbox.mdx").as_deref(), Some("checkbox"));
        assert_eq!(cap("src/**/{component}.mdx", "src/docs.mdx").as_deref(), Some("docs"));
        assert_eq!(cap("src/**/{component}.mdx", "src/a.md"), None);
        let src = "packages/*/{component}/**";
        assert_eq!(cap(src, "packages/semi-foundation/table/foundation.ts").as_deref(), Some("table"));
        assert_eq!(cap(src, "packages/semi-foundation/table/a/b.ts").as_deref(), Some("table"));
        assert_eq!(cap(src, "packages/semi-foundation/package.json"), None);
        let p = Pattern::parse(src).unwrap();
        assert_eq!(p.capture_with_dir("packages/f/table/a/b.ts"), Some(("table", "packages/f/table")));
    }

    #[test]
    fn patterns_need_one_capture() {
        assert!(Pattern::parse("docs/*/index.md").is_err());
        assert!(Pattern::parse("{component}/{component}.md").is_err());
    }

    #[test]
    fn presets_validate_and_unknown_preset_lists_the_valid_ones() {
        for p in PRESETS {
            Config::preset(p).unwrap().validate().unwrap();
        }
        let err = Config::load(Path::new("."), Some("nope")).unwrap_err().to_string();
        assert_eq!(err, "unknown preset `nope`; the presets are: default, semi, blueprint, dumi");
    }

    #[test]
    fn settings_that_cannot_work_are_rejected() {
        let check = |toml_text: &str| toml::from_str::<Config>(toml_text).unwrap().validate().unwrap_err();
        assert_eq!(
            check("[system]\ndefault_lang = \"fr\""),
            "default_lang `fr` is not the language of any [[docs]] or [[changelog]] rule"
        );
        assert_eq!(
            check("[system]\nlangs = [\"fr\"]"),
            "langs lists `fr`, which no [[docs]] or [[changelog]] rule has"
        );
        assert!(check("[system]\nversion = \"../x\"").starts_with("version `../x` cannot name a bundle set"));
        assert!(check("[system]\nname = \"\"").starts_with("system name `` cannot name"));
        assert!(check("[[docs]]\npattern = \"d/{component}.md\"\nlang = \"\"").contains("non-empty `lang`"));
        // A partial [thresholds] table keeps the other defaults.
        let c: Config = toml::from_str("[thresholds]\ndoc_hide_lines = 500").unwrap();
        assert_eq!((c.thresholds.doc_hide_lines, c.thresholds.changelog_page_lines), (500, 300));
    }

    #[test]
    fn config_file_overrides_defaults_and_rejects_unknown_fields() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "[thresholds]\ndoc_hide_lines = 100\nchangelog_page_lines = 50\nskeleton_min_lines = 10\n",
        )
        .unwrap();
        let c = Config::load(dir.path(), None).unwrap();
        assert_eq!(c.thresholds.doc_hide_lines, 100);
        assert_eq!(c.docs, Config::default().docs);
        std::fs::write(dir.path().join(CONFIG_FILE), "colour = 1\n").unwrap();
        let err = Config::load(dir.path(), None).unwrap_err().to_string();
        assert!(err.contains("unknown field `colour`"), "{err}");
    }
}
