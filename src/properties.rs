//! NuSMV's property list: every specification of a file numbered as NuSMV 2.5.4 numbers them
//! (`NuSMV -lp`, `-n IDX`, `check_property -n IDX`), and the selection of specs by index or name
//! (`xmv-rs check -n IDX` / `-P NAME`, `xmv-rs list-specs`).
//!
//! NuSMV's property database holds the properties grouped by type, in this order: CTL, COMPUTE,
//! LTL, PSL, INVAR (NuSMV 2.5.4's `show_property` on a file declaring them in another order);
//! within a type, in the order of the flattened model (the order of
//! `LoweredProgram::specs`). Procedure-module specs (an xmv-rs extension) follow the flat CTL specs.
//!
//! Assumes the front end's contract for the specs it does not check: each COMPUTE and PSLSPEC
//! it meets (once per instance) is dropped with one `W0001` warning whose primary span is
//! the spec's keyword. Those specs are listed too (so that the numbers of the others are NuSMV's),
//! marked as not checked ([`Property::spec`] is `None`), with the name or text the warning gives.

use crate::diagnostics::Diagnostics;
use crate::ir::SpecKind;
use crate::lowering::program::LoweredProgram;
use crate::source::SourceFile;

/// The code of the front end's "spec kind not supported, skipped" warning.
pub(crate) const SKIPPED: &str = "W0001";

/// One entry of the property list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// NuSMV's index (from 0).
    pub index: usize,
    pub kind: SpecKind,
    pub name: Option<String>,
    /// The formula as NuSMV prints it (for specs xmv-rs does not check: as the warning names it).
    pub text: String,
    /// Index into `LoweredProgram::specs`; `None` for a spec xmv-rs does not check.
    pub spec: Option<usize>,
}

/// The rank of a kind in NuSMV's property database (its numbering), which is also the order in
/// which batch mode checks and prints the kinds: CTL, COMPUTE, LTL, PSL, INVAR.
pub(crate) fn group(kind: SpecKind) -> u8 {
    match kind {
        SpecKind::Ctl => 0,
        SpecKind::Compute => 1,
        SpecKind::Ltl => 2,
        SpecKind::Psl => 3,
        SpecKind::Invar => 4,
    }
}

/// The property list of a loaded program; `diags` are the diagnostics of loading it.
pub fn property_list(file: &SourceFile, program: &LoweredProgram, diags: &Diagnostics) -> Vec<Property> {
    let mut all: Vec<Property> = program
        .specs
        .iter()
        .enumerate()
        .map(|(i, s)| Property { index: 0, kind: s.kind, name: qualified(s.name.as_deref(), &s.text), text: s.text.clone(), spec: Some(i) })
        .collect();
    for d in diags.items.iter().filter(|d| d.code == SKIPPED) {
        let keyword = file.slice(d.primary_span());
        let kind = match keyword {
            "LTLSPEC" => SpecKind::Ltl,
            "PSLSPEC" => SpecKind::Psl,
            "COMPUTE" => SpecKind::Compute,
            _ => continue,
        };
        // The warning reads "KEYWORD `name or text` is not supported …".
        let quoted = d.message.split('`').nth(1).map(str::to_string);
        // A named spec (`LTLSPEC NAME n := …`) is warned about by its name.
        let after = file.text.get(d.primary_span().end as usize..).unwrap_or("");
        let named = after.trim_start().strip_prefix("NAME").is_some_and(|r| r.starts_with(|c: char| c.is_whitespace()));
        let (name, text) = match quoted {
            Some(q) if named => (Some(q.clone()), q),
            Some(q) => (None, q),
            None => (None, keyword.to_string()),
        };
        all.push(Property { index: 0, kind, name, text, spec: None });
    }
    // Stable: keeps the flattened order within a kind.
    all.sort_by_key(|p| group(p.kind));
    for (i, p) in all.iter_mut().enumerate() {
        p.index = i;
    }
    all
}

/// A spec's name as NuSMV gives it: prefixed with the instance path of a spec declared in a
/// module instance (`c.live` for `SPEC NAME live := …` in instance `c`; the text ends in `IN c`).
fn qualified(name: Option<&str>, text: &str) -> Option<String> {
    let name = name?;
    Some(match text.rsplit_once(" IN ") {
        Some((_, path)) => format!("{path}.{name}"),
        None => name.to_string(),
    })
}

/// Which specs a run checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// Every spec (the default).
    #[default]
    All,
    /// NuSMV's `-n IDX`.
    Index(usize),
    /// `-P NAME`: the spec declared with `NAME`.
    Name(String),
}

