//! The design system's own API (issue 24 item 1): which package is the design system, and which components its
//! entry point exports.
//!
//! The package is the non-private `package.json` whose name the documents import most
//! (`import { Button } from '@arco-design/web-react'`), else the published package whose entry exports the most
//! components. Its entry (`exports`, `module`, `main`, `types`, mapped back from the build folder to the sources,
//! then the conventional `src/index.ts(x)` and `components/index.ts(x)`) is parsed with tree-sitter and its
//! `export … from` chains followed: a module that re-exports several folders is a barrel (`components/index.ts`)
//! and is followed further; a folder reached otherwise is one component, named by `export { default as X }` or,
//! for `export * from './date-picker'`, by the folder (`DatePicker`). A workspace package named in a re-export
//! (`export * from '@scope/components'`, a private sources package behind the published one) is followed the same
//! way. A component whose folder name also appears in a workspace package the design system depends on (Semi's
//! `semi-foundation/button` beside `semi-ui/button`) gets that folder too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use tree_sitter::Node;

use super::names::{kebab_case, singular};
use super::source::{SourceLang, parse};
use super::walk::WalkedFile;
use crate::model::component_key;

/// One exported component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    /// The export name, the display title (`DatePicker`).
    pub name: String,
    /// The canonical id: kebab-case of the export name (`date-picker`).
    pub id: String,
    /// Folders (or single files) defining it, repository-relative, the defining one first.
    pub dirs: Vec<String>,
}

/// A workspace package (`package.json` among the walked files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package {
    /// Its folder, repository-relative (`""` for the root).
    pub dir: String,
    /// Its `name`.
    pub name: String,
    /// Its `version`, when it has one.
    pub version: Option<String>,
    /// Whether it is `private` (never published: never the system's name or version).
    pub private: bool,
    /// Names of the packages it depends on (dependencies and peer dependencies).
    pub deps: BTreeSet<String>,
    /// Its raw `package.json`, for the entry fields.
    json: serde_json::Value,
}

impl Package {
    /// Whether it has an entry point (`main`, `module`, `exports`, `types` or `bin`): a library or a tool. A
    /// package with none is an app (a docs site, a sandbox).
    pub fn is_library(&self) -> bool {
        ["main", "module", "exports", "types", "bin"].iter().any(|k| self.json.get(k).is_some())
    }
}

/// The design-system package and its exported components.
#[derive(Clone, Debug)]
pub struct Api {
    /// The design-system package.
    pub package: Package,
    /// How it was chosen, for the report (`imported by 812 code blocks`).
    pub chosen_by: String,
    /// How many times the documents import it.
    pub imports: usize,
    /// The entry file read, when one was readable.
    pub entry: Option<String>,
    /// The exported components, sorted by id; empty when no entry was readable (folder rules apply then).
    pub components: Vec<Export>,
    /// Other exported values a document may name (hooks such as `useHotkeys`, parts such as `HotkeysTarget`
    /// re-exported beside their component, names of a multi-component module without a `<Name>Props` type),
    /// sorted by id. A document naming one documents it (it is then built as a component); undocumented, they
    /// are not counted as exported components without a document.
    pub others: Vec<Export>,
    /// The value names a component's folder re-exports from elsewhere (Chakra's `environment/index.ts` re-exports
    /// `EnvironmentProvider` from Ark UI), by [`component_key`] → the component's key: a document importing one
    /// documents that component (see `compile::page_subject`).
    pub part_of: BTreeMap<String, String>,
}

impl Api {
    /// The ids of the exported components, by [`component_key`].
    pub fn keys(&self) -> BTreeMap<String, &Export> {
        self.components.iter().map(|e| (component_key(&e.id), e)).collect()
    }

    /// Every name a document may document, by [`component_key`]: the components, then the other exports (a
    /// component wins over another export with the same key).
    pub fn documentable(&self) -> BTreeMap<String, &Export> {
        let mut out: BTreeMap<String, &Export> = self.others.iter().map(|e| (component_key(&e.id), e)).collect();
        out.extend(self.keys());
        out
    }

    /// A bundle-set name from the package name: `@chakra-ui/react` → `chakra-ui-react`, `vant` → `vant`.
    pub fn system_name(&self) -> String {
        system_name(&self.package.name)
    }
}

/// `@chakra-ui/react` → `chakra-ui-react`: a package name as a bundle-set name (no `@`, `/` as `-`).
pub fn system_name(package: &str) -> String {
    package.trim_start_matches('@').replace('/', "-")
}

