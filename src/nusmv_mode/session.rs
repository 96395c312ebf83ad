//! One NuSMV session: the state NuSMV's commands share (the input file, the model read, the
//! state space built, the traces recorded, the environment variables) and the commands
//! themselves, each returning NuSMV's command status (0 done, 1 failed).
//!
//! The model goes through the crate's own pipeline: `read_model` runs the front end,
//! `flatten_hierarchy` and `encode_variables` only mark progress (the front end flattens and the
//! explicit engine needs no encoding), `build_model` builds the state space (a flat model with
//! `--engine auto`'s choice, `driver::flat_engine`: explicit under its budget, BDDs past it), the `check_*`
//! commands run the checkers of [`crate::driver::stages::Stages::linked`] on the specs asked for.
//! `check_ctlspec -p F` / `check_invar -p F` check a formula that is not in the file: the model is
//! read again with `SPEC F` inserted at the top of `main`, and its state space rebuilt.
//! Verdicts and traces are printed as NuSMV prints them; traces are numbered across the session.

use super::args::Args;
use crate::driver::flat_engine::{self, FlatBuilt};
use crate::driver::stages::Stages;
use crate::driver::{CheckOptions, Format};
use crate::explicit::build_flat::BuildLimits;
use crate::explicit::build_rks::{RksModel, build_rks};
use crate::ir::SpecKind;
use crate::lowering::program::LoweredProgram;
use crate::properties::{Property, kind_keyword, nusmv_listing, property_list};
use crate::report::SpecReport;
use crate::report::text::{TraceStyle, trace_text_styled, verdict_line};
use crate::report::view::{ModelRef, TraceView, trace_view};
use crate::source::SourceFile;
use std::collections::BTreeMap;
use std::io::Write;

mod flat_model;
mod simulate;

/// A command's status, as NuSMV's commands return it.
pub(crate) type Status = i32;

/// The model read by `read_model`, with its property list.
struct Loaded {
    file: SourceFile,
    program: LoweredProgram,
    properties: Vec<Property>,
    /// Per property: its verdict once checked (NuSMV checks a property once) and its trace number.
    verdicts: Vec<Option<(crate::report::Verdict, Option<usize>)>>,
    /// The model has `process` instances or `ISA` (NuSMV then warns on flattening that its
    /// module hierarchy is not usable).
    processes_or_isa: bool,
}

/// The state spaces built by `build_model`.
struct Built {
    flat: Option<FlatBuilt>,
    rks: Option<RksModel>,
}

/// A counterexample kept for `show_traces`.
struct StoredTrace {
    view: TraceView,
    kind: SpecKind,
}

/// How far the model has gone through NuSMV's steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    None,
    Read,
    Flattened,
    Encoded,
    Built,
}

pub(crate) struct Session<'w> {
    pub out: &'w mut dyn Write,
    pub err: &'w mut dyn Write,
    env: BTreeMap<String, String>,
    stage: Stage,
    loaded: Option<Loaded>,
    built: Option<Built>,
    reachable_done: bool,
    traces: Vec<StoredTrace>,
    /// Set by `quit`.
    pub quit: bool,
    /// Specs of a kind xmv-rs cannot check were asked for: the batch run ends with status 1.
    pub unsupported_asked: bool,
    /// Batch mode without an input file: the model text read from stdin (NuSMV reads stdin too).
    pub stdin_model: Option<String>,
    /// The trace `pick_state` started (`simulate` extends it).
    sim: Option<simulate::Simulation>,
    /// The state of `pick_state -r`/`simulate -r`'s generator.
    rng: std::cell::Cell<u64>,
}

/// Which specs a `check_*` command covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    Kind(SpecKind),
    Any,
}

