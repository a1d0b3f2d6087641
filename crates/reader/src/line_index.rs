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
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        starts.extend(line_starts(text));
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

/// Byte offsets where lines 2, 3, … of `text` start (just after each `'\n'`; the last one is `text.len()` when the
/// text ends in `'\n'`): a [`LineIndex`]'s starts after the first, for a pass that needs them once (the reader's
/// `budget::cut_points`).
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    // memchr's iterator keeps its SIMD search across lines: `match_indices` set one up per line (a third of a
    // whole-document `Cuts::new`, 6,372 lines of Semi's `table`).
    memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1)
}

/// Number of lines of `text` as a [`LineIndex`] counts them (`text.split('\n').count()`, at least 1), without
/// building the table: the line counts of files, skeletons and changelogs.
pub fn line_count(text: &str) -> u32 {
    u32::try_from(line_starts(text).count() + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::{LineIndex, line_count, line_starts};

    #[test]
    fn the_count_and_the_starts_are_the_tables() {
        for (text, count) in [("", 1), ("a", 1), ("a\n", 2), ("ab\r\n\ncd\n", 4), ("\n\n", 3)] {
            let index = LineIndex::new(text);
            assert_eq!(line_count(text), count, "{text:?}");
            assert_eq!(index.count(), count, "{text:?}");
            let starts: Vec<usize> = line_starts(text).collect();
            assert_eq!(starts, (2..=count).map(|l| index.start(l)).collect::<Vec<_>>(), "{text:?}");
        }
        assert_eq!(line_starts("ab\r\n\ncd\n").collect::<Vec<_>>(), [4, 5, 8]);
    }

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
