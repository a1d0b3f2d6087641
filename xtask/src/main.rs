//! Project chores:
//! - `cargo xtask bench [--runs N] [--lookups N] [--calls N] [--scale N] [--quick]`: every whole-process figure of
//!   issue 12 in one table (builds of the sample, Semi, Blueprint and N× Semi: wall, CPU, peak RSS, bytes; CLI lookups
//!   at 1× and N× and against `cat`; MCP start-up, per-tool p50/p99 and serve RSS at 1× and N×; binary size),
//!   compared with the previous `target/bench.json` (changes over 10 % the wrong way marked `REGRESSION`), which it
//!   then rewrites. `BENCHMARKS.md` records the figures.
//! - `cargo xtask dist [--full | --reader-only]`: the distributed binaries (`dist` profile: fat LTO, size-tuned;
//!   the full one static and non-PIE on Linux with glibc, the reader-only one dynamic and non-PIE).
//! - `cargo xtask install [--reader-only] [ARGS]`: `cargo install --path .` of one of them (profile `dist`, or `dist-reader` for the reader-only one).
//! - `cargo xtask corpus`: assemble the real Semi Design and Blueprint inputs.
//! - `cargo xtask synth --scale N [--out DIR]`: an N× Semi-like input under `target/` (`synth.rs`).
//! - `cargo xtask eval [--input NAME]… [--show TASK-ID]`: the task benchmark (`eval/tasks/`, issue 27): what each agent policy spends
//!   to reach the facts of each task, written to `target/eval.json` and compared with the previous run.
//! - `cargo xtask search-quality [--input NAME]… [--bin PATH]`: how often search finds a sampled word of the six real inputs'
//!   documents, examples and sources, and the recall@1/@5 of the questions of `eval/search/` (issue 26 §2,
//!   `quality/`), written to `target/search-quality.json`.
//! - `cargo xtask fuzz [CASES]`: the reader's decoders over mutated real sample bundles, 10⁶ cases by default
//!   (`src/bundle/fuzz.rs`).
//!
//! In-process lookup latency is `cargo bench` (benches/lookup.rs). Timing stays out of `cargo test`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

mod synth;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => bench(&args[1..]),
        Some("corpus") => corpus().map(|d| println!("assembled: {}", d.display())),
        Some("synth") => synth::run(&args[1..], &root(), semi_input()?),
        Some("eval") => eval_command(&args[1..]),
        Some("search-quality") => search_quality_command(&args[1..]),
        Some("fuzz") => fuzz(args.get(1).map(String::as_str).unwrap_or("1000000")),
        Some("dist") => dist(&args[1..]),
        Some("install") => install(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask bench [--runs N] [--lookups N] [--calls N] [--scale N] [--quick] | cargo xtask dist [--full | --reader-only] | cargo xtask install [--reader-only] [ARGS] | cargo xtask corpus | cargo xtask synth --scale N [--out DIR] | cargo xtask fuzz [CASES] | cargo xtask eval [--input NAME]… [--show TASK-ID] | cargo xtask search-quality [--input NAME]… [--bin PATH]"
            );
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

/// The real Semi input: `$MYDESIGN_REAL_CORPUS/semi` when set, else assembled into `target/real-corpus`.
fn semi_input() -> anyhow::Result<PathBuf> {
    match std::env::var_os("MYDESIGN_REAL_CORPUS") {
        Some(dir) => Ok(PathBuf::from(dir).join("semi")),
        None => Ok(corpus()?.join("semi")),
    }
}

/// What one run of a process cost: wall time, CPU time (user + system) and peak resident set size in KiB, from
/// wait4's rusage.
#[derive(Clone, Copy)]
struct Cost {
    wall: Duration,
    cpu: Duration,
    rss_kib: i64,
}

/// Runs `cmd` to completion (stdout and stderr discarded) and returns what it cost.
fn measure(cmd: &mut Command) -> anyhow::Result<Cost> {
    measure_into(cmd, Stdio::null())
}

/// [`measure`] with stdout sent to `stdout`.
fn measure_into(cmd: &mut Command, stdout: Stdio) -> anyhow::Result<Cost> {
    let start = Instant::now();
    let child = cmd.stdout(stdout).stderr(Stdio::null()).spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: plain FFI call with a zeroed out-parameter; the child is ours and has not been waited for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    if r != pid || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        bail!("{cmd:?} failed (status {status})");
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Ok(Cost { wall, cpu: tv(usage.ru_utime) + tv(usage.ru_stime), rss_kib: usage.ru_maxrss })
}

/// `bin build REPO --preset PRESET --cache CACHE --out OUT`.
fn cached_build(bin: &Path, repo: &Path, preset: &str, cache: &Path, out: &Path) -> Command {
    let mut cmd = Command::new(bin);
    cmd.arg("build").arg(repo).arg("--preset").arg(preset).arg("--cache").arg(cache).arg("--out").arg(out);
    cmd
}

