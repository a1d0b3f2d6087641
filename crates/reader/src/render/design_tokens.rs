//! The text form of the design-token lists (`tokens`, `token-for`): one line a token, with the same line the
//! compiler counts for each row ([`token_row_line`]).

use super::views::{list_cut, served};
use super::*;
use crate::model::DesignToken;

/// One token's line, newline included: name, type, its value per mode (as written, then `= resolved` or
/// `(unresolved)`), component, aliases, source and description. Unpadded, so its stored count holds wherever it
/// is listed. The compiler counts each row this way (`DesignTokens::row_tokens`).
pub fn token_row_line(t: &DesignToken) -> String {
    let values: Vec<String> = t
        .values
        .iter()
        .map(|v| {
            let mode = if v.mode.is_empty() { String::new() } else { format!("{}: ", v.mode) };
            let value = match &v.resolved {
                None => format!("{} (unresolved)", v.written),
                Some(r) if *r == v.written => r.clone(),
                Some(r) => format!("{} = {r}", v.written),
            };
            format!("{mode}{value}")
        })
        .collect();
    let mut line = format!("{}  {}  {}", t.name, t.kind.name(), values.join(" · "));
    if let Some(c) = &t.component {
        line.push_str(&format!("  [{c}]"));
    }
    if !t.aliases.is_empty() {
        line.push_str(&format!("  also {}", t.aliases.join(", ")));
    }
    line.push_str(&format!("  {}:{}", t.file, t.line));
    if !t.also_in.is_empty() {
        line.push_str(&format!(" (also {})", t.also_in.join(", ")));
    }
    if !t.description.is_empty() {
        line.push_str(&format!("  — {}", t.description));
    }
    line.push('\n');
    line
}

/// The continuation call of a token list: `search_docs(query=…, kind=…, cursor=…)` for MCP, `mydesign-docs
/// <cli> QUERY --cursor …` for the CLI (the cursor carries the filters).
fn resume(surface: Surface, s: &Served, (kind, cli): (&str, &str), query: &str, part: &ListPart) -> Option<String> {
    let cursor = part.next_cursor.as_deref()?;
    if part.terse {
        return Some(super::terse::same_call(surface, cursor));
    }
    let mut args = vec![("query", Arg::Str(query.to_string()))];
    if surface == Surface::Mcp {
        args.push(("kind", Arg::Str(kind.to_string())));
    }
    Some(surface.resume(s, None, ("search_docs", cli), &args, part.max_tokens, cursor))
}

impl Render for TokensView {
    const MEASURED: bool = true;

    terse_in_part!();

    fn rows_text(&self) -> Option<String> {
        Some(self.rows.iter().map(token_row_line).collect())
    }

    fn render(&self, surface: Surface) -> String {
        let mut what =
            vec![format!("design tokens: {} of {}", thousands(self.part.rows_total), thousands(self.set_total))];
        if let Some(q) = &self.query {
            what.push(format!("matching {}", crate::escape::json(&serde_json::Value::from(q.as_str()))));
        }
        what.extend(self.kind.map(|k| format!("type {}", k.name())));
        what.extend(self.component.as_ref().map(|c| format!("component {c}")));
        let mut out = format!("[{} · {}]\n", served(&self.served), what.join(" · "));
        for t in &self.rows {
            out.push_str(&token_row_line(t));
        }
        if let Some(call) =
            resume(surface, &self.served, ("token", "tokens"), self.query.as_deref().unwrap_or(""), &self.part)
        {
            out.push_str(&list_cut(&self.part, self.rows.len(), &call));
        }
        out
    }
}

/// One match's line: how near (`exact`, `ΔE 1.2`), the mode, then the token's line ([`token_row_line`]).
fn match_line(m: &crate::read::TokenMatch) -> String {
    let mode = if m.mode.is_empty() { String::new() } else { format!(" · {}", m.mode) };
    let how = if m.distance == 0.0 { "exact".to_string() } else { format!("ΔE {:.1}", m.distance) };
    format!("{how}{mode} · {}", token_row_line(&m.token))
}

impl Render for TokenForView {
    const MEASURED: bool = true;

    terse_in_part!();

    fn rows_text(&self) -> Option<String> {
        Some(self.rows.iter().map(match_line).collect())
    }

    fn render(&self, surface: Surface) -> String {
        let normalized = self.normalized.as_deref().map(|n| format!(" = {n}")).unwrap_or_default();
        let value = crate::escape::json(&serde_json::Value::from(self.value.as_str()));
        let mut out = format!(
            "[{} · design tokens of {value}{normalized} · {} (exact first, then colours by ΔE CIEDE2000)]\n",
            served(&self.served),
            match self.part.rows_total {
                1 => "1 match".to_string(),
                n => format!("{} matches", thousands(u64::from(n))),
            }
        );
        if let Some(note) = &self.note {
            out.push_str(note);
            out.push('\n');
        }
        for m in &self.rows {
            out.push_str(&match_line(m));
        }
        if let Some(call) = resume(surface, &self.served, ("token-for", "token-for"), &self.value, &self.part) {
            out.push_str(&list_cut(&self.part, self.rows.len(), &call));
        }
        out
    }
}
