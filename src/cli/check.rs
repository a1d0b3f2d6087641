//! `mydesign-docs check FILE… | -` (issue 29 item 4): the agent's TSX/JSX checked against what a build stored, like
//! a linter, offline: unknown components imported from the design system, unknown props, string values outside a
//! prop's union of literals, deprecated props, missing required props, raw colours and lengths a design token has
//! (`check_values`). Each finding says the fix and the command
//! that shows the docs. Exit 0 clean, 1 with findings, 2 on input that does not parse.
//!
//! The rules stay on the safe side, as a linter's must (a false finding teaches an agent to ignore them): props
//! are checked only on elements whose props table is known; attributes every element takes (`key`, `ref`,
//! `className`, `style`, `id`, `children`, `data-*`, `aria-*`) and event handlers a table does not list (they reach
//! the DOM) are never unknown; a TypeScript props type that extends something unresolved (`React.HTMLAttributes`)
//! makes unknown props unknowable; an element with `{...spread}` can have every required prop; an imported name is
//! an unknown component only when it is near one the design system has (a typo), since a package exports more than
//! its documented components.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use mydesign_docs::compile::names::pascal_case;
use mydesign_docs::model::{PropsOrigin, PropsTable, component_key};
use mydesign_docs::read::{BundleSet, LookupError, Paging};
use mydesign_docs::usage::{AttrValue, Element, Usage};

/// Attributes any JSX element takes.
const UNIVERSAL: [&str; 7] = ["key", "ref", "className", "style", "id", "children", "title"];

/// HTML attributes components commonly pass through to their element: never unknown unless the props type is
/// complete (TypeScript, nothing unresolved).
const PASSED: [&str; 20] = [
    "placeholder",
    "type",
    "name",
    "value",
    "disabled",
    "autoFocus",
    "autoComplete",
    "tabIndex",
    "role",
    "href",
    "target",
    "rel",
    "src",
    "alt",
    "width",
    "height",
    "maxLength",
    "minLength",
    "readOnly",
    "htmlFor",
];

/// Table headings that name no component: a document's props table under them belongs to the page's component.
const GENERIC_TABLES: [&str; 8] = ["props", "api", "属性", "参数", "attributes", "properties", "options", "参数说明"];

/// One finding: where, what, the fix and the command that shows the docs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// `unknown-component`, `unknown-prop`, `invalid-value`, `deprecated-prop`, `missing-prop` or `raw-value`.
    pub rule: &'static str,
    /// What is wrong.
    pub message: String,
    /// What to write instead.
    pub fix: String,
    /// The command that shows the docs it was checked against.
    pub docs: String,
}

/// What a build stored that the checks read: the components from the manifest, the rest read when a file uses
/// it (a component's props tables decode its bundle: reading all of Semi's 101 took 0.2 s).
pub struct Known {
    system: String,
    /// Module specifiers of the design system: its package and the sources of its documents' import lines.
    modules: BTreeSet<String>,
    /// Names the design system exports (its components' names as an import writes them), by component key.
    exports: BTreeMap<String, String>,
    /// Props tables of the components used so far, by component key.
    tables: std::cell::RefCell<BTreeMap<String, Arc<Vec<PropsTable>>>>,
    /// [`Known::every_export`], once read.
    every: std::cell::RefCell<Option<BTreeMap<String, String>>>,
    /// The `raw-value` rule's answer for each value met (its fix, `None`: no token has it).
    values: std::cell::RefCell<std::collections::HashMap<String, Option<String>>>,
    set: Arc<BundleSet>,
}

/// The names a line `import { A, B as C } from 'x'` or `import A from 'x'` imports, and `x`: read with the same
/// TSX reading as the checked code ([`mydesign_docs::usage::read`]), a default import by its local name.
fn import_line(line: &str) -> Option<(Vec<String>, String)> {
    let imports = mydesign_docs::usage::read(line).ok()?.imports;
    let from = imports.first()?.source.clone();
    let names = imports
        .into_iter()
        .filter(|i| i.imported != "*")
        .map(|i| if i.imported == "default" { i.local } else { i.imported })
        .collect();
    Some((names, from))
}

