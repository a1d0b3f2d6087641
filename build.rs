//! Links this package's executables without PIE on Linux with glibc when `MYDESIGN_DOCS_NO_PIE=1` is set, which
//! `cargo xtask dist` sets for the distributed reader-only binary (dynamic). Plain `cargo build` keeps PIE.
//! Why the distributed binary opts out: a dynamic PIE applied ~20,000 relative relocations at every start in the
//! full binary, 88 pages of `.data.rel.ro` copied on write, a seventh of a `doc table` process (1.95 → 1.70 ms on
//! Semi). The code stays position-independent; only the executable's own base address is fixed; shared libraries,
//! heap, stack and mappings stay randomized.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=MYDESIGN_DOCS_NO_PIE");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let linux_gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    // With `crt-static`, `-no-pie` on top of rustc's `-static-pie` links an executable that crashes at start.
    let crt_static = var("CARGO_CFG_TARGET_FEATURE").split(',').any(|f| f == "crt-static");
    if linux_gnu && !crt_static && var("MYDESIGN_DOCS_NO_PIE") == "1" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
