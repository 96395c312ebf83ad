//! Verdicts and counterexamples on the Java data-flow benchmarks (Dubslaff et al. 2024,
//! `../shared/bench/java`).
//!
//! Every def/use spec of avroraReg, avroraMedTest and avroraELF under both readings of the RSM
//! (RSMCheck's `stuck` and the pushdown system's `return`) gets the verdict counts the
//! incremental engine established (session 2), with the summary engine (the default); every
//! 16th spec is re-checked with the incremental engine.
//!
//! The false use-def spec of avroraReg, read under the pushdown system's reading
//! (`--entry-exit return`), gets a shortest counterexample that is a run of K(R) ending at a
//! definition from which no use is reachable; the imported model names its locations by the RSM
//! node names (no `_2` suffixes: node-name labels no spec uses are left out).
//!
//! On avroraCFG, the whole-program model (`avroraCFG-pds.zip`), 160 def/use specs solved in lane
//! batches get the verdicts of one-at-a-time checking.
//!
//! The models are read straight from the benchmark's zip archive (central directory plus raw
//! deflate via `miniz_oxide`), so the large files never enter the repository.

mod rks_support;

use rks_support::traces::{self, TraceStats};
use std::path::PathBuf;
use xmv_rs::check::rks::{self, RksEngine, RksOptions, check_many};
use xmv_rs::check::trace::TraceKind;
use xmv_rs::explicit::build_flat::BuildLimits;
use xmv_rs::explicit::build_rks::build_rks;
use xmv_rs::import::procedures::EntryExit;
use xmv_rs::import::{ImportFormat, ImportOptions, import_with};
use xmv_rs::source::SourceFile;

fn u16_at(b: &[u8], i: usize) -> usize {
    u16::from_le_bytes([b[i], b[i + 1]]) as usize
}
fn u32_at(b: &[u8], i: usize) -> usize {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]) as usize
}

/// The member `name` of a zip archive (stored or deflated), from its central directory.
fn zip_member(archive: &[u8], name: &str) -> Vec<u8> {
    let eocd = (0..archive.len().saturating_sub(21)).rev().find(|&i| u32_at(archive, i) == 0x0605_4b50).expect("end of central directory");
    let (count, mut at) = (u16_at(archive, eocd + 10), u32_at(archive, eocd + 16));
    for _ in 0..count {
        assert_eq!(u32_at(archive, at), 0x0201_4b50, "central directory entry");
        let (method, size) = (u16_at(archive, at + 10), u32_at(archive, at + 20));
        let (nlen, xlen, clen) = (u16_at(archive, at + 28), u16_at(archive, at + 30), u16_at(archive, at + 32));
        let local = u32_at(archive, at + 42);
        if &archive[at + 46..at + 46 + nlen] == name.as_bytes() {
            let data = local + 30 + u16_at(archive, local + 26) + u16_at(archive, local + 28);
            let raw = &archive[data..data + size];
            return match method {
                0 => raw.to_vec(),
                8 => miniz_oxide::inflate::decompress_to_vec(raw).expect("deflate data"),
                m => panic!("zip method {m} of {name}"),
            };
        }
        at += 46 + nlen + xlen + clen;
    }
    panic!("{name} is not in the archive")
}

fn java_model(model: &str, ctl: &str) -> (SourceFile, SourceFile) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../shared/bench/java/{model}.zip"));
    let archive = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let file = |name: &str| SourceFile::from_bytes(name.to_string(), &zip_member(&archive, name));
    (file(&format!("{model}.rsm")), file(ctl))
}

