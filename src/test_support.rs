//! Test-only: where the real Semi Design and Blueprint inputs are. Shared by unit tests (`crate::test_support`)
//! and integration tests (`tests/common`, by path), so both find and assemble them the same way.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The assembled real inputs (`semi/`, `blueprint/`), or `None` with the reason printed. Uses
/// `$MYDESIGN_REAL_CORPUS` when set and not empty, else assembles `../shared/corpus` into `target/real-corpus` (the script is
/// idempotent and needs the npm registry).
pub fn real_corpus() -> Option<PathBuf> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = DIR.get_or_init(|| {
        if let Some(dir) = std::env::var_os("MYDESIGN_REAL_CORPUS").filter(|d| !d.is_empty()) {
            return Ok(PathBuf::from(dir));
        }
        // The workspace root (this file is also compiled into crates/compiler's unit tests).
        let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let root = manifest.ancestors().find(|d| d.join("Cargo.lock").exists()).unwrap_or(&manifest).to_path_buf();
        let script = root.join("../shared/corpus/assemble.sh");
        if !script.exists() {
            return Err(format!("{} not found (../shared is absent)", script.display()));
        }
        let dest = root.join("target/real-corpus");
        if dest.join("semi/.assembled").exists() && dest.join("blueprint/.assembled").exists() {
            return Ok(dest);
        }
        let out = Command::new("bash").arg(&script).arg(&dest).output().map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(dest)
        } else {
            Err(format!("assemble.sh failed: {}", String::from_utf8_lossy(&out.stderr)))
        }
    });
    match found {
        Ok(dir) => Some(dir.clone()),
        Err(why) => {
            skip(format_args!("real-corpus test: {why}"));
            None
        }
    }
}

/// The environment variable that turns skips into failures: with `MYDESIGN_REQUIRE_REAL=1` (as `.ci/run` sets it)
/// a missing or failed real corpus or MCP client (Python SDK venv, Inspector) fails the test instead of skipping it.
pub const REQUIRE_REAL: &str = "MYDESIGN_REQUIRE_REAL";

/// A test cannot run for `why`: prints `skipping: why`, or panics when [`REQUIRE_REAL`] is `1`.
///
/// The line is written to the process's stderr itself, not through `eprintln!`: the test harness captures the
/// print macros and shows a passing test's output only with `--nocapture`, so a skip printed that way looked like a
/// pass in `cargo test`'s summary.
pub fn skip(why: std::fmt::Arguments) {
    use std::io::Write;
    if std::env::var_os(REQUIRE_REAL).is_some_and(|v| v == "1") {
        panic!("{REQUIRE_REAL}=1 and this test cannot run: {why}");
    }
    let _ = writeln!(std::io::stderr().lock(), "skipping: {why}");
}
