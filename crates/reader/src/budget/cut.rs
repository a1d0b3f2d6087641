//! Where a text may be cut: the cut rule ([`cut_points`], [`split_segment`]: where tiktoken's pre-tokenizers must
//! start a new piece, so stored segment counts add up exactly) and [`Cuts`], a text's segments with their stored
//! counts, which answers "how many tokens from here to there" and "how far fits".

use super::{LONG_SEGMENT_BYTES, SPLIT_BYTES};
use crate::line_index::LineIndex;
use crate::model::TokenMap;

/// Whether `c` is certainly a letter or digit of both pre-tokenizers' letter and number classes (`\p{L}`,
/// `\p{N}`): ASCII alphanumerics and the CJK, kana and Hangul blocks. (Not every `char::is_alphanumeric`: some
/// combining vowel signs are alphabetic in Rust but `\p{M}` in the regexes.)
fn plain_letter(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}')
}

/// Whether a piece of both pre-tokenizers ends before `c` when it follows a [`plain_letter`]: an ASCII space,
/// ASCII punctuation other than `'` (which may start a contraction), or common full-width and CJK punctuation.
fn breaks_word(c: char) -> bool {
    c == ' '
        || (c.is_ascii_punctuation() && c != '\'')
        || matches!(
            c,
            '，' | '。'
                | '、'
                | '；'
                | '：'
                | '？'
                | '！'
                | '（'
                | '）'
                | '「'
                | '」'
                | '『'
                | '』'
                | '《'
                | '》'
                | '【'
                | '】'
                | '…'
                | '—'
                | '“'
                | '”'
        )
}

/// Extra cut points inside `text[from..to]` (a segment of more than [`MAX_SEGMENT_TOKENS`] tokens) so that no
/// piece is longer than [`SPLIT_BYTES`]: `(exact, forced)`, ascending. Greedy: from each cut, the last piece
/// boundary of both pre-tokenizers (a [`plain_letter`] followed by a [`breaks_word`] character, or by a `'` that
/// cannot start a contraction) within
/// [`SPLIT_BYTES`] bytes, else a forced cut at the last char boundary within them.
pub fn split_segment(text: &str, from: usize, to: usize) -> (Vec<usize>, Vec<usize>) {
    let (mut exact, mut forced) = (Vec::new(), Vec::new());
    let Some(seg) = text.get(from..to) else { return (exact, forced) };
    // Piece boundaries of the segment, relative to `from`.
    let mut bounds = Vec::new();
    let mut prev: Option<char> = None;
    let mut chars = seg.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        // `'` too, unless it may start a contraction (`'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d`), which o200k
        // joins to the word before it.
        let quote = c == '\''
            && chars
                .peek()
                .is_none_or(|&(_, n)| !matches!(n.to_ascii_lowercase(), 's' | 't' | 'r' | 'v' | 'm' | 'l' | 'd'));
        if prev.is_some_and(plain_letter) && (breaks_word(c) || quote) {
            bounds.push(i);
        }
        prev = Some(c);
    }
    let mut pos = 0;
    while seg.len() - pos > SPLIT_BYTES {
        let limit = pos + SPLIT_BYTES;
        let next = bounds.partition_point(|&b| b <= limit);
        match next.checked_sub(1).map(|j| bounds[j]).filter(|&b| b > pos) {
            Some(b) => {
                exact.push(from + b);
                pos = b;
            }
            None => {
                let mut at = limit;
                while !seg.is_char_boundary(at) {
                    at -= 1;
                }
                forced.push(from + at);
                pos = at;
            }
        }
    }
    (exact, forced)
}

/// Byte offsets (ascending, never 0 or `text.len()`) where both o200k_base's and cl100k_base's pre-tokenizer
/// regexes must start a new piece, so no token spans them:
///
/// - the start of a line after `\n`, unless the line is blank (`\s*[\r\n]+` takes runs of newlines and the
///   whitespace between them) or starts with `/` (o200k's punctuation piece ` ?[^\s\p{L}\p{N}]+[\r\n/]*` takes
///   the newline *and* following slashes, as in `;\n//`);
/// - inside lines longer than [`LONG_SEGMENT_BYTES`], at most one every 256 bytes: the position after a
///   letter or digit followed by an ASCII space or ASCII punctuation other than `'` (a letter or number piece ends
///   at the first character that is neither, and `'` may start a contraction such as `'s`).
pub fn cut_points(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut last = 0;
    for p in crate::line_index::line_starts(text)
        .filter(|&p| p < text.len() && clean_line_start(&text[p..]))
        .chain([text.len()])
    {
        if p - last > LONG_SEGMENT_BYTES {
            out.extend(word_cuts(text, last, p));
        }
        if p < text.len() {
            out.push(p);
        }
        last = p;
    }
    out
}

