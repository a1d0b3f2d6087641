//! The layout configuration: where a design system keeps each component's documents, sources and changelog,
//! what to exclude, and the rule numbers. Read from `mydesign-docs.toml` at the repository root, or chosen with
//! `--preset` (`default` for the sample in `corpus/`, `semi`, `blueprint`, `dumi`).
//!
//! Paths are matched with patterns of `/`-separated segments: `**` (a whole segment) is any number of segments
//! (zero included; a trailing `/**` means everything inside, at least one); inside a segment `*` is any text
//! (`*.mdx`, `index.*.md`) and `{component}` captures the component name (`{component}.mdx`). `{component}` may
//! appear more than once (`{component}/{component}.mdx`): every capture must then be the same text. Matching is
//! case-sensitive on literals. The reference with an example per layout is `docs/config.md`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::model::Thresholds;

/// `message` (a parser error) with the valid field nearest to the unknown one it names, when one is near
/// (`unknown field `max_token`, expected one of …, `max_tokens`` → `…; did you mean `max_tokens`?`), so a
/// misspelt setting is corrected at once rather than looked up.
fn with_nearest_field(message: &str) -> String {
    let lines: Vec<String> = message
        .lines()
        .map(|line| {
            let Some(rest) = line.split_once("unknown field `").map(|(_, r)| r) else { return line.to_string() };
            let Some((unknown, expected)) = rest.split_once('`') else { return line.to_string() };
            // The valid names are the back-quoted words after `expected`.
            let valid: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
            // The most similar name, when similar enough (normalized Damerau-Levenshtein ≥ 0.5, a swap counting
            // as one edit: `versoin` → `version`); the reader's `closest` is lookup logic the compiler keeps out of.
            let near = valid
                .iter()
                .map(|v| (strsim::normalized_damerau_levenshtein(unknown, v), *v))
                .filter(|(sim, _)| *sim >= 0.5)
                .max_by(|a, b| a.0.total_cmp(&b.0));
            match near {
                Some((_, near)) => format!("{line}; did you mean `{near}`?"),
                None => line.to_string(),
            }
        })
        .collect();
    let mut out = lines.join("\n");
    if message.ends_with('\n') {
        out.push('\n');
    }
    out
}

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
    /// Example reference rules, tried before the built-in ones (`compile::examples::rules`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<ExampleRule>,
    /// Design-token sources (`[[tokens]]`): when any is given, only the files they match are read for design
    /// tokens; else every file that reads as a token source is (`compile::design_tokens`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<TokenRule>,
    /// Guide pages (`[[guides]]`): Markdown that documents no component (a site's guides, blog posts, migration
    /// and theming pages), built and searchable, listed apart (`compile::guides`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub guides: Vec<GuideRule>,
}

/// A `[[guides]]` rule: the Markdown pages a glob matches (`*` within a segment, `**` across segments), in one
/// language, taken as guides when no document, changelog or component file rule takes them first. The page's name
/// is its file name without the extension and language tag (`theming.en-US.md` → `theming`; `index.md` and
/// `README.md` are named by their folder). Detection writes one per documentation folder it finds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuideRule {
    /// E.g. `apps/www/content/**/*.mdx` or `docs/**/*.zh-CN.md`.
    pub pattern: String,
    /// Language tag of the pages, e.g. `en-US`.
    pub lang: String,
}

impl GuideRule {
    /// The rule's glob, matched against `/`-separated repository-relative paths.
    ///
    /// # Errors
    /// The glob does not parse (named in the message).
    pub fn matcher(&self) -> Result<globset::GlobMatcher, String> {
        check_in_repository("[[guides]] pattern", &self.pattern)?;
        globset::GlobBuilder::new(&self.pattern)
            .literal_separator(true)
            .build()
            .map(|g| g.compile_matcher())
            .map_err(|e| format!("[[guides]] pattern `{}`: {e}", self.pattern))
    }
}

