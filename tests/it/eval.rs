//! The task benchmark (issue 27, `cargo xtask eval`) as a guard: the scripted `ours` policy answers the tasks of
//! `eval/tasks/` over the product's MCP server, beside an agent that greps and reads files. The figures asserted
//! are those of 2026-12-03 (BENCHMARKS.md, "Task benchmark"): raise them as fixes land, never lower them.

use std::path::Path;

use xtask::eval::{self, Scored, Summary};

/// The tasks of `input` (its file in `eval/tasks/`).
fn tasks(input: &str) -> Vec<eval::Task> {
    let sets = eval::tasks::load(&crate::common::root().join("eval/tasks")).expect("the task files load");
    sets.into_iter().find(|s| s.input == input).map(|s| s.tasks).unwrap_or_default()
}

fn run(set_dir: &Path, repo: &Path, input: &str) -> Vec<Scored> {
    let bin = Path::new(env!("CARGO_BIN_EXE_mydesign-docs"));
    let bundles = set_dir.parent().expect("a set is a folder of its output directory");
    eval::evaluate(bin, bundles, repo, &tasks(input), None).expect("the eval runs")
}

fn summary(results: &[(String, Vec<Scored>)], policy: &str) -> Summary {
    let all: Vec<&Scored> = results.iter().flat_map(|(_, s)| s.iter()).collect();
    eval::summarize(&all, policy)
}

#[test]
fn the_sample_tasks_are_solved_by_ours_at_a_fraction_of_reading_files() {
    let built = crate::common::sample();
    let results = vec![("sample".to_string(), run(&built.report.dir, &built.repo, "sample"))];
    let (ours, files) = (summary(&results, "ours"), summary(&results, "files"));
    assert_eq!(ours.tasks, 10);
    assert!(ours.solved >= 9, "ours solved {} of 10 sample tasks (9 on 2026-12-03)", ours.solved);
    assert!(ours.median_tokens <= 1_500, "ours: median {} tokens", ours.median_tokens);
    assert!(ours.median_calls <= 3, "ours: median {} calls", ours.median_calls);
    assert!(ours.median_tokens * 5 <= files.median_tokens, "ours {ours:?} against files {files:?}");
}

#[test]
fn the_real_tasks_are_solved_by_ours_at_least_as_often_as_by_reading_files_for_a_fifth_of_the_tokens() {
    let mut results = Vec::new();
    for input in ["semi", "blueprint", "antd-mobile", "arco-design", "chakra-ui", "vant"] {
        let Some(built) = crate::common::detected_build(input) else { return };
        results.push((input.to_string(), run(&built.report.dir, &built.repo, input)));
    }
    let (ours, files) = (summary(&results, "ours"), summary(&results, "files"));
    let failed: Vec<String> = results
        .iter()
        .flat_map(|(input, scored)| {
            scored.iter().filter_map(move |s| {
                let (_, o) = s.outcomes.iter().find(|(p, _)| *p == "ours")?;
                (!o.solved).then(|| format!("{input} {}: {}", s.task.id, o.reason.as_deref().unwrap_or("")))
            })
        })
        .collect();
    assert!(ours.tasks >= 52, "{} real tasks", ours.tasks);
    assert!(
        ours.solved >= 44,
        "ours solved {} of {} real tasks (44 of 52 on 2026-12-03); failed:\n{}",
        ours.solved,
        ours.tasks,
        failed.join("\n")
    );
    assert!(ours.solved >= files.solved, "ours {ours:?} against files {files:?}");
    assert!(ours.median_tokens <= 1_500, "ours: median {} tokens", ours.median_tokens);
    assert!(ours.median_calls <= 3, "ours: median {} calls", ours.median_calls);
    assert!(ours.median_tokens * 5 <= files.median_tokens, "ours {ours:?} against files {files:?}");
}
