//! The exit masks solved with the transposed [`super::Held`] rows equal those solved by whole
//! exit words per location, frame by frame, on random dense recursive structures (every
//! component with predecessor rows, many calls with several continuations per exit: the paths
//! the grid's cells take), and so do the `base` sets and the verdicts. On the same structures:
//! frames without mask rows against frames with them, and `EG` bases by sweeps against the
//! successor counters; and groups calling components with more than 64 exits.

use super::super::entry_rows::MASK_ROWS_ONLY;
use super::super::{ModelIndex, Summary};
use super::{BY_LOCATION_ONLY, EG_SWEEPS};
use crate::check::rks::formula::Formula;
use crate::check::rks::initial_context;
use crate::ctl::Ctl;
use crate::explicit::rks::{ComponentId, RecursiveKripkeStructure};
use crate::explicit::rks_builder::RksBuilder;
use crate::ir::PropId;

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Two to four components of 6 to 40 nodes: a quarter calls (recursion allowed), one to four
/// exits, each location with an edge to about a third of the nodes, one to four continuations
/// per (call, exit).
fn dense_rks(rng: &mut Rng) -> RecursiveKripkeStructure {
    let mut b = RksBuilder::new();
    let comps = rng.range(2, 4);
    let name = |c: usize| format!("C{c}");
    let exits: Vec<usize> = (0..comps).map(|_| rng.range(1, 4)).collect();
    for c in 0..comps {
        let id = b.component(&name(c));
        let n = rng.range(6 + exits[c], 40);
        // Node 0 is the entry; nodes 1..=exits[c] are the exits; calls among the others.
        let call_to: Vec<Option<usize>> = (0..n).map(|v| (v > exits[c] && rng.chance(25)).then(|| rng.range(0, comps - 1))).collect();
        let node = |v: usize| format!("n{v}");
        for (v, target) in call_to.iter().enumerate() {
            match target {
                Some(t) => {
                    b.call(id, &node(v), &name(*t));
                }
                None => {
                    let labels: Vec<&str> = ["p", "q"].into_iter().filter(|_| rng.chance(45)).collect();
                    b.loc(id, &node(v), &labels);
                }
            }
        }
        for k in 0..exits[c] {
            b.exit(id, &format!("x{k}"), &node(1 + k));
        }
        let locs: Vec<usize> = (0..n).filter(|&v| call_to[v].is_none()).collect();
        for (v, target) in call_to.iter().enumerate() {
            match *target {
                Some(t) => {
                    for k in 0..exits[t] {
                        for _ in 0..rng.range(1, 4) {
                            let r = locs[rng.range(0, locs.len() - 1)];
                            b.ret(id, &node(v), &format!("x{k}"), &node(r));
                        }
                    }
                }
                None if (1..=exits[c]).contains(&v) => {}
                None => {
                    let mut any = false;
                    for w in 0..n {
                        if rng.chance(33) {
                            b.edge(id, &node(v), &node(w));
                            any = true;
                        }
                    }
                    if !any {
                        b.edge(id, &node(v), &node(rng.range(0, n - 1)));
                    }
                }
            }
        }
    }
    b.build().expect("a well-formed structure")
}

fn formula(rng: &mut Rng, props: usize, depth: usize) -> Ctl<PropId> {
    use Ctl::*;
    if depth == 0 || rng.chance(10) {
        return Atom(PropId::new(rng.range(0, props - 1)));
    }
    let sub = |rng: &mut Rng| Box::new(formula(rng, props, depth - 1));
    match rng.range(0, 9) {
        0 => Not(sub(rng)),
        1 => And(sub(rng), sub(rng)),
        2 => Or(sub(rng), sub(rng)),
        3 => EX(sub(rng)),
        4 | 5 => EU(sub(rng), sub(rng)),
        6 | 7 => EG(sub(rng)),
        8 => AU(sub(rng), sub(rng)),
        _ => AF(sub(rng)),
    }
}

