//! The `xmv-rs` command line.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "xmv-rs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Translate another tool's model into .smv.
    Import(ImportArgs),
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            std::process::exit(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let Command::Import(args) = cli.command;
    std::process::exit(import(args));
}

fn import(args: ImportArgs) -> i32 {
    let format = match args.format {
        ImportFormat::Rsm => xmv_rs::import::ImportFormat::RsmJson,
        ImportFormat::Pds => xmv_rs::import::ImportFormat::Pds,
        ImportFormat::Pdmu => xmv_rs::import::ImportFormat::Pdmu,
    };
    xmv_rs::import::cli::run(format, &args.input, args.ctl.as_deref(), &args.output, &mut std::io::stderr())
}