/// The workspace packages among `files` (unparsable `package.json` files and those without a name are skipped).
pub fn packages(repo: &Path, files: &[WalkedFile]) -> Vec<Package> {
    let mut out = Vec::new();
    for f in files {
        let dir = match f.rel.rsplit_once('/') {
            Some((dir, "package.json")) => dir,
            None if f.rel == "package.json" => "",
            _ => continue,
        };
        if dir.split('/').any(|p| p == "node_modules" || p.starts_with('.')) {
            continue;
        }
        let Ok(text) = super::text::read_to_string(repo.join(&f.rel)) else { continue };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
        let Some(name) = json.get("name").and_then(|v| v.as_str()).map(str::to_string) else { continue };
        let mut deps = BTreeSet::new();
        for field in ["dependencies", "peerDependencies", "devDependencies"] {
            if let Some(map) = json.get(field).and_then(|v| v.as_object()) {
                deps.extend(map.keys().cloned());
            }
        }
        out.push(Package {
            dir: dir.to_string(),
            name,
            version: json.get("version").and_then(|v| v.as_str()).map(str::to_string),
            private: json.get("private").and_then(|v| v.as_bool()).unwrap_or(false),
            deps,
            json,
        });
    }
    out
}

/// How many times the Markdown documents among `files` import each of `names` (`from 'name'`, `from "name/…"`,
/// `require('name')`). Reads at most 4,000 documents of at most 1 MB.
fn import_counts(repo: &Path, files: &[WalkedFile], names: &[&str]) -> Vec<usize> {
    let mut counts = vec![0; names.len()];
    let docs = files
        .iter()
        .filter(|f| f.bytes <= 1 << 20 && f.rel.rsplit_once('.').is_some_and(|(_, e)| matches!(e, "md" | "mdx")));
    for f in docs.take(4000) {
        let Ok(text) = std::fs::read_to_string(repo.join(&f.rel)) else { continue };
        for (i, name) in names.iter().enumerate() {
            for q in ['\'', '"'] {
                for sep in [q, '/'] {
                    counts[i] += text.matches(&format!("{q}{name}{sep}")).count();
                }
            }
        }
    }
    counts
}

/// Finds the design-system package of `repo` and reads its API. `wanted` is `[system] package` when configured.
/// `None` when no non-private package exists (a documents-only repository).
pub fn read(repo: &Path, files: &[WalkedFile], wanted: Option<&str>) -> Option<Api> {
    let all = packages(repo, files);
    let by_name: BTreeMap<&str, &Package> = all.iter().map(|p| (p.name.as_str(), p)).collect();
    let known: BTreeSet<&str> = files.iter().map(|f| f.rel.as_str()).collect();
    if let Some(name) = wanted {
        let package = by_name.get(name)?;
        let (entry, components, others, part_of) = components_of(repo, &known, &all, package);
        return Some(Api {
            package: (*package).clone(),
            chosen_by: "the configuration".into(),
            imports: 0,
            entry,
            components,
            others,
            part_of,
        });
    }
    let public: Vec<&Package> = all.iter().filter(|p| !p.private).collect();
    if public.is_empty() {
        return None;
    }
    let names: Vec<&str> = public.iter().map(|p| p.name.as_str()).collect();
    let counts = import_counts(repo, files, &names);
    // (imports, components, package, entry, exports)
    type Read<'a> = (usize, usize, &'a Package, Option<String>, Vec<Export>, Vec<Export>, BTreeMap<String, String>);
    let mut read: Vec<Read> = public
        .iter()
        .zip(&counts)
        .map(|(p, &n)| {
            let (entry, components, others, part_of) = components_of(repo, &known, &all, p);
            (n, components.len(), *p, entry, components, others, part_of)
        })
        .collect();
    // Most imported; then most components; then the shallowest folder.
    read.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.dir.len().cmp(&b.2.dir.len())));
    let (n, _, package, entry, components, others, part_of) = read.into_iter().next()?;
    let chosen_by = if n > 0 {
        format!("imported {n} times by the documents")
    } else if !components.is_empty() {
        "no document imports a package; the published one exporting the most components".into()
    } else {
        "no document imports a package; the shallowest published one".into()
    };
    Some(Api { package: package.clone(), chosen_by, imports: n, entry, components, others, part_of })
}

const EXTENSIONS: [&str; 5] = ["ts", "tsx", "js", "jsx", "mjs"];

/// `a/b/../c` → `a/c`; `None` when it leaves the repository.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() { rest.to_string() } else { format!("{dir}/{rest}") }
}

