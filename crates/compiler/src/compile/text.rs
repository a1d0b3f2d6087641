//! How the compiler reads a text file: UTF-8 without a byte order mark. A leaf of `compile/`.

use std::path::Path;

/// `text` without a leading UTF-8 byte order mark (U+FEFF), which editors on Windows write and which no served
/// text, parser or JSON reader should see. Removing it changes no line number (it is not a line break); byte
/// offsets are those of the text without it. Every text the compiler reads goes through here.
pub fn strip_bom(text: String) -> String {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// [`std::fs::read_to_string`] with [`strip_bom`]: for `package.json`, `mydesign-docs.toml` and the files a
/// parser reads beyond the walk.
///
/// # Errors
/// As [`std::fs::read_to_string`].
pub fn read_to_string(path: impl AsRef<Path>) -> std::io::Result<String> {
    std::fs::read_to_string(path).map(strip_bom)
}
