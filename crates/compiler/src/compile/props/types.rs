//! `extends` across files: the repository's type declarations, imports and re-exports, read on demand, so a
//! props table that extends a type of another file gets that type's props.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{Decl, alias_decl, interface_decl, node_text, unquote};
use crate::compile::source::SourceLang;
use crate::model::{PropsOrigin, PropsTable};

/// How many import / re-export hops a cross-file `extends` is followed.
const MAX_IMPORT_HOPS: usize = 8;

/// The type declarations, imports and re-exports of one source file: what [`TypeIndex`] needs to follow an
/// `extends` into another file.
struct TypeFile {
    decls: Vec<Decl>,
    /// Local name → (module specifier, imported name): `import { A as B } from "./x"` gives `B → ("./x", "A")`.
    imports: HashMap<String, (String, String)>,
    /// `export { A as B } from "./x"` (`B`, `A`, `Some("./x")`), `export { A }` (`A`, `A`, `None`).
    named_exports: Vec<(String, String, Option<String>)>,
    /// `export * from "./x"`.
    star_exports: Vec<String>,
}

impl TypeFile {
    fn parse(lang: SourceLang, text: &str) -> TypeFile {
        let mut file = TypeFile {
            decls: Vec::new(),
            imports: HashMap::new(),
            named_exports: Vec::new(),
            star_exports: Vec::new(),
        };
        let Ok(tree) = crate::compile::source::parse(lang, text) else {
            return file;
        };
        let root = tree.root_node();
        let mut cursor = root.walk();
        let mut stack = vec![root];
        let string = |n: Node| unquote(node_text(text, n));
        while let Some(node) = stack.pop() {
            match node.kind() {
                "interface_declaration" => file.decls.extend(interface_decl(text, node)),
                "type_alias_declaration" => file.decls.extend(alias_decl(text, node)),
                "import_statement" => {
                    let Some(source) = node.child_by_field_name("source").map(string) else { continue };
                    for spec in descendants(node, "import_specifier") {
                        let Some(name) = spec.child_by_field_name("name").map(|n| node_text(text, n)) else { continue };
                        let local = spec.child_by_field_name("alias").map_or(name, |n| node_text(text, n));
                        file.imports.insert(local.to_string(), (source.clone(), name.to_string()));
                    }
                    continue;
                }
                "export_statement" => {
                    let source = node.child_by_field_name("source").map(string);
                    let specs = descendants(node, "export_specifier");
                    if specs.is_empty()
                        && node.child_by_field_name("declaration").is_none()
                        && let Some(source) = source.clone()
                        && node.children(&mut node.walk()).any(|ch| ch.kind() == "*")
                    {
                        file.star_exports.push(source);
                    }
                    for spec in specs {
                        let Some(name) = spec.child_by_field_name("name").map(|n| node_text(text, n)) else { continue };
                        let exported = spec.child_by_field_name("alias").map_or(name, |n| node_text(text, n));
                        file.named_exports.push((exported.to_string(), name.to_string(), source.clone()));
                    }
                }
                _ => {}
            }
            let children: Vec<Node> = node.named_children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
        file
    }
}

/// Every named node of `kind` below `node`.
pub(super) fn descendants<'t>(node: Node<'t>, kind: &str) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == kind {
            out.push(n);
            continue;
        }
        stack.extend(n.named_children(&mut cursor));
    }
    out.reverse();
    out
}

/// The repository's type declarations, read on demand (only the files an `extends` leads to are parsed; each
/// once, shared between threads), to resolve `extends` that leave a file: through relative imports
/// (`./x`, `../../common`, with `.ts`/`.tsx`/`.d.ts`/`index` tried in that order), the package's own name (its
/// `src/index.ts(x)`, or `index.ts(x)`), and `export *` / `export { … } from` re-exports.
pub struct TypeIndex {
    root: std::path::PathBuf,
    /// Repository-relative paths of the walked sources.
    sources: HashSet<String>,
    /// The package's own name (from `package.json`), so `import … from "@scope/pkg"` inside it resolves.
    package: Option<String>,
    cache: std::sync::Mutex<HashMap<String, std::sync::Arc<TypeFile>>>,
    /// Largest file parsed here (bytes); bigger ones are left unresolved.
    max_bytes: u64,
}