/// The walked source file `base` names as an import would resolve it: itself, with an extension, or its folder's
/// `index`.
fn resolve_file(known: &BTreeSet<&str>, base: &str) -> Option<String> {
    let base = normalize(base)?;
    // A Vue single-file component is named with its extension (`export { default as Button } from
    // './button/Button.vue'`): the file itself, read for its name only.
    let named = |e: &str| EXTENSIONS.contains(&e) || e == "vue";
    if known.contains(base.as_str()) && base.rsplit_once('.').is_some_and(|(_, e)| named(e)) {
        return Some(base);
    }
    let stripped = base.strip_suffix(".js").unwrap_or(&base);
    EXTENSIONS
        .iter()
        .map(|e| format!("{stripped}.{e}"))
        .chain(EXTENSIONS.iter().map(|e| join(&base, &format!("index.{e}"))))
        .find(|c| known.contains(c.as_str()))
}

/// The source entry of `package`: its entry fields mapped back to the sources (`./es/index.js` → `src/index.ts`,
/// `components/index.tsx`), then the conventional places.
fn entry_of(known: &BTreeSet<&str>, package: &Package) -> Option<String> {
    let mut fields: Vec<String> = Vec::new();
    let exports = package.json.get("exports");
    let dot = exports.and_then(|e| e.get(".")).or(exports);
    let mut stack: Vec<&serde_json::Value> = dot.into_iter().collect();
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::String(s) => fields.push(s.clone()),
            serde_json::Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    for k in ["source", "module", "main", "types", "typings"] {
        if let Some(s) = package.json.get(k).and_then(|v| v.as_str()) {
            fields.push(s.to_string());
        }
    }
    let mut candidates: Vec<String> = Vec::new();
    for field in &fields {
        let path = field.trim_start_matches("./");
        candidates.push(path.to_string());
        // A build folder's entry (`es/index.js`, `dist/esm/index.js`, `lib/index.d.ts`): the same stem in the
        // sources.
        let file = path.rsplit('/').next().unwrap_or(path);
        let stem = file.split('.').next().unwrap_or(file);
        for dir in ["src", "components", "lib", ""] {
            candidates.push(join(dir, stem));
        }
    }
    for c in ["src/index", "components/index", "index"] {
        candidates.push(c.to_string());
    }
    candidates.iter().find_map(|c| resolve_file(known, &join(&package.dir, c)))
}

/// One `export … from` of a module (type-only ones left out).
#[derive(Debug)]
struct ReExport {
    spec: String,
    /// `None`: `export * from`; else the exported names with their local name (`default` for `default as X`,
    /// `*` for `export * as X`).
    names: Option<Vec<(String, String)>>,
    /// The type names of the same clause (`export { Checkbox, type CheckboxProps }`).
    types: Vec<String>,
}

/// The names of a re-export: `None` for `export *`, else `(exported, local)` pairs.
type Names = Option<Vec<(String, String)>>;

/// A module's re-exports and the value names it declares as exported.
#[derive(Debug, Default)]
struct Module {
    re_exports: Vec<ReExport>,
    declared: Vec<String>,
    /// Type names it exports (declared or re-exported): the `<Name>Props` evidence that `Name` is a component.
    types: Vec<String>,
    /// Names of `declared` exported by a local clause (`import * as Classes …; export { Classes }`): imports are
    /// not followed, so these are not taken as documentable parts.
    local_clause: Vec<String>,
}

fn text<'a>(node: Node, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

/// The `(exported, local)` names of an export clause, values and types apart.
type Clause = (Vec<(String, String)>, Vec<String>);

fn clause_names(clause: Node, src: &str) -> Clause {
    let (mut values, mut types) = (Vec::new(), Vec::new());
    let mut c = clause.walk();
    for spec in clause.children(&mut c).filter(|n| n.kind() == "export_specifier") {
        let Some(local) = spec.child_by_field_name("name") else { continue };
        let local = text(local, src).to_string();
        let exported = spec.child_by_field_name("alias").map_or(local.clone(), |a| text(a, src).to_string());
        let mut sc = spec.walk();
        if spec.children(&mut sc).any(|n| n.kind() == "type") {
            types.push(exported);
        } else {
            values.push((exported, local));
        }
    }
    (values, types)
}

