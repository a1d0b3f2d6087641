//! mydesign-docs' compiler half: walks a design system's docs and sources ([`compile`], configured by [`config`]),
//! cuts them with comrak and tree-sitter, counts their tokens in tiktoken's encodings (bpe-openai) and writes the bundles the reader half
//! (`mydesign-docs-reader`) maps, with the search index ([`search::index`]).
//!
//! The reader's modules are re-exported under their usual names (`crate::model`, `crate::bundle`, …) so the
//! compiler's files use one path for each item whichever crate holds it. From the reader, the compiler uses the
//! shapes ([`model`]), the bundle writer ([`bundle::writer`]) and "render to count": it renders views with the
//! reader's own code ([`view`], [`render`], [`read`]) and counts the result, so stored counts are those of the text
//! the reader will serve. See `ARCHITECTURE.md`.
#![deny(missing_docs)]

pub use mydesign_docs_reader::{budget, design_value, escape, line_index, model, publish, read, render, version, view};

/// The on-disk bundle format, its writer and reader: [`mydesign_docs_reader::bundle`].
pub mod bundle {
    pub use mydesign_docs_reader::bundle::*;
}

/// Full-text search: the reader's analysis and queries ([`mydesign_docs_reader::search`]) plus the compiler's
/// [`index`] builder.
pub mod search {
    pub use mydesign_docs_reader::search::*;
    pub mod index;
}

pub mod compile;
pub mod config;
pub mod usage;

#[cfg(test)]
#[path = "../../../src/test_support.rs"]
mod test_support;
