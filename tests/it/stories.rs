//! Issue 25 items 1 and 2: Storybook stories are examples of their components, kept beside the document's text
//! (the stored document stays the file; each story is a code block numbered after the document's own, served
//! from its own frame and listed under "Stories" in the view and the card), and a search hit on an example's
//! code, title or description names the component and the example. Small inputs written here, and the real
//! Chakra UI and Arco Design inputs with no configuration.

use std::path::Path;

use mydesign_docs::compile::BuildReport;
use mydesign_docs::read::{BundleSet, Detail, Paging};
use mydesign_docs::search::query::SearchOptions;

use crate::common;
use crate::detect::{build_with, write};

const DOC: &str = "# Button\n\nA button.\n\n<ExampleTabs name=\"button-basic\" />\n";
const EXAMPLE: &str = "import { Button } from \"@acme/ui\"\n\nexport const ButtonBasic = () => <Button>Save</Button>\n";
const STORIES: &str = "import type { Meta } from \"@storybook/react\"\nimport { Button } from \"../src\"\n\n\
                       const meta = { title: \"Components / Button\", args: { size: \"md\" } } satisfies Meta\n\
                       export default meta\n\nconst label = \"Go\"\n\n\
                       export const Basic = () => <Button>{label}</Button>\n\n\
                       export const Loud = { name: \"Very loud\", render: () => <Button size=\"xl\">!</Button> }\n\n\
                       export { ButtonBasic as Shown } from \"compositions/examples/button-basic\"\n";

