//! Compiles every classified input into frames (in parallel with rayon) and writes the bundle set:
//! `out/<system>@<version>/{manifest.bundle, changelog.bundle, <component>.bundle …}`, built in a temporary sibling
//! directory and renamed into place so readers never see a partial set.
//!
//! One job a module: [`schedule`] orders the work (stage 3: which units are reused, which files compile first,
//! what runs beside what); [`load`] reads input text; [`units`] keys each unit for the incremental build cache;
//! [`file`], [`doc`], [`component`] and [`changelog_bundle`] compile one unit each; [`assemble`] makes the
//! manifest (stage 4); [`publish`] spools, writes and swaps the set into place. This file holds the values they
//! pass each other.

use std::path::Path;
use std::sync::{Mutex, OnceLock};

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

use super::cache::{self, Cache};
use super::diagnostic::Diagnostic;
use super::examples;
use super::layout::Layout;
use super::tokens::TokenCounter;
use super::walk::WalkedFile;
use crate::bundle::format::Lead;
use crate::bundle::writer::{Frame, SpooledBundle};
use crate::config::Config;
use crate::model::*;
use crate::search::index::{PackedUnits, UnitDraft};

mod assemble;
mod changelog_bundle;
mod component;
mod design_tokens;
mod doc;
mod file;
mod load;
mod publish;
mod schedule;
mod units;

pub use publish::{Spool, published, published_as, published_damage, write_bundle_set};
pub(crate) use publish::{remove_stale_temporaries, write_bundle_set_publishing};
pub use schedule::compile_all;

/// Stage 4's input: everything compiled, before it is written (the manifest without its bundle list, and the
/// frames of every bundle).
pub struct CompiledSet {
    manifest: Manifest,
    /// Each component's key and spooled bundle.
    components: Vec<(String, SpooledBundle)>,
    changelog: Option<SpooledBundle>,
    /// Where the bundles are (removed with the set; the bundles kept are renamed out of it first).
    spool: Spool,
    /// Search units (packed, in index order), indexed while the other bundles are written.
    search: Vec<PackedUnits>,
    /// Where the version came from, for the build report (`packages/ui/package.json`, `the changelog`).
    pub version_source: String,
    /// The set's design tokens (the `design-tokens` frame of `manifest.bundle`).
    design_tokens: DesignTokens,
}

/// Stage 3's output for one component: its documents and the files it owns compiled into the frames of its
/// bundle, with what the manifest and the search index take from it. The incremental build cache stores it per
/// component, search units packed ([`CachedComponent`]).
#[derive(Serialize, Deserialize)]
struct CompiledComponent {
    /// The component's key (`_shared` for the shared pseudo-component).
    key: String,
    /// Its manifest entry (`files_tokens` is counted later, from the whole set: [`assemble::count_lists`]).
    entry: ComponentEntry,
    /// Its `component` frame's value (also stored in `frames`).
    meta: ComponentMeta,
    /// Every frame of its bundle, the `component` and `tokens` frames included.
    frames: Vec<Frame>,
    /// Search units of its documents and props tables, in document order.
    units: Vec<UnitDraft>,
    /// The files it owns (listed first by it), by path.
    owned: Vec<OwnedFile>,
    /// What its compilation reported.
    diagnostics: Vec<Diagnostic>,
}

/// A file as the set sees it once compiled: its listing and its functions' search units.
#[derive(Serialize, Deserialize)]
struct OwnedFile {
    meta: FileMeta,
    units: Vec<UnitDraft>,
}

/// Stage 3's output for the changelog: its bundle's frames (none when no changelog could be read), its metadata
/// for the manifest and its releases' search units.
#[derive(Serialize, Deserialize)]
struct CompiledChangelog {
    meta: Option<ChangelogMeta>,
    frames: Vec<Frame>,
    units: Vec<UnitDraft>,
    diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Serialize, Deserialize)]
struct CompiledFile {
    meta: FileMeta,
    frames: Vec<Frame>,
    /// Token maps of its text and skeleton.
    maps: TokenMaps,
    /// Props tables of its `XxxProps` types.
    props: Vec<PropsTable>,
    /// The line of each prop declared in those tables' own bodies, by `Table.prop` (format 12's `prop-sites`).
    #[serde(default)]
    prop_lines: std::collections::BTreeMap<String, u32>,
    /// Search units of its functions.
    units: Vec<UnitDraft>,
}

struct CompiledDoc {
    meta: DocMeta,
    /// The document's text: its `doc/<lang>` frame is made by the component, which knows the other languages'
    /// (see [`component::doc_frames`]).
    text: String,
    /// A document served as its placeholder view is stored with the view as lead (format 9): the string stored
    /// (the view, then the hidden blocks' and tables' text) and how the text is spliced from it.
    lead: Option<(String, Lead)>,
    frames: Vec<Frame>,
    /// Token maps of the document and its placeholder view.
    maps: TokenMaps,
    /// Props tables of its API section.
    props: Vec<PropsTable>,
    /// Each row's line in the document as written (0: not found), per table of `props`: the row a `prop` answer
    /// cites, where the expanded text's line would name a line the file does not have.
    row_lines: Vec<Vec<u32>>,
    /// Search units of its sections and code blocks.
    units: Vec<UnitDraft>,
    /// Demo files it read (or looked for).
    deps: Vec<cache::Dependency>,
}

