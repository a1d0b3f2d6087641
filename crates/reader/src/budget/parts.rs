//! Serving a text in parts: [`serve`] takes the longest run of whole segments within a budget from an offset,
//! never ending silently inside a fence, and says where the next part starts.

use serde::Serialize;

use super::cut::Cuts;

/// A fenced block of the served text, so a part never ends inside one silently: byte span and what to write when
/// a part closes or reopens it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// Block number in its document.
    pub index: u32,
    /// Byte range of the block (opening fence line to the end of the closing fence).
    pub start: usize,
    /// End of the closing fence (exclusive).
    pub end: usize,
}

/// One part of a text served under a budget.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Part {
    /// The text served: exact bytes of the stored text, the parts of several ranges joined.
    #[serde(skip)]
    pub text: String,
    /// Tokens of `text` (exact unless `tokens_exact` is false: see [`Cuts::tokens`]); `served_tokens` in JSON,
    /// beside the `tokens` of the whole block or function for those lookups.
    #[serde(rename = "served_tokens")]
    pub tokens: u32,
    /// Whether `tokens` is exact: false only for line ranges that start or end inside a segment.
    pub tokens_exact: bool,
    /// First and last line served, 1-based, in the text the lines belong to (the document, its placeholder view,
    /// the file, the changelog file).
    #[serde(rename = "served_lines")]
    pub lines: (u32, u32),
    /// What was left out, when the part was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<Rest>,
    /// The block the part ends inside (its fence is closed in the text form and reopened by the next part).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_in_block: Option<u32>,
    /// The block the part starts inside (continued from the previous part).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_in_block: Option<u32>,
    /// Offset the next part starts at, in the joined ranges (for the cursor).
    #[serde(skip)]
    pub next_offset: Option<u32>,
    /// The opening fence line of the block the part starts inside, to reopen it in the text form.
    #[serde(skip)]
    pub reopen: Option<String>,
    /// The fence that closes the block the part ends inside, for the text form.
    #[serde(skip)]
    pub close: Option<String>,
    /// The call's own `max_tokens`, which the continuation call repeats.
    #[serde(skip)]
    pub max_tokens: Option<u32>,
    /// Lines of the text the part belongs to (the document, its placeholder view, the file, the page).
    pub text_lines: u32,
    /// Where the part starts in the joined ranges, in bytes: 0 for a first part.
    #[serde(skip)]
    pub offset: u32,
    /// Whether the answer echoes less (`render::fitted`, when the names it repeats leave no room otherwise): a
    /// short header, a short continuation, and only the structured fields `render::TERSE_FIELDS` keeps.
    #[serde(skip)]
    pub terse: bool,
}

/// The opening fence line of `fence` in `text`, and the fence run that closes it (` ``` `, `~~~~`), without the
/// container prefix (indentation, `>`, list markers).
fn fence_lines(text: &str, fence: &Fence) -> (String, String) {
    let first = text.get(fence.start..fence.end).and_then(|t| t.split('\n').next()).unwrap_or("");
    let first = first.trim_end_matches('\r');
    let body = first.trim_start_matches(|c: char| !matches!(c, '`' | '~'));
    let run: String = body.chars().take_while(|&c| c == body.chars().next().unwrap_or('`')).collect();
    (body.to_string(), if run.is_empty() { "```".into() } else { run })
}

/// What a cut part left for later parts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Rest {
    /// Tokens not served yet.
    pub tokens: u32,
    /// Lines not served yet.
    pub lines: u32,
}

