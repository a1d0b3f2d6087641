//! A new user's trial of the compiler (issues 24, 25, 29): a generated document shows its stories at full detail
//! and says it was generated; a story file that does not parse is a warning; Vue templates are in the uses index;
//! `[[guides]]` rules that match nothing or name another language are reported. Small inputs written here, and
//! the real inputs (Chakra's documentless components, Vant's examples, the six inputs' story files).

use std::path::Path;

use mydesign_docs::config::{Config, GuideRule};
use mydesign_docs::read::{BundleSet, Detail, Paging};

use crate::common;
use crate::detect::{build_with, write};

/// The stories a story file holds: its `export` lines other than the default export (every real story file of the
/// corpus writes one export per line).
fn story_exports(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("export ") && !l.starts_with("export default")).count()
}

#[test]
fn real_chakra_generated_documents_show_their_stories_in_full_and_say_they_are_generated() {
    let Some(b) = common::detected_build("chakra-ui") else { return eprintln!("skipped: the real corpus is absent") };
    let set = &b.set;
    let m = set.manifest().unwrap();
    let mut generated: Vec<&str> = Vec::new();
    for c in m.components.iter().filter(|c| c.docs.iter().any(|d| d.generated > 0)) {
        generated.push(c.name.as_str());
        let full = set.doc(&c.name, None, Detail::Full, &[], Paging::unlimited()).unwrap();
        // The path is the first story file; the flag counts the stories of the component's story files.
        assert!(full.path.ends_with(".stories.tsx"), "{}", full.path);
        let title = full.title.clone().unwrap();
        let files: Vec<String> =
            full.text.lines().nth(2).unwrap().split('`').skip(1).step_by(2).map(String::from).collect();
        assert_eq!(files[0], full.path);
        let expected: usize =
            files.iter().map(|f| story_exports(&std::fs::read_to_string(b.repo.join(f)).unwrap())).sum();
        assert_eq!(full.generated as usize, expected, "{}", c.name);
        assert_eq!(full.code_blocks as usize, expected, "{}", c.name);
        // At full detail the stories are there: a heading and a fenced block each, with their code.
        assert!(full.text.starts_with(&format!("# {title}\n")), "{}", full.text);
        assert_eq!(full.text.matches("\n### ").count(), expected, "{}", full.text);
        for i in 1..=full.code_blocks {
            let block = set.code_block(&c.name, i, None, Paging::unlimited()).unwrap();
            assert!(full.text.contains(&block.text), "{}: block {i} not in the full text", c.name);
            assert!(block.block.demo.as_ref().and_then(|d| d.story.as_ref()).is_some());
        }
        // Written documents are not flagged.
        assert!(m.components.iter().filter(|o| o.name == "button").all(|o| o.docs.iter().all(|d| d.generated == 0)));
        // The header and the list say so.
        let header = mydesign_docs::render::Render::render(&full, mydesign_docs::render::Surface::Cli);
        let first = header.lines().next().unwrap();
        assert!(first.contains(&format!("{} (generated from {expected} stories: no document)", full.path)), "{first}");
    }
    // Environment and SegmentGroup have pages named otherwise (`environment-provider.mdx`, `segmented-control.mdx`).
    assert_eq!(generated, ["loader", "toggle"]);
    let list = set.components(None).unwrap();
    let row = list.components.iter().find(|r| r.name == "loader").unwrap();
    let json = serde_json::to_value(row).unwrap();
    assert_eq!(json["generated"], serde_json::json!(row.generated));
    let text = mydesign_docs::render::Render::render(&list, mydesign_docs::render::Surface::Cli);
    let line = text.lines().find(|l| l.starts_with("loader ")).unwrap();
    assert!(line.contains(&format!("(generated from {} stories)", row.generated)), "{line}");
    assert!(
        serde_json::to_value(list.components.iter().find(|r| r.name == "button").unwrap())
            .unwrap()
            .get("generated")
            .is_none()
    );
}

