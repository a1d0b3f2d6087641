//! The scripted agent policies (issue 27): deterministic programs, no model, each answering a task with the calls
//! an agent of its kind makes, and stopping as soon as every fact of the task is in what it was given.
//!
//! - `ours`: `search_docs` with the question, then the follow-up call of the best hit, then of the next ones (at
//!   most three), every call at its default budget;
//! - `ours+card`: the component's card (`component_details`, `detail="brief"`) first, then as `ours`;
//! - `files`: an agent with only grep and a file reader: grep the repository for the question's words, read the
//!   best file whole, then the next one;
//! - `semi-rules`: the Semi Design MCP server's rules: no search (the agent names the component), the document whole
//!   below 888 lines, else with its code blocks hidden and read one by one; the changelog in 300-line pages.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::mcp::{Answer, Server};
use super::tasks::{Kind, Task};

/// The policies, in the order the report lists them.
pub const POLICIES: [&str; 4] = ["ours", "ours+card", "files", "semi-rules"];

/// Follow-up calls `ours` makes at most after its search.
const FOLLOW_UPS: usize = 3;
/// Files the `files` policy reads at most.
const FILES_READ: usize = 2;
/// Code blocks the `semi-rules` policy reads at most after a document whose blocks were hidden.
const SEMI_BLOCKS: usize = 6;
/// Changelog pages the `semi-rules` policy reads at most.
const SEMI_PAGES: usize = 10;
/// Semi's rule: a document of at least this many lines is served with its code blocks hidden.
const SEMI_HIDE_LINES: usize = 888;

/// How one policy did on one task.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Every fact was in what the agent was given.
    pub solved: bool,
    /// Tokens of everything the agent was given (o200k_base).
    pub tokens: usize,
    /// Calls made (tool calls; for `files`, the grep and each file read).
    pub calls: usize,
    /// Why it failed, when it did.
    pub reason: Option<String>,
}

/// What an agent has read so far for one task.
struct Context<'a> {
    task: &'a Task,
    /// Print every call and what it gave (`cargo xtask eval --show ID`).
    show: bool,
    bpe: &'a tiktoken_rs::CoreBPE,
    read: String,
    tokens: usize,
    calls: usize,
}

/// `text` as content: every run of whitespace made one space, code spans' backticks and Markdown's backslash
/// escapes dropped, so that a fact matches across line breaks, indentation and the way a table was written (a
/// props table the compiler rebuilt from the sources has no backticks where the document's had them).
fn squash(text: &str) -> String {
    let plain: String = text.chars().filter(|&c| c != '`' && c != '\\').collect();
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl<'a> Context<'a> {
    fn new(task: &'a Task, bpe: &'a tiktoken_rs::CoreBPE, show: bool) -> Self {
        Context { task, show, bpe, read: String::new(), tokens: 0, calls: 0 }
    }

    /// Counts one call, `what`, that gave `text`.
    fn give(&mut self, what: &str, text: &str) {
        if self.show {
            eprintln!("──── {} call {}: {what}\n{text}", self.task.id, self.calls + 1);
        }
        self.calls += 1;
        self.tokens += self.bpe.encode_ordinary(text).len();
        self.read.push('\n');
        self.read.push_str(&squash(text));
    }

    fn solved(&self) -> bool {
        self.task.facts.iter().all(|f| self.read.contains(&squash(f)))
    }

    fn outcome(self, reason: impl FnOnce() -> String) -> Outcome {
        let solved = self.solved();
        Outcome { solved, tokens: self.tokens, calls: self.calls, reason: (!solved).then(reason) }
    }
}

/// The `lang` argument for a task's language (`en-US`, `zh-CN`: the tags the real inputs use; a set whose tags
/// differ answers without it, see [`call_in_lang`]).
fn lang_arg(task: &Task) -> Option<&'static str> {
    Some(if task.lang == "zh" { "zh-CN" } else { "en-US" })
}

