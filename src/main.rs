//! The `xmv-rs` command line: `check` (NuSMV-style model checking), `list-specs` (the specs with
//! NuSMV's indices) and `import` (other tools' formats to `.smv`). Exit codes of `check`: 0 all
//! specs hold, 1 some spec fails, 2 input errors, 3 no spec fails but some spec is unknown
//! (`--spec-timeout`). Run as `NuSMV`/`nusmv` or with NuSMV's argument
//! shape (no subcommand), it is NuSMV 2.5.4's command line instead (`xmv_rs::nusmv_mode`).

use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use xmv_rs::check::Engine;
use xmv_rs::driver::{self, CheckOptions, Format};
use xmv_rs::ir::TerminationRule;
use xmv_rs::source::SourceFile;

/// mimalloc instead of the system allocator: the front end allocates millions of small blocks
/// (names, expression nodes) on several threads; glibc's per-thread arenas spent a third of the
/// front end's time in malloc, free and page faults.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's own C interface (linked by the `mimalloc` crate; the `extended` feature that
// would declare it needs another crate).
unsafe extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_purge_delay` in mimalloc 3's `mi_option_e` (`include/mimalloc.h`).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// Tells mimalloc never to give freed memory back to the OS while the process runs. By default
/// it returns (`madvise`) pages that stayed free for a while; the lane batches of the summary
/// engine allocate and free megabytes per batch, so the same pages were returned and faulted in
/// again and again, and with two threads each return cost a TLB shoot-down on the other core:
/// on the avroraCFG run, 155 k page faults and a quarter of `-j 2`'s CPU time (user + sys 9.5 s
/// → 8.0 s under load; 670 page faults). Peak memory grows by about a tenth. The process is
/// short-lived and exits after one run (`xmv-rs lsp` keeps the default behaviour: it runs for
/// long).
fn keep_freed_memory() {
    // SAFETY: `mi_option_set` only stores an option value (any value is valid for the purge
    // delay; -1 means never), and may be called at any time from any thread.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

// The C library's `prctl` (Linux); declared here because `libc` is only a dev-dependency.
#[cfg(target_os = "linux")]
unsafe extern "C" {
    fn prctl(option: std::ffi::c_int, ...) -> std::ffi::c_int;
}

/// `PR_SET_THP_DISABLE` of `<linux/prctl.h>`.
#[cfg(target_os = "linux")]
const PR_SET_THP_DISABLE: std::ffi::c_int = 41;

/// Asks Linux to back this process's memory with 4 KiB pages, not transparent huge pages (what
/// `MIMALLOC_ALLOW_THP=0` does; that variable, when set, is left to decide). The explicit
/// builder's tables grow into fresh memory, and on the 2-core VMs this project is measured on,
/// faulting in a 2 MiB page costs about 3 ms (the kernel zeroing it was a quarter of the samples
/// of NuSMV's gas-nq7 under `--engine explicit -j 1`): gas-nq7 explicit 5.43–5.58 → 4.47–4.88
/// CPU s (`-j 1`), avroraCFG all specs `-j 2` 10.58–11.19 → 9.65–10.31, abp8 (BDDs)
/// 2.03–2.70 → 1.95–2.30, prod-cons and gas-nq7 under `--engine bdd` within their spread; peak
/// memory 5–40 % lower. Fails silently where the kernel lacks the option: nothing depends on it.
/// Called first thing in `main`, for every command: the memory touched before it may be huge
/// pages (mimalloc, built with `no_thp`, does not ask for them, but a host whose THP setting is
/// `always` gives them unasked).
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none() {
        // SAFETY: `PR_SET_THP_DISABLE` takes one integer argument and only sets a flag of the
        // process (the remaining arguments must be zero); it touches no memory of ours.
        unsafe {
            prctl(PR_SET_THP_DISABLE, 1 as std::ffi::c_ulong, 0 as std::ffi::c_ulong, 0 as std::ffi::c_ulong, 0 as std::ffi::c_ulong);
        }
    }
}

/// oxidd's BDD worker threads reserve a stack of 1 GiB each (`OXIDD_STACK_SIZE`, read when a
/// manager is created). Under an address-space limit (`ulimit -v` below about 3 GB) that
/// reservation failed and oxidd panicked ("could not build thread pool"). With a limit, and the
/// variable unset, the stacks are a 64th of the limit, between 8 MiB (the main thread's usual
/// stack, which runs the same recursions) and 1 GiB.
fn bounded_bdd_worker_stacks() {
    if std::env::var_os("OXIDD_STACK_SIZE").is_some() {
        return;
    }
    if let Some(limit) = xmv_rs::explicit::budget::process_memory_limit() {
        let size = (limit / 64).clamp(8 << 20, 1 << 30);
        // SAFETY: called first thing in `main`, before any thread exists, so nothing reads or
        // writes the environment at the same time.
        unsafe { std::env::set_var("OXIDD_STACK_SIZE", size.to_string()) };
    }
}

#[derive(Parser, Debug)]
#[command(name = "xmv-rs", version, about = "Explicit-state CTL model checker for SMV models and recursive procedure modules")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check the specifications of an .smv file (like `NuSMV FILE`).
    Check(CheckArgs),
    /// Translate another tool's model into .smv.
    Import(ImportArgs),
    /// Language server for editors, on stdin/stdout (diagnostics, definition, hover, symbols).
    Lsp,
    /// List the specifications of an .smv file with NuSMV's indices (for `check -n IDX`).
    ListSpecs(ListSpecsArgs),
}

#[derive(clap::Args, Debug)]
struct ListSpecsArgs {
    /// The .smv file.
    file: PathBuf,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The .smv file.
    file: PathBuf,
    /// No counterexamples or witnesses (NuSMV's `-dcx` is accepted too).
    #[arg(long = "no-trace")]
    no_trace: bool,
    /// Also print witnesses of true existential specs of flat models (NuSMV prints none; procedure specs always get them)
    #[arg(long)]
    witnesses: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    format: FormatArg,
    /// Print the number of reachable states.
    #[arg(short = 'r')]
    reachable: bool,
    /// Stop with an error when more states (or procedure locations) are reachable.
    #[arg(long = "max-states", value_name = "N")]
    max_states: Option<u64>,
    /// Stop with an error when the state space needs more memory (512M, 4G, 1.5G or bytes;
    /// default: 80% of the available memory).
    #[arg(long = "max-memory", value_name = "SIZE", value_parser = xmv_rs::explicit::budget::parse_size)]
    max_memory: Option<u64>,
    /// No progress display on stderr (it is shown only on a terminal, for phases longer than 2 s).
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Engine: for flat models `auto` (explicit within a small first stage, else the explicit
    /// build and the BDD reachability take turns by counted work and the cheaper one is kept:
    /// the same choice on every run and -j; README, `--engine`), `explicit` or `bdd`; for procedure modules `summary` (used for `auto`, `explicit`, `bdd`),
    /// `incremental`, `global`, `eager` or `lazy`.
    #[arg(long, value_enum, default_value_t = Engine::Auto)]
    engine: Engine,
    /// BDD engine: dynamic variable reordering (sifting of each variable's bit group when the
    /// live BDD nodes have doubled since the last reordering, as NuSMV's `-dynamic`); verdicts
    /// and traces are the same with and without it.
    #[arg(long)]
    reorder: bool,
    /// BDD engine: how the transition parts are clustered and ordered for images, as NuSMV's
    /// `-thresh`/`-iwls95`/`-mono`: `sequential[:NODES]` (default, 5,000), `threshold[:NODES]`,
    /// `iwls95[:NODES]` (1,000 by default, NuSMV's) or `mono`; verdicts are the same with each.
    #[arg(long, value_name = "SCHEME")]
    clusters: Option<xmv_rs::symbolic::Partitioning>,
    /// Termination rule for procedure specs (overrides the file's `TERMINATION` directive).
    #[arg(long, value_enum)]
    termination: Option<TerminationArg>,
    /// Check only the spec with this index (NuSMV's `-n`: CTL specs first, then COMPUTE, LTL,
    /// INVARSPEC, PSL; see `xmv-rs list-specs`).
    #[arg(short = 'n', value_name = "IDX", conflicts_with = "property")]
    index: Option<usize>,
    /// Check only the spec declared with `NAME` (`SPEC NAME p := …`).
    #[arg(short = 'P', value_name = "NAME")]
    property: Option<String>,
    /// Print timings and checker counters to stderr.
    #[arg(long)]
    stats: bool,
    /// Re-check every procedure spec with an engine of the other family (incremental/global vs
    /// eager/lazy) and every flat spec with the other flat engine (explicit vs bdd); a
    /// disagreement is an error (exit code 2).
    #[arg(long)]
    verify: bool,
    /// Check only the I-th of N deterministic slices of the specs (for array jobs; see the README).
    #[arg(long, value_name = "I/N", value_parser = xmv_rs::driver::shard::parse)]
    shard: Option<(usize, usize)>,
    /// Time each spec's check may take, in seconds (decimals allowed: 0.5); a spec that runs out
    /// is reported as unknown and the others are checked. Exit code 3 when no spec is false and
    /// some spec is unknown.
    #[arg(long = "spec-timeout", value_name = "SECS", value_parser = xmv_rs::driver::timeout::parse_seconds)]
    spec_timeout: Option<std::time::Duration>,
}

#[derive(clap::Args, Debug)]
struct ImportArgs {
    /// Input format.
    #[arg(value_enum)]
    format: ImportFormat,
    /// The file to translate.
    input: PathBuf,
    /// CTL specifications to add (`.ctl` file).
    #[arg(long, value_name = "FILE")]
    ctl: Option<PathBuf>,
    /// Where to write the .smv file.
    #[arg(short = 'o', value_name = "OUT")]
    output: PathBuf,
    /// RSMCheck JSON: a call into an entry that is also an exit is stuck there (`stuck`,
    /// RSMCheck's semantics) or returns at once (`return`, the converted program's semantics).
    #[arg(long = "entry-exit", value_enum, default_value_t = EntryExitArg::Stuck)]
    entry_exit: EntryExitArg,
    /// Also define the labels that only name their own node (RSMCheck JSON labels every node
    /// with its name); by default only those a spec uses are written.
    #[arg(long = "node-labels")]
    node_labels: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EntryExitArg {
    Stuck,
    Return,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    /// NuSMV's verdict lines and traces; diagnostics rendered on stderr.
    Text,
    /// One JSON document: specs, verdicts, traces, diagnostics (docs/schema/check-output.schema.json).
    Json,
    /// SARIF 2.1.0: diagnostics and false specs as results, counterexamples as code flows.
    Sarif,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TerminationArg {
    Trap,
    Loop,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ImportFormat {
    /// RSMCheck JSON (`.rsm`)
    #[value(name = "rsm-json", alias = "rsm")]
    Rsm,
    /// PuMoC pushdown systems (`.pds`)
    Pds,
    /// PDSolver (`.pdmu`)
    Pdmu,
}

fn main() {
    no_transparent_huge_pages();
    bounded_bdd_worker_stacks();
    // Run as `NuSMV` (a symlink or copy) or with NuSMV's argument shape: NuSMV 2.5.4's command line.
    let raw: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    if xmv_rs::nusmv_mode::wanted(&raw) {
        std::process::exit(xmv_rs::nusmv_mode::main(&raw));
    }
    // NuSMV's `-dcx` is one flag; clap would read it as `-d -c -x`.
    let args = std::env::args_os().map(|a| if a == "-dcx" { "--no-trace".into() } else { a });
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            std::process::exit(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let code = match cli.command {
        Command::Check(args) => check(args),
        Command::Import(args) => import(args),
        Command::Lsp => xmv_rs::lsp::run_stdio(),
        Command::ListSpecs(args) => list_specs(&args.file),
    };
    std::process::exit(code);
}

fn check(args: CheckArgs) -> i32 {
    // One run, then exit: the OS frees the models faster than `drop` would.
    xmv_rs::frontend::leak_at_exit(true);
    keep_freed_memory();
    xmv_rs::progress::enable(!args.quiet && std::io::stderr().is_terminal());
    if let Some(n) = args.jobs {
        xmv_rs::par::set_threads(n); // the front end's workers too
    }
    let file = match SourceFile::read(&args.file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if let Some(p) = args.clusters {
        xmv_rs::symbolic::set_partitioning(p);
    }
    if args.reorder {
        xmv_rs::symbolic::reorder::set_dynamic_reordering(Some(xmv_rs::symbolic::reorder::FIRST_REORDER));
    }
    let options = CheckOptions {
        format: match args.format {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
            FormatArg::Sarif => Format::Sarif,
        },
        traces: !args.no_trace,
        witnesses: args.witnesses,
        reachable: args.reachable,
        max_states: args.max_states,
        max_memory: Some(args.max_memory.unwrap_or_else(xmv_rs::explicit::budget::default_limit)),
        threads: args.jobs.unwrap_or(0),
        engine: args.engine,
        termination: args.termination.map(|t| match t {
            TerminationArg::Trap => TerminationRule::Trap,
            TerminationArg::Loop => TerminationRule::Loop,
        }),
        stats: args.stats,
        verify: args.verify,
        selection: match (args.index, args.property) {
            (Some(i), _) => xmv_rs::properties::Selection::Index(i),
            (None, Some(name)) => xmv_rs::properties::Selection::Name(name),
            (None, None) => xmv_rs::properties::Selection::All,
        },
        shard: args.shard,
        spec_timeout: args.spec_timeout,
    };
    let out = driver::run_check(&file, &options, &driver::stages::Stages::linked());
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    out.exit_code
}

fn import(args: ImportArgs) -> i32 {
    let format = match args.format {
        ImportFormat::Rsm => xmv_rs::import::ImportFormat::RsmJson,
        ImportFormat::Pds => xmv_rs::import::ImportFormat::Pds,
        ImportFormat::Pdmu => xmv_rs::import::ImportFormat::Pdmu,
    };
    let entry_exit = match args.entry_exit {
        EntryExitArg::Stuck => xmv_rs::import::procedures::EntryExit::Stuck,
        EntryExitArg::Return => xmv_rs::import::procedures::EntryExit::Return,
    };
    let options = xmv_rs::import::ImportOptions { entry_exit, node_labels: args.node_labels };
    xmv_rs::import::cli::run(format, &args.input, args.ctl.as_deref(), &args.output, &options, &mut std::io::stderr())
}

/// `xmv-rs list-specs FILE`: exit code 0, or 2 when the file has errors.
fn list_specs(path: &std::path::Path) -> i32 {
    let file = match SourceFile::read(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let (program, diags) = xmv_rs::frontend::load(&file, None);
    match program {
        Some(program) if !diags.has_errors() => {
            print!("{}", xmv_rs::properties::listing(&xmv_rs::properties::property_list(&file, &program, &diags)));
            0
        }
        _ => {
            eprint!("{}", diags.render(&file));
            2
        }
    }
}
