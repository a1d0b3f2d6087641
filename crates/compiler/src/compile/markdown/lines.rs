//! Our `'\n'` line numbering beside comrak's (which also ends a line at a lone `'\r'`).

use super::to_u32;
use crate::line_index::LineIndex;

/// Line starts of the text in our `'\n'` numbering and in comrak's (which also ends lines at a
/// lone `'\r'`), to map comrak's sourcepos lines onto ours.
pub(crate) struct LineMap<'t> {
    text: &'t str,
    /// Our lines.
    lines: LineIndex,
    /// Byte offset of the start of each comrak line; `None` when it equals `starts` (no lone
    /// `'\r'` in the text).
    cm_starts: Option<Vec<usize>>,
}

impl<'t> LineMap<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        let lines = LineIndex::new(text);
        let bytes = text.as_bytes();
        let has_lone_cr = text.match_indices('\r').any(|(i, _)| bytes.get(i + 1) != Some(&b'\n'));
        let cm_starts = has_lone_cr.then(|| {
            // comrak does not count a line after a final line ending, we do; only lines comrak
            // reports are looked up, so the extra entry is harmless.
            let mut cm_starts = vec![0];
            for (i, &b) in bytes.iter().enumerate() {
                if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                    cm_starts.push(i + 1);
                }
            }
            cm_starts
        });
        LineMap { text, lines, cm_starts }
    }

    /// Our 1-based line holding byte `byte` (a byte at a line's `'\n'` belongs to that line).
    pub(super) fn line_of_byte(&self, byte: usize) -> u32 {
        self.lines.line_of(byte)
    }

    /// Number of our lines (`text.split('\n').count()`), at least 1.
    pub(super) fn count(&self) -> u32 {
        self.lines.count()
    }

    /// Our 1-based line holding comrak's 1-based line `cm_line` (clamped to the text).
    pub(crate) fn line_of_cm_line(&self, cm_line: usize) -> u32 {
        let Some(cm_starts) = &self.cm_starts else {
            return to_u32(cm_line.clamp(1, self.lines.count() as usize));
        };
        let byte = cm_starts[cm_line.clamp(1, cm_starts.len()) - 1];
        self.lines.line_of(byte)
    }

    /// Byte offset of the start of our 1-based `line` (clamped).
    pub(super) fn start(&self, line: u32) -> usize {
        self.lines.start(line.clamp(1, self.lines.count()))
    }

    /// Byte offset of the end of our 1-based `line` (clamped), before its `"\n"` or `"\r\n"`.
    pub(super) fn end(&self, line: u32) -> usize {
        let line = line.clamp(1, self.lines.count());
        let end = self.lines.end(line);
        if end > self.lines.start(line) && self.text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end }
    }
}
