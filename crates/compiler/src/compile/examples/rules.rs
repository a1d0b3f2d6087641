//! The table of example reference rules: a pattern a document line begins with, holding `{name}`, and the file
//! template it points to. Built in for the shapes met in real repositories; `[[examples]]` rules of the
//! configuration come first (see `docs/config.md`).

use crate::config::ExampleRule;

/// Extensions tried, in this order, when a referenced path names no existing file (dumi's `<code src>` and the
/// examples' folders leave it out).
pub const EXTENSIONS: [&str; 6] = ["tsx", "jsx", "ts", "js", "vue", "md"];

/// The built-in rules, after the configuration's.
pub fn builtin() -> Vec<ExampleRule> {
    let rule = |reference: &str, file: &str| ExampleRule { reference: reference.into(), file: file.into() };
    vec![
        // Chakra-style: an example named in an `examples/` folder elsewhere in the repository.
        rule(r#"<ExampleTabs name="{name}""#, "**/examples/{name}"),
        rule(r#"<ExampleCode name="{name}""#, "**/examples/{name}"),
        // Mustache-style include of an example beside the document.
        rule("{{ {name} }}", "./_example/{name}"),
        // A demo Markdown file imported by path.
        rule("@import {name}", "./{name}"),
        // Documentation-generator tags naming an example component: the file named after it, in any case
        // convention (`PanelStackExample` → `panelStackExample.tsx`), wherever the docs package keeps it.
        rule("@reactExample {name}", "**/{name}"),
        rule("@reactCodeExample {name}", "**/{name}"),
    ]
}

/// A rule split at its `{name}`, whitespace removed (a line matches whatever its spacing: `{{base}}` and
/// `{{ base }}` are one reference).
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The rule as written.
    pub rule: ExampleRule,
    before: String,
    after: String,
}

impl Compiled {
    /// `rule` ready to match; `None` when its reference has no `{name}` or nothing before it.
    pub fn new(rule: &ExampleRule) -> Option<Compiled> {
        let (before, after) = rule.reference.split_once("{name}")?;
        let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        let before = squeeze(before);
        (!before.is_empty()).then(|| Compiled { rule: rule.clone(), before, after: squeeze(after) })
    }

    /// The name a line refers to, when the line (indentation and spacing ignored) begins with the reference.
    pub fn capture(&self, line: &str) -> Option<String> {
        let squeezed: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        let rest = squeezed.strip_prefix(&self.before)?;
        let name = if self.after.is_empty() {
            let end = rest.find(['"', '\'', '<', '>', '`']).unwrap_or(rest.len());
            &rest[..end]
        } else {
            &rest[..rest.find(&self.after)?]
        };
        // The squeezed capture is the name only when the line had no space inside it.
        let name = name.trim();
        (!name.is_empty() && line.contains(name)).then(|| name.to_string())
    }

    /// The file template with `name` in place of `{name}`.
    pub fn file(&self, name: &str) -> String {
        self.rule.file.replace("{name}", name)
    }
}

/// The rules in force, as `[[examples]]` entries: the configuration's, then the built-in ones it does not replace
/// (what `build --print-config` writes; read back, they give the same table).
pub fn effective(configured: &[ExampleRule]) -> Vec<ExampleRule> {
    compile(configured).into_iter().map(|c| c.rule).collect()
}

/// Every rule: the configuration's, then the built-in ones (a configured rule with the same reference replaces
/// the built-in one).
pub fn compile(configured: &[ExampleRule]) -> Vec<Compiled> {
    let builtin = builtin();
    let kept = builtin.iter().filter(|b| configured.iter().all(|c| c.reference != b.reference));
    configured.iter().chain(kept).filter_map(Compiled::new).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_beginning_with_the_reference_gives_the_name() {
        let rules = compile(&[]);
        let tabs = &rules[0];
        assert_eq!(tabs.capture(r#"<ExampleTabs name="button-basic" />"#).as_deref(), Some("button-basic"));
        assert_eq!(tabs.capture(r#"  <ExampleTabs  name="x-y"/>"#).as_deref(), Some("x-y"));
        assert_eq!(tabs.capture(r#"See <ExampleTabs name="x" />"#), None);
        let mustache = &rules[2];
        assert_eq!(mustache.capture("{{ base }}").as_deref(), Some("base"));
        assert_eq!(mustache.capture("{{base}}").as_deref(), Some("base"));
        assert_eq!(mustache.file("base"), "./_example/base");
        let import = &rules[3];
        assert_eq!(import.capture("@import ./__demo__/basic.md").as_deref(), Some("./__demo__/basic.md"));
    }

    #[test]
    fn a_configured_rule_replaces_the_builtin_with_its_reference() {
        let mine = ExampleRule { reference: r#"<ExampleTabs name="{name}""#.into(), file: "ex/{name}.tsx".into() };
        let rules = compile(std::slice::from_ref(&mine));
        assert_eq!(rules.iter().filter(|r| r.rule.reference == mine.reference).count(), 1);
        assert_eq!(rules[0].file("a"), "ex/a.tsx");
        assert!(Compiled::new(&ExampleRule { reference: "{name}".into(), file: "x".into() }).is_none());
    }
}
