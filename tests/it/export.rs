//! `export --llms-txt DIR` (issue 28 item 4): llms.txt and one Markdown file per component, for agents without
//! MCP. On the sample and on the real Arco and Chakra: every documented component has a file, every file (the
//! index too) is within the budget as tiktoken counts it, every link of llms.txt resolves to a file written, the
//! index follows the llms.txt convention (H1, blockquote, a section of links), and a second export gives the same
//! bytes with nothing left beside the directory.

use crate::common::{self, Built, Tiktoken};

/// Exports `built` at `max` tokens (the default when `None`) into a fresh directory and checks it; returns the
/// files' count.
fn export(name: &str, built: &Built, max: Option<u32>) -> usize {
    let set = &built.set;
    let counter = Tiktoken::new(&set.head().encoding);
    let bundles = built.report.dir.parent().unwrap().to_str().unwrap().to_string();
    let holder = tempfile::tempdir().unwrap();
    let dir = holder.path().join("for-agents");
    let dir_arg = dir.to_str().unwrap().to_string();
    let system = set.head().system.clone();
    let max_arg = max.map(|m| m.to_string());
    let mut args = vec!["export", "--llms-txt", &dir_arg, "--bundles", &bundles, "--system", &system];
    if let Some(m) = &max_arg {
        args.extend(["--max-tokens", m.as_str()]);
    }
    let started = std::time::Instant::now();
    common::ok(&common::root(), &args);
    let took = started.elapsed();
    let budget = max.unwrap_or(4_000);
    let first = common::tree_bytes(&dir);
    let llms = String::from_utf8(first.iter().find(|(p, _)| p == "llms.txt").expect("llms.txt").1.clone()).unwrap();
    assert!(llms.starts_with(&format!("# {system}\n\n> ")), "{name}: {llms:.300}");
    assert!(llms.contains("\n## Components\n\n- ["), "{name}: {llms:.600}");
    // Every link resolves to a file written, and every documented component has one.
    let links: Vec<&str> = llms
        .lines()
        .filter_map(|l| l.strip_prefix("- [")?.split_once("](")?.1.split_once(')'))
        .map(|(l, _)| l)
        .collect();
    for link in &links {
        assert!(dir.join(link).is_file(), "{name}: {link} does not resolve");
    }
    let documented = set.components(None).unwrap().components.iter().filter(|c| c.tokens > 0).count();
    assert_eq!(links.len(), documented, "{name}: one link per documented component");
    assert_eq!(first.len(), documented + 1, "{name}: llms.txt and one file per component");
    let mut bytes = 0;
    for (path, text) in &first {
        let text = std::str::from_utf8(text).unwrap();
        let tokens = counter.count(text);
        assert!(tokens <= budget, "{name}: {path} is {tokens} tokens, over {budget}:\n{text:.400}");
        if path != "llms.txt" {
            assert!(text.starts_with("# ") && text.contains("## Document\n"), "{name}: {path}:\n{text:.400}");
        }
        bytes += text.len();
    }
    // Rewritten whole, atomically: the same bytes, nothing left beside it.
    common::ok(&common::root(), &args);
    assert_eq!(common::tree_bytes(&dir), first, "{name}: a second export differs");
    let beside: Vec<String> = std::fs::read_dir(holder.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(beside, ["for-agents"], "{name}");
    eprintln!(
        "{name}: {} files, {bytes} bytes ({} bytes a component), exported in {:.2} s",
        first.len(),
        bytes / documented.max(1),
        took.as_secs_f64()
    );
    first.len()
}

#[test]
fn export_writes_llms_txt_and_a_file_per_component_within_budget() {
    let sample = common::sample();
    assert_eq!(export("sample", sample, None), 17, "16 documented components and llms.txt");
    export("sample at 1,000", sample, Some(1_000));
    export("sample at 300", sample, Some(300));
    let mut ran = 0;
    for name in ["arco-design", "chakra-ui"] {
        if let Some(b) = common::detected_build(name) {
            export(name, b, None);
            ran += 1;
        }
    }
    eprintln!("{ran} real inputs");
}

/// The export replaces its directory whole, so it writes only into an absent or empty directory or over a previous
/// export: a directory holding a person's file, or the bundle set being read, is refused (exit 2) and kept as it
/// was (a trial lost both); `.` is no directory of its own.
#[test]
fn export_never_replaces_a_directory_it_did_not_write() {
    let sample = common::sample();
    let bundles = sample.report.dir.parent().unwrap().to_str().unwrap().to_string();
    let holder = tempfile::tempdir().unwrap();
    let mine = holder.path().join("mine");
    std::fs::create_dir_all(mine.join("sub")).unwrap();
    std::fs::write(mine.join("precious.txt"), "keep me").unwrap();
    let before = common::tree_bytes(&mine);
    let set_dir = sample.report.dir.to_str().unwrap().to_string();
    let set_before = common::tree_bytes(&sample.report.dir);
    for target in [mine.to_str().unwrap(), set_dir.as_str(), "."] {
        let err = common::fails(holder.path(), &["export", "--llms-txt", target, "--bundles", &bundles]);
        assert!(err.contains("--llms-txt"), "{target}: {err}");
    }
    assert_eq!(common::tree_bytes(&mine), before);
    assert_eq!(common::tree_bytes(&sample.report.dir), set_before);
    // Nothing left beside them either.
    assert_eq!(std::fs::read_dir(holder.path()).unwrap().count(), 1);
    // An empty directory, then the export it holds, are replaced.
    let empty = holder.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    for _ in 0..2 {
        common::ok(holder.path(), &["export", "--llms-txt", empty.to_str().unwrap(), "--bundles", &bundles]);
    }
    assert!(empty.join("llms.txt").is_file());
}