/// Cards read at most to learn the module the documents import from (the package may be another one:
/// Semi's documents import `@douyinfe/semi-ui`, its sources are `semi-foundation`).
const IMPORT_CARDS: usize = 8;

impl Known {
    /// Reads the set's components and the import lines of a few of its cards.
    ///
    /// # Errors
    /// A lookup error of the set (a damaged manifest).
    pub fn read(set: Arc<BundleSet>) -> Result<Known, LookupError> {
        let head = set.head();
        let mut modules: BTreeSet<String> = head.package.iter().cloned().collect();
        let mut exports = BTreeMap::new();
        let rows = set.components(None)?.components;
        for row in &rows {
            exports.insert(component_key(&row.name), pascal_case(&row.name));
        }
        for row in rows.iter().filter(|r| r.tokens > 0).take(IMPORT_CARDS) {
            if let Ok(card) = set.card(&row.name, None, Paging::unlimited())
                && let Some((names, from)) = card.import.as_deref().and_then(import_line)
            {
                modules.insert(from);
                for name in names {
                    exports.insert(component_key(&name), name);
                }
            }
        }
        Ok(Known {
            system: head.system.clone(),
            modules,
            exports,
            tables: Default::default(),
            every: Default::default(),
            values: Default::default(),
            set,
        })
    }

    /// Every name the documents' import lines import (`HStack`, `VStack` beside `Stack`), with the components'
    /// names: read from every card the first time a file imports a name that is no component (rare: most files
    /// import components only).
    fn every_export(&self) -> std::cell::Ref<'_, BTreeMap<String, String>> {
        if self.every.borrow().is_none() {
            let mut all = self.exports.clone();
            for name in self.set.components(None).map(|l| l.components).unwrap_or_default().iter().map(|r| &r.name) {
                if let Ok(card) = self.set.card(name, None, Paging::unlimited())
                    && let Some((names, _)) = card.import.as_deref().and_then(import_line)
                {
                    for name in names {
                        all.insert(component_key(&name), name);
                    }
                }
            }
            *self.every.borrow_mut() = Some(all);
        }
        std::cell::Ref::map(self.every.borrow(), |e| e.as_ref().expect("filled above"))
    }

    /// The props tables of component `key`, decoded once; `None` when the set has no such component.
    fn tables(&self, key: &str) -> Option<Arc<Vec<PropsTable>>> {
        if let Some(t) = self.tables.borrow().get(key) {
            return Some(t.clone());
        }
        let (bundle, _) = self.set.component_meta(key).ok()?;
        let tables = Arc::new(self.set.props_of(&bundle).ok()?);
        self.tables.borrow_mut().insert(key.to_string(), tables.clone());
        Some(tables)
    }

    /// The design system's name.
    pub fn system(&self) -> &str {
        &self.system
    }

    fn is_design_system(&self, source: &str) -> bool {
        self.modules.iter().any(|m| source == m || source.starts_with(&format!("{m}/")))
    }

    fn docs(&self, component: &str) -> String {
        format!("mydesign-docs doc {component} --section props --system {}", self.set.head().system)
    }
}

/// The names of `known` that `name` is a typo of: one edit away (Damerau-Levenshtein, case ignored: a letter
/// added, dropped, changed or two swapped), two for names of eight letters or more, and,
/// for `exports`, not a known name extended (`CalendarRef` is a type beside `Calendar`, not a typo of it); nearest
/// first, at most three.
fn typos<'a>(name: &str, known: impl IntoIterator<Item = &'a str>, exports: bool) -> Vec<String> {
    let lower = name.to_lowercase();
    let mut near: Vec<(usize, &str)> = known
        .into_iter()
        .filter(|k| !(exports && lower.starts_with(&k.to_lowercase())))
        .map(|k| (strsim::damerau_levenshtein(&lower, &k.to_lowercase()), k))
        .filter(|&(d, k)| {
            let shorter = k.chars().count().min(name.chars().count());
            d == 1 && shorter >= 3 || d == 2 && shorter >= 8
        })
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.1 == b.1);
    near.into_iter().take(3).map(|(_, k)| k.to_string()).collect()
}

