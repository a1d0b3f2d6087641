//! Metadata a site writes in a fence at the top of a document instead of front matter (issue 24 item 5): a
//! ```` ```yaml ```` block of `title` / `description` keys, or a bare fence holding the page's heading and intro
//! (Arco's READMEs open with a fence of `Component / General`, `# Button` and the one-line description, which the
//! site renders as the page header). Such a fence is the document's title and description, never a code block.

/// What a leading metadata fence says.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct FenceMetadata {
    /// The page's title (`title`, or the fence's `#` heading).
    pub title: Option<String>,
    /// The one-line description (`brief`, `description`, or the paragraph after the heading).
    pub brief: Option<String>,
}

/// The metadata of a document's first block when it is a fence of language `lang` holding `code`, else `None`
/// (a real code block): YAML (`yaml`, `yml`) that is a mapping with a `title`, `description` or `brief` string;
/// or an unlabelled fence whose text is Markdown with a level-1 heading.
pub(super) fn from_fence(lang: &str, code: &str) -> Option<FenceMetadata> {
    match lang.to_ascii_lowercase().as_str() {
        "yaml" | "yml" => {
            let map: serde_yaml_ng::Mapping = serde_yaml_ng::from_str(code).ok()?;
            let field = |k: &str| {
                map.get(k).and_then(|v| v.as_str()).map(str::trim).filter(|v| !v.is_empty()).map(str::to_string)
            };
            let m = FenceMetadata {
                title: field("title"),
                brief: field("brief").or_else(|| field("description")).or_else(|| field("subtitle")),
            };
            (m.title.is_some() || m.brief.is_some()).then_some(m)
        }
        "" | "md" | "markdown" => {
            let doc = super::parse(code);
            let h1 = doc.sections.iter().find(|s| s.level == 1)?;
            // The description is the paragraph after the heading, not a category line before it.
            let after = code.split('\n').skip(h1.start_line as usize).collect::<Vec<_>>().join("\n");
            let brief = super::parse(&after).brief;
            Some(FenceMetadata { title: Some(h1.title.clone()), brief })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_fence_and_a_yaml_mapping_are_metadata_and_code_is_not() {
        let arco = "Component / General\n\n# Button\n\nA button is a command component to trigger an operation.\n";
        assert_eq!(
            from_fence("", arco),
            Some(FenceMetadata {
                title: Some("Button".into()),
                brief: Some("A button is a command component to trigger an operation.".into())
            })
        );
        let yaml = "title: Tag\ndescription: \"Labels for categories\"\norder: 3\n";
        assert_eq!(
            from_fence("yaml", yaml),
            Some(FenceMetadata { title: Some("Tag".into()), brief: Some("Labels for categories".into()) })
        );
        assert_eq!(from_fence("yaml", "dependencies:\n  react: ^18\n"), None);
        assert_eq!(from_fence("", "npm install my-ui\n"), None);
        assert_eq!(from_fence("bash", "# install\nnpm i\n"), None);
        assert_eq!(from_fence("yaml", "title: [unclosed\n"), None);
    }
}
