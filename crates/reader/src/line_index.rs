//! Line numbering, shared by both halves: the one table of line starts that the compiler's Markdown parser,
//! changelog pages and search units, and the reader's cursors and line ranges use. Lines are 1-based and counted
//! as `text.split('\n')` (the Semi Design MCP server's count: a text ending in `\n` has an empty last line);
//! offsets are UTF-8 bytes. A leaf module: it depends on nothing.

/// The byte offset where each line of a text starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineIndex {
    /// Start of every line; `starts[0] == 0`, one entry per `'\n'` after it.
    starts: Vec<usize>,
    /// Length of the text in bytes.
    len: usize,
}

impl LineIndex {
    /// The line starts of `text`.
    pub fn new(text: &str) -> LineIndex {
        let starts = std::iter::once(0).chain(memchr_newlines(text.as_bytes()).map(|i| i + 1)).collect();
        LineIndex { starts, len: text.len() }
    }

    /// Number of lines (`text.split('\n').count()`): at least 1.
    pub fn count(&self) -> u32 {
        self.starts.len() as u32
    }

    /// Length of the text in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the text is empty (it still has one, empty, line).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Byte offset where `line` starts: 0 for lines 0 and 1, the text's end for lines past the last (so
    /// `start(n + 1)` ends line `n`, its newline included).
    pub fn start(&self, line: u32) -> usize {
        let i = (line.max(1) - 1) as usize;
        self.starts.get(i).copied().unwrap_or(self.len)
    }

    /// Byte offset where `line` ends: its `'\n'` (a `'\r'` before it is kept in the line), the text's end for the
    /// last line and past it.
    pub fn end(&self, line: u32) -> usize {
        self.starts.get(line.max(1) as usize).map_or(self.len, |next| next - 1)
    }

    /// The line holding byte `at` (a line's `'\n'` belongs to it; past the end: the last line).
    pub fn line_of(&self, at: usize) -> u32 {
        self.starts.partition_point(|&s| s <= at) as u32
    }
}

/// Offsets of the `'\n'` bytes of `bytes`.
fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    #[test]
    fn lines_are_counted_as_split_and_located_by_byte() {
        let text = "ab\r\n\ncd\n";
        let lines = LineIndex::new(text);
        assert_eq!(lines.count() as usize, text.split('\n').count());
        assert_eq!(lines.count(), 4);
        assert_eq!((lines.start(0), lines.start(1), lines.start(2), lines.start(3), lines.start(4)), (0, 0, 4, 5, 8));
        assert_eq!(lines.start(5), 8, "past the last line: the end");
        assert_eq!((lines.end(1), lines.end(2), lines.end(3), lines.end(4)), (3, 4, 7, 8));
        assert_eq!(&text[lines.start(1)..lines.end(1)], "ab\r");
        assert_eq!(&text[lines.start(3)..lines.end(3)], "cd");
        assert_eq!(
            (lines.line_of(0), lines.line_of(3), lines.line_of(4), lines.line_of(5), lines.line_of(8)),
            (1, 1, 2, 3, 4)
        );
        assert_eq!(lines.line_of(100), 4);
        let empty = LineIndex::new("");
        assert_eq!((empty.count(), empty.start(1), empty.end(1), empty.line_of(0)), (1, 0, 0, 1));
    }
}