/// Copies the tree `from` to `to` (files and directories; links followed).
fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)?.filter_map(Result::ok) {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &target)?;
        } else {
            std::fs::copy(e.path(), &target)?;
        }
    }
    Ok(())
}

/// The first file under `dir` (paths sorted) that `wanted` accepts.
fn first_file(dir: &Path, wanted: &dyn Fn(&Path) -> bool) -> Option<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).ok()?.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    entries.into_iter().find_map(|p| if p.is_dir() { first_file(&p, wanted) } else { wanted(&p).then_some(p) })
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// One benchmark figure, and which way is an improvement (every figure so far: lower, as times, sizes, memory).
struct Figure {
    name: String,
    value: f64,
    unit: &'static str,
    lower_is_better: bool,
}

/// The figures gathered so far, printed as one table at the end and written to `target/bench.json`.
#[derive(Default)]
struct Figures(Vec<Figure>);

impl Figures {
    fn add(&mut self, name: impl Into<String>, value: f64, unit: &'static str) {
        let name = name.into();
        eprintln!("  {name}: {value:.3} {unit}");
        self.0.push(Figure { name, value, unit, lower_is_better: true });
    }

    /// Prints the table, comparing with `previous` (name → value) when given: a change over 10 % in the wrong
    /// direction is marked `REGRESSION`.
    fn print(&self, previous: &std::collections::BTreeMap<String, f64>) -> usize {
        let mut regressions = 0;
        println!("{:<58} {:>12} {:<5} {:>12} {:>8}", "figure", "value", "unit", "previous", "change");
        for f in &self.0 {
            let (prev, change, mark) = match previous.get(&f.name) {
                Some(&p) if p != 0.0 => {
                    let change = (f.value - p) / p * 100.0;
                    let worse = if f.lower_is_better { change > 10.0 } else { change < -10.0 };
                    regressions += usize::from(worse);
                    (format!("{p:.3}"), format!("{change:+.1}%"), if worse { "  REGRESSION" } else { "" })
                }
                _ => (String::new(), String::new(), ""),
            };
            println!("{:<58} {:>12.3} {:<5} {prev:>12} {change:>8}{mark}", f.name, f.value, f.unit);
        }
        regressions
    }

    fn to_json(&self, machine: &str, command: &str) -> String {
        let figures: serde_json::Map<String, serde_json::Value> =
            self.0.iter().map(|f| (f.name.clone(), serde_json::json!({ "value": f.value, "unit": f.unit }))).collect();
        let doc = serde_json::json!({ "machine": machine, "command": command, "figures": figures });
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    }
}

/// `name → value` of a `bench.json` written by [`Figures::to_json`]; empty when there is none or it does not parse.
fn previous_figures(path: &Path) -> std::collections::BTreeMap<String, f64> {
    let Ok(text) = std::fs::read_to_string(path) else { return Default::default() };
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else { return Default::default() };
    let Some(figures) = doc.get("figures").and_then(|f| f.as_object()) else { return Default::default() };
    figures.iter().filter_map(|(k, v)| Some((k.clone(), v.get("value")?.as_f64()?))).collect()
}

/// Cores, CPU model and memory of this machine, for the record.
fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("model name").map(|v| v.trim_start_matches([' ', '\t', ':']).to_string()))
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| t.lines().find_map(|l| l.strip_prefix("MemTotal:").map(|v| v.trim().to_string())))
        .unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{cores} cores, {cpu}, {mem} RAM, {}", std::env::consts::ARCH)
}

/// Options of `cargo xtask bench`.
struct BenchOptions {
    /// Build runs per input (the best is kept).
    runs: usize,
    /// Whole-process lookups per command.
    lookups: usize,
    /// MCP calls per tool.
    calls: usize,
    /// The scale of the synthetic input for the flat-lookup figures (0: none).
    scale: usize,
}

fn bench_options(args: &[String]) -> anyhow::Result<BenchOptions> {
    let mut o = BenchOptions { runs: 3, lookups: 50, calls: 500, scale: 10 };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| -> anyhow::Result<usize> {
            it.next().with_context(|| format!("{flag} N"))?.parse().with_context(|| format!("{flag} N: a number"))
        };
        match a.as_str() {
            "--runs" => o.runs = value("--runs")?.max(1),
            "--lookups" => o.lookups = value("--lookups")?.max(1),
            "--calls" => o.calls = value("--calls")?.max(1),
            "--scale" => o.scale = value("--scale")?,
            "--quick" => (o.runs, o.lookups, o.calls, o.scale) = (1, 20, 100, 0),
            other => bail!(
                "bench: unknown argument `{other}`; usage: cargo xtask bench [--runs N] [--lookups N] [--calls N] [--scale N (0: no synthetic input)] [--quick]"
            ),
        }
    }
    Ok(o)
}

