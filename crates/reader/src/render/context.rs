//! The text form of a `context` answer ([`ContextView`]): a header saying what each component got, the components
//! under their headings, and, when something was left out, the call that shows all.

use super::views::served;
use super::*;

/// The tool and subcommand of `context` (MCP: `list_components` with `components`).
pub const CONTEXT: (&str, &str) = ("list_components", "context");

impl Render for ContextView {
    const MEASURED: bool = true;

    fn content(&self) -> Option<&str> {
        Some(&self.text)
    }

    fn render(&self, surface: Surface) -> String {
        let got: Vec<String> = self.components.iter().map(summary).collect();
        let mut out = format!(
            "[{} · context of {} · ≤ {} · {}]\n{}",
            served(&self.served),
            plural(self.components.len() as u32, "component"),
            plural(self.tokens, "token"),
            got.join("; "),
            self.text
        );
        if let Some(at) = self.whole_at {
            let names: Vec<String> = self.components.iter().map(|c| c.component.clone()).collect();
            let mut args: Vec<(&str, Arg)> = match surface {
                Surface::Mcp => vec![("components", Arg::List("", names))],
                Surface::Cli => names.into_iter().map(|n| ("component", Arg::Str(n))).collect(),
            };
            args.push(("--max-tokens", at.into()));
            let call = surface.call(&self.served, None, CONTEXT.0, CONTEXT.1, &args);
            let first = &self.components[0].component;
            let prop = surface.call(
                &self.served,
                None,
                DETAILS.0,
                "prop",
                &[("component", Arg::Str(first.clone())), ("prop", Arg::Hole("NAME"))],
            );
            out.push_str(&format!("[left out: rows, examples or names; all of it: {call}; one prop: {prop}]\n"));
        }
        out
    }
}

/// What one component got, for the header: `Form 1,912 tokens: import, 6 rows, 30 of 35 names, example 5`.
fn summary(c: &ContextPart) -> String {
    let mut got = vec![];
    if c.import {
        got.push("import".to_string());
    }
    got.push(format!("{} of {}", c.rows, plural(c.props, "prop")));
    let others = c.props - c.rows;
    if others > 0 {
        got.push(format!("{} of {others} other names", c.names));
    }
    match (&c.example, &c.example_of) {
        (Some(n), Some(of)) => got.push(format!("example {n} of {of}")),
        (Some(n), None) => got.push(format!("example {n}")),
        (None, _) => got.push("no example".to_string()),
    }
    format!("{} {}: {}", c.component, plural(c.tokens, "token"), got.join(", "))
}
