//! The reader half: finds a bundle set, opens bundles (positioned reads) on first use, and answers each lookup by
//! decompressing only the frames it returns. It never parses Markdown, runs tree-sitter or counts tokens: every
//! number it reports was stored by the compiler.
//!
//! Lookups return plain serializable views (the structured output of CLI `--json` and of MCP tools); `render`
//! turns them into text. A failed lookup is a [`LookupError`] that names what exists.
//!
//! Files by job: `error` (the lookup errors), `names` (echo, closest, similarity), `views` (the view
//! structs), `library` (the library of sets and its fallback), `set` (`BundleSet`: open, identity, verify,
//! damage), `meta` (component, document and language resolution), `cache` (the caches of a set), `paging` (text
//! and list paging), and one file per lookup under `lookups/`. Every public item is re-exported here, so
//! `read::BundleSet`, `read::Library`, the views and the errors keep their paths.

mod cache;
mod error;
mod library;
mod lookups;
mod meta;
mod names;
mod paging;
mod set;
mod views;

pub use error::{LookupError, incomplete_sets, no_bundles};
pub use library::{DamagedSet, Library, has_spare_copy};
pub use lookups::changelog::changelog_page_name;
pub use lookups::context::{CONTEXT_MAX_TOKENS, MAX_CONTEXT_COMPONENTS};
pub use lookups::prop::PROP_MAX_TOKENS;
pub use names::{FIRST_NAMES, MAX_NAME_CHARS, closest, echo, similarity};
pub(crate) use names::{entries, first_names, nearest_first};
pub use paging::Paging;
pub(crate) use paging::{cli_bundles, record_cli_bundles};
pub use set::{BundleSet, Verified};
pub use views::{
    CardView, ChangelogView, CodeBlockView, ComponentRow, ComponentsView, ContextPart, ContextView, Detail,
    DetailsView, DocView, ExampleRef, FileView, FilesView, FunctionSize, FunctionView, ListKind, ListPart, PropView,
    PropsView, Served, TokenForView, TokenMatch, TokensView, UsesView,
};
