//! `pack`, `install`, `list`, `remove`: the store of installed bundle sets ([`mydesign_docs::store`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use mydesign_docs::read::BundleSet;
use mydesign_docs::render::thousands;
use mydesign_docs::store::{self, Installed};

use super::emit;

// Options of `pack` (not a doc comment: see `cli::LookupArgs`).
#[derive(Args, Debug)]
pub struct PackArgs {
    /// Directory holding bundle sets (<system>@<version>/), or one set.
    #[arg(long, default_value = "out")]
    bundles: PathBuf,
    /// Design system to pack when the directory holds several.
    #[arg(long)]
    system: Option<String>,
    /// Version to pack (default: the highest present).
    #[arg(long = "version")]
    version: Option<String>,
    /// Output file, or a directory to write <system>@<version>.tar.zst in (default: the current directory); with
    /// --npm, the companion package tarball <package>-docs-<version>.tgz.
    #[arg(short = 'o', long = "output", default_value = ".")]
    output: PathBuf,
    /// Write an npm package instead: the companion package tarball (<package>-docs, `npm publish`-able), or with
    /// --into the set inside the design system's own package.
    #[arg(long)]
    npm: bool,
    /// With --npm: the design system's package directory; the set goes to mydesign-docs/<system>@<version>/ in it
    /// and its package.json gets the "mydesign-docs" field (through `npm pkg set`).
    #[arg(long, value_name = "DIR", requires = "npm", conflicts_with = "output")]
    into: Option<PathBuf>,
}

// The store option shared by install, list and remove (not a doc comment: see `cli::LookupArgs`).
#[derive(Args, Debug)]
pub struct StoreArg {
    /// Store directory (default: $MYDESIGN_DOCS_HOME, else $XDG_DATA_HOME/mydesign-docs, ~/.local/share/mydesign-docs).
    #[arg(long, value_name = "DIR")]
    store: Option<PathBuf>,
}

impl StoreArg {
    fn dir(&self) -> anyhow::Result<PathBuf> {
        store::store_dir(self.store.as_deref())
            .ok_or_else(|| anyhow::anyhow!("no home directory is known: pass --store DIR or set MYDESIGN_DOCS_HOME"))
    }
}

// Options of `install` (not a doc comment: see `cli::LookupArgs`).
#[derive(Args, Debug)]
pub struct InstallArgs {
    /// A pack file (from `pack`), a bundle set directory, a directory of sets (out/), or npm:<package>@<version>
    /// (fetched by `npm pack`, so .npmrc and its registry apply).
    from: PathBuf,
    /// Replace an installed set of the same version built differently.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    store: StoreArg,
}

// Options of `list` (not a doc comment: see `cli::LookupArgs`).
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    store: StoreArg,
}

// Options of `remove` (not a doc comment: see `cli::LookupArgs`).
#[derive(Args, Debug)]
pub struct RemoveArgs {
    /// SYSTEM@VERSION, as `list` shows it.
    name: String,
    #[command(flatten)]
    store: StoreArg,
}

pub fn pack(args: PackArgs) -> anyhow::Result<ExitCode> {
    let set = BundleSet::discover(&args.bundles, args.system.as_deref(), args.version.as_deref())?;
    if args.npm {
        return super::npm::pack(&set, &args.output, args.into.as_deref());
    }
    let packed = store::pack(&set, &args.output)?;
    let set_bytes = packed.manifest.bytes();
    emit(&format!(
        "packed {} (build {}) into {}: {} bytes ({} bytes of bundles)",
        packed.manifest.name(),
        packed.manifest.build_id,
        packed.path.display(),
        thousands(packed.bytes),
        thousands(set_bytes)
    ))?;
    Ok(ExitCode::SUCCESS)
}

pub fn install(args: InstallArgs) -> anyhow::Result<ExitCode> {
    let dir = args.store.dir()?;
    let npm_spec = args.from.to_str().and_then(|f| f.strip_prefix(store::NPM_PREFIX));
    let reports = match npm_spec {
        #[cfg(feature = "build")]
        Some(spec) => {
            let (reports, fetched) = store::install_npm(spec, &dir, args.force)?;
            eprintln!("fetched {fetched} with npm pack");
            reports
        }
        #[cfg(not(feature = "build"))]
        Some(spec) => anyhow::bail!(
            "this binary installs no npm package (built without the `build` feature, for its size): use the full \
             binary, or add the package to the project (`npm install -D {spec}`) and `serve --project`"
        ),
        None => store::install(&args.from, &dir, args.force)?,
    };
    for r in reports {
        let what = match &r.outcome {
            Installed::New => "installed".to_string(),
            Installed::Unchanged => "already installed (same build): unchanged".to_string(),
            Installed::Replaced { previous } => format!("installed, replacing build {previous}"),
            Installed::Repaired { damage } => format!("installed, repairing the damaged installed copy ({damage})"),
        };
        emit(&format!(
            "{} (build {}, {} bytes): {what} in {}",
            r.name,
            r.build_id,
            thousands(r.bytes),
            r.dir.display()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn list(args: ListArgs) -> anyhow::Result<ExitCode> {
    let dir = args.store.dir()?;
    let listing = store::list(&dir)?;
    if args.json {
        let mut json = serde_json::json!({ "store": dir, "sets": listing.sets });
        if !listing.unreadable.is_empty() {
            json["unreadable"] = serde_json::json!(listing.unreadable);
        }
        emit(&json.to_string())?;
    } else if listing.sets.is_empty() && listing.unreadable.is_empty() {
        emit(&format!(
            "nothing installed in {} (install a pack file with `mydesign-docs install FILE`)",
            dir.display()
        ))?;
    } else {
        // Every set in the store's order (system, then version), the unreadable ones in their place.
        let mut rows: Vec<(&str, &str, String)> = Vec::new();
        for e in &listing.sets {
            let row = format!("{} bytes  build {}  ({})", thousands(e.bytes), e.build_id, e.built_by);
            rows.push((&e.system, &e.version, row));
        }
        for u in &listing.unreadable {
            rows.push((&u.system, &u.version, format!("unreadable: {}; {}", u.error, u.what_to_do)));
        }
        rows.sort_by(|a, b| a.0.cmp(b.0).then_with(|| mydesign_docs::version::cmp(a.1, b.1)));
        let mut lines = vec![format!("{} (store)", dir.display())];
        lines.extend(rows.into_iter().map(|(system, version, row)| format!("{system}@{version}  {row}")));
        emit(&lines.join("\n"))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn remove(args: RemoveArgs) -> anyhow::Result<ExitCode> {
    let dir = args.store.dir()?;
    let removed = store::remove(&dir, &args.name)?;
    emit(&format!("removed {}", removed.display()))?;
    Ok(ExitCode::SUCCESS)
}