impl<'w> Session<'w> {
    pub(crate) fn new(out: &'w mut dyn Write, err: &'w mut dyn Write) -> Session<'w> {
        let mut env = BTreeMap::new();
        for (k, v) in [("counter_examples", "1"), ("verbose_level", "0"), ("forward_search", "1"), ("use_coi_size_sorting", "1")] {
            env.insert(k.to_string(), v.to_string());
        }
        Session {
            out,
            err,
            env,
            stage: Stage::None,
            loaded: None,
            built: None,
            reachable_done: false,
            traces: vec![],
            quit: false,
            unsupported_asked: false,
            stdin_model: None,
            sim: None,
            rng: std::cell::Cell::new(
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0x9e37_79b9_7f4a_7c15, |d| d.as_nanos() as u64) | 1,
            ),
        }
    }

    pub(crate) fn set(&mut self, name: &str, value: &str) {
        self.env.insert(name.to_string(), value.to_string());
    }
    pub(crate) fn unset(&mut self, name: &str) {
        self.env.remove(name);
    }
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.env.get(name).map(String::as_str)
    }
    /// A boolean variable: set to anything but `0`/`false`/`off`.
    pub(crate) fn flag(&self, name: &str) -> bool {
        self.get(name).is_some_and(|v| !matches!(v, "0" | "false" | "off" | "FALSE"))
    }
    /// The language options NuSMV's variables select: `use_ansi_c_div_op` off (`-old_div_op`)
    /// gives the old `/` and `mod`.
    pub(crate) fn language(&self) -> crate::semantics::LanguageOptions {
        let old_div_op = self.get("use_ansi_c_div_op").is_some_and(|v| matches!(v, "0" | "false" | "off" | "FALSE"));
        crate::semantics::LanguageOptions { old_div_op }
    }
    pub(crate) fn variables(&self) -> impl Iterator<Item = (&String, &String)> {
        self.env.iter()
    }

    /// A line on stderr that does not fail the command (NuSMV's warnings).
    pub(crate) fn warn(&mut self, message: &str) {
        let _ = writeln!(self.err, "{message}");
    }

    fn fail(&mut self, message: &str) -> Status {
        let _ = writeln!(self.err, "{message}");
        1
    }

    fn need(&mut self, stage: Stage) -> Result<(), Status> {
        if self.stage >= stage {
            return Ok(());
        }
        let message = match stage {
            Stage::None | Stage::Read => "A model must be read before. Use the \"read_model\" command.",
            _ if self.stage < Stage::Read => "A model must be read before. Use the \"read_model\" command.",
            Stage::Flattened => "The hierarchy must be flattened before. Use the \"flatten_hierarchy\" command.",
            Stage::Encoded => "The variables must be built before. Use the \"encode_variables\" command.",
            Stage::Built => "A model must be built before. Use the \"build_model\" command.",
        };
        Err(self.fail(message))
    }

    /// `reset`: forgets the model, its state space and the traces (the variables stay).
    pub(crate) fn reset(&mut self) -> Status {
        self.stage = Stage::None;
        self.loaded = None;
        self.built = None;
        self.reachable_done = false;
        self.traces.clear();
        self.sim = None;
        0
    }

    /// `read_model [-i FILE]`.
    pub(crate) fn read_model(&mut self, file: Option<&str>) -> Status {
        if let Some(f) = file {
            self.set("input_file", f);
        }
        if self.stage >= Stage::Read {
            let name = self.loaded.as_ref().map(|l| l.file.name.clone()).unwrap_or_default();
            return self.fail(&format!("A model appears to be already read from file: {name}."));
        }
        let file = match (self.get("input_file").map(str::to_string), self.stdin_model.take()) {
            (Some(path), _) => match SourceFile::read(std::path::Path::new(&path)) {
                Ok(f) => f,
                Err(e) => return self.fail(&format!("file {path}: line 1: cannot open input file {path} ({e})")),
            },
            (None, Some(text)) => SourceFile::new("stdin", text),
            (None, None) => return self.fail("Input file is (null). You must set the input file before."),
        };
        match load(file, self.language()) {
            Ok((loaded, warnings)) => {
                let _ = self.err.write_all(warnings.as_bytes());
                self.loaded = Some(loaded);
                self.stage = Stage::Read;
                0
            }
            Err(text) => {
                let _ = self.err.write_all(text.as_bytes());
                1
            }
        }
    }

    /// Whether the step from `before` to `after` may run now: the earlier steps are done and this
    /// one is not (NuSMV's message `done` otherwise).
    fn may_step(&mut self, before: Stage, after: Stage, done: &str) -> Result<(), Status> {
        self.need(before)?;
        if self.stage >= after {
            return Err(self.fail(done));
        }
        Ok(())
    }

    pub(crate) fn flatten_hierarchy(&mut self) -> Status {
        if let Err(s) = self.may_step(Stage::Read, Stage::Flattened, "The hierarchy has already been flattened.") {
            return s;
        }
        self.stage = Stage::Flattened;
        if self.loaded.as_ref().is_some_and(|l| l.processes_or_isa) {
            // NuSMV prints this on stdout when it flattens such a model.
            let _ = self.out.write_all(b"WARNING *** The model contains PROCESSes or ISAs. ***\nWARNING *** The HRC hierarchy will not be usable. ***\n");
        }
        0
    }

    pub(crate) fn encode_variables(&mut self) -> Status {
        if let Err(s) = self.may_step(Stage::Flattened, Stage::Encoded, "The variables appear to be already built.") {
            return s;
        }
        self.stage = Stage::Encoded;
        0
    }

    /// `build_model` (`build_flat_model` and `build_boolean_model` are no-ops after `encode_variables`).
    pub(crate) fn build_model(&mut self) -> Status {
        if let Err(s) = self.may_step(Stage::Encoded, Stage::Built, "A model appears to be already built from file.") {
            return s;
        }
        let Some(loaded) = &self.loaded else { return 1 };
        match build(loaded) {
            Ok((built, warnings)) => {
                let _ = self.err.write_all(warnings.as_bytes());
                self.built = Some(built);
                self.stage = Stage::Built;
                0
            }
            Err(text) => {
                let _ = self.err.write_all(text.as_bytes());
                1
            }
        }
    }

    /// `go`: read, flatten, encode and build, skipping the steps already done.
    pub(crate) fn go(&mut self) -> Status {
        for stage in [Stage::Read, Stage::Flattened, Stage::Encoded, Stage::Built] {
            if self.stage >= stage {
                continue;
            }
            let status = match stage {
                Stage::Read => self.read_model(None),
                Stage::Flattened => self.flatten_hierarchy(),
                Stage::Encoded => self.encode_variables(),
                _ => self.build_model(),
            };
            if status != 0 {
                return 1;
            }
        }
        0
    }

    /// `show_property` (and `-lp`): NuSMV's property list.
    pub(crate) fn show_property(&mut self) -> Status {
        if let Err(s) = self.need(Stage::Flattened) {
            return s;
        }
        let Some(loaded) = &self.loaded else { return 1 };
        let statuses: Vec<_> = loaded.verdicts.iter().map(|v| v.map(|(verdict, trace)| (status_column(verdict), trace))).collect();
        let text = nusmv_listing(&loaded.properties, &statuses);
        let _ = self.out.write_all(text.as_bytes());
        0
    }

    /// The property with NuSMV index `index`, checked against the command's kind.
    fn property(&mut self, index: usize, which: Which) -> Result<Property, Status> {
        let Some(loaded) = &self.loaded else { return Err(1) };
        let n = loaded.properties.len();
        let Some(p) = loaded.properties.get(index).cloned() else {
            let range = if n == 0 { "the model has no properties".to_string() } else { format!("must be in the range [0,{}]", n - 1) };
            return Err(self.fail(&format!("Error: property index \"{index}\" is not valid ({range}).")));
        };
        if let Which::Kind(k) = which
            && p.kind != k
        {
            return Err(self.fail(&format!("Error: property {index} is not of type {}", crate::properties::nusmv_type(k))));
        }
        Ok(p)
    }

    /// `check_ctlspec`, `check_invar`, `check_ltlspec`, `check_property`: with `index`, one
    /// property; with `formula`, a formula checked on the model; else every property of `which`.
    /// A `check_*` command: without `-n` and `-p`, the properties in NuSMV's interactive order
    /// (by cone of influence size while `use_coi_size_sorting` is set, as by default; see
    /// [`super::coi`]).
    pub(crate) fn check(&mut self, which: Which, index: Option<usize>, formula: Option<&str>) -> Status {
        let by_cone = self.flag("use_coi_size_sorting");
        self.check_ordered(which, index, formula, by_cone)
    }

    /// [`Session::check`] in batch mode's order: by kind (CTL, COMPUTE, LTL, PSL, INVAR), each in
    /// index order.
    pub(crate) fn check_in_file_order(&mut self, which: Which, index: Option<usize>) -> Status {
        self.check_ordered(which, index, None, false)
    }

    fn check_ordered(&mut self, which: Which, index: Option<usize>, formula: Option<&str>, by_cone: bool) -> Status {
        if let Err(s) = self.need(Stage::Built) {
            return s;
        }
        if let Some(f) = formula {
            return self.check_formula(which, f);
        }
        let props: Vec<Property> = match index {
            Some(i) => match self.property(i, which) {
                Ok(p) => vec![p],
                Err(s) => return s,
            },
            None => self
                .loaded
                .as_ref()
                .map(|l| l.properties.iter().filter(|p| which == Which::Any || which == Which::Kind(p.kind)).cloned().collect())
                .unwrap_or_default(),
        };
        let mut status = 0;
        // NuSMV checks by type, in the list's order (CTL, COMPUTE, LTL, PSL, INVAR).
        let rank = crate::properties::group;
        let mut order = props;
        match self.loaded.as_ref().filter(|_| by_cone) {
            Some(loaded) => {
                let cones = super::coi::cone_sizes(&loaded.program);
                order.sort_by_key(|p| (p.spec.map_or(0, |s| cones[s]), p.index));
            }
            None => order.sort_by_key(|p| (rank(p.kind), p.index)),
        }
        let mut checkable = vec![];
        let checked = |p: &Property| self.loaded.as_ref().is_some_and(|l| l.verdicts.get(p.index).is_some_and(Option::is_some));
        order.retain(|p| !checked(p));
        for p in &order {
            match p.spec {
                Some(s) => checkable.push(s),
                None => {
                    status = self.unsupported(p);
                }
            }
        }
        if !checkable.is_empty() && self.check_specs(&checkable) != 0 {
            status = 1;
        }
        status
    }

    fn unsupported(&mut self, p: &Property) -> Status {
        self.unsupported_asked = true;
        let what = match p.kind {
            SpecKind::Ltl => "this LTL property cannot be checked by xmv-rs",
            SpecKind::Psl => "this PSL property cannot be checked by xmv-rs",
            _ => "COMPUTE is not supported by xmv-rs",
        };
        let skip = match p.kind {
            SpecKind::Ltl => "-ils",
            SpecKind::Psl => "-ips",
            _ => "-ic",
        };
        let keyword = kind_keyword(p.kind);
        let spec = if p.text == keyword { keyword.to_string() } else { format!("{keyword} {}", p.text) };
        self.fail(&format!("xmv-rs: {what}: property {} ({spec}) was not checked (NuSMV option {skip} skips these)", p.index))
    }

    /// Checks `specs` (indices into the loaded program's specs) on the built model and prints
    /// verdicts and traces in the order given.
    fn check_specs(&mut self, specs: &[usize]) -> Status {
        let options = self.check_options();
        let (Some(loaded), Some(built)) = (&self.loaded, &mut self.built) else { return 1 };
        match check_on(loaded, built, specs, &options) {
            Ok(results) => self.print_results(results, false),
            Err(text) => {
                let _ = self.err.write_all(text.as_bytes());
                1
            }
        }
    }

    /// Prints verdicts and traces and records them: under the property that has the spec
    /// (`added`: a `-p` formula, appended to the property list as NuSMV does).
    fn print_results(&mut self, results: Vec<CheckResult>, added: bool) -> Status {
        for r in results {
            let _ = self.err.write_all(r.warnings.as_bytes());
            if let crate::report::Verdict::Distance(crate::ir::Distance::Undefined(empty)) = r.report.verdict {
                let which = if empty == crate::ir::ComputeOperand::From { "initial" } else { "final" };
                let _ = writeln!(self.err, "Warning: in COMPUTE {which} state is empty");
            }
            let _ = writeln!(self.out, "{}", verdict_line(&r.report));
            let mut trace_no = None;
            if let Some(view) = r.trace {
                let kind = r.report.kind;
                let n = self.traces.len() + 1;
                let _ = self.out.write_all(trace_text_styled(&view, n, kind, &TraceStyle::BATCH).as_bytes());
                self.traces.push(StoredTrace { view, kind });
                trace_no = Some(n);
            }
            let Some(loaded) = self.loaded.as_mut() else { continue };
            let verdict = Some((r.report.verdict, trace_no));
            if added {
                let index = loaded.properties.len();
                let (kind, text) = (r.report.kind, r.report.text.clone());
                loaded.properties.push(Property { index, kind, name: None, text, spec: None });
                loaded.verdicts.push(verdict);
            } else if let Some(p) = loaded.properties.iter().position(|p| p.spec == Some(r.spec)) {
                loaded.verdicts[p] = verdict;
            }
        }
        let _ = self.out.flush();
        0
    }

    /// `-p F`: the model read again with `SPEC F` (or `INVARSPEC F`) at the top of `main`.
    fn check_formula(&mut self, which: Which, formula: &str) -> Status {
        let keyword = match which {
            Which::Kind(SpecKind::Invar) => "INVARSPEC",
            Which::Kind(SpecKind::Ctl) => "SPEC",
            Which::Kind(SpecKind::Compute) => "COMPUTE",
            _ => return self.fail("xmv-rs: -p is supported by check_ctlspec, check_invar and compute"),
        };
        let Some(loaded) = &self.loaded else { return 1 };
        let text = &loaded.file.text;
        let Some(at) = main_body_start(text) else { return self.fail("xmv-rs: -p needs a `MODULE main` to add the formula to") };
        let insert = format!(" {keyword} {formula}\n");
        let new_text = format!("{}{insert}{}", &text[..at], &text[at..]);
        let file = SourceFile::new(loaded.file.name.clone(), new_text);
        let (program, diags) = crate::frontend::load_with(&file, None, self.language());
        let program = match program {
            Some(p) if !diags.has_errors() => p,
            _ => {
                let _ = self.err.write_all(diags.render(&file).as_bytes());
                return self.fail(&format!("ERROR: Property \"{formula}\" is not correct or not well typed."));
            }
        };
        let Some(spec) = program.specs.iter().position(|s| s.span.start as usize == at + 1) else {
            return self.fail(&format!("ERROR: Property \"{formula}\" is not correct or not well typed."));
        };
        let extra = Loaded { file, program, properties: vec![], verdicts: vec![], processes_or_isa: loaded.processes_or_isa };
        let mut built = match build(&extra) {
            Ok((b, _)) => b,
            Err(text) => {
                let _ = self.err.write_all(text.as_bytes());
                return 1;
            }
        };
        let options = self.check_options();
        match check_on(&extra, &mut built, &[spec], &options) {
            Ok(results) => self.print_results(results, true),
            Err(text) => {
                let _ = self.err.write_all(text.as_bytes());
                1
            }
        }
    }

    fn check_options(&self) -> CheckOptions {
        CheckOptions {
            format: Format::Text,
            traces: self.flag("counter_examples"),
            max_memory: Some(crate::explicit::budget::default_limit()),
            ..CheckOptions::default()
        }
    }

    /// `compute_reachable`.
    pub(crate) fn compute_reachable(&mut self) -> Status {
        if let Err(s) = self.need(Stage::Built) {
            return s;
        }
        if self.reachable_done {
            return 0;
        }
        self.reachable_done = true;
        let diameter = match (&self.loaded, self.built.as_ref().and_then(|b| b.flat.as_ref())) {
            (Some(loaded), Some(m)) => m.reachable(&loaded.program).0,
            _ => 0,
        };
        let _ = writeln!(self.err, "The computation of reachable states has been completed.\nThe diameter of the FSM is {diameter}.");
        0
    }

    /// `print_reachable_states [-v]` (and `-r`'s lines without the frame when `framed` is false).
    pub(crate) fn print_reachable(&mut self, states: bool, framed: bool) -> Status {
        if let Err(s) = self.need(Stage::Built) {
            return s;
        }
        let (Some(loaded), Some(built)) = (&self.loaded, &self.built) else { return 1 };
        let mut text = String::new();
        let frame = "######################################################################\n";
        if framed {
            text.push_str(frame);
        }
        if let Some(m) = &built.flat {
            let (diameter, count) = m.reachable(&loaded.program);
            text.push_str(&crate::driver::flat_reachable_text(&loaded.program, m.system(), diameter, count, false));
        }
        text.push_str(&crate::driver::reachable_text(&loaded.program, None, built.rks.as_ref()));
        match &built.flat {
            Some(FlatBuilt::Explicit(m)) if states => {
                // States that differ only in what NuSMV does not count (recorded step inputs,
                // monitors) are listed once.
                let system = &loaded.program.systems[m.system.index()];
                let mut seen = crate::explicit::kripke::CountedStates::new(crate::explicit::packed_table::Layout::counted(system), m.kripke.values.width());
                let mut listed = 0;
                for s in (0..m.kripke.num_states).map(crate::explicit::kripke::StateId::from_u32) {
                    if seen.is_new(&m.kripke.values, s) {
                        listed += 1;
                        text.push_str(&format!("------- State {listed:>4} ------\n"));
                        text.push_str(&state_lines(&loaded.program, m.system, &m.kripke.state_values(s), "  "));
                    }
                }
                text.push_str("-------------------------\n");
            }
            Some(FlatBuilt::Symbolic(m)) if states => {
                let message = format!(
                    "xmv-rs: print_reachable_states -v lists the states of explicit state spaces only; this one has {} states and was built with BDDs",
                    m.full_figures(&loaded.program.systems[m.system.index()]).1
                );
                return self.fail(&message);
            }
            _ => {}
        }
        if framed {
            text.push_str(frame);
        }
        let _ = self.out.write_all(text.as_bytes());
        0
    }

    /// `-ctt` / `check_fsm`: whether every reachable state has a successor.
    pub(crate) fn check_fsm(&mut self) -> Status {
        if let Err(s) = self.need(Stage::Built) {
            return s;
        }
        let (Some(loaded), Some(built)) = (&self.loaded, &self.built) else { return 1 };
        let Some(m) = &built.flat else { return 0 };
        let frame = "##########################################################\n";
        let mut text = format!("\n{frame}");
        let dead = match m {
            FlatBuilt::Explicit(m) => (0..m.kripke.num_states)
                .map(crate::explicit::kripke::StateId::from_u32)
                .find(|&s| m.kripke.succ.neighbours(s).is_empty())
                .map(|s| m.kripke.state_values(s).to_vec()),
            FlatBuilt::Symbolic(m) => match symbolic_deadlock(m) {
                Ok(dead) => dead,
                Err(e) => return self.fail(&format!("error: {e}")),
            },
        };
        match dead {
            None => text.push_str("The transition relation is total: No deadlock state exists\n"),
            Some(values) => {
                let state = state_lines(&loaded.program, m.system(), &values, "");
                text.push_str(&format!(
                    "The transition relation is not total. A state without\nsuccessors is:\n{state}The transition relation is not deadlock-free.\nA deadlock state is:\n{state}"
                ));
            }
        }
        text.push_str(frame);
        let _ = self.out.write_all(text.as_bytes());
        0
    }

    /// `show_traces [-v] [-a] [N]`.
    pub(crate) fn show_traces(&mut self, args: &Args) -> Status {
        if self.traces.is_empty() {
            // A message, but status 0 (as NuSMV).
            self.fail("There are no traces currently available.");
            return 0;
        }
        let verbose = args.flag('v');
        let which: Vec<usize> = if args.flag('a') {
            (1..=self.traces.len()).collect()
        } else {
            match args.positional.first() {
                None => vec![self.traces.len()],
                Some(n) => match n.parse::<usize>() {
                    Ok(n) if (1..=self.traces.len()).contains(&n) => vec![n],
                    _ => return self.fail(&format!("Error: \"{n}\" is not a valid trace number. Acceptable range is 1..{}.", self.traces.len())),
                },
            }
        };
        let style = if verbose { TraceStyle::SHOW_VERBOSE } else { TraceStyle::SHOW };
        for n in which {
            let t = &self.traces[n - 1];
            let _ = writeln!(self.out, "<!-- ################### Trace number: {n} ################### -->");
            let _ = self.out.write_all(trace_text_styled(&t.view, n, t.kind, &style).as_bytes());
        }
        0
    }
}

