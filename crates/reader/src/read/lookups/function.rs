//! `function` (MCP `get_function_code`): one function's exact source, and a file's function index.

use std::collections::HashMap;
use std::sync::Arc;

use crate::budget::Request;
use crate::bundle::{Bundle, BundleError};
use crate::model::*;

use crate::read::error::LookupError;
use crate::read::names::{by_similarity, closest, echo};
use crate::read::paging::{Paging, TextRef};
use crate::read::set::BundleSet;
use crate::read::views::{FunctionSize, FunctionView};

/// Qualified names of a function index, each once (a getter and its setter share one), in source order.
fn qualified_names(index: &[FunctionMeta]) -> Vec<String> {
    function_sizes(index).into_iter().map(|f| f.name).collect()
}

/// The functions of an index, each qualified name once (a getter and its setter add up), in source order.
pub(in crate::read) fn function_sizes(index: &[FunctionMeta]) -> Vec<FunctionSize> {
    let mut out: Vec<FunctionSize> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for f in index {
        match at.get(f.qualified.as_str()) {
            Some(&i) => out[i].tokens += f.tokens,
            None => {
                at.insert(&f.qualified, out.len());
                out.push(FunctionSize { name: f.qualified.clone(), line: f.start_line, tokens: f.tokens });
            }
        }
    }
    out
}

impl BundleSet {
    /// The function index of source `path`, in source order.
    ///
    /// # Errors
    /// Unknown path, not a source, damaged bundle.
    pub fn functions(&self, path: &str) -> Result<Vec<FunctionMeta>, LookupError> {
        Ok(self.source_index(path)?.2)
    }

    fn source_index(&self, path: &str) -> Result<(String, Arc<Bundle>, Vec<FunctionMeta>), LookupError> {
        let (norm, bundle, file) = self.locate(path)?;
        if file.kind != FileKind::Source {
            return Err(LookupError::NoFunctions { path: norm });
        }
        // The compiler writes a source's function index whenever it analyzed it: without one, it did not.
        if !bundle.has(&keys::functions(&norm)) {
            let limit = crate::model::MAX_ANALYZED_SOURCE_BYTES;
            let why = if file.bytes > limit {
                format!("it is {} bytes, over the {limit}-byte (4 MiB) limit of source analysis", file.bytes)
            } else {
                "the build could not parse it (its build warning says why)".to_string()
            };
            return Err(LookupError::NotAnalyzed { path: norm, why });
        }
        let index = bundle.get(&keys::functions(&norm))?;
        Ok((norm, bundle, index))
    }

    /// Function `name` of file `path`: matched by qualified name (`Table.render`), else by a unique simple name.
    ///
    /// # Errors
    /// Unknown path, no function index, unknown name (listing the closest names), an ambiguous simple name
    /// (listing the qualified ones), damaged bundle.
    pub fn function(&self, path: &str, name: &str, paging: Paging) -> Result<FunctionView, LookupError> {
        let (norm, bundle, index) = self.source_index(path)?;
        if index.is_empty() {
            return Err(LookupError::NoFunctions { path: norm });
        }
        let name = name.trim();
        // A qualified name, or a simple name that leads to exactly one qualified name; letter case matters only
        // when it tells names apart.
        let exact = |n: &str, f: &FunctionMeta| f.qualified == n || f.name == n;
        let folded = |n: &str, f: &FunctionMeta| f.qualified.eq_ignore_ascii_case(n) || f.name.eq_ignore_ascii_case(n);
        let qualified = if index.iter().any(|f| f.qualified == name) {
            name.to_string()
        } else {
            let matcher = if index.iter().any(|f| exact(name, f)) { exact } else { folded };
            let mut candidates: Vec<String> = Vec::new();
            for f in index.iter().filter(|f| matcher(name, f)) {
                if !candidates.contains(&f.qualified) {
                    candidates.push(f.qualified.clone());
                }
            }
            match candidates.len() {
                1 => candidates.remove(0),
                0 => {
                    let names = qualified_names(&index);
                    let mut suggestions = closest(name, names.iter().map(String::as_str), 8);
                    if suggestions.is_empty() {
                        suggestions = names;
                        by_similarity(&[name], &mut suggestions, |n| n.as_str());
                    }
                    return Err(LookupError::UnknownFunction { path: norm, name: echo(name), suggestions });
                }
                _ => {
                    // Each candidate with the lines it serves (a getter/setter pair: from the first to the last).
                    let candidates = candidates
                        .iter()
                        .map(|q| {
                            let all = index.iter().filter(|f| &f.qualified == q);
                            let start = all.clone().map(|f| f.start_line).min().unwrap_or(0);
                            let end = all.map(|f| f.end_line).max().unwrap_or(0);
                            format!("{q} (lines {start}–{end})")
                        })
                        .collect();
                    return Err(LookupError::AmbiguousFunction { path: norm, name: echo(name), candidates });
                }
            }
        };
        // A getter and its setter (or overloads) share a qualified name: serve them together, as the one exact span
        // from the first to the last.
        let all: Vec<&FunctionMeta> = index.iter().filter(|f| f.qualified == qualified).collect();
        let (Some(first), Some(last)) = (all.first(), all.iter().max_by_key(|f| f.end_byte)) else {
            return Err(LookupError::NoFunctions { path: norm });
        };
        let merged = FunctionMeta {
            kind: FunctionKinds(all.iter().flat_map(|f| f.kind.0.iter().cloned()).collect()),
            end_line: last.end_line,
            end_byte: last.end_byte,
            tokens: all.iter().map(|f| f.tokens).sum(),
            ..(*first).clone()
        };
        let text = self.text(&bundle, &keys::file(&norm))?;
        let (start, end) = (merged.start_byte as usize, merged.end_byte as usize);
        if text.get(start..end).is_none() {
            let what = format!("function `{}` span", merged.qualified);
            return Err(BundleError::Corrupt { path: bundle.path().to_string(), what }.into());
        }
        let file_key = keys::file(&norm);
        let request = Request::Function { path: norm.clone(), qualified: merged.qualified.clone() };
        // Echoed: in the header, the continuation and its cursor, the JSON.
        let paging = self.echoing(paging, &[(norm.as_str(), 5), (merged.qualified.as_str(), 5)]);
        let (part, next_cursor) =
            self.part(&request, TextRef::new(&text, (&bundle, &file_key), &[(start, end)]), paging)?;
        Ok(FunctionView {
            served: self.served(),
            path: norm,
            function: merged,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }
}