/// The indices into `LoweredProgram::specs` that `selection` picks, or a message saying why
/// it picks nothing checkable.
pub(crate) fn select(properties: &[Property], selection: &Selection) -> Result<Option<Vec<usize>>, String> {
    let property = match selection {
        Selection::All => return Ok(None),
        Selection::Index(i) => match properties.get(*i) {
            Some(p) => p,
            None if properties.is_empty() => return Err(format!("property index \"{i}\" is not valid (the model has no properties)")),
            None => return Err(format!("property index \"{i}\" is not valid (must be in the range [0,{}])", properties.len() - 1)),
        },
        Selection::Name(n) => match properties.iter().find(|p| p.name.as_deref() == Some(n.as_str())) {
            Some(p) => p,
            None => {
                let names: Vec<&str> = properties.iter().filter_map(|p| p.name.as_deref()).collect();
                let known =
                    if names.is_empty() { "the model names none of its properties".to_string() } else { format!("named properties: {}", names.join(", ")) };
                return Err(format!("no property is named `{n}` ({known})"));
            }
        },
    };
    match property.spec {
        Some(s) => Ok(Some(vec![s])),
        None => Err(format!(
            "property {} ({} {}) is not checked: xmv-rs does not check {} specs yet",
            property.index,
            kind_keyword(property.kind),
            property.text,
            kind_keyword(property.kind)
        )),
    }
}

/// The keyword that declares a spec of `kind`.
pub(crate) fn kind_keyword(kind: SpecKind) -> &'static str {
    match kind {
        SpecKind::Ctl => "SPEC",
        SpecKind::Invar => "INVARSPEC",
        SpecKind::Ltl => "LTLSPEC",
        SpecKind::Psl => "PSLSPEC",
        SpecKind::Compute => "COMPUTE",
    }
}

/// NuSMV's type column of `-lp` / `show_property`.
pub(crate) fn nusmv_type(kind: SpecKind) -> &'static str {
    match kind {
        SpecKind::Ctl => "CTL",
        SpecKind::Invar => "Invar",
        SpecKind::Ltl => "LTL",
        SpecKind::Psl => "PSL",
        SpecKind::Compute => "Quantitative",
    }
}

/// The property list as `NuSMV -lp` and `show_property` print it; `statuses[i]` is property
/// `i`'s status column (`True`, `False`, a COMPUTE's number) and trace number once checked
/// (missing entries: unchecked).
pub(crate) fn nusmv_listing(properties: &[Property], statuses: &[Option<(String, Option<usize>)>]) -> String {
    let mut out = String::from("**** PROPERTY LIST [ Type, Status, Counter-example Number, Name ] ****\n");
    out.push_str("--------------------------  PROPERTY LIST  -------------------------\n");
    for p in properties {
        let (status, trace) = match statuses.get(p.index).cloned().flatten() {
            None => ("Unchecked".to_string(), None),
            Some(checked) => checked,
        };
        let trace = trace.map_or_else(|| "N/A".to_string(), |t| t.to_string());
        // NuSMV prints a space after the formula unless it ends in an instance context.
        let space = if p.text.contains(" IN ") { "" } else { " " };
        out.push_str(&format!("{:03} : {}{space}\n", p.index, p.text));
        out.push_str(&format!("  [{:<15}{:<15}{:<7}{}]\n", nusmv_type(p.kind), status, trace, p.name.as_deref().unwrap_or("N/A")));
    }
    out
}

/// Keeps only the specs `selection` picks in `program` (before its state space is built).
pub(crate) fn keep_selected(file: &SourceFile, program: &mut LoweredProgram, diags: &Diagnostics, selection: &Selection) -> Result<(), String> {
    if *selection == Selection::All {
        return Ok(());
    }
    let properties = property_list(file, program, diags);
    if let Some(ids) = select(&properties, selection)? {
        program.specs = ids.iter().filter_map(|&i| program.specs.get(i).cloned()).collect();
    }
    Ok(())
}

/// `xmv-rs list-specs`: one line per property: index, type, name, formula, and whether xmv-rs
/// checks it.
pub fn listing(properties: &[Property]) -> String {
    let mut out = String::new();
    for p in properties {
        let name = p.name.as_deref().unwrap_or("-");
        let note = if p.spec.is_none() { "  (not checked by xmv-rs)" } else { "" };
        out.push_str(&format!("{:>3}  {:<12} {:<16} {}{note}\n", p.index, nusmv_type(p.kind), name, p.text.trim_end()));
    }
    out
}
