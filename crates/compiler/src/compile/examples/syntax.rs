//! What one document line is, as the site's syntax goes: a reference to an example, a placeholder, a heading of a
//! documentation generator, markup only the site renders, or text.

use super::rules::Compiled;

/// Text-less MDX/JSX elements that only the site renders (a props table the bundle already holds, an interactive
/// explorer, a token table): dropped from the stored document.
const SITE_ONLY: [&str; 5] = ["PropTable", "Explorer", "ComponentTokenTable", "PropsTable", "Playground"];

/// One line of a document, outside fenced code.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// Kept as it is.
    Text,
    /// A reference: the index of its rule and the name it gives.
    Reference { rule: usize, name: String },
    /// `%%Content%%`: the sibling `__demo__/*.md` files.
    DemoFolder,
    /// A placeholder that stands for nothing the bundle lacks (`%%Props%%`, `%%API(button)%%`, `:: BASE_DOC ::`),
    /// or a site-only element: dropped.
    Drop,
    /// A documentation generator's heading (`@## Props`), as Markdown.
    Heading(String),
    /// A documentation generator's `@interface Name`: the props table of that interface.
    Interface(String),
    /// A text-less element alone on its line that no rule knows (kept, counted by name).
    Unrecognised(String),
}

/// Whether `text` may hold anything [`classify`] changes (a quick test before the document is parsed again).
pub fn may_hold(text: &str, rules: &[Compiled]) -> bool {
    text.contains("%%")
        || text.contains("::")
        || text.contains("@#")
        || text.contains("/>")
        || text.contains("@interface ")
        || rules.iter().any(|r| text.contains(r.rule.reference.split("{name}").next().unwrap_or("").trim()))
}

/// What `line` (without its line ending) is.
pub fn classify(line: &str, rules: &[Compiled]) -> Line {
    let t = line.trim();
    if t.is_empty() {
        return Line::Text;
    }
    if let Some(rule) = rules.iter().position(|r| r.capture(line).is_some()) {
        let name = rules[rule].capture(line).unwrap_or_default();
        return Line::Reference { rule, name };
    }
    if let Some(inner) = t.strip_prefix("%%").and_then(|r| r.strip_suffix("%%"))
        && !inner.is_empty()
        && !inner.contains("%%")
        && !inner.contains(char::is_whitespace)
    {
        return if inner == "Content" || inner == "Demos" { Line::DemoFolder } else { Line::Drop };
    }
    if let Some(inner) = t.strip_prefix("::").and_then(|r| r.strip_suffix("::")) {
        let inner = inner.trim();
        if !inner.is_empty() && inner.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
            return Line::Drop;
        }
    }
    if let Some(name) = t.strip_prefix("@interface ").map(str::trim)
        && !name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    {
        return Line::Interface(name.to_string());
    }
    if let Some(rest) = t.strip_prefix('@') {
        let hashes = rest.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && rest[hashes..].starts_with(' ') {
            return Line::Heading(rest.to_string());
        }
    }
    match lone_element(t) {
        Some(name) if SITE_ONLY.contains(&name) => Line::Drop,
        Some(name) => Line::Unrecognised(name.to_string()),
        None => Line::Text,
    }
}

/// The name of a self-closing element that is the whole line and has no text (`<PropTable component="Button" />`),
/// when its name is capitalised (a component, not HTML).
fn lone_element(t: &str) -> Option<&str> {
    let inner = t.strip_prefix('<')?.strip_suffix("/>")?;
    let end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_')).unwrap_or(inner.len());
    let name = &inner[..end];
    let rest = &inner[end..];
    // One element: no other tag inside its attributes (`{…}` expressions may hold `<`; such lines stay text).
    let one = !rest.contains('<') && !rest.contains('>');
    (name.starts_with(|c: char| c.is_ascii_uppercase()) && one).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_lines_are_classified() {
        let rules = super::super::rules::compile(&[]);
        assert_eq!(
            classify(r#"<ExampleTabs name="button-basic" />"#, &rules),
            Line::Reference { rule: 0, name: "button-basic".into() }
        );
        assert_eq!(classify("%%Content%%", &rules), Line::DemoFolder);
        assert_eq!(classify("%%Props%%", &rules), Line::Drop);
        assert_eq!(classify("%%API(button)%%", &rules), Line::Drop);
        assert_eq!(classify(":: BASE_DOC ::", &rules), Line::Drop);
        assert_eq!(classify("@## Props", &rules), Line::Heading("## Props".into()));
        assert_eq!(classify("@#Props", &rules), Line::Text);
        assert_eq!(classify("@interface PanelStackProps", &rules), Line::Interface("PanelStackProps".into()));
        assert_eq!(
            classify("@reactExample PanelStackExample", &rules),
            Line::Reference { rule: 4, name: "PanelStackExample".into() }
        );
        assert_eq!(classify(r#"<PropTable component="Button" part="Button" />"#, &rules), Line::Drop);
        assert_eq!(classify("<Explorer />", &rules), Line::Drop);
        assert_eq!(classify(r#"<Sandpack files={x} />"#, &rules), Line::Unrecognised("Sandpack".into()));
        assert_eq!(classify("<br/>", &rules), Line::Text);
        assert_eq!(classify("Use <Button /> here", &rules), Line::Text);
        assert_eq!(classify("a %% b %%", &rules), Line::Text);
    }
}
