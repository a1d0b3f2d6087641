//! Links this package's executables without PIE on Linux with glibc when they are linked dynamically. The usual
//! build is static (`.cargo/config.toml`: `crt-static` and `relocation-model=static`, where rustc itself links a
//! non-PIE executable), so this applies to a dynamic build only (`RUSTFLAGS=` set and empty). A dynamic PIE
//! applied ~20,000 relative relocations at every start in the full binary: 88 pages of `.data.rel.ro` copied on
//! write, a seventh of a `doc table` process (1.95 → 1.70 ms on Semi). The code stays position-independent; only
//! the executable's own base address is fixed (as Go links its executables by default); shared libraries, heap,
//! stack and mappings stay randomized. Set `MYDESIGN_DOCS_PIE=1` when building to keep PIE.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=MYDESIGN_DOCS_PIE");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let linux_gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    // With `crt-static`, `-no-pie` on top of rustc's `-static-pie` links an executable that crashes at start.
    let crt_static = var("CARGO_CFG_TARGET_FEATURE").split(',').any(|f| f == "crt-static");
    if linux_gnu && !crt_static && std::env::var_os("MYDESIGN_DOCS_PIE").is_none() {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