/// The token counter, made on first use: a build that reuses every unit from the cache never loads the
/// encoding's vocabulary.
struct LazyCounter {
    encoding: String,
    counter: OnceLock<TokenCounter>,
}

impl std::ops::Deref for LazyCounter {
    type Target = TokenCounter;
    fn deref(&self) -> &TokenCounter {
        self.counter.get_or_init(|| match TokenCounter::new(&self.encoding) {
            Ok(t) => t,
            // `Config::validate`, checked before anything is compiled, accepts only the encodings
            // `TokenCounter::new` knows.
            Err(e) => unreachable!("{e}"),
        })
    }
}

/// The run's [`LazyCounter`], as each task's context holds it (it derefs to the [`TokenCounter`]).
#[derive(Clone, Copy)]
struct Tokens<'a>(&'a LazyCounter);

impl std::ops::Deref for Tokens<'_> {
    type Target = TokenCounter;
    fn deref(&self) -> &TokenCounter {
        self.0
    }
}

/// State of one compile task (a component, a file, the changelog): the run's shared parts and the task's own
/// diagnostics, so each task's report can be stored with its output.
struct Ctx<'a> {
    config: &'a Config,
    /// The walked files and rules example references resolve through.
    examples: &'a examples::Repo<'a>,
    tokens: Tokens<'a>,
    default_lang: &'a str,
    progress: &'a ProgressBar,
    diagnostics: Mutex<Vec<Diagnostic>>,
}

impl<'a> Ctx<'a> {
    fn report(&self, d: Diagnostic) {
        if let Ok(mut v) = self.diagnostics.lock() {
            v.push(d);
        }
    }

    /// A context for another task, with no diagnostics yet.
    fn task(&self) -> Ctx<'a> {
        Ctx {
            config: self.config,
            examples: self.examples,
            tokens: self.tokens,
            default_lang: self.default_lang,
            progress: self.progress,
            diagnostics: Mutex::new(Vec::new()),
        }
    }

    fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

/// A component compiled in this build, before the files it owns are attached.
struct Pending {
    component: CompiledComponent,
    /// Token maps of its documents, cards and props texts (its files' are added).
    maps: TokenMaps,
    /// Files read beyond its plan (demo files, files followed by `extends`).
    deps: Vec<cache::Dependency>,
}

/// What stage 3 reads: the walked repository, its layout and configuration, and the incremental build cache.
pub struct Inputs<'a> {
    /// Repository root.
    pub repo: &'a Path,
    /// Every walked file, sorted by path.
    pub walked: &'a [WalkedFile],
    /// The repository's story files (`examples::story_files`: the walk leaves them out).
    pub stories: &'a [WalkedFile],
    /// The classified layout.
    pub layout: &'a Layout,
    /// The build's configuration.
    pub config: &'a Config,
    /// Show a progress bar.
    pub progress: bool,
    /// The incremental build cache, when the build has one.
    pub cache: Option<&'a Cache>,
}

/// A component whose bundle is spooled: what the manifest and the search index take from it (in `component`, the
/// frames, units and owned files are empty: they are in `bundle`, `units` and `owned`).
struct SpooledComponent {
    component: CompiledComponent,
    bundle: SpooledBundle,
    /// Search units of its documents and props tables.
    units: PackedUnits,
    /// The files it owns, with their functions' search units.
    owned: Vec<PackedFile>,
}

/// What the incremental build cache stores per component: the compiled component with its search units packed
/// (in `component`, `units` and each owned file's `units` are empty), so a reused component's units are neither
/// decoded nor packed again.
#[derive(Serialize, Deserialize)]
struct CachedComponent {
    component: CompiledComponent,
    units: PackedUnits,
    /// Each owned file's units, in `component.owned` order.
    owned_units: Vec<PackedUnits>,
}

impl CachedComponent {
    fn pack(mut component: CompiledComponent) -> std::io::Result<CachedComponent> {
        let units = PackedUnits::pack(&std::mem::take(&mut component.units))?;
        let owned_units = component
            .owned
            .iter_mut()
            .map(|f| PackedUnits::pack(&std::mem::take(&mut f.units)))
            .collect::<std::io::Result<_>>()?;
        Ok(CachedComponent { component, units, owned_units })
    }
}

/// An owned file with its search units packed.
struct PackedFile {
    meta: FileMeta,
    units: PackedUnits,
}

/// The changelog once its bundle is spooled (no bundle when no changelog could be read), units packed.
struct SpooledChangelog {
    changelog: CompiledChangelog,
    bundle: Option<SpooledBundle>,
    units: PackedUnits,
}

/// A compiled file's listing and props only: what a component that lists but does not own it reads.
fn file_view(c: &CompiledFile) -> CompiledFile {
    CompiledFile {
        meta: c.meta.clone(),
        frames: Vec::new(),
        maps: TokenMaps::new(),
        props: c.props.clone(),
        prop_lines: c.prop_lines.clone(),
        units: Vec::new(),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