/// A reachable state of the BDD model without a successor, if any.
fn symbolic_deadlock(m: &crate::symbolic::SymbolicModel) -> Result<Option<Vec<u32>>, crate::symbolic::SymbolicError> {
    use oxidd::BooleanFunction;
    let live = m.trans.preimage(&m.enc, &m.enc.t())?;
    let dead = m.full_reach()?.0.and(&live.not()?)?;
    m.enc.pick_state(&dead)
}

/// `  name = value` lines of the state variables of a state (value indices per variable).
fn state_lines(program: &LoweredProgram, system: crate::lowering::program::SystemId, values: &[u32], indent: &str) -> String {
    let system = &program.systems[system.index()];
    let names = crate::explicit::names::Names::of(program);
    let mut out = String::new();
    for (i, v) in system.vars.iter().enumerate().filter(|&(i, _)| system.counts_in_state(crate::lowering::program::VarId::new(i))) {
        if let Some(&idx) = values.get(i) {
            out.push_str(&format!("{indent}{} = {}\n", v.name, names.var_value(v, idx)));
        }
    }
    out
}

/// The byte offset just after `MODULE main` (where a section may start), if the text has one.
fn main_body_start(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find("MODULE") {
        let at = from + i;
        let rest = &text[at + 6..];
        let trimmed = rest.trim_start();
        let boundary_before = at == 0 || !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        if boundary_before && rest.len() > trimmed.len() && trimmed.starts_with("main") {
            let after = &trimmed[4..];
            if !after.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '#' || c == '-') {
                return Some(text.len() - after.len());
            }
        }
        from = at + 6;
    }
    None
}

