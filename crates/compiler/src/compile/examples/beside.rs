//! Examples kept beside a document's text: the Storybook stories of its component ([`super::stories`]). Each story
//! becomes a code block numbered after the document's own, its code a frame of its own (as a dumi demo's is) and
//! its span empty at the end of the text, so the stored document stays the file as written and the placeholder
//! view lists the stories under "Stories" (`view::placeholder_view_layout`). A story that re-exports an example
//! file the document already shows marks that block as the story instead of storing its code twice.

use std::collections::{BTreeMap, BTreeSet};

use super::super::cache::{self, Dependency};
use super::super::diagnostic::{Diagnostic, Stage};
use super::super::markdown::{CodeBlock, Document};
use super::super::names;
use super::super::walk::WalkedFile;
use super::Repo;
use super::stories::{self, Named, StoryFile};
use crate::model::{CodeBlockMeta, DemoMeta, component_key};

/// The heading story blocks are listed under.
pub const STORIES: &str = "Stories";

/// How the warning on a story file that could not be read begins (the build summary counts them by it).
pub const UNREAD_STORY: &str = "story file not read: ";

/// The story files of a repository, by the component they belong to.
#[derive(Debug, Default)]
pub struct StoryIndex {
    by_component: BTreeMap<String, Vec<(WalkedFile, StoryFile)>>,
    /// What was left out and why: a warning per file that could not be read (not UTF-8, too big, syntax errors,
    /// no default export), a note per file whose component is none of the set's.
    pub problems: Vec<Diagnostic>,
}

impl StoryIndex {
    /// Reads each of the repository's story files (`files`, from [`story_files`]); a file whose component is not
    /// one of `components` (names → keys; by the matching documents use: case, kebab, plural) is left out with a
    /// note, one that cannot be read with a warning ([`UNREAD_STORY`]).
    pub fn build(repo: &Repo, files: &[WalkedFile], components: &BTreeMap<String, String>) -> StoryIndex {
        let known: BTreeSet<String> = components.keys().cloned().collect();
        let mut by_component: BTreeMap<String, Vec<(WalkedFile, StoryFile)>> = BTreeMap::new();
        let mut problems = Vec::new();
        for f in files.iter().cloned() {
            let file = match repo.read(&f).and_then(|text| stories::read(&f.rel, &text)) {
                Ok(file) => file,
                Err(why) => {
                    // `repo.read` names the file in its reasons; the file is the diagnostic's path.
                    let why = why.strip_prefix(&format!("{} ", f.rel)).unwrap_or(&why).to_string();
                    problems.push(Diagnostic::new(
                        f.rel.clone(),
                        Stage::Source,
                        format!("{UNREAD_STORY}{why}; its stories are left out"),
                    ));
                    continue;
                }
            };
            if file.stories.is_empty() {
                continue;
            }
            match names::exported_key(&file.component, &known).and_then(|n| components.get(&n)) {
                Some(key) => by_component.entry(key.clone()).or_default().push((f, file)),
                None => problems.push(Diagnostic::note(
                    f.rel.clone(),
                    Stage::Source,
                    format!(
                        "stories of `{}`, which is no component of this set; left out",
                        crate::escape::shown(&file.component)
                    ),
                )),
            }
        }
        StoryIndex { by_component, problems }
    }

    /// The story files of the component `key`, by path.
    pub fn of(&self, key: &str) -> &[(WalkedFile, StoryFile)] {
        self.by_component.get(&component_key(key)).map_or(&[], Vec::as_slice)
    }
}

/// The story files of the build's walk: those its story globs set apart (`Walked::stories`, out of the sources)
/// and those it kept (`walked`: Arco's `stories/Button.story.tsx`, which `*.stories.*` does not match), sorted by
/// path. The build cache keys on this list, so that a story file added for a component (one that had none too)
/// rebuilds it.
pub fn story_files(set_apart: Vec<WalkedFile>, walked: &[WalkedFile]) -> Vec<WalkedFile> {
    let mut out: Vec<WalkedFile> =
        set_apart.into_iter().chain(walked.iter().cloned()).filter(|f| stories::is_story_file(&f.rel)).collect();
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// What attaching stories to a document did.
#[derive(Debug, Default)]
pub struct Attached {
    /// Files read, with their hashes (for the build cache).
    pub deps: Vec<Dependency>,
    /// Notes for the build report (a component guessed from a file name, a re-export that resolves to nothing).
    pub notes: Vec<String>,
}

/// Appends the stories of the component `key` to `doc` (whose text is `text`, at `doc_rel`) as code blocks beside
/// the text.
pub fn attach(repo: &Repo, key: &str, doc_rel: &str, text: &str, doc: &mut Document) -> Attached {
    let mut out = Attached::default();
    let files = repo.stories().of(key);
    if files.is_empty() {
        return out;
    }
    // Beside the text: past its last line, an empty span at its end.
    let after = text.split('\n').count() as u32 + 1;
    let end = text.len() as u32;
    for (f, file) in files {
        out.deps.push((f.rel.clone(), cache::file_hash(repo.root, &f.rel)));
        if file.named == Named::FileName {
            out.notes.push(format!(
                "{}: no `title` or `component` in its default export; its stories are taken as {key}'s by the file \
                 name `{}`",
                f.rel, file.component
            ));
        }
        let ext = f.rel.rsplit_once('.').map_or("tsx", |(_, e)| e);
        for story in &file.stories {
            let id = format!("{}#{}", f.rel, story.export);
            let (code, path, lang) = match &story.from {
                None => (story.code.clone(), f.rel.clone(), ext.to_string()),
                Some(module) => {
                    // A module path (`compositions/examples/button-basic`: an alias of the workspace): its last two
                    // segments searched for, as an example reference's `**/` is.
                    let tail: Vec<&str> = module.rsplit('/').take(2).collect();
                    let template = format!("**/{}", tail.iter().rev().copied().collect::<Vec<_>>().join("/"));
                    let Some(target) = repo.resolve(doc_rel, &template, &mut Vec::new()) else {
                        out.notes.push(format!(
                            "{}: story `{}` re-exports `{module}`, which is no file of the repository; left out",
                            f.rel, story.export
                        ));
                        continue;
                    };
                    if let Some(shown) = doc
                        .code_blocks
                        .iter_mut()
                        .filter_map(|b| b.meta.demo.as_mut())
                        .find(|d| d.path == target.rel && d.story.is_none())
                    {
                        shown.story = Some(id);
                        continue;
                    }
                    out.deps.push((target.rel.clone(), cache::file_hash(repo.root, &target.rel)));
                    let Ok(code) = repo.read(target) else { continue };
                    let lang = target.rel.rsplit_once('.').map_or("", |(_, e)| e).to_string();
                    (code, target.rel.clone(), lang)
                }
            };
            let index = doc.code_blocks.len() as u32 + 1;
            doc.code_blocks.push(CodeBlock {
                meta: CodeBlockMeta {
                    index,
                    info: lang.clone(),
                    lang,
                    heading: Some(STORIES.to_string()),
                    start_line: after,
                    end_line: after,
                    start_byte: end,
                    end_byte: end,
                    tokens: 0,
                    cleaned: true,
                    demo: Some(DemoMeta {
                        path,
                        title: Some(story.title.clone()),
                        description: None,
                        description_path: None,
                        debug: false,
                        story: Some(id),
                    }),
                },
                code: Some(code),
                demo_tag: None,
            });
        }
    }
    out
}