/// Parses the exports of one source file; `None` when unreadable or not a script.
fn module(repo: &Path, rel: &str) -> Option<Module> {
    let lang = SourceLang::from_path(Path::new(rel))?;
    let src = super::text::read_to_string(repo.join(rel)).ok()?;
    let tree = parse(lang, &src).ok()?;
    let root = tree.root_node();
    let mut out = Module::default();
    let mut cursor = root.walk();
    for stmt in root.children(&mut cursor).filter(|n| n.kind() == "export_statement") {
        let mut c = stmt.walk();
        let children: Vec<Node> = stmt.children(&mut c).collect();
        let clause = children.iter().find(|n| n.kind() == "export_clause");
        let (names, mut types) = clause.map(|c| clause_names(*c, &src)).unwrap_or_default();
        // `export type { A, B } from './x'`: types only.
        if children.iter().any(|n| n.kind() == "type") {
            out.types.extend(names.into_iter().map(|(e, _)| e));
            out.types.append(&mut types);
            continue;
        }
        out.types.extend(types.iter().cloned());
        let source = stmt.child_by_field_name("source").map(|s| text(s, &src).trim_matches(['\'', '"', '`']));
        match source {
            Some(spec) => {
                let names = if clause.is_some() {
                    Some(names)
                } else if let Some(ns) = children.iter().find(|n| n.kind() == "namespace_export") {
                    // `export * as X from './x'`: one name.
                    let name = text(*ns, &src).trim_start_matches('*').trim().trim_start_matches("as").trim();
                    Some(vec![(name.to_string(), "*".to_string())])
                } else {
                    None
                };
                out.re_exports.push(ReExport { spec: spec.to_string(), names, types });
            }
            None => {
                out.local_clause.extend(names.iter().map(|(e, _)| e.clone()));
                out.declared.extend(names.into_iter().map(|(e, _)| e));
                if let Some(decl) = stmt.child_by_field_name("declaration") {
                    if matches!(decl.kind(), "interface_declaration" | "type_alias_declaration") {
                        if let Some(n) = decl.child_by_field_name("name") {
                            out.types.push(text(n, &src).to_string());
                        }
                        continue;
                    }
                    if let Some(n) = decl.child_by_field_name("name") {
                        out.declared.push(text(n, &src).to_string());
                    }
                    let mut dc = decl.walk();
                    for d in decl.children(&mut dc).filter(|n| n.kind() == "variable_declarator") {
                        if let Some(n) = d.child_by_field_name("name") {
                            out.declared.push(text(n, &src).to_string());
                        }
                    }
                }
            }
        }
    }
    Some(out)
}

fn is_pascal(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && name.chars().any(|c| c.is_ascii_lowercase())
}

/// `date-picker` → `DatePicker`.
fn pascal(folder: &str) -> String {
    kebab_case(folder)
        .split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| f.to_ascii_uppercase().to_string() + c.as_str())
        })
        .collect()
}

struct Walker<'a> {
    repo: &'a Path,
    known: &'a BTreeSet<&'a str>,
    packages: &'a [Package],
    modules: BTreeMap<String, Option<Module>>,
    found: BTreeMap<String, Export>,
    others: BTreeMap<String, Export>,
    part_of: BTreeMap<String, String>,
    seen: BTreeSet<String>,
    parts_seen: BTreeSet<String>,
}

