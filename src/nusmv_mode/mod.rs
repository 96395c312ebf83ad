//! Drop-in mode: xmv-rs behaving as NuSMV 2.5.4's command line, for the tools that run the NuSMV
//! binary and read what it prints (pyboolnet, course scripts, exporters).
//!
//! [`wanted`] decides from the program name (`NuSMV`, `nusmv`, through a symlink or a copy) or
//! the argument shape (`xmv-rs [options] FILE.smv`, no subcommand); [`main`] then runs NuSMV's
//! batch sequence (`cinitBatchMain`: read, flatten, `-lp`, encode, `-ofm`, build, `-ctt`, the checks by
//! type or `-n`, `-r`), or `-source FILE` / `-int` with NuSMV's commands ([`commands`]).
//! Stdout carries a banner in NuSMV's shape (`*** ` lines and a blank line, naming xmv-rs), then
//! NuSMV's verdict and trace layout. Exit statuses are NuSMV's: 0 whenever the checks ran,
//! whatever the verdicts; 1 when the model cannot be read or built or `-n` names no property;
//! 255 for a command line NuSMV would refuse and for options xmv-rs refuses (SAT/BMC); 2 for `-h`.
//! xmv-rs's own departure: a spec of a kind it cannot check (PSLSPEC; LTLSPEC and COMPUTE of
//! procedure modules) is reported on stderr and makes the status 1 instead of being skipped
//! silently. Batch mode checks by kind in index order; the interactive `check_*` commands order
//! by cone of influence size as NuSMV does ([`coi`]).

pub(crate) mod args;
pub(crate) mod coi;
pub(crate) mod commands;
pub(crate) mod options;
pub(crate) mod range_error;
pub(crate) mod session;
pub(crate) mod shell;

use crate::ir::SpecKind;
use session::{Session, Which};
use std::io::Write;

/// The subcommands of xmv-rs's own command line: a first argument naming one is not NuSMV's shape.
const SUBCOMMANDS: &[&str] = &["check", "import", "list-specs", "help"];

/// Whether `args` (with the program name first) ask for NuSMV's command line.
pub fn wanted(args: &[String]) -> bool {
    let program = args.first().map(|p| std::path::Path::new(p).file_stem().and_then(|s| s.to_str()).unwrap_or("").to_ascii_lowercase()).unwrap_or_default();
    if program.starts_with("nusmv") {
        return true;
    }
    match args.get(1) {
        None => false,
        Some(first) if SUBCOMMANDS.contains(&first.as_str()) => false,
        Some(first) if first.starts_with('-') => options::lookup(first).is_some() && !matches!(first.as_str(), "-h" | "-help"),
        Some(first) => first.ends_with(".smv") || std::path::Path::new(first).is_file(),
    }
}

/// xmv-rs's banner in the shape of NuSMV's (`*** ` lines, then a blank line).
fn banner() -> String {
    format!(
        "*** This is xmv-rs {} in NuSMV 2.5.4 drop-in mode\n\
         *** Enabled addons are: none\n\
         *** xmv-rs is a model checker for the SMV language (explicit-state and BDD);\n\
         *** it reads NuSMV's command line and prints NuSMV's output layout.\n\
         *** Options and commands it supports: see its README, section \"Drop-in for NuSMV\".\n\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// Runs NuSMV's command line; returns the exit status.
pub fn main(args: &[String]) -> i32 {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    run(args, &mut out, &mut err, &mut input)
}

/// [`main`] with its streams given (tests).
pub(crate) fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write, input: &mut dyn std::io::BufRead) -> i32 {
    let program = args.first().map(String::as_str).unwrap_or("NuSMV");
    let cl = match options::parse(args.get(1..).unwrap_or(&[])) {
        Ok(cl) => cl,
        Err(options::Refusal(message)) => {
            let _ = writeln!(err, "{message}");
            return 255;
        }
    };
    if let Some(p) = cl.partitioning {
        crate::symbolic::trans::set_partitioning(p);
    }
    if cl.dynamic_reordering {
        crate::symbolic::reorder::set_dynamic_reordering(Some(crate::symbolic::reorder::FIRST_REORDER));
    }
    if cl.help {
        let _ = write!(err, "{}{}", banner(), options::usage(program));
        return 2;
    }
    if !cl.quiet {
        let _ = out.write_all(banner().as_bytes());
    }
    crate::frontend::leak_at_exit(true);
    let mut session = Session::new(out, err);
    for (name, value) in &cl.env {
        session.set(name, value);
    }
    if let Some(f) = &cl.input_file {
        session.set("input_file", f);
    }
    if let Some(script) = &cl.script {
        shell::source(&mut session, Some(script), 1);
        if !session.quit {
            shell::interactive(&mut session, input);
        }
        return 0;
    }
    if cl.interactive {
        shell::interactive(&mut session, input);
        return 0;
    }
    if cl.input_file.is_none() {
        let mut text = String::new();
        let _ = input.read_to_string(&mut text);
        session.stdin_model = Some(text);
    }
    batch(&mut session, cl.list_properties)
}

/// NuSMV's batch sequence (`cinitBatchMain`).
fn batch(session: &mut Session, list_properties: bool) -> i32 {
    if session.read_model(None) != 0 || session.flatten_hierarchy() != 0 {
        return 1;
    }
    if list_properties {
        return session.show_property();
    }
    if session.encode_variables() != 0 {
        return 1;
    }
    // NuSMV writes the flat model after `build_flat_model`, before the BDDs are built.
    if session.get("output_flatten_model_file").is_some() && session.write_flat_model(None, false) != 0 {
        return 1;
    }
    if session.build_model() != 0 {
        return 1;
    }
    // NuSMV refuses these two in batch mode together with -coi (it builds one FSM per property).
    let coi = session.flag("cone_of_influence");
    if session.flag("check_fsm") {
        if coi {
            let _ = writeln!(
                session.err,
                "WARNING: Check for totality of the transition relation cannot currently\nperformed in batch mode if the cone of influence reduction has been enabled."
            );
            return 1;
        }
        session.check_fsm();
    }
    match session.get("prop_no").and_then(|n| n.parse::<usize>().ok()) {
        Some(n) => {
            if session.check_in_file_order(Which::Any, Some(n)) != 0 && !session.unsupported_asked {
                return 1;
            }
        }
        None => {
            let kinds = [
                ("ignore_spec", SpecKind::Ctl),
                ("ignore_compute", SpecKind::Compute),
                ("ignore_ltlspec", SpecKind::Ltl),
                ("ignore_pslspec", SpecKind::Psl),
                ("ignore_invar", SpecKind::Invar),
            ];
            for (ignore, kind) in kinds {
                if !session.flag(ignore) {
                    session.check_in_file_order(Which::Kind(kind), None);
                }
            }
        }
    }
    if session.flag("print_reachable") {
        if coi {
            let _ = writeln!(
                session.err,
                "WARNING: Statistics of reachable states is not currently available\nin batch mode if cone of influence reduction has been enabled."
            );
            return 1;
        }
        session.print_reachable(false, false);
    }
    let _ = session.out.flush();
    if session.unsupported_asked { 1 } else { 0 }
}

#[cfg(test)]
mod tests;
