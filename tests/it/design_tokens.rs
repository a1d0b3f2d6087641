//! Design tokens (issue 30): every source form on small inputs written here, the real inputs with no
//! configuration (counts per type, spot checks read off the real files, `token-for` round trips), and the two
//! lookups within their budgets.

use std::path::Path;

use mydesign_docs::budget::Budget;
use mydesign_docs::model::{DesignToken, TokenType};
use mydesign_docs::read::{BundleSet, LookupError, Paging};
use mydesign_docs::render::Render;

use crate::common::{Tiktoken, detected_build};

/// Writes `files` (path, text) under `dir`.
fn write(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// A small design system with one token source of each form.
const SMALL: &[(&str, &str)] = &[
    ("package.json", r#"{ "name": "tiny-ds", "version": "1.0.0" }"#),
    (
        "docs/button/index.md",
        "# Button\n\n## API\n\n| Property | Description | Type | Default |\n| --- | --- | --- | --- |\n| size | Size | string | `md` |\n\n## CSS Variables\n\n| Name | Description | Default |\n| --- | --- | --- |\n| --tiny-button-bg | Background | `var(--tiny-primary)` |\n| --tiny-button-radius | Corner radius | `6px` |\n",
    ),
    (
        "src/theme/tokens.css",
        ":root {\n  --tiny-primary: #1677ff;\n  --tiny-text: rgba(0, 0, 0, 0.45);\n  --tiny-gap: 0.75rem;\n}\n[data-theme='dark'] {\n  --tiny-primary: #3c89e8;\n}\n",
    ),
    (
        "src/theme/vars.scss",
        "// The brand colour\n$brand: #ff4d4f;\n$brand-hover: $brand; // on hover\n$radius: var(--theme-radius);\n",
    ),
    ("src/theme/vars.less", "@space-1: 4px;\n@space-2: @space-1;\n@faded: fade(@brand, 20%);\n"),
    (
        "src/theme/tokens.ts",
        "import { defineTokens, defineSemanticTokens } from 'x'\nexport const t = defineTokens({\n  colors: { green: { 500: { value: '#22c55e' } } },\n})\nexport const s = defineSemanticTokens.colors({\n  success: { value: { _light: '{colors.green.500}', _dark: '#16a34a' } },\n})\n",
    ),
    (
        "tokens/base.tokens.json",
        "{\n  \"size\": {\n    \"$type\": \"dimension\",\n    \"sm\": { \"$value\": \"12px\", \"$description\": \"small\" },\n    \"md\": { \"$value\": \"{size.sm}\" }\n  }\n}\n",
    ),
];

/// The small system built with the default preset (`docs/{component}/index.md`), opened.
fn small() -> (tempfile::TempDir, BundleSet) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), SMALL);
    let out = dir.path().join("out");
    let report = crate::common::build_into(dir.path(), "default", &out);
    let set = BundleSet::open(&report.dir).expect("opens");
    (dir, set)
}

/// Every token of `set`.
fn all(set: &BundleSet) -> Vec<DesignToken> {
    set.design_tokens().expect("tokens").tokens.clone()
}

fn find<'a>(tokens: &'a [DesignToken], name: &str) -> &'a DesignToken {
    tokens.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no token {name}"))
}

/// (mode, written, resolved, normalized) of each of `t`'s values.
fn values(t: &DesignToken) -> Vec<(&str, &str, Option<&str>, Option<&str>)> {
    t.values
        .iter()
        .map(|v| (v.mode.as_str(), v.written.as_str(), v.resolved.as_deref(), v.normalized.as_deref()))
        .collect()
}

