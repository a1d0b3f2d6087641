//! The `mydesign-docs` command: parse the arguments, run, exit with 0 (success) or 2 (error).

mod cli;

fn main() -> std::process::ExitCode {
    cli::run(<cli::Cli as clap::Parser>::parse())
}
