//! Vue single-file components (issue 25 item 4) and nesting past the function index's depth cap (issue 26 §3): a
//! `<script setup lang="ts">` component written here, built with no configuration (skeleton threshold lowered so
//! its 45 lines get one), looked up through the CLI; and the real Vant input, whose `.vue` demos get functions and
//! whose `defineComponent` sources name their functions after the component.

use crate::common;

use std::path::Path;

use mydesign_docs::budget::Budget;
use mydesign_docs::compile::{BuildOptions, BuildReport, build, detect, walk};
use mydesign_docs::config::WalkConfig;
use mydesign_docs::read::{BundleSet, Paging};
use mydesign_docs::render::Render;

fn paging(set: &BundleSet) -> Paging<'static> {
    Paging { budget: Budget::new(set.head().thresholds.max_tokens, None).unwrap(), cursor: None }
}

/// A Vue 3 component as a user writes it: template, `<script setup lang="ts">` with an interface, `withDefaults`,
/// `defineEmits`, a function and an arrow; style.
const RATE: &str = include_str!("vue_rate.vue");
const RATE_PATH: &str = "src/components/rate/Rate.vue";

fn write(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// Builds `repo` with its detected layout and `skeleton_min_lines` lowered to `skeleton`.
fn build_detected(repo: &Path, out: &Path, skeleton: u32) -> BuildReport {
    let files = walk::walk(repo, &WalkConfig::default()).unwrap().files;
    let mut config = detect::detect(repo, &files).expect("a layout is detected").config;
    config.thresholds.skeleton_min_lines = skeleton;
    build(&BuildOptions { repo: repo.into(), out: out.into(), config, progress: false }).unwrap()
}

/// The 1-based line of the first line of `text` starting with `prefix`.
fn line_of(text: &str, prefix: &str) -> usize {
    text.lines().position(|l| l.starts_with(prefix)).expect(prefix) + 1
}

#[test]
fn a_script_setup_component_has_a_skeleton_functions_at_its_lines_and_props() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    write(
        &repo,
        &[
            ("package.json", r#"{"name":"vt","version":"1.0.0"}"#),
            ("src/components/rate/README.md", "# Rate\n\nA row of stars to rate something.\n"),
            (RATE_PATH, RATE),
        ],
    );
    let out = dir.path().join("out");
    let report = build_detected(&repo, &out, 10);
    assert!(report.diagnostics.iter().all(|d| d.is_note()), "{:?}", report.diagnostics);
    let bundles = out.to_str().unwrap();

    // Functions: byte-exact, with the `.vue` file's line numbers.
    let start = line_of(RATE, "function select");
    let end = start + 7;
    let body: String = RATE.lines().skip(start - 1).take(end - start + 1).map(|l| format!("{l}\n")).collect();
    let select = common::ok(&repo, &["function", RATE_PATH, "select", "--bundles", bundles]);
    assert!(select.contains(&format!("select (function) · lines {start}–{end} ·")), "{select}");
    assert!(select.ends_with(&body), "{select}");
    let reset = common::ok(&repo, &["function", RATE_PATH, "reset", "--bundles", bundles, "--json"]);
    let reset: serde_json::Value = serde_json::from_str(&reset).unwrap();
    let reset_start = line_of(RATE, "const reset");
    assert_eq!(reset["start_line"], reset_start, "{reset}");
    assert_eq!(reset["text"], "const reset = () => {\n  current.value = props.modelValue;\n};", "{reset}");

    // Skeleton: template and style as written, the script's function bodies elided.
    let skeleton = common::ok(&repo, &["file", RATE_PATH, "--bundles", bundles]);
    let template_end = RATE.find("</template>\n").unwrap() + "</template>\n".len();
    assert!(skeleton.contains(&RATE[..template_end]), "{skeleton}");
    assert!(skeleton.contains("function select(n: number) { /* ... */ }\n"), "{skeleton}");
    assert!(skeleton.contains("const reset = () => { /* ... */ };\n"), "{skeleton}");
    assert!(skeleton.contains(&RATE[RATE.find("<style scoped>").unwrap()..]), "{skeleton}");

    // Props from `withDefaults(defineProps<RateProps>(), …)` and the emitted events.
    let props = common::ok(&repo, &["doc", "rate", "--section", "props", "--bundles", bundles]);
    let props_line = line_of(RATE, "interface RateProps");
    assert!(props.contains(&format!("## RateProps ({RATE_PATH}:{props_line})")), "{props}");
    assert!(props.contains("| count? | number | 5 | How many stars are shown. |"), "{props}");
    assert!(props.contains("| modelValue | number |  | The selected value. |"), "{props}");
    assert!(props.contains("| readonly? | boolean | false |  |"), "{props}");
    assert!(props.contains(&format!("## RateEmits ({RATE_PATH}:{})", line_of(RATE, "const emit"))), "{props}");
    assert!(props.contains("| update:modelValue | (value: number) |  |  |"), "{props}");
    assert!(props.contains("| change | (value: number) |  |  |"), "{props}");
}

#[test]
fn nesting_past_the_depth_cap_is_a_warning_and_the_outer_functions_are_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let depth = 2_000;
    let mut nested: String = (0..depth).map(|i| format!("function f{i}() {{\n")).collect();
    nested.push_str(&"}\n".repeat(depth));
    write(
        &repo,
        &[
            ("package.json", r#"{"name":"deep","version":"1.0.0"}"#),
            ("src/components/deep/README.md", "# Deep\n\nNested functions.\n"),
            ("src/components/deep/deep.js", &nested),
        ],
    );
    let report = build_detected(&repo, &dir.path().join("out"), 500);
    let cap = mydesign_docs::compile::source::MAX_SCOPE_DEPTH;
    let warnings: Vec<String> = report.diagnostics.iter().filter(|d| !d.is_note()).map(|d| d.to_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("src/components/deep/deep.js"), "{warnings:?}");
    assert!(
        warnings[0].contains(&format!("{} functions nested more than {cap} scopes deep", depth - cap)),
        "{warnings:?}"
    );
    let set = BundleSet::open(&report.dir).unwrap();
    let functions = set.functions("src/components/deep/deep.js").unwrap();
    assert_eq!(functions.len(), cap);
    let names: Vec<String> = (0..cap).map(|i| format!("f{i}")).collect();
    assert_eq!(functions.last().unwrap().qualified, names.join("."));
}

/// Vant (Vue 3): every `.vue` file with a script gets a function index or says why not; a real demo's arrow is
/// served byte for byte at its line; `.vue` files long enough get a skeleton that keeps their template; and the
/// `defineComponent` sources (whose `name` is a variable) name their functions after their file.
#[test]
fn vant_vue_files_have_functions_and_skeletons() {
    let Some(corpus) = common::real_corpus() else {
        return common::skip(format_args!("vant_vue_files_have_functions_and_skeletons: no real corpus"));
    };
    let repo = corpus.join("vant");
    if !repo.is_dir() {
        return common::skip(format_args!("vant_vue_files_have_functions_and_skeletons: no vant/ in the real corpus"));
    }
    let out = tempfile::tempdir().unwrap();
    let report = build_detected(&repo, out.path(), 100);
    let set = BundleSet::open(&report.dir).unwrap();
    let mut vue_files = 0;
    let mut with_functions = 0;
    let mut skeletons = 0;
    for c in &report.manifest.components {
        for f in set.files(&c.name).unwrap().files {
            if !f.path.ends_with(".vue") {
                continue;
            }
            vue_files += 1;
            let text = std::fs::read_to_string(repo.join(&f.path)).unwrap();
            assert_eq!(f.parse_errors, 0, "{}", f.path);
            if f.functions > 0 {
                with_functions += 1;
                for func in set.functions(&f.path).unwrap() {
                    let span = &text[func.start_byte as usize..func.end_byte as usize];
                    let first = text.lines().nth(func.start_line as usize - 1).unwrap();
                    assert!(first.trim_start().starts_with(span.lines().next().unwrap().trim_start()), "{}", f.path);
                }
            }
            if f.skeleton.is_some() {
                skeletons += 1;
                let served = set.file(&f.path, false, None, paging(&set)).unwrap().text().to_string();
                let template = &text[text.find("<template>").unwrap()..text.find("</template>").unwrap()];
                assert!(served.contains(template), "{}: template not kept", f.path);
            }
        }
    }
    eprintln!("vant: {vue_files} .vue files, {with_functions} with functions, {skeletons} skeletons");
    assert!(vue_files >= 100, "{vue_files}");
    assert!(with_functions * 2 > vue_files, "{with_functions} of {vue_files}");
    assert!(skeletons >= 10, "{skeletons}");

    let path = "packages/vant/src/swipe/demo/index.vue";
    let text = std::fs::read_to_string(repo.join(path)).unwrap();
    let on_change = set.functions(path).unwrap().into_iter().find(|f| f.qualified == "onChange").expect("onChange");
    let line = text.lines().position(|l| l.starts_with("const onChange = ")).unwrap() + 1;
    assert_eq!(on_change.start_line as usize, line);
    assert_eq!(&text[on_change.start_byte as usize..on_change.end_byte as usize], text.lines().nth(line - 1).unwrap());

    let names: Vec<String> =
        set.functions("packages/vant/src/swipe/Swipe.tsx").unwrap().into_iter().map(|f| f.qualified).collect();
    assert!(names.iter().any(|n| n == "Swipe.setup"), "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with("default.")), "{names:?}");
}
