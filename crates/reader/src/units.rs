//! Number formatting shared by [`crate::view`], [`crate::read`] and [`crate::render`] (re-exported there): a leaf
//! module, so the views and the library do not import the renderer that imports them.

/// `12345` → `12,345`.
pub fn thousands(n: impl Into<u64>) -> String {
    let s = n.into().to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1 code block`, `2 code blocks`.
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{} {word}{}", thousands(n), if n == 1 { "" } else { "s" })
}