/// Serves `ranges` of `text` (byte ranges, in order, joined) from `offset` (into the joined ranges) within `budget`
/// tokens of content: the longest run of whole segments that fits, at least one segment. A part that would end
/// inside a fence ends before the fence instead when `whole` says a part of the call's budget serves that fence
/// whole; otherwise, and when the fence starts the part, it ends inside (and says so): ending before a block that
/// the next part cuts anyway only spends a call (Semi's `table --section 基本表格` served 46 tokens at 400–1,200).
/// Never panics: ranges are clamped to the text and to char boundaries the map cuts at.
pub fn serve(
    text: &str,
    cuts: &Cuts,
    ranges: &[(usize, usize)],
    offset: u32,
    budget: u32,
    fences: &[Fence],
    whole: &dyn Fn(&Fence) -> bool,
) -> Part {
    let ranges = clamp_ranges(text, ranges);
    let line_at = |at: usize| cuts.line_at(at);
    let mut part = Part { tokens_exact: true, text_lines: line_at(text.len()), offset, ..Part::default() };
    // Where `offset` falls: nothing is served from inside a character.
    let Some((mut i, mut cur)) = locate(&ranges, offset).filter(|&(_, at)| text.is_char_boundary(at)) else {
        return part;
    };
    if let Some(f) = fences.iter().find(|f| f.start < cur && cur < f.end) {
        part.starts_in_block = Some(f.index);
        part.reopen = Some(fence_lines(text, f).0);
    }
    part.lines.0 = line_at(cur);
    let mut left = budget;
    let mut served = offset as usize;
    let mut first_piece = true;
    while let Some(&(_, end)) = ranges.get(i) {
        let mut stop = cuts.fit(cur, end, left);
        let (t, _) = cuts.tokens(cur, stop);
        if !first_piece && t > left {
            stop = cur; // the next range does not fit at all
        }
        if stop < end && stop > cur {
            // Not inside a fence that a part can serve whole, unless the fence began before this part's own start.
            if let Some(f) = fences.iter().find(|f| f.start < stop && stop < f.end)
                && f.start > cur
                && cuts.is_cut(f.start)
                && whole(f)
            {
                stop = f.start;
            }
        }
        if stop > cur {
            let Some(piece) = text.get(cur..stop) else {
                return part; // unreachable: ranges and cut points are char boundaries of `text`
            };
            let (tokens, exact) = cuts.tokens(cur, stop);
            part.text.push_str(piece);
            part.tokens += tokens;
            part.tokens_exact &= exact;
            part.lines.1 = line_at(stop.saturating_sub(1).max(cur));
            left = left.saturating_sub(tokens);
            served += stop - cur;
        }
        first_piece = false;
        if stop < end {
            if let Some(f) = fences.iter().find(|f| f.start < stop && stop < f.end) {
                part.ends_in_block = Some(f.index);
                part.close = Some(fence_lines(text, f).1);
            }
            let mut rest = Rest { tokens: cuts.tokens(stop, end).0, lines: line_at(end - 1) - line_at(stop) + 1 };
            for &(a, b) in &ranges[i + 1..] {
                rest.tokens += cuts.tokens(a, b).0;
                rest.lines += line_at(b.saturating_sub(1).max(a)) - line_at(a) + 1;
            }
            part.cut = Some(rest);
            part.next_offset = Some(served as u32);
            return part;
        }
        i += 1;
        if let Some(&(next, _)) = ranges.get(i) {
            cur = next;
        }
    }
    part
}

/// `ranges` clamped to `text` and to its char boundaries (rounded down), empty ones dropped.
fn clamp_ranges(text: &str, ranges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let floor = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    ranges.iter().map(|&(a, b)| (floor(a), floor(b))).filter(|(a, b)| a < b).collect()
}

/// Where `offset` (into the joined `ranges`) falls: the range's index and the byte offset in the text; `None` past
/// the end.
fn locate(ranges: &[(usize, usize)], offset: u32) -> Option<(usize, usize)> {
    let mut skip = offset as usize;
    for (i, &(a, b)) in ranges.iter().enumerate() {
        if skip < b - a {
            return Some((i, a + skip));
        }
        skip -= b - a;
    }
    None
}

