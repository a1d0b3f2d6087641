//! Names the caller gave: echoed safely ([`echo`]), normalised ([`resolve_dots`]), and matched against what
//! exists for did-you-mean messages ([`closest`], [`nearest`], [`similarity`]).

/// Longest name, path or query part looked up by similarity, in chars; longer ones are echoed shortened.
pub const MAX_NAME_CHARS: usize = 256;

/// `s` (a name, path, version or other argument the caller gave) for a message that echoes it: at most 80 chars of
/// it, with `…` when cut (a 1 MB argument is not echoed back), and every control character (a newline, a tab, an
/// escape sequence's ESC) and bidirectional-text control written as Rust's `escape_debug` writes it (`\n`, `\t`,
/// `\u{1b}`, `\u{202e}`), so an echoed argument is one line that cannot rewrite the terminal or the text around
/// it. Quotes and backslashes are kept as given. The one helper every echo of user input goes through.
pub fn echo(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(320));
    for (i, c) in s.chars().enumerate() {
        if i == 79 && s.chars().nth(80).is_some() {
            out.push('…');
            break;
        }
        if crate::escape::is_unsafe(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A repository-relative `path` with its `.` and empty segments dropped and each `..` taking away the segment
/// before it, lexically (the file system is never asked: `a/link/../b` is `a/b` whatever `link` is); `None` when
/// a `..` climbs above the root (`../x`, `a/../../x`).
pub(crate) fn resolve_dots(path: &str) -> Option<String> {
    let mut kept: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                kept.pop()?;
            }
            name => kept.push(name),
        }
    }
    Some(kept.join("/"))
}

/// How many component names an unknown-component error lists when none is close (TRIAL item 19).
pub const FIRST_NAMES: usize = 10;

/// `a, b and 7 more (list them with …)`: the first names of a list of `known`, and where the rest are (`call`, the
/// call that lists them).
pub(crate) fn first_names(first: &[String], known: usize, call: &str) -> String {
    let list = format!("list them with {call}");
    match known.saturating_sub(first.len()) {
        0 if !first.is_empty() => first.join(", "),
        0 => format!("({list})"),
        more => format!("{} and {more} more ({list})", first.join(", ")),
    }
}

/// `104 components and 21 guides` (`104 components` when there is no guide): what a set names as components,
/// counted truthfully (guides are looked up by name too, but are no components).
pub(crate) fn entries(components: u32, guides: u32) -> String {
    let c = crate::units::plural(components, "component");
    if guides == 0 { c } else { format!("{c} and {}", crate::units::plural(guides, "guide")) }
}

pub(super) fn suggest(s: &[String]) -> String {
    if s.is_empty() { String::new() } else { format!("; did you mean: {}?", s.join(", ")) }
}

/// The closest `max` candidates to `query`, for did-you-mean messages: substring matches first, then by normalized
/// Damerau-Levenshtein similarity above 0.5, comparing with the whole candidate and with its last segment (after
/// the last `.` or `/`), so `rendr` finds `Table.render` and `table.tsx` finds `src/components/Table/Table.tsx`.
pub fn closest<'a>(query: &str, candidates: impl IntoIterator<Item = &'a str>, max: usize) -> Vec<String> {
    // Edit distance is quadratic: a name longer than any real one gets no suggestions rather than a slow answer.
    if query.chars().count() > MAX_NAME_CHARS {
        return vec![];
    }
    let q = query.to_lowercase();
    let score = |l: &str| {
        let sim = strsim::normalized_damerau_levenshtein(&q, l);
        // A candidate holding the query comes first. One inside the query counts only when it is a good part of
        // it (the tail `ts` of every path is inside any `….ts` query), and less than a whole name one letter off
        // (`TableFoundation.init` inside `TableFoundation.initSorterOrdr` came before `…initSorterOrder`: trial 5).
        let inside = l.len() * 2 >= q.len() && q.contains(l);
        if q.is_empty() {
            sim
        } else if l.contains(&q) {
            1.0 + sim
        } else if inside {
            0.25 + sim
        } else {
            sim
        }
    };
    let mut scored: Vec<(f64, &str)> = candidates
        .into_iter()
        .map(|c| {
            let l = c.to_lowercase();
            let tail = l.rsplit(['.', '/']).next().unwrap_or(&l);
            (score(&l).max(score(tail)), c)
        })
        .filter(|(s, _)| *s > 0.5)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(max).map(|(_, c)| c.to_string()).collect()
}

