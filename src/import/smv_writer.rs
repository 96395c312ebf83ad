//! Printing procedures as `.smv` text: one procedure module per (component, entry), a `pc`
//! enumeration of its locations and call states, `CALL`/`EXIT` sections, labels as `DEFINE`s,
//! `TERMINATION loop;`, and the specs in the initial module.
//!
//! Every exit location is a named exit (`EXIT` section, named by its `pc` value, so traces show
//! the source's node); callers of a module with several exits branch on `EXITED`. The header comment
//! says what the translation did (virtual locations, deadlocks, renamed identifiers, sizes).

use super::ImportFormat;
use super::ctl_file::{self, SpecSource};
use super::names::Namer;
use super::procedures::{LocKind, Procedure, Succ};
use super::rsm::Rsm;
use crate::source::Span;
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

pub(crate) struct SourceNames {
    pub model: String,
    pub ctl: Option<String>,
    pub format: ImportFormat,
}

/// Sizes of the source and of the translation (for reports and the evaluation table).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub components: usize,
    pub nodes: usize,
    pub boxes: usize,
    pub modules: usize,
    pub locations: usize,
    pub virtual_locations: usize,
    pub call_states: usize,
    pub deadlocks: usize,
    /// Modules whose entry is also an exit that, under RSMCheck's semantics, is never left.
    pub stuck_entries: usize,
    pub specs: usize,
    /// Node-name labels left out (no spec uses them).
    pub omitted_node_labels: usize,
}

/// Identifiers of one module.
struct ModuleNames {
    name: String,
    /// Per location: its `pc` value.
    locs: Vec<String>,
    calls: Vec<String>,
    single_exit: bool,
}

fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Labels of a location, as source label names.
fn loc_labels<'r>(rsm: &'r Rsm, p: &Procedure, kind: LocKind) -> &'r [String] {
    let comp = &rsm.components[p.component];
    match kind {
        LocKind::Node(n) | LocKind::SplitExit(n) => &comp.nodes[n].labels,
        LocKind::Return { call, exit } => &rsm.components[comp.boxes[p.calls[call].rbox].callee].nodes[exit].labels,
    }
}

/// Labels that only ever label nodes of their own name (RSMCheck's JSON labels every node with
/// its name): `pc = <name>` says the same, so they are written only when a spec uses them.
fn node_name_labels(rsm: &Rsm) -> FxHashSet<&str> {
    let mut only_own: FxHashMap<&str, bool> = FxHashMap::default();
    for comp in &rsm.components {
        for node in &comp.nodes {
            for lab in &node.labels {
                *only_own.entry(lab.as_str()).or_insert(true) &= *lab == node.name;
            }
        }
    }
    only_own.into_iter().filter(|&(_, own)| own).map(|(lab, _)| lab).collect()
}

