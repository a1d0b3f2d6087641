//! Design-token values compared as values: a CSS colour as sRGB with alpha, a length in px, a duration in ms. The
//! compiler normalises every token's value with [`normalize`] when it builds a set; the reader parses the value a
//! `token-for` lookup asks for with the same function and compares colours by [`delta_e`]. Parsing one value is
//! not tokenizing: nothing here counts tokens. Colours are read by the `csscolorparser` crate (CSS Color 4
//! syntax: hex, `rgb()`/`rgba()`, `hsl()`, `hwb()`, `lab()`, named colours).

/// The root font size a `rem` length is taken at (px): the browsers' default, which the design systems read here
/// keep (a `rem` token is normalised with it, and `token-for` says so).
pub const REM_PX: f64 = 16.0;

/// A value in its comparable form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// sRGB colour, 8 bits a channel, alpha last.
    Color([u8; 4]),
    /// A length in px (`rem` at [`REM_PX`]).
    Length(f64),
    /// A duration in ms.
    Duration(f64),
}

impl Value {
    /// The normalised text: `#rrggbbaa` (always 8 hex digits, lower case), `12px`, `200ms`; numbers with at most
    /// three decimals and no trailing zeros.
    pub fn text(self) -> String {
        match self {
            Value::Color([r, g, b, a]) => format!("#{r:02x}{g:02x}{b:02x}{a:02x}"),
            Value::Length(px) => format!("{}px", number(px)),
            Value::Duration(ms) => format!("{}ms", number(ms)),
        }
    }
}

/// `n` with at most three decimals, trailing zeros dropped.
fn number(n: f64) -> String {
    let s = format!("{n:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// Reads `text` (one CSS value as written, surrounding space ignored) as a colour, a length or a duration; `None`
/// for anything else (a keyword such as `inherit` or `currentColor`, a `var()` reference, a list of values, a
/// length in `em` or `%`, whose base is not known).
pub fn parse(text: &str) -> Option<Value> {
    let t = text.trim();
    if t.is_empty() || t.contains("var(") || t.contains('$') || t.contains('@') {
        return None;
    }
    if let Some(v) = parse_unit(t) {
        return Some(v);
    }
    // `csscolorparser` also reads bare hex digits and numbers as colours: a CSS colour starts with `#` or a letter.
    if !t.starts_with('#') && !t.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    if t.eq_ignore_ascii_case("currentcolor") || t.eq_ignore_ascii_case("inherit") {
        return None;
    }
    let c = csscolorparser::parse(t).ok()?;
    Some(Value::Color(c.to_rgba8()))
}

/// A number with a length or time unit: `12px`, `0.75rem`, `200ms`, `.3s`.
fn parse_unit(t: &str) -> Option<Value> {
    let split = t.find(|c: char| c.is_ascii_alphabetic())?;
    let (n, unit) = t.split_at(split);
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+') {
        return None;
    }
    let n: f64 = n.parse().ok()?;
    match unit.to_ascii_lowercase().as_str() {
        "px" => Some(Value::Length(n)),
        "rem" => Some(Value::Length(n * REM_PX)),
        "ms" => Some(Value::Duration(n)),
        "s" => Some(Value::Duration(n * 1000.0)),
        _ => None,
    }
}

/// [`parse`]'s [`Value::text`]: the normalised form of a value as written, `None` when it is none of the kinds.
pub fn normalize(text: &str) -> Option<String> {
    parse(text).map(Value::text)
}

/// A normalised colour (`#rrggbbaa`, as [`Value::text`] writes it) read back.
pub fn hex_color(text: &str) -> Option<[u8; 4]> {
    let h = text.strip_prefix('#')?;
    if h.len() != 8 || !h.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?, byte(6)?])
}

/// How far apart two colours look: CIEDE2000 ΔE of their CIE Lab values (about 1 is the smallest difference seen,
/// under 2 hardly seen), plus 100 × the difference of their alphas (a translucent colour is not its opaque one).
pub fn delta_e(a: [u8; 4], b: [u8; 4]) -> f64 {
    let lab = |c: [u8; 4]| {
        let [l, a, b, _] = csscolorparser::Color::from_rgba8(c[0], c[1], c[2], 255).to_laba();
        [f64::from(l), f64::from(a), f64::from(b)]
    };
    let alpha = (f64::from(a[3]) - f64::from(b[3])).abs() / 255.0;
    ciede2000(lab(a), lab(b)) + 100.0 * alpha
}

