//! Compiles every classified input into frames (in parallel with rayon) and writes the bundle set:
//! `out/<system>@<version>/{manifest.bundle, changelog.bundle, <component>.bundle …}`, built in a temporary sibling
//! directory and renamed into place so readers never see a partial set.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::cache::{self, Cache};
use super::layout::{ComponentPlan, Layout, SHARED};
use super::source::{SourceLang, analyze_file};
use super::tokens::TokenCounter;
use super::walk::WalkedFile;
use super::{Diagnostic, Stage, changelog, examples, markdown, resolve_version};
use crate::bundle::format::{CHANGELOG_KEY, Identity, Lead, MANIFEST_KEY, SEARCH_KEY};
use crate::bundle::writer::{BundleWriter, Frame, SpooledBundle, Written, write_atomically};
use crate::config::{CONFIG_FILE, Config, check_name, package_json};
use crate::line_index::line_count;
use crate::model::*;
use crate::search::index::{self as search_index, DocSource, PackedUnits, UnitDraft};
use crate::version;
use crate::view::{card, placeholder_view_layout, props_text};

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
}

/// Stage 3's output for one component: its documents and the files it owns compiled into the frames of its
/// bundle, with what the manifest and the search index take from it. The incremental build cache stores it per
/// component, search units packed ([`CachedComponent`]).
#[derive(Serialize, Deserialize)]
struct CompiledComponent {
    /// The component's key (`_shared` for the shared pseudo-component).
    key: String,
    /// Its manifest entry (`files_tokens` is counted later, from the whole set: [`count_lists`]).
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
    /// Search units of its functions.
    units: Vec<UnitDraft>,
}

/// What a component's files entry in the incremental build cache (`files/<component>`) holds for each file the
/// component compiled itself: [`compile_file`]'s result (props `extends` not yet followed) and report, under the
/// file's key. When the component is recompiled (one of its documents changed), a file whose key is unchanged is
/// taken from here instead of parsed and counted again; the result is the same bytes.
#[derive(Clone, Serialize, Deserialize)]
struct FileRecord {
    key: u64,
    compiled: Option<CompiledFile>,
    diagnostics: Vec<Diagnostic>,
}

/// A component's [`FileRecord`]s, by path.
type FileRecords = BTreeMap<String, FileRecord>;

/// The cache entry of component `key`'s [`FileRecords`].
fn files_entry(key: &str) -> String {
    format!("files/{key}")
}

struct CompiledDoc {
    meta: DocMeta,
    /// The document's text: its `doc/<lang>` frame is made by the component, which knows the other languages'
    /// (see [`doc_frames`]).
    text: String,
    /// A document served as its placeholder view is stored with the view as lead (format 9): the string stored
    /// (the view, then the hidden blocks' and tables' text) and how the text is spliced from it.
    lead: Option<(String, Lead)>,
    frames: Vec<Frame>,
    /// Token maps of the document and its placeholder view.
    maps: TokenMaps,
    /// Props tables of its API section.
    props: Vec<PropsTable>,
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

/// Why a file's text could not be used.
enum ReadProblem {
    Binary,
    Skip(Diagnostic),
}

fn read_text(f: &WalkedFile, max: u64) -> Result<String, ReadProblem> {
    let skip = |m: String| ReadProblem::Skip(Diagnostic::new(f.rel.clone(), Stage::Read, m));
    if f.bytes > max {
        return Err(skip(format!("{} bytes is over the {max}-byte limit; skipped", f.bytes)));
    }
    let bytes = std::fs::read(&f.abs).map_err(|e| skip(format!("unreadable: {e}")))?;
    if bytes.len() as u64 > max {
        return Err(skip(format!("{} bytes is over the {max}-byte limit; skipped", bytes.len())));
    }
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err(ReadProblem::Binary);
    }
    String::from_utf8(bytes).map(super::strip_bom).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        skip(format!("not UTF-8 (invalid byte at offset {at}); skipped"))
    })
}

/// The pseudo-path of a dependency on the list of walked sources (which `extends` can lead to).
const SOURCES_DEP: &str = "\0walked sources";

/// Cache keys of one build: every input file's content hash, and the key every unit's key includes.
struct Keys {
    global: u64,
    hashes: BTreeMap<String, Option<u64>>,
    /// Hash of the walked source paths (see [`SOURCES_DEP`]).
    sources: u64,
}

impl Keys {
    fn new(config: &Config, walked: &[WalkedFile], inputs: Vec<&WalkedFile>, cache: &Cache) -> Keys {
        let hashes = inputs
            .par_iter()
            .map(|f| {
                let read = || cache::hash_file(&f.abs);
                (f.rel.clone(), cache.hash_of(&f.rel).unwrap_or_else(read))
            })
            .collect();
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        for f in walked.iter().filter(|f| SourceLang::from_path(Path::new(&f.rel)).is_some()) {
            h.update(f.rel.as_bytes());
            h.update(&[0]);
        }
        Keys { global: cache::global_key(&config.to_toml()), hashes, sources: h.digest() }
    }

    fn file(&self, h: &mut xxhash_rust::xxh3::Xxh3, f: &WalkedFile) {
        h.update(f.rel.as_bytes());
        h.update(&[0]);
        h.update(&f.bytes.to_le_bytes());
        match self.hashes.get(&f.rel).copied().flatten() {
            Some(x) => h.update(&x.to_le_bytes()),
            None => h.update(b"unreadable"),
        }
    }

    /// The key of file `f` compiled for `owner` (what [`compile_file`] reads: the configuration, the file's path,
    /// size and content, its owner).
    fn compiled_file(&self, f: &WalkedFile, owner: &str) -> u64 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&self.global.to_le_bytes());
        h.update(b"file");
        self.file(&mut h, f);
        h.update(owner.as_bytes());
        h.digest()
    }

    /// The key of component `key`: its plan (name, documents, files and each file's owner) and every one of
    /// those files' contents.
    fn component(&self, key: &str, plan: &ComponentPlan, owners: &BTreeMap<&str, (&WalkedFile, &str)>) -> u64 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&self.global.to_le_bytes());
        for part in [key, &plan.name, if plan.guide { "guide" } else { "component" }] {
            h.update(part.as_bytes());
            h.update(&[0]);
        }
        for (lang, f) in &plan.docs {
            h.update(lang.as_bytes());
            h.update(&[0]);
            self.file(&mut h, f);
        }
        h.update(b"files");
        for f in &plan.files {
            self.file(&mut h, f);
            h.update(owners.get(f.rel.as_str()).map_or("", |o| o.1).as_bytes());
            h.update(&[0]);
        }
        h.digest()
    }

    fn changelog(&self, changelogs: &[(String, WalkedFile)]) -> u64 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&self.global.to_le_bytes());
        for (lang, f) in changelogs {
            h.update(lang.as_bytes());
            h.update(&[0]);
            self.file(&mut h, f);
        }
        h.digest()
    }

    /// The current hash of a dependency recorded by a cache entry.
    fn dependency(&self, repo: &Path, rel: &str) -> Option<u64> {
        if rel == SOURCES_DEP { Some(self.sources) } else { cache::file_hash(repo, rel) }
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
    /// The classified layout.
    pub layout: &'a Layout,
    /// The build's configuration.
    pub config: &'a Config,
    /// Show a progress bar.
    pub progress: bool,
    /// The incremental build cache, when the build has one.
    pub cache: Option<&'a Cache>,
}

/// The directory (`out/.build.tmp-<pid>`) where each compiled bundle is written as soon as its unit is finished
/// (issue 12: a build held every component's frames until the end). Removed when dropped; what the published set
/// keeps is renamed out of it first by [`write_bundle_set`].
pub struct Spool {
    dir: PathBuf,
}

