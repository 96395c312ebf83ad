//! Witnesses of `E[ψ U χ]` (and `EF`, and the counterexamples of `AG`) built from per-pair
//! summaries (`check::rks::trace::until`):
//!
//! * a model on which the former configuration search found no trace: the witness must return
//!   into a second call of the same procedure with the same context (the search by
//!   (component, node, context) key skipped it), and a doubly recursive procedure makes the plain
//!   configuration search exceed its 200,000-configuration cap before reaching the witness's
//!   length;
//! * on seeded random RKSs, every finite `EF`/`EU`/`AG` trace is validated against K(R) and is
//!   a shortest one: a breadth-first search over configurations (values from the bounded
//!   unfolding and the context oracle, independent of the engines) finds no shorter witness.

mod rks_support;

use rks_support::contexts;
use rks_support::ctl_text::F;
use rks_support::oracle::{self, Config, Verdict};
use rks_support::random::{self, GenParams, Rng};
use rks_support::traces::{self, TraceStats};
use rustc_hash::FxHashMap;
use xmv_rs::check::rks::{RksEngine, RksOptions, check};
use xmv_rs::check::trace::{CallFrame, TraceStep};
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::rks::RecursiveKripkeStructure;
use xmv_rs::explicit::rks::{ComponentId, NodeId};
use xmv_rs::explicit::rks_builder::{parse_ctl, parse_rks};

/// `M` calls `F` twice with the same context (the goal is reachable after both calls), but only
/// the second call's return leads to `goal`, 46 steps after the start. `R`, also called from the
/// start (and returning to it), recurses through two call sites, so 2^d configurations lie d
/// steps away: the former search gave up on this model.
fn second_return_model(chain: usize) -> String {
    let cs: Vec<String> = (1..=chain).map(|i| format!("c{i}")).collect();
    format!(
        "props goal\n\
         sub M in m0\n loc m0 a1 {} b1{{goal}}\n call G->R A->F B->F\n \
         edge m0->G G->m0 m0->A A->a1 a1->{} {}->B B->b1 b1->b1\n\
         sub F in f0 out fx\n loc f0 fx\n edge f0->fx\n\
         sub R in r0 out rx\n loc r0 rx\n call r1->R r2->R\n edge r0->r1 r0->r2 r0->rx r1->rx r2->rx\n",
        cs.join(" "),
        cs.join("->"),
        cs.last().map_or("a1", |s| s.as_str()),
    )
}

#[test]
fn witness_returning_into_a_second_call_of_the_same_context_is_found() {
    let r = parse_rks(&second_return_model(40)).unwrap();
    for (spec, holds) in [("EF goal", true), ("AG !goal", false), ("E[TRUE U goal]", true)] {
        let f = parse_ctl(spec, &r).unwrap();
        for engine in [RksEngine::Incremental, RksEngine::Global, RksEngine::Summary] {
            let res = check(&r, ComponentId::new(0), &f, &RksOptions { engine, want_trace: true });
            assert_eq!(res.holds, holds, "{spec}");
            let t = res.trace.unwrap_or_else(|| panic!("{spec}: no trace"));
            // m0, F (from A): f0 fx, a1, c1..c40, F (from B): f0 fx, b1.
            assert_eq!(t.steps.len(), 1 + 2 + 1 + 40 + 2 + 1, "{spec}: a shortest witness");
            let (f_comp, m_comp) = (1, 0);
            let b = r.components[0].node_names.iter().position(|n| n == "B").unwrap() as u32;
            assert_eq!(t.steps[t.steps.len() - 3], TraceStep::at(ComponentId::new(f_comp), NodeId::ENTRY, vec![CallFrame { component: m_comp, call: b }]));
            let mut stats = TraceStats::default();
            let formula: F = f.clone();
            traces::validate(&r, 0, &formula, holds, &t, &mut stats).unwrap_or_else(|e| panic!("{spec}: {e}"));
        }
    }
}

const DEPTH: usize = 4;
const STATES: usize = 4000;
/// Configurations a breadth-first search for a shorter witness expands at most.
const BFS_BUDGET: usize = 3000;

/// The value of `f` at `conf`: the bounded unfolding, else the context oracle; `None` if neither decides.
fn value(rks: &RecursiveKripkeStructure, f: &F, conf: &Config) -> Option<bool> {
    match oracle::check_at(rks, conf.clone(), f, DEPTH, STATES).0 {
        Verdict::Holds => Some(true),
        Verdict::Fails => Some(false),
        Verdict::Unknown => match contexts::check_at(rks, f, conf) {
            Some(Ok(v)) => Some(v),
            _ => None,
        },
    }
}

