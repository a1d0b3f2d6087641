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

use super::layout::kebab_case;
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
}

impl Api {
    /// The ids of the exported components, by [`component_key`].
    pub fn keys(&self) -> BTreeMap<String, &Export> {
        self.components.iter().map(|e| (component_key(&e.id), e)).collect()
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
        let Ok(text) = super::read_to_string(repo.join(&f.rel)) else { continue };
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
        let (entry, components) = components_of(repo, &known, &all, package);
        return Some(Api {
            package: (*package).clone(),
            chosen_by: "the configuration".into(),
            imports: 0,
            entry,
            components,
        });
    }
    let public: Vec<&Package> = all.iter().filter(|p| !p.private).collect();
    if public.is_empty() {
        return None;
    }
    let names: Vec<&str> = public.iter().map(|p| p.name.as_str()).collect();
    let counts = import_counts(repo, files, &names);
    // (imports, components, package, entry, exports)
    type Read<'a> = (usize, usize, &'a Package, Option<String>, Vec<Export>);
    let mut read: Vec<Read> = public
        .iter()
        .zip(&counts)
        .map(|(p, &n)| {
            let (entry, components) = components_of(repo, &known, &all, p);
            (n, components.len(), *p, entry, components)
        })
        .collect();
    // Most imported; then most components; then the shallowest folder.
    read.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.dir.len().cmp(&b.2.dir.len())));
    let (n, _, package, entry, components) = read.into_iter().next()?;
    let chosen_by = if n > 0 {
        format!("imported {n} times by the documents")
    } else if !components.is_empty() {
        "no document imports a package; the published one exporting the most components".into()
    } else {
        "no document imports a package; the shallowest published one".into()
    };
    Some(Api { package: package.clone(), chosen_by, imports: n, entry, components })
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
    if known.contains(base.as_str()) && base.rsplit_once('.').is_some_and(|(_, e)| EXTENSIONS.contains(&e)) {
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
    /// `None`: `export * from`; else the exported names with their local name (`default` for `default as X`).
    names: Option<Vec<(String, String)>>,
}

/// A module's re-exports and the value names it declares as exported.
#[derive(Debug, Default)]
struct Module {
    re_exports: Vec<ReExport>,
    declared: Vec<String>,
}

fn text<'a>(node: Node, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

/// Parses the exports of one source file; `None` when unreadable or not a script.
fn module(repo: &Path, rel: &str) -> Option<Module> {
    let lang = SourceLang::from_path(Path::new(rel))?;
    let src = super::read_to_string(repo.join(rel)).ok()?;
    let tree = parse(lang, &src).ok()?;
    let root = tree.root_node();
    let mut out = Module::default();
    let mut cursor = root.walk();
    for stmt in root.children(&mut cursor).filter(|n| n.kind() == "export_statement") {
        let mut c = stmt.walk();
        let children: Vec<Node> = stmt.children(&mut c).collect();
        if children.iter().any(|n| n.kind() == "type") {
            continue;
        }
        let source = stmt.child_by_field_name("source").map(|s| text(s, &src).trim_matches(['\'', '"', '`']));
        let clause = children.iter().find(|n| n.kind() == "export_clause");
        let mut names = Vec::new();
        if let Some(clause) = clause {
            let mut c = clause.walk();
            for spec in clause.children(&mut c).filter(|n| n.kind() == "export_specifier") {
                let mut sc = spec.walk();
                if spec.children(&mut sc).any(|n| n.kind() == "type") {
                    continue;
                }
                let Some(local) = spec.child_by_field_name("name") else { continue };
                let local = text(local, &src).to_string();
                let exported = spec.child_by_field_name("alias").map_or(local.clone(), |a| text(a, &src).to_string());
                names.push((exported, local));
            }
        }
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
                out.re_exports.push(ReExport { spec: spec.to_string(), names });
            }
            None => {
                out.declared.extend(names.into_iter().map(|(e, _)| e));
                if let Some(decl) = stmt.child_by_field_name("declaration") {
                    if matches!(decl.kind(), "interface_declaration" | "type_alias_declaration") {
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
    seen: BTreeSet<String>,
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

    fn walk(&mut self, rel: &str, depth: usize) {
        if depth > 5 || !self.seen.insert(rel.to_string()) {
            return;
        }
        let Some(m) = self.module(rel) else { return };
        type Names = Option<Vec<(String, String)>>;
        let re_exports: Vec<(String, Names)> = m.re_exports.iter().map(|r| (r.spec.clone(), r.names.clone())).collect();
        for (spec, names) in re_exports {
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
            // A name matches a file or folder named like it, also in the plural (`buttons.tsx` for `Button`).
            let like = |name: &str, file: &str| {
                let (n, f) = (component_key(name), component_key(file));
                n == f || super::matching::singular(&f) == Some(n.as_str())
            };
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
                    exported.iter().any(|n| is_pascal(n) && component_key(n).starts_with(&key)).then(|| pascal(&stem))
                }
            };
            let Some(name) = name else { continue };
            // A file in a folder named like its component (`button/buttons.tsx`): the folder is the component's.
            if !is_index(&target) && (like(&name, &folder_name) || like(&folder_name, &name)) {
                place = folder.to_string();
            }
            let id = kebab_case(&name);
            let dirs =
                &mut self.found.entry(component_key(&id)).or_insert_with(|| Export { name, id, dirs: vec![] }).dirs;
            if !dirs.contains(&place) {
                dirs.push(place);
            }
        }
    }
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
) -> (Option<String>, Vec<Export>) {
    let Some(entry) = entry_of(known, package) else { return (None, vec![]) };
    let mut w =
        Walker { repo, known, packages: all, modules: BTreeMap::new(), found: BTreeMap::new(), seen: BTreeSet::new() };
    w.walk(&entry, 0);
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
    (Some(entry), found)
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
}
