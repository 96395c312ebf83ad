//! Importers: other tools' model formats translated into `.smv` text.
//!
//! Every reader produces the intermediate [`rsm::Rsm`]; [`procedures::split`] turns it into one
//! procedure per used (component, entry) pair, and [`smv_writer`] prints those as procedure
//! modules with `CALL`/`EXIT` sections, `TERMINATION loop;` and the CTL specs of an optional
//! formula file ([`ctl_file`]). Readers: [`rsm_json`] (RSMCheck), [`pds`] (PuMoC) and [`pdmu`]
//! (PDSolver); the last two share the pushdown-to-RSM construction in [`pds_to_rsm`].

pub mod cli;
pub(crate) mod ctl_file;
pub(crate) mod json;
pub(crate) mod names;
pub(crate) mod pdmu;
pub(crate) mod pds;
pub(crate) mod pds_to_rsm;
pub mod procedures;
pub(crate) mod rsm;
pub(crate) mod rsm_json;
pub(crate) mod smv_writer;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::source::{SourceFile, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImportFormat {
    /// RSMCheck's JSON RSMs.
    RsmJson,
    /// PuMoC's pushdown systems.
    Pds,
    /// PDSolver's `.pdmu` pushdown systems.
    Pdmu,
}

impl ImportFormat {
    pub(crate) fn cli_name(self) -> &'static str {
        match self {
            ImportFormat::RsmJson => "rsm-json",
            ImportFormat::Pds => "pds",
            ImportFormat::Pdmu => "pdmu",
        }
    }
}

/// The translation and what it did.
#[derive(Clone, Debug)]
pub struct Imported {
    pub smv: String,
    /// Warnings about the input (never errors); each belongs to `input` unless `in_ctl` is set.
    pub warnings: Vec<(Diagnostic, bool)>,
    pub stats: smv_writer::Stats,
}

/// Where the diagnostics of a failed import belong.
#[derive(Clone, Debug)]
pub struct ImportError {
    pub diagnostics: Diagnostics,
    /// True if they are about the CTL file rather than the model.
    pub in_ctl: bool,
}

/// Choices the source formats leave open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Calls into an entry that is also an exit (RSMCheck JSON only; for pushdown systems such
    /// an entry is a procedure that pops at once, so it always returns).
    pub entry_exit: procedures::EntryExit,
    /// Also DEFINE the labels that only name their own node (RSMCheck's JSON labels every node
    /// with its name); by default only those a spec uses are written, so `pc` values keep the
    /// source's node names.
    pub node_labels: bool,
}

/// Translates `input` (in `format`) and the optional CTL file into `.smv` text, with the
/// default [`ImportOptions`] (RSMCheck's semantics).
pub fn import(format: ImportFormat, input: &SourceFile, ctl: Option<&SourceFile>) -> Result<Imported, ImportError> {
    import_with(format, input, ctl, &ImportOptions::default())
}

/// [`import`] with explicit options.
pub fn import_with(format: ImportFormat, input: &SourceFile, ctl: Option<&SourceFile>, options: &ImportOptions) -> Result<Imported, ImportError> {
    let model_err = |diagnostics| ImportError { diagnostics, in_ctl: false };
    let (rsm, extra_specs, mut warnings) = match format {
        ImportFormat::RsmJson => {
            let rsm = rsm_json::read(input).map_err(model_err)?;
            (rsm, Vec::new(), Vec::new())
        }
        ImportFormat::Pds => {
            let (pds, warnings) = pds::read(input).map_err(model_err)?;
            (pds_to_rsm::translate(&pds), Vec::new(), warnings)
        }
        ImportFormat::Pdmu => {
            let (pdmu, warnings) = pdmu::read(input).map_err(model_err)?;
            let specs = pdmu.usedef_specs();
            (pds_to_rsm::translate(&pdmu.pds), specs, warnings)
        }
    };
    let mut warnings: Vec<(Diagnostic, bool)> = warnings.drain(..).map(|w| (w, false)).collect();
    let mut specs = extra_specs;
    if let Some(ctl) = ctl {
        let parsed = ctl_file::read(ctl).map_err(|diagnostics| ImportError { diagnostics, in_ctl: true })?;
        specs.extend(parsed);
    }
    let entry_exit = if format == ImportFormat::RsmJson { options.entry_exit } else { procedures::EntryExit::Return };
    let procs = procedures::split(&rsm, entry_exit);
    let source = smv_writer::SourceNames { model: input.name.clone(), ctl: ctl.map(|c| c.name.clone()), format };
    let (smv, stats, unknown_atoms) = smv_writer::write(&rsm, &procs, &specs, &source, options.node_labels);
    // Generated specs (PDSolver def/use) name atoms that need not occur; only the user's count.
    const SHOWN: usize = 10;
    let unknown: Vec<(String, Span)> = unknown_atoms.into_iter().filter(|a| a.2).map(|(a, s, _)| (a, s)).collect();
    for (atom, span) in unknown.iter().take(SHOWN) {
        warnings.push((Diagnostic::warning("W0802", format!("`{atom}` is not a label of any reachable node; it is false everywhere"), *span), true));
    }
    if let Some((_, span)) = unknown.get(SHOWN) {
        let more = unknown.len() - SHOWN;
        warnings.push((
            Diagnostic::warning("W0802", format!("{more} more atoms of the CTL file are not labels of any reachable node"), *span)
                .with_note("they are false everywhere"),
            true,
        ));
    }
    Ok(Imported { smv, warnings, stats })
}