/// Runs the summary engine on `f` at component 0 with the test switches `by_location` (masks by
/// whole exit words) and `mask_rows` (no lazy groups), then hands the verdict and the engine to
/// `read`.
fn with_solved<R>(rks: &RecursiveKripkeStructure, f: &Ctl<PropId>, by_location: bool, mask_rows: bool, read: impl FnOnce(bool, &Summary) -> R) -> R {
    BY_LOCATION_ONLY.with(|c| c.set(by_location));
    MASK_ROWS_ONLY.with(|c| c.set(mask_rows));
    let ix = ModelIndex::new(rks);
    let (fm, roots) = Formula::from_ctls(&[f]);
    let init = ComponentId::new(0);
    let mut s = Summary::new(rks, &fm, &ix);
    let holds = s.run_root(roots[0], init, &initial_context(rks, &fm, init, roots[0]));
    BY_LOCATION_ONLY.with(|c| c.set(false));
    MASK_ROWS_ONLY.with(|c| c.set(false));
    read(holds, &s)
}

/// Everything the summary engine solved for `f` at component 0: the verdict and, per frame in
/// creation order, its node, component, context, mask rows and `base`.
fn solve(rks: &RecursiveKripkeStructure, f: &Ctl<PropId>, by_location: bool) -> (bool, Vec<String>) {
    with_solved(rks, f, by_location, true, |holds, s| {
        let frames = s
            .frames
            .iter()
            .map(|fr| format!("{:?} {:?} {:?} {:?} {:?}", fr.f, fr.comp, fr.ctx, s.masks[fr.mask as usize], fr.base.ones().collect::<Vec<_>>()))
            .collect();
        (holds, frames)
    })
}

#[test]
fn held_rows_give_the_masks_of_whole_exit_words() {
    let mut rng = Rng(22);
    let (mut frames, mut with_rows) = (0, 0);
    for case in 0..150 {
        let rks = dense_rks(&mut rng);
        let ix = ModelIndex::new(&rks);
        with_rows += (0..rks.components.len()).filter(|&c| ix.pred_rows(ComponentId::new(c)).is_some()).count();
        for _ in 0..4 {
            let f = formula(&mut rng, rks.prop_names.len().max(1), 4);
            let reference = solve(&rks, &f, true);
            let held = solve(&rks, &f, false);
            assert_eq!(held, reference, "case {case}: {f:?}");
            frames += held.1.len();
        }
    }
    // The structures are dense and the formulas nest fixpoints: the rows and frames exist.
    assert!(with_rows > 300 && frames > 2000, "{with_rows} components with rows, {frames} frames");
}

/// Everything the summary engine computed for `f` at component 0, with or without mask rows:
/// the verdict, per frame in creation order its node, component, context, entry row and
/// `base`, and every vector (node, component, context, locations) in creation order.
fn solve_lazily(rks: &RecursiveKripkeStructure, f: &Ctl<PropId>, mask_rows: bool) -> (bool, Vec<String>, Vec<String>, usize) {
    with_solved(rks, f, false, mask_rows, |holds, s| {
        let frames = s.frames.indices().map(|id| {
            let fr = &s.frames[id];
            format!("{:?} {:?} {:?} {:?} {:?}", fr.f, fr.comp, fr.ctx, s.entry_row(id), fr.base.ones().collect::<Vec<_>>())
        });
        let mut vectors: Vec<(u32, String)> = s
            .vec_ids
            .iter()
            .map(|(&(g, c, ctx), &v)| (v, format!("{:?} {:?} {:?} {:?}", g, c, s.ctxs[ctx], s.vecs[v as usize].ones().collect::<Vec<_>>())))
            .collect();
        vectors.sort();
        let lazy = s.frames.iter().filter(|fr| fr.lazy).count();
        (holds, frames.collect(), vectors.into_iter().map(|(_, v)| v).collect(), lazy)
    })
}

#[test]
fn frames_without_mask_rows_give_the_vectors_of_mask_rows() {
    let mut rng = Rng(15);
    let (mut frames, mut lazy) = (0, 0);
    for case in 0..150 {
        let rks = dense_rks(&mut rng);
        for _ in 0..4 {
            let f = formula(&mut rng, rks.prop_names.len().max(1), 4);
            let (holds, fr, vecs, _) = solve_lazily(&rks, &f, true);
            let (holds_lazily, fr_lazily, vecs_lazily, n) = solve_lazily(&rks, &f, false);
            assert_eq!((holds_lazily, &fr_lazily), (holds, &fr), "case {case}: {f:?}");
            assert_eq!(vecs_lazily, vecs, "case {case}: {f:?}");
            frames += fr.len();
            lazy += n;
        }
    }
    // Most frames are in dense components, so most groups go without mask rows.
    assert!(frames > 2000 && lazy * 2 > frames, "{lazy} lazy of {frames} frames");
}