/// Whether the line `line` starts with is neither blank (only whitespace, `char::is_whitespace`, as `trim` takes)
/// nor starts with `/`. Looks at the line's characters until the first that is not whitespace, which for most lines
/// is the first: finding each line's end first and trimming it was two thirds of `cut_points` (4.1 M instructions
/// of a 230 KB document, every `doc --detail full` of Semi's `table`).
fn clean_line_start(line: &str) -> bool {
    let first = line.as_bytes()[0];
    first != b'/' && line.chars().take_while(|&c| c != '\n').any(|c| !c.is_whitespace())
}

/// Cut points strictly inside `text[from..to]`, at least 256 bytes apart (see [`cut_points`]).
fn word_cuts(text: &str, from: usize, to: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut last = from;
    let mut prev: Option<char> = None;
    for (i, c) in text[from..to].char_indices() {
        let at = from + i;
        let ends_word =
            prev.is_some_and(char::is_alphanumeric) && (c == ' ' || (c.is_ascii_punctuation() && c != '\''));
        if ends_word && at - last >= 256 && to - at >= 64 {
            out.push(at);
            last = at;
        }
        prev = Some(c);
    }
    out
}

/// Where the segments of a [`TokenMap`] end, with cumulative counts: `ends[i]` is the byte offset where segment `i`
/// ends, `cum[i]` the tokens of segments `0..=i`.
pub struct Cuts {
    ends: Vec<usize>,
    /// Cumulative counts, with one token of slack added at each forced cut.
    cum: Vec<u64>,
    /// The forced cuts (ascending): a count over a range that reaches past one is an upper bound.
    forced: Vec<usize>,
    /// The text's lines, for line numbers in O(log n).
    lines: LineIndex,
}