#[test]
fn avrora_reg_use_def_counterexample_is_a_shortest_run_named_by_rsm_nodes() {
    let (rsm, ctl) = java_model("avroraReg", "avroraReg_single_usedef.ctl");
    let options = ImportOptions { entry_exit: EntryExit::Return, ..ImportOptions::default() };
    let imported = import_with(ImportFormat::RsmJson, &rsm, Some(&ctl), &options).unwrap_or_else(|e| panic!("{}", e.diagnostics.render(&rsm)));
    assert!(imported.smv.contains("init(pc) := cpLinit00191;"), "the initial location is named by its RSM node");
    let smv = SourceFile::new("avroraReg.smv".to_string(), imported.smv);
    let (program, diags) = xmv_rs::frontend::load(&smv, None);
    let program = program.unwrap_or_else(|| panic!("{}", diags.render(&smv)));
    let model = build_rks(&program, &BuildLimits::default()).unwrap_or_else(|d| panic!("{d:?}"));
    let spec = &model.specs[0];
    let res = rks::check(&model.rks, spec.component, &spec.formula, &RksOptions { engine: RksEngine::Incremental, want_trace: true });
    assert!(!res.holds, "AG (def -> EF use) fails on avroraReg");
    let trace = res.trace.expect("a counterexample");
    let by_summary = rks::check(&model.rks, spec.component, &spec.formula, &RksOptions { engine: RksEngine::Summary, want_trace: true });
    assert_eq!(by_summary.trace.as_ref(), Some(&trace), "the summary engine's labels give the same shortest counterexample");
    assert!(trace.kind == TraceKind::Counterexample && trace.loop_start.is_none());
    assert_eq!(trace.steps.len(), 485, "the shortest run to a definition without a later use");
    let mut stats = TraceStats::default();
    traces::validate(&model.rks, spec.component.as_u32(), &spec.formula, false, &trace, &mut stats).unwrap_or_else(|e| panic!("{e}"));
    let Some(last) = trace.steps.last().filter(|s| !s.terminated) else { panic!("ends in a configuration") };
    let (component, node, stack) = (&last.component, &last.state, &last.stack);
    let comp = &model.rks.components[*component as usize];
    eprintln!(
        "avroraReg counterexample: {} steps, ends at {} {} (stack depth {}); {} facts checked, {} undecided",
        trace.steps.len(),
        comp.name,
        comp.node_names[*node as usize],
        stack.len(),
        stats.facts_checked,
        stats.facts_undecided
    );
    assert_eq!((comp.name.as_str(), comp.node_names[*node as usize].as_str(), stack.len()), ("component1378", "pc = cpDEFAULT_2068", 2));
    // The bounded oracles cannot decide `!EF use` on a model this size; the definition at least
    // is read off the labels.
    let def = model
        .rks
        .prop_names
        .iter()
        .position(|p| p == "def__avrora_sim_state_RegisterUtil_BitRangeView__avrora_sim_state_RegisterView_reg_")
        .expect("the def atom");
    assert!(comp.props[def].contains(*node as usize), "the counterexample ends at a definition");
}

/// The imported, built RKS of `model` with all its def/use specs under `reading`.
fn usedef_model(model: &str, reading: EntryExit) -> xmv_rs::explicit::build_rks::RksModel {
    let (rsm, ctl) = java_model(model, &format!("{model}_usedef.ctl"));
    let options = ImportOptions { entry_exit: reading, ..ImportOptions::default() };
    let imported = import_with(ImportFormat::RsmJson, &rsm, Some(&ctl), &options).unwrap_or_else(|e| panic!("{}", e.diagnostics.render(&rsm)));
    let smv = SourceFile::new(format!("{model}.smv"), imported.smv);
    let (program, diags) = xmv_rs::frontend::load(&smv, None);
    let program = program.unwrap_or_else(|| panic!("{}", diags.render(&smv)));
    build_rks(&program, &BuildLimits::default()).unwrap_or_else(|d| panic!("{d:?}"))
}

