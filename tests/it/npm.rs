//! The docs travel with the package (issue 28 items 1–3): `pack --npm` writes the sample as a companion package
//! tarball npm accepts and into a design system's own package; npm installs them into the workspaces of a monorepo
//! pinned to two versions, and each workspace's lookups and `serve --project` answer with its installed version,
//! saying where the set came from; pnpm's and yarn's layouts; `install npm:` through `npm pack`.
//!
//! npm is on CI's machine; no test reaches a registry (tarball paths, `--offline`). Without npm the npm steps are
//! skipped, unless `MYDESIGN_REQUIRE_REAL=1`, where that is a failure.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;
use crate::release::{arg, ok_in, run_in, serve_list_components};

/// Whether npm runs here; without it a skip, or a failure under `MYDESIGN_REQUIRE_REAL=1`.
fn npm_present(test: &str) -> bool {
    let ok = Command::new("npm").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(std::env::var_os("MYDESIGN_REQUIRE_REAL").is_none(), "{test}: npm is not on PATH");
        eprintln!("{test}: skipped, npm is not on PATH");
    }
    ok
}

/// Runs npm offline (never the public registry: a closed port for any request it would make) in `cwd`.
fn npm(cwd: &Path, args: &[&str]) -> String {
    let out = Command::new("npm")
        .current_dir(cwd)
        .args(args)
        .args(["--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--registry", "http://127.0.0.1:9/"])
        .output()
        .expect("run npm");
    assert!(out.status.success(), "npm {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The sample built at 3.3.0 (besides `common::sample()`'s 3.4.0), once per test binary: its set directory.
fn sample_330() -> &'static PathBuf {
    static CELL: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap().keep();
        let out = tmp.join("out");
        common::ok(&common::root(), &["build", "corpus", "--out", arg(&out), "--set-version", "3.3.0"]);
        out.join("my-design@3.3.0")
    })
}

/// Every entry of a gzip tar: (path, bytes, mode, mtime).
fn tgz_entries(path: &Path) -> Vec<(String, Vec<u8>, u32, u64)> {
    let file = std::fs::File::open(path).unwrap();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut out = Vec::new();
    for e in archive.entries().unwrap() {
        let mut e = e.unwrap();
        let mut data = Vec::new();
        e.read_to_end(&mut data).unwrap();
        let (mode, mtime) = (e.header().mode().unwrap(), e.header().mtime().unwrap());
        out.push((e.path().unwrap().to_string_lossy().into_owned(), data, mode, mtime));
    }
    out
}

#[test]
fn companion_tarball_is_the_set_in_an_npm_package() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("unused-store");
    let set = &common::sample().report.dir;
    let said = ok_in(tmp.path(), &store, &["pack", "--npm", "--bundles", arg(set), "-o", arg(tmp.path())]);
    let tgz = tmp.path().join("my-design-docs-3.4.0.tgz");
    assert!(said.starts_with(&format!("packed my-design@3.4.0 into {} (", tgz.display())), "{said}");
    assert!(said.contains("npm package my-design-docs@3.4.0, \"mydesign-docs\": \"mydesign-docs/my-design@3.4.0\""));
    // The same set gives the same bytes.
    let again = tmp.path().join("again.tgz");
    ok_in(tmp.path(), &store, &["pack", "--npm", "--bundles", arg(set), "-o", arg(&again)]);
    assert_eq!(std::fs::read(&tgz).unwrap(), std::fs::read(&again).unwrap());

    let entries = tgz_entries(&tgz);
    let (first, manifest, ..) = &entries[0];
    assert_eq!(first, "package/package.json");
    let manifest: serde_json::Value = serde_json::from_slice(manifest).unwrap();
    assert_eq!(manifest["name"], "my-design-docs");
    assert_eq!(manifest["version"], "3.4.0");
    assert_eq!(manifest["mydesign-docs"], "mydesign-docs/my-design@3.4.0");
    assert_eq!(manifest["files"], serde_json::json!(["mydesign-docs"]));
    // Every file of the set, byte for byte, under package/, as npm writes entries (0644, npm's fixed time).
    let files: Vec<(String, Vec<u8>)> = entries[1..]
        .iter()
        .map(|(p, d, mode, mtime)| {
            assert_eq!((*mode, *mtime), (0o644, 499_162_500), "{p}");
            (p.strip_prefix("package/mydesign-docs/my-design@3.4.0/").expect(p).to_string(), d.clone())
        })
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(sorted, common::tree_bytes(set));
    assert_eq!(files[0].0, "manifest.bundle");

    if !npm_present("companion_tarball_is_the_set_in_an_npm_package") {
        return;
    }
    // npm reads it as a package: its name, version and every file.
    let listed: serde_json::Value =
        serde_json::from_str(&npm(tmp.path(), &["pack", "--dry-run", "--json", arg(&tgz)])).unwrap();
    assert_eq!(listed[0]["id"], "my-design-docs@3.4.0", "{listed}");
    assert_eq!(listed[0]["files"].as_array().unwrap().len(), entries.len(), "{listed}");
}

