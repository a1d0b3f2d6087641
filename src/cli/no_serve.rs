//! `mydesign-docs serve` in a binary compiled without the `serve` feature (a lookups-only CLI): the subcommand exists
//! so its name is not a puzzle, and says it is not compiled in.

use std::process::ExitCode;

use clap::Args;

/// Arguments of `serve`: anything, since none is read.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The arguments `serve` takes in a binary with the server (not read here).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

/// Fails: this binary has no MCP server.
pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let _ = args.args;
    anyhow::bail!(
        "`serve` is not compiled into this binary (it was built without the `serve` feature: lookups only). Every \
         lookup works here; for the MCP server build with `--features serve` (the default)."
    )
}