/// A `[[tokens]]` rule: the files (a path pattern, `*` and `**` as in `[[docs]]`, `{component}` optional) whose
/// design tokens are read, in which form, and for which component.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRule {
    /// E.g. `packages/theme/src/**/*.scss` or `src/{component}/style/var.less`.
    pub path: String,
    /// The source form; default: from the file's extension (`.css`, `.scss`, `.less`, `.json` DTCG, `.ts`/`.js`
    /// theme objects, `.md`/`.mdx` documented tables).
    pub form: Option<TokenForm>,
    /// The component the tokens belong to; default: the `{component}` the path captures, else the component
    /// that lists the file, else none (global).
    pub component: Option<String>,
}

/// The source form of a [`TokenRule`]'s files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenForm {
    /// CSS custom properties.
    Css,
    /// SCSS variables (and custom properties).
    Scss,
    /// Less variables (and custom properties).
    Less,
    /// TypeScript/JavaScript `defineTokens` / `defineSemanticTokens` objects.
    Js,
    /// DTCG JSON.
    Dtcg,
    /// "CSS Variables" / "Design Token" tables of documents.
    Documented,
}

impl TokenForm {
    /// The form of a file named `path`, from its extension.
    pub fn of_path(path: &str) -> Option<TokenForm> {
        Some(match path.rsplit_once('.')?.1 {
            "css" => TokenForm::Css,
            "scss" => TokenForm::Scss,
            "less" => TokenForm::Less,
            "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs" => TokenForm::Js,
            "json" => TokenForm::Dtcg,
            "md" | "mdx" => TokenForm::Documented,
            _ => return None,
        })
    }
}

impl TokenRule {
    /// The form and component of `path` when this rule matches it; `None` when it does not (or its form is not
    /// given and the extension names none).
    pub fn matches(&self, path: &str) -> Option<(TokenForm, Option<String>)> {
        let component = if self.path.contains("{component}") {
            Some(Pattern::parse(&self.path).ok()?.capture(path)?.to_string())
        } else {
            let glob = globset::GlobBuilder::new(&self.path).literal_separator(true).build().ok()?;
            glob.compile_matcher().is_match(path).then_some(None)?
        };
        let form = self.form.or_else(|| TokenForm::of_path(path))?;
        Some((form, self.component.clone().or(component)))
    }

    /// Checks the rule: its pattern parses.
    ///
    /// # Errors
    /// The pattern's error, naming it.
    pub fn check(&self) -> Result<(), String> {
        if self.path.contains("{component}") {
            Pattern::parse(&self.path).map(drop)
        } else {
            globset::Glob::new(&self.path).map(drop).map_err(|e| format!("[[tokens]] path `{}`: {e}", self.path))
        }
    }
}

/// An example reference: what a document line begins with (holding `{name}`) and the file it points to
/// (`./…` from the document's folder, `**/…` anywhere in the repository, else from the root; `{name}` replaced).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleRule {
    /// E.g. `<ExampleTabs name="{name}"`.
    pub reference: String,
    /// E.g. `**/examples/{name}.tsx` or `./_example/{name}.tsx`.
    pub file: String,
}

/// Name, version and languages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SystemConfig {
    /// System name; default: `name` of the repository's `package.json` (scope removed), else the directory name.
    pub name: Option<String>,
    /// Version; default: `version` of the `package.json` of the package that owns the components (unless it is
    /// `private`), else the newest release in the changelog (see `compile::resolve_version`).
    pub version: Option<String>,
    /// npm package that projects depend on (its version in a project picks the set `serve --project` serves);
    /// default: `name` of the repository's `package.json`, scope kept.
    pub package: Option<String>,
    /// Where the sources came from (set by `build`, never read from the file): stored in the manifest.
    #[serde(skip)]
    pub source: Option<crate::model::SourceInfo>,
    /// `components_from_exports = true`: the package's exports decide which documents are components (a matched
    /// page naming no export is a guide, a page named otherwise documents the export its title or imports name).
    /// Detection sets it and `--print-config` writes it, so the file builds the same set; presets and hand-written
    /// files without it keep every matched document a component.
    #[serde(rename = "components_from_exports", skip_serializing_if = "std::ops::Not::not")]
    pub exports_decide: bool,
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

/// The changelog file of one language, or (a `path` with `{component}`) each component's own changelog in one
/// language, as Arco keeps `components/{component}/__changelog__/index.en-US.md` (issue 24 item 4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangelogRule {
    /// Repository-relative path; a pattern with a `{component}` capture for per-component changelogs.
    pub path: String,
    /// Language tag.
    pub lang: String,
}