/// Prints the procedures as `.smv` text. Node-name labels ([`node_name_labels`]) that no spec
/// uses are left out unless `node_labels` is set.
pub(crate) fn write(
    rsm: &Rsm,
    procs: &[Procedure],
    specs: &[SpecSource],
    source: &SourceNames,
    node_labels: bool,
) -> (String, Stats, Vec<(String, Span, bool)>) {
    let in_specs: FxHashSet<&str> = specs.iter().flat_map(|s| s.atoms.iter().map(|(a, _)| a.as_str())).collect();
    let mut omitted = if node_labels { FxHashSet::default() } else { node_name_labels(rsm) };
    omitted.retain(|lab| !in_specs.contains(lab));
    // Global namespace: labels (in order of first occurrence), spec atoms, then module names.
    let mut global = Namer::new();
    let mut label_ident: FxHashMap<&str, String> = FxHashMap::default();
    let mut label_order: Vec<&str> = Vec::new();
    for p in procs {
        for l in &p.locs {
            for lab in loc_labels(rsm, p, l.kind) {
                if !omitted.contains(lab.as_str()) && !label_ident.contains_key(lab.as_str()) {
                    label_ident.insert(lab, global.fresh(lab));
                    label_order.push(lab);
                }
            }
        }
    }
    let mut unknown_atoms: Vec<(String, Span, bool)> = Vec::new();
    let mut spec_atoms: Vec<&str> = Vec::new();
    for s in specs {
        for (a, span) in &s.atoms {
            if !label_ident.contains_key(a.as_str()) {
                label_ident.insert(a, global.fresh(a));
                unknown_atoms.push((a.clone(), *span, s.from_ctl_file));
            }
            if !spec_atoms.contains(&a.as_str()) {
                spec_atoms.push(a);
            }
        }
    }
    let mut per_component = vec![0usize; rsm.components.len()];
    for p in procs {
        per_component[p.component] += 1;
    }
    // Module names are their own namespace (only `CALL` targets name modules).
    let mut module_namer = Namer::new();
    let module_names: Vec<String> = procs
        .iter()
        .map(|p| {
            let comp = &rsm.components[p.component];
            let entry = &comp.nodes[p.entry].name;
            let src = if comp.name.is_empty() {
                entry.clone()
            } else if per_component[p.component] > 1 {
                format!("{}__{}", comp.name, entry)
            } else {
                comp.name.clone()
            };
            module_namer.fresh(&src)
        })
        .collect();
    let names: Vec<ModuleNames> = procs.iter().zip(&module_names).map(|(p, m)| module_idents(rsm, p, m.clone(), &global)).collect();

    let mut stats = Stats {
        components: rsm.components.len(),
        nodes: rsm.node_count(),
        boxes: rsm.box_count(),
        modules: procs.len(),
        specs: specs.len(),
        omitted_node_labels: omitted.len(),
        ..Stats::default()
    };
    let mut virtual_kinds = [0usize; 2];
    let mut deadlocks: Vec<String> = Vec::new();
    for (p, n) in procs.iter().zip(&names) {
        stats.locations += p.locs.len();
        stats.call_states += p.calls.len();
        for (i, l) in p.locs.iter().enumerate() {
            match l.kind {
                LocKind::Node(_) => {}
                LocKind::SplitExit(_) => virtual_kinds[0] += 1,
                LocKind::Return { .. } => virtual_kinds[1] += 1,
            }
            if p.is_deadlock(i) {
                deadlocks.push(format!("{}.{}", n.name, n.locs[i]));
            }
        }
    }
    stats.virtual_locations = virtual_kinds.iter().sum();
    let stuck_entries: Vec<String> = procs
        .iter()
        .zip(&names)
        .filter(|(p, _)| rsm.components[p.component].nodes[p.entry].is_exit && !p.locs.iter().any(|l| l.kind == LocKind::SplitExit(p.entry)))
        .map(|(_, n)| n.name.clone())
        .collect();
    stats.stuck_entries = stuck_entries.len();
    stats.deadlocks = deadlocks.len();

    let mut out = String::new();
    header(&mut out, rsm, source, &stats, &virtual_kinds, &deadlocks, &stuck_entries, &[&global, &module_namer]);
    out.push_str("TERMINATION loop;\n");
    for (i, p) in procs.iter().enumerate() {
        out.push('\n');
        module(&mut out, rsm, procs, &names, i, &label_ident, &label_order);
        if i == 0 {
            initial_module_specs(&mut out, rsm, p, specs, &spec_atoms, &label_ident);
        }
    }
    (out, stats, unknown_atoms)
}

fn module_idents(rsm: &Rsm, p: &Procedure, name: String, global: &Namer) -> ModuleNames {
    let comp = &rsm.components[p.component];
    let mut namer = Namer::new();
    let single_exit = p.exits.len() == 1;
    let mut locs = vec![String::new(); p.locs.len()];
    let mut calls = vec![String::new(); p.calls.len()];
    for (i, l) in p.locs.iter().enumerate() {
        if let LocKind::Node(n) = l.kind {
            locs[i] = namer.fresh_avoiding(&comp.nodes[n].name, Some(global));
        }
    }
    for (c, call) in p.calls.iter().enumerate() {
        let b = &comp.boxes[call.rbox];
        calls[c] = namer.fresh_avoiding(&format!("{}_{}", b.name, rsm.components[b.callee].nodes[call.entry].name), Some(global));
    }
    for (i, l) in p.locs.iter().enumerate() {
        if !locs[i].is_empty() {
            continue;
        }
        let src = match l.kind {
            LocKind::Node(_) => unreachable_name(),
            LocKind::SplitExit(n) => format!("{}_exit", comp.nodes[n].name),
            LocKind::Return { call, exit } => {
                format!("{}_ret_{}", calls[call], rsm.components[comp.boxes[p.calls[call].rbox].callee].nodes[exit].name)
            }
        };
        locs[i] = namer.fresh_avoiding(&src, Some(global));
    }
    ModuleNames { name, locs, calls, single_exit }
}