impl TypeIndex {
    /// An index of the sources `paths` (repository-relative) under `root`, none read yet; files over
    /// `max_bytes` are never read.
    pub fn new<'a>(root: &std::path::Path, paths: impl IntoIterator<Item = &'a str>, max_bytes: u64) -> TypeIndex {
        let sources =
            paths.into_iter().filter(|p| SourceLang::from_path(std::path::Path::new(p)).is_some()).map(String::from);
        TypeIndex {
            root: root.to_path_buf(),
            sources: sources.collect(),
            package: crate::compile::text::read_to_string(root.join("package.json"))
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(String::from)),
            cache: std::sync::Mutex::new(HashMap::new()),
            max_bytes,
        }
    }

    fn file(&self, rel: &str) -> Option<std::sync::Arc<TypeFile>> {
        if let Some(f) = self.cache.lock().ok()?.get(rel) {
            return Some(f.clone());
        }
        let lang = SourceLang::from_path(std::path::Path::new(rel))?;
        let abs = self.root.join(rel);
        if std::fs::metadata(&abs).ok()?.len() > self.max_bytes {
            return None;
        }
        let text = crate::compile::text::read_to_string(abs).ok()?;
        let parsed = std::sync::Arc::new(TypeFile::parse(lang, &text));
        self.cache.lock().ok()?.insert(rel.to_string(), parsed.clone());
        Some(parsed)
    }

    /// The source a module specifier written in `from` names, if it is in the repository.
    fn module(&self, from: &str, spec: &str) -> Option<String> {
        let base = if spec.starts_with('.') {
            let mut parts: Vec<&str> = from.split('/').collect();
            parts.pop();
            for seg in spec.split('/') {
                match seg {
                    "" | "." => {}
                    ".." => {
                        parts.pop()?;
                    }
                    s => parts.push(s),
                }
            }
            parts.join("/")
        } else {
            let pkg = self.package.as_deref()?;
            let rest = spec.strip_prefix(pkg)?;
            if rest.is_empty() {
                return ["src/index.ts", "src/index.tsx", "index.ts", "index.tsx"]
                    .into_iter()
                    .find(|c| self.sources.contains(*c))
                    .map(String::from);
            }
            format!("src{}", rest.strip_prefix('/').map_or(String::new(), |r| format!("/{r}")))
        };
        let base = base.trim_end_matches(".js");
        let candidates = [
            base.to_string(),
            format!("{base}.ts"),
            format!("{base}.tsx"),
            format!("{base}.d.ts"),
            format!("{base}/index.ts"),
            format!("{base}/index.tsx"),
        ];
        candidates.into_iter().find(|c| self.sources.contains(c))
    }

    /// The declaration `name` means in file `rel` (declared there, or imported), as (file, index in its decls).
    fn resolve(&self, rel: &str, name: &str, hops: usize) -> Option<(String, std::sync::Arc<TypeFile>, usize)> {
        let file = self.file(rel)?;
        if let Some(i) = file.decls.iter().position(|d| d.name == name) {
            return Some((rel.to_string(), file, i));
        }
        let (spec, imported) = file.imports.get(name)?;
        let target = self.module(rel, spec)?;
        self.exported(&target, imported, hops + 1)
    }

    /// The declaration file `rel` exports as `name` (its own, or re-exported).
    fn exported(&self, rel: &str, name: &str, hops: usize) -> Option<(String, std::sync::Arc<TypeFile>, usize)> {
        if hops > MAX_IMPORT_HOPS {
            return None;
        }
        let file = self.file(rel)?;
        if let Some(i) = file.decls.iter().position(|d| d.name == name) {
            return Some((rel.to_string(), file, i));
        }
        for (exported, local, source) in &file.named_exports {
            if exported == name {
                return match source {
                    Some(spec) => self.exported(&self.module(rel, spec)?, local, hops + 1),
                    None => self.resolve(rel, local, hops + 1),
                };
            }
        }
        file.star_exports.iter().find_map(|spec| self.exported(&self.module(rel, spec)?, name, hops + 1))
    }

    /// Repository-relative paths of the files read so far (sorted): what the tables resolved until now depend on
    /// beyond their own file, recorded by the incremental build cache.
    pub fn read_files(&self) -> Vec<String> {
        let mut read: Vec<String> = self.cache.lock().map(|c| c.keys().cloned().collect()).unwrap_or_default();
        read.sort();
        read
    }

    /// Follows `table`'s `unresolved_extends` into other files: each one found is moved to `extends`, its props
    /// (and those of what it extends, depth-first, cycles cut) appended after the table's own (the first wins
    /// on a name clash, as within a file); what cannot be found stays in `unresolved_extends`.
    pub fn resolve_table(&self, table: &mut PropsTable) {
        if table.origin != PropsOrigin::Typescript || table.unresolved_extends.is_empty() {
            return;
        }
        let mut seen: HashSet<String> = table.props.iter().map(|p| p.name.clone()).collect();
        let mut visited: HashSet<(String, usize)> = HashSet::new();
        let pending = std::mem::take(&mut table.unresolved_extends);
        // (file whose scope the name is in, name, as shown)
        let mut stack: Vec<(String, Option<String>, String)> =
            pending.into_iter().rev().map(|shown| (table.path.clone(), Some(shown.clone()), shown)).collect();
        while let Some((rel, key, shown)) = stack.pop() {
            let found = key.as_deref().filter(|k| !k.contains(['<', '.', ' '])).and_then(|k| self.resolve(&rel, k, 0));
            let Some((at, file, i)) = found else {
                if !table.unresolved_extends.contains(&shown) {
                    table.unresolved_extends.push(shown);
                }
                continue;
            };
            if !visited.insert((at.clone(), i)) {
                continue;
            }
            let decl = &file.decls[i];
            if decl.name == table.name && at == table.path {
                continue;
            }
            if !table.extends.contains(&decl.name) {
                table.extends.push(decl.name.clone());
            }
            for p in &decl.props {
                if seen.insert(p.name.clone()) {
                    table.props.push(p.clone());
                }
            }
            for ext in decl.extends.iter().rev() {
                stack.push((at.clone(), ext.key.clone(), ext.shown.clone()));
            }
        }
    }
}
