//! The pieces of a `context` answer (issue 29 item 2) that the compiler counts (`DocMeta::import_tokens`,
//! `PropSite::name_tokens`): a document's import line and a prop's entry in a list of names. The reader prints them with the same functions.

/// A document's import statement as a `context` answer prints it: trimmed, on its own line.
pub fn import_line(import: &str) -> String {
    format!("{}\n", import.trim().replace(['\n', '\r'], " "))
}

/// A prop's entry in a `context` answer's list of names: a space, the name, a comma (the pre-tokenizer splits
/// before the space and after the comma, so the entries' counts add up; the list's end is a join).
pub fn name_entry(name: &str) -> String {
    format!(" {},", name.replace(['\n', '\r'], " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_one_line_each() {
        assert_eq!(import_line("  import { Form } from 'ui';\n"), "import { Form } from 'ui';\n");
        assert_eq!(name_entry("onChange"), " onChange,");
        assert_eq!(name_entry("a\nb"), " a b,");
    }
}
