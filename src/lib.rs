//! mydesign-docs: compile a design system's documentation and sources once into compact, token-counted
//! bundles ([`compile`] → [`bundle`]), then answer lookups from the bundles in microseconds
//! ([`read`] → [`render`]).
//!
//! The two halves are two crates: `mydesign-docs-reader` (the format, the shapes and every lookup; never parses
//! Markdown, runs tree-sitter or tokenizes) and `mydesign-docs-compiler` (feature `build`); the MCP server is
//! `mydesign-docs-serve` (feature `serve`). This package is the CLI and the release-side modules ([`store`],
//! [`project`]); it re-exports the crates' modules under their historical paths
//! (`mydesign_docs::read`, `mydesign_docs::compile`, …). See `ARCHITECTURE.md`.
#![deny(missing_docs)]

pub use mydesign_docs_reader::{
    budget, bundle, design_value, diff, escape, locate, model, publish, read, render, units, version, view,
};

#[cfg(feature = "build")]
pub use mydesign_docs_compiler::{compile, config, search, usage};
#[cfg(not(feature = "build"))]
pub use mydesign_docs_reader::search;

#[cfg(feature = "serve")]
pub use mydesign_docs_serve::serve;

pub mod project;
pub mod store;