/// Calls `tool` with `args` plus the task's language; when the component has no document in that language, calls
/// again without it (what an agent does after the error).
fn call_in_lang(server: &mut Server, task: &Task, tool: &str, mut args: Value) -> anyhow::Result<Answer> {
    if let (Some(lang), Some(map)) = (lang_arg(task), args.as_object_mut()) {
        let mut with = map.clone();
        with.insert("lang".into(), json!(lang));
        let answer = server.call(tool, Value::Object(with))?;
        if !answer.is_error {
            return Ok(answer);
        }
    }
    server.call(tool, args)
}

/// `ours` and `ours+card`.
pub fn ours(
    server: &mut Server,
    bpe: &tiktoken_rs::CoreBPE,
    task: &Task,
    card: bool,
    show: bool,
) -> anyhow::Result<Outcome> {
    let mut cx = Context::new(task, bpe, show);
    if card && let Some(component) = &task.component {
        let answer =
            call_in_lang(server, task, "component_details", json!({ "component": component, "detail": "brief" }))?;
        cx.give("component_details(detail=\"brief\")", &answer.text);
    }
    let search = server.call("search_docs", json!({ "query": task.question }))?;
    cx.give("search_docs", &search.text);
    let hits: Vec<Value> = search.structured.get("hits").and_then(Value::as_array).cloned().unwrap_or_default();
    let hit_components: Vec<String> =
        hits.iter().filter_map(|h| h.get("component").and_then(Value::as_str).map(str::to_lowercase)).collect();
    let mut made = std::collections::BTreeSet::new();
    let mut cut = false;
    for hit in &hits {
        if cx.solved() || made.len() == FOLLOW_UPS {
            break;
        }
        let Some(follow) = hit.get("follow_up") else { continue };
        let (Some(tool), Some(args)) = (follow.get("tool").and_then(Value::as_str), follow.get("arguments")) else {
            continue;
        };
        if !made.insert(format!("{tool}{args}")) {
            continue;
        }
        let answer = server.call(tool, args.clone())?;
        cut |= answer.structured.get("next_cursor").is_some_and(|c| !c.is_null());
        cx.give(&format!("{tool} {args}"), &answer.text);
    }
    let wanted = task.component.as_deref().map(str::to_lowercase);
    Ok(cx.outcome(|| match wanted {
        Some(c) if !hit_components.contains(&c) => format!("search missed: `{c}` is not among the hits"),
        _ if hits.is_empty() => "search missed: no hit".into(),
        _ if cut => "fact cut by the budget (an answer it read continues)".into(),
        _ => "fact not in the hits it followed".into(),
    }))
}

/// A repository's text files, read once per input for the `files` policy: path, text, lowercased text.
pub struct Repo {
    files: Vec<(PathBuf, String, String)>,
}

/// Extensions the `files` policy greps (what an agent greps in a design system: documents and sources).
const GREPPED: [&str; 8] = ["md", "mdx", "ts", "tsx", "js", "jsx", "vue", "json"];

impl Repo {
    /// Reads every grepped file of `root` that git would not ignore (the `ignore` crate's rules), up to 2 MB each.
    pub fn read(root: &Path) -> Repo {
        let mut files = Vec::new();
        for entry in ignore::WalkBuilder::new(root).build().filter_map(Result::ok) {
            let path = entry.path();
            let wanted = path.extension().and_then(|e| e.to_str()).is_some_and(|e| GREPPED.contains(&e));
            if !wanted || !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            if path.file_name().is_some_and(|n| n == "package-lock.json") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(path) else { continue };
            if text.len() > 2_000_000 {
                continue;
            }
            let lower = text.to_lowercase();
            let rel = path.strip_prefix(root).unwrap_or(path).to_path_buf();
            files.push((rel, text, lower));
        }
        files.sort_by(|a, b| a.0.cmp(&b.0));
        Repo { files }
    }