/// The two distributed binaries of package `mydesign-docs`, built with the `dist` profile of Cargo.toml (fat LTO,
/// one codegen unit, size-tuned). `Full`: every feature, linked statically and without PIE on Linux with glibc
/// (`--target <host>` so `crt-static` reaches only the executable, not build scripts and proc-macros; a lookup
/// process then pays no dynamic loading: Semi `doc table` 2.18× → 1.42× `cat`). `ReaderOnly`: `--no-default-features
/// --features serve`, dynamic (static glibc would take it over issue 14's 6 MB) and without PIE (`build.rs`).
#[derive(Clone, Copy, PartialEq)]
enum Dist {
    Full,
    ReaderOnly,
}

/// The host's target tuple, from `rustc -vV`.
fn host_tuple() -> anyhow::Result<String> {
    let out = Command::new("rustc").arg("-vV").output()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .context("rustc -vV names no host")
}

/// The cargo arguments and environment that build `kind` (see [`Dist`]), for `cargo build` and `cargo install`.
fn dist_command(subcommand: &str, kind: Dist) -> anyhow::Result<Command> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(&cargo);
    let profile = if kind == Dist::ReaderOnly { "dist-reader" } else { "dist" };
    command.current_dir(root()).args([subcommand, "--profile", profile, "--locked"]);
    let host = host_tuple()?;
    let linux_gnu = host.contains("linux-gnu");
    match kind {
        Dist::Full => {
            if linux_gnu {
                command.args(["--target", &host]);
                command.env("RUSTFLAGS", "-C target-feature=+crt-static -C relocation-model=static");
            } else {
                command.env("RUSTFLAGS", "");
            }
        }
        Dist::ReaderOnly => {
            command.args(["--no-default-features", "--features", "serve"]);
            command.env("RUSTFLAGS", "").env("MYDESIGN_DOCS_NO_PIE", "1");
        }
    }
    Ok(command)
}

/// Builds the distributed binary `kind` and returns the path of the executable as cargo reports it
/// (`target/<host>/dist/mydesign-docs` for the full binary, `target/dist-reader/mydesign-docs` for the reader-only
/// one, built with the `dist-reader` profile).
fn build_dist(kind: Dist) -> anyhow::Result<PathBuf> {
    let mut command = dist_command("build", kind)?;
    let out = command
        .args(["--package", "mydesign-docs", "--message-format=json-render-diagnostics"])
        .stderr(std::process::Stdio::inherit())
        .output()?;
    if !out.status.success() {
        bail!("cargo build --profile dist failed");
    }
    let executable = String::from_utf8_lossy(&out.stdout).lines().find_map(|line| {
        let message: serde_json::Value = serde_json::from_str(line).ok()?;
        let is_bin = message["reason"] == "compiler-artifact" && message["target"]["name"] == "mydesign-docs";
        if is_bin { message["executable"].as_str().map(PathBuf::from) } else { None }
    });
    executable.context("cargo reported no `mydesign-docs` executable")
}

/// `cargo xtask dist [--reader-only]`: builds the distributed binaries (both, or the reader-only one) and prints
/// where they are.
fn dist(args: &[String]) -> anyhow::Result<()> {
    let kinds: &[Dist] = match args {
        [] => &[Dist::Full, Dist::ReaderOnly],
        [flag] if flag == "--reader-only" => &[Dist::ReaderOnly],
        [flag] if flag == "--full" => &[Dist::Full],
        _ => bail!("usage: cargo xtask dist [--full | --reader-only]"),
    };
    for &kind in kinds {
        let bin = build_dist(kind)?;
        let what = if kind == Dist::Full { "full binary" } else { "reader-only binary" };
        println!("{what}: {}", bin.display());
    }
    Ok(())
}

/// `cargo xtask install [--reader-only] [cargo install arguments…]`: `cargo install --path . --profile dist` with the
/// distributed binary's target and flags (see [`Dist`]).
fn install(args: &[String]) -> anyhow::Result<()> {
    let (kind, rest) = match args.first().map(String::as_str) {
        Some("--reader-only") => (Dist::ReaderOnly, &args[1..]),
        _ => (Dist::Full, args),
    };
    let status = dist_command("install", kind)?.args(["--path", "."]).args(rest).status()?;
    if !status.success() {
        bail!("cargo install --profile dist failed: {status}");
    }
    Ok(())
}

/// A copy of the executable `bin` as `target/bench-bin/<name>`, which the bench runs: a copy, as `cargo install`
/// and a download write it. The linker writes its output through a shared mapping, which leaves the file's page
/// cache in small pages; a process started from it took 190 page faults and 1.51 ms for Semi's `doc table`, from
/// a copy 167 and 1.14 ms (2026-12-01, interleaved).
fn installed(bin: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let dir = root().join("target/bench-bin");
    std::fs::create_dir_all(&dir)?;
    let to = dir.join(name);
    let _ = std::fs::remove_file(&to);
    std::fs::copy(bin, &to).with_context(|| format!("copying {} to {}", bin.display(), to.display()))?;
    Ok(to)
}

