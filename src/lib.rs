//! mydesign-docs: compile a design system's documentation and sources once into compact, token-counted
//! bundles ([`compile`] → [`bundle`]), then answer lookups from the bundles in microseconds
//! ([`read`] → [`render`]).
//!
//! The two halves meet only in [`model`] (the serialized shapes) and [`bundle`] (the on-disk format): the reader
//! half never parses Markdown, runs tree-sitter or tokenizes. See `ARCHITECTURE.md`.
#![deny(missing_docs)]

pub mod budget;
pub mod bundle;
pub mod compile;
pub mod config;
pub mod diff;
pub mod model;
pub mod project;
pub mod read;
pub mod render;
pub mod search;
pub mod serve;
pub mod store;
pub mod view;

#[cfg(test)]
mod test_support;
