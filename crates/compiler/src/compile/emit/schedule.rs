//! Stage 3's schedule: which units the cache gives back, which files compile before the components (listed by
//! several, or owned by a reused component), and the components and the changelog compiled in parallel, each
//! bundle spooled as soon as its unit is done.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, OnceLock};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::assemble::{Assembly, assemble, bundle_file_name};
use super::changelog_bundle::compile_changelogs;
use super::component::{compile_component, token_frames};
use super::doc::unrecognised_total;
use super::file::compile_file;
use super::publish::Spool;
use super::units::{FileRecord, FileRecords, Keys, SOURCES_DEP, Unit, files_entry};
use super::{
    CachedComponent, CompiledChangelog, CompiledFile, CompiledSet, Ctx, Inputs, LazyCounter, OwnedFile, PackedFile,
    Pending, SpooledChangelog, SpooledComponent, Tokens, file_view, lock,
};
use crate::bundle::writer::Frame;
use crate::compile::diagnostic::{Diagnostic, Stage};
use crate::compile::examples;
use crate::compile::layout::{ComponentPlan, SHARED};
use crate::compile::walk::WalkedFile;
use crate::model::*;
use crate::search::index::PackedUnits;

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

/// The run's shared state in stage 3: inputs, plans, file owners, cache keys, the types index for `extends`.
struct Stage3<'a> {
    inputs: &'a Inputs<'a>,
    plans: &'a [(&'a str, &'a ComponentPlan)],
    keys: Option<&'a Keys>,
    component_keys: &'a [Option<u64>],
    /// Made when a file first needs it (props types that extend a type of another file).
    types: OnceLock<crate::compile::props::TypeIndex>,
    spool: &'a Spool,
}

impl Stage3<'_> {
    fn types(&self) -> &crate::compile::props::TypeIndex {
        let Inputs { repo, walked, config, .. } = *self.inputs;
        self.types.get_or_init(|| {
            crate::compile::props::TypeIndex::new(
                repo,
                walked.iter().map(|f| f.rel.as_str()),
                config.walk.max_file_bytes,
            )
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
        if let Some(cache) = Unit::new(cache, format!("component/{key}"), self.component_keys[i]).put(deps, &packed) {
            cache.put_aside(&files_entry(key), global, &records);
        }
        self.spooled(packed, false)
    }

    /// Spools the frames of `component` (compiled; or `reused` from the cache: then held in memory, see
    /// [`super::publish::Spool::bundle`]).
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

/// Compiles the whole layout: stage 3 (each component with the files it owns, and the changelog, in parallel,
/// each bundle spooled as soon as its unit is finished), reusing from the cache every unit whose inputs did not
/// change, then the manifest (stage 4, [`assemble`]).
pub fn compile_all(inputs: &Inputs, spool: Spool, diagnostics: &mut Vec<Diagnostic>) -> anyhow::Result<CompiledSet> {
    let Inputs { repo, walked, stories, layout, config, progress, cache } = *inputs;
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
    let shared = ComponentPlan { name: SHARED.into(), files: layout.shared.clone(), ..ComponentPlan::default() };
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
        Keys::new(config, walked, stories, inputs, cache)
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
            let keys = keys.as_ref()?;
            let unit = Unit::new(cache, format!("component/{key}"), *unit_key);
            let c: CachedComponent = unit.get(|rel| keys.dependency(repo, rel))?;
            // Its files' records stay for the build that recompiles it.
            cache?.keep(&files_entry(key));
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
    let example_repo = examples::Repo::new(repo, walked, stories, &config.examples, &config.walk, layout.names());
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
    let changelog_unit = Unit::new(cache, "changelog", keys.as_ref().map(|k| k.changelog(&layout.changelogs)));
    let cached_changelog: Option<CompiledChangelog> = changelog_unit.get(|_| None);
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
            if !changelog_reused {
                changelog_unit.put(vec![], &changelog);
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
    diagnostics.extend_from_slice(example_repo.story_problems());
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
    crate::compile::timing::timing("stage 3: components and changelog compiled and spooled");
    let assembly = Assembly { repo, walked, layout, config, default_lang, cache, tokens: &tokens };
    assemble(assembly, components, changelog, spool, diagnostics)
}