    /// The facts of `task` that occur in no file of the repository (as content, see [`squash`]): a task that
    /// names one is wrong, not the product.
    pub fn missing_facts<'t>(&self, task: &'t Task) -> Vec<&'t str> {
        task.facts
            .iter()
            .filter(|f| {
                let fact = squash(f);
                !self.files.iter().any(|(_, text, _)| squash(text).contains(&fact))
            })
            .map(String::as_str)
            .collect()
    }
}

/// Words too common to grep for.
const STOP: &[&str] = &[
    "the",
    "and",
    "for",
    "how",
    "what",
    "which",
    "does",
    "with",
    "from",
    "that",
    "this",
    "when",
    "can",
    "use",
    "set",
    "into",
    "its",
    "are",
    "was",
    "has",
    "have",
    "show",
    "get",
    "make",
    "give",
    "there",
    "where",
    "why",
    "who",
    "component",
    "components",
    "example",
    "default",
    "value",
    "since",
    "changed",
    "you",
    "your",
    "one",
];

/// The words an agent greps for: ASCII words of three letters or more outside [`STOP`], and the two-character
/// runs of Chinese text (Chinese has no spaces to split on).
fn keywords(question: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |w: String| {
        if !out.contains(&w) {
            out.push(w);
        }
    };
    for word in question.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-')) {
        let word = word.trim_matches(['.', '-']).to_lowercase();
        if word.len() >= 3 && !STOP.contains(&word.as_str()) {
            push(word);
        }
    }
    let cjk: Vec<char> = question.chars().collect();
    for pair in cjk.windows(2) {
        if pair.iter().all(|c| ('\u{4e00}'..='\u{9fff}').contains(c)) {
            push(pair.iter().collect());
        }
    }
    out
}