impl ChangelogRule {
    /// The pattern of a per-component changelog rule (its `path` captures `{component}`), else `None`: the rule
    /// names the set's one changelog file.
    pub fn per_component(&self) -> Option<Pattern> {
        if self.path.contains("{component}") { Pattern::parse(&self.path).ok() } else { None }
    }
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
            examples: vec![],
            tokens: vec![],
            guides: vec![],
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

    /// The configuration for `repo`: the preset when one is named (else the `default` preset), with
    /// `repo/mydesign-docs.toml` merged over it when the file exists: the file wins field by field (tables merge
    /// key by key, arrays such as `[[docs]]` replace the preset's). With neither a preset nor a file, `build` detects
    /// the layout instead ([`crate::compile::detect`]).
    ///
    /// # Errors
    /// An unknown preset name (listing the valid ones), an unreadable or invalid TOML file (with its message).
    pub fn load(repo: &Path, preset: Option<&str>) -> anyhow::Result<Config> {
        let base = match preset {
            Some(name) => Config::preset(name)
                .ok_or_else(|| anyhow::anyhow!("unknown preset `{name}`; the presets are: {}", PRESETS.join(", ")))?,
            None => Config::default(),
        };
        let file = repo.join(CONFIG_FILE);
        if !file.exists() {
            return Ok(base);
        }
        let text = crate::compile::read_to_string(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let config = Config::merge_toml(base, &text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        config.validate().map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        Ok(config)
    }

    /// `base` with the TOML document `text` merged over it (the text wins field by field; arrays replace).
    ///
    /// # Errors
    /// Invalid TOML, an unknown field, a value of the wrong type (the parser's message).
    pub fn merge_toml(base: Config, text: &str) -> Result<Config, String> {
        fn merge(into: &mut toml::Table, from: toml::Table) {
            for (k, v) in from {
                match (into.get_mut(&k), v) {
                    (Some(toml::Value::Table(a)), toml::Value::Table(b)) => merge(a, b),
                    (_, v) => {
                        into.insert(k, v);
                    }
                }
            }
        }
        let overlay: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        // Check the file alone first, so that its own unknown fields are named as such.
        toml::from_str::<Config>(text).map_err(|e| with_nearest_field(&e.to_string()))?;
        let mut table = toml::Table::try_from(&base).map_err(|e| e.to_string())?;
        merge(&mut table, overlay);
        table.try_into().map_err(|e: toml::de::Error| e.to_string())
    }

    /// The configuration as a `mydesign-docs.toml` to edit (what `build --print-config` writes).
    pub fn to_toml(&self) -> String {
        let body = toml::to_string_pretty(self).unwrap_or_else(|e| format!("# cannot serialize: {e}\n"));
        format!("# mydesign-docs.toml: every field is described in docs/config.md\n\n{body}")
    }

    /// Checks what serde cannot: every doc and source pattern captures `{component}` (and a per-component
    /// changelog path is a valid pattern), the encoding is known, the thresholds are positive.
    ///
    /// # Errors
    /// A message naming the offending field.
    pub fn validate(&self) -> Result<(), String> {
        for p in self.docs.iter().map(|d| &d.pattern).chain(&self.sources.patterns) {
            Pattern::parse(p)?;
        }
        for c in self.changelog.iter().filter(|c| c.path.contains("{component}")) {
            Pattern::parse(&c.path).map_err(|e| format!("[[changelog]] {e}"))?;
        }
        if self.system.exports_decide && self.system.package.is_none() {
            return Err("[system] components_from_exports = true needs [system] package: the package whose exports \
                        are the components (`build --print-config` writes both)"
                .into());
        }
        for rule in &self.tokens {
            rule.check()?;
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
        let mut langs_of_rules = rule_langs.clone();
        langs_of_rules.sort_unstable();
        langs_of_rules.dedup();
        for rule in &self.guides {
            rule.matcher()?;
            // A guide's language is one the set has (a page in another would be served to no reader's language):
            // the same rule as `default_lang` and `langs`; with no [[docs]] or [[changelog]] rule, any tag.
            if rule.lang.trim().is_empty() {
                return Err(format!("[[guides]] pattern `{}` needs a non-empty `lang`", rule.pattern));
            }
            if !rule_langs.is_empty() && !known(&rule.lang) {
                return Err(format!(
                    "[[guides]] pattern `{}`: lang `{}` is not the language of any [[docs]] or [[changelog]] rule \
                     (they have: {})",
                    rule.pattern,
                    crate::escape::shown(&rule.lang),
                    langs_of_rules.join(", ")
                ));
            }
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
        let zero = [
            ("doc_hide_lines", t.doc_hide_lines),
            ("changelog_page_lines", t.changelog_page_lines),
            ("skeleton_min_lines", t.skeleton_min_lines),
        ];
        if let Some((field, _)) = zero.iter().find(|(_, v)| *v == 0) {
            return Err(format!("[thresholds] {field} is 0: it must be at least 1 (lines)"));
        }
        if t.max_tokens < crate::budget::MIN_MAX_TOKENS {
            return Err(format!("max_tokens must be at least {}", crate::budget::MIN_MAX_TOKENS));
        }
        Ok(())
    }
}

/// Checks that the path pattern `value` of `what` names files inside the repository: not empty, not absolute
/// (`/…`, `C:…`), no `..` segment and no backslash (patterns are `/`-separated and repository-relative).
///
/// # Errors
/// A message naming `what`, the pattern and the reason.
pub fn check_in_repository(what: &str, value: &str) -> Result<(), String> {
    let shown = crate::escape::shown(value);
    if value.trim().is_empty() {
        return Err(format!("{what} is empty: it must name files of the repository (e.g. `docs/**/*.md`)"));
    }
    let absolute = value.starts_with('/') || value.as_bytes().get(1) == Some(&b':');
    if absolute || value.contains('\\') || value.split('/').any(|s| s == "..") {
        return Err(format!(
            "{what} `{shown}` leads out of the repository: patterns are relative to its root, `/`-separated, with no \
             `..` segment"
        ));
    }
    Ok(())
}

/// Checks that a system name or version can name a bundle set directory `<system>@<version>`: not empty, no `/`,
/// `\\`, `@` or control characters, not starting with `.`.
///
/// # Errors
/// A message naming `what` and the offending value.
pub fn check_name(what: &str, value: &str) -> Result<(), String> {
    let bad = value.trim().is_empty()
        || value.starts_with('.')
        || value.chars().any(|c| matches!(c, '/' | '\\' | '@') || crate::escape::is_unsafe(c) || c.is_whitespace());
    if bad {
        return Err(format!(
            "{what} `{}` cannot name a bundle set: it must be non-empty, without spaces, `/`, `\\`, `@`, and not start with `.`",
            crate::escape::shown(value)
        ));
    }
    Ok(())
}

/// The patterns a document rule also stands for (trial item 4): when its last two segments are
/// `{component}/<file>` and `<file>` names the component's document in one of the usual ways — `index<suffix>`,
/// `{component}<suffix>` or (untagged `.md` only) `README.md` — the other ways with the same `<suffix>` (`.md`,
/// `.en.md`, `-en-US.md`, `.mdx`): `src/components/{component}/index.en.md` also takes
/// `src/components/{component}/{component}.en.md` (antd-mobile's `calendar/calendar.en.md`), and
/// `docs/{component}/index.md` also takes `docs/{component}/{component}.md` and `docs/{component}/README.md`.
/// Empty for any other rule (`src/**/{component}.mdx`). The repeated `{component}` must be the folder's name, so
/// `{component}.md` never takes `button.en.md` or `button-en-US.md`. Rules written in the configuration come
/// first: a sibling is used only for a component and language that no written rule gives a document.
pub fn sibling_patterns(pattern: &str) -> Vec<String> {
    let Some((head, file)) = pattern.rsplit_once('/') else { return vec![] };
    if !(head == "{component}" || head.ends_with("/{component}")) {
        return vec![];
    }
    let suffix = if file == "README.md" {
        ".md"
    } else if let Some(s) = file.strip_prefix("index").or_else(|| file.strip_prefix("{component}")) {
        s
    } else {
        return vec![];
    };
    // `.ext`, `.tag.ext` or `-tag.ext`, literal text only.
    let literal = !suffix.contains(['*', '{', '}', '/']);
    if !literal
        || !(suffix.starts_with('.') || suffix.starts_with('-'))
        || !suffix[1..].contains('.') && suffix.starts_with('-')
    {
        return vec![];
    }
    let mut out = vec![format!("{head}/index{suffix}"), format!("{head}/{{component}}{suffix}")];
    if suffix == ".md" {
        out.push(format!("{head}/README.md"));
    }
    out.retain(|p| p != pattern);
    out
}

/// A compiled path pattern (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    segments: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    /// `**`: any number of whole segments.
    AnyMany,
    /// One segment: literals, `*` and `{component}` in any order.
    One(Vec<Piece>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Star,
    Capture,
}

impl Pattern {
    /// Parses `text`.
    ///
    /// # Errors
    /// No `{component}`, or two captures side by side in one segment (`{component}{component}`, `*{component}`
    /// is fine), or a `**` inside a segment.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let mut segments = Vec::new();
        for s in text.split('/').filter(|s| !s.is_empty()) {
            if s == "**" {
                segments.push(Segment::AnyMany);
                continue;
            }
            if s.contains("**") {
                return Err(format!("pattern `{text}`: `**` must be a whole segment (`a/**/b`), not part of `{s}`"));
            }
            let mut pieces = Vec::new();
            let mut rest = s;
            while !rest.is_empty() {
                let star = rest.find('*');
                let cap = rest.find("{component}");
                let next = match (star, cap) {
                    (Some(a), Some(b)) => a.min(b),
                    (Some(a), None) | (None, Some(a)) => a,
                    (None, None) => rest.len(),
                };
                if next > 0 {
                    pieces.push(Piece::Literal(rest[..next].to_string()));
                    rest = &rest[next..];
                } else if let Some(r) = rest.strip_prefix("{component}") {
                    if pieces.last().is_some_and(|p| !matches!(p, Piece::Literal(_))) {
                        return Err(format!("pattern `{text}`: `{{component}}` cannot follow `*` or itself in `{s}`"));
                    }
                    pieces.push(Piece::Capture);
                    rest = r;
                } else {
                    if pieces.last() == Some(&Piece::Capture) {
                        return Err(format!("pattern `{text}`: `*` cannot follow `{{component}}` in `{s}`"));
                    }
                    pieces.push(Piece::Star);
                    rest = &rest[1..];
                }
            }
            segments.push(Segment::One(pieces));
        }
        let captures = segments.iter().filter(|s| matches!(s, Segment::One(p) if p.contains(&Piece::Capture))).count();
        if captures == 0 {
            return Err(format!("pattern `{text}` must contain `{{component}}`"));
        }
        Ok(Pattern { segments })
    }

    /// The captured component name when `path` (`/`-separated, relative) matches, else `None`. When the pattern
    /// captures more than once, every capture must be the same text.
    pub fn capture<'a>(&self, path: &'a str) -> Option<&'a str> {
        self.capture_with_dir(path).map(|(name, _)| name)
    }

    /// Like [`Pattern::capture`], also returning the directory that holds the (first) captured segment joined with
    /// the segment itself (`src/components/forms` for `src/components/{component}/**` on `src/components/forms/a.tsx`).
    pub fn capture_with_dir<'a>(&self, path: &'a str) -> Option<(&'a str, &'a str)> {
        let parts: Vec<&str> = path.split('/').collect();
        let (name, at) = match_from(&self.segments, &parts, 0, None)?;
        let dir_len: usize = parts[..=at].iter().map(|p| p.len() + 1).sum::<usize>() - 1;
        Some((name?, &path[..dir_len]))
    }