#[test]
fn every_source_form_is_read_resolved_and_normalised() {
    let (_dir, set) = small();
    let t = all(&set);
    let primary = find(&t, "--tiny-primary");
    assert_eq!(
        values(primary),
        [("", "#1677ff", Some("#1677ff"), Some("#1677ffff")), ("dark", "#3c89e8", Some("#3c89e8"), Some("#3c89e8ff"))]
    );
    assert_eq!((primary.file.as_str(), primary.line, primary.kind), ("src/theme/tokens.css", 2, TokenType::Color));
    assert_eq!(values(find(&t, "--tiny-gap"))[0].3, Some("12px"));
    let hover = find(&t, "$brand-hover");
    assert_eq!((values(hover)[0].3, hover.semantic, hover.description.as_str()), (Some("#ff4d4fff"), true, "on hover"));
    assert_eq!(find(&t, "$brand").description, "The brand colour");
    // A reference to a package not in the input, a preprocessor's function: kept with the expression, unresolved.
    assert_eq!(values(find(&t, "$radius")), [("", "var(--theme-radius)", None, None)]);
    assert_eq!(values(find(&t, "@faded"))[0].2, None);
    assert_eq!(find(&t, "@faded").kind, TokenType::Color);
    assert_eq!(values(find(&t, "@space-2"))[0].3, Some("4px"));
    let success = find(&t, "colors.success");
    assert_eq!(values(success)[0], ("light", "{colors.green.500}", Some("#22c55e"), Some("#22c55eff")));
    assert!(success.semantic);
    assert_eq!((success.file.as_str(), success.line), ("src/theme/tokens.ts", 6));
    let md = find(&t, "size.md");
    assert_eq!((values(md)[0].3, md.kind, md.line), (Some("12px"), TokenType::Dimension, 5));
    assert_eq!(find(&t, "size.sm").description, "small");
    let bg = find(&t, "--tiny-button-bg");
    assert_eq!((bg.component.as_deref(), values(bg)[0].3, bg.line), (Some("button"), Some("#1677ffff"), 13));
    assert_eq!(find(&t, "--tiny-primary").component, None);
    assert_eq!(t.len(), 15, "{:?}", t.iter().map(|t| &t.name).collect::<Vec<_>>());
}

#[test]
fn token_for_finds_exact_values_first_then_near_colours() {
    let (_dir, set) = small();
    let v = set.token_for("#1677FF", Paging::unlimited()).unwrap();
    let names: Vec<(&str, f64, &str)> =
        v.rows.iter().map(|m| (m.token.name.as_str(), m.distance, m.mode.as_str())).collect();
    // Exact first, semantic (`--tiny-button-bg`) before palette; then the dark primary, near.
    assert_eq!(names[0], ("--tiny-button-bg", 0.0, ""));
    assert_eq!(names[1], ("--tiny-primary", 0.0, ""));
    assert!(names[2..].iter().all(|(_, d, _)| *d > 0.0), "{names:?}");
    let text = set.token_for("rgba(0,0,0,.45)", Paging::unlimited()).unwrap();
    assert_eq!(text.rows[0].token.name, "--tiny-text");
    assert_eq!(text.normalized.as_deref(), Some("#00000073"));
    let px = set.token_for("12px", Paging::unlimited()).unwrap();
    let px: Vec<&str> = px.rows.iter().map(|m| m.token.name.as_str()).collect();
    assert_eq!(px, ["size.md", "--tiny-gap", "size.sm"], "semantic before palette at the same distance");
    let none = set.token_for("#00ff00", Paging::unlimited()).unwrap();
    assert!(none.rows.is_empty());
    assert!(none.note.as_deref().unwrap().starts_with("no token for this value"), "{:?}", none.note);
    // A value no token can have is an error naming what is read; a unitless zero is a length.
    for not in ["solid", "", "  "] {
        match set.token_for(not, Paging::unlimited()) {
            Err(e @ LookupError::NotATokenValue { .. }) => assert!(e.to_string().contains("`0`"), "{e}"),
            other => panic!("{not:?}: {other:?}"),
        }
    }
    assert_eq!(set.token_for("0", Paging::unlimited()).unwrap().normalized.as_deref(), Some("0px"));
}

#[test]
fn tokens_are_found_by_name_prefix_type_and_component() {
    let (_dir, set) = small();
    let names = |q: Option<&str>, k: Option<TokenType>, c: Option<&str>| -> Vec<String> {
        let v = set.design_tokens_paged(q, k, c, Paging::unlimited()).unwrap();
        v.rows.iter().map(|t| t.name.clone()).collect()
    };
    assert_eq!(names(Some("brand"), None, None), ["$brand", "$brand-hover"]);
    assert_eq!(names(Some("--tiny-button"), None, None), ["--tiny-button-bg", "--tiny-button-radius"]);
    assert_eq!(names(None, None, Some("button")), ["--tiny-button-bg", "--tiny-button-radius"]);
    assert_eq!(names(Some("colors.green"), None, None), ["colors.green.500"]);
    let colours = names(Some("color"), None, None);
    assert_eq!(colours.len(), names(None, Some(TokenType::Color), None).len());
    assert!(colours.contains(&"--tiny-primary".to_string()));
    assert_eq!(names(None, Some(TokenType::Dimension), Some("global")).len(), 6);
}

