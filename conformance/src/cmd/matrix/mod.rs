//! `wirecheck matrix`: the suite against every server of a manifest (the
//! zoo), one document of servers × revisions × transports, and its pages.

pub mod against;
pub mod document;
pub mod execute;
pub mod manifest;
pub mod render;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::report::Exit;
use document::Matrix;

/// Run the suite against every server of a manifest: one matrix of servers ×
/// revisions × transports.
///
/// For each server × transport, `wirecheck run --revision all` is played (a
/// child of this binary, in its own process group, bounded by `--timeout`),
/// HTTP servers on a free 127.0.0.1 port. Writes into `--out`:
/// `matrix.json` (the source: schemas/matrix.schema.json), `matrix.md`,
/// `matrix.html`, and `runs/<server>.<transport>.{json,log,transcripts}`.
/// A server that does not start, never listens, or whose run cannot be made
/// is "could not run", never a failure.
///
/// `wirecheck matrix merge PART.json… --out DIR` merges the parts `--shard`
/// made (their `runs/` beside them) into one matrix and renders it.
///
/// Exit codes: 0 the matrix was made and no cell fails, 1 a cell fails (a
/// MUST broken outside the server's baseline), 2 the matrix could not be made
/// (the manifest does not load, the output cannot be written).
#[derive(Debug, Clone, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    /// The manifest (`conformance/peers/zoo/zoo.toml`).
    #[arg(required = true, value_name = "MANIFEST")]
    manifest: Option<PathBuf>,
    /// The output folder.
    #[arg(long, default_value = "target/matrix", value_name = "DIR")]
    out: PathBuf,
    /// Children at once; default the number of cores.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// The bound on each run (a fuzz gets its budget on top).
    #[arg(long, default_value = "300s", value_parser = super::args::duration, value_name = "DURATION")]
    timeout: Duration,
    /// The longest wait for any one answer (`wirecheck run --timeout`, at
    /// least 100ms).
    #[arg(long, default_value = "5s", value_parser = super::args::answer_timeout, value_name = "DURATION")]
    answer_timeout: Duration,
    /// Only this server (repeatable).
    #[arg(long = "server", value_name = "NAME")]
    servers: Vec<String>,
    /// Only the servers whose index by name, mod N, is K-1 (`1/4`).
    #[arg(long, value_name = "K/N", value_parser = shard)]
    shard: Option<(usize, usize)>,
    /// Also fuzz each MCP server for this many seconds (the fuzz column).
    #[arg(long, value_name = "SECONDS")]
    fuzz: Option<u64>,
    /// An earlier matrix.json: say what changed since (new and fixed
    /// findings, server versions), on the terminal and in matrix.md.
    #[arg(long, value_name = "OLD.json")]
    against: Option<PathBuf>,
    #[command(subcommand)]
    merge: Option<Merge>,
}

/// `wirecheck matrix merge`.
#[derive(Debug, Clone, clap::Subcommand)]
enum Merge {
    /// Merge matrix parts (`--shard`) into one matrix and render it; each
    /// part's `runs/` and `fuzz/` are copied beside the merged document.
    Merge {
        /// The parts' matrix.json files.
        #[arg(required = true, value_name = "PART.json")]
        parts: Vec<PathBuf>,
        /// The output folder.
        #[arg(long, default_value = "target/matrix", value_name = "DIR")]
        out: PathBuf,
        /// An earlier matrix.json to compare with.
        #[arg(long, value_name = "OLD.json")]
        against: Option<PathBuf>,
    },
}