    /// The literal directory segments before the first wildcard or capture (`src/components` for
    /// `src/components/{component}/**`).
    pub fn literal_prefix(&self) -> String {
        let mut out = Vec::new();
        for s in &self.segments {
            match s {
                Segment::One(p) if p.len() == 1 => match &p[0] {
                    Piece::Literal(l) => out.push(l.as_str()),
                    _ => break,
                },
                _ => break,
            }
        }
        out.join("/")
    }
}

/// Matches `segs` against `parts` (which start at index `base` of the whole path) with the capture so far;
/// returns the capture and the index of the part it first came from (`usize::MAX` when none yet).
fn match_from<'a>(
    segs: &[Segment],
    parts: &[&'a str],
    base: usize,
    cap: Option<(&'a str, usize)>,
) -> Option<(Option<&'a str>, usize)> {
    let Some((seg, rest)) = segs.split_first() else {
        return parts.is_empty().then_some((cap.map(|c| c.0), cap.map_or(usize::MAX, |c| c.1)));
    };
    match seg {
        // A trailing `**` matches everything inside, not the directory itself (as in .gitignore).
        Segment::AnyMany if rest.is_empty() => {
            (!parts.is_empty()).then_some((cap.map(|c| c.0), cap.map_or(usize::MAX, |c| c.1)))
        }
        Segment::AnyMany => (0..=parts.len()).find_map(|skip| match_from(rest, &parts[skip..], base + skip, cap)),
        Segment::One(pieces) => {
            let (part, tail) = parts.split_first()?;
            let seg_cap = match_pieces(pieces, part, cap.map(|c| c.0))?;
            let cap = match (cap, seg_cap) {
                (None, Some(name)) => Some((name, base)),
                (c, _) => c,
            };
            match_from(rest, tail, base + 1, cap)
        }
    }
}

/// Matches one segment; `Some(capture)` on success (the capture is `None` when the segment has none). A capture
/// must equal `known` when one was made before; it is never empty and never holds `/`.
fn match_pieces<'a>(pieces: &[Piece], part: &'a str, known: Option<&'a str>) -> Option<Option<&'a str>> {
    let Some((piece, rest)) = pieces.split_first() else {
        return part.is_empty().then_some(known);
    };
    match piece {
        Piece::Literal(l) => match_pieces(rest, part.strip_prefix(l.as_str())?, known),
        Piece::Star => {
            (0..=part.len()).filter(|&i| part.is_char_boundary(i)).find_map(|i| match_pieces(rest, &part[i..], known))
        }
        Piece::Capture => match known {
            Some(k) => match_pieces(rest, part.strip_prefix(k)?, known),
            None => (1..=part.len())
                .filter(|&i| part.is_char_boundary(i))
                .find_map(|i| match_pieces(rest, &part[i..], Some(&part[..i]))),
        },
    }
}

/// Reads `name` and `version` from `repo/package.json`, when it exists and parses.
pub fn package_json(repo: &Path) -> (Option<String>, Option<String>) {
    let Ok(text) = crate::compile::read_to_string(repo.join("package.json")) else {
        return (None, None);
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return (None, None);
    };
    let field = |k: &str| value.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let name = field("name").map(|n| n.rsplit('/').next().unwrap_or(&n).to_string());
    (name, field("version"))
}

/// Reads `version` and `private` from `dir/package.json`, when it exists, parses and has a version.
pub fn package_version(dir: &Path) -> Option<(String, bool)> {
    let text = crate::compile::read_to_string(dir.join("package.json")).ok()?;
    let value = serde_json::from_str::<serde_json::Value>(&text).ok()?;
    let version = value.get("version")?.as_str()?.to_string();
    Some((version, value.get("private").and_then(|v| v.as_bool()).unwrap_or(false)))
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
    fn patterns_allow_stars_anywhere_and_repeated_captures() {
        assert!(Pattern::parse("docs/*/index.md").is_err());
        assert!(Pattern::parse("a/x**/{component}").is_err());
        let p = "src/components/{component}/*.mdx";
        assert_eq!(cap(p, "src/components/Card/Card.mdx").as_deref(), Some("Card"));
        assert_eq!(cap(p, "src/components/Card/usage.mdx").as_deref(), Some("Card"));
        assert_eq!(cap(p, "src/components/Card/Card.tsx"), None);
        let twice = "src/{component}/{component}.mdx";
        assert_eq!(cap(twice, "src/Card/Card.mdx").as_deref(), Some("Card"));
        assert_eq!(cap(twice, "src/Card/Other.mdx"), None);
        assert_eq!(cap("docs/{component}/index.*.md", "docs/button/index.zh-CN.md").as_deref(), Some("button"));
        assert_eq!(cap("docs/{component}/index.*.md", "docs/button/index.md"), None);
        assert_eq!(cap("**/{component}-docs.md", "a/b/table-docs.md").as_deref(), Some("table"));
        assert_eq!(cap("d/*-{component}.md", "d/x-y.md").as_deref(), Some("y"));
        assert_eq!(Pattern::parse("src/components/{component}/**").unwrap().literal_prefix(), "src/components");
    }

    #[test]
    fn folder_document_rules_stand_for_their_siblings() {
        assert_eq!(
            sibling_patterns("src/components/{component}/index.en.md"),
            ["src/components/{component}/{component}.en.md"]
        );
        assert_eq!(
            sibling_patterns("docs/{component}/index.md"),
            ["docs/{component}/{component}.md", "docs/{component}/README.md"]
        );
        assert_eq!(sibling_patterns("{component}/README.md"), ["{component}/index.md", "{component}/{component}.md"]);
        assert_eq!(
            sibling_patterns("content/*/{component}/index-en-US.md"),
            ["content/*/{component}/{component}-en-US.md"]
        );
        assert_eq!(sibling_patterns("c/{component}/{component}.mdx"), ["c/{component}/index.mdx"]);
        // Not a folder document: no sibling.
        assert!(sibling_patterns("src/**/{component}.mdx").is_empty());
        assert!(sibling_patterns("docs/{component}/guide.md").is_empty());
        assert!(sibling_patterns("docs/{component}/index.*.md").is_empty());
        assert!(sibling_patterns("docs/x{component}/index.md").is_empty());
        // Siblings never take another language's file: the repeated capture is the folder's name.
        let p = Pattern::parse("src/{component}/{component}.md").unwrap();
        assert_eq!(p.capture("src/calendar/calendar.md"), Some("calendar"));
        assert_eq!(p.capture("src/calendar/calendar.en.md"), None);
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
        assert!(check("[system]\ncomponents_from_exports = true").contains("needs [system] package"));
        // Detection's choice is written and read back, so `--print-config` builds the same set.
        let c: Config = toml::from_str("[system]\npackage = \"@x/ui\"\ncomponents_from_exports = true").unwrap();
        assert!(c.system.exports_decide && c.to_toml().contains("components_from_exports = true"));
        assert!(check("[[docs]]\npattern = \"d/{component}.md\"\nlang = \"\"").contains("non-empty `lang`"));
        // A zero threshold is named (trial 7: "thresholds must be positive" named none).
        assert_eq!(
            check("[thresholds]\nchangelog_page_lines = 0"),
            "[thresholds] changelog_page_lines is 0: it must be at least 1 (lines)"
        );
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
        // Every table: [thresholds] too (issue 31), with the nearest valid name.
        std::fs::write(dir.path().join(CONFIG_FILE), "[thresholds]\nmax_token = 500\n").unwrap();
        let err = Config::load(dir.path(), None).unwrap_err().to_string();
        assert!(
            err.contains(
                "unknown field `max_token`, expected one of `doc_hide_lines`, `changelog_page_lines`, \
                 `skeleton_min_lines`, `max_tokens`; did you mean `max_tokens`?"
            ),
            "{err}"
        );
        for (table, bad, near) in [
            ("[system]", "versoin = \"1\"", "version"),
            ("[walk]", "max_file_byte = 1", "max_file_bytes"),
            ("[sources]", "pattern = []", "patterns"),
            ("[[docs]]", "patern = \"d/{component}.md\"\nlang = \"en\"", "pattern"),
            ("[[changelog]]", "path = \"C.md\"\nlangs = \"en\"", "lang"),
            ("[[examples]]", "reference = \"x\"\nfiles = \"y\"", "file"),
        ] {
            std::fs::write(dir.path().join(CONFIG_FILE), format!("{table}\n{bad}\n")).unwrap();
            let err = Config::load(dir.path(), None).unwrap_err().to_string();
            assert!(err.contains(&format!("did you mean `{near}`?")), "{table}: {err}");
        }
        // A name near none is reported without a guess.
        std::fs::write(dir.path().join(CONFIG_FILE), "[thresholds]\nzzzzzz = 1\n").unwrap();
        let err = Config::load(dir.path(), None).unwrap_err().to_string();
        assert!(err.contains("unknown field `zzzzzz`") && !err.contains("did you mean"), "{err}");
    }
}
