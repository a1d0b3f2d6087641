//! The integration tests, one test binary (one link instead of sixteen: issue 12's fresh-clone time). Each module
//! is one area; `cargo test --test it <module>::` runs one of them, e.g. `cargo test --test it sample::`.

#![allow(dead_code)]

mod common;
mod compile_trial;

mod agents_md;
mod budget;
mod check;
mod context;
mod copies;
mod crates;
mod cursor_fuzz;
mod design_tokens;
mod detect;
mod dumi_layout;
mod echoes;
mod edges;
mod errors;
mod eval;
mod examples;
mod export;
mod fill;
mod help;
mod hostile;
mod http_edges;
mod incremental;
mod integrity;
mod lookup;
mod mcp;
mod messages;
mod new_user;
mod npm;
mod prop;
mod props_real;
mod readme;
mod real_api;
mod real_blueprint;
mod real_dumi;
mod real_semi;
mod release;
mod repair;
mod robustness;
mod sample;
mod search;
mod search_chains;
mod search_quality;
mod settings;
mod site_syntax;
mod small_budgets;
mod stories;
mod sweep;
mod sweep300;
mod tokens;
mod trial;
mod trial_lookups;
mod vue;