fn small_repo(root: &Path) {
    write(
        root,
        &[
            ("package.json", r#"{"name": "acme-ui", "version": "1.0.0"}"#),
            ("docs/button.mdx", DOC),
            ("apps/comp/src/examples/button-basic.tsx", EXAMPLE),
            ("packages/ui/__stories__/buttons.stories.tsx", STORIES),
            ("src/button/button.tsx", "export const Button = () => null;\n"),
        ],
    );
}

pub(crate) fn small_config() -> mydesign_docs::config::Config {
    use mydesign_docs::config::{Config, DocRule, SourceRule};
    Config {
        docs: vec![DocRule { pattern: "docs/{component}.mdx".into(), lang: "en-US".into() }],
        changelog: vec![],
        sources: SourceRule { patterns: vec!["src/{component}/**".into()], beside_docs: false, not_components: vec![] },
        ..Config::preset("default").unwrap()
    }
}

#[test]
fn stories_are_code_blocks_beside_the_text_of_the_component_their_meta_names() {
    let dir = tempfile::tempdir().unwrap();
    small_repo(dir.path());
    let report = build_with(dir.path(), small_config());
    let set = BundleSet::open(&report.dir).unwrap();
    // The document: the example of its reference, then nothing else (stories stay beside the text).
    let full = set.doc("button", None, Detail::Full, &[], Paging::unlimited()).unwrap();
    assert_eq!(full.code_blocks, 3);
    assert!(full.text.ends_with("export const ButtonBasic = () => <Button>Save</Button>\n```\n"), "{}", full.text);
    // The view lists them after the text, under Stories.
    let view = set.doc("button", None, Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert!(
        view.text.ends_with(
            "\n## Stories\n\n[code block #2 hidden: tsx, 31 tokens, demo \"Basic\"]\n\
             [code block #3 hidden: tsx, 37 tokens, demo \"Very loud\"]\n"
        ),
        "{}",
        view.text
    );
    // A story's code: what it uses from the file (never the meta object), then the export.
    let basic = set.code_block("button", 2, None, Paging::unlimited()).unwrap();
    assert_eq!(
        basic.text,
        "```tsx\nimport { Button } from \"../src\"\n\nconst label = \"Go\"\n\n\
         export const Basic = () => <Button>{label}</Button>\n```"
    );
    let demo = basic.block.demo.as_ref().unwrap();
    assert_eq!(
        (demo.path.as_str(), demo.title.as_deref(), demo.story.as_deref()),
        (
            "packages/ui/__stories__/buttons.stories.tsx",
            Some("Basic"),
            Some("packages/ui/__stories__/buttons.stories.tsx#Basic")
        )
    );
    // The re-exported story is the example already shown: marked, not stored twice.
    let shown = set.code_block("button", 1, None, Paging::unlimited()).unwrap();
    assert_eq!(
        shown.block.demo.as_ref().unwrap().story.as_deref(),
        Some("packages/ui/__stories__/buttons.stories.tsx#Shown")
    );
    // The card counts the three and lists the two beside the text.
    let card = set.card("button", None, Paging::unlimited()).unwrap();
    assert!(card.text.contains("3 code blocks, 3 stories)"), "{}", card.text);
    assert!(card.text.contains("- Stories (beside the text): #2 31 \"Basic\", #3 37 \"Very loud\""), "{}", card.text);
    // A question answered by a story's title finds it, naming the example.
    let hits = set.search("very loud button", &SearchOptions::default()).unwrap().hits;
    let e = &hits[0].examples[0];
    assert_eq!((e.block, e.path.as_str(), e.beside), (3, "packages/ui/__stories__/buttons.stories.tsx", true));
}

/// A story file added after a cached build reaches its component, which had no story, and a cold build agrees:
/// the build walk leaves story files out, so the cache keys on their list (issue 25: the cache missed them).
#[test]
fn a_story_file_added_after_a_cached_build_joins_its_component() {
    use mydesign_docs::compile::{BuildOptions, build_with_cache};
    let dir = tempfile::tempdir().unwrap();
    let (repo, out, cache) = (dir.path().join("repo"), dir.path().join("out"), dir.path().join("cache"));
    write(
        &repo,
        &[
            ("package.json", r#"{"name": "acme-ui", "version": "1.0.0"}"#),
            ("docs/button.mdx", "# Button\n\nA button.\n"),
            ("src/button/button.tsx", "export const Button = () => null;\n"),
        ],
    );
    let opts = BuildOptions { repo: repo.clone(), out: out.clone(), config: small_config(), progress: false };
    let first = build_with_cache(&opts, Some(&cache)).unwrap();
    let doc = |report: &BuildReport| {
        let set = BundleSet::open(&report.dir).unwrap();
        set.doc("button", None, Detail::Full, &[], Paging::unlimited()).unwrap().code_blocks
    };
    assert_eq!(doc(&first), 0);
    write(&repo, &[("packages/ui/__stories__/buttons.stories.tsx", STORIES)]);
    let second = build_with_cache(&opts, Some(&cache)).unwrap();
    // Two stories beside the text; the re-export names a file this repository does not have.
    assert_eq!(doc(&second), 2);
    let cold = build_with(&repo, small_config());
    assert_eq!(doc(&cold), 2);
}

/// A design system with stories and no document at all (Storybook only): detection builds the package's exports,
/// and each component's document is a page saying it has none, which its stories join (issue 25: stories were
/// dropped without a document).
#[test]
fn a_storybook_only_design_system_is_built_from_its_exports_and_stories() {
    let dir = tempfile::tempdir().unwrap();
    let button = "import React from 'react';\nexport interface ButtonProps {\n  /** Visual weight */\n  variant?: 'primary' | 'secondary';\n  disabled?: boolean;\n}\nexport const Button = (p: ButtonProps) => <button disabled={p.disabled} />;\n";
    let stories = "import type { Meta } from '@storybook/react';\nimport { Button } from './Button';\n\
                   const meta: Meta<typeof Button> = { title: 'Components/Button', component: Button };\n\
                   export default meta;\nexport const Primary = { args: { variant: 'primary' } };\n\
                   export const Disabled = () => <Button disabled />;\n";
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "@acme/ui", "version": "1.2.0", "main": "dist/index.js"}"#),
            ("src/index.ts", "export * from './components/Button';\nexport * from './components/Card';\n"),
            ("src/components/Button/index.ts", "export { Button } from './Button';\n"),
            ("src/components/Button/Button.tsx", button),
            ("src/components/Button/Button.stories.tsx", stories),
            ("src/components/Card/index.ts", "export { Card } from './Card';\n"),
            (
                "src/components/Card/Card.tsx",
                "export interface CardProps { title?: string }\nexport const Card = (p: CardProps) => null;\n",
            ),
        ],
    );
    let d = crate::detect::detected(dir.path());
    assert!(d.layout.starts_with("no documents: components from the package's exports"), "{}", d.layout);
    assert!(d.config.docs.is_empty());
    let report = build_with(dir.path(), d.config.clone());
    let names: Vec<&str> = report.manifest.components.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["button", "card"]);
    let set = BundleSet::open(&report.dir).unwrap();
    let doc = set.doc("button", None, Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert_eq!(doc.path, "src/components/Button/Button.stories.tsx");
    assert!(
        doc.text.starts_with(
            "# Button\n\nButton has no document in this repository. Its examples below are its Storybook stories, \
             from `src/components/Button/Button.stories.tsx`.\n"
        ),
        "{}",
        doc.text
    );
    assert_eq!(stories_from(&set, "button", "src/components/Button/Button.stories.tsx"), 2);
    let disabled = set.code_block("button", 2, None, Paging::unlimited()).unwrap();
    assert!(disabled.text.ends_with("export const Disabled = () => <Button disabled />;\n```"), "{}", disabled.text);
    // Props come from the sources; a component with neither document nor story has no document.
    let card = set.card("button", None, Paging::unlimited()).unwrap();
    assert!(card.text.contains("ButtonProps (2)"), "{}", card.text);
    assert!(set.doc("card", None, Detail::Normal, &[], Paging::unlimited()).is_err());
}

/// Rank (1-based, among the first five) of the first hit of `component` that names an example.
fn example_rank(set: &BundleSet, q: &str, component: &str) -> Option<usize> {
    let opts = SearchOptions { max_tokens: Some(100_000), ..Default::default() };
    let view = set.search(q, &opts).unwrap_or_else(|e| panic!("{q}: {e}"));
    view.hits
        .iter()
        .take(5)
        .position(|h| h.component.as_deref() == Some(component) && !h.examples.is_empty())
        .map(|i| i + 1)
}