impl Spool {
    /// A new, empty spool directory in `out` (created when missing); spools of killed builds are removed.
    ///
    /// # Errors
    /// `out` or the directory cannot be created.
    pub fn new(out: &Path) -> anyhow::Result<Spool> {
        std::fs::create_dir_all(out)
            .map_err(|e| anyhow::anyhow!("{}: cannot create output directory: {e}", out.display()))?;
        remove_stale_temporaries(out, "build");
        let dir = out.join(format!(".build.tmp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).map_err(|e| anyhow::anyhow!("{}: cannot create {e}", dir.display()))?;
        Ok(Spool { dir })
    }

    /// Writes `frames` as bundle file `name` of the spool (see [`BundleWriter::spool`]); or, with `hold` (a
    /// component reused from the cache, whose bundle the published generation most likely has already), keeps
    /// them in memory until the set is written ([`BundleWriter::hold`]).
    fn bundle(&self, name: &str, frames: Vec<Frame>, hold: bool) -> std::io::Result<SpooledBundle> {
        let mut w = BundleWriter::new();
        for f in frames {
            w.push(f);
        }
        if hold { w.hold(&self.dir.join(name)) } else { w.spool(&self.dir.join(name)) }
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
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

/// Files compiled before the components, because several components to compile list them or their owner is
/// reused from the cache: the components listing one read its listing and props, its owner takes the rest.
struct SharedFiles<'a> {
    /// Listing and props of each (a [`CompiledFile`] without frames, maps or units).
    views: BTreeMap<&'a str, CompiledFile>,
    /// The whole compiled files and their diagnostics, by owner (taken once by the owner's task).
    by_owner: Mutex<BTreeMap<&'a str, Vec<FileOutcome<'a>>>>,
    /// Those whose props followed `extends` into other files.
    followed: BTreeSet<&'a str>,
}

impl<'a> SharedFiles<'a> {
    /// Compiles `files` (path, (file, owner)) in parallel.
    fn compile(stage: &Stage3, ctx: &Ctx, files: &[(&'a str, (&'a WalkedFile, &'a str))]) -> SharedFiles<'a> {
        let compiled: Vec<FileOutcome> =
            files.par_iter().map(|(_, (f, owner))| stage.file(ctx, f, owner, None)).collect();
        let mut shared =
            SharedFiles { views: BTreeMap::new(), by_owner: Mutex::new(BTreeMap::new()), followed: BTreeSet::new() };
        for outcome in compiled {
            if outcome.followed {
                shared.followed.insert(outcome.rel);
            }
            // Each file's diagnostics go to its owner's report (lost with the file when its owner is reused: the
            // owner's cached report has them).
            if let Some(c) = &outcome.compiled {
                shared.views.insert(outcome.rel, file_view(c));
            }
            let by_owner = shared.by_owner.get_mut().unwrap_or_else(|e| e.into_inner());
            by_owner.entry(outcome.owner).or_default().push(outcome);
        }
        shared
    }
}

/// Stage 3's output for one file.
struct FileOutcome<'a> {
    /// Its path.
    rel: &'a str,
    /// The component that owns it.
    owner: &'a str,
    /// The file compiled (`None`: skipped, the diagnostics say why).
    compiled: Option<CompiledFile>,
    /// What its compilation reported (goes to its owner's report).
    diagnostics: Vec<Diagnostic>,
    /// Whether its props followed `extends` into other files (its owner then depends on the files read).
    followed: bool,
    /// What its owner's files entry keeps of it (with an incremental build cache).
    record: Option<FileRecord>,
}

/// A compiled file's listing and props only: what a component that lists but does not own it reads.
fn file_view(c: &CompiledFile) -> CompiledFile {
    CompiledFile {
        meta: c.meta.clone(),
        frames: Vec::new(),
        maps: TokenMaps::new(),
        props: c.props.clone(),
        units: Vec::new(),
    }
}

/// The run's shared state in stage 3: inputs, plans, file owners, cache keys, the types index for `extends`.
struct Stage3<'a> {
    inputs: &'a Inputs<'a>,
    plans: &'a [(&'a str, &'a ComponentPlan)],
    keys: Option<&'a Keys>,
    component_keys: &'a [Option<u64>],
    /// Made when a file first needs it (props types that extend a type of another file).
    types: OnceLock<super::props::TypeIndex>,
    spool: &'a Spool,
}

impl Stage3<'_> {
    fn types(&self) -> &super::props::TypeIndex {
        let Inputs { repo, walked, config, .. } = *self.inputs;
        self.types.get_or_init(|| {
            super::props::TypeIndex::new(repo, walked.iter().map(|f| f.rel.as_str()), config.walk.max_file_bytes)
        })
    }

    /// Compiles file `f` for `owner` (or takes it from `records`, the owner's files entry of the last build, when
    /// its key is unchanged) and follows its props' `extends` into other files.
    fn file<'f>(&self, ctx: &Ctx, f: &'f WalkedFile, owner: &'f str, records: Option<&FileRecords>) -> FileOutcome<'f> {
        let key = self.keys.map(|k| k.compiled_file(f, owner));
        let record = match (key, records.and_then(|r| r.get(&f.rel))) {
            (Some(key), Some(r)) if r.key == key => {
                self.inputs.cache.inspect(|c| c.took_aside());
                r.clone()
            }
            _ => {
                let task = ctx.task();
                let compiled = compile_file(&task, f, owner);
                FileRecord { key: key.unwrap_or_default(), compiled, diagnostics: task.into_diagnostics() }
            }
        };
        ctx.progress.inc(1);
        // Kept for the owner's files entry only with a cache (a build without one copies nothing).
        let (mut c, diagnostics, record) = match key {
            Some(_) => (record.compiled.clone(), record.diagnostics.clone(), Some(record)),
            None => (record.compiled, record.diagnostics, None),
        };
        let mut followed = false;
        if let Some(c) = &mut c
            && c.props.iter().any(|t| !t.unresolved_extends.is_empty())
        {
            followed = true;
            let types = self.types();
            c.props.iter_mut().for_each(|t| types.resolve_table(t));
        }
        FileOutcome { rel: &f.rel, owner, compiled: c, diagnostics, followed, record }
    }

    /// Compiles component `i` (its documents and the files only it lists), attaches the files it owns, stores it
    /// in the cache and spools its bundle.
    fn component(
        &self,
        ctx: &Ctx,
        i: usize,
        shared: &SharedFiles,
        local: &[&WalkedFile],
    ) -> anyhow::Result<SpooledComponent> {
        let (key, plan) = self.plans[i];
        let cache = self.inputs.cache.filter(|_| self.keys.is_some());
        let global = self.keys.map_or(0, |k| k.global);
        let records: Option<FileRecords> = cache.and_then(|c| c.aside(&files_entry(key), global));
        let compiled: Vec<FileOutcome> = local.par_iter().map(|f| self.file(ctx, f, key, records.as_ref())).collect();
        drop(records);
        let mut followed = plan.files.iter().any(|f| shared.followed.contains(f.rel.as_str()));
        let mut files: BTreeMap<&str, CompiledFile> = BTreeMap::new();
        let mut file_diagnostics = Vec::new();
        let mut records = FileRecords::new();
        for mut outcome in compiled {
            if let Some(record) = outcome.record.take() {
                records.insert(outcome.rel.to_string(), record);
            }
            followed |= outcome.followed;
            file_diagnostics.extend(outcome.diagnostics);
            if let Some(c) = outcome.compiled {
                files.insert(outcome.rel, c);
            }
        }
        for f in &plan.files {
            if let Some(view) = shared.views.get(f.rel.as_str()) {
                files.insert(f.rel.as_str(), file_view(view));
            }
        }
        let Pending { mut component, mut maps, mut deps } = compile_component(ctx.task(), key, plan, &files);
        // The files it owns: those only it lists (compiled here, so owned by it), and the shared ones it owns.
        let owned_shared = lock(&shared.by_owner).remove(key).unwrap_or_default();
        let only_here: BTreeSet<&str> = local.iter().map(|f| f.rel.as_str()).collect();
        let owned = files
            .into_iter()
            .filter(|(rel, _)| only_here.contains(rel))
            .map(|(_, c)| c)
            .chain(owned_shared.into_iter().filter_map(|outcome| {
                file_diagnostics.extend(outcome.diagnostics);
                outcome.compiled
            }))
            .collect::<Vec<CompiledFile>>();
        for file in owned {
            let CompiledFile { meta, frames, maps: file_maps, units, .. } = file;
            component.frames.extend(frames);
            maps.extend(file_maps);
            component.owned.push(OwnedFile { meta, units });
        }
        component.owned.sort_by(|a, b| a.meta.path.cmp(&b.meta.path));
        component.diagnostics.extend(file_diagnostics);
        if followed && let Some(keys) = self.keys {
            let repo = self.inputs.repo;
            deps.extend(
                std::iter::once("package.json".to_string())
                    .chain(self.types().read_files())
                    .map(|rel| {
                        let hash = keys.dependency(repo, &rel);
                        (rel, hash)
                    })
                    .chain([(SOURCES_DEP.to_string(), Some(keys.sources))]),
            );
        }
        deps.sort();
        deps.dedup();
        // The documents' lists in frames of their own (format 10): a lookup of one document decodes its lists only.
        let (head, lists) = component.meta.split_lists();
        let finished = std::iter::once(Frame::new(keys::COMPONENT, &head))
            .chain(lists.iter().map(|(lang, l)| Frame::new(keys::doc_lists(lang), l)))
            .chain(token_frames(&maps))
            .collect::<std::io::Result<Vec<Frame>>>();
        match finished {
            Ok(frames) => component.frames.extend(frames),
            Err(e) => return Err(anyhow::Error::from(e).context(format!("cannot encode {key}"))),
        }
        let packed = CachedComponent::pack(component)?;
        if let (Some(cache), Some(unit_key)) = (cache, self.component_keys[i]) {
            cache.put(&format!("component/{key}"), unit_key, deps, &packed);
            cache.put_aside(&files_entry(key), global, &records);
        }
        self.spooled(packed, false)
    }

    /// Spools the frames of `component` (compiled; or `reused` from the cache: then held in memory, see
    /// [`Spool::bundle`]).
    fn spooled(&self, packed: CachedComponent, reused: bool) -> anyhow::Result<SpooledComponent> {
        let CachedComponent { mut component, units, owned_units } = packed;
        let frames = std::mem::take(&mut component.frames);
        let bundle = self.spool.bundle(&bundle_file_name(&component.key), frames, reused)?;
        let owned = std::mem::take(&mut component.owned)
            .into_iter()
            .zip(owned_units)
            .map(|(f, units)| PackedFile { meta: f.meta, units })
            .collect();
        Ok(SpooledComponent { component, bundle, units, owned })
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Compiles the whole layout: stage 3 (each component with the files it owns, and the changelog, in parallel,
/// each bundle spooled as soon as its unit is finished), reusing from the cache every unit whose inputs did not
/// change, then the manifest (stage 4, [`assemble`]).
pub fn compile_all(inputs: &Inputs, spool: Spool, diagnostics: &mut Vec<Diagnostic>) -> anyhow::Result<CompiledSet> {
    let Inputs { repo, walked, layout, config, progress, cache } = *inputs;
    let tokens = LazyCounter { encoding: config.encoding.clone(), counter: OnceLock::new() };
    let doc_langs: Vec<&str> = config.docs.iter().map(|d| d.lang.as_str()).collect();
    let default_lang = config
        .system
        .default_lang
        .clone()
        .or_else(|| doc_langs.first().map(|l| l.to_string()))
        .unwrap_or_else(|| "en-US".into());

    // Components plus the shared pseudo-component; each file compiled once, owned by the first (by key) that
    // lists it.
    let shared =
        ComponentPlan { name: SHARED.into(), docs: BTreeMap::new(), files: layout.shared.clone(), guide: false };
    let mut plans: Vec<(&str, &ComponentPlan)> = layout.components.iter().map(|(k, p)| (k.as_str(), p)).collect();
    if !shared.files.is_empty() {
        plans.push((SHARED, &shared));
    }
    let mut owners: BTreeMap<&str, (&WalkedFile, &str)> = BTreeMap::new();
    for (key, plan) in &plans {
        for f in &plan.files {
            owners.entry(f.rel.as_str()).or_insert((f, key));
        }
    }
    let keys = cache.map(|cache| {
        let inputs = plans
            .iter()
            .flat_map(|(_, p)| p.docs.values().chain(&p.files))
            .chain(layout.changelogs.iter().map(|(_, f)| f))
            .collect();
        Keys::new(config, walked, inputs, cache)
    });
    let component_keys: Vec<Option<u64>> =
        plans.iter().map(|(key, plan)| keys.as_ref().map(|k| k.component(key, plan, &owners))).collect();
    let stage = Stage3 {
        inputs,
        plans: &plans,
        keys: keys.as_ref(),
        component_keys: &component_keys,
        types: OnceLock::new(),
        spool: &spool,
    };

    // What the cache holds for each component, spooled at once (`None`: to compile).
    let reused: Vec<Option<anyhow::Result<SpooledComponent>>> = plans
        .par_iter()
        .zip(&component_keys)
        .map(|((key, _), unit_key)| {
            let (cache, keys, unit_key) = (cache?, keys.as_ref()?, (*unit_key)?);
            let c: CachedComponent =
                cache.get(&format!("component/{key}"), unit_key, |rel| keys.dependency(repo, rel))?;
            // Its files' records stay for the build that recompiles it.
            cache.keep(&files_entry(key));
            Some(stage.spooled(c, true))
        })
        .collect();
    let missed: Vec<usize> = (0..plans.len()).filter(|&i| reused[i].is_none()).collect();
    // A file listed by one component to compile, and owned by it, is compiled in that component's task; the
    // others (listed by several, or owned by a reused component: compiled for their listing and props) first.
    let mut listers: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in &missed {
        for f in &plans[i].1.files {
            *listers.entry(f.rel.as_str()).or_default() += 1;
        }
    }
    let missed_keys: BTreeSet<&str> = missed.iter().map(|&i| plans[i].0).collect();
    let is_local =
        |rel: &str| listers.get(rel) == Some(&1) && owners.get(rel).is_some_and(|o| missed_keys.contains(o.1));
    let first: Vec<(&str, (&WalkedFile, &str))> =
        listers.keys().filter(|rel| !is_local(rel)).filter_map(|rel| owners.get(rel).map(|o| (*rel, *o))).collect();

    let work = listers.len() + missed.iter().map(|&i| plans[i].1.docs.len()).sum::<usize>();
    let bar = if progress { ProgressBar::new(work as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{spinner} compiling {pos}/{len} {wide_bar} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let example_repo =
        examples::Repo::new(repo, walked, &config.examples, &config.walk, layout.components.keys().cloned().collect());
    let ctx = Ctx {
        config,
        examples: &example_repo,
        tokens: Tokens(&tokens),
        default_lang: &default_lang,
        progress: &bar,
        diagnostics: Mutex::new(Vec::new()),
    };
    let shared_files = SharedFiles::compile(&stage, &ctx, &first);
    // The changelog compiles beside the components (it is one long file per language, the last to finish
    // otherwise).
    let changelog_key = keys.as_ref().map(|k| k.changelog(&layout.changelogs));
    let cached_changelog: Option<CompiledChangelog> =
        cache.zip(changelog_key).and_then(|(c, key)| c.get("changelog", key, |_| None));
    let changelog_reused = cached_changelog.is_some();
    let (compiled, changelog) = rayon::join(
        || {
            missed
                .par_iter()
                .map(|&i| {
                    let local: Vec<&WalkedFile> = plans[i].1.files.iter().filter(|f| is_local(&f.rel)).collect();
                    Ok((i, stage.component(&ctx, i, &shared_files, &local)?))
                })
                .collect::<anyhow::Result<Vec<(usize, SpooledComponent)>>>()
        },
        || -> anyhow::Result<SpooledChangelog> {
            let mut changelog = match cached_changelog {
                Some(c) => c,
                None => compile_changelogs(ctx.task(), &layout.changelogs)?,
            };
            if let (Some(cache), Some(key), false) = (cache, changelog_key, changelog_reused) {
                cache.put("changelog", key, vec![], &changelog);
            }
            let frames = std::mem::take(&mut changelog.frames);
            let bundle = match changelog.meta {
                Some(_) => Some(spool.bundle("changelog.bundle", frames, changelog_reused)?),
                None => None,
            };
            let units = PackedUnits::pack(&std::mem::take(&mut changelog.units))?;
            Ok(SpooledChangelog { changelog, bundle, units })
        },
    );
    let mut components: Vec<Option<SpooledComponent>> =
        reused.into_iter().map(|r| r.transpose()).collect::<anyhow::Result<_>>()?;
    for (i, c) in compiled? {
        components[i] = Some(c);
    }
    let mut changelog = changelog?;
    drop(stage);
    bar.finish_and_clear();
    diagnostics.extend(ctx.into_diagnostics());

    let mut components: Vec<SpooledComponent> = components.into_iter().flatten().collect();
    for c in &mut components {
        diagnostics.append(&mut c.component.diagnostics);
    }
    diagnostics.append(&mut changelog.changelog.diagnostics);
    if let Some(total) = unrecognised_total(diagnostics) {
        diagnostics.push(total);
    }
    // A component whose only document could not be read, and that has no files, has nothing to serve.
    components.retain(|c| {
        let meta = &c.component.meta;
        let empty = meta.docs.is_empty() && meta.files.is_empty();
        if empty {
            diagnostics.push(Diagnostic::new(
                c.component.entry.name.clone(),
                Stage::Layout,
                "nothing usable left; component dropped",
            ));
        }
        !empty
    });
    super::timing("stage 3: components and changelog compiled and spooled");
    let assembly = Assembly { repo, layout, config, default_lang, cache, tokens: &tokens };
    assemble(assembly, components, changelog, spool, diagnostics)
}

/// What stage 4 (the manifest) reads besides the compiled units.
struct Assembly<'a> {
    repo: &'a Path,
    layout: &'a Layout,
    config: &'a Config,
    default_lang: String,
    cache: Option<&'a Cache>,
    tokens: &'a LazyCounter,
}

/// Stage 4: the manifest (statistics, languages, version, list counts) and the bundles' writers, from the
/// compiled components and changelog.
fn assemble(
    a: Assembly,
    components: Vec<SpooledComponent>,
    changelog: SpooledChangelog,
    spool: Spool,
    diagnostics: &mut Vec<Diagnostic>,
) -> anyhow::Result<CompiledSet> {
    let Assembly { repo, layout, config, default_lang, cache, tokens } = a;
    let mut stats = BuildStats::default();
    // Search units in a fixed order: documents by component and language, functions by path, then the changelog.
    let mut units: Vec<PackedUnits> = Vec::new();
    let mut owned: Vec<PackedFile> = Vec::new();
    let mut components = components;
    for c in &mut components {
        units.push(std::mem::take(&mut c.units));
        owned.append(&mut c.owned);
    }
    owned.sort_by(|a, b| a.meta.path.cmp(&b.meta.path));
    let mut file_owners = Vec::new();
    for file in owned {
        units.push(file.units);
        stats.files += 1;
        stats.source_bytes += file.meta.bytes;
        if file.meta.kind == FileKind::Source {
            stats.sources += 1;
        }
        stats.skeletons += u32::from(file.meta.skeleton.is_some());
        stats.functions += file.meta.functions;
        file_owners.push(FileOwner { path: file.meta.path.clone(), component: file.meta.owner.clone() });
    }

    let mut entries = Vec::new();
    let mut shared_entry = None;
    let mut bundles = Vec::new();
    let mut file_lists: BTreeMap<String, Vec<FileMeta>> = BTreeMap::new();
    for SpooledComponent { component: CompiledComponent { key, entry, meta, .. }, bundle, .. } in components {
        for d in &meta.docs {
            stats.documents += 1;
            stats.code_blocks += d.code_blocks.len() as u32;
            stats.source_bytes += u64::from(d.bytes);
            stats.raw_tokens += u64::from(d.tokens);
            stats.view_tokens += u64::from(d.view_tokens);
        }
        file_lists.insert(key.clone(), meta.files);
        if key == SHARED {
            shared_entry = Some(entry);
        } else {
            entries.push(entry);
        }
        bundles.push((key, bundle));
    }
    let SpooledChangelog { changelog: CompiledChangelog { meta: changelog_meta, .. }, bundle, units: changelog_units } =
        changelog;
    if let Some(c) = &changelog_meta {
        for l in &c.langs {
            stats.raw_tokens += u64::from(l.summary.tokens);
            stats.view_tokens += l.pages.first().map_or(0, |p| u64::from(p.tokens));
        }
    }
    // The newest release by SemVer (a prerelease below its release), else the first heading of the file.
    let releases = || changelog_meta.iter().flat_map(|c| c.langs.iter().flat_map(|l| l.releases.iter()));
    let newest = releases()
        .filter_map(|r| Some((version::parse(&r.version)?, r)))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, r)| r)
        .or_else(|| changelog_meta.as_ref().and_then(|c| c.langs.iter().find_map(|l| l.releases.first())))
        .map(|r| r.version.clone());
    let (pkg_name, _) = package_json(repo);
    let system = config.system.name.clone().or(pkg_name).unwrap_or_else(|| {
        repo.canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "design-system".into())
    });
    let mut langs: Vec<String> = entries.iter().flat_map(|e| e.docs.iter().map(|d| d.lang.clone())).collect();
    if let Some(c) = &changelog_meta {
        langs.extend(c.langs.iter().map(|l| l.summary.lang.clone()));
    }
    langs.sort();
    langs.dedup();
    let changelog_entry = changelog_meta.as_ref().map(|c| ChangelogEntry {
        bundle: "changelog.bundle".into(),
        langs: c.langs.iter().map(|l| l.summary.clone()).collect(),
    });
    units.push(changelog_units);
    let super::ResolvedVersion { version, source: version_source, diagnostics: version_diags } =
        resolve_version(config, repo, layout.package.as_deref(), newest.as_deref());
    diagnostics.extend(version_diags);
    check_name("system name", &system).map_err(|e| anyhow::anyhow!("{e}; set [system] name in {CONFIG_FILE}"))?;
    check_name("version", &version).map_err(|e| anyhow::anyhow!("{e}; set [system] version or --set-version"))?;
    let manifest = Manifest {
        format_version: crate::bundle::format::FORMAT_VERSION,
        system,
        version,
        built_by: format!("mydesign-docs {}", env!("CARGO_PKG_VERSION")),
        encoding: config.encoding.clone(),
        default_lang,
        langs,
        thresholds: config.thresholds.clone(),
        components: entries,
        shared: shared_entry,
        files: file_owners,
        changelog: changelog_entry,
        bundles: vec![],
        stats,
        search: None,
        list_tokens: vec![],
        list_json_tokens: vec![],
        list_row_tokens: vec![],
        package: config.system.package.clone().or_else(|| package_full_name(repo)),
        source: config.system.source.clone(),
        build_id: 0,
        // The rule `tokens.rs` cut every token map by (`budget::cut_points` + `split_segment`).
        cut_rule: crate::bundle::format::CUT_RULE,
    };
    super::timing("stage 4: manifest");
    let manifest = count_lists(manifest, &file_lists, tokens, cache);
    super::timing("stage 4: list counts");
    Ok(CompiledSet { manifest, components: bundles, changelog: bundle, search: units, spool, version_source })
}

/// `name` of the repository's `package.json`, scope kept (`@douyinfe/semi-ui`): what projects depend on.
fn package_full_name(repo: &Path) -> Option<String> {
    let text = super::read_to_string(repo.join("package.json")).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value.get("name")?.as_str().map(str::to_string).filter(|n| !n.is_empty())
}

/// Stores the token counts of the list answers (`list_components` per language, and with `component` per
/// component), rendered for MCP clients by the reader's own code: lists are built from the manifest at lookup time,
/// and the reader cannot count.
fn count_lists(
    mut manifest: Manifest,
    file_lists: &BTreeMap<String, Vec<FileMeta>>,
    tokens: &LazyCounter,
    cache: Option<&Cache>,
) -> Manifest {
    use crate::read::{ComponentsView, FilesView, Served};
    use crate::render::Render;
    // The counts depend on nothing but the manifest so far and the file lists: reused when both are unchanged.
    let key = cache.and_then(|_| {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&rmp_serde::to_vec(&manifest).ok()?);
        h.update(&rmp_serde::to_vec(file_lists).ok()?);
        Some(h.digest())
    });
    if let Some((cache, key)) = cache.zip(key)
        && let Some(counts) = cache.get::<ListCounts>("lists", key, |_| None)
    {
        let entries = manifest.components.iter_mut().chain(manifest.shared.as_mut());
        for (entry, (text, json, rows)) in entries.zip(counts.files) {
            (entry.files_tokens, entry.files_json_tokens, entry.file_row_tokens) = (text, json, rows);
        }
        (manifest.list_tokens, manifest.list_json_tokens) = (counts.list, counts.list_json);
        manifest.list_row_tokens = counts.list_rows;
        return manifest;
    }
    // Otherwise each text is counted, unless the last build counted the same text (one changed document changes
    // the component lists, not the other components' file lists).
    let memo_for = format!("{} {}", env!("CARGO_PKG_VERSION"), manifest.encoding);
    let previous: BTreeMap<(u64, u64), u32> = cache
        .and_then(|c| c.previous::<ListCounts>("lists"))
        .filter(|p| p.memo_for == memo_for)
        .map(|p| p.memo.into_iter().collect())
        .unwrap_or_default();
    let mut memo = Vec::new();
    let mut count = |text: String| {
        let h = xxhash_rust::xxh3::xxh3_128(text.as_bytes());
        let hash = ((h >> 64) as u64, h as u64);
        let n = previous.get(&hash).copied().unwrap_or_else(|| tokens.count(&text));
        memo.push((hash, n));
        n
    };
    let served = Served { system: manifest.system.clone(), version: manifest.version.clone(), note: None };
    let entries = manifest.components.iter_mut().chain(manifest.shared.as_mut());
    for entry in entries {
        let files = file_lists.get(&entry.key).cloned().unwrap_or_default();
        let width = crate::render::column(files.iter().map(|f| f.path.chars().count()));
        entry.file_row_tokens = files
            .iter()
            .map(|f| row_tokens(&mut count, crate::render::file_row_line(f, width), serde_json::to_string(f)))
            .collect();
        let view = FilesView {
            served: served.clone(),
            component: entry.name.clone(),
            tokens: 0,
            files,
            part: Default::default(),
        };
        entry.files_tokens = count(view.text());
        entry.files_json_tokens = count(view.json());
    }
    let mut list_rows = Vec::new();
    let (list_tokens, list_json_tokens) = manifest
        .langs
        .iter()
        .map(|lang| {
            let view = ComponentsView::new(&manifest, lang.clone());
            let width = crate::render::column(view.components.iter().map(|c| c.name.chars().count()));
            let rows = view.components.iter().map(|c| {
                row_tokens(&mut count, crate::render::component_row_line(c, lang, width), serde_json::to_string(c))
            });
            list_rows.push((lang.clone(), rows.collect()));
            ((lang.clone(), count(view.text())), (lang.clone(), count(view.json())))
        })
        .unzip();
    (manifest.list_tokens, manifest.list_json_tokens) = (list_tokens, list_json_tokens);
    manifest.list_row_tokens = list_rows;
    if let Some((cache, key)) = cache.zip(key) {
        let files: Vec<(u32, u32, Vec<u32>)> = manifest
            .components
            .iter()
            .chain(manifest.shared.as_ref())
            .map(|e| (e.files_tokens, e.files_json_tokens, e.file_row_tokens.clone()))
            .collect();
        memo.sort_unstable();
        memo.dedup();
        let counts = ListCounts {
            files,
            list: manifest.list_tokens.clone(),
            list_json: manifest.list_json_tokens.clone(),
            list_rows: manifest.list_row_tokens.clone(),
            memo_for,
            memo,
        };
        cache.put("lists", key, vec![], &counts);
    }
    manifest
}

/// A list row's tokens in its larger form: its text `line` (padded to the whole list's widest name, the most a cut
/// list pads it) or its `json` object with the comma that follows it, each counted by `count`.
fn row_tokens(count: &mut dyn FnMut(String) -> u32, line: String, json: serde_json::Result<String>) -> u32 {
    count(line).max(json.map_or(0, |j| count(format!("{j},"))))
}

/// The list counts the cache keeps (unit `lists`): the manifest's, and every text counted, by its xxh3-128, so a
/// build whose manifest changed counts only the list texts that changed.
#[derive(Serialize, Deserialize)]
struct ListCounts {
    /// Per entry (components, then `_shared`): (text, JSON) tokens of its file list, and each of its rows'.
    files: Vec<(u32, u32, Vec<u32>)>,
    /// Per language: tokens of the component list's text.
    list: Vec<(String, u32)>,
    /// Per language: tokens of the component list's JSON.
    list_json: Vec<(String, u32)>,
    /// Per language: tokens of each row of the component list (`Manifest::list_row_tokens`).
    list_rows: Vec<(String, Vec<u32>)>,
    /// The tool's version and the encoding the memo's counts are of.
    memo_for: String,
    /// (xxh3-128 of a text as two halves, its tokens), sorted.
    memo: Vec<((u64, u64), u32)>,
}

/// File names of the set's own bundles, which no component may take.
const RESERVED: [&str; 3] = ["manifest", "changelog", "search"];

/// File name of a component's bundle: the key when it is plain ASCII, at most 200 bytes (so the name and its
/// temporary name stay within the filesystem's 255) and not one of the set's own bundle names, else a hash of it.
fn bundle_file_name(key: &str) -> String {
    if !key.is_empty()
        && key.len() <= 200
        && !RESERVED.contains(&key)
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        format!("{key}.bundle")
    } else {
        format!("c-{:016x}.bundle", xxhash_rust::xxh3::xxh3_64(key.as_bytes()))
    }
}

fn compile_file(ctx: &Ctx, f: &WalkedFile, owner: &str) -> Option<CompiledFile> {
    let mut meta = FileMeta {
        path: f.rel.clone(),
        kind: FileKind::Text,
        lines: 0,
        bytes: f.bytes,
        tokens: 0,
        skeleton: None,
        functions: 0,
        parse_errors: 0,
        owner: owner.to_string(),
    };
    let text = match read_text(f, ctx.config.walk.max_file_bytes) {
        Ok(t) => t,
        Err(ReadProblem::Binary) => {
            meta.kind = FileKind::Binary;
            if SourceLang::from_path(Path::new(&f.rel)).is_some() {
                let message = "binary content in a source file; listed, not stored";
                ctx.report(Diagnostic::new(f.rel.clone(), Stage::Read, message));
            }
            return Some(CompiledFile { meta, frames: vec![], maps: TokenMaps::new(), props: vec![], units: vec![] });
        }
        Err(ReadProblem::Skip(d)) => {
            ctx.report(d);
            return None;
        }
    };
    let frame_err = |e: std::io::Error| ctx.report(Diagnostic::new(f.rel.clone(), Stage::Source, e.to_string()));
    meta.bytes = text.len() as u64;
    meta.lines = line_count(&text);
    let mut frames = Vec::new();
    let mut maps = TokenMaps::new();
    let mut props = Vec::new();
    let (map, slices) = ctx.tokens.map_counts(&text);
    meta.tokens = map.total();
    maps.insert(keys::file(&f.rel), map);
    let mut units = Vec::new();
    if let Some(lang) = SourceLang::from_path(Path::new(&f.rel)) {
        meta.kind = FileKind::Source;
        props = super::props::from_typescript(lang, &f.rel, &text);
        match analyze_file(&f.rel, lang, &text, ctx.config.thresholds.skeleton_min_lines as usize) {
            Ok(a) => {
                if a.parse_errors > 0 {
                    // The grammar's word, not a verdict on the file: tree-sitter-typescript rejects some valid
                    // code (a parameter named `any` in `(any) => T`).
                    let at = a.first_error_line.map_or(String::new(), |l| format!("first at line {l}; "));
                    // Spelt here: the compiler uses the reader's logic only to render and count.
                    let errors =
                        format!("{} syntax error{}", a.parse_errors, if a.parse_errors == 1 { "" } else { "s" });
                    ctx.report(Diagnostic::new(
                        f.rel.clone(),
                        Stage::Source,
                        format!(
                            "tree-sitter found {} ({at}the grammar may reject valid code it does not know); skeleton \
                             and function index are partial",
                            errors
                        ),
                    ));
                }
                report_vue_and_depth(ctx, &f.rel, &a);
                if !a.jsx_ampersand_lines.is_empty() {
                    let lines = a.jsx_ampersand_lines.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
                    ctx.report(Diagnostic::note(
                        f.rel.clone(),
                        Stage::Source,
                        format!(
                            "a bare `&` in JSX on line(s) {lines} is valid TSX that the tree-sitter grammar misparses \
                             (a known grammar bug); parsed with it read as a space: skeleton and function index are \
                             complete"
                        ),
                    ));
                }
                meta.parse_errors = a.parse_errors as u32;
                // Functions as `function` serves them: a getter and its setter are one.
                let names: std::collections::BTreeSet<&str> =
                    a.functions.iter().map(|f| f.qualified.as_str()).collect();
                meta.functions = names.len() as u32;
                if let Some(sk) = &a.skeleton {
                    let map = ctx.tokens.map(sk);
                    meta.skeleton = Some(SkeletonMeta {
                        lines: line_count(sk),
                        tokens: map.total(),
                        outer_bodies: a.outer_bodies as u32,
                    });
                    maps.insert(keys::skeleton(&f.rel), map);
                    Frame::new(keys::skeleton(&f.rel), sk.as_str()).map(|fr| frames.push(fr)).unwrap_or_else(frame_err);
                }
                let functions: Vec<FunctionMeta> = a
                    .functions
                    .iter()
                    .map(|func| {
                        let start = with_indentation(&text, func.start_byte);
                        FunctionMeta {
                            start_byte: start,
                            tokens: text.get(start as usize..func.end_byte as usize).map_or(0, |s| slices.count(s)),
                            ..func.meta.clone()
                        }
                    })
                    .collect();
                units = search_index::function_units(owner, &f.rel, &text, &functions, &slices);
                Frame::new(keys::functions(&f.rel), &functions).map(|fr| frames.push(fr)).unwrap_or_else(frame_err);
            }
            Err(e) => ctx.report(Diagnostic::new(
                f.rel.clone(),
                Stage::Source,
                format!("{e}: no function index or skeleton; stored as text, served by `file`"),
            )),
        }
    }
    Frame::new(keys::file(&f.rel), text.as_str()).map(|fr| frames.push(fr)).unwrap_or_else(frame_err);
    Some(CompiledFile { meta, frames, maps, props, units })
}

/// Reports what the analysis of `rel` left out: functions nested past the depth cap (a warning), `.vue` script
/// blocks in a language no grammar reads (a note).
fn report_vue_and_depth(ctx: &Ctx, rel: &str, a: &super::source::SourceAnalysis) {
    if a.too_deep > 0 {
        let message = format!(
            "{} functions nested more than {} scopes deep are not in the function index (the functions enclosing \
             them are, with their text)",
            a.too_deep,
            super::source::MAX_SCOPE_DEPTH
        );
        ctx.report(Diagnostic::new(rel.to_string(), Stage::Source, message));
    }
    for lang in &a.unknown_script_langs {
        let message = format!("`<script lang=\"{lang}\">` is not parsed (no grammar for it): served as text only");
        ctx.report(Diagnostic::note(rel.to_string(), Stage::Source, message));
    }
}

/// The statement that imports component `name` in the document's code blocks: the first `import { … } from '…'`
/// line naming it (`DatePicker` for `date-picker`); `None` when no line names it.
fn import_statement(name: &str, blocks: &[CodeBlockMeta], text: &str) -> Option<String> {
    let key = component_key(name);
    blocks
        .iter()
        .filter_map(|b| text.get(b.start_byte as usize..b.end_byte as usize))
        .flat_map(str::lines)
        .map(str::trim)
        .filter(|l| l.starts_with("import ") && l.contains(" from "))
        .find(|l| {
            let names = l.split(" from ").next().unwrap_or("");
            names
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .any(|n| !n.is_empty() && component_key(n) == key)
        })
        .map(str::to_string)
}

/// Moves `start` back to the start of its line when only indentation precedes it there, so a method is served
/// with its own indentation (its closing brace has it too) and the slice stays exact.
fn with_indentation(text: &str, start: u32) -> u32 {
    let start = start as usize;
    let Some(before) = text.get(..start) else { return start as u32 };
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    if before[line_start..].chars().all(|c| c == ' ' || c == '\t') { line_start as u32 } else { start as u32 }
}

/// Compiles component `key`'s documents, cards and props (stage 3; the files it owns are attached by the
/// caller), reporting into `ctx`.
fn compile_component(ctx: Ctx, key: &str, plan: &ComponentPlan, files: &BTreeMap<&str, CompiledFile>) -> Pending {
    let mut docs = Vec::new();
    let mut deps = Vec::new();
    let mut frames = Vec::new();
    let mut units = Vec::new();
    let mut maps = TokenMaps::new();
    // A component's documents (one per language) compile in parallel too: the largest component would otherwise
    // be the last task of the build.
    // The sources' props tables, which `@interface Name` lines of the documents point to.
    let typescript = source_props(key, plan, files);
    let typescript_names: Vec<String> = typescript.iter().map(|t| t.name.clone()).collect();
    let compiled: Vec<Option<CompiledDoc>> = plan
        .docs
        .par_iter()
        .map(|(lang, f)| {
            let c = compile_doc(&ctx, key, &plan.name, lang, f, &typescript_names);
            ctx.progress.inc(1);
            c
        })
        .collect();
    let compiled: Vec<CompiledDoc> = compiled.into_iter().flatten().collect();
    frames.extend(doc_frames(&ctx, &compiled));
    let mut props: Vec<PropsTable> = Vec::new();
    for mut c in compiled {
        docs.push(c.meta);
        frames.extend(c.frames);
        units.extend(c.units);
        maps.extend(std::mem::take(&mut c.maps));
        props.append(&mut c.props);
        deps.append(&mut c.deps);
    }
    let metas: Vec<FileMeta> =
        plan.files.iter().filter_map(|f| files.get(f.rel.as_str())).map(|c| c.meta.clone()).collect();
    // The documents' tables win; the sources' types are kept beside them for `diff` (format 7).
    if props.is_empty() {
        props = typescript;
    } else if !typescript.is_empty() {
        match Frame::new(keys::PROPS_TYPESCRIPT, &typescript) {
            Ok(fr) => frames.push(fr),
            Err(e) => ctx.report(Diagnostic::new(plan.name.clone(), Stage::Props, e.to_string())),
        }
    }
    units.extend(search_index::props_units(key, &plan.name, &props, &ctx.tokens));
    for doc in &mut docs {
        let own: Vec<PropsTable> = props
            .iter()
            .filter(|t| t.origin == PropsOrigin::Typescript || t.lang.as_deref() == Some(doc.lang.as_str()))
            .cloned()
            .collect();
        let card_map = ctx.tokens.map(&card(&plan.name, doc, &metas, &own));
        doc.card_tokens = card_map.total();
        maps.insert(keys::card(&doc.lang), card_map);
        maps.insert(keys::props_text(&doc.lang), ctx.tokens.map(&props_text(&plan.name, &own)));
    }
    if !props.is_empty() {
        // Each table's and row's JSON as a props answer carries it, counted exactly (format 9): the reader lists
        // rows by these instead of an upper bound (trial finding 4).
        let count = |json: serde_json::Result<String>| json.map_or(u32::MAX / 4, |j| ctx.tokens.count(&j));
        let counts: Vec<PropsTokens> = props
            .iter()
            .map(|t| PropsTokens {
                head: count(serde_json::to_string(&PropsTable { props: vec![], ..t.clone() })),
                rows: t.props.iter().map(|p| count(serde_json::to_string(p))).collect(),
            })
            .collect();
        for frame in [Frame::new(keys::PROPS, &props), Frame::new(keys::PROPS_TOKENS, &counts)] {
            match frame {
                Ok(fr) => frames.push(fr),
                Err(e) => ctx.report(Diagnostic::new(plan.name.clone(), Stage::Props, e.to_string())),
            }
        }
    }
    let primary = docs.iter().find(|d| d.lang == ctx.default_lang).or(docs.first());
    let entry = ComponentEntry {
        key: key.to_string(),
        name: plan.name.clone(),
        title: primary.and_then(|d| d.title.clone()),
        brief: primary.and_then(|d| d.brief.clone()),
        docs: docs
            .iter()
            .map(|d| DocSummary {
                lang: d.lang.clone(),
                lines: d.lines,
                code_blocks: d.code_blocks.len() as u32,
                tokens: d.tokens,
                view_tokens: d.view_tokens,
                title: d.title.clone(),
                brief: d.brief.clone(),
            })
            .collect(),
        files: metas.len() as u32,
        files_tokens: 0, // counted once the set's system and version are known (see `count_lists`)
        files_json_tokens: 0,
        file_row_tokens: vec![],
        bundle: bundle_file_name(key),
        guide: plan.guide,
    };
    let meta = ComponentMeta { key: key.to_string(), name: plan.name.clone(), docs, files: metas };
    let diagnostics = ctx.into_diagnostics().into_iter().collect();
    let component = CompiledComponent { key: key.to_string(), entry, meta, frames, units, owned: vec![], diagnostics };
    Pending { component, maps, deps }
}

/// The `doc/<lang>` frames of a component's documents (format 8): the default language's document (else the
/// first) on its own, every other language's compressed with it as zstd dictionary ([`Frame::with_dictionary`]):
/// a translation repeats its original's code blocks, tables and prop names, stored once this way (Semi: 1,059,610
/// → 843,550 bytes of documents). Reading a translation decompresses the original too, then the translation
/// mostly as copies from it (Semi's `table` in en-US: 102 µs, its zh-CN original alone 85 µs). A frame that cannot
/// be made is reported, as any frame.
fn doc_frames(ctx: &Ctx, docs: &[CompiledDoc]) -> Vec<Frame> {
    let base = docs.iter().position(|d| d.meta.lang == ctx.default_lang).unwrap_or(0);
    let Some(original) = docs.get(base) else { return Vec::new() };
    let original_key = keys::doc(&original.meta.lang);
    // What a frame holds: the text, or (format 9) its view as lead and then the hidden spans.
    let dict = Frame::raw(original.lead.as_ref().map_or(original.text.as_str(), |(s, _)| s.as_str()));
    let made: Vec<(usize, std::io::Result<Frame>)> = docs
        .par_iter()
        .enumerate()
        .map(|(i, d)| {
            let key = keys::doc(&d.meta.lang);
            let frame = match (&dict, &d.lead) {
                (Ok(raw), Some((_, lead))) if i == base => Frame::with_lead(key, raw, lead.clone(), None),
                (Ok(raw), None) if i == base => Frame::from_raw(key, raw),
                (Ok(dict), Some((text, lead))) => Frame::raw(text.as_str())
                    .and_then(|raw| Frame::with_lead(key, &raw, lead.clone(), Some((&original_key, dict)))),
                (Ok(raw), None) => Frame::with_dictionary(key, d.text.as_str(), &original_key, raw),
                (Err(e), _) => Err(std::io::Error::other(e.to_string())),
            };
            (i, frame)
        })
        .collect();
    made.into_iter()
        .filter_map(|(i, frame)| {
            frame
                .map_err(|e| ctx.report(Diagnostic::new(docs[i].meta.path.clone(), Stage::Markdown, e.to_string())))
                .ok()
        })
        .collect()
}

/// The token maps' frames (format 9): a `tokens/<text key>` frame for each map of at least
/// [`crate::model::OWN_FRAME_SEGMENTS`] segments (a lookup decodes the map of the text it serves only), the others
/// together in the `tokens` frame (small maps compress together: one frame per map made Semi's bundles 2.2 %
/// larger).
fn token_frames(maps: &TokenMaps) -> impl Iterator<Item = std::io::Result<Frame>> + '_ {
    let own = |m: &TokenMap| m.tokens.len() >= crate::model::OWN_FRAME_SEGMENTS;
    let shared: TokenMaps = maps.iter().filter(|(_, m)| !own(m)).map(|(k, m)| (k.clone(), m.clone())).collect();
    std::iter::once(Frame::new(keys::TOKENS, &shared))
        .chain(maps.iter().filter(move |(_, m)| own(m)).map(|(key, map)| Frame::new(keys::tokens(key), map)))
}

/// What a document served as its placeholder `view` stores (format 9): the view, then the text of each hidden
/// block and table (`replaced`, from [`placeholder_view_layout`]), and the [`Lead`] that splices the document back.
fn view_lead(view: String, text: &str, replaced: &[[usize; 4]]) -> (String, Lead) {
    let mut stored = view;
    let bytes = stored.len() as u32;
    let mut spans = Vec::with_capacity(replaced.len() * 3);
    for &[start, end, at, to] in replaced {
        stored.push_str(&text[start..end]);
        spans.extend([at as u32, to as u32, (end - start) as u32]);
    }
    (stored, Lead { bytes, spans })
}

/// The props tables of a component without API tables in its documents: the `XxxProps` types of its sources
/// (Blueprint's way), only those named after the component when some are (a folder of several components, such as
/// Blueprint's `forms/`, lists the same sources for each).
fn source_props(key: &str, plan: &ComponentPlan, files: &BTreeMap<&str, CompiledFile>) -> Vec<PropsTable> {
    let all: Vec<&PropsTable> =
        plan.files.iter().filter_map(|f| files.get(f.rel.as_str())).flat_map(|c| &c.props).collect();
    let named: Vec<&PropsTable> = all.iter().copied().filter(|t| component_key(&t.name).starts_with(key)).collect();
    if named.is_empty() { all } else { named }.into_iter().cloned().collect()
}

fn compile_doc(
    ctx: &Ctx,
    key: &str,
    name: &str,
    lang: &str,
    f: &WalkedFile,
    typescript: &[String],
) -> Option<CompiledDoc> {
    let text = match read_text(f, ctx.config.walk.max_file_bytes) {
        Ok(t) => t,
        Err(ReadProblem::Binary) => {
            ctx.report(Diagnostic::new(
                f.rel.clone(),
                Stage::Read,
                "binary file where a document was expected; skipped",
            ));
            return None;
        }
        Err(ReadProblem::Skip(d)) => {
            ctx.report(d);
            return None;
        }
    };
    let syntax = markdown::Syntax::of_path(&f.rel);
    let mut deps = Vec::new();
    // The props tables served (the document's own, else the sources'), for `@interface Name` lines.
    let props_names: Vec<String> = if text.contains("@interface ") {
        let own: Vec<String> = super::props::from_markdown(&f.rel, lang, &text).into_iter().map(|t| t.name).collect();
        if own.is_empty() { typescript.to_vec() } else { own }
    } else {
        Vec::new()
    };
    let (text, examples) = match examples::expand(ctx.examples, &f.rel, &text, lang, syntax, &props_names) {
        Some(e) => {
            for p in e.problems {
                ctx.report(Diagnostic::new(format!("{}:{}", f.rel, p.line), Stage::Markdown, p.message));
            }
            deps.extend(e.deps);
            if !e.unrecognised.is_empty() {
                let list: Vec<String> = e.unrecognised.iter().map(|(name, n)| format!("<{name}> ×{n}")).collect();
                ctx.report(Diagnostic::note(
                    f.rel.clone(),
                    Stage::Markdown,
                    format!("{UNRECOGNISED}{} {UNRECOGNISED_HINT}", list.join(", ")),
                ));
            }
            (e.text, e.examples)
        }
        None => (text, Vec::new()),
    };
    let mut doc = markdown::parse_as(&text, syntax);
    examples::mark(&mut doc, &examples);
    load_demos(ctx, f, &mut doc, &mut deps);
    let stories = examples::beside::attach(ctx.examples, key, &f.rel, &text, &mut doc);
    deps.extend(stories.deps);
    for note in stories.notes {
        ctx.report(Diagnostic::note(f.rel.clone(), Stage::Markdown, note));
    }
    if doc.unclosed_front_matter {
        ctx.report(Diagnostic::new(
            format!("{}:1", f.rel),
            Stage::Markdown,
            "front matter opened by `---` on line 1 is never closed by a `---` line; the document is served as \
             written and its `key: value` lines are not read as metadata (add the closing `---`)",
        ));
    }
    let slice = |a: u32, b: u32| text.get(a as usize..b as usize).unwrap_or("");
    let mut frames = Vec::new();
    let mut push = |frame: std::io::Result<Frame>| match frame {
        Ok(fr) => frames.push(fr),
        Err(e) => ctx.report(Diagnostic::new(f.rel.clone(), Stage::Markdown, e.to_string())),
    };
    let mut maps = TokenMaps::new();
    let (map, slices) = ctx.tokens.map_counts(&text);
    let tokens = map.total();
    for b in &mut doc.code_blocks {
        // A demo file is served fenced with its language, as the other blocks are (the search index keeps reading
        // its bare code).
        let served = b.code.as_deref().map(|code| match &b.meta.demo {
            Some(_) => std::borrow::Cow::Owned(fence_demo(code, &b.meta.lang)),
            None => std::borrow::Cow::Borrowed(code),
        });
        b.meta.tokens = slices.count(served.as_deref().unwrap_or_else(|| slice(b.start_byte, b.end_byte)));
        if let Some(code) = served.as_deref() {
            push(Frame::new(keys::block(lang, b.index), code));
            maps.insert(keys::block(lang, b.index), ctx.tokens.map(code));
        }
    }
    for t in &mut doc.tables {
        t.tokens = slices.count(slice(t.start_byte, t.end_byte));
    }
    for s in &mut doc.sections {
        s.meta.tokens = slices.count(slice(s.start_byte, s.end_byte));
    }
    let code_blocks: Vec<CodeBlockMeta> = doc.code_blocks.iter().map(|b| b.meta.clone()).collect();
    let tables = doc.tables.clone();
    // The view is stored as the lead of the document's frame (format 9: the view, then the hidden spans' text,
    // `view_lead`), with its token map. Placeholders cost ~30 tokens each, so a document of many tiny blocks is
    // served whole when hiding would not save anything. A
    // document with a demo (`<code src="…">`, its code not in the text) always gets the view, whatever its length:
    // served whole it would show the bare element, the demo's number and size nowhere (trial item 5).
    let has_demo = code_blocks.iter().any(|b| b.demo.is_some());
    let mut hidden = (doc.lines > ctx.config.thresholds.doc_hide_lines || has_demo) && !code_blocks.is_empty();
    let mut view_tokens = tokens;
    let mut lead = None;
    if hidden {
        let (view, _, replaced) = placeholder_view_layout(&text, &code_blocks, &tables);
        let view_map = ctx.tokens.map_known(&view, &slices.segments()).0;
        hidden = has_demo || view_map.total() < tokens;
        if hidden {
            view_tokens = view_map.total();
            maps.insert(keys::view(lang), view_map);
            lead = Some(view_lead(view, &text, &replaced));
        }
    }
    maps.insert(keys::doc(lang), map);
    let sections: Vec<SectionMeta> = doc.sections.iter().map(|s| s.meta.clone()).collect();
    // Search units reuse the counts above (sections, code blocks) wherever their spans are the same.
    let counts = search_index::Counted {
        // The blocks' slices of the document, for packing split sections (a code unit of a cleaned block takes
        // its served count).
        blocks: code_blocks
            .iter()
            .map(|b| if b.cleaned { slices.count(slice(b.start_byte, b.end_byte)) } else { b.tokens })
            .collect(),
        sections: sections.iter().map(|s| s.tokens).collect(),
    };
    let source = DocSource { component: key, name, lang, path: &f.rel };
    let units = search_index::doc_units(&source, &text, &doc, &counts, &slices);
    let import = import_statement(name, &code_blocks, &text);
    let meta = DocMeta {
        lang: lang.to_string(),
        path: f.rel.clone(),
        title: doc.title.clone(),
        brief: doc.brief.clone(),
        import,
        card_tokens: 0, // counted once the component's files and props are known

        lines: doc.lines,
        bytes: text.len() as u32,
        tokens,
        hidden,
        view_tokens,
        code_blocks,
        sections,
        tables,
    };
    let props = super::props::from_markdown(&f.rel, lang, &text);
    Some(CompiledDoc { meta, text, lead, frames, maps, props, units, deps })
}

/// How a document's note on site markup no rule knows begins; the list of `<Name> ×count` follows.
const UNRECOGNISED: &str = "site markup no rule knows, kept as text: ";
const UNRECOGNISED_HINT: &str = "(add an [[examples]] rule if it names an example)";

/// One note summing the documents' notes on unrecognised site markup by element name (`<Sandpack> ×12 in 5
/// documents`), so a new site's markup shows as numbers in `build --verbose`; `None` when there is none. Read
/// back from the notes (cached components bring theirs from the cache, not from a new parse).
fn unrecognised_total(diagnostics: &[Diagnostic]) -> Option<Diagnostic> {
    let mut by: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| d.note) {
        let Some(list) = d.message.strip_prefix(UNRECOGNISED).and_then(|m| m.strip_suffix(UNRECOGNISED_HINT)) else {
            continue;
        };
        for item in list.trim().split(", ") {
            let Some((name, n)) = item.rsplit_once(" ×") else { continue };
            let entry = by.entry(name.to_string()).or_default();
            entry.0 += n.parse::<usize>().unwrap_or(0);
            entry.1 += 1;
        }
    }
    if by.is_empty() {
        return None;
    }
    let mut items: Vec<(String, (usize, usize))> = by.into_iter().collect();
    items.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
    let list: Vec<String> = items
        .iter()
        .map(|(name, (n, docs))| format!("{name} ×{n} in {docs} document{}", if *docs == 1 { "" } else { "s" }))
        .collect();
    Some(Diagnostic::note(
        "(all documents)",
        Stage::Markdown,
        format!("site markup no rule knows, by element: {}", list.join(", ")),
    ))
}

