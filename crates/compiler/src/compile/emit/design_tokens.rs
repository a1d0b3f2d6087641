//! The set's design tokens (`compile::design_tokens`) with each row's tokens counted as the reader renders it
//! (`render::token_row_line` and the row's JSON), for the `design-tokens` frame of `manifest.bundle`.

use super::LazyCounter;
use crate::compile::design_tokens;
use crate::compile::diagnostic::Diagnostic;
use crate::compile::layout::Layout;
use crate::compile::walk::WalkedFile;
use crate::config::Config;
use crate::model::DesignTokens;

/// The design tokens of the walked files, each row counted in its larger form: the text line or the JSON object
/// with the comma after it (as `assemble::row_tokens` counts the other lists' rows).
pub(super) fn compile(
    walked: &[WalkedFile],
    layout: &Layout,
    config: &Config,
    (lang, counter): (&str, &LazyCounter),
    diagnostics: &mut Vec<Diagnostic>,
) -> DesignTokens {
    let (tokens, problems) = design_tokens::compile(walked, layout, &config.tokens, lang);
    diagnostics.extend(problems);
    let row_tokens = tokens
        .iter()
        .map(|t| {
            let line = counter.count(&crate::render::token_row_line(t));
            let json = serde_json::to_string(t).map_or(0, |j| counter.count(&format!("{j},")));
            line.max(json)
        })
        .collect();
    DesignTokens { tokens, row_tokens }
}