/// `files`.
pub fn files(repo: &Repo, bpe: &tiktoken_rs::CoreBPE, task: &Task, show: bool) -> Outcome {
    let mut cx = Context::new(task, bpe, show);
    let words = keywords(&task.question);
    // Score: distinct words matched first (the file that mentions everything), then log-weighted occurrences.
    let mut scored: Vec<(f64, usize)> = repo
        .files
        .iter()
        .enumerate()
        .filter_map(|(i, (_, _, lower))| {
            let counts: Vec<usize> = words.iter().map(|w| lower.matches(w.as_str()).count()).collect();
            let distinct = counts.iter().filter(|&&c| c > 0).count();
            (distinct > 0).then(|| {
                let weight: f64 = counts.iter().map(|&c| (1.0 + c as f64).ln()).sum();
                (distinct as f64 * 100.0 + weight, i)
            })
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    // The grep's own output: the best matching files with their counts, as `grep -c` lists them.
    let listing: Vec<String> =
        scored.iter().take(20).map(|&(s, i)| format!("{}: {:.0}", repo.files[i].0.display(), s)).collect();
    cx.give(&format!("grep {words:?}"), &listing.join("\n"));
    for &(_, i) in scored.iter().take(FILES_READ) {
        if cx.solved() {
            break;
        }
        cx.give(&format!("read {}", repo.files[i].0.display()), &repo.files[i].1);
    }
    let found = !scored.is_empty();
    cx.outcome(|| if found { "fact not in the files it read".into() } else { "grep found nothing".into() })
}

/// Semi's rule for a document: whole below [`SEMI_HIDE_LINES`] lines, else its fenced code blocks replaced by a
/// placeholder; returns the text and the hidden blocks.
fn semi_document(text: &str) -> (String, Vec<String>) {
    if text.lines().count() < SEMI_HIDE_LINES {
        return (text.to_string(), Vec::new());
    }
    let mut shown = String::new();
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        match &mut open {
            Some((fence, block)) => {
                if trimmed.starts_with(fence.as_str())
                    && trimmed.trim_start_matches(fence.chars().next().unwrap_or('`')).trim().is_empty()
                {
                    blocks.push(std::mem::take(block));
                    shown.push_str(&format!("[code block {} hidden]\n", blocks.len()));
                    open = None;
                } else {
                    block.push_str(line);
                    block.push('\n');
                }
            }
            None => {
                let fence: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
                if fence.len() >= 3 && fence.chars().all(|c| c == fence.chars().next().unwrap_or('`')) {
                    open = Some((fence, String::new()));
                } else {
                    shown.push_str(line);
                    shown.push('\n');
                }
            }
        }
    }
    if let Some((_, block)) = open {
        blocks.push(block);
    }
    (shown, blocks)
}

/// `semi-rules`.
pub fn semi_rules(
    server: &mut Server,
    repo_root: &Path,
    bpe: &tiktoken_rs::CoreBPE,
    task: &Task,
    show: bool,
) -> anyhow::Result<Outcome> {
    let mut cx = Context::new(task, bpe, show);
    if task.kind == Kind::Changelog {
        for page in 1..=SEMI_PAGES {
            if cx.solved() {
                break;
            }
            // One page of 300 lines, whole: Semi serves the page as it is, whatever its tokens; our cursor
            // continuations rebuild it byte for byte, so they are one call here.
            let mut text = String::new();
            let mut args = json!({ "page": page, "max_tokens": 10_000 });
            let mut answer = call_in_lang(server, task, "get_changelog", args.clone())?;
            if answer.is_error {
                break;
            }
            loop {
                text.push_str(answer.structured.get("text").and_then(Value::as_str).unwrap_or(&answer.text));
                match answer.structured.get("next_cursor").and_then(Value::as_str) {
                    Some(cursor) => {
                        args["cursor"] = json!(cursor);
                        answer = call_in_lang(server, task, "get_changelog", args.clone())?;
                    }
                    None => break,
                }
            }
            cx.give(&format!("changelog page {page}"), &text);
        }
        return Ok(cx.outcome(|| format!("not in the first {SEMI_PAGES} changelog pages")));
    }
    let Some(component) = &task.component else {
        return Ok(cx.outcome(|| "no search: the task names no component".into()));
    };
    // Which file is the component's document (a Semi agent names the component; the path is not counted).
    let card = call_in_lang(
        server,
        task,
        "component_details",
        json!({ "component": component, "detail": "brief", "max_tokens": 2_000 }),
    )?;
    let Some(path) = card.structured.get("path").and_then(Value::as_str) else {
        return Ok(cx.outcome(|| format!("`{component}` has no document")));
    };
    let text = std::fs::read_to_string(repo_root.join(path)).unwrap_or_default();
    let (shown, blocks) = semi_document(&text);
    cx.give(&format!("document {path}"), &shown);
    for (n, block) in blocks.iter().take(SEMI_BLOCKS).enumerate() {
        if cx.solved() {
            break;
        }
        cx.give(&format!("code block {}", n + 1), block);
    }
    Ok(cx.outcome(|| match task.kind {
        Kind::Source => "semi-rules read no sources (no search to find the file)".into(),
        _ if blocks.len() > SEMI_BLOCKS => format!("not in the document or its first {SEMI_BLOCKS} hidden code blocks"),
        _ => "fact not in the document (examples in their own files are not in it)".into(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_match_content_not_markup() {
        assert_eq!(squash("| size | `'mini' \\| 'middle'` |\n  next"), "| size | 'mini' | 'middle' | next");
    }

    #[test]
    fn keywords_drop_stop_words_and_split_chinese_into_pairs() {
        assert_eq!(keywords("How do I make a Table row selectable?"), ["table", "row", "selectable"]);
        assert_eq!(keywords("表格固定列"), ["表格", "格固", "固定", "定列"]);
    }

    #[test]
    fn long_documents_hide_their_code_blocks() {
        let mut doc = String::from("# T\n```jsx\nlet a = 1;\n```\n");
        doc.push_str(&"line\n".repeat(900));
        let (shown, blocks) = semi_document(&doc);
        assert_eq!(blocks, ["let a = 1;\n"]);
        assert!(shown.starts_with("# T\n[code block 1 hidden]\nline\n"));
        let short = "# T\n```jsx\nlet a = 1;\n```\n";
        assert_eq!(semi_document(short), (short.to_string(), Vec::new()));
    }
}
