//! `cargo xtask eval` (issue 27): what an agent spends to reach a fact. Every task of `eval/tasks/` is answered by
//! each scripted policy ([`policy`]) over the product's own MCP server (stdio, as a client calls it) or over the
//! repository's files; the report gives, per policy and input, the share of tasks solved, the median and p90 tokens
//! the agent was given (tiktoken's o200k_base) and the median calls, lists the tasks `ours` failed with the reason,
//! writes `target/eval.json` and compares with the previous one.

pub mod mcp;
pub mod policy;
pub mod tasks;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;

pub use policy::{Outcome, POLICIES};
pub use tasks::{InputTasks, Task};

/// One task's outcomes, by policy (in [`POLICIES`]' order).
pub struct Scored {
    /// The task.
    pub task: Task,
    /// `(policy, outcome)`.
    pub outcomes: Vec<(&'static str, Outcome)>,
}

/// Answers every task of one input with every policy: `bin serve --bundles bundles` is started once; `repo` is
/// the input's repository (for `files` and `semi-rules`). The task whose id is `show` prints its calls and what
/// they gave on stderr.
pub fn evaluate(
    bin: &Path,
    bundles: &Path,
    repo: &Path,
    tasks: &[Task],
    show: Option<&str>,
) -> anyhow::Result<Vec<Scored>> {
    let bpe = tiktoken_rs::o200k_base()?;
    let mut server = mcp::Server::start(bin, bundles)?;
    let files = policy::Repo::read(repo);
    for task in tasks {
        let missing = files.missing_facts(task);
        if !missing.is_empty() {
            anyhow::bail!("task `{}`: {missing:?} occur in no file of {}: the task is wrong", task.id, repo.display());
        }
    }
    let mut out = Vec::new();
    for task in tasks {
        let show = show == Some(task.id.as_str());
        let outcomes = vec![
            ("ours", policy::ours(&mut server, &bpe, task, false, show)?),
            ("ours+card", policy::ours(&mut server, &bpe, task, true, show)?),
            ("files", policy::files(&files, &bpe, task, show)),
            ("semi-rules", policy::semi_rules(&mut server, repo, &bpe, task, show)?),
        ];
        out.push(Scored { task: task.clone(), outcomes });
    }
    Ok(out)
}

/// Success rate, median and p90 tokens, median calls of one policy over some tasks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Tasks counted.
    pub tasks: usize,
    /// Tasks solved.
    pub solved: usize,
    /// Median tokens given (all tasks, solved or not).
    pub median_tokens: usize,
    /// 90th percentile of tokens given.
    pub p90_tokens: usize,
    /// Median calls.
    pub median_calls: usize,
}

fn percentile(sorted: &[usize], p: f64) -> usize {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The [`Summary`] of `policy` over `scored` tasks that `keep` selects.
pub fn summarize(scored: &[&Scored], policy: &str) -> Summary {
    let outcomes: Vec<&Outcome> =
        scored.iter().filter_map(|s| s.outcomes.iter().find(|(p, _)| *p == policy).map(|(_, o)| o)).collect();
    let mut tokens: Vec<usize> = outcomes.iter().map(|o| o.tokens).collect();
    let mut calls: Vec<usize> = outcomes.iter().map(|o| o.calls).collect();
    tokens.sort_unstable();
    calls.sort_unstable();
    Summary {
        tasks: outcomes.len(),
        solved: outcomes.iter().filter(|o| o.solved).count(),
        median_tokens: percentile(&tokens, 0.5),
        p90_tokens: percentile(&tokens, 0.9),
        median_calls: percentile(&calls, 0.5),
    }
}

/// The report's rows: `(row name, policy, summary)` per input, per language and for all tasks.
pub fn rows(results: &[(String, Vec<Scored>)]) -> Vec<(String, &'static str, Summary)> {
    let mut rows = Vec::new();
    let all: Vec<&Scored> = results.iter().flat_map(|(_, s)| s.iter()).collect();
    let mut groups: Vec<(String, Vec<&Scored>)> =
        results.iter().map(|(input, s)| (input.clone(), s.iter().collect())).collect();
    for lang in ["en", "zh"] {
        groups.push((format!("all, {lang}"), all.iter().copied().filter(|s| s.task.lang == lang).collect()));
    }
    groups.push(("all".into(), all));
    for (name, scored) in &groups {
        for policy in POLICIES {
            rows.push((name.clone(), policy, summarize(scored, policy)));
        }
    }
    rows
}

/// The report as JSON: the rows and every task's outcomes.
pub fn to_json(results: &[(String, Vec<Scored>)], machine: &str) -> serde_json::Value {
    let rows: BTreeMap<String, serde_json::Value> = rows(results)
        .into_iter()
        .map(|(name, policy, s)| {
            let value = json!({
                "tasks": s.tasks, "solved": s.solved, "median_tokens": s.median_tokens,
                "p90_tokens": s.p90_tokens, "median_calls": s.median_calls,
            });
            (format!("{name} / {policy}"), value)
        })
        .collect();
    let tasks: Vec<serde_json::Value> = results
        .iter()
        .flat_map(|(input, scored)| {
            scored.iter().map(move |s| {
                let outcomes: BTreeMap<&str, serde_json::Value> = s
                    .outcomes
                    .iter()
                    .map(|(p, o)| {
                        (*p, json!({ "solved": o.solved, "tokens": o.tokens, "calls": o.calls, "reason": o.reason }))
                    })
                    .collect();
                json!({ "input": input, "id": s.task.id, "lang": s.task.lang, "outcomes": outcomes })
            })
        })
        .collect();
    json!({ "machine": machine, "command": "cargo xtask eval", "rows": rows, "tasks": tasks })
}