impl Walker<'_> {
    fn module(&mut self, rel: &str) -> Option<&Module> {
        if !self.modules.contains_key(rel) {
            let m = module(self.repo, rel);
            self.modules.insert(rel.to_string(), m);
        }
        self.modules.get(rel).and_then(Option::as_ref)
    }

    /// The file a re-export of `from` names: a relative path, or a workspace package's entry.
    fn target(&self, from: &str, spec: &str) -> Option<String> {
        if spec.starts_with('.') {
            let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
            return resolve_file(self.known, &join(dir, spec));
        }
        let package = self.packages.iter().find(|p| p.name == spec)?;
        entry_of(self.known, package)
    }

    /// Value names a module exports (its declarations, its clauses, and one level of `export *` into files).
    fn names(&mut self, rel: &str, depth: usize) -> Vec<String> {
        let Some(m) = self.module(rel) else { return vec![] };
        let mut names = m.declared.clone();
        let mut stars = Vec::new();
        for r in &m.re_exports {
            match &r.names {
                Some(n) => names.extend(n.iter().map(|(e, _)| e.clone())),
                None => stars.push(r.spec.clone()),
            }
        }
        if depth < 2 {
            for spec in stars {
                if let Some(t) = self.target(rel, &spec) {
                    names.extend(self.names(&t, depth + 1));
                }
            }
        }
        names
    }

    /// Whether `rel` re-exports from two folders or more (`components/index.ts`): a barrel, followed further.
    fn is_barrel(&mut self, rel: &str) -> bool {
        let specs: Vec<String> = match self.module(rel) {
            Some(m) => m.re_exports.iter().map(|r| r.spec.clone()).collect(),
            None => return false,
        };
        // The folders its re-exports lead into, other than its own (`./alert/alert`, `./button` → 2).
        let own = folder_of(rel).to_string();
        let folders: BTreeSet<String> = specs
            .iter()
            .filter_map(|s| self.target(rel, s))
            .map(|t| if is_index(&t) { folder_of(&t).to_string() } else { t.clone() })
            .map(|t| if t.contains('.') { folder_of(&t).to_string() } else { t })
            .filter(|f| *f != own)
            .collect();
        folders.len() >= 2
    }

    /// The file that declares `name` as `rel` exports it, following its re-exports (`export { Checkbox } from
    /// './forms'` → `forms/index.ts` → `forms/controls.tsx`); `rel` itself when the chain ends elsewhere.
    fn define(&mut self, rel: &str, name: &str, depth: usize) -> String {
        let Some(m) = self.module(rel) else { return rel.to_string() };
        if depth >= 4 || m.declared.iter().any(|d| d == name) {
            return rel.to_string();
        }
        let mut next: Option<(String, String)> = None;
        let mut stars = Vec::new();
        for r in &m.re_exports {
            match &r.names {
                Some(names) => {
                    if let Some((_, local)) = names.iter().find(|(e, _)| e == name) {
                        next = Some((r.spec.clone(), local.clone()));
                        break;
                    }
                }
                None => stars.push(r.spec.clone()),
            }
        }
        if let Some((spec, local)) = next {
            return match self.target(rel, &spec) {
                Some(t) if local != "*" && local != "default" => self.define(&t, &local, depth + 1),
                Some(t) => t,
                None => rel.to_string(),
            };
        }
        for spec in stars {
            let Some(t) = self.target(rel, &spec) else { continue };
            if self.names(&t, 1).iter().any(|n| n == name) {
                return self.define(&t, name, depth + 1);
            }
        }
        rel.to_string()
    }

    /// Whether the module `rel` (or the clause `types`) exports the type `<name>Props`: the convention of React
    /// and Vue components, so `Checkbox`, `Radio` and `Switch` of one `controls.tsx` are each a component.
    fn has_props(&mut self, rel: &str, name: &str, types: &[String]) -> bool {
        let props = format!("{name}Props");
        types.contains(&props) || self.module(rel).is_some_and(|m| m.types.contains(&props))
    }

    /// Records `name` as another documentable export defined in `file` (hooks, parts, namespaces).
    fn other(&mut self, name: &str, file: &str) {
        let id = kebab_case(name);
        let place = self.place(name, file);
        self.others.entry(component_key(&id)).or_insert_with(|| Export {
            name: name.to_string(),
            id,
            dirs: vec![place],
        });
    }

    /// Where a component defined in `file` lives: its folder when the folder is named like it (`button/buttons.tsx`
    /// or `button/index.ts` for `Button`), else the file.
    fn place(&self, name: &str, file: &str) -> String {
        let folder = folder_of(file);
        let folder_name = folder.rsplit('/').next().unwrap_or(folder);
        if is_index(file) || like(name, folder_name) || like(folder_name, name) {
            folder.to_string()
        } else {
            file.to_string()
        }
    }

    /// The documentable value names a component's own module exports (`hotkeys/index.ts`: `HotkeysTarget`,
    /// `KeyComboTag`), kept as [`Api::others`]: parts of a component are no components of their own unless a
    /// document names them.
    fn parts(&mut self, rel: &str, depth: usize) {
        if depth > 3 || !self.parts_seen.insert(rel.to_string()) {
            return;
        }
        let Some(m) = self.module(rel) else { return };
        let declared: Vec<String> =
            m.declared.iter().filter(|n| documentable(n) && !m.local_clause.contains(n)).cloned().collect();
        let re_exports: Vec<(String, Names)> = m.re_exports.iter().map(|r| (r.spec.clone(), r.names.clone())).collect();
        for name in declared {
            self.other(&name, rel);
        }
        for (spec, names) in re_exports {
            let Some(target) = self.target(rel, &spec) else { continue };
            match names {
                Some(names) => {
                    for (e, l) in names.into_iter().filter(|(e, _)| documentable(e)) {
                        let file =
                            if l == "*" || l == "default" { target.clone() } else { self.define(&target, &l, 0) };
                        self.other(&e, &file);
                    }
                }
                None => self.parts(&target, depth + 1),
            }
        }
    }

    fn walk(&mut self, rel: &str, depth: usize) {
        if depth > 5 || !self.seen.insert(rel.to_string()) {
            return;
        }
        let Some(m) = self.module(rel) else { return };
        let re_exports: Vec<(String, Names, Vec<String>)> =
            m.re_exports.iter().map(|r| (r.spec.clone(), r.names.clone(), r.types.clone())).collect();
        for (spec, names, types) in re_exports {
            let Some(target) = self.target(rel, &spec) else {
                // `export { Empty } from '@my-design/illustrations'`: a component of another package, exported by
                // this one (no sources here).
                if !spec.starts_with('.') {
                    for (name, _) in names.iter().flatten().filter(|(e, _)| is_pascal(e)) {
                        let id = kebab_case(name);
                        self.found.entry(component_key(&id)).or_insert_with(|| Export {
                            name: name.clone(),
                            id,
                            dirs: vec![],
                        });
                    }
                }
                continue;
            };
            if self.is_barrel(&target) {
                self.walk(&target, depth + 1);
                continue;
            }
            let folder = folder_of(&target);
            let folder_name = folder.rsplit('/').next().unwrap_or(folder).to_string();
            let (mut place, stem) = if is_index(&target) {
                (folder.to_string(), folder_name.clone())
            } else {
                let file = target.rsplit('/').next().unwrap_or(&target);
                (target.clone(), file.split('.').next().unwrap_or(file).to_string())
            };
            if stem.starts_with('_') || stem.starts_with('.') || folder_name.starts_with('_') {
                continue;
            }
            let name = match &names {
                // `export { default as Button } from './Button'`, or the name matching the file or folder.
                Some(names) => names
                    .iter()
                    .find(|(e, l)| l == "default" && is_pascal(e))
                    .or_else(|| names.iter().find(|(e, _)| is_pascal(e) && (like(e, &stem) || like(e, &folder_name))))
                    .map(|(e, _)| e.clone()),
                // `export * from './date-picker'`: the folder's component, when it exports a value named like it.
                None => {
                    let key = component_key(&stem);
                    let exported = self.names(&target, 0);
                    let name = exported
                        .iter()
                        .any(|n| is_pascal(n) && component_key(n).starts_with(&key))
                        .then(|| pascal(&stem));
                    if let Some(name) = &name {
                        let own = component_key(name);
                        for n in exported.iter().filter(|n| documentable(n) && component_key(n) != own) {
                            self.part_of.entry(component_key(n)).or_insert_with(|| own.clone());
                        }
                    }
                    name
                }
            };
            match &names {
                // The clause's other names (`export { Checkbox, Radio, Switch } from './forms/controls'`,
                // `export { A as B }`, `export * as ns`): each is a component when its module exports its
                // `<Name>Props`, else another documentable export.
                Some(names) => {
                    for (e, l) in names.iter().filter(|(e, _)| documentable(e) && Some(e) != name.as_ref()) {
                        let file = if l == "*" || l == "default" { target.clone() } else { self.define(&target, l, 0) };
                        if is_pascal(e) && self.has_props(&file, e, &types) {
                            let place = self.place(e, &file);
                            self.add(e, place);
                        } else {
                            self.other(e, &file);
                        }
                    }
                }
                // `export * from './hotkeys'`: the folder's own exports are its parts.
                None => self.parts(&target, 0),
            }
            let Some(name) = name else { continue };
            // A file in a folder named like its component (`button/buttons.tsx`): the folder is the component's.
            if !is_index(&target) && (like(&name, &folder_name) || like(&folder_name, &name)) {
                place = folder.to_string();
            }
            self.add(&name, place);
        }
    }

    /// Adds `place` to the exported component `name`.
    fn add(&mut self, name: &str, place: String) {
        let id = kebab_case(name);
        let dirs = &mut self
            .found
            .entry(component_key(&id))
            .or_insert_with(|| Export { name: name.to_string(), id, dirs: vec![] })
            .dirs;
        if !dirs.contains(&place) {
            dirs.push(place);
        }
    }
}