/// The verdict and every frame's `base` for `f`, with `sweeps` sweeps before the `EG` counters
/// (`Some(0)`: counters only), and how many groups the sweeps left to the counters.
fn eg_bases(rks: &RecursiveKripkeStructure, f: &Ctl<PropId>, sweeps: Option<usize>) -> ((bool, Vec<String>), usize) {
    EG_SWEEPS.with(|c| c.set((sweeps, 0)));
    let solved = with_solved(rks, f, false, false, |holds, s| {
        (holds, s.frames.iter().map(|fr| format!("{:?} {:?} {:?} {:?}", fr.f, fr.comp, fr.ctx, fr.base.ones().collect::<Vec<_>>())).collect())
    });
    let left = EG_SWEEPS.with(|c| c.replace((None, 0)).1);
    (solved, left)
}

#[test]
fn eg_sweeps_give_the_bases_of_the_counters() {
    let mut rng = Rng(36);
    let (mut frames, mut dense_groups, mut left_after_one, mut left) = (0, 0, 0, 0);
    for case in 0..150 {
        let rks = dense_rks(&mut rng);
        for _ in 0..4 {
            let f = Ctl::EG(Box::new(formula(&mut rng, rks.prop_names.len().max(1), 3)));
            let (counters, dense) = eg_bases(&rks, &f, Some(0));
            let (one_sweep, left_one) = eg_bases(&rks, &f, Some(1));
            let (sweeps, left_default) = eg_bases(&rks, &f, None);
            assert_eq!(one_sweep, counters, "case {case}, one sweep then counters: {f:?}");
            assert_eq!(sweeps, counters, "case {case}: {f:?}");
            frames += counters.1.len();
            (dense_groups, left_after_one, left) = (dense_groups + dense, left_after_one + left_one, left + left_default);
        }
    }
    // Both paths ran: groups stable after the sweeps, and groups finished by the counters.
    assert!(
        frames > 1000 && left_after_one > 50 && left * 2 < dense_groups,
        "{frames} frames; of {dense_groups} dense groups, {left_after_one} left to the counters after one sweep, {left} after {}",
        super::MAX_EG_SWEEPS
    );
}

/// A dense component `D` (one exit) calling `B`, which has 65 exits and reaches only the last
/// one; `D` continues from `B`'s exit 0 to its own exit and from the others into a loop. With
/// `B`'s frame of `EG p` solved first (a group of its own, with mask rows), `D`'s group is
/// solved alone: it may go without mask rows only if its callees' exits fit one word (exit 64
/// once read as exit 0, so that `D`'s entry reached its exit).
#[test]
fn groups_calling_past_64_exits_keep_mask_rows() {
    let mut b = RksBuilder::new();
    let callee = b.component("B");
    b.loc(callee, "s", &["p"]);
    for k in 0..65 {
        b.loc(callee, &format!("x{k}"), &["p"]);
        b.exit(callee, &format!("X{k}"), &format!("x{k}"));
    }
    b.edge(callee, "s", "x64");
    let d = b.component("D");
    for v in ["e", "r0", "r64", "y"] {
        b.loc(d, v, &["p"]);
    }
    b.call(d, "c", "B").exit(d, "Y", "y");
    b.edge(d, "e", "c").edge(d, "e", "r64").edge(d, "r0", "y").edge(d, "r0", "r0").edge(d, "r64", "r64").edge(d, "r64", "e");
    b.ret(d, "c", "X0", "r0");
    for k in 1..65 {
        b.ret(d, "c", &format!("X{k}"), "r64");
    }
    let rks = b.build().expect("valid structure");
    let (bi, di) = (ComponentId::new(0), ComponentId::new(1));
    let ix = ModelIndex::new(&rks);
    assert!(ix.pred_rows(di).is_some() && ix.succ_rows(di).is_some() && ix.return_rows(di).is_some(), "D is dense");
    let (fm, roots) = Formula::from_ctls(&[&Ctl::EG(Box::new(Ctl::Atom(PropId::new(0))))]);
    let f = roots[0];
    let mut s = Summary::new(&rks, &fm, &ix);
    s.solve(f, bi, super::super::bits_zero(65));
    let id = s.solve(f, di, super::super::bits_zero(1));
    assert_eq!(s.entry_row(id), &[0], "D's entry reaches no exit: B returns only through exit 64");
}