#[test]
fn all_use_def_specs_get_the_established_verdicts_under_both_readings() {
    // (model, reading, specs, true specs)
    let expected = [
        ("avroraReg", EntryExit::Stuck, 412, 403),
        ("avroraReg", EntryExit::Return, 412, 321),
        ("avroraMedTest", EntryExit::Stuck, 654, 644),
        ("avroraMedTest", EntryExit::Return, 654, 547),
        ("avroraELF", EntryExit::Stuck, 741, 739),
        ("avroraELF", EntryExit::Return, 741, 505),
    ];
    for (name, reading, specs, trues) in expected {
        let model = usedef_model(name, reading);
        let all: Vec<_> = model.specs.iter().map(|s| (s.component, s.formula.clone())).collect();
        let summary = check_many(&model.rks, &all, &RksOptions { engine: RksEngine::Summary, want_trace: false });
        let holds: Vec<bool> = summary.iter().map(|r| r.holds).collect();
        assert_eq!((all.len(), holds.iter().filter(|&&h| h).count()), (specs, trues), "{name} {reading:?}: (specs, true specs)");
        let sample: Vec<_> = all.iter().step_by(16).cloned().collect();
        let incremental = check_many(&model.rks, &sample, &RksOptions { engine: RksEngine::Incremental, want_trace: false });
        for (k, r) in incremental.iter().enumerate() {
            assert_eq!(r.holds, holds[16 * k], "{name} {reading:?} spec {}: incremental and summary disagree", 16 * k);
        }
    }
}

/// The first `count` variables with a `def__` atom in `text`, in order of first occurrence (as
/// `tools/usedef_ctl.py` finds them: `usedef__v` does not count as `def__v`).
fn def_variables(text: &str, count: usize) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.';
    let mut out: Vec<String> = Vec::new();
    for (at, _) in text.match_indices("def__") {
        if text[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &text[at + 5..];
        let name: String = rest.chars().take_while(|&c| word(c)).collect();
        if !name.is_empty() && !out.contains(&name) {
            out.push(name);
            if out.len() == count {
                break;
            }
        }
    }
    out
}

#[test]
fn avrora_cfg_lane_batches_agree_with_one_at_a_time_checking() {
    // The whole-program model (PuMoC .pds, 90,137 nodes): 160 def/use specs, two full lane
    // batches and a partial one; every tenth spec is checked again alone (no batching).
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/java/avroraCFG-pds.zip");
    let archive = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let pds_bytes = zip_member(&archive, "avroraCFG.pds");
    let vars = def_variables(&String::from_utf8_lossy(&pds_bytes), 160);
    assert_eq!(vars.len(), 160);
    let ctl_text: String = vars.iter().map(|v| format!("A G ( ( def__{v} | usedef__{v} ) --> E F ( use__{v} | usedef__{v} ) )\n")).collect();
    let pds = SourceFile::from_bytes("avroraCFG.pds".to_string(), &pds_bytes);
    let ctl = SourceFile::new("avroraCFG.ctl".to_string(), ctl_text);
    let imported = import_with(ImportFormat::Pds, &pds, Some(&ctl), &ImportOptions::default()).unwrap_or_else(|e| panic!("{}", e.diagnostics.render(&pds)));
    let smv = SourceFile::new("avroraCFG.smv".to_string(), imported.smv);
    let (program, diags) = xmv_rs::frontend::load(&smv, None);
    let program = program.unwrap_or_else(|| panic!("{}", diags.render(&smv)));
    let model = build_rks(&program, &BuildLimits::default()).unwrap_or_else(|d| panic!("{d:?}"));
    let all: Vec<_> = model.specs.iter().map(|s| (s.component, s.formula.clone())).collect();
    assert_eq!(all.len(), 160);
    let opts = RksOptions { engine: RksEngine::Summary, want_trace: false };
    let batched = check_many(&model.rks, &all, &opts);
    let trues = batched.iter().filter(|r| r.holds).count();
    for (k, (c, f)) in all.iter().enumerate().step_by(10) {
        let alone = rks::check(&model.rks, *c, f, &opts);
        assert_eq!(batched[k].holds, alone.holds, "avroraCFG spec {k} (def__{}): batched and one-at-a-time verdicts differ", vars[k]);
    }
    eprintln!("avroraCFG: {trues} of 160 def/use specs true");
    assert!(trues > 0 && trues < 160, "both verdicts occur among the first 160 specs");
}
