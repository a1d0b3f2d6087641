//! Short answers (issue 26 §1: every lookup answers at the smallest budget, whatever its names): when the names an
//! answer repeats leave it no room, [`crate::render::fitted`] serves it *terse* rather than refuse it: the header says the set and the part's lines and tokens only (the caller knows what it asked for), a
//! cut part continues with the same call and the cursor alone, optional lines (hints, guides, shared files) are
//! left out, and the structured form keeps only [`TERSE_FIELDS`].

use super::views::{at_most, framed_in, served};
use super::{Surface, plural, thousands};
use crate::budget::Part;
use crate::read::Served;

/// The structured fields a terse answer keeps: the set served (the `outputSchema`'s `system`, `version` and the
/// project note), the content and its size (`text`, `tokens`, and a list's rows: `components`, `files`, `rows`,
/// `examples`),
/// and where the part is and how to go on (lines, rows, what is left, the cursor).
pub const TERSE_FIELDS: [&str; 18] = [
    "system",
    "version",
    "note",
    "tokens",
    "tokens_exact",
    "served_lines",
    "cut",
    "starts_in_block",
    "ends_in_block",
    "next_cursor",
    "text",
    "rows_total",
    "first_row",
    "components",
    "files",
    "rows",
    "examples",
    "max_tokens_capped",
];

/// How a terse answer goes on: MCP `the same call and cursor="…"`, CLI `the same command and --cursor …` (the
/// command as it was typed, whose `--max-tokens` and set options the cursor's part was served under).
pub(crate) fn same_call(surface: Surface, cursor: &str) -> String {
    match surface {
        Surface::Mcp => format!("the same call and {}", surface.arg("--cursor", &cursor.into())),
        Surface::Cli => format!("the same command and --cursor {cursor}"),
    }
}

/// The terse text form of a text view: `[system version · lines a–b of N · T tokens]`, the part as framed, and the
/// short continuation (a changelog page's last part names the next page by its cursor). `unit` names a line as
/// the cut line does (`skeleton line`).
pub(crate) fn short_text(
    s: &Served,
    part: &Part,
    text: &str,
    cursor: Option<&str>,
    surface: Surface,
    unit: &str,
) -> String {
    let lines = if part.cut.is_some() || part.offset > 0 || part.starts_in_block.is_some() {
        format!(" · {unit}s {}–{} of {}", thousands(part.lines.0), thousands(part.lines.1), thousands(part.text_lines))
    } else {
        String::new()
    };
    let head = format!("[{}{lines} · {}{}]\n", served(s), at_most(part), plural(part.tokens, "token"));
    let more = cursor.filter(|_| part.cut.is_some()).map(|c| same_call(surface, c));
    let mut out = head + &framed_in(part, text, more, unit);
    if let Some(c) = cursor.filter(|_| part.cut.is_none()) {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("[continue with {}]", same_call(surface, c)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terse_part_says_its_lines_and_goes_on_with_its_cursor() {
        let s = Served { system: "arco-design-web-react".into(), version: "2.66.15".into(), note: None };
        let part = Part {
            lines: (1, 2),
            text_lines: 9,
            tokens: 5,
            tokens_exact: true,
            cut: Some(crate::budget::Rest { tokens: 40, lines: 7 }),
            ..Part::default()
        };
        assert_eq!(
            short_text(&s, &part, "a\nb\n", Some("123"), Surface::Mcp, "line"),
            "[arco-design-web-react 2.66.15 · lines 1–2 of 9 · 5 tokens]\na\nb\n[cut after line 2: 7 lines and 40 \
             tokens left; continue with the same call and cursor=\"123\"]"
        );
        assert!(
            short_text(&s, &part, "a\nb\n", Some("123"), Surface::Cli, "line")
                .ends_with("continue with the same command and --cursor 123]")
        );
        let whole = Part { cut: None, lines: (1, 9), ..part };
        assert_eq!(
            short_text(&s, &whole, "x\n", None, Surface::Cli, "line"),
            "[arco-design-web-react 2.66.15 · 5 tokens]\nx\n"
        );
    }
}
