//! Wall-time marks of a build's stages, printed with `MYDESIGN_TIMINGS` set. A leaf of `compile/`.

use std::time::Instant;

/// When the build started, for [`timing`] (set by [`start`]).
static STARTED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

/// With `MYDESIGN_TIMINGS` set, prints to stderr the wall time since the build started when `stage` ended (to find
/// the serial tails of a build; issue 12 item 2).
pub(crate) fn timing(stage: &str) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("MYDESIGN_TIMINGS").is_some()) {
        let at = STARTED.get().map_or(0.0, |s| s.elapsed().as_secs_f64() * 1000.0);
        eprintln!("timing: {at:8.1} ms  {stage}");
    }
}

/// Records `at` as the start of the build [`timing`] measures from (the first build of the process wins).
pub(crate) fn start(at: Instant) {
    let _ = STARTED.set(at);
}
