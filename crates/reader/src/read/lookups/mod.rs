//! One file per lookup, each an `impl BundleSet` block answering one kind of call with its view; the helpers a
//! lookup shares with another (a document's sections, the props tables, a file's function sizes) stay with the
//! lookup that owns them.

mod card;
pub(super) mod changelog;
mod code_block;
mod components;
pub(super) mod context;
mod design_tokens;
mod details;
mod doc;
mod file;
mod files;
pub(super) mod function;
pub(super) mod prop;
mod props;
pub(super) mod section;
mod uses;

pub(super) use components::stored_row;
