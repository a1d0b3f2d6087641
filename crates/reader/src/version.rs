//! Versions as people write them: the one lenient reading of SemVer (built on the `semver` crate) that the
//! changelog range, `diff`, the list of installed sets, the compiler's version checks and the CLI's choice of the
//! installed version for a project ([`parse_whole`]) share.

use std::cmp::Ordering;

/// The one leniency every reading of a version shares: surrounding space, and the prefixes people and tools put
/// before a version, a `v`/`V` (`v2.8.0`: git tags, changelog headings) and npm's `=` (`=2.8.0`: an exact version in
/// a package.json). Nothing else is taken off.
fn unprefixed(v: &str) -> &str {
    v.trim().trim_start_matches(['v', 'V', '='])
}

/// A whole version as SemVer (three numbers, optional `-pre` and `+build`), with the prefix leniency of
/// [`unprefixed`] and no padding: for versions a package manager wrote (a lockfile's, an installed set's, a
/// package.json's), where `2.8` is a range, not the version 2.8.0. `None` for anything else.
pub fn parse_whole(v: &str) -> Option<semver::Version> {
    semver::Version::parse(unprefixed(v)).ok()
}

/// A version as people write it: [`parse_whole`], and a release line padded with zeros (`2.8` is 2.8.0, `v2` is
/// 2.0.0, `2-beta` is 2.0.0-beta: `--since 2.8` must match). Anything else SemVer refuses (`2.x`, `2.`,
/// `nightly`) is `None`.
pub fn parse(v: &str) -> Option<semver::Version> {
    parse_whole(v).or_else(|| {
        // `2` / `2.1` (with an optional `-pre` / `+build`) padded to three numbers.
        let v = unprefixed(v);
        let split = v.find(['-', '+']).unwrap_or(v.len());
        let (core, rest) = v.split_at(split);
        let dots = core.matches('.').count();
        (dots < 2 && !core.is_empty()).then(|| format!("{core}{}{rest}", ".0".repeat(2 - dots)))?.parse().ok()
    })
}

/// Orders versions as SemVer (`2.0.0-beta.1` < `2.0.0` < `2.10.0`), read by [`parse`]. Versions that are not SemVer
/// compare by their numeric parts (`2024.10` > `2024.9`), a prerelease-looking suffix (`-` after the numbers) below
/// the bare numbers, and order below SemVer ones when the numbers tie; text breaks the remaining ties.
pub fn cmp(a: &str, b: &str) -> Ordering {
    let parts = |v: &str| -> Vec<u64> {
        let core = v.split_once('-').map_or(v, |(c, _)| c);
        core.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty()).filter_map(|p| p.parse().ok()).collect()
    };
    let release = |v: &str| !v.contains('-');
    match (parse(a), parse(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => parts(a).cmp(&parts(b)).then_with(|| release(a).cmp(&release(b))),
    }
    .then_with(|| a.cmp(b))
}

/// Whether `version` is a SemVer prerelease (`5.42.4-alpha.0`).
pub fn is_prerelease(version: &str) -> bool {
    parse(version).is_some_and(|v| !v.pre.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(versions: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = versions.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| cmp(a, b));
        v
    }

    #[test]
    fn a_release_line_is_its_first_version() {
        let v = |s: &str| parse(s).map(|v| v.to_string());
        assert_eq!(v("2.8"), Some("2.8.0".into()), "trial 5: `--since 2.8` matched nothing");
        assert_eq!(v("v2"), Some("2.0.0".into()));
        assert_eq!(v(" V2.1-rc.1 "), Some("2.1.0-rc.1".into()));
        assert_eq!(v("2.8.1-beta.1"), Some("2.8.1-beta.1".into()));
        assert_eq!((v("2."), v("2.x"), v("abc"), v("")), (None, None, None, None));
    }

    #[test]
    fn prefixes_and_space_are_the_whole_leniency_of_a_whole_version() {
        let v = |s: &str| parse_whole(s).map(|v| v.to_string());
        assert_eq!(v("2.8.0"), Some("2.8.0".into()));
        assert_eq!(v(" v2.8.0\n"), Some("2.8.0".into()), "git tag");
        assert_eq!(v("V2.8.0-rc.1+b5"), Some("2.8.0-rc.1+b5".into()));
        assert_eq!(v("=2.8.0"), Some("2.8.0".into()), "npm's exact version");
        assert_eq!(v("2.8"), None, "a range in a package.json, not padded");
        assert_eq!((v("^2.8.0"), v("~2.8.0"), v("2.8.x"), v("latest")), (None, None, None, None));
        assert_eq!(parse("=2.8").map(|v| v.to_string()), Some("2.8.0".into()), "parse pads after the same prefixes");
    }

    #[test]
    fn semver_order_with_prereleases_below_releases() {
        assert_eq!(
            sorted(&["2.0.0", "2.0.0-beta.1", "2.10.0", "2.9.1", "2.0.0-alpha", "2.0.0-beta.11", "2.0.0-beta.2"]),
            ["2.0.0-alpha", "2.0.0-beta.1", "2.0.0-beta.2", "2.0.0-beta.11", "2.0.0", "2.9.1", "2.10.0"]
        );
    }

    #[test]
    fn non_semver_versions_fall_back_sensibly() {
        assert_eq!(sorted(&["v2.1", "2.0", "v2.0.1", "1"]), ["1", "2.0", "v2.0.1", "v2.1"]);
        assert_eq!(
            sorted(&["2024.10.01.3", "2024.9.30.1", "2024.10.01.3-rc"]),
            ["2024.9.30.1", "2024.10.01.3-rc", "2024.10.01.3"]
        );
        assert_eq!(sorted(&["nightly", "1.0.0"]), ["nightly", "1.0.0"]);
    }

    #[test]
    fn prereleases() {
        assert!(is_prerelease("5.42.4-alpha.0"));
        assert!(is_prerelease("v2.0.0-beta"));
        assert!(!is_prerelease("2.0.0"));
        assert!(!is_prerelease("nightly"));
    }
}