/// The `max` candidates nearest to `query` by spelling, for an unknown name's error: always `max` of them (when
/// there are that many), never the first ones in list order. A candidate equal but for case comes first, then those
/// holding the query or held by it, then by Damerau-Levenshtein distance (case ignored), then by name.
pub fn nearest<'a>(query: &str, candidates: impl IntoIterator<Item = &'a str>, max: usize) -> Vec<String> {
    let q: String = query.to_lowercase().chars().take(MAX_NAME_CHARS).collect();
    let mut scored: Vec<(u8, usize, &str)> = candidates
        .into_iter()
        .map(|c| {
            let l = c.to_lowercase();
            let class = if l == q {
                0
            } else if !q.is_empty() && (l.contains(&q) || q.contains(&l)) {
                1
            } else {
                2
            };
            (class, strsim::damerau_levenshtein(&q, &l), c)
        })
        .collect();
    scored.sort_unstable_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
    scored.dedup_by(|a, b| a.2 == b.2);
    scored.into_iter().take(max).map(|(_, _, c)| c.to_string()).collect()
}

/// How close `candidate` is to `query`, for ordering the names an unknown-name error lists (best first, so that a
/// list cut to fit the budget keeps the nearest): the best normalized Damerau-Levenshtein similarity of the whole
/// query or one of its words to the whole candidate, to its last segment (after the last `.` or `/`) or to one of
/// its words (words split on anything but letters and digits: `filtr` is near `Custom Filter Rendering`), plus 1
/// when the candidate contains the query; a small share of the whole query's similarity to the whole candidate breaks ties
/// between candidates sharing a word. Case is ignored; 0 for an empty query or one over [`MAX_NAME_CHARS`].
pub fn similarity(query: &str, candidate: &str) -> f64 {
    let q = query.trim().to_lowercase();
    if q.is_empty() || q.chars().count() > MAX_NAME_CHARS {
        return 0.0;
    }
    let c = candidate.to_lowercase();
    let whole = strsim::normalized_damerau_levenshtein(&q, &c);
    let words = |s: &str| {
        s.split(|ch: char| !ch.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect::<Vec<_>>()
    };
    let mut theirs = words(&c);
    theirs.push(c.rsplit(['.', '/']).next().unwrap_or(&c).to_string());
    let mut ours = words(&q);
    ours.push(q.clone());
    let best = ours
        .iter()
        .flat_map(|o| theirs.iter().map(move |t| strsim::normalized_damerau_levenshtein(o, t)))
        .fold(whole, f64::max);
    // A name holding the query is what was asked for, partly written. A name inside a longer query (`…init` inside
    // `…initSorterOrdr`) gets no bonus: its words already count in `best`, and the whole name one letter off must
    // come first (trial 5 listed the prefix first).
    let inside = c.contains(&q);
    best + f64::from(u8::from(inside)) + whole / 8.0
}

/// The [`similarity`] under which a name is not near at all: such names keep their order, after the near ones
/// (a query like `nope` leaves a list in its own order).
pub(super) const NEAR: f64 = 0.5;

/// `names` nearest to `query` first ([`similarity`]), joined with `, `: the languages an unknown-language error
/// names.
pub(crate) fn nearest_first<S: AsRef<str>>(query: &str, names: impl IntoIterator<Item = S>) -> String {
    let mut names: Vec<S> = names.into_iter().collect();
    by_similarity(&[query], &mut names, |n| n.as_ref());
    names.iter().map(AsRef::as_ref).collect::<Vec<&str>>().join(", ")
}

/// `items` ordered by [`similarity`] of `key(item)` to the nearest of `queries`, best first; ties keep their order.
pub(super) fn by_similarity<T>(queries: &[&str], items: &mut [T], key: impl Fn(&T) -> &str) {
    // A stable sort by a fixed-point key (scores are at most 2.125).
    items.sort_by_cached_key(|t| {
        let score = queries.iter().map(|q| similarity(q, key(t))).fold(0.0, f64::max);
        std::cmp::Reverse(if score < NEAR { 0 } else { (score * 1e9) as i64 })
    });
}
