//! Project chores: `cargo xtask bench` (whole-process figures: build time and peak RSS, CLI lookup latency,
//! bundle vs source bytes, MCP start-up, round trips and resident memory) and `cargo xtask corpus` (assemble the
//! real Semi Design and Blueprint inputs) and `cargo xtask fuzz [CASES]` (the reader's decoders over mutated real
//! sample bundles, 10⁶ cases by default: `src/bundle/fuzz.rs`).
//! In-process lookup latency is `cargo bench` (benches/lookup.rs).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => bench(&args[1..]),
        Some("corpus") => corpus().map(|d| println!("assembled: {}", d.display())),
        Some("fuzz") => fuzz(args.get(1).map(String::as_str).unwrap_or("1000000")),
        _ => {
            eprintln!("usage: cargo xtask bench [--runs N] | cargo xtask corpus | cargo xtask fuzz [CASES]");
            std::process::exit(2)
        }
    }
}

/// Runs the ignored `fuzz_million` test with `cases` cases (release build); it prints mutations tried/survived.
fn fuzz(cases: &str) -> anyhow::Result<()> {
    let cases: u64 = cases.parse().context("fuzz CASES must be a number")?;
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root())
        .args([
            "test",
            "--release",
            "-p",
            "mydesign-docs-reader",
            "--lib",
            "bundle::fuzz::fuzz_million",
            "--",
            "--ignored",
            "--nocapture",
        ])
        .env("FUZZ_CASES", cases.to_string())
        .status()?;
    if !status.success() {
        bail!("fuzzing failed: {status}");
    }
    Ok(())
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// Assembles ../shared/corpus into target/real-corpus (idempotent).
fn corpus() -> anyhow::Result<PathBuf> {
    let script = root().join("../shared/corpus/assemble.sh");
    if !script.exists() {
        bail!("{} not found: the real corpus needs ../shared", script.display());
    }
    let dest = root().join("target/real-corpus");
    let status = Command::new("bash").arg(&script).arg(&dest).stdout(Stdio::null()).status()?;
    if !status.success() {
        bail!("assemble.sh failed: {status}");
    }
    Ok(dest)
}

/// Runs `cmd` to completion and returns its wall time and peak resident set size in KiB (wait4's rusage).
fn measure(cmd: &mut Command) -> anyhow::Result<(Duration, i64)> {
    measure_cpu(cmd).map(|(wall, _, rss)| (wall, rss))
}

