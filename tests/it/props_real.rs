//! Props tables from the real inputs: Blueprint's TypeScript interfaces (`compile::props::from_typescript`) and
//! Semi Design's API tables (`compile::props::from_markdown`). Every fact asserted with its real value.
//! Skips, saying why, when the real corpus is absent.

use crate::common;

use std::path::{Path, PathBuf};

use mydesign_docs::compile::props::{TypeIndex, from_markdown, from_typescript};
use mydesign_docs::compile::source::SourceLang;
use mydesign_docs::model::{Prop, PropsOrigin, PropsTable};

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn table<'a>(tables: &'a [PropsTable], name: &str) -> &'a PropsTable {
    tables.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no table {name}"))
}

fn prop<'a>(table: &'a PropsTable, name: &str) -> &'a Prop {
    table.props.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no prop {name} in {}", table.name))
}

fn names(tables: &[PropsTable]) -> Vec<(&str, usize)> {
    tables.iter().map(|t| (t.name.as_str(), t.props.len())).collect()
}

fn summary(path: &str, tables: &[PropsTable]) {
    let parts: Vec<String> = tables.iter().map(|t| format!("{}={}", t.name, t.props.len())).collect();
    eprintln!("{path}: {} tables: {}", tables.len(), parts.join(", "));
}

fn files_below(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_below(&p, keep, out);
        } else if keep(&p) {
            out.push(p);
        }
    }
}

