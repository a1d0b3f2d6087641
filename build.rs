//! Build script of the `mydesign-docs` package: links the release binary as a non-PIE executable on x86_64 Linux
//! (glibc).
//!
//! Why (issue 12 item 5, whole-process lookups; figures in BENCHMARKS.md, "Binary size and whole-process CLI"): a
//! position-independent executable is relocated by the dynamic loader at every start. The full binary has 20,397
//! relative relocations spread over all 88 pages of its `.data.rel.ro`, each page then copied on write: 0.26 M
//! instructions and ~100 page faults before `main`, ~0.2 ms of CPU on every CLI lookup (`doc table` on Semi: 2.01 →
//! 1.80 ms CPU p50, `components` 1.69 → 1.48). Linked non-PIE, there is nothing to relocate and the reader-only
//! binary also loses its 138 KB `.rela.dyn`. The cost: the executable's own code and data are not placed at a
//! random address (ASLR still randomizes the stack, heap, mmaps and shared libraries). Delete this file to get PIE
//! back; nothing else depends on it.
//!
//! Only the release profile and only this package's binaries (`rustc-link-arg-bins`): tests, benches and the dev
//! profile link as before. The code stays position-independent (rustc's default), the linker just resolves it.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let release = var("PROFILE") == "release";
    let linux_gnu_x86_64 = var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && var("CARGO_CFG_TARGET_ARCH") == "x86_64";
    if release && linux_gnu_x86_64 {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
