//! `pack`, `install`, `list`, `remove`: the store of installed bundle sets ([`mydesign_docs::store`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use mydesign_docs::read::BundleSet;
use mydesign_docs::render::thousands;
use mydesign_docs::store::{self, Installed};

use super::emit;

/// Options of `pack`.
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
    /// Output file, or a directory to write <system>@<version>.tar.zst in (default: the current directory).
    #[arg(short = 'o', long = "output", default_value = ".")]
    output: PathBuf,
}

/// The store option shared by install, list and remove.
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

/// Options of `install`.
#[derive(Args, Debug)]
pub struct InstallArgs {
    /// A pack file (from `pack`), a bundle set directory, or a directory of sets (out/).
    from: PathBuf,
    /// Replace an installed set of the same version built differently.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    store: StoreArg,
}

/// Options of `list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    store: StoreArg,
}

/// Options of `remove`.
#[derive(Args, Debug)]
pub struct RemoveArgs {
    /// SYSTEM@VERSION, as `list` shows it.
    name: String,
    #[command(flatten)]
    store: StoreArg,
}

pub fn pack(args: PackArgs) -> anyhow::Result<ExitCode> {
    let set = BundleSet::discover(&args.bundles, args.system.as_deref(), args.version.as_deref())?;
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
    for r in store::install(&args.from, &dir, args.force)? {
        let what = match &r.outcome {
            Installed::New => "installed".to_string(),
            Installed::Unchanged => "already installed (same build): unchanged".to_string(),
            Installed::Replaced { previous } => format!("installed, replacing build {previous}"),
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
    let entries = store::list(&dir)?;
    if args.json {
        emit(&serde_json::json!({ "store": dir, "sets": entries }).to_string())?;
    } else if entries.is_empty() {
        emit(&format!(
            "nothing installed in {} (install a pack file with `mydesign-docs install FILE`)",
            dir.display()
        ))?;
    } else {
        let mut lines = vec![format!("{} (store)", dir.display())];
        for e in &entries {
            lines.push(format!(
                "{}@{}  {} bytes  build {}  ({})",
                e.system,
                e.version,
                thousands(e.bytes),
                e.build_id,
                e.built_by
            ));
        }
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