/// Storybook files that cannot give stories: bad TSX, not UTF-8, no default export.
fn broken_stories_repo(root: &Path) {
    write(
        root,
        &[
            ("package.json", r#"{"name": "acme-ui", "version": "1.0.0"}"#),
            ("docs/button.mdx", "# Button\n\nA button.\n"),
            ("docs/card.mdx", "# Card\n\nA card.\n"),
            ("docs/tag.mdx", "# Tag\n\nA tag.\n"),
            ("src/button/button.tsx", "export const Button = () => null;\n"),
            (
                "stories/Button.stories.tsx",
                "import { Button } from '../src/button/button';\nexport default { component: Button };\n\
                 export const Basic = () => <Button>Go</Button>;\n",
            ),
            (
                "stories/Card.stories.tsx",
                "import { Card } from '../src/card';\nexport default { component: Card };\n\
                 export const Basic = () => <Card>{ </Card>;\n",
            ),
            ("stories/Tag.stories.tsx", "import { Tag } from '../src/tag';\nexport const Basic = () => <Tag />;\n"),
        ],
    );
    std::fs::write(root.join("stories/Badge.stories.jsx"), b"export default { title: 'Badge' };\n// \xff\xfe\n")
        .unwrap();
}

/// The layout of these inputs: `docs/{component}.mdx`, sources `src/{component}/**`.
fn docs_config() -> Config {
    crate::stories::small_config()
}

#[test]
fn a_story_file_that_does_not_parse_is_a_warning_with_its_reason_and_the_summary_counts_it() {
    let dir = tempfile::tempdir().unwrap();
    broken_stories_repo(dir.path());
    let report = build_with(dir.path(), docs_config());
    let warnings: Vec<String> = report.diagnostics.iter().filter(|d| !d.is_note()).map(|d| d.to_string()).collect();
    let about = |file: &str| warnings.iter().find(|w| w.contains(file)).cloned().unwrap_or_default();
    assert!(about("stories/Card.stories.tsx").contains("story file not read: does not parse as Tsx: "), "{warnings:?}");
    assert!(about("stories/Card.stories.tsx").contains("the first on line 3"), "{warnings:?}");
    assert!(about("stories/Badge.stories.jsx").contains("story file not read: is not UTF-8"), "{warnings:?}");
    assert!(about("stories/Tag.stories.tsx").contains("story file not read: no default export"), "{warnings:?}");
    assert!(about("stories/Button.stories.tsx").is_empty(), "{warnings:?}");
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    // The good file's story joined its component.
    let set = BundleSet::open(&report.dir).unwrap();
    assert_eq!(set.doc("button", None, Detail::Normal, &[], Paging::unlimited()).unwrap().code_blocks, 1);
    // The build summary counts them, as it counts every skipped file.
    std::fs::write(
        dir.path().join("mydesign-docs.toml"),
        "[[docs]]\npattern = \"docs/{component}.mdx\"\nlang = \"en-US\"\n\n[sources]\npatterns = [\"src/{component}/**\"]\n",
    )
    .unwrap();
    let out = common::run(dir.path(), &["build", ".", "--out", "out"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("  story files not read: 3 files (see the warnings)"), "{stdout}");
}

#[test]
fn the_six_real_inputs_read_every_story_file() {
    let mut seen = 0;
    for name in ["semi", "blueprint", "antd-mobile", "arco-design", "chakra-ui", "vant"] {
        let Some(b) = common::detected_build(name) else { continue };
        seen += 1;
        let unread: Vec<String> = b
            .report
            .diagnostics
            .iter()
            .filter(|d| d.message.starts_with(mydesign_docs::compile::examples::beside::UNREAD_STORY))
            .map(|d| d.to_string())
            .collect();
        assert!(unread.is_empty(), "{name}: {unread:?}");
    }
    if seen < 6 {
        common::skip(format_args!("real-corpus test: {seen} of the six inputs present"));
    }
}

/// For each prop, the code blocks of `doc` (its fences) and the `demo` file whose `<van-button …>` opening tags set
/// it (`prop=`, `:prop=`, or bare): counted from the files, not from the build.
fn blocks_setting(doc: &str, demo: &str, element: &str, prop: &str) -> usize {
    let sets = |code: &str| {
        code.match_indices(&format!("<{element}")).any(|(at, _)| {
            let tag = &code[at..];
            let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
            tag.split(|c: char| c.is_whitespace() || c == '/').any(|a| {
                let a = a.trim_start_matches(':');
                a == prop || a.starts_with(&format!("{prop}="))
            })
        })
    };
    let mut fences = 0;
    let mut inside: Option<String> = None;
    for line in doc.lines() {
        if line.starts_with("```") {
            match inside.take() {
                Some(code) => fences += usize::from(sets(&code)),
                None => inside = Some(String::new()),
            }
        } else if let Some(code) = inside.as_mut() {
            code.push_str(line);
            code.push('\n');
        }
    }
    fences + usize::from(sets(demo))
}

#[test]
fn real_vant_examples_are_in_the_uses_index() {
    let Some(b) = common::detected_build("vant") else { return eprintln!("skipped: the real corpus is absent") };
    let dir = b.repo.join("packages/vant/src/button");
    let doc = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let demo = std::fs::read_to_string(dir.join("demo/index.vue")).unwrap();
    // The props of Button's API table, read from the document.
    let api = &doc[doc.find("### Props").unwrap()..];
    let props: Vec<&str> = api
        .lines()
        .skip(3)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_start_matches('|').split('|').next().unwrap().trim())
        .collect();
    assert!(props.len() > 10, "{props:?}");
    let mut with_examples = 0;
    for prop in ["type", "size", "plain", "loading", "icon", "block", "round"] {
        assert!(props.contains(&prop), "{prop} not in {props:?}");
        let expected = blocks_setting(&doc, &demo, "van-button", prop);
        let found = b.set.uses(&format!("Button.{prop}"), Some("en-US"), Paging::unlimited()).unwrap();
        assert_eq!(found.total as usize, expected, "Button.{prop}");
        with_examples += usize::from(expected > 0);
    }
    assert_eq!(with_examples, 7);
    // A kebab-case prop is found under both spellings.
    let kebab = b.set.uses("Button.loading-text", Some("en-US"), Paging::unlimited()).unwrap();
    assert_eq!(kebab.total as usize, blocks_setting(&doc, &demo, "van-button", "loading-text"));
    assert!(kebab.total > 0);
}

#[test]
fn vue_stories_with_template_strings_are_examples_whose_template_is_indexed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "acme-vue", "version": "1.0.0"}"#),
            ("docs/button.mdx", "# Button\n\nA button.\n"),
            ("src/button/Button.vue", "<template><button><slot /></button></template>\n"),
            (
                "src/button/Button.stories.ts",
                "import type { Meta, StoryObj } from '@storybook/vue3';\nimport Button from './Button.vue';\n\n\
                 const meta: Meta<typeof Button> = { title: 'Example/Button', component: Button };\n\
                 export default meta;\n\n\
                 export const Small: StoryObj<typeof Button> = {\n  render: (args) => ({\n    components: { Button },\n    \
                 setup() {\n      return { args };\n    },\n    template: '<Button v-bind=\"args\" size=\"small\" @click=\"go\">Go</Button>',\n  }),\n};\n",
            ),
        ],
    );
    let report = build_with(dir.path(), docs_config());
    let set = BundleSet::open(&report.dir).unwrap();
    // The stories pipeline reads a `.stories.ts` file: the story is the export with its imports.
    let block = set.code_block("button", 1, None, Paging::unlimited()).unwrap();
    assert!(block.text.contains("template: '<Button v-bind=\"args\" size=\"small\""), "{}", block.text);
    assert_eq!(block.block.demo.as_ref().unwrap().story.as_deref(), Some("src/button/Button.stories.ts#Small"));
    // Its template's usages are indexed.
    for what in ["Button.size", "Button.click", "Button"] {
        let found = set.uses(what, None, Paging::unlimited()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(found.examples.iter().map(|e| e.index).collect::<Vec<_>>(), [1], "{what}");
    }
}