/// `cargo xtask bench`: builds the release binary, measures every figure of issue 12 (builds, sizes, whole-process
/// lookups at 1× and N× Semi and against `cat`, MCP start-up, round trips and memory, binary size), prints one
/// table compared with the previous `target/bench.json` (changes over 10 % the wrong way are marked) and writes the
/// new one. Timings are of a shared machine unless it is quiet: CPU times are the steadier figures.
fn bench(args: &[String]) -> anyhow::Result<()> {
    let o = bench_options(args)?;
    // The distributed binaries (`cargo xtask dist`): every figure is of them, as users install them.
    let bin = build_dist(Dist::Full)?;
    let mut figs = Figures::default();
    // The reader-only binary (issue 14), what an agent's machine runs.
    let reader_bin = build_dist(Dist::ReaderOnly)?;
    let stripped = root().join("target/dist-reader/mydesign-docs.stripped");
    if Command::new("strip").arg("-o").arg(&stripped).arg(&reader_bin).status()?.success() {
        figs.add("reader-only binary size, stripped", std::fs::metadata(&stripped)?.len() as f64, "B");
    }
    let out = root().join("target/bench-out");
    let _ = std::fs::remove_dir_all(&out);
    figs.add("binary size (dist, stripped of debug info)", std::fs::metadata(&bin)?.len() as f64 / 1e6, "MB");
    let (bin, reader_bin) = (installed(&bin, "mydesign-docs")?, installed(&reader_bin, "mydesign-docs-reader-only")?);

    let mut inputs: Vec<(&str, PathBuf, &str)> = vec![("sample", root().join("corpus"), "default")];
    let semi_dir = match semi_input() {
        Ok(semi) if semi.is_dir() => {
            inputs.push(("semi", semi.clone(), "semi"));
            inputs.push(("blueprint", semi.with_file_name("blueprint"), "blueprint"));
            Some(semi)
        }
        Ok(_) | Err(_) => {
            eprintln!("note: no real corpus; benchmarking the sample only");
            None
        }
    };
    if let Some(semi) = &semi_dir
        && o.scale > 1
    {
        let synth = root().join(format!("target/synth/semi-x{}", o.scale));
        if !synth.join(".synth").is_file() {
            synth::synth(semi, &synth, o.scale)?;
        }
        inputs.push((if o.scale == 10 { "semi-x10" } else { "semi-xN" }, synth, "semi"));
    }

    eprintln!("## builds ({} runs each)", o.runs);
    let mut sets: Vec<(&str, PathBuf)> = Vec::new();
    for (name, repo, preset) in &inputs {
        let dest = out.join(name);
        let runs = if name.starts_with("semi-x") { 1 } else { o.runs };
        let mut best: Option<Cost> = None;
        let summary = root().join("target/bench-build.txt");
        for _ in 0..runs {
            let mut cmd = Command::new(&bin);
            // Cold builds: the default cache (`OUT/.cache`) would make every run after the first incremental.
            cmd.arg("build").arg(repo).arg("--preset").arg(preset).arg("--no-cache").arg("--out").arg(&dest);
            let c = measure_into(&mut cmd, std::fs::File::create(&summary)?.into())?;
            best = Some(match best {
                None => c,
                Some(b) => Cost { wall: b.wall.min(c.wall), cpu: b.cpu.min(c.cpu), rss_kib: b.rss_kib.max(c.rss_kib) },
            });
        }
        let best = best.context("no run")?;
        figs.add(format!("build {name}: wall"), best.wall.as_secs_f64(), "s");
        figs.add(format!("build {name}: CPU"), best.cpu.as_secs_f64(), "s");
        figs.add(format!("build {name}: peak RSS"), best.rss_kib as f64 / 1024.0, "MiB");
        let (source, bundle) = sizes(&std::fs::read_to_string(&summary)?)?;
        figs.add(format!("build {name}: source bytes"), source as f64 / 1e6, "MB");
        figs.add(format!("build {name}: bundle bytes"), bundle as f64 / 1e6, "MB");
        figs.add(format!("build {name}: bundle/source"), bundle as f64 / source as f64, "×");
        if !name.starts_with("semi-x") {
            // Incremental, unchanged tree: one build fills a cache, the next reuses every component.
            let cache = out.join(format!("{name}.cache"));
            let cached = || cached_build(&bin, repo, preset, &cache, &dest);
            measure(&mut cached())?;
            let warm = measure(&mut cached())?;
            figs.add(
                format!("build {name}: unchanged rebuild CPU / cold"),
                warm.cpu.as_secs_f64() / best.cpu.as_secs_f64(),
                "×",
            );
            // One changed document: a copy of the input, a cached build, one line added to its button document.
            let copy = out.join(format!("{name}.copy"));
            let _ = std::fs::remove_dir_all(&copy);
            copy_tree(repo, &copy)?;
            let document = first_file(&copy, &|p| {
                let p = p.to_string_lossy();
                p.contains("button") && (p.ends_with(".md") || p.ends_with(".mdx"))
            })
            .context("no button document to change")?;
            let (cache, dest) = (out.join(format!("{name}.copy-cache")), out.join(format!("{name}.copy-out")));
            let copied = || cached_build(&bin, &copy, preset, &cache, &dest);
            measure(&mut copied())?;
            let mut text = std::fs::read_to_string(&document)?;
            text.push_str("\n## Benchmark\n\nOne section added by `cargo xtask bench`.\n");
            std::fs::write(&document, text)?;
            let changed = measure(&mut copied())?;
            figs.add(
                format!("build {name}: one changed document CPU / cold"),
                changed.cpu.as_secs_f64() / best.cpu.as_secs_f64(),
                "×",
            );
        }
        sets.push((name, dest));
    }

    // Whole-process CLI lookups, on Semi when present (else the sample), and the same lookups at N× Semi.
    let semi = sets.iter().any(|s| s.0 == "semi");
    let lookups: Vec<Vec<&str>> = if semi {
        vec![
            vec!["components"],
            vec!["doc", "table"],
            vec!["doc", "table", "--full"],
            vec!["code-block", "table", "53"],
            vec!["prop", "table.rowSelection"],
            vec!["context", "form", "select", "datepicker", "--max-tokens", "2000"],
            vec!["context", "form", "select", "datepicker", "--max-tokens", "6000"],
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
            vec!["prop", "button.loading"],
            vec!["context", "button", "table", "select", "--max-tokens", "6000"],
            vec!["changelog", "--page", "6"],
            vec!["file", "src/components/Table/Table.tsx"],
            vec!["function", "src/components/Table/Table.tsx", "Table.render"],
        ]
    };
    let (system, base) = if semi { ("semi", "semi") } else { ("my-design", "sample") };
    let set_dir = |name: &str| sets.iter().find(|s| s.0 == name).map(|s| s.1.clone());
    // Wall p50, wall p99 and CPU p50 (ms) of `o.lookups` runs of the command `make` gives.
    let runs = |make: &dyn Fn() -> Command| -> anyhow::Result<(f64, f64, f64)> {
        let (mut wall, mut cpu) = (Vec::new(), Vec::new());
        for _ in 0..o.lookups {
            let c = measure(&mut make())?;
            wall.push(c.wall);
            cpu.push(c.cpu);
        }
        wall.sort();
        cpu.sort();
        Ok((percentile(&wall, 0.5), percentile(&wall, 0.99), percentile(&cpu, 0.5)))
    };
    let lookup_with = |bin: &Path, dir: &Path, args: &[&str]| {
        runs(&|| {
            let mut cmd = Command::new(bin);
            cmd.args(args).args(["--bundles"]).arg(dir).args(["--system", system]);
            cmd
        })
    };
    let lookup = |dir: &Path, args: &[&str]| lookup_with(&bin, dir, args);
    eprintln!("## whole-process CLI lookups on {base} ({} runs each)", o.lookups);
    let base_dir = set_dir(base).context("no base set")?;
    for args in &lookups {
        let (p50, p99, cpu) = lookup(&base_dir, args)?;
        figs.add(format!("CLI {base} `{}`: wall p50", args.join(" ")), p50, "ms");
        figs.add(format!("CLI {base} `{}`: wall p99", args.join(" ")), p99, "ms");
        figs.add(format!("CLI {base} `{}`: CPU p50", args.join(" ")), cpu, "ms");
    }
    // `cat` of the bytes `doc table` prints: the floor a whole-process lookup is compared with.
    let answer = Command::new(&bin)
        .args(["doc", "table", "--bundles"])
        .arg(&base_dir)
        .args(["--system", system])
        .output()?
        .stdout;
    let cat_file = root().join("target/bench-cat.txt");
    std::fs::write(&cat_file, &answer)?;
    let (cat_wall, _, cat_cpu) = runs(&|| {
        let mut cmd = Command::new("cat");
        cmd.arg(&cat_file);
        cmd
    })?;
    figs.add(format!("cat of `doc table`'s {} bytes: wall p50", answer.len()), cat_wall, "ms");
    figs.add(format!("cat of `doc table`'s {} bytes: CPU p50", answer.len()), cat_cpu, "ms");
    let (doc_wall, _, _) = lookup(&base_dir, &["doc", "table"])?;
    figs.add(format!("CLI {base} `doc table` / cat: wall"), doc_wall / cat_wall, "×");
    let (reader_wall, _, reader_cpu) = lookup_with(&reader_bin, &base_dir, &["doc", "table"])?;
    figs.add(format!("CLI {base} `doc table`, reader-only binary: wall p50"), reader_wall, "ms");
    figs.add(format!("CLI {base} `doc table`, reader-only binary: CPU p50"), reader_cpu, "ms");
    figs.add(format!("CLI {base} `doc table`, reader-only binary / cat: wall"), reader_wall / cat_wall, "×");
    if let Some(scaled) = inputs.iter().find(|i| i.0.starts_with("semi-x")).and_then(|i| set_dir(i.0)) {
        for args in [vec!["doc", "table"], vec!["code-block", "table", "53"], vec!["files", "table"]] {
            let (p50, _, cpu) = lookup(&scaled, &args)?;
            let (b50, _, bcpu) = lookup(&base_dir, &args)?;
            let what = args.join(" ");
            figs.add(format!("CLI {}× `{what}`: wall p50", o.scale), p50, "ms");
            figs.add(format!("CLI {}× `{what}`: CPU p50", o.scale), cpu, "ms");
            figs.add(format!("CLI {}× / 1× `{what}`: CPU", o.scale), cpu / bcpu, "×");
            figs.add(format!("CLI {}× / 1× `{what}`: wall", o.scale), p50 / b50, "×");
        }
    }
    let mut mcp_sets = vec![(base, base_dir.clone())];
    if let Some(i) = inputs.iter().find(|i| i.0.starts_with("semi-x")) {
        mcp_sets.extend(set_dir(i.0).map(|d| (i.0, d)));
    }
    for (name, dir) in &mcp_sets {
        mcp_bench(&bin, dir, name, system, semi, o.calls, &mut figs)?;
    }

    let json = root().join("target/bench.json");
    let previous = previous_figures(&json);
    let command = format!("cargo xtask bench {}", args.join(" "));
    println!("\n## cargo xtask bench on {}\n", machine());
    let regressions = figs.print(&previous);
    if previous.is_empty() {
        println!("\n(no previous target/bench.json to compare with)");
    } else {
        println!("\n{regressions} regression(s) over 10 % against the previous target/bench.json");
    }
    std::fs::write(&json, figs.to_json(&machine(), command.trim()))?;
    println!("written: {}", json.display());
    Ok(())
}