fn shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}`: a shard is K/N with 1 ≤ K ≤ N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Runs `wirecheck matrix` as `args` asks.
#[must_use]
pub fn run(args: &Args) -> Exit {
    let made = match &args.merge {
        Some(Merge::Merge {
            parts,
            out,
            against,
        }) => merge(parts, out).map(|m| (m, out, against)),
        None => build(args).map(|m| (m, &args.out, &args.against)),
    };
    match made.and_then(|(matrix, out, against)| write(&matrix, out, against.as_deref())) {
        Ok(exit) => exit,
        Err(e) => {
            eprintln!("wirecheck matrix: {e}");
            Exit::Trouble
        }
    }
}

fn build(args: &Args) -> Result<Matrix, String> {
    let path = args.manifest.as_deref().ok_or("no MANIFEST")?;
    let manifest = manifest::Manifest::load(path)?;
    let options = execute::Options {
        out: args.out.clone(),
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
        run_timeout: args.timeout,
        answer_timeout: args.answer_timeout,
        shard: args.shard,
        only: args.servers.clone(),
        fuzz: args.fuzz,
        exe: std::env::current_exe()
            .map_err(|e| format!("cannot find this binary to start `run`: {e}"))?,
    };
    execute::build(&manifest, &options)
}

/// Merges parts into one matrix, copying each part's `runs/` and `fuzz/`
/// into `out` so the links of the merged page hold.
///
/// # Errors
/// A part cannot be read, the parts name a server twice or come from
/// different manifests, or a file cannot be copied.
pub fn merge(parts: &[PathBuf], out: &Path) -> Result<Matrix, String> {
    let mut merged: Option<Matrix> = None;
    for path in parts {
        let part = Matrix::read(path)?;
        let from = path.parent().unwrap_or(Path::new("."));
        for sub in ["runs", "fuzz"] {
            copy_tree(&from.join(sub), &out.join(sub))?;
        }
        match &mut merged {
            None => merged = Some(part),
            Some(m) => {
                if m.manifest != part.manifest {
                    return Err(format!(
                        "{}: made from {}, the first part from {}",
                        path.display(),
                        part.manifest,
                        m.manifest
                    ));
                }
                for server in part.servers {
                    if m.servers.iter().any(|s| s.name == server.name) {
                        return Err(format!(
                            "{}: server {} is in two parts",
                            path.display(),
                            server.name
                        ));
                    }
                    m.servers.push(server);
                }
                m.started = m.started.clone().min(part.started);
                m.duration_ms = m.duration_ms.max(part.duration_ms);
                m.fuzz_seconds = m.fuzz_seconds.or(part.fuzz_seconds);
            }
        }
    }
    let mut matrix = merged.ok_or("no parts")?;
    matrix.shard = None;
    matrix.normalise();
    Ok(matrix)
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    if !from.is_dir() {
        return Ok(());
    }
    if std::fs::canonicalize(from).ok() == std::fs::canonicalize(to).ok() {
        return Ok(());
    }
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst)
                .map_err(|e| format!("cannot copy {} to {}: {e}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}

/// Writes matrix.json, .md and .html into `out`, prints the terminal view
/// (and the changes since `against`), and says how the matrix ends.
fn write(matrix: &Matrix, out: &Path, against: Option<&Path>) -> Result<Exit, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let changes = match against {
        None => None,
        Some(path) => {
            let old = Matrix::read(path)?;
            Some(against::compare(&old, matrix).markdown(&path.display().to_string()))
        }
    };
    super::write_file(&out.join("matrix.json"), &matrix.to_vec())?;
    super::write_file(
        &out.join("matrix.md"),
        render::markdown(matrix, changes.as_deref()).as_bytes(),
    )?;
    super::write_file(
        &out.join("matrix.html"),
        render::html(matrix, changes.as_deref()).as_bytes(),
    )?;
    print!("{}", render::terminal(matrix));
    if let Some(changes) = &changes {
        print!("\n{changes}");
    }
    let failing = matrix
        .servers
        .iter()
        .flat_map(|s| &s.runs)
        .flat_map(|r| &r.cells)
        .filter(|c| c.status == "fail")
        .count();
    let could_not = matrix
        .servers
        .iter()
        .flat_map(|s| &s.runs)
        .filter(|r| r.reason.is_some())
        .count();
    eprintln!(
        "wirecheck matrix: {} servers, {failing} failing cells, {could_not} runs could not be made; {}",
        matrix.servers.len(),
        out.join("matrix.html").display()
    );
    Ok(if failing > 0 {
        Exit::Findings
    } else {
        Exit::Clean
    })
}