#[test]
fn guide_rules_that_match_nothing_are_warnings_and_bad_ones_are_errors() {
    let check = |guides: Vec<GuideRule>| Config { guides, ..docs_config() }.validate();
    let rule = |pattern: &str, lang: &str| GuideRule { pattern: pattern.into(), lang: lang.into() };
    assert!(check(vec![rule("", "en-US")]).unwrap_err().contains("[[guides]] pattern is empty"));
    assert!(check(vec![rule("../**/*.md", "en-US")]).unwrap_err().contains("leads out of the repository"));
    assert!(check(vec![rule("/etc/*.md", "en-US")]).unwrap_err().contains("leads out of the repository"));
    let err = check(vec![rule("guides/*.md", "english")]).unwrap_err();
    assert_eq!(
        err,
        "[[guides]] pattern `guides/*.md`: lang `english` is not the language of any [[docs]] or [[changelog]] rule \
         (they have: en-US)"
    );
    check(vec![rule("guides/*.md", "en-US")]).unwrap();
    // A rule that matches no file: a warning naming it; the one that matches takes its page.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "acme-ui", "version": "1.0.0"}"#),
            ("docs/button.mdx", "# Button\n\nA button.\n"),
            ("guides/theming.md", "# Theming\n\nColours.\n"),
        ],
    );
    let config = Config { guides: vec![rule("guides/*.md", "en-US"), rule("guide/*.md", "en-US")], ..docs_config() };
    let report = build_with(dir.path(), config);
    let warnings: Vec<String> = report.diagnostics.iter().filter(|d| !d.is_note()).map(|d| d.to_string()).collect();
    assert_eq!(
        warnings,
        ["layout: [[guides]]: pattern `guide/*.md` (lang en-US) matches no file of the repository, so it takes no \
          guide page; fix or remove the rule"]
    );
    assert!(report.manifest.components.iter().any(|c| c.guide && c.name == "theming"));
}