/// `(ψ, χ)` of a spec whose trace is a finite run to `χ` through `ψ`.
fn until_shape(f: &F, holds: bool) -> Option<(F, F)> {
    let not = |f: &F| Ctl::Not(Box::new(f.clone()));
    match (f, holds) {
        (Ctl::EF(a), true) => Some((Ctl::True, (**a).clone())),
        (Ctl::AG(a), false) => Some((Ctl::True, not(a))),
        (Ctl::EU(a, b), true) => Some(((**a).clone(), (**b).clone())),
        _ => None,
    }
}

/// Whether a run of fewer than `steps` configurations from the initial one goes through `ψ` to
/// `χ`, among the configurations the budget reaches (`None`: the budget ran out first).
fn shorter_witness(rks: &RecursiveKripkeStructure, initial: u32, psi: &F, chi: &F, steps: usize) -> Option<bool> {
    let start = Config::At { stack: Vec::new(), comp: initial, node: 0 };
    let mut seen: FxHashMap<Config, ()> = FxHashMap::default();
    seen.insert(start.clone(), ());
    let mut level = vec![start];
    for _ in 0..steps - 1 {
        let mut next = Vec::new();
        for c in &level {
            if value(rks, chi, c) == Some(true) {
                return Some(true);
            }
            if value(rks, psi, c) != Some(true) {
                continue;
            }
            for s in oracle::successors(rks, c) {
                if seen.len() >= BFS_BUDGET {
                    return None;
                }
                if seen.insert(s.clone(), ()).is_none() {
                    next.push(s);
                }
            }
        }
        level = next;
    }
    Some(false)
}

#[test]
fn until_traces_are_shortest_on_random_rks() {
    let models = std::env::var("XMV_TEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(400usize);
    let mut rng = Rng::new(0x7ace_2012);
    let (mut checked, mut proven, mut stats) = (0, 0, TraceStats::default());
    for i in 0..models {
        let params = GenParams { recursive: i % 2 == 1, max_comps: 4, max_nodes: 6 };
        let model = random::model_with_exits(&mut rng, &params, 3);
        let initial = rng.range(0, model.comps.len() - 1) as u32;
        let formula = match rng.range(0, 2) {
            0 => Ctl::EF(Box::new(random::formula(&mut rng, model.props.len(), 3))),
            1 => Ctl::AG(Box::new(random::formula(&mut rng, model.props.len(), 3))),
            _ => Ctl::EU(Box::new(random::formula(&mut rng, model.props.len(), 2)), Box::new(random::formula(&mut rng, model.props.len(), 2))),
        };
        let rks = model.build();
        let res = check(&rks, ComponentId::from_u32(initial), &formula, &RksOptions { engine: RksEngine::Incremental, want_trace: true });
        let Some((psi, chi)) = until_shape(&formula, res.holds) else { continue };
        let t = res.trace.unwrap_or_else(|| panic!("model {i}: no trace for {formula:?}\n{}", model.to_builder_text()));
        traces::validate(&rks, initial, &formula, res.holds, &t, &mut stats).unwrap_or_else(|e| panic!("model {i}: {e}\n{}", model.to_builder_text()));
        checked += 1;
        match shorter_witness(&rks, initial, &psi, &chi, t.steps.len()) {
            Some(true) => panic!("model {i}: a witness shorter than {} steps exists for {formula:?}\n{}", t.steps.len(), model.to_builder_text()),
            Some(false) => proven += 1,
            None => {}
        }
    }
    eprintln!("until traces: {checked} validated, {proven} proven shortest by breadth-first search");
    assert!(checked >= models / 3 && proven >= checked / 2, "too few traces exercised: {checked} validated, {proven} proven shortest");
}

/// RTCTL on procedure modules (`specs/rtctl-procedures.smv`): the witnesses and counterexamples
/// of bounded operators cross calls and returns, run to the bound or to the first configuration
/// meeting the goal, and are the same with every procedure engine: `xmv-rs check` prints
/// `tests/rks_data/rtctl-procedures.out` exactly (`UPDATE_GOLDEN=1` rewrites it).
#[test]
fn rtctl_traces_on_procedure_modules_print_their_golden_output() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let golden = root.join("tests/rks_data/rtctl-procedures.out");
    for engine in ["summary", "incremental", "global", "eager", "lazy"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_xmv-rs"))
            .args(["check", "--engine", engine])
            .arg(root.join("specs/rtctl-procedures.smv"))
            .current_dir(&root)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{engine}: a false spec exits 1");
        let text = String::from_utf8(out.stdout).unwrap();
        if std::env::var_os("UPDATE_GOLDEN").is_some() && engine == "summary" {
            std::fs::write(&golden, &text).unwrap();
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_else(|_| panic!("{} is missing (UPDATE_GOLDEN=1 writes it)", golden.display()));
        assert_eq!(text, want, "{engine}: the output differs from {}", golden.display());
    }
}