/// Runs `cmd` to completion and returns its wall time, CPU time (user + system, all threads) and peak resident set
/// size in KiB (wait4's rusage). CPU time is the figure to compare on a shared machine: wall time counts waiting.
fn measure_cpu(cmd: &mut Command) -> anyhow::Result<(Duration, Duration, i64)> {
    let start = Instant::now();
    let child = cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: plain FFI call with a zeroed out-parameter; the child is ours and has not been waited for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = start.elapsed();
    if r != pid || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        bail!("{cmd:?} failed (status {status})");
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Ok((elapsed, tv(usage.ru_utime) + tv(usage.ru_stime), usage.ru_maxrss))
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

fn bench(args: &[String]) -> anyhow::Result<()> {
    let runs: usize = match args {
        [flag, n] if flag == "--runs" => n.parse().context("--runs N")?,
        _ => 5,
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo).args(["build", "--release", "--package", "mydesign-docs"]).status()?;
    if !status.success() {
        bail!("cargo build --release failed");
    }
    let bin = root().join("target/release/mydesign-docs");
    let out = root().join("target/bench-out");
    let _ = std::fs::remove_dir_all(&out);

    let mut inputs: Vec<(&str, PathBuf, &str)> = vec![("corpus/ (sample)", root().join("corpus"), "default")];
    match corpus() {
        Ok(dir) => {
            inputs.push(("Semi Design", dir.join("semi"), "semi"));
            inputs.push(("Blueprint", dir.join("blueprint"), "blueprint"));
        }
        Err(e) => println!("note: {e:#}; benchmarking the sample only"),
    }

    println!("## build ({runs} runs each, {} cores)", std::thread::available_parallelism().map_or(1, |n| n.get()));
    println!(
        "{:<18} {:>9} {:>9} {:>9} {:>10} {:>12} {:>12} {:>7}",
        "input", "min s", "median s", "min CPU s", "peak MiB", "source B", "bundle B", "ratio"
    );
    for (name, repo, preset) in &inputs {
        let mut times = Vec::new();
        let mut cpu = Duration::MAX;
        let mut rss = 0;
        for _ in 0..runs {
            let (t, c, r) = measure_cpu(
                Command::new(&bin).arg("build").arg(repo).arg("--preset").arg(preset).arg("--out").arg(&out),
            )?;
            times.push(t);
            cpu = cpu.min(c);
            rss = rss.max(r);
        }
        times.sort();
        let (source, bundle) = sizes(&bin, &out, repo, preset)?;
        println!(
            "{name:<18} {:>9.3} {:>9.3} {:>9.3} {:>10.1} {source:>12} {bundle:>12} {:>7.3}",
            times[0].as_secs_f64(),
            times[times.len() / 2].as_secs_f64(),
            cpu.as_secs_f64(),
            rss as f64 / 1024.0,
            bundle as f64 / source as f64
        );
    }

    // Whole-process CLI lookups on the largest set built (Semi when present).
    let semi = inputs.iter().any(|i| i.2 == "semi");
    let lookups: Vec<Vec<&str>> = if semi {
        vec![
            vec!["components"],
            vec!["doc", "table"],
            vec!["doc", "table", "--full"],
            vec!["code-block", "table", "53"],
            vec!["changelog", "--page", "17"],
            vec!["files", "table"],
            vec!["file", "packages/semi-foundation/table/foundation.ts"],
            vec!["function", "packages/semi-foundation/table/foundation.ts", "TableFoundation.init"],
        ]
    } else {
        vec![
            vec!["components"],
            vec!["doc", "table"],
            vec!["code-block", "table", "33"],
            vec!["changelog", "--page", "6"],
            vec!["file", "src/components/Table/Table.tsx"],
            vec!["function", "src/components/Table/Table.tsx", "Table.render"],
        ]
    };
    let system = if semi { "semi" } else { "my-design" };
    let n = 50;
    println!("\n## whole-process CLI lookup on {system} ({n} runs each)");
    println!("{:<70} {:>8} {:>8}", "command", "p50 ms", "p99 ms");
    for args in lookups {
        let mut times = Vec::new();
        for _ in 0..n {
            let mut cmd = Command::new(&bin);
            cmd.args(&args).args(["--bundles"]).arg(&out).args(["--system", system]);
            times.push(measure(&mut cmd)?.0);
        }
        times.sort();
        println!("{:<70} {:>8.2} {:>8.2}", args.join(" "), percentile(&times, 0.5), percentile(&times, 0.99));
    }
    mcp_bench(&bin, &out, system, semi)
}

/// MCP over stdio, timed with ../shared/tools/mcp_time.py (a bare JSON-RPC client, so figures compare across
/// servers): start → initialized and the round trip of each tool; then the server's resident memory after a call to
/// every tool.
fn mcp_bench(bin: &Path, out: &Path, system: &str, semi: bool) -> anyhow::Result<()> {
    let timer = root().join("../shared/tools/mcp_time.py");
    if !timer.exists() {
        println!("\nnote: {} not found; MCP figures skipped", timer.display());
        return Ok(());
    }
    let calls: Vec<(&str, &str)> = if semi {
        vec![
            ("list_components", r#"{}"#),
            ("component_details", r#"{"component":"table"}"#),
            ("get_code_block", r#"{"component":"table","index":53}"#),
            ("get_changelog", r#"{"page":17}"#),
            ("list_component_files", r#"{"component":"table"}"#),
            ("get_file_code", r#"{"path":"packages/semi-foundation/table/foundation.ts"}"#),
            (
                "get_function_code",
                r#"{"path":"packages/semi-foundation/table/foundation.ts","function":"TableFoundation.init"}"#,
            ),
        ]
    } else {
        vec![
            ("list_components", r#"{}"#),
            ("component_details", r#"{"component":"table"}"#),
            ("get_code_block", r#"{"component":"table","index":33}"#),
            ("get_changelog", r#"{"page":6}"#),
            ("list_component_files", r#"{"component":"table"}"#),
            ("get_file_code", r#"{"path":"src/components/Table/Table.tsx"}"#),
            ("get_function_code", r#"{"path":"src/components/Table/Table.tsx","function":"Table.render"}"#),
        ]
    };
    let n = 500;
    println!("\n## MCP over stdio on {system} (mcp_time.py, {n} calls each; start = spawn → initialized)");
    println!("{:<22} {:>9} {:>9} {:>9} {:>12}", "tool", "start ms", "p50 ms", "p99 ms", "tools/list B");
    let serve = |cmd: &mut Command| {
        cmd.arg(bin).args(["serve", "--bundles"]).arg(out);
    };
    // The bench directory holds several systems: every call names its own.
    let calls: Vec<(&str, String)> = calls
        .iter()
        .map(|(tool, args)| {
            let rest = args.trim_start_matches('{').trim_end_matches('}');
            let sep = if rest.is_empty() { "" } else { "," };
            (*tool, format!(r#"{{"system":"{system}"{sep}{rest}}}"#))
        })
        .collect();
    for (tool, args) in &calls {
        let mut cmd = Command::new("python3");
        cmd.arg(&timer).args(["-n", &n.to_string(), "--tool", tool, "--args", args, "--"]);
        serve(&mut cmd);
        let o = cmd.env("RUST_LOG", "off").output()?;
        let line = String::from_utf8_lossy(&o.stdout);
        let field = |name: &str| -> String {
            let at = line.find(&format!("\"{name}\": ")).map(|i| i + name.len() + 4);
            at.map(|i| line[i..].split([',', '}']).next().unwrap_or("").trim().to_string()).unwrap_or_default()
        };
        if !o.status.success() || field("is_error") != "false" {
            bail!("mcp_time.py {tool} failed: {line}{}", String::from_utf8_lossy(&o.stderr));
        }
        println!(
            "{tool:<22} {:>9} {:>9} {:>9} {:>12}",
            field("init_ms"),
            field("p50_ms"),
            field("p99_ms"),
            field("tools_list_bytes")
        );
    }
    println!(
        "server resident memory after one call of each tool: {:.1} MiB",
        mcp_rss(bin, out, &calls)? as f64 / 1024.0
    );
    Ok(())
}

/// VmRSS in KiB of `mydesign-docs serve` after initialize and one call of each tool (a bare JSON-RPC exchange).
fn mcp_rss(bin: &Path, out: &Path, calls: &[(&str, String)]) -> anyhow::Result<u64> {
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(bin)
        .args(["serve", "--bundles"])
        .arg(out)
        .env("RUST_LOG", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().context("stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().context("stdout")?);
    let mut messages = vec![
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"xtask","version":"1"}}}"#.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string(),
    ];
    for (i, (tool, args)) in calls.iter().enumerate() {
        let id = i + 1;
        messages.push(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{args}}}}}"#
        ));
    }
    for m in &messages {
        writeln!(stdin, "{m}")?;
    }
    stdin.flush()?;
    // One response line per request: initialize and each call.
    let mut line = String::new();
    for _ in 0..=calls.len() {
        line.clear();
        if stdout.read_line(&mut line)? == 0 {
            bail!("the server closed its output");
        }
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()))?;
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .context("no VmRSS in /proc/PID/status")?;
    drop(stdin);
    child.wait()?;
    Ok(rss)
}

/// Source and bundle bytes of the set built from `repo`, from `build`'s summary line.
fn sizes(bin: &Path, out: &Path, repo: &Path, preset: &str) -> anyhow::Result<(u64, u64)> {
    let o = Command::new(bin).arg("build").arg(repo).arg("--preset").arg(preset).arg("--out").arg(out).output()?;
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text.lines().find(|l| l.trim_start().starts_with("bytes:")).context("no bytes line in the summary")?;
    let nums: Vec<u64> = line.split_whitespace().filter_map(|w| w.replace(',', "").parse().ok()).collect();
    match nums.as_slice() {
        [source, bundle, ..] => Ok((*source, *bundle)),
        _ => bail!("cannot read `{line}`"),
    }
}