/// Lowers a file: the model, or the rendered diagnostics.
fn load(file: SourceFile, language: crate::semantics::LanguageOptions) -> Result<(Loaded, String), String> {
    let (program, diags) = crate::frontend::load_with(&file, None, language);
    // The specs xmv-rs skips (W0001) are reported when a command asks for them, not on reading.
    let mut shown = crate::diagnostics::Diagnostics::new();
    shown.extend(diags.items.iter().filter(|d| d.code != crate::properties::SKIPPED).cloned());
    let rendered = shown.render(&file);
    match program {
        Some(program) if !diags.has_errors() => {
            let properties = property_list(&file, &program, &diags);
            let verdicts = vec![None; properties.len()];
            let isa = diags.items.iter().any(|d| d.code == crate::syntax::isa::DEPRECATED);
            let processes = program.flat.is_some_and(|f| program.systems[f.index()].vars.iter().any(|v| v.name == crate::semantics::PROCESS_SELECTOR));
            Ok((Loaded { file, program, properties, verdicts, processes_or_isa: isa || processes }, rendered))
        }
        _ => Err(rendered),
    }
}

/// The explicit engine's state budget for flat models in NuSMV mode; past it the BDD engine
/// builds the model (`--engine auto`'s switch with a smaller budget than `xmv-rs check`'s
/// [`flat_engine::AUTO_MAX_STATES`]). NuSMV's clients expect NuSMV's time on large state spaces,
/// and the explicit engine pays 20–40 µs per state on the `TRANS`-constrained networks pyboolnet
/// writes: 2^18 states of `irons_yeast` (asynchronous, `INIT TRUE`) take 10 s explicitly, 1 s
/// with BDDs; 2^16 states cost at most a second or two before the switch.
pub(crate) const DROPIN_EXPLICIT_STATES: u64 = 1 << 16;