/// CIEDE2000 colour difference of two CIE Lab colours (Sharma, Wu and Dalal's formulation, kL = kC = kH = 1).
fn ciede2000([l1, a1, b1]: [f64; 3], [l2, a2, b2]: [f64; 3]) -> f64 {
    use std::f64::consts::PI;
    let deg = |r: f64| r * 180.0 / PI;
    let rad = |d: f64| d * PI / 180.0;
    let c_bar = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let g = 0.5 * (1.0 - (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt());
    let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
    let hue = |b: f64, a: f64| if b == 0.0 && a == 0.0 { 0.0 } else { deg(b.atan2(a)).rem_euclid(360.0) };
    let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
    let dl = l2 - l1;
    let dc = c2p - c1p;
    let dh = if c1p * c2p == 0.0 {
        0.0
    } else if (h2p - h1p).abs() <= 180.0 {
        h2p - h1p
    } else if h2p - h1p > 180.0 {
        h2p - h1p - 360.0
    } else {
        h2p - h1p + 360.0
    };
    let dhh = 2.0 * (c1p * c2p).sqrt() * rad(dh / 2.0).sin();
    let l_bar = (l1 + l2) / 2.0;
    let cp_bar = (c1p + c2p) / 2.0;
    let h_bar = if c1p * c2p == 0.0 {
        h1p + h2p
    } else if (h1p - h2p).abs() <= 180.0 {
        (h1p + h2p) / 2.0
    } else if h1p + h2p < 360.0 {
        (h1p + h2p + 360.0) / 2.0
    } else {
        (h1p + h2p - 360.0) / 2.0
    };
    let t = 1.0 - 0.17 * rad(h_bar - 30.0).cos() + 0.24 * rad(2.0 * h_bar).cos() + 0.32 * rad(3.0 * h_bar + 6.0).cos()
        - 0.20 * rad(4.0 * h_bar - 63.0).cos();
    let d_theta = 30.0 * (-((h_bar - 275.0) / 25.0).powi(2)).exp();
    let rc = 2.0 * (cp_bar.powi(7) / (cp_bar.powi(7) + 25f64.powi(7))).sqrt();
    let sl = 1.0 + 0.015 * (l_bar - 50.0).powi(2) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
    let sc = 1.0 + 0.045 * cp_bar;
    let sh = 1.0 + 0.015 * cp_bar * t;
    let rt = -rad(2.0 * d_theta).sin() * rc;
    ((dl / sl).powi(2) + (dc / sc).powi(2) + (dhh / sh).powi(2) + rt * (dc / sc) * (dhh / sh)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_normalise_to_one_form() {
        assert_eq!(normalize("#1677FF").as_deref(), Some("#1677ffff"));
        assert_eq!(normalize("#fff").as_deref(), Some("#ffffffff"));
        assert_eq!(normalize("rgba(0,0,0,.45)").as_deref(), Some("#00000073"));
        assert_eq!(normalize("rgba(0, 0, 0, 0.45)").as_deref(), Some("#00000073"));
        assert_eq!(normalize("transparent").as_deref(), Some("#00000000"));
        assert_eq!(normalize("0.75rem").as_deref(), Some("12px"));
        assert_eq!(normalize("12px").as_deref(), Some("12px"));
        assert_eq!(normalize(".3s").as_deref(), Some("300ms"));
        for none in ["var(--x)", "currentColor", "1em", "50%", "0 3px", "123", "solid", "$a", "@b"] {
            assert_eq!(normalize(none), None, "{none}");
        }
    }

    #[test]
    fn ciede2000_matches_the_published_test_data() {
        // Pairs 1, 7 and 17 of Sharma, Wu and Dalal's CIEDE2000 test data (ΔE 2.0425, 0.0, 27.1492).
        let cases = [
            ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
            ([50.0, 0.0, 0.0], [50.0, 0.0, 0.0], 0.0),
            ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
        ];
        for (a, b, want) in cases {
            assert!((ciede2000(a, b) - want).abs() < 1e-3, "{a:?} {b:?}: {}", ciede2000(a, b));
        }
        assert!(delta_e([0x16, 0x77, 0xff, 255], [0x16, 0x77, 0xff, 255]) < 1e-9);
        assert!(delta_e([0x16, 0x77, 0xff, 255], [0x17, 0x77, 0xff, 255]) < 1.0);
    }
}