#[test]
fn tokens_rules_replace_detection() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), SMALL);
    write(
        dir.path(),
        &[(
            "mydesign-docs.toml",
            "[[docs]]\npattern = \"docs/{component}/index.md\"\nlang = \"en-US\"\n\n[[tokens]]\npath = \"src/theme/*.scss\"\ncomponent = \"button\"\n",
        )],
    );
    let config = mydesign_docs::config::Config::load(dir.path(), None).expect("config");
    let out = dir.path().join("out");
    let report = mydesign_docs::compile::build(&mydesign_docs::compile::BuildOptions {
        repo: dir.path().to_path_buf(),
        out,
        config,
        progress: false,
    })
    .unwrap();
    let set = BundleSet::open(&report.dir).unwrap();
    let t = all(&set);
    let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["$brand", "$brand-hover", "$radius"]);
    assert!(t.iter().all(|t| t.component.as_deref() == Some("button")));
}

/// One part of a lookup: its view, the rows it lists and its cursor.
type Part<V> = (V, usize, Option<String>);

/// Both forms of every part of `lookup` at each budget, recounted with tiktoken, fit; the cursors walk all rows.
fn sweep<V: Render>(rows: usize, lookup: &dyn Fn(Paging) -> Part<V>) {
    let tiktoken = Tiktoken::new("o200k_base");
    for max in [300u32, 400, 700, 1_500, 4_000] {
        let mut cursor: Option<String> = None;
        let mut seen = 0;
        loop {
            let budget = Budget::new(10_000, Some(max)).unwrap();
            let (view, n, next) = lookup(Paging { budget, cursor: cursor.as_deref() });
            for form in [view.text(), view.json()] {
                let used = tiktoken.count(&form);
                assert!(used <= max, "{used} tokens at a budget of {max}: {form}");
            }
            seen += n;
            match next {
                Some(c) => cursor = Some(c),
                None => break,
            }
            assert!(seen < rows + 1, "cursors loop");
        }
        assert_eq!(seen, rows, "at {max}");
    }
}

#[test]
fn both_lookups_fit_every_budget_and_their_cursors_list_every_row() {
    let (_dir, set) = small();
    let total = all(&set).len();
    sweep(total, &|p| {
        let v = set.design_tokens_paged(None, None, None, p).unwrap();
        let (n, next) = (v.rows.len(), v.part.next_cursor.clone());
        (v, n, next)
    });
    let near = set.token_for("#1677ff", Paging::unlimited()).unwrap().rows.len();
    sweep(near, &|p| {
        let v = set.token_for("#1677ff", p).unwrap();
        let (n, next) = (v.rows.len(), v.part.next_cursor.clone());
        (v, n, next)
    });
}

/// The real inputs with no configuration: (input, tokens per type in [`TokenType::ALL`]'s order).
const REAL_COUNTS: &[(&str, [usize; 8])] = &[
    ("semi", [1363, 2063, 132, 13, 117, 0, 52, 97]),
    // Arco's theme properties named with `@{arco-cssvars-prefix}` are read since Less interpolation resolves across
    // files (`--arcoblue-6: getRgbStr(@arcoblue-6)`: the plugin's call makes most "other", unresolved).
    ("arco-design", [2276, 1209, 55, 95, 6, 5, 47, 380]),
    // Chakra's panda preset and react theme declare the same tokens: one each, the second file in `also_in`.
    ("chakra-ui", [244, 162, 14, 16, 9, 4, 24, 19]),
    // Popup's document lists `--z-index` in two tables with one value: one token.
    ("antd-mobile", [63, 116, 0, 0, 0, 0, 10, 18]),
    ("vant", [320, 407, 6, 6, 10, 2, 36, 12]),
];