/// Builds the state spaces the loaded program needs.
fn build(loaded: &Loaded) -> Result<(Built, String), String> {
    let limits = BuildLimits { max_states: None, max_memory: Some(crate::explicit::budget::default_limit()), max_transitions: None };
    let program = &loaded.program;
    // NuSMV's static range check of assignments comes first, with NuSMV's message.
    if let Some(found) = crate::symbolic::assign_domain::check_nusmv(program) {
        return Err(super::range_error::message(&loaded.file, &found));
    }
    let flat_limits = BuildLimits { max_states: Some(DROPIN_EXPLICIT_STATES), ..limits };
    let flat = match program.flat {
        Some(_) => Some(flat_engine::build(program, &flat_limits, &CheckOptions::default()).map_err(|d| d.render(&loaded.file))?),
        None => None,
    };
    let rks = match program.systems.iter().any(|s| s.is_procedure) {
        true => Some(build_rks(program, &limits).map_err(|d| d.render(&loaded.file))?),
        false => None,
    };
    let mut warnings = String::new();
    for w in flat.iter().flat_map(|m| m.warnings()).chain(rks.iter().flat_map(|m| &m.warnings)) {
        warnings.push_str(&w.render(&loaded.file));
    }
    Ok((Built { flat, rks }, warnings))
}