/// The `|`-separated string literals of a type (`'small' | 'default'`, `"a" | "b"`), or `None` when any member is
/// not a string literal (then every string may be valid).
fn literals(type_text: &str) -> Option<Vec<String>> {
    let members: Vec<&str> = type_text.split('|').map(str::trim).filter(|m| !m.is_empty()).collect();
    if members.is_empty() {
        return None;
    }
    members
        .iter()
        .map(|m| {
            let quoted = (m.starts_with('\'') && m.ends_with('\'')) || (m.starts_with('"') && m.ends_with('"'));
            (quoted && m.len() >= 2).then(|| m[1..m.len() - 1].to_string())
        })
        .collect()
}

/// Whether an import specifier names an installed package (`antd`, `@mui/material/Button`), not a file of the
/// project (`./x`, `../x`, `/x`) or a path alias (`@/x`, `~/x`, `#x`).
fn is_package(source: &str) -> bool {
    !(source.starts_with(['.', '/', '~', '#']) || source.starts_with("@/") || source.is_empty())
}

/// Packages whose imports `check` never reads nor reports: React itself and its DOM renderer.
const RUNTIME: [&str; 2] = ["react", "react-dom"];

/// The imports of `usage` that were not checked, by module: those from packages other than the design system's
/// (their names are not the design system's to check), React's left out. Each as `module (A, B)`. A name the
/// design system exports imported from another package is not a finding: real examples import same-named
/// components from other libraries (`List` of react-virtualized, `Tooltip` of recharts, a project's own `Tag`).
pub fn unchecked(known: &Known, usage: &Usage) -> Vec<String> {
    let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for i in usage.imports.iter().filter(|i| is_package(&i.source) && !known.is_design_system(&i.source)) {
        let root = i.source.split('/').next().unwrap_or("");
        if RUNTIME.contains(&i.source.as_str()) || RUNTIME.contains(&root) {
            continue;
        }
        let name = if matches!(i.imported.as_str(), "default" | "*") { i.local.as_str() } else { i.imported.as_str() };
        by.entry(&i.source).or_default().push(name);
    }
    by.into_iter().map(|(m, names)| format!("{m} ({})", names.join(", "))).collect()
}

/// Checks one file's `usage` against `known`.
pub fn check(known: &Known, usage: &Usage) -> Vec<Finding> {
    let mut findings = Vec::new();
    // Imported names of the design system: local name → exported name.
    let mut locals: BTreeMap<&str, String> = BTreeMap::new();
    let mut namespaces: BTreeSet<&str> = BTreeSet::new();
    for import in usage.imports.iter().filter(|i| known.is_design_system(&i.source)) {
        match import.imported.as_str() {
            "*" => {
                namespaces.insert(&import.local);
            }
            "default" => {}
            name => {
                let key = component_key(name);
                if !known.exports.contains_key(&key)
                    && !name.starts_with("use")
                    && name.starts_with(char::is_uppercase)
                    && !known.every_export().contains_key(&key)
                {
                    let exports = known.every_export();
                    let near = typos(name, exports.values().map(String::as_str), true);
                    if let Some(best) = near.first() {
                        findings.push(Finding {
                            line: import.line,
                            column: import.column,
                            rule: "unknown-component",
                            message: format!("{} exports no `{name}`", known.system),
                            fix: format!("import {{ {best} }} from '{}' (nearest: {})", import.source, near.join(", ")),
                            docs: format!("mydesign-docs components --system {}", known.system),
                        });
                    }
                    continue;
                }
                locals.insert(&import.local, name.to_string());
            }
        }
    }
    for element in &usage.elements {
        let (root, rest) = element.name.split_once('.').map_or((element.name.as_str(), ""), |(r, t)| (r, t));
        let full = if namespaces.contains(root) {
            rest.to_string()
        } else if let Some(imported) = locals.get(root) {
            if rest.is_empty() { imported.clone() } else { format!("{imported}.{rest}") }
        } else {
            continue;
        };
        let component = component_key(full.split('.').next().unwrap_or(&full));
        let Some(tables) = known.tables(&component) else { continue };
        check_element(known, element, &full, &component, &tables, &mut findings);
    }
    findings.extend(super::check_values::raw_values(&known.set, &usage.literals, &mut known.values.borrow_mut()));
    findings.sort_by_key(|f| (f.line, f.column));
    findings
}