#[test]
fn blueprint_alert_props() {
    let Some(root) = common::real_corpus() else { return };
    let rel = "blueprint/src/components/alert/alert.tsx";
    let tables = from_typescript(SourceLang::Tsx, rel, &read(&root, rel));
    summary(rel, &tables);
    assert_eq!(names(&tables), [("AlertProps", 15)]);
    let alert = &tables[0];
    assert_eq!((alert.origin, alert.line, alert.lang.as_deref()), (PropsOrigin::Typescript, 32, None));
    // Both extended types are imported from other files.
    assert!(alert.extends.is_empty());
    assert_eq!(alert.unresolved_extends, ["OverlayLifecycleProps", "Props"]);
    let escape = prop(alert, "canEscapeKeyCancel");
    assert_eq!(
        (escape.type_text.as_str(), escape.optional, escape.default.as_deref()),
        ("boolean", true, Some("false"))
    );
    assert!(escape.description.as_deref().unwrap().starts_with("Whether pressing <kbd>escape</kbd> when focused"));
    let cancel = prop(alert, "cancelButtonText");
    assert_eq!((cancel.type_text.as_str(), cancel.optional, cancel.default.as_deref()), ("string", true, None));
    assert_eq!(prop(alert, "confirmButtonText").default.as_deref(), Some(r#""OK""#));
    assert_eq!(prop(alert, "portalContainer").default.as_deref(), Some("document.body"));
    // Required, with its default from the component's destructuring (`isOpen = false`).
    let open = prop(alert, "isOpen");
    assert_eq!((open.optional, open.default.as_deref()), (false, Some("false")));
    let on_close = prop(alert, "onClose");
    assert_eq!(on_close.type_text, "(confirmed: boolean, event?: React.SyntheticEvent<HTMLElement>) => void");
}

#[test]
fn blueprint_local_extends_and_default_props() {
    let Some(root) = common::real_corpus() else { return };
    let rel = "blueprint/src/components/overlay/overlayProps.ts";
    let tables = from_typescript(SourceLang::TypeScript, rel, &read(&root, rel));
    summary(rel, &tables);
    assert_eq!(
        names(&tables),
        [("OverlayableProps", 15), ("OverlayLifecycleProps", 4), ("BackdropProps", 4), ("OverlayProps", 22)]
    );
    let overlay = table(&tables, "OverlayProps");
    assert_eq!(overlay.extends, ["OverlayableProps", "OverlayLifecycleProps", "BackdropProps"]);
    assert_eq!(overlay.unresolved_extends, ["Props"]);
    // Own props first, then OverlayableProps' (and through it OverlayLifecycleProps'), then BackdropProps'.
    let order: Vec<&str> = overlay.props.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(order[..3], ["children", "isOpen", "transitionName"]);
    assert_eq!(order[order.len() - 4..], ["backdropClassName", "backdropProps", "canOutsideClickClose", "hasBackdrop"]);

    // `public static defaultProps: Partial<TagInputProps> = {…}` fills what JSDoc leaves out.
    let rel = "blueprint/src/components/tag-input/tagInput.tsx";
    let tables = from_typescript(SourceLang::Tsx, rel, &read(&root, rel));
    summary(rel, &tables);
    let tag_input = table(&tables, "TagInputProps");
    assert_eq!(prop(tag_input, "tagProps").default.as_deref(), Some("{}"));
    assert_eq!(prop(tag_input, "separator").default.as_deref(), Some(r"/[,\n\r]/"));
    assert_eq!(tag_input.props.iter().filter(|p| p.default.is_some()).count(), 10);
}

#[test]
fn blueprint_all_sources() {
    let Some(root) = common::real_corpus() else { return };
    let mut files = Vec::new();
    let keep = |p: &Path| {
        let s = p.to_string_lossy();
        (s.ends_with(".ts") || s.ends_with(".tsx")) && !s.contains(".test.") && !s.contains(".stories.")
    };
    files_below(&root.join("blueprint/src"), &keep, &mut files);
    let started = std::time::Instant::now();
    let (mut tables, mut props, mut resolved, mut defaults, mut described) = (0, 0, 0, 0, 0);
    for path in &files {
        let rel = path.strip_prefix(&root).unwrap().display().to_string();
        let lang = SourceLang::from_path(path).unwrap();
        let found = from_typescript(lang, &rel, &std::fs::read_to_string(path).unwrap());
        for t in &found {
            assert!(t.name.ends_with("Props"), "{rel}: {}", t.name);
            tables += 1;
            props += t.props.len();
            resolved += usize::from(!t.extends.is_empty());
            defaults += t.props.iter().filter(|p| p.default.is_some()).count();
            described += t.props.iter().filter(|p| p.description.is_some()).count();
        }
    }
    eprintln!(
        "blueprint/src: {} files, {tables} props tables, {props} props ({described} described, {defaults} with a \
         default), {resolved} tables with local extends, in {:?}",
        files.len(),
        started.elapsed()
    );
}

#[test]
fn semi_table_zh() {
    let Some(root) = common::real_corpus() else { return };
    let rel = "semi/content/show/table/index.md";
    let tables = from_markdown(rel, "zh-CN", &read(&root, rel));
    summary(rel, &tables);
    assert_eq!(
        names(&tables),
        [("Table", 49), ("Column", 36), ("rowSelection", 15), ("scroll", 3), ("pagination", 7), ("Resizable", 3)]
    );
    let t = table(&tables, "Table");
    assert_eq!((t.origin, t.line, t.lang.as_deref()), (PropsOrigin::Document, 5890, Some("zh-CN")));
    let bordered = prop(t, "bordered");
    assert_eq!((bordered.type_text.as_str(), bordered.default.as_deref()), ("boolean", Some("false")));
    assert_eq!(bordered.description.as_deref(), Some("是否展示外边框和列边框"));
    // `<a href=…>TableComponents</a>` reduced to its text.
    assert_eq!(prop(t, "components").type_text, "TableComponents");
    // Escaped pipes, `**2.31.0**`.
    let direction = prop(t, "direction");
    assert_eq!((direction.type_text.as_str(), direction.since.as_deref()), ("'ltr' | 'rtl'", Some("2.31.0")));
    assert_eq!(prop(t, "defaultExpandedRowKeys").type_text, "Array<*>");
    assert_eq!(prop(t, "empty").default.as_deref(), Some("'暂无数据'"));
    assert_eq!(prop(t, "rowSelection").default, None);
    assert!(t.props.iter().all(|p| p.optional && !p.deprecated));
    assert_eq!(table(&tables, "Column").line, 6111);
}

#[test]
fn semi_table_en() {
    let Some(root) = common::real_corpus() else { return };
    let rel = "semi/content/show/table/index-en-US.md";
    let tables = from_markdown(rel, "en-US", &read(&root, rel));
    summary(rel, &tables);
    assert_eq!(
        names(&tables),
        [("Table", 46), ("Column", 37), ("rowSelection", 15), ("scroll", 3), ("pagination", 7), ("Resizable", 3)]
    );
    let t = table(&tables, "Table");
    assert_eq!(prop(t, "bordered").default.as_deref(), Some("false"));
    assert_eq!(prop(t, "components").type_text, "TableComponents");
}

#[test]
fn semi_select_and_form() {
    let Some(root) = common::real_corpus() else { return };
    let counts = |rel: &str, lang: &str| {
        let tables = from_markdown(rel, lang, &read(&root, rel));
        summary(rel, &tables);
        tables
    };
    let select = counts("semi/content/input/select/index.md", "zh-CN");
    assert_eq!(names(&select), [("Select Props", 69), ("Option Props", 6), ("OptGroup Props", 3)]);
    let select_en = counts("semi/content/input/select/index-en-US.md", "en-US");
    assert_eq!(names(&select_en), [("Select Props", 67), ("Option Props", 6), ("OptGroup Props", 3)]);
    let form = counts("semi/content/input/form/index.md", "zh-CN");
    assert_eq!(
        names(&form),
        [
            ("Form Props", 29),
            ("FormState", 3),
            ("Field Props", 28),
            ("ArrayField Props", 3),
            ("Form.Section", 4),
            ("Form.Label", 8),
            ("Form.InputGroup", 6),
            ("Form.Slot", 6),
            ("Form.ErrorMessage", 5),
        ]
    );
    // "**必填!!!**" in the description: required.
    let field = prop(table(&form, "Field Props"), "field");
    assert!(!field.optional);
    // "是否展示必填的*号" describes the `required` prop; it is not required itself.
    assert!(prop(table(&form, "Form.Label"), "required").optional);
    let form_en = counts("semi/content/input/form/index-en-US.md", "en-US");
    assert!(!prop(table(&form_en, "Field Props"), "field").optional);
}

#[test]
fn semi_all_documents() {
    let Some(root) = common::real_corpus() else { return };
    let mut files = Vec::new();
    let keep = |p: &Path| p.extension().is_some_and(|e| e == "md" || e == "mdx");
    files_below(&root.join("semi/content"), &keep, &mut files);
    let started = std::time::Instant::now();
    let (mut with_tables, mut tables, mut props, mut deprecated, mut required) = (0, 0, 0, 0, 0);
    for path in &files {
        let rel = path.strip_prefix(&root).unwrap().display().to_string();
        let lang = if rel.ends_with("-en-US.md") { "en-US" } else { "zh-CN" };
        let found = from_markdown(&rel, lang, &std::fs::read_to_string(path).unwrap());
        with_tables += usize::from(!found.is_empty());
        tables += found.len();
        for t in &found {
            props += t.props.len();
            deprecated += t.props.iter().filter(|p| p.deprecated).count();
            required += t.props.iter().filter(|p| !p.optional).count();
        }
    }
    eprintln!(
        "semi/content: {} documents, {with_tables} with props tables, {tables} tables, {props} props \
         ({deprecated} deprecated, {required} required), in {:?}",
        files.len(),
        started.elapsed()
    );
}

#[test]
fn blueprint_extends_resolve_across_files() {
    let Some(root) = common::real_corpus().map(|d| d.join("blueprint")) else { return };
    let rel = "src/components/button/buttonProps.ts";
    let mut tables = from_typescript(SourceLang::TypeScript, rel, &read(&root, rel));
    let mut sources = Vec::new();
    files_below(&root, &|p| p.extension().is_some_and(|e| e == "ts" || e == "tsx"), &mut sources);
    let sources: Vec<String> =
        sources.iter().map(|p| p.strip_prefix(&root).unwrap().to_string_lossy().into_owned()).collect();
    let index = TypeIndex::new(&root, sources.iter().map(String::as_str), 10_000_000);
    let button = tables.iter_mut().find(|t| t.name == "ButtonProps").unwrap();
    assert_eq!(button.unresolved_extends, ["ActionProps", "React.ButtonHTMLAttributes", "React.RefAttributes"]);
    index.resolve_table(button);
    // `ActionProps` is in src/common/props.ts, reached through `../../common` (src/common/index.ts re-exports it);
    // it extends `IntentProps` and `Props` there.
    assert_eq!(button.extends, ["ButtonSharedProps", "ActionProps", "IntentProps", "Props"]);
    assert_eq!(button.unresolved_extends, ["React.ButtonHTMLAttributes", "React.RefAttributes"]);
    for name in ["intent", "onClick", "disabled", "icon", "className"] {
        prop(button, name);
    }
    assert_eq!(prop(button, "intent").type_text, "Intent");
    // Through the whole build: the buttons component's props table has them.
    let Some(b) = common::blueprint() else { return };
    let paging = mydesign_docs::read::Paging::unlimited();
    let doc = b.set.props("buttons", None, paging).unwrap();
    for row in ["| intent? | Intent |", "| onClick? |", "| disabled? | boolean |", "| icon? |"] {
        assert!(doc.text.contains(row), "{row} missing from {}", doc.text);
    }
}

#[test]
fn blueprint_deprecation_advice_is_kept() {
    // Trial item 12: `large?` of Blueprint's tag props says `@deprecated use size="large" instead`.
    let Some(root) = common::real_corpus() else { return };
    let rel = "blueprint/src/components/tag/tagSharedProps.ts";
    let tables = from_typescript(SourceLang::TypeScript, rel, &read(&root, rel));
    summary(rel, &tables);
    let large = tables.iter().flat_map(|t| &t.props).find(|p| p.name == "large").expect("large");
    assert!(large.deprecated);
    assert_eq!(
        large.description.as_deref(),
        Some(r#"Whether this tag should use large styles. (deprecated: use size="large" instead)"#)
    );
    assert_eq!(large.default.as_deref(), Some("false"));
    // Served: the advice once, no bare `(deprecated)` after it.
    let Some(b) = common::blueprint() else { return };
    let text = b.set.props("tag", None, mydesign_docs::read::Paging::unlimited()).unwrap().text;
    let row = text.lines().find(|l| l.starts_with("| large? |")).unwrap_or_else(|| panic!("no large? row in {text}"));
    assert_eq!(
        row,
        r#"| large? | boolean | false | Whether this tag should use large styles. (deprecated: use size="large" instead) |"#
    );
    // Every deprecated prop of tag's table gives its advice (none is a bare `(deprecated)`).
    assert_eq!(text.matches("(deprecated: ").count(), text.matches("(deprecated").count());
}
