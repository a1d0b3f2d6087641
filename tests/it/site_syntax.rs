//! Issue 25 item 3: the site's own syntax is syntax. Documentation-generator tags (`@reactExample Name` → the
//! example component's file, `@interface Name` → a pointer to that props table, else dropped with a warning
//! naming document, line and what was tried), unrecognised site markup counted per element for `build --verbose`,
//! and, on the six real inputs with no configuration, no markup-only line left in any normal view.

use mydesign_docs::read::{BundleSet, Detail, Paging};

use crate::common;
use crate::detect::{build_with, write};

#[test]
fn generator_tags_resolve_to_the_example_file_and_the_props_table_or_warn() {
    let dir = tempfile::tempdir().unwrap();
    let example = "import { Callout } from \"../src\";\n\nexport const CalloutBasicExample = () => <Callout />;\n";
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "acme-ui", "version": "1.0.0"}"#),
            (
                "docs/callout.md",
                "@# Callout\n\nA box.\n\n@reactCodeExample CalloutBasicExample\n\n@reactExample CalloutPlaygroundExample\n\n\
                 @## Props\n\n@interface CalloutProps\n\n@interface Nowhere\n\n<Sandpack files={x} />\n",
            ),
            ("docs-app/src/examples/calloutBasicExample.tsx", example),
            (
                "src/callout/callout.tsx",
                "export interface CalloutProps {\n    /** The title. */\n    title?: string;\n}\n",
            ),
        ],
    );
    let mut config = crate::stories::small_config();
    config.docs[0].pattern = "docs/{component}.md".into();
    let report = build_with(dir.path(), config);
    let set = BundleSet::open(&report.dir).unwrap();
    let full = set.doc("callout", None, Detail::Full, &[], Paging::unlimited()).unwrap();
    assert_eq!(
        full.text,
        format!(
            "# Callout\n\nA box.\n\n```tsx\n{example}```\n\n\n## Props\n\n\
             [props table \"CalloutProps\": get it as section \"props\"]\n\n\n<Sandpack files={{x}} />\n"
        )
    );
    let block = set.code_block("callout", 1, None, Paging::unlimited()).unwrap();
    assert_eq!(block.block.demo.unwrap().path, "docs-app/src/examples/calloutBasicExample.tsx");
    let warnings: Vec<String> = report.diagnostics.iter().filter(|d| !d.is_note()).map(|d| d.to_string()).collect();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    // Sorted by path as text: line 13 before line 7.
    assert!(warnings[0].contains("docs/callout.md:13") && warnings[0].contains("(its tables: CalloutProps)"));
    assert!(warnings[1].contains("docs/callout.md:7") && warnings[1].contains("tried **/CalloutPlaygroundExample"));
    let total = report.diagnostics.iter().find(|d| d.path == "(all documents)").unwrap();
    assert_eq!(total.message, "site markup no rule knows, by element: <Sandpack> ×1 in 1 document");
}

/// Lines that are site markup only, which no normal view may hold.
const MARKUP: [&str; 7] =
    ["<ExampleTabs", "<PropTable", "<Explorer", "<ComponentTokenTable", "%%Content%%", ":: BASE_DOC ::", "%%API("];

#[test]
fn no_markup_only_line_is_left_in_the_normal_views_of_the_six_real_inputs() {
    if common::real_corpus().is_none() {
        return eprintln!("skipped: the real corpus is absent");
    }
    let mut views = 0;
    for system in ["semi", "blueprint", "antd-mobile", "arco-design", "chakra-ui", "vant"] {
        let Some(built) = common::detected_build(system) else { continue };
        let set = &built.set;
        let mut left = Vec::new();
        for c in &set.manifest().unwrap().components {
            for d in &c.docs {
                let Ok(view) = set.doc(&c.name, Some(&d.lang), Detail::Normal, &[], Paging::unlimited()) else {
                    continue;
                };
                views += 1;
                for line in view.text.lines().map(str::trim_start) {
                    if MARKUP.iter().any(|m| line.starts_with(m)) {
                        left.push(format!("{} {}: {line}", c.name, d.lang));
                    }
                }
            }
        }
        assert!(left.is_empty(), "{system}: {} markup lines, e.g. {:?}", left.len(), &left[..left.len().min(5)]);
    }
    // The documents of components and of guides (a site's blog, guides and chart pages), and those that
    // components with stories and no page get. 1,143 before Arco's template-app and CLI-version folders were left
    // out of the guides, its release notes became the changelog, and five Chakra pages their exports' documents.
    assert_eq!(views, 1088);
}

/// `build --print-config` writes the example rules in force: the configured one first, then the built-in ones it
/// does not replace; read back, the file gives the same rules.
#[test]
fn print_config_writes_the_example_rules_in_force() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "small", "version": "0.1.0"}"#),
            (
                "mydesign-docs.toml",
                "[[docs]]\npattern = \"docs/{component}.md\"\nlang = \"en-US\"\n\n[sources]\npatterns = [\"src/{component}/**\"]\n\n\
                 [[examples]]\nreference = '<Demo id=\"{name}\"'\nfile = \"demos/{name}.tsx\"\n",
            ),
            ("docs/button.md", "# Button\n\n<Demo id=\"basic\" />\n"),
            ("demos/basic.tsx", "export default () => null;\n"),
            ("src/button/button.tsx", "export const Button = () => null;\n"),
        ],
    );
    let repo = dir.path().to_str().unwrap();
    let toml = common::ok(dir.path(), &["build", repo, "--print-config"]);
    let references: Vec<&str> = toml.lines().filter_map(|l| l.strip_prefix("reference = ")).collect();
    assert_eq!(
        references,
        [
            r#"'<Demo id="{name}"'"#,
            r#"'<ExampleTabs name="{name}"'"#,
            r#"'<ExampleCode name="{name}"'"#,
            r#""{{ {name} }}""#,
            r#""@import {name}""#,
            r#""@reactExample {name}""#,
            r#""@reactCodeExample {name}""#,
        ],
        "{toml}"
    );
    std::fs::write(dir.path().join("mydesign-docs.toml"), &toml).unwrap();
    assert_eq!(common::ok(dir.path(), &["build", repo, "--print-config"]), toml);
}
