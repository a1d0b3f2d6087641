//! Design-token values compared as values: a CSS colour as sRGB with alpha, a length in px, a duration in ms. The
//! compiler normalises every token's value with [`normalize`] when it builds a set; the reader parses the value a
//! `token-for` lookup asks for with the same function and compares colours by [`delta_e`]. Parsing one value is
//! not tokenizing: nothing here counts tokens. Colours are read here (hex, `rgb()`/`rgba()` and `hsl()`/`hsla()` in
//! the comma and space syntaxes, `transparent`); CSS's named colours come from the `csscolorparser` crate's table
//! (its parser of all of CSS Color 4 put the reader-only binary 54 KB over its 6 MB bound: issue 14).

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
    color(t).map(Value::Color)
}

/// A CSS colour: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()`, `hsl()`/`hsla()`, `transparent`, or one
/// of CSS Color 4's 148 named colours (§6.1, `rebeccapurple` included: csscolorparser's table, case ignored).
fn color(t: &str) -> Option<[u8; 4]> {
    if let Some(hex) = t.strip_prefix('#') {
        return hex_digits(hex);
    }
    let lower = t.to_ascii_lowercase();
    if lower == "transparent" {
        return Some([0, 0, 0, 0]);
    }
    if let Some(&[r, g, b]) = csscolorparser::NAMED_COLORS.get(uncased::UncasedStr::new(&lower)) {
        return Some([r, g, b, 255]);
    }
    let (name, args) = lower.strip_suffix(')')?.split_once('(')?;
    // `rgb(0, 0, 0, .45)`, `rgb(0 0 0 / 45%)`: numbers split at commas, spaces and the slash.
    let parts: Vec<&str> = args.split([',', ' ', '/']).filter(|p| !p.is_empty()).collect();
    if !(3..=4).contains(&parts.len()) {
        return None;
    }
    let alpha = match parts.get(3) {
        Some(a) => channel(a, 1.0)?,
        None => 1.0,
    };
    let [r, g, b] = match name {
        "rgb" | "rgba" => [channel(parts[0], 255.0)?, channel(parts[1], 255.0)?, channel(parts[2], 255.0)?],
        "hsl" | "hsla" => {
            let h = parts[0].trim_end_matches("deg").parse::<f64>().ok()?;
            hsl(h, channel(parts[1], 100.0)?, channel(parts[2], 100.0)?)
        }
        _ => return None,
    };
    let byte = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    Some([byte(r), byte(g), byte(b), byte(alpha)])
}

/// A channel as a fraction of 1: a number out of `scale`, or a percentage.
fn channel(text: &str, scale: f64) -> Option<f64> {
    match text.strip_suffix('%') {
        Some(p) => Some(p.parse::<f64>().ok()? / 100.0),
        None => Some(text.parse::<f64>().ok()? / scale),
    }
}

/// HSL (hue in degrees, saturation and lightness as fractions) to sRGB fractions (CSS Color 4 §7.1).
fn hsl(h: f64, s: f64, l: f64) -> [f64; 3] {
    let f = |n: f64| {
        let k = (n + h / 30.0).rem_euclid(12.0);
        let a = s * l.min(1.0 - l);
        l - a * (k - 3.0).min(9.0 - k).clamp(-1.0, 1.0)
    };
    [f(0.0), f(8.0), f(4.0)]
}

/// The colour of 3, 4, 6 or 8 hex digits.
fn hex_digits(h: &str) -> Option<[u8; 4]> {
    if !h.is_ascii() || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let one = |i: usize| u8::from_str_radix(&h[i..=i], 16).ok().map(|v| v * 17);
    let two = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    match h.len() {
        3 => Some([one(0)?, one(1)?, one(2)?, 255]),
        4 => Some([one(0)?, one(1)?, one(2)?, one(3)?]),
        6 => Some([two(0)?, two(2)?, two(4)?, 255]),
        8 => Some([two(0)?, two(2)?, two(4)?, two(6)?]),
        _ => None,
    }
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

/// A value a `token-for` lookup asks for: as [`parse`] reads it, and a unitless zero (`0`, `0.0`) as the length
/// `0px`, since CSS writes a zero length without its unit (the compiler keeps a token's bare `0` a number: a
/// z-index or opacity of 0 is no length).
pub fn parse_asked(text: &str) -> Option<Value> {
    let t = text.trim();
    let zero = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+');
    match t.parse::<f64>() {
        Ok(n) if zero && n == 0.0 => Some(Value::Length(0.0)),
        _ => parse(t),
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
    let lab = |c: [u8; 4]| lab([c[0], c[1], c[2]]);
    let alpha = (f64::from(a[3]) - f64::from(b[3])).abs() / 255.0;
    ciede2000(lab(a), lab(b)) + 100.0 * alpha
}

/// CIE Lab (D65 white) of an sRGB colour: linearised, to XYZ by the sRGB matrix, then Lab.
fn lab(rgb: [u8; 3]) -> [f64; 3] {
    let lin = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    let [r, g, b] = rgb.map(lin);
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175 * b;
    let z = (0.019_333_9 * r + 0.119_192 * g + 0.950_304_1 * b) / 1.088_83;
    let f = |t: f64| if t > 216.0 / 24389.0 { t.cbrt() } else { (24389.0 / 27.0 * t + 16.0) / 116.0 };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
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
        assert_eq!(normalize("rgb(0 0 0 / 45%)").as_deref(), Some("#00000073"));
        assert_eq!(normalize("hsl(120, 100%, 25%)").as_deref(), Some("#008000ff"));
        assert_eq!(normalize("White").as_deref(), Some("#ffffffff"));
        // CSS Color 4's named colours beyond the sixteen basic ones (§6.1).
        assert_eq!(normalize("rebeccapurple").as_deref(), Some("#663399ff"));
        assert_eq!(normalize("RebeccaPurple").as_deref(), Some("#663399ff"));
        assert_eq!(normalize("lightgoldenrodyellow").as_deref(), Some("#fafad2ff"));
        // Pure white is L* 100, a* b* 0.
        let [l, a, b] = lab([255, 255, 255]);
        assert!((l - 100.0).abs() < 0.01 && a.abs() < 0.01 && b.abs() < 0.01, "{l} {a} {b}");
        for none in ["var(--x)", "currentColor", "1em", "50%", "0 3px", "123", "solid", "$a", "@b", "#12345"] {
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