/// Node locations are all named in the first pass; this is never reached.
fn unreachable_name() -> String {
    "node".into()
}

#[allow(clippy::too_many_arguments)]
fn header(
    out: &mut String,
    rsm: &Rsm,
    source: &SourceNames,
    stats: &Stats,
    virtual_kinds: &[usize; 2],
    deadlocks: &[String],
    stuck_entries: &[String],
    namers: &[&Namer],
) {
    let _ = write!(out, "-- Imported by `xmv-rs import {}` from `{}` ({})", source.format.cli_name(), base_name(&source.model), rsm.format_name);
    match &source.ctl {
        Some(c) => {
            let _ = writeln!(out, ", CTL formulas from `{}`.", base_name(c));
        }
        None => out.push_str(".\n"),
    }
    let _ = writeln!(
        out,
        "-- Size: source {} components, {} nodes, {} boxes; output {} modules, {} locations ({} virtual), {} call states, {} specs.",
        stats.components, stats.nodes, stats.boxes, stats.modules, stats.locations, stats.virtual_locations, stats.call_states, stats.specs
    );
    let mut para = |text: &str| {
        out.push_str("--\n");
        wrap(out, text);
    };
    para(
        "Semantics: each module is one component of the source entered at one entry node (a component with several used entries becomes one module per entry; only what is reachable from the entry is kept). `pc` is the current node. A box's call node (b, en) is the call state `b_en`, which enters the callee's module at its entry: calls are transparent, so the configuration after the step is the callee's entry, as in RSMCheck's semantics, where the call node's successors are the entry's. The return node (b, ex) is the callee's exit ex: its successors are the call state's continuation, chosen by `EXITED` when the callee has several exits. Exits are named by their nodes (`EXIT` sections), so a trace shows the exit's node. Labels are DEFINEs and global across modules (a label a module does not define is false there). `TERMINATION loop`: an exit of the initial module reached with an empty call stack loops forever with its labels (RSMCheck's loop rule).",
    );
    for note in &rsm.notes {
        para(note);
    }
    if !stuck_entries.is_empty() {
        para(&format!(
            "Entries that are also exits ({}): {}. RSMCheck forbids this shape; under its semantics a call node's successors are the entry's successors inside the callee, so such a call never returns through that exit, and if the entry has no successors the run is stuck there (Dubslaff et al. 2024 digest, sections 2.3 and 4.4). This translation keeps that reading so that the verdicts are RSMCheck's: the entry is no exit, and without successors it is a deadlock (below). Everything behind such a call is unreachable. `xmv-rs import rsm-json --entry-exit return` reads such an entry as a procedure that returns at once instead (the semantics of the pushdown system the model was converted from).",
            stuck_entries.len(),
            stuck_entries.join(", ")
        ));
    }
    if virtual_kinds[0] > 0 {
        para(&format!(
            "Virtual exits ({}): an exit node that has outgoing edges (or, with `--entry-exit return`, that is also the module's entry) stays an ordinary location with an extra edge to a virtual exit location `<node>_exit` with the same labels, the exit. Only EX/AX formulas see the extra step.",
            virtual_kinds[0]
        ));
    }
    if virtual_kinds[1] > 0 {
        para(&format!(
            "Virtual return locations ({}): a call continues at exactly one location per exit of the callee, so a return node (b, ex) whose successors are not exactly one node (several, a call node, or none) is a location `<call>_ret_<ex>` of the caller with the labels of ex (as the RSM labels its return nodes) and the return node's successors. Only EX/AX formulas see the extra step. Without successors it is a deadlock (see below): RSMCheck's run is stuck at the exit ex there.",
            virtual_kinds[1]
        ));
    }
    if !deadlocks.is_empty() {
        const SHOWN: usize = 20;
        let mut list = deadlocks.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
        if deadlocks.len() > SHOWN {
            let _ = write!(list, " and {} more", deadlocks.len() - SHOWN);
        }
        para(&format!(
            "Deadlocks ({}), locations without successors: {list}. RSMCheck's EG treats such a node as looping on itself (Dubslaff et al. 2024, digest §2.18 item 4); here they loop (`TRUE : pc`), so EX/AX see that loop where RSMCheck's EX sees no successor.",
            deadlocks.len()
        ));
    }
    if stats.omitted_node_labels > 0 {
        para(&format!(
            "Node-name labels ({}): the source labels these nodes with their own names; no spec uses those labels, so they are not DEFINEd: `pc = <node>` says the same, and traces show each node by its name (`--node-labels` keeps them).",
            stats.omitted_node_labels
        ));
    }
    let mut ids = "Identifiers: each node is the `pc` value of its name; names that are not SMV identifiers get `_` for every other character (and `_` before a leading digit), and a name that is taken (a keyword, a label, another value of the module) gets the first free suffix `_2`, `_3`, …. Call states are `<box>_<entry>`; a trace state `[m1(pc = b_en) > m2]` is in module m2 called from call state b_en of module m1.".to_string();
    let unusual: Vec<String> = namers.iter().flat_map(|n| n.unusual_renames()).map(|(s, i)| format!("`{s}` is {i}")).collect();
    if !unusual.is_empty() {
        let _ = write!(ids, " Labels and modules renamed: {}.", unusual.join(", "));
    }
    para(&ids);
}