/// MCP over stdio, timed with ../shared/tools/mcp_time.py (a bare JSON-RPC client, so figures compare across
/// servers): start → initialized and the round trip of each tool; then the server's resident memory after a call to
/// every tool.
fn mcp_bench(
    bin: &Path,
    out: &Path,
    name: &str,
    system: &str,
    semi: bool,
    n: usize,
    figs: &mut Figures,
) -> anyhow::Result<()> {
    let timer = root().join("../shared/tools/mcp_time.py");
    let timer = if timer.exists() { timer } else { PathBuf::from("/work/shared/tools/mcp_time.py") };
    if !timer.exists() {
        eprintln!("note: {} not found; MCP figures skipped", timer.display());
        return Ok(());
    }
    let calls: Vec<(&str, &str)> = if semi {
        vec![
            ("list_components", r#"{}"#),
            ("component_details", r#"{"component":"table"}"#),
            ("get_code_block", r#"{"component":"table","index":53}"#),
            ("get_changelog", r#"{"page":17}"#),
            ("list_components", r#"{"component":"table"}"#),
            ("get_file_code", r#"{"path":"packages/semi-foundation/table/foundation.ts"}"#),
            (
                "get_function_code",
                r#"{"path":"packages/semi-foundation/table/foundation.ts","function":"TableFoundation.init"}"#,
            ),
            ("search_docs", r#"{"query":"table row selection"}"#),
        ]
    } else {
        vec![
            ("list_components", r#"{}"#),
            ("component_details", r#"{"component":"table"}"#),
            ("get_code_block", r#"{"component":"table","index":33}"#),
            ("get_changelog", r#"{"page":6}"#),
            ("list_components", r#"{"component":"table"}"#),
            ("get_file_code", r#"{"path":"src/components/Table/Table.tsx"}"#),
            ("get_function_code", r#"{"path":"src/components/Table/Table.tsx","function":"Table.render"}"#),
            ("search_docs", r#"{"query":"table row selection"}"#),
        ]
    };
    eprintln!("## MCP over stdio on {name} (mcp_time.py, {n} calls each)");
    let calls: Vec<(&str, String)> = calls
        .iter()
        .map(|(tool, args)| {
            let rest = args.trim_start_matches('{').trim_end_matches('}');
            let sep = if rest.is_empty() { "" } else { "," };
            (*tool, format!(r#"{{"system":"{system}"{sep}{rest}}}"#))
        })
        .collect();
    let mut starts = Vec::new();
    for (tool, args) in &calls {
        let mut cmd = Command::new("python3");
        cmd.arg(&timer).args(["-n", &n.to_string(), "--tool", tool, "--args", args, "--"]);
        cmd.arg(bin).args(["serve", "--bundles"]).arg(out);
        let o = cmd.env("RUST_LOG", "off").output()?;
        let line = String::from_utf8_lossy(&o.stdout);
        let field = |name: &str| -> f64 {
            let at = line.find(&format!("\"{name}\": ")).map(|i| i + name.len() + 4);
            at.and_then(|i| line[i..].split([',', '}']).next()?.trim().parse().ok()).unwrap_or(f64::NAN)
        };
        if !o.status.success() || !line.contains("\"is_error\": false") {
            bail!("mcp_time.py {tool} failed: {line}{}", String::from_utf8_lossy(&o.stderr));
        }
        starts.push(field("init_ms"));
        // `list_components` with a component lists its files (the former `list_component_files`).
        let label =
            if args.contains("\"component\"") && *tool == "list_components" { "list_components (files)" } else { tool };
        figs.add(format!("MCP {name} {label}: p50"), field("p50_ms"), "ms");
        figs.add(format!("MCP {name} {label}: p99"), field("p99_ms"), "ms");
        if label == "list_components" {
            figs.add(format!("MCP {name} tools/list"), field("tools_list_bytes"), "B");
        }
    }
    starts.sort_by(f64::total_cmp);
    figs.add(format!("MCP {name} start → initialized (median of {})", starts.len()), starts[starts.len() / 2], "ms");
    let rss = mcp_rss(bin, out, &calls)?;
    figs.add(format!("MCP {name} serve RSS after one call of each tool"), rss as f64 / 1024.0, "MiB");
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

/// Source and bundle bytes from `build`'s summary (its `bytes:` line).
fn sizes(summary: &str) -> anyhow::Result<(u64, u64)> {
    let line =
        summary.lines().find(|l| l.trim_start().starts_with("bytes:")).context("no bytes line in the summary")?;
    let nums: Vec<u64> = line.split_whitespace().filter_map(|w| w.replace(',', "").parse().ok()).collect();
    match nums.as_slice() {
        [source, bundle, ..] => Ok((*source, *bundle)),
        _ => bail!("cannot read `{line}`"),
    }
}

/// `cargo xtask eval [--input NAME]…`: builds the inputs the task files name (the dev binary, each input's detected
/// configuration, as a user builds it), answers every task with every policy, prints the report and compares it
/// with the previous `target/eval.json`.
/// The repository of `input` (`sample` is `corpus/`, any other name a folder of the real corpus) built by `bin`
/// into `target/eval-out/<input>` with its cache in `target/eval-cache/<input>`: `(repo, output directory)`, or
/// `None` (said on stderr) when the input is not there.
fn build_input(bin: &Path, input: &str) -> anyhow::Result<Option<(PathBuf, PathBuf)>> {
    let repo = if input == "sample" {
        root().join("corpus")
    } else {
        match semi_input() {
            Ok(semi) => semi.with_file_name(input),
            Err(e) => {
                eprintln!("note: {input}: skipped ({e})");
                return Ok(None);
            }
        }
    };
    if !repo.is_dir() {
        eprintln!("note: {input}: skipped ({} is not there)", repo.display());
        return Ok(None);
    }
    let out = root().join("target/eval-out").join(input);
    let _ = std::fs::remove_dir_all(&out);
    let cache = root().join("target/eval-cache").join(input);
    let mut build = Command::new(bin);
    build.arg("build").arg(&repo).arg("--out").arg(&out).arg("--cache").arg(&cache);
    if !build.stdout(Stdio::null()).stderr(Stdio::null()).status()?.success() {
        bail!("building {} failed: {build:?}", repo.display());
    }
    Ok(Some((repo, out)))
}

fn eval_command(args: &[String]) -> anyhow::Result<()> {
    use xtask::eval;
    let mut only: Vec<&str> = Vec::new();
    let mut show: Option<&str> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--input" => only.push(it.next().context("--input NAME")?),
            "--show" => show = Some(it.next().context("--show TASK-ID")?),
            other => {
                bail!("eval: unknown argument `{other}`; usage: cargo xtask eval [--input NAME]… [--show TASK-ID]")
            }
        }
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    if !Command::new(cargo).args(["build", "--package", "mydesign-docs"]).status()?.success() {
        bail!("cargo build failed");
    }
    let bin = root().join("target/debug/mydesign-docs");
    let sets = eval::tasks::load(&root().join("eval/tasks"))?;
    let mut results = Vec::new();
    for set in sets {
        if !only.is_empty() && !only.contains(&set.input.as_str()) {
            continue;
        }
        let Some((repo, out)) = build_input(&bin, &set.input)? else { continue };
        eprintln!("{}: {} tasks", set.input, set.tasks.len());
        results.push((set.input.clone(), eval::evaluate(&bin, &out, &repo, &set.tasks, show)?));
    }
    let path = root().join("target/eval.json");
    let previous: std::collections::BTreeMap<String, serde_json::Value> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v.get("rows").and_then(|r| serde_json::from_value(r.clone()).ok()))
        .unwrap_or_default();
    println!(
        "{:<16} {:<11} {:>7} {:>9} {:>9} {:>6}   previous (solved, median tokens)",
        "input", "policy", "solved", "median", "p90", "calls"
    );
    for (name, policy, s) in eval::rows(&results) {
        let before = previous
            .get(&format!("{name} / {policy}"))
            .map_or(String::new(), |p| format!("{}/{}, {}", p["solved"], p["tasks"], p["median_tokens"]));
        println!(
            "{name:<16} {policy:<11} {:>7} {:>9} {:>9} {:>6}   {before}",
            format!("{}/{}", s.solved, s.tasks),
            s.median_tokens,
            s.p90_tokens,
            s.median_calls
        );
    }
    println!("\ntasks `ours` did not solve:");
    for (input, scored) in &results {
        for s in scored {
            if let Some((_, o)) = s.outcomes.iter().find(|(p, o)| *p == "ours" && !o.solved) {
                println!("  {input} {}: {}", s.task.id, o.reason.as_deref().unwrap_or(""));
            }
        }
    }
    std::fs::write(&path, serde_json::to_string_pretty(&eval::to_json(&results, &machine()))?)?;
    println!("written: {}", path.display());
    Ok(())
}

/// The six real inputs the search-quality report covers.
const REAL_INPUTS: [&str; 6] = ["semi", "blueprint", "antd-mobile", "arco-design", "chakra-ui", "vant"];

/// `cargo xtask search-quality [--input NAME]…`: the findable share of sampled words and the recall of the search
/// questions (`xtask::quality`), per input and in all; writes `target/search-quality.json`.
fn search_quality_command(args: &[String]) -> anyhow::Result<()> {
    use xtask::quality::{self, InputReport, Origin};
    let mut only: Vec<&str> = Vec::new();
    let mut bin: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--input" => only.push(it.next().context("--input NAME")?),
            "--bin" => bin = Some(PathBuf::from(it.next().context("--bin PATH")?)),
            other => bail!(
                "search-quality: unknown argument `{other}`; usage: cargo xtask search-quality [--input NAME]… [--bin PATH]"
            ),
        }
    }
    // `--bin`: the sets are built by that binary (an earlier build, for a before/after comparison), else by this tree's.
    let bin = match bin {
        Some(bin) => bin,
        None => {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            if !Command::new(cargo).args(["build", "--package", "mydesign-docs"]).status()?.success() {
                bail!("cargo build failed");
            }
            root().join("target/debug/mydesign-docs")
        }
    };
    let asked = quality::questions::load(&root().join("eval/search"))?;
    let mut reports = Vec::new();
    for input in REAL_INPUTS.iter().filter(|i| only.is_empty() || only.contains(i)) {
        let Some((repo, out)) = build_input(&bin, input)? else { continue };
        let set = mydesign_docs_reader::read::BundleSet::discover(&out, None, None)?;
        let questions = asked.iter().find(|(i, _)| i == input).map(|(_, q)| q.as_slice()).unwrap_or_default();
        let report = InputReport {
            input: input.to_string(),
            words: quality::words(&set, &repo)?,
            questions: quality::questions(&set, questions),
        };
        let words: Vec<_> = report.words.iter().collect();
        let share = |origin: Origin, chinese: bool| {
            let (f, n) = quality::word_share(&words, |w| w.word.origin == origin && w.word.chinese == chinese);
            if n == 0 { "-".to_string() } else { format!("{f}/{n}") }
        };
        let (f, n) = quality::word_share(&words, |_| true);
        let qs: Vec<_> = report.questions.iter().collect();
        let (r1, r5, nq) = quality::recall(&qs, None);
        println!(
            "{input:<12} words {f}/{n} ({:.1} %): documents {} + {} zh, examples {} + {} zh, sources {} + {} zh; questions @1 {r1}/{nq}, @5 {r5}/{nq}",
            100.0 * f as f64 / n.max(1) as f64,
            share(Origin::Document, false),
            share(Origin::Document, true),
            share(Origin::Example, false),
            share(Origin::Example, true),
            share(Origin::Source, false),
            share(Origin::Source, true),
        );
        for q in report.questions.iter().filter(|q| q.rank != Some(1)) {
            println!("  question {} ranked {:?}: top {:?}", q.question.id, q.rank, q.top);
        }
        reports.push(report);
    }
    let words: Vec<_> = reports.iter().flat_map(|r| r.words.iter()).collect();
    let qs: Vec<_> = reports.iter().flat_map(|r| r.questions.iter()).collect();
    let (f, n) = quality::word_share(&words, |_| true);
    println!("all          words {f}/{n} ({:.1} %)", 100.0 * f as f64 / n.max(1) as f64);
    for lang in ["en", "zh"] {
        let (r1, r5, nq) = quality::recall(&qs, Some(lang));
        let at = |r: usize| r as f64 / nq.max(1) as f64;
        println!(
            "all, {lang}      questions {nq}: recall@1 {r1}/{nq} ({:.2}), recall@5 {r5}/{nq} ({:.2})",
            at(r1),
            at(r5)
        );
    }
    let path = root().join("target/search-quality.json");
    std::fs::write(&path, serde_json::to_string_pretty(&quality::to_json(&reports))?)?;
    println!("written: {}", path.display());
    Ok(())
}