/// The stories of `component` in `lang` whose story file is `file`.
fn stories_from(set: &BundleSet, component: &str, file: &str) -> usize {
    let doc = set.doc(component, None, Detail::Normal, &[], Paging::unlimited()).unwrap();
    (1..=doc.code_blocks)
        .filter(|&i| {
            let b = set.code_block(component, i, None, Paging::unlimited()).unwrap();
            b.block.demo.and_then(|d| d.story).is_some_and(|s| s.starts_with(&format!("{file}#")))
        })
        .count()
}

fn built(name: &str) -> Option<(&'static std::path::Path, &'static BuildReport, &'static BundleSet)> {
    common::detected_build(name).map(|b| (b.repo.as_path(), &b.report, &b.set))
}

#[test]
fn real_chakra_stories_are_examples_of_their_components_and_search_names_examples() {
    let Some((repo, _report, set)) = built("chakra-ui") else { return eprintln!("skipped: the real corpus is absent") };
    // Every export of packages/react/__stories__/button.stories.tsx is one of Button's examples.
    let file = "packages/react/__stories__/button.stories.tsx";
    let exports =
        std::fs::read_to_string(repo.join(file)).unwrap().lines().filter(|l| l.starts_with("export {")).count();
    assert_eq!(exports, 17);
    assert_eq!(stories_from(set, "button", file), 17);
    let card = set.card("button", None, Paging::unlimited()).unwrap();
    // 17 there, 3 more in the Storybook sandbox (`component: Button`).
    assert!(card.text.contains("34 code blocks, 20 stories)"), "{}", card.text.lines().next().unwrap_or_default());
    // A story that re-exports an example no page shows is that example's file, byte for byte.
    let sizes = set.code_block("button", 28, None, Paging::unlimited()).unwrap();
    let d = sizes.block.demo.as_ref().unwrap();
    assert_eq!(
        (d.path.as_str(), d.title.as_deref()),
        ("apps/compositions/src/examples/button-size-table.tsx", Some("Sizes"))
    );
    let code = std::fs::read_to_string(repo.join(&d.path)).unwrap();
    assert_eq!(sizes.text, format!("```tsx\n{code}```"));
    // Stories of the __stories__ folder, over all components, and over the guides (the pages naming no export and
    // the chart pages: `bar-chart` has its stories too). `radio.stories.tsx` (title "Radio") is `radio-group`'s,
    // whose document `radio.mdx` is.
    let mut total = [0, 0];
    for c in &set.manifest().unwrap().components {
        let Ok(doc) = set.doc(&c.name, None, Detail::Normal, &[], Paging::unlimited()) else { continue };
        for i in 1..=doc.code_blocks {
            let b = set.code_block(&c.name, i, None, Paging::unlimited()).unwrap();
            total[usize::from(c.guide)] += usize::from(
                b.block.demo.and_then(|d| d.story).is_some_and(|s| s.starts_with("packages/react/__stories__/")),
            );
        }
    }
    assert_eq!(total, [1016, 127], "stories from packages/react/__stories__ (components, guides)");
    assert!(stories_from(set, "bar-chart", "packages/react/__stories__/bar-chart.stories.tsx") > 0);
    for (q, component) in [
        ("button with a spinner placed at the end while loading", "button"),
        ("avatar group with overflow count", "avatar"),
        ("toast promise pending success error", "toast"),
        ("checkbox indeterminate state for a group", "checkbox"),
        ("static toaster created outside of components", "toast"),
    ] {
        let rank = example_rank(set, q, component);
        assert!(rank.is_some_and(|r| r <= 5), "{q:?}: {component} naming an example at rank {rank:?}");
    }
}

#[test]
fn real_arco_stories_are_examples_of_their_components_and_search_names_examples() {
    let Some((repo, _report, set)) = built("arco-design") else {
        return eprintln!("skipped: the real corpus is absent");
    };
    // One story file per component, `stories/<Component>.story.tsx`, each export a story of that component.
    let mut checked = 0;
    for entry in std::fs::read_dir(repo.join("stories")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(component) = name.strip_suffix(".story.tsx") else { continue };
        let Ok((_, meta)) = set.component_meta(component) else { continue };
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let exports =
            text.lines().filter(|l| l.starts_with("export const ") || l.starts_with("export function ")).count();
        assert_eq!(stories_from(set, &meta.key, &format!("stories/{name}")), exports, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 61);
    let card = set.card("table", None, Paging::unlimited()).unwrap();
    assert!(card.text.contains("46 code blocks, 14 stories)"), "{}", card.text.lines().next().unwrap_or_default());
    for (q, component) in [
        ("select remote search", "select"),
        ("table virtual list with a large amount of data", "table"),
        ("upload by dragging files", "upload"),
        ("tree load child nodes asynchronously", "tree"),
        ("message with a loading state then success", "message"),
    ] {
        let rank = example_rank(set, q, component);
        assert!(rank.is_some_and(|r| r <= 5), "{q:?}: {component} naming an example at rank {rank:?}");
    }
}