/// Reads the demo file of every `<code src="…">` block of `doc` (the document `f`) into the block's code, and
/// sets its metadata (`meta.demo`, `meta.cleaned`). `src` is resolved relative to the document's folder and
/// must stay inside the repository (lexically and after symlinks); a demo that cannot be read (missing, outside,
/// binary, too large) is a warning naming the document and line, and its block is dropped (the other blocks are
/// renumbered).
/// Every file it reads or looks for is pushed to `deps` with its content hash.
fn load_demos(ctx: &Ctx, f: &WalkedFile, doc: &mut markdown::Document, deps: &mut Vec<cache::Dependency>) {
    if doc.code_blocks.iter().all(|b| b.demo_tag.is_none()) {
        return;
    }
    // The repository root: `f.abs` minus as many components as `f.rel` has.
    let depth = f.rel.split('/').count();
    let root = f.abs.ancestors().nth(depth).map(std::path::Path::to_path_buf);
    let doc_dir: Vec<&str> = f.rel.split('/').collect::<Vec<_>>()[..depth - 1].to_vec();
    let mut kept = Vec::with_capacity(doc.code_blocks.len());
    for mut b in std::mem::take(&mut doc.code_blocks) {
        let Some(demo) = b.demo_tag.clone() else {
            kept.push(b);
            continue;
        };
        let at = format!("{}:{}", f.rel, b.start_line);
        let warn = |why: String| {
            ctx.report(Diagnostic::new(
                at.clone(),
                Stage::Markdown,
                format!("demo `<code src=\"{}\">`: {why}; it is not served as a code block", demo.src),
            ))
        };
        let Some(rel) = resolve_relative(&doc_dir, &demo.src) else {
            warn("the path leaves the repository (or is absolute)".into());
            continue;
        };
        let Some(root) = root.as_deref() else {
            warn("the document's folder is unknown".into());
            continue;
        };
        let abs = root.join(&rel);
        deps.push((rel.clone(), cache::file_hash(root, &rel)));
        if let Some((stem, _)) = rel.rsplit_once('.') {
            let md = format!("{stem}.md");
            deps.push((md.clone(), cache::file_hash(root, &md)));
        }
        let inside = match (abs.canonicalize(), root.canonicalize()) {
            (Ok(a), Ok(r)) => a.starts_with(r),
            (Err(e), _) | (_, Err(e)) => {
                warn(format!("{rel} cannot be read ({e})"));
                continue;
            }
        };
        if !inside {
            warn(format!("{rel} resolves (through a symlink) outside the repository"));
            continue;
        }
        let bytes = std::fs::metadata(&abs).map(|m| m.len()).unwrap_or(0);
        let code = match read_text(
            &WalkedFile { rel: rel.clone(), abs: abs.clone(), bytes },
            ctx.config.walk.max_file_bytes,
        ) {
            Ok(code) => code,
            Err(ReadProblem::Binary) => {
                warn(format!("{rel} is a binary file"));
                continue;
            }
            Err(ReadProblem::Skip(d)) => {
                warn(format!("{rel}: {}", d.message));
                continue;
            }
        };
        let description_path = rel
            .rsplit_once('.')
            .map(|(stem, _)| format!("{stem}.md"))
            .filter(|md| *md != rel && root.join(md).is_file());
        b.code = Some(code);
        b.meta.cleaned = true;
        b.meta.demo = Some(DemoMeta {
            path: rel,
            title: demo.title,
            description: demo.description,
            description_path,
            debug: demo.debug,
            story: None,
        });
        kept.push(b);
    }
    for (i, b) in kept.iter_mut().enumerate() {
        b.meta.index = i as u32 + 1;
    }
    doc.code_blocks = kept;
}