impl Cuts {
    /// The segments of `text` ([`cut_points`]) with their counts from `map`; `None` when the map does not have
    /// one count per segment (a bundle built with another cut rule, or damaged).
    /// The map's `extra` and `forced` cut points must be char boundaries strictly inside the text.
    pub fn new(text: &str, map: &TokenMap) -> Option<Cuts> {
        let inside = |o: &u32| (*o as usize) > 0 && (*o as usize) < text.len() && text.is_char_boundary(*o as usize);
        if !map.extra.iter().all(inside) || !map.forced.iter().all(inside) {
            return None;
        }
        let forced: Vec<usize> = map.forced.iter().map(|&o| o as usize).collect();
        // The cut points (ascending) merged with the map's own (sorted here; few): collecting all into one vector
        // and sorting it cost half of a whole-document `Cuts::new`.
        let points = cut_points(text);
        let mut more: Vec<usize> = map.extra.iter().map(|&o| o as usize).chain(forced.iter().copied()).collect();
        more.sort_unstable();
        let mut ends = Vec::with_capacity(points.len() + more.len() + 1);
        let (mut a, mut b) = (points.iter().peekable(), more.iter().peekable());
        while let Some(&next) = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if y < x => b.next(),
            (Some(_), _) => a.next(),
            (None, _) => b.next(),
        } {
            ends.push(next);
        }
        ends.push(text.len());
        ends.retain(|&e| e > 0);
        let before = ends.len();
        ends.dedup();
        if ends.len() != before || ends.len() != map.tokens.len() || !forced.is_sorted() {
            return None;
        }
        let mut total = 0u64;
        let mut cum = Vec::with_capacity(ends.len());
        for (end, t) in ends.iter().zip(&map.tokens) {
            total += u64::from(*t) + u64::from(forced.binary_search(end).is_ok());
            cum.push(total);
        }
        Some(Cuts { ends, cum, forced, lines: LineIndex::new(text) })
    }

    /// Byte offset where 1-based `line` starts; the text's end for lines past the last (so `line_start(n + 1)`
    /// ends line `n`, newline included).
    pub fn line_start(&self, line: u32) -> usize {
        self.lines.start(line)
    }

    /// The 1-based line of byte `at` (lines counted as `split('\n')`).
    pub fn line_at(&self, at: usize) -> u32 {
        self.lines.line_of(at)
    }

    /// Length of the text the map describes, in bytes.
    pub fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Whether the map describes an empty text.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tokens before byte `at`, and whether `at` is a cut point (else the count includes the whole segment `at`
    /// falls in, an upper bound).
    fn before(&self, at: usize, round_up: bool) -> (u64, bool) {
        if at == 0 {
            return (0, true);
        }
        // The first segment ending at or after `at`.
        let i = self.ends.partition_point(|&e| e < at);
        match self.ends.get(i) {
            Some(&e) if e == at => (self.cum[i], true),
            Some(_) => {
                let whole = if round_up { self.cum[i] } else { i.checked_sub(1).map_or(0, |j| self.cum[j]) };
                (whole, false)
            }
            None => (self.cum.last().copied().unwrap_or(0), true),
        }
    }

    /// Tokens of `text[start..end]`: exact when both ends are cut points, else the tokens of the whole segments
    /// around it (an upper bound), with `false`.
    pub fn tokens(&self, start: usize, end: usize) -> (u32, bool) {
        let (a, exact_a) = self.before(start, false);
        let (b, exact_b) = self.before(end, true);
        // A forced cut in (start, end]: its slack is in the count, which is then an upper bound.
        let crosses_forced = self.forced.get(self.forced.partition_point(|&f| f <= start)).is_some_and(|&f| f <= end);
        (u32::try_from(b.saturating_sub(a)).unwrap_or(u32::MAX), exact_a && exact_b && !crosses_forced)
    }

    /// The end of the longest part of `text[start..end]` that fits `budget` tokens: a cut point (or `end`).
    /// Always makes progress: when even the first segment is over the budget, the part is that segment alone
    /// (a single line longer than the budget, which only unsplittable text of thousands of bytes can be).
    pub fn fit(&self, start: usize, end: usize, budget: u32) -> usize {
        if self.tokens(start, end).0 <= budget {
            return end;
        }
        let (base, _) = self.before(start, false);
        let limit = base + u64::from(budget);
        // Last cut point in (start, end) whose cumulative count is within the limit.
        let first = self.ends.partition_point(|&e| e <= start);
        let last = self.ends.partition_point(|&e| e < end);
        let within = self.cum[first..last].partition_point(|&c| c <= limit);
        match within {
            0 => self.ends.get(first).copied().unwrap_or(end).min(end),
            n => self.ends[first + n - 1],
        }
    }

    /// Whether byte `at` is a cut point (or an end of the text).
    pub fn is_cut(&self, at: usize) -> bool {
        at == 0 || self.ends.binary_search(&at).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_line_start_is_a_line_that_trims_to_something() {
        let lines = [
            "a",
            " a",
            "\t\t",
            "   \n  x",
            "\r\n",
            "\r",
            "\u{3000}\u{3000}",
            "\u{3000}表",
            "\u{a0}\n",
            "\u{85}x",
            "/x",
            " /x",
            "\u{feff}",
            "\u{200b}",
            "  \u{2028}  \nz",
            "é",
            "\n",
        ];
        for line in lines {
            let trimmed = line.as_bytes()[0] != b'/' && line.split('\n').next().is_some_and(|l| !l.trim().is_empty());
            assert_eq!(clean_line_start(line), trimmed, "{line:?}");
        }
        // Cut points of lines like those, and a map's cut points out of order: as before, sorted and deduplicated.
        let text = lines.join("\n");
        let ends: Vec<usize> = cut_points(&text);
        assert!(ends.is_sorted() && ends.windows(2).all(|w| w[0] < w[1]), "{ends:?}");
        let extra: Vec<u32> = vec![3, 1];
        let mut all: Vec<usize> = ends.iter().copied().chain([1, 3, text.len()]).collect();
        all.sort_unstable();
        all.dedup();
        let map = TokenMap { tokens: vec![1; all.len()], extra, forced: vec![] };
        let cuts = Cuts::new(&text, &map).expect("the map fits");
        assert_eq!(cuts.ends, all);
        assert_eq!(cuts.tokens(0, text.len()), (all.len() as u32, true));
    }

    /// A text of lines of the given byte lengths (newline included), with the given token counts.
    fn text_of(segments: &[(usize, u32)]) -> (String, TokenMap) {
        let text = segments.iter().map(|&(len, _)| format!("{}\n", "x".repeat(len - 1))).collect();
        (text, TokenMap { tokens: segments.iter().map(|s| s.1).collect(), ..TokenMap::default() })
    }

    #[test]
    fn fit_ends_on_cut_points_within_budget() {
        // Segments of 10, 20, 30 bytes with 5, 7, 9 tokens: ends 10, 30, 60; cumulative 5, 12, 21.
        let (text, map) = text_of(&[(10, 5), (20, 7), (30, 9)]);
        let cuts = Cuts::new(&text, &map).unwrap();
        assert!(
            Cuts::new(&text, &TokenMap { tokens: vec![5, 7], ..TokenMap::default() }).is_none(),
            "one count per segment"
        );
        assert_eq!(cuts.len(), 60);
        assert_eq!(cuts.tokens(0, 60), (21, true));
        assert_eq!(cuts.tokens(10, 30), (7, true));
        assert_eq!(cuts.tokens(15, 30), (7, false), "inside a segment: the whole segment, flagged");
        assert_eq!(cuts.fit(0, 60, 100), 60);
        assert_eq!(cuts.fit(0, 60, 12), 30);
        assert_eq!(cuts.fit(0, 60, 11), 10);
        assert_eq!(cuts.fit(10, 60, 16), 60);
        assert_eq!(cuts.fit(10, 60, 15), 30);
        assert_eq!(cuts.fit(0, 60, 1), 10, "a segment over the budget is served alone");
        assert_eq!(cuts.fit(0, 20, 1), 10);
        assert!(cuts.is_cut(30) && !cuts.is_cut(31));
        assert_eq!((cuts.line_start(1), cuts.line_start(2), cuts.line_start(3), cuts.line_start(4)), (0, 10, 30, 60));
        assert_eq!((cuts.line_at(0), cuts.line_at(10), cuts.line_at(59)), (1, 2, 3));
    }
}
