//! mydesign-docs' reader half: the bundle format ([`bundle`]), the serialized shapes ([`model`]), and everything that
//! answers a lookup from memory-mapped bundles in microseconds: [`read`] (the library, cursors, errors),
//! [`budget`] (token budgets, paging), [`view`] (text splicing over stored byte ranges), [`render`] (the answers'
//! text and JSON) and [`search`] (term analysis and BM25 queries).
//!
//! This crate never parses Markdown, runs tree-sitter or tokenizes: the compiler (`mydesign-docs-compiler`) stores
//! everything it needs. A test (`tests/it/crates.rs` in the root package) asserts that none of comrak, tree-sitter,
//! bpe-openai, rmcp, hyper or tokio is in its dependency tree. See `ARCHITECTURE.md`.
#![deny(missing_docs)]

pub mod budget;
pub mod bundle;
pub mod design_value;
pub mod diff;
pub mod escape;
pub mod line_index;
pub mod locate;
pub mod model;
pub mod publish;
pub mod read;
pub mod render;
pub mod search;
pub mod units;
pub mod varint;
pub mod version;
pub mod view;