/// Writes `text` as `-- ` comment lines of at most 100 characters.
fn wrap(out: &mut String, text: &str) {
    let mut line = String::from("--");
    for word in text.split(' ') {
        if line.len() + 1 + word.len() > 100 && line.len() > 2 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("--");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
}

fn set(values: &[&str]) -> String {
    match values {
        [one] => one.to_string(),
        _ => format!("{{{}}}", values.join(", ")),
    }
}

fn pc_is(values: &[&str]) -> String {
    match values {
        [one] => format!("pc = {one}"),
        _ => format!("pc in {{{}}}", values.join(", ")),
    }
}

fn module(out: &mut String, rsm: &Rsm, procs: &[Procedure], names: &[ModuleNames], i: usize, label_ident: &FxHashMap<&str, String>, label_order: &[&str]) {
    let p = &procs[i];
    let n = &names[i];
    let comp = &rsm.components[p.component];
    let entry_name = &comp.nodes[p.entry].name;
    let mut comment = if comp.name.is_empty() {
        format!("Procedure entered at `{entry_name}`")
    } else {
        format!("Component `{}`, entered at node `{entry_name}`", comp.name)
    };
    if i == 0 {
        comment.push_str(" (the initial node)");
    }
    comment.push('.');
    let succ_val = |s: &Succ| -> &str {
        match *s {
            Succ::Loc(l) => &n.locs[l],
            Succ::Call(c) => &n.calls[c],
        }
    };
    if n.single_exit {
        let x = p.exits[0];
        let what = match p.locs[x].kind {
            LocKind::SplitExit(m) => format!("the virtual exit of node `{}`", comp.nodes[m].name),
            _ => format!("node `{}`", p.locs[x].exit_of.map_or("?", |m| comp.nodes[m].name.as_str())),
        };
        let _ = write!(comment, " Its only exit is {what}.");
    }
    if !p.calls.is_empty() {
        let calls: Vec<String> = p
            .calls
            .iter()
            .enumerate()
            .map(|(c, call)| {
                let b = &comp.boxes[call.rbox];
                format!(
                    "{} is box `{}` entering `{}` (module {})",
                    n.calls[c], b.name, rsm.components[b.callee].nodes[call.entry].name, names[call.callee].name
                )
            })
            .collect();
        let _ = write!(comment, " Call states: {}.", calls.join("; "));
    }
    wrap(out, &comment);
    let _ = writeln!(out, "MODULE {}", n.name);
    let values: Vec<&str> = n.locs.iter().chain(&n.calls).map(String::as_str).collect();
    let _ = writeln!(out, "VAR\n  pc : {{{}}};", values.join(", "));
    if !p.calls.is_empty() {
        out.push_str("CALL\n");
        let mut by_callee: Vec<(usize, Vec<&str>)> = Vec::new();
        for (c, call) in p.calls.iter().enumerate() {
            match by_callee.iter_mut().find(|(q, _)| *q == call.callee) {
                Some((_, v)) => v.push(&n.calls[c]),
                None => by_callee.push((call.callee, vec![&n.calls[c]])),
            }
        }
        for (q, cs) in by_callee {
            let _ = writeln!(out, "  {} := {};", names[q].name, pc_is(&cs));
        }
    }
    let _ = writeln!(out, "ASSIGN\n  init(pc) := {};\n  next(pc) := case", n.locs[0]);
    for (l, loc) in p.locs.iter().enumerate() {
        if loc.succ.is_empty() {
            continue;
        }
        let targets: Vec<&str> = loc.succ.iter().map(succ_val).collect();
        let _ = writeln!(out, "    pc = {} : {};", n.locs[l], set(&targets));
    }
    for (c, call) in p.calls.iter().enumerate() {
        let callee = &procs[call.callee];
        let cn = &names[call.callee];
        for (exit_node, succ) in &call.returns {
            let target = succ_val(succ);
            if cn.single_exit {
                let _ = writeln!(out, "    pc = {} : {target};", n.calls[c]);
            } else {
                let x = callee.exits.iter().find(|&&x| callee.locs[x].exit_of == Some(*exit_node)).copied().unwrap_or(0);
                let _ = writeln!(out, "    pc = {} & EXITED = {} : {target};", n.calls[c], cn.locs[x]);
            }
        }
    }
    out.push_str("    TRUE : pc;\n  esac;\n");
    if !p.exits.is_empty() {
        out.push_str("EXIT\n");
        for &x in &p.exits {
            let _ = writeln!(out, "  {0} := pc = {0};", n.locs[x]);
        }
    }
    // Labels: per label, the pc values of the locations carrying it.
    let mut holds: FxHashMap<&str, Vec<&str>> = FxHashMap::default();
    for (l, loc) in p.locs.iter().enumerate() {
        for lab in loc_labels(rsm, p, loc.kind) {
            holds.entry(lab.as_str()).or_default().push(&n.locs[l]);
        }
    }
    if !holds.is_empty() {
        out.push_str("DEFINE\n");
        for lab in label_order {
            if let Some(vals) = holds.get(lab) {
                let _ = writeln!(out, "  {} := {};", label_ident[lab], pc_is(vals));
            }
        }
    }
}

fn initial_module_specs(out: &mut String, rsm: &Rsm, p: &Procedure, specs: &[SpecSource], spec_atoms: &[&str], label_ident: &FxHashMap<&str, String>) {
    if specs.is_empty() {
        return;
    }
    let defined: Vec<&str> = p.locs.iter().flat_map(|l| loc_labels(rsm, p, l.kind)).map(String::as_str).collect();
    let missing: Vec<&&str> = spec_atoms.iter().filter(|a| !defined.contains(a)).collect();
    if !missing.is_empty() {
        out.push_str("-- Atoms of the specs that hold nowhere in this module:\nDEFINE\n");
        for a in missing {
            let _ = writeln!(out, "  {} := FALSE;", label_ident[*a]);
        }
    }
    for s in specs {
        for h in &s.heading {
            let _ = writeln!(out, "-- # {h}");
        }
        let _ = writeln!(out, "-- {}: {}", s.origin, s.text);
        let formula = ctl_file::to_smv(&s.formula, &|a| label_ident.get(a).cloned().unwrap_or_else(|| a.to_string()));
        let _ = writeln!(out, "SPEC {formula}");
    }
}