#[test]
fn real_inputs_compile_their_tokens_per_type() {
    let mut wrong = Vec::new();
    for (name, want) in REAL_COUNTS {
        let Some(built) = detected_build(name) else { continue };
        let t = all(&built.set);
        let got: Vec<usize> = TokenType::ALL.iter().map(|k| t.iter().filter(|t| t.kind == *k).count()).collect();
        if got != want {
            wrong.push(format!("{name}: {got:?}, not {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// (input, token name, file it must be read from, line, value as written, normalised value).
type SpotCheck = (&'static str, &'static str, &'static str, u32, &'static str, Option<&'static str>);

const SPOT_CHECKS: &[SpotCheck] = &[
    (
        "semi",
        "$color-button_primary-bg-default",
        "packages/semi-foundation/button/variables.scss",
        2,
        "var(--semi-color-primary)",
        None,
    ),
    (
        "semi",
        "$height-button_iconOnly_large",
        "packages/semi-foundation/button/variables.scss",
        178,
        "$height-control-large",
        None,
    ),
    ("arco-design", "@red-6", "components/style/theme/color/colors.less", 9, "#f53f3f", Some("#f53f3fff")),
    ("arco-design", "@red-1", "components/style/theme/color/colors.less", 4, "color-palette(@red-6, 1)", None),
    ("arco-design", "@border-radius-medium", "components/style/theme/global.less", 22, "4px", Some("4px")),
    ("arco-design", "@alert-border-width", "components/Alert/style/token.less", 3, "@border-1", Some("1px")),
    // Less interpolation across files: the name's `@{arco-cssvars-prefix}` is `-` (Less's `if()` in default.less),
    // the value's reaches the compiled theme's `--arcoblue-6`; a Less plugin's call stays unresolved.
    (
        "arco-design",
        "--arcoblue-6",
        "components/style/theme/color/css-variables.less",
        99,
        "getRgbStr(@arcoblue-6)",
        None,
    ),
    (
        "arco-design",
        "@primary-6",
        "components/style/theme/color/colors.less",
        320,
        "rgb(var(~'@{arco-cssvars-prefix}-arcoblue-6'))",
        Some("#165dffff"),
    ),
    ("chakra-ui", "colors.black", "packages/react/src/theme/tokens/colors.ts", 6, "#09090B", Some("#09090bff")),
    ("chakra-ui", "spacing.4", "packages/react/src/theme/tokens/spacing.ts", 11, "1rem", Some("16px")),
    (
        "chakra-ui",
        "colors.bg.subtle",
        "packages/react/src/theme/semantic-tokens/colors.ts",
        8,
        "{colors.gray.50}",
        Some("#fafafaff"),
    ),
    ("antd-mobile", "--border-radius", "src/components/avatar/index.en.md", 29, "4px", Some("4px")),
    ("antd-mobile", "--color", "src/components/badge/index.en.md", 29, "var(--adm-color-highlight)", None),
    ("vant", "--van-black", "packages/vant/src/style/css-variables.less", 4, "#000", Some("#000000ff")),
    ("vant", "--van-badge-size", "packages/vant/src/badge/README.md", 169, "16px", Some("16px")),
    ("vant", "--van-badge-color", "packages/vant/src/badge/README.md", 170, "var(--van-white)", Some("#ffffffff")),
];

#[test]
fn real_spot_checks_name_value_and_source_line() {
    for (input, name, file, line, written, normalized) in SPOT_CHECKS {
        let Some(built) = detected_build(input) else { continue };
        let t = all(&built.set);
        // Declared there, or (the same name and values in an earlier file) listed as another source of it.
        let site = format!("{file}:{line}");
        let token = t
            .iter()
            .find(|t| t.name == *name && (format!("{}:{}", t.file, t.line) == site || t.also_in.contains(&site)))
            .unwrap_or_else(|| panic!("{input}: no {name} at {site}"));
        assert_eq!(token.values[0].written, *written, "{input} {name}");
        assert_eq!(token.values[0].normalized.as_deref(), *normalized, "{input} {name}");
        // The line is the declaration's: its name is written there in the real file.
        let text = std::fs::read_to_string(built.repo.join(file)).unwrap();
        let at = text.split('\n').nth(*line as usize - 1).unwrap();
        // (Its last segment, without the sigil: an interpolated name is written `@{prefix}-arcoblue-6`.)
        let key = name.rsplit('.').next().unwrap().trim_start_matches(['-', '@', '$']);
        assert!(at.contains(key), "{input} {file}:{line} is `{at}`, not {name}");
        if normalized.is_none() {
            assert_eq!(token.values[0].resolved, None, "{input} {name}: unresolved, kept with its expression");
        }
    }
}

#[test]
fn every_real_colour_token_is_found_by_its_own_value() {
    for (input, _) in REAL_COUNTS {
        let Some(built) = detected_build(input) else { continue };
        let t = all(&built.set);
        let mut checked = 0;
        for (i, token) in t.iter().enumerate() {
            for v in token.values.iter().filter(|v| v.normalized.as_deref().is_some_and(|n| n.starts_with('#'))) {
                let found = built.set.token_for(v.resolved.as_deref().unwrap(), Paging::unlimited()).unwrap();
                let hit = found.rows.iter().any(|m| {
                    m.distance == 0.0 && m.mode == v.mode && m.token.name == token.name && m.token.line == token.line
                });
                assert!(hit, "{input}: token {i} {} ({}) not found by its value", token.name, v.written);
                checked += 1;
            }
        }
        assert!(checked > 0, "{input}: no colour token");
    }
}

#[test]
fn real_token_lists_fit_every_budget_and_their_cursors_list_every_row() {
    let Some(built) = detected_build("vant") else { return };
    let set = &built.set;
    let total = all(set).len();
    sweep(total, &|p| {
        let v = set.design_tokens_paged(None, None, None, p).unwrap();
        let (n, next) = (v.rows.len(), v.part.next_cursor.clone());
        (v, n, next)
    });
    let near = set.token_for("#ffffff", Paging::unlimited()).unwrap().rows.len();
    assert!(near > 1, "Vant has several white tokens");
    sweep(near, &|p| {
        let v = set.token_for("#ffffff", p).unwrap();
        let (n, next) = (v.rows.len(), v.part.next_cursor.clone());
        (v, n, next)
    });
}

/// The trial's `token-for '#165dff'` on Arco: every token resolving to it through the interpolated theme properties,
/// and `@arcoblue-6` once, though colors.less and its compiled copy both declare it (the copy named as a source).
#[test]
fn arco_primary_resolves_through_less_interpolation_and_a_copy_is_one_token() {
    let Some(arco) = detected_build("arco-design") else { return };
    let found = arco.set.token_for("#165dff", Paging::unlimited()).unwrap();
    let names: Vec<&str> = found.rows.iter().map(|m| m.token.name.as_str()).collect();
    assert_eq!(names.iter().filter(|n| **n == "@arcoblue-6").count(), 1, "{names:?}");
    assert!(names.contains(&"@primary-6"), "{names:?}");
    let blue = &found.rows.iter().find(|m| m.token.name == "@arcoblue-6").unwrap().token;
    assert_eq!(blue.file, "components/style/theme/color/colors.less");
    assert_eq!(blue.also_in.len(), 1, "{:?}", blue.also_in);
    let (file, line) = blue.also_in[0].rsplit_once(':').unwrap();
    let text = std::fs::read_to_string(arco.repo.join(file)).unwrap();
    assert_eq!(text.split('\n').nth(line.parse::<usize>().unwrap() - 1).unwrap().trim(), "@arcoblue-6: #165dff;");
    // No token in the set is named with an interpolation left in it: every prefix resolved.
    assert!(all(&arco.set).iter().all(|t| !t.name.contains("@{")), "an interpolated name is left");
    // The nearest when none is near: with its value and distance.
    let red = arco.set.token_for("red", Paging::unlimited()).unwrap();
    let note = red.note.unwrap();
    assert!(note.starts_with("no token for this value within ΔE 5: the nearest colour is `"), "{note}");
    let nearest = note.split('`').nth(1).unwrap();
    let token = all(&arco.set).into_iter().find(|t| t.name == nearest).unwrap();
    assert_eq!(token.component, None, "a global token first at one distance: {note}");
    assert!(note.contains("ΔE 8.0"), "{note}");
}