/// A name matches a file or folder named like it, also in the plural (`buttons.tsx` for `Button`).
fn like(name: &str, file: &str) -> bool {
    let (n, f) = (component_key(name), component_key(file));
    n == f || singular(&f) == Some(n.as_str())
}

/// `useHotkeys`: a React or Vue hook.
fn is_hook(name: &str) -> bool {
    name.strip_prefix("use").and_then(|r| r.chars().next()).is_some_and(|c| c.is_ascii_uppercase())
}

/// A value name a document may document: a component-like name or a hook (not `Classes.SKELETON`-style
/// constants in capitals, not plain functions).
fn documentable(name: &str) -> bool {
    is_pascal(name) || is_hook(name)
}

fn is_index(rel: &str) -> bool {
    rel.rsplit('/').next().is_some_and(|f| f.split('.').next() == Some("index")) && rel.contains('/')
}

fn folder_of(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(d, _)| d)
}

/// The entry read and the components exported by `package`.
fn components_of(
    repo: &Path,
    known: &BTreeSet<&str>,
    all: &[Package],
    package: &Package,
) -> (Option<String>, Vec<Export>, Vec<Export>, BTreeMap<String, String>) {
    let Some(entry) = entry_of(known, package) else { return (None, vec![], vec![], BTreeMap::new()) };
    let mut w = Walker {
        repo,
        known,
        packages: all,
        modules: BTreeMap::new(),
        found: BTreeMap::new(),
        others: BTreeMap::new(),
        part_of: BTreeMap::new(),
        seen: BTreeSet::new(),
        parts_seen: BTreeSet::new(),
    };
    w.walk(&entry, 0);
    // A part that is a component or another export of its own is that, not a part.
    let part_of: BTreeMap<String, String> =
        w.part_of.into_iter().filter(|(k, _)| !w.found.contains_key(k) && !w.others.contains_key(k)).collect();
    let others: Vec<Export> = w.others.into_iter().filter(|(k, _)| !w.found.contains_key(k)).map(|(_, e)| e).collect();
    let mut found: Vec<Export> = w.found.into_values().collect();
    // The same component's folder in the workspace packages the design system depends on (its logic package).
    let deps: Vec<&Package> = all.iter().filter(|p| package.deps.contains(&p.name) && p.dir != package.dir).collect();
    if !deps.is_empty() {
        let mut folders: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for f in known.iter() {
            for p in &deps {
                let Some(rest) = f.strip_prefix(&join(&p.dir, "")).filter(|_| !p.dir.is_empty()) else { continue };
                let parts: Vec<&str> = rest.split('/').collect();
                // Folders at most two levels below the package (`button/`, `src/button/`) holding a file.
                for depth in 0..parts.len().saturating_sub(1).min(2) {
                    let dir = join(&p.dir, &parts[..=depth].join("/"));
                    let entry = folders.entry(component_key(parts[depth])).or_default();
                    if !entry.contains(&dir) {
                        entry.push(dir);
                    }
                }
            }
        }
        for e in &mut found {
            if let Some(dirs) = folders.get(&component_key(&e.id)) {
                let extra: Vec<String> = dirs.iter().filter(|d| !e.dirs.contains(d)).cloned().collect();
                e.dirs.extend(extra);
            }
        }
    }
    found.sort_by(|a, b| a.id.cmp(&b.id));
    (Some(entry), found, others, part_of)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(system_name("@chakra-ui/react"), "chakra-ui-react");
        assert_eq!(system_name("vant"), "vant");
        assert_eq!(pascal("date-picker"), "DatePicker");
        assert_eq!(pascal("Button"), "Button");
        assert_eq!(normalize("a/b/../c/./d").as_deref(), Some("a/c/d"));
        assert_eq!(normalize("../x"), None);
    }

    /// Writes `files` into a temporary repository and reads its API (the package `@t/ui`).
    fn api_of(files: &[(&str, &str)]) -> Api {
        let dir = tempfile::tempdir().unwrap();
        let mut walked = Vec::new();
        for (rel, text) in files {
            let p = dir.path().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
            walked.push(WalkedFile { rel: rel.to_string(), abs: p, bytes: text.len() as u64 });
        }
        read(dir.path(), &walked, Some("@t/ui")).unwrap()
    }

    const PKG: (&str, &str) = ("package.json", r#"{"name": "@t/ui", "version": "1.0.0"}"#);

    fn listed(list: &[Export]) -> Vec<(&str, &str)> {
        list.iter().map(|e| (e.name.as_str(), e.dirs.first().map_or("", String::as_str))).collect()
    }

    /// A Vue library's entry names its single-file components with their extension.
    #[test]
    fn vue_single_file_components_re_exported_by_path_are_components() {
        let sfc = "<template><button><slot /></button></template>\n<script setup lang=\"ts\">\n</script>\n";
        let api = api_of(&[
            PKG,
            (
                "src/index.ts",
                "export { default as Button } from './components/button/Button.vue';\n\
                 export { default as DatePicker } from './components/date-picker/DatePicker.vue';\n",
            ),
            ("src/components/button/Button.vue", sfc),
            ("src/components/date-picker/DatePicker.vue", sfc),
        ]);
        assert_eq!(
            listed(&api.components),
            [("Button", "src/components/button"), ("DatePicker", "src/components/date-picker")]
        );
    }

    #[test]
    fn several_components_re_exported_from_one_module_are_each_a_component() {
        let controls = "export interface CheckboxProps {}\nexport const Checkbox = () => null;\n\
                        export type RadioProps = {};\nexport const Radio = () => null;\n\
                        export const Switch = () => null;\nexport const CONTROL = 1;\n";
        let api = api_of(&[
            PKG,
            ("src/index.ts", "export * from './components';\n"),
            (
                "src/components/index.ts",
                "export { Tag } from './tag/tag';\n\
                 export { Checkbox, Radio, Switch, type SwitchProps, CONTROL } from './forms/controls';\n",
            ),
            ("src/components/tag/tag.tsx", "export const Tag = () => null;\n"),
            ("src/components/forms/controls.tsx", controls),
        ]);
        // `Checkbox` and `Radio` by their module's `…Props` types, `Switch` by the clause's; `CONTROL` is no name.
        assert_eq!(
            listed(&api.components),
            [
                ("Checkbox", "src/components/forms/controls.tsx"),
                ("Radio", "src/components/forms/controls.tsx"),
                ("Switch", "src/components/forms/controls.tsx"),
                ("Tag", "src/components/tag"),
            ]
        );
        assert!(api.others.is_empty(), "{:?}", api.others);
    }

    #[test]
    fn aliases_namespaces_and_folder_indexes_are_followed_to_the_defining_file() {
        let api = api_of(&[
            PKG,
            ("src/index.ts", "export * from './components';\nexport * from './hooks';\n"),
            (
                "src/components/index.ts",
                "export { Tag } from './tag/tag';\n\
                 export { InnerPicker as Picker, type InnerPickerProps as PickerProps } from './picker/inner';\n\
                 export * as Menu from './menu/parts';\n\
                 export { Checkbox } from './forms';\n",
            ),
            ("src/components/tag/tag.tsx", "export const Tag = () => null;\n"),
            ("src/components/picker/inner.tsx", "export const InnerPicker = () => null;\n"),
            ("src/components/menu/parts.tsx", "export const Item = () => null;\n"),
            ("src/components/forms/index.ts", "export * from './controls';\n"),
            ("src/components/forms/controls.tsx", "export interface CheckboxProps {}\nexport const Checkbox = 1;\n"),
            (
                "src/hooks/index.ts",
                "export { useHotkeys } from './hotkeys/useHotkeys';\nexport { usePrevious } from './usePrevious';\n\
                 export { useOverlay } from './overlays/useOverlay';\n",
            ),
            ("src/hooks/hotkeys/useHotkeys.ts", "export function useHotkeys() {}\n"),
            ("src/hooks/usePrevious.ts", "export function usePrevious() {}\n"),
            ("src/hooks/overlays/useOverlay.ts", "export function useOverlay() {}\n"),
        ]);
        assert_eq!(
            listed(&api.components),
            [
                // Through `forms/index.ts` to the file that declares it.
                ("Checkbox", "src/components/forms/controls.tsx"),
                // `export * as Menu from './menu/parts'`: the namespace, in the folder named like it.
                ("Menu", "src/components/menu"),
                // `export { InnerPicker as Picker }`: the exported name, by its `PickerProps`.
                ("Picker", "src/components/picker"),
                ("Tag", "src/components/tag"),
            ]
        );
        // Hooks are documentable, not components of their own.
        assert_eq!(
            listed(&api.others),
            [
                ("useHotkeys", "src/hooks/hotkeys/useHotkeys.ts"),
                ("useOverlay", "src/hooks/overlays/useOverlay.ts"),
                ("usePrevious", "src/hooks/usePrevious.ts"),
            ]
        );
    }

    #[test]
    fn a_component_folders_own_exports_are_its_parts() {
        let api = api_of(&[
            PKG,
            ("src/index.ts", "export * from './tag';\nexport * from './hotkeys';\n"),
            ("src/tag/index.ts", "export const Tag = () => null;\n"),
            (
                "src/hotkeys/index.ts",
                "export { Hotkeys, type HotkeysProps } from './hotkeys';\n\
                 export { HotkeysTarget, type HotkeysTargetProps } from './hotkeysTarget';\n\
                 export { parseKeyCombo } from './parser';\n",
            ),
            ("src/hotkeys/hotkeys.tsx", "export const Hotkeys = () => null;\n"),
            ("src/hotkeys/hotkeysTarget.tsx", "export const HotkeysTarget = () => null;\n"),
            ("src/hotkeys/parser.ts", "export function parseKeyCombo() {}\n"),
        ]);
        assert_eq!(listed(&api.components), [("Hotkeys", "src/hotkeys"), ("Tag", "src/tag")]);
        // `HotkeysTarget` is documentable (a document naming it makes it a component), not counted as missing.
        assert_eq!(listed(&api.others), [("HotkeysTarget", "src/hotkeys/hotkeysTarget.tsx")]);
        assert_eq!(api.documentable().keys().collect::<Vec<_>>(), ["hotkeys", "hotkeystarget", "tag"]);
    }
}
