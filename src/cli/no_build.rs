//! `mydesign-docs build` in a binary compiled without the `build` feature (the reader-only binary): the subcommand
//! exists so its name is not a puzzle, and says it is not compiled in.

use std::process::ExitCode;

use clap::Args;

/// Arguments of `build`: anything, since none is read.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The arguments `build` takes in the full binary (not read here).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

/// Fails: this binary has no compiler.
pub fn run(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let _ = args.args;
    anyhow::bail!(
        "`build` is not compiled into this binary (it was built without the `build` feature: the reader only). Build \
         bundle sets with the full mydesign-docs (from a checkout: `cargo install --path . --locked`, or `cargo \
         xtask install`; docs/release.md), or `install` a pack built elsewhere; every lookup and `serve` work here."
    )
}
