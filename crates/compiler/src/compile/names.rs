//! Name forms the stages share: the kebab-case id of a captured name, the singular of a plural one, the
//! PascalCase component name of a `.vue` file, the export a document name stands for. A leaf of
//! `compile/`, so the layout, the package API and the document matching use it without depending on each other.

use std::collections::BTreeSet;

use crate::model::component_key;

/// `DatePicker` → `date-picker`: the canonical kebab-case name of a captured document or source folder name.
pub fn kebab_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        // A word starts at an upper-case letter after a lower-case one or a digit (`datePicker`), or at the last
        // capital of a run followed by a lower-case letter (`HTMLTable` → `html-table`); `README` stays one word.
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1);
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
            });
        if boundary && !out.ends_with('-') {
            out.push('-');
        }
        out.extend(c.to_lowercase());
    }
    // A leading `_` stays (a documented `_portal`); others are word separators.
    let lead = out.len() - out.trim_start_matches('_').len();
    format!("{}{}", &out[..lead], out[lead..].replace('_', "-"))
}

/// Singular of an English plural file name (`buttons` → `button`, `checkboxes` → `checkbox`, `menus` → `menu`),
/// so that a document named in the plural matches its component.
pub fn singular(key: &str) -> Option<&str> {
    if let Some(s) = key.strip_suffix("es").filter(|s| s.ends_with(['x', 's']) || s.ends_with("ch")) {
        return Some(s);
    }
    key.strip_suffix('s').filter(|s| !s.ends_with('s') && !s.is_empty())
}

/// `button-group` / `button_group` / `buttonGroup` → `ButtonGroup`.
pub fn pascal_case(name: &str) -> String {
    name.split(['-', '_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

/// The component a file is guessed to define, from its name: `src/button-group.vue` → `ButtonGroup`,
/// `src/button/index.vue` → `Button` (its folder).
pub fn name_from_path(path: &str) -> String {
    let mut parts = path.rsplit('/');
    let file = parts.next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    let stem = if stem == "index" { parts.next().unwrap_or(stem) } else { stem };
    pascal_case(stem)
}

/// A language tag as used in file names (`en`, `zh-CN`, `pt-BR`), normalised (`en` → `en-US`, `zh` → `zh-CN`).
pub fn lang_tag(tag: &str) -> Option<String> {
    let (a, b) = tag.split_once('-').map_or((tag, None), |(a, b)| (a, Some(b)));
    if !(2..=3).contains(&a.len()) || !a.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    if b.is_some_and(|b| !(2..=4).contains(&b.len()) || !b.chars().all(|c| c.is_ascii_alphanumeric())) {
        return None;
    }
    Some(match tag {
        "en" => "en-US".into(),
        "zh" => "zh-CN".into(),
        _ => tag.into(),
    })
}

/// The exported component a captured document name stands for: the same key, else its singular.
pub fn exported_key(name: &str, keys: &BTreeSet<String>) -> Option<String> {
    let key = component_key(name);
    if keys.contains(&key) {
        return Some(key);
    }
    singular(&key).filter(|s| keys.contains(*s)).map(str::to_string)
}