/// What checking one spec gave.
struct CheckResult {
    /// Index into `LoweredProgram::specs`.
    spec: usize,
    /// Without its trace (that is `trace`).
    report: SpecReport,
    trace: Option<TraceView>,
    /// The checker's warnings, rendered.
    warnings: String,
}

/// NuSMV's status column of `show_property`: `True`, `False`, or a COMPUTE's number (`Infinite`,
/// `Undefined`); a spec left undecided is `Unchecked`.
fn status_column(verdict: crate::report::Verdict) -> String {
    use crate::ir::Distance;
    use crate::report::Verdict;
    match verdict {
        Verdict::True => "True".into(),
        Verdict::False => "False".into(),
        Verdict::Unknown(_) => "Unchecked".into(),
        Verdict::Distance(Distance::Steps(n)) => n.to_string(),
        Verdict::Distance(Distance::Infinity) => "Infinite".into(),
        Verdict::Distance(Distance::Undefined(_)) => "Undefined".into(),
    }
}

/// Checks `specs` with the linked checkers; one result per spec, in the order of `specs`.
/// `Err` is a message for stderr.
fn check_on(loaded: &Loaded, built: &mut Built, specs: &[usize], options: &CheckOptions) -> Result<Vec<CheckResult>, String> {
    let stages = Stages::linked();
    let program = &loaded.program;
    let mut outcomes = vec![None; program.specs.len()];
    let mut warnings = String::new();
    // Each model's specs are narrowed to the wanted ones for the check, then restored.
    let checked = match built.flat.as_mut() {
        Some(FlatBuilt::Explicit(m)) => {
            let wanted: Vec<_> = m.specs.iter().filter(|s| specs.contains(&s.spec)).cloned().collect();
            let all = std::mem::replace(&mut m.specs, wanted);
            let checked = if m.specs.is_empty() { None } else { Some((stages.check_flat)(m, options)) };
            let wanted = std::mem::replace(&mut m.specs, all);
            checked.map(|c| (wanted.iter().map(|s| s.spec).collect::<Vec<_>>(), c))
        }
        Some(FlatBuilt::Symbolic(m)) => {
            let wanted: Vec<_> = m.specs.iter().filter(|s| specs.contains(&s.spec)).cloned().collect();
            let all = std::mem::replace(&mut m.specs, wanted);
            let checked = if m.specs.is_empty() { None } else { Some((stages.check_symbolic)(m, options)) };
            let wanted = std::mem::replace(&mut m.specs, all);
            checked.map(|c| (wanted.iter().map(|s| s.spec).collect::<Vec<_>>(), c))
        }
        None => None,
    };
    if let Some((ids, checked)) = checked {
        let checked = checked.map_err(|e| format!("error: {e}\n"))?;
        for (&s, o) in ids.iter().zip(checked.outcomes) {
            outcomes[s] = Some(o);
        }
        for w in checked.warnings {
            warnings.push_str(&format!("warning: {w}\n"));
        }
    }
    if let Some(m) = built.rks.as_mut() {
        let wanted: Vec<_> = m.specs.iter().filter(|s| specs.contains(&s.spec)).cloned().collect();
        if !wanted.is_empty() {
            let all = std::mem::replace(&mut m.specs, wanted);
            let checked = (stages.check_rks)(m, options);
            let wanted = std::mem::replace(&mut m.specs, all);
            let checked = checked.map_err(|e| format!("error: {e}\n"))?;
            for (s, o) in wanted.iter().zip(checked.outcomes) {
                outcomes[s.spec] = Some(o);
            }
            for w in checked.warnings {
                warnings.push_str(&format!("warning: {w}\n"));
            }
        }
    }
    let mut results = vec![];
    for &i in specs {
        let Some(outcome) = outcomes[i].take() else { continue };
        let spec = &program.specs[i];
        let system = &program.systems[spec.system.index()];
        let model = if system.is_procedure { built.rks.as_ref().map(ModelRef::Rks) } else { built.flat.as_ref().map(FlatBuilt::model_ref) };
        let view = match (&outcome.trace, model) {
            (Some(t), Some(model)) if options.traces => Some(crate::report::view::TraceView { linear: spec.ltl.is_some(), ..trace_view(program, model, t) }),
            _ => None,
        };
        let report = SpecReport {
            kind: spec.kind,
            name: spec.name.clone(),
            text: spec.text.clone(),
            system_name: system.name.clone(),
            module: system.is_procedure.then(|| system.name.clone()),
            verdict: crate::report::Verdict::of_outcome(&outcome),
            trace: None,
            time_ms: 0.0,
            engine: None,
            span: spec.span,
        };
        results.push(CheckResult { spec: i, report, trace: view, warnings: std::mem::take(&mut warnings) });
    }
    Ok(results)
}