/// Whether `offset` (into the joined `ranges` of `text`) is where a part can start: inside the ranges, on a char
/// boundary, and at a cut point or the start of a range. Cursors this reader wrote always are; anything else
/// (an edited cursor with a recomputed checksum) is refused before serving.
pub fn valid_offset(text: &str, cuts: &Cuts, ranges: &[(usize, usize)], offset: u32) -> bool {
    let ranges = clamp_ranges(text, ranges);
    locate(&ranges, offset).is_some_and(|(i, at)| {
        text.is_char_boundary(at) && (cuts.is_cut(at) || ranges.get(i).is_some_and(|r| r.0 == at))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::model::TokenMap;

    /// A text of one-token lines `L1\n` … with a fence over lines 4–6.
    fn lines(n: usize) -> (String, Cuts) {
        let text: String = (1..=n).map(|i| format!("L{i}\n")).collect();
        let map = TokenMap { tokens: vec![1; n], ..TokenMap::default() };
        let cuts = Cuts::new(&text, &map).unwrap();
        (text, cuts)
    }

    #[test]
    fn parts_rejoin_the_text_exactly() {
        let (text, cuts) = lines(12);
        let fences = [Fence { index: 1, start: text.find("L4").unwrap(), end: text.find("L7").unwrap() - 1 }];
        let mut joined = String::new();
        let mut offset = 0;
        let mut parts = Vec::new();
        loop {
            let part = serve(&text, &cuts, &[(0, text.len())], offset, 4, &fences, &|_| true);
            joined.push_str(&part.text);
            parts.push(part.clone());
            match part.next_offset {
                Some(next) => offset = next,
                None => break,
            }
        }
        assert_eq!(joined, text);
        // L1–L3 (the fence starting at L4 would not fit whole), L4–L7, L8–L11, L12.
        let spans: Vec<(u32, u32)> = parts.iter().map(|p| p.lines).collect();
        assert_eq!(spans, vec![(1, 3), (4, 7), (8, 11), (12, 12)]);
        assert_eq!(parts[0].cut, Some(Rest { tokens: 9, lines: 9 }));
        assert_eq!(parts[0].ends_in_block, None, "cut before the fence, not inside");
        assert!(parts.iter().all(|p| p.tokens <= 4));
    }

    #[test]
    fn a_part_fills_into_a_fence_no_part_serves_whole() {
        let (text, cuts) = lines(12);
        let fences = [Fence { index: 1, start: text.find("L4").unwrap(), end: text.find("L7").unwrap() - 1 }];
        let first = serve(&text, &cuts, &[(0, text.len())], 0, 4, &fences, &|_| false);
        assert_eq!((first.text.as_str(), first.ends_in_block), ("L1\nL2\nL3\nL4\n", Some(1)));
        let second = serve(&text, &cuts, &[(0, text.len())], first.next_offset.unwrap(), 4, &fences, &|_| false);
        assert_eq!((second.lines, second.starts_in_block), ((5, 8), Some(1)));
    }

    #[test]
    fn a_fence_longer_than_the_budget_is_cut_and_marked() {
        let (text, cuts) = lines(12);
        let fences = [Fence { index: 2, start: 0, end: text.find("L9").unwrap() - 1 }];
        let first = serve(&text, &cuts, &[(0, text.len())], 0, 3, &fences, &|_| true);
        assert_eq!(first.text, "L1\nL2\nL3\n");
        assert_eq!(first.ends_in_block, Some(2));
        let second = serve(&text, &cuts, &[(0, text.len())], first.next_offset.unwrap(), 3, &fences, &|_| true);
        assert_eq!(second.starts_in_block, Some(2));
        assert_eq!(
            (first.close.as_deref(), second.reopen.as_deref()),
            (Some("```"), Some("")),
            "no fence line: a bare one"
        );
        assert_eq!(second.lines, (4, 6));
    }

    #[test]
    fn several_ranges_are_joined() {
        let (text, cuts) = lines(10);
        let a = (text.find("L2").unwrap(), text.find("L4").unwrap());
        let b = (text.find("L7").unwrap(), text.find("L9").unwrap());
        let whole = serve(&text, &cuts, &[a, b], 0, 100, &[], &|_| true);
        assert_eq!(whole.text, "L2\nL3\nL7\nL8\n");
        assert_eq!((whole.tokens, whole.cut.clone(), whole.next_offset), (4, None, None));
        let first = serve(&text, &cuts, &[a, b], 0, 3, &[], &|_| true);
        assert_eq!(first.text, "L2\nL3\nL7\n");
        assert_eq!(first.cut, Some(Rest { tokens: 1, lines: 1 }));
        let rest = serve(&text, &cuts, &[a, b], first.next_offset.unwrap(), 3, &[], &|_| true);
        assert_eq!(rest.text, "L8\n");
        assert_eq!(
            serve(&text, &cuts, &[a, b], 99, 3, &[], &|_| true).text,
            "",
            "an offset past the end serves nothing"
        );
    }
}