/// A minimal design-system package `my-design@version` in `dir` (a `files` list without the sets).
fn design_package(dir: &Path, version: &str) {
    write(
        &dir.join("package.json"),
        &format!(
            "{{\n  \"name\": \"my-design\",\n  \"version\": \"{version}\",\n  \"main\": \"index.js\",\n  \"files\": [\"index.js\"]\n}}\n"
        ),
    );
    write(&dir.join("index.js"), "module.exports = {};\n");
}

/// The header line of a lookup's answer.
fn header(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

#[test]
fn workspaces_pinned_to_two_versions_each_answer_with_their_installed_set() {
    if !npm_present("workspaces_pinned_to_two_versions_each_answer_with_their_installed_set") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = (tmp.path(), tmp.path().join("store"));
    let tarballs = root.join("tarballs");
    std::fs::create_dir_all(&tarballs).unwrap();
    // 3.4.0: the set inside the design system's own package (form a), `npm pkg set` adding the field and `files`.
    let pkg = root.join("ds-340");
    design_package(&pkg, "3.4.0");
    let said =
        ok_in(root, &store, &["pack", "--npm", "--into", arg(&pkg), "--bundles", arg(&common::sample().report.dir)]);
    assert!(
        said.contains("set mydesign-docs=mydesign-docs/my-design@3.4.0, files[]=mydesign-docs in its package.json"),
        "{said}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(pkg.join("package.json")).unwrap()).unwrap();
    assert_eq!(manifest["mydesign-docs"], "mydesign-docs/my-design@3.4.0");
    assert_eq!(manifest["files"], serde_json::json!(["index.js", "mydesign-docs"]));
    npm(&pkg, &["pack", "--pack-destination", arg(&tarballs)]);
    // 3.3.0: the package without docs, and its companion tarball (form b).
    let plain = root.join("ds-330");
    design_package(&plain, "3.3.0");
    npm(&plain, &["pack", "--pack-destination", arg(&tarballs)]);
    ok_in(root, &store, &["pack", "--npm", "--bundles", arg(sample_330()), "-o", arg(&tarballs)]);

    let mono = root.join("mono");
    write(&mono.join("package.json"), r#"{"name": "mono", "private": true, "workspaces": ["packages/*"]}"#);
    let t = |name: &str| format!("file:../../../tarballs/{name}");
    let app = |name: &str, deps: serde_json::Value| {
        let manifest = serde_json::json!({"name": name, "version": "1.0.0", "dependencies": deps});
        write(&mono.join("packages").join(name).join("package.json"), &manifest.to_string());
    };
    app("app-a", serde_json::json!({"my-design": t("my-design-3.4.0.tgz")}));
    app(
        "app-b",
        serde_json::json!({"my-design": t("my-design-3.3.0.tgz"), "my-design-docs": t("my-design-docs-3.3.0.tgz")}),
    );
    npm(&mono, &["install"]);

    // A lookup run inside app-a: 3.4.0 from the design system's own package, wherever npm put it, though the
    // store holds 3.4.0 too (installed just now: the store is listed again at the lookup, the project's copy
    // still first).
    ok_in(root, &store, &["install", arg(&common::sample().report.dir)]);
    let a = mono.join("packages/app-a");
    let text = ok_in(&a, &store, &["components"]);
    let installed_at = ["node_modules/my-design", "../../node_modules/my-design"]
        .into_iter()
        .find(|p| a.join(p).join("package.json").is_file())
        .expect("npm installed my-design for app-a");
    assert_eq!(
        header(&text),
        format!(
            "[my-design 3.4.0 · from {installed_at} · 17 components · sizes for en-US · tokens of the default view · changelog: 6 pages]"
        )
    );
    // app-b through `serve --project`, with the store holding 3.4.0: the project's installed version wins, from
    // its companion package.
    let b = mono.join("packages/app-b");
    let (instructions, text) = serve_list_components(&["serve", "--project", arg(&b)], Some(&store));
    let companion_at = ["node_modules/my-design-docs", "../../node_modules/my-design-docs"]
        .into_iter()
        .find(|p| b.join(p).join("package.json").is_file())
        .expect("npm installed my-design-docs for app-b");
    assert!(header(&text).starts_with(&format!("[my-design 3.3.0 · from {companion_at} · 17 components")), "{text}");
    assert!(instructions.contains(&format!("my-design: from {companion_at}")), "{instructions}");
}

/// The sample's 3.3.0 set written into a package directory by hand (as pnpm or yarn would have unpacked it).
fn unpacked_package(dir: &Path, name: &str, version: &str, set: &Path) {
    let field = format!("mydesign-docs/my-design@{version}");
    write(
        &dir.join("package.json"),
        &serde_json::json!({"name": name, "version": version, "mydesign-docs": field}).to_string(),
    );
    common::copy_tree(set, &dir.join(&field));
}

#[test]
fn pnpm_links_and_yarn_hoisting_are_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = (tmp.path(), tmp.path().join("store"));
    ok_in(root, &store, &["install", arg(&common::sample().report.dir)]);
    // pnpm: node_modules/my-design links into the virtual store; the lockfile names the same version.
    let p = root.join("pnpm-app");
    write(&p.join("package.json"), r#"{"dependencies": {"my-design": "3.3.0"}}"#);
    write(
        &p.join("pnpm-lock.yaml"),
        "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      my-design:\n        specifier: 3.3.0\n        version: 3.3.0\n\npackages:\n\n  my-design@3.3.0:\n    resolution: {integrity: sha512-x}\n",
    );
    let virtual_dir = p.join("node_modules/.pnpm/my-design@3.3.0/node_modules/my-design");
    unpacked_package(&virtual_dir, "my-design", "3.3.0", sample_330());
    #[cfg(unix)]
    std::os::unix::fs::symlink(".pnpm/my-design@3.3.0/node_modules/my-design", p.join("node_modules/my-design"))
        .unwrap();
    #[cfg(not(unix))]
    common::copy_tree(&virtual_dir, &p.join("node_modules/my-design"));
    let text = ok_in(&p, &store, &["components"]);
    assert!(header(&text).starts_with("[my-design 3.3.0 · from node_modules/my-design · 17 components"), "{text}");

    // yarn workspaces: the companion hoisted to the monorepo's node_modules, found from a workspace two levels down.
    let y = root.join("yarn-mono");
    write(&y.join("package.json"), r#"{"private": true, "workspaces": ["packages/*"]}"#);
    write(
        &y.join("yarn.lock"),
        "# yarn lockfile v1\n\n\nmy-design-docs@^3.3.0:\n  version \"3.3.0\"\n  resolved \"https://registry.example/my-design-docs-3.3.0.tgz#0\"\n  integrity sha512-x\n",
    );
    write(&y.join("packages/web/package.json"), r#"{"name": "web", "dependencies": {"my-design-docs": "^3.3.0"}}"#);
    unpacked_package(&y.join("node_modules/my-design-docs"), "my-design-docs", "3.3.0", sample_330());
    let (_, text) = serve_list_components(&["serve", "--project", arg(&y.join("packages/web"))], Some(&store));
    assert!(
        header(&text).starts_with("[my-design 3.3.0 · from ../../node_modules/my-design-docs · 17 components"),
        "{text}"
    );

    // A field leaving its package is not followed: the store's 3.4.0 serves, no "from".
    let evil = root.join("evil");
    write(&evil.join("package.json"), r#"{"dependencies": {"my-design": "3.4.0"}}"#);
    write(
        &evil.join("node_modules/my-design/package.json"),
        r#"{"name": "my-design", "version": "3.4.0", "mydesign-docs": "../../../pnpm-app/node_modules/my-design/mydesign-docs/my-design@3.3.0"}"#,
    );
    let text = ok_in(&evil, &store, &["components"]);
    assert!(header(&text).starts_with("[my-design 3.4.0 · 17 components"), "{text}");
}

#[test]
fn install_npm_fetches_through_npm_pack() {
    if !npm_present("install_npm_fetches_through_npm_pack") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = (tmp.path(), tmp.path().join("store"));
    ok_in(root, &store, &["pack", "--npm", "--bundles", arg(&common::sample().report.dir), "-o", arg(root)]);
    let tgz = root.join("my-design-docs-3.4.0.tgz");
    let spec = format!("npm:{}", tgz.display());
    let out = run_in(root, &store, &["install", &spec]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "fetched my-design-docs@3.4.0 with npm pack\n");
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(said.starts_with("my-design@3.4.0 (build ") && said.contains("): installed in "), "{said}");
    assert_eq!(common::tree_bytes(&store.join("my-design@3.4.0")), common::tree_bytes(&common::sample().report.dir));
    // Nothing of the fetch is left in the store.
    let hidden: Vec<_> = std::fs::read_dir(&store)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".install-"))
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");

    // A package without the field names its companion.
    let plain = root.join("plain");
    design_package(&plain, "3.3.0");
    let out = run_in(root, &store, &["install", &format!("npm:{}", plain.display())]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("(my-design@3.3.0) carries no bundle set: its package.json has no \"mydesign-docs\" field; a companion package may carry it: install npm:my-design-docs@3.3.0"), "{err}");
    // npm's own failure is reported.
    let out = run_in(root, &store, &["install", "npm:./no-such.tgz"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`npm pack ./no-such.tgz` failed"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .args(["install", &spec, "--store", arg(&store)])
        .env("MYDESIGN_DOCS_NPM", root.join("no-npm"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("could not run") && err.contains("set MYDESIGN_DOCS_NPM"), "{err}");
}

/// Project discovery on a `node_modules` of 1,000 packages, 1,000 of them direct dependencies (the worst case:
/// each is resolved and its `package.json` read), one shipping a set.
#[test]
fn discovery_reads_only_direct_dependencies() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path();
    let mut deps = serde_json::Map::new();
    for i in 0..1000 {
        let name = if i % 3 == 0 { format!("@scope{}/pkg-{i}", i % 7) } else { format!("pkg-{i}") };
        write(
            &p.join("node_modules").join(&name).join("package.json"),
            &format!(r#"{{"name": "{name}", "version": "1.0.{i}"}}"#),
        );
        deps.insert(name, "^1.0.0".into());
    }
    unpacked_package(&p.join("node_modules/my-design"), "my-design", "3.3.0", sample_330());
    deps.insert("my-design".into(), "3.3.0".into());
    write(&p.join("package.json"), &serde_json::json!({"dependencies": deps}).to_string());
    let start = std::time::Instant::now();
    let found = mydesign_docs::project::installed::shipped_sets(p);
    let took = start.elapsed();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].package.shown(), "node_modules/my-design");
    eprintln!("discovery over 1,001 direct dependencies: {took:?} (debug build)");
}