/// The props tables of `tables` that are `full`'s (`Button`, `ButtonProps`, `Form.Input`; a document's generic
/// table when `full` is the component itself).
fn tables_of<'t>(tables: &'t [PropsTable], full: &str, component: &str) -> Vec<&'t PropsTable> {
    let want = component_key(full);
    // `Tabs.TabPane`'s type is `TabPaneProps`, its document table `Tabs.TabPane` or `TabPane`.
    let last = full.rsplit_once('.').map(|(_, l)| component_key(l));
    tables
        .iter()
        .filter(|t| {
            let name = component_key(&t.name);
            name == want
                || name == format!("{want}props")
                || last.as_ref().is_some_and(|l| name == *l || name == format!("{l}props"))
                || (want == component && GENERIC_TABLES.contains(&t.name.trim().to_lowercase().as_str()))
        })
        .collect()
}

fn check_element(
    known: &Known,
    element: &Element,
    full: &str,
    component: &str,
    tables: &[PropsTable],
    findings: &mut Vec<Finding>,
) {
    let mine = tables_of(tables, full, component);
    if mine.is_empty() {
        return;
    }
    let docs = known.docs(component);
    // Complete: a TypeScript props type with nothing unresolved lists every prop. Otherwise (a document's table, a
    // type extending `React.HTMLAttributes`) an attribute it does not list may reach the DOM: only one near a
    // listed prop (a typo: `sizee`) is reported.
    let complete = mine.iter().any(|t| t.origin == PropsOrigin::Typescript && t.unresolved_extends.is_empty());
    let prop = |name: &str| mine.iter().flat_map(|t| &t.props).find(|p| p.name.trim_end_matches('?') == name);
    for attr in &element.attrs {
        let name = attr.name.as_str();
        let Some(p) = prop(name) else {
            let inert = UNIVERSAL.contains(&name)
                || name.starts_with("data-")
                || name.starts_with("aria-")
                || (name.starts_with("on") && name[2..].starts_with(char::is_uppercase))
                || (!complete && PASSED.contains(&name));
            let names = mine.iter().flat_map(|t| &t.props).map(|p| p.name.trim_end_matches('?'));
            let near = typos(name, names, false);
            if !inert && (complete || !near.is_empty()) {
                findings.push(Finding {
                    line: attr.line,
                    column: attr.column,
                    rule: "unknown-prop",
                    message: format!("<{}> has no prop `{name}`", element.name),
                    fix: if near.is_empty() {
                        "remove it".to_string()
                    } else {
                        format!(
                            "use {} instead",
                            near.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" or ")
                        )
                    },
                    docs: docs.clone(),
                });
            }
            continue;
        };
        if let AttrValue::Str(value) = &attr.value
            && let Some(allowed) = literals(&p.type_text)
            && !allowed.contains(value)
        {
            findings.push(Finding {
                line: attr.line,
                column: attr.column,
                rule: "invalid-value",
                message: format!("`{name}=\"{value}\"` on <{}>: `{name}` is {}", element.name, p.type_text.trim()),
                fix: format!("one of {}", allowed.iter().map(|v| format!("\"{v}\"")).collect::<Vec<_>>().join(", ")),
                docs: docs.clone(),
            });
        }
        if p.deprecated {
            let why = p.description.as_deref().unwrap_or("").trim();
            findings.push(Finding {
                line: attr.line,
                column: attr.column,
                rule: "deprecated-prop",
                message: format!("`{name}` of <{}> is deprecated", element.name),
                fix: if why.is_empty() { "see the docs".to_string() } else { why.to_string() },
                docs: docs.clone(),
            });
        }
    }
    if !element.spread {
        let given: BTreeSet<&str> = element.attrs.iter().map(|a| a.name.as_str()).collect();
        for table in mine.iter().filter(|t| t.origin == PropsOrigin::Typescript) {
            for p in table.props.iter().filter(|p| !p.optional && p.name != "children" && p.default.is_none()) {
                if !given.contains(p.name.as_str()) {
                    findings.push(Finding {
                        line: element.line,
                        column: element.column,
                        rule: "missing-prop",
                        message: format!("<{}> needs `{}` ({})", element.name, p.name, p.type_text.trim()),
                        fix: format!("add `{}={{…}}`", p.name),
                        docs: docs.clone(),
                    });
                }
            }
        }
    }
}