/// A demo file's code as a fenced block of `lang`: a backtick fence longer than any run of backticks in the code
/// (so nothing inside closes it), the code ending with a newline before the closing fence, no newline after it
/// (as a fenced block of a document is served).
pub(super) fn fence_demo(code: &str, lang: &str) -> String {
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let newline = if code.is_empty() || code.ends_with('\n') { "" } else { "\n" };
    format!("{fence}{lang}\n{code}{newline}{fence}")
}

/// `src` (a `/`-separated path relative to the folder `dir`, given as its segments) as a repository-relative
/// path, `.` and `..` folded; `None` when it is absolute or climbs above the repository root.
pub(super) fn resolve_relative(dir: &[&str], src: &str) -> Option<String> {
    if src.starts_with('/') || src.contains('\\') || src.contains(':') {
        return None;
    }
    let mut parts: Vec<&str> = dir.to_vec();
    for seg in src.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Compiles the changelog files (stage 3), reporting into `ctx`.
fn compile_changelogs(ctx: Ctx, changelogs: &[(String, WalkedFile)]) -> anyhow::Result<CompiledChangelog> {
    let mut units = Vec::new();
    let none = |units, ctx: Ctx| CompiledChangelog {
        meta: None,
        frames: vec![],
        units,
        diagnostics: ctx.into_diagnostics().into_iter().collect(),
    };
    if changelogs.is_empty() {
        return Ok(none(units, ctx));
    }
    let mut frames = Vec::new();
    let mut langs = Vec::new();
    let mut maps = TokenMaps::new();
    for (lang, f) in changelogs {
        let text = match read_text(f, ctx.config.walk.max_file_bytes) {
            Ok(t) => t,
            Err(ReadProblem::Binary) => {
                ctx.report(Diagnostic::new(f.rel.clone(), Stage::Read, "binary file where a changelog was expected"));
                continue;
            }
            Err(ReadProblem::Skip(d)) => {
                ctx.report(d);
                continue;
            }
        };
        let pages = changelog::pages(&text, ctx.config.thresholds.changelog_page_lines);
        let mapped = pages
            .par_iter()
            .map(|p| {
                // A page keeps the newline that ends its last line, so pages (and the parts of a page served to a
                // budget) rejoin into the file by plain concatenation.
                let end =
                    if (p.end_byte as usize) < text.len() { p.end_byte as usize + 1 } else { p.end_byte as usize };
                let body = text.get(p.start_byte as usize..end).unwrap_or("");
                let (map, counts) = ctx.tokens.map_counts(body);
                (p, body, map, counts)
            })
            .collect::<Vec<_>>();
        let mut page_counts = Vec::with_capacity(mapped.len());
        let page_metas: Vec<PageMeta> = mapped
            .into_iter()
            .map(|(p, body, map, counts)| {
                page_counts.push(counts);
                let key = keys::page(lang, p.number);
                frames.push(Frame::new(&key, body)?);
                let tokens = map.total();
                maps.insert(key, map);
                Ok(PageMeta { tokens, ..p.meta.clone() })
            })
            .collect::<std::io::Result<_>>()?;
        let found = changelog::releases(&text);
        units.extend(search_index::release_units(lang, &f.rel, &text, &found, &page_counts, &ctx.tokens));
        let releases: Vec<ReleaseMeta> = found.into_iter().map(|r| r.meta).collect();
        let summary = ChangelogSummary {
            lang: lang.clone(),
            path: f.rel.clone(),
            lines: line_count(&text),
            pages: page_metas.len() as u32,
            tokens: page_metas.iter().map(|p| p.tokens).sum(),
            releases: releases.len() as u32,
        };
        langs.push(ChangelogLang { summary, pages: page_metas, releases });
    }
    if langs.is_empty() {
        return Ok(none(units, ctx));
    }
    langs.sort_by(|a, b| a.summary.lang.cmp(&b.summary.lang));
    let meta = ChangelogMeta { langs };
    frames.push(Frame::new(keys::CHANGELOG, &meta)?);
    for frame in token_frames(&maps) {
        frames.push(frame?);
    }
    let diagnostics = ctx.into_diagnostics().into_iter().collect();
    Ok(CompiledChangelog { meta: Some(meta), frames, units, diagnostics })
}

/// Removes `.<name>.tmp-<pid>` / `.<name>.old-<pid>` directories left by builds that were killed: those whose
/// process no longer runs (checked in /proc; where there is no /proc nothing is removed, as another build may be
/// writing).
pub(crate) fn remove_stale_temporaries(out: &Path, name: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(out) else { return };
    for e in entries.filter_map(Result::ok) {
        let file = e.file_name().to_string_lossy().into_owned();
        let pid = [".tmp-", ".old-"]
            .iter()
            .find_map(|sep| file.strip_prefix(&format!(".{name}{sep}")))
            .and_then(|pid| pid.parse::<u32>().ok());
        if pid.is_some_and(|p| p != std::process::id() && !Path::new(&format!("/proc/{p}")).exists()) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// The build id of `set`: a hash of everything the manifest says before the bundle list (deterministic, so
/// identical inputs give identical sets). The manifest carries it in its `Identity` (format 7: the other bundles
/// carry 0, so an unchanged bundle keeps its bytes from build to build). The frames of
/// every component and the changelog are hashed too, so an edit that changes no count still gives another id (the
/// search index derives from the same inputs).
fn build_id(set: &CompiledSet) -> anyhow::Result<u64> {
    let mut id = xxhash_rust::xxh3::Xxh3::new();
    id.update(&rmp_serde::to_vec(&set.manifest)?);
    for (key, b) in &set.components {
        id.update(key.as_bytes());
        id.update(&b.fingerprint().to_le_bytes());
    }
    if let Some(w) = &set.changelog {
        id.update(b"(changelog)");
        id.update(&w.fingerprint().to_le_bytes());
    }
    Ok(id.digest())
}

/// The manifest and directory of the set published in `out` when it is `set` already (its link names the
/// generation of `set`'s build id, and that generation opens, undamaged): then a build has nothing to write (it only removes
/// the temporaries of killed builds, as a writing build does).
pub fn published(out: &Path, set: &CompiledSet) -> Option<(Manifest, PathBuf)> {
    let id = build_id(set).ok()?;
    published_as(out, &format!("{}@{}", set.manifest.system, set.manifest.version), id)
}

/// Why the generation `set` would be published as is damaged, when it exists and is ([`BundleSet::damage`]: a
/// bundle whose size or whole-file checksum is not what its manifest pins, naming the file): writing `set` then
/// repairs it ([`crate::publish::publish_generation`] replaces it), and the build says so.
///
/// [`BundleSet::damage`]: crate::read::BundleSet::damage
pub fn published_damage(out: &Path, set: &CompiledSet) -> Option<String> {
    let id = build_id(set).ok()?;
    let name = format!("{}@{}", set.manifest.system, set.manifest.version);
    let generation = out.join(crate::bundle::writer::generation_name(&name, id));
    generation.is_dir().then(|| crate::read::BundleSet::damage(&generation)).flatten()
}

/// The manifest and directory of the set `out/<name>` when it is published as the generation of build `id` and
/// opens with every bundle as its manifest pins it (see [`published`]).
pub fn published_as(out: &Path, name: &str, id: u64) -> Option<(Manifest, PathBuf)> {
    let dest = out.join(name);
    let generation = crate::bundle::writer::generation_name(name, id);
    if std::fs::read_link(&dest).ok()?.to_string_lossy() != generation {
        return None;
    }
    let opened = crate::read::BundleSet::open(&dest).ok()?;
    let manifest = opened.manifest().ok()?.clone();
    if manifest.build_id != id || crate::read::BundleSet::damage(&dest).is_some() {
        return None;
    }
    // What a build that writes would clean up, this one does too.
    remove_stale_temporaries(out, name);
    Some((manifest, dest))
}

/// The directory of the generation published as `out/<name>` and what its manifest records of each bundle file
/// (`None` when there is none, or it does not open).
fn previous_generation(out: &Path, name: &str) -> Option<(PathBuf, BTreeMap<String, Written>)> {
    let dir = std::fs::canonicalize(out.join(name)).ok()?;
    let set = crate::read::BundleSet::open(&dir).ok()?;
    let files = set
        .manifest()
        .ok()?
        .bundles
        .iter()
        .map(|b| (b.name.clone(), Written { bytes: b.bytes, xxh3: b.xxh3, header_xxh3: b.header_xxh3 }))
        .collect();
    Some((dir, files))
}

/// Writes `set` into `out/<system>@<version>/`: every bundle into a temporary sibling directory, the manifest last,
/// then the directory is swapped into place. A bundle whose bytes are those of the published generation's file is
/// hard-linked from it instead of written (format 7), so a one-document rebuild writes that component's bundle, the
/// search index and the manifest. Returns the final manifest and directory.
///
/// # Errors
/// Any I/O error; the temporary directory is removed and an existing set is left as it was.
pub fn write_bundle_set(out: &Path, set: CompiledSet) -> anyhow::Result<(Manifest, PathBuf)> {
    write_bundle_set_publishing(out, set, true)
}

/// [`write_bundle_set`], publishing the set only when `publish` is true. Unpublished (`build --deny-warnings` with
/// a warning, TRIAL item 15), the set is written in full into its temporary directory (so the manifest's sizes
/// and checksums are those a publication would have had) and that directory is then removed: whatever
/// `out/<system>@<version>` pointed to before stays, untouched. The directory returned is where the set would be.
///
/// # Errors
/// As [`write_bundle_set`].
pub(crate) fn write_bundle_set_publishing(
    out: &Path,
    set: CompiledSet,
    publish: bool,
) -> anyhow::Result<(Manifest, PathBuf)> {
    let build_id = build_id(&set)?;
    let CompiledSet { mut manifest, components, changelog, search, spool, .. } = set;
    let name = format!("{}@{}", manifest.system, manifest.version);
    manifest.build_id = build_id;
    let base = Identity {
        system: manifest.system.clone(),
        version: manifest.version.clone(),
        key: String::new(),
        encoding: manifest.encoding.clone(),
        build_id: manifest.build_id,
    };
    // Format 7: only the manifest carries the build id, so an unchanged bundle keeps its bytes from build to build.
    let identity = |key: &str| Identity { key: key.to_string(), build_id: 0, ..base.clone() };
    let previous = previous_generation(out, &name);
    std::fs::create_dir_all(out)
        .map_err(|e| anyhow::anyhow!("{}: cannot create output directory: {e}", out.display()))?;
    remove_stale_temporaries(out, &name);
    let tmp = out.join(format!(".{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let result = (|| -> anyhow::Result<()> {
        std::fs::create_dir_all(&tmp)?;
        let mut named: Vec<(String, String, SpooledBundle)> = components
            .into_iter()
            .map(|(key, w)| (bundle_file_name(&key), key, w))
            .chain(changelog.map(|w| ("changelog.bundle".to_string(), CHANGELOG_KEY.to_string(), w)))
            .collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        // The search index is built (postings merged, frames compressed) while the other bundles are written.
        let (written, indexed) = rayon::join(
            || {
                named
                    .into_par_iter()
                    .map(|(file, key, b)| {
                        let old =
                            previous.as_ref().and_then(|(dir, files)| Some((dir.join(&file), *files.get(&file)?)));
                        let old = old.as_ref().map(|(path, w)| (path.as_path(), *w));
                        let done = b.finish_or_reuse(identity(&key), &tmp.join(&file), old)?;
                        let Written { bytes, xxh3, header_xxh3 } = done.written;
                        Ok(BundleFile { name: file, bytes, xxh3, header_xxh3 })
                    })
                    .collect::<std::io::Result<Vec<BundleFile>>>()
            },
            || -> std::io::Result<(BundleFile, SearchEntry)> {
                let (mut w, entry) = search_index::build_packed(search, Default::default())?;
                super::timing("search index built");
                w.identify(identity(SEARCH_KEY));
                let Written { bytes, xxh3, header_xxh3 } = w.finish(&tmp.join(&entry.bundle))?;
                Ok((BundleFile { name: entry.bundle.clone(), bytes, xxh3, header_xxh3 }, entry))
            },
        );
        super::timing("bundles and search index written");
        let (search_file, search_entry) = indexed?;
        let mut written = written?;
        written.push(search_file);
        written.sort_by(|a, b| a.name.cmp(&b.name));
        manifest.search = Some(search_entry);
        manifest.stats.bundle_bytes = written.iter().map(|b| b.bytes).sum();
        manifest.bundles = written;
        let mut w = BundleWriter::new();
        w.identify(Identity { build_id: manifest.build_id, ..identity(MANIFEST_KEY) });
        w.add_manifest(&manifest)?;
        write_atomically(&tmp.join("manifest.bundle"), &w.into_bytes()?)?;
        Ok(())
    })();
    drop(spool);
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e.context(format!("cannot write bundles into {}", out.display())));
    }
    let dest = out.join(&name);
    if !publish {
        let _ = std::fs::remove_dir_all(&tmp);
        return Ok((manifest, dest));
    }
    crate::publish::publish_generation(out, &name, &tmp, manifest.build_id)?;
    Ok((manifest, dest))
}