/// The findings `compose(kept)` prints (the first `kept` of `total`) within `max_tokens` tokens in `encoding`,
/// counted whole (counts are not additive across findings): the most that fit, and when some are left out the
/// note saying how many and the `--max-tokens` that prints them all (the note's own line counted too).
///
/// # Errors
/// An unknown encoding; a budget too small for the note alone, stating the least that works.
pub fn within(
    encoding: &str,
    max_tokens: u32,
    total: usize,
    compose: &dyn Fn(usize) -> anyhow::Result<String>,
) -> anyhow::Result<(String, Option<String>)> {
    let counter = mydesign_docs::compile::tokens::TokenCounter::new(encoding).map_err(anyhow::Error::msg)?;
    // As printed: each text ends with a newline.
    let whole = compose(total)?;
    let all_tokens = counter.count(&format!("{whole}\n"));
    if all_tokens <= max_tokens {
        return Ok((whole, None));
    }
    let note = |kept: usize| {
        format!(
            "{} of {} findings; --max-tokens {} prints them all",
            kept,
            total,
            all_tokens.max(mydesign_docs::budget::MIN_MAX_TOKENS)
        )
    };
    // The printed answer: the findings, a newline and the bracketed note (the JSON form prints its note on
    // standard error: counted all the same, the bound of one reading).
    let printed =
        |kept: usize| -> anyhow::Result<u32> { Ok(counter.count(&format!("{}\n[{}]\n", compose(kept)?, note(kept)))) };
    if printed(0)? > max_tokens {
        anyhow::bail!(
            "--max-tokens {max_tokens} is too small for check's answer: the count of its findings alone takes {} \
             tokens (the least budget that works)",
            printed(0)?
        );
    }
    let (mut low, mut high) = (0, total);
    while low < high {
        let mid = (low + high).div_ceil(2);
        if printed(mid)? <= max_tokens { low = mid } else { high = mid - 1 }
    }
    Ok((compose(low)?, Some(note(low))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_literals_and_import_lines() {
        assert_eq!(
            literals("'small' | 'default' | \"large\""),
            Some(vec!["small".into(), "default".into(), "large".into()])
        );
        assert_eq!(literals("'small' | string"), None);
        assert_eq!(literals("boolean"), None);
        assert_eq!(
            import_line("import { Button, Input as I } from '@s/ui';"),
            Some((vec!["Button".to_string(), "Input".to_string()], "@s/ui".to_string()))
        );
        assert_eq!(
            import_line("import Table from \"@s/ui/table\""),
            Some((vec!["Table".to_string()], "@s/ui/table".to_string()))
        );
    }
}
