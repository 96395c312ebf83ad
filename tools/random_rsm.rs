//! Seeded random recursive state machines and CTL formulas with the parameters of the
//! scalability experiment of Dubslaff et al. 2024 (§3.2 of dubslaff-2024-digest.md, their
//! Fig. 8 journal / Fig. 3 conference), built directly as [`RecursiveKripkeStructure`] values.
//! Shared by `examples/rsm_scalability.rs` and `tests/rsm_scalability_smoke.rs` through `#[path]`.
//!
//! Instance `i` (RSMCheck's generator, as described in the digest):
//! * `i` components, each with `3i` nodes and `⌊i/3⌋` boxes; each box calls a uniformly random
//!   component (self-recursion possible);
//! * node 0 is an entry, node 1 an exit; every other node is an entry with 5 %, else an exit
//!   with 5 %;
//! * labels `a`, `b`, `c` independently on 40 %, 60 %, 50 % of the nodes;
//! * every possible transition exists with 20 %: sources are non-exit nodes and return nodes
//!   `(box, exit)`, targets are non-entry nodes and call nodes `(box, entry)`; cycles allowed.
//!
//! Mapping to our model (one entry per component, transparent calls):
//! * a component with entries `e₁…e_m` is split into copies `C@e` (same nodes and edges, entry
//!   `e`); a call node `(β, e)` of box `β` calling `D` becomes a call of `D@e`. Only the copies
//!   reachable from `C0@0` through calls are built.
//! * the return node `(β, x)` is not a configuration: its successors become the continuations of
//!   every call node of `β` for the callee's exit `x`. A continuation that is itself a call node
//!   (a call directly followed by a call, which our model forbids) goes through a fresh location
//!   labelled like the second callee's entry (a stutter step).
//! * well-formedness, where the paper's generator allows deadlocks: a non-exit node without a
//!   successor gets one edge to a random target, and a return node without a successor one edge to
//!   a random non-entry location. Our formulas are read over infinite paths, so this keeps runs
//!   from dying instead of changing the engines' treatment of deadlocks.
//!
//! Formula `j` (RSMCheck's `random_ctl.py`): quantifier depth `⌊j/9⌋`, existential operators
//! `EX`, `EG`, `EU` (operands of `EU` in random order), ∧/∨ of up to 2 subformulas, each
//! subformula negated with 50 %; at depth 0 a random non-empty subset of the literals
//! `a`, `b`, `c` (each negated with 50 %) joined by random ∧/∨.

#![allow(dead_code)]

#[path = "splitmix.rs"]
mod splitmix;
use splitmix::SplitMix64;
use xmv_rs::ir::PropId;

use fixedbitset::FixedBitSet;
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::csr::Csr;
use xmv_rs::explicit::rks::{Component, ComponentId, Labels, NO_CALL, NodeId, RecursiveKripkeStructure};
use xmv_rs::explicit::rks_builder::RksBuilder;
use xmv_rs::syntax::ast::TerminationRule;

/// SplitMix64: small, seedable, and good enough for instance generation.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64(seed ^ 0x9E37_79B9_7F4A_7C15))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

/// The generator's knobs (defaults: the paper's).
#[derive(Clone, Debug)]
pub struct RsmParams {
    pub components: usize,
    pub nodes: usize,
    pub boxes: usize,
    pub edge_density: f64,
    pub entry_pct: f64,
    pub exit_pct: f64,
    /// Probability of `a`, `b`, `c`.
    pub label_pct: [f64; 3],
}

impl RsmParams {
    /// Instance `i` of the grid.
    pub fn instance(i: usize) -> RsmParams {
        RsmParams { components: i, nodes: 3 * i, boxes: i / 3, edge_density: 0.2, entry_pct: 0.05, exit_pct: 0.05, label_pct: [0.4, 0.6, 0.5] }
    }
}

/// One component of the abstract RSM (before the per-entry split).
#[derive(Clone, Debug)]
struct RsmComp {
    entries: Vec<usize>,
    exits: Vec<usize>,
    labels: Vec<Vec<&'static str>>,
    /// Callee of each box.
    box_callee: Vec<usize>,
    /// Edges from node `u` (non-exit): nodes (non-entry) and call nodes `(box, entry)`.
    node_succ: Vec<Vec<Target>>,
    /// Edges from return node `(box, exit index of callee)`: non-entry nodes and call nodes.
    return_succ: Vec<Vec<Vec<Target>>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Node(usize),
    /// Call node `(box, entry index into the callee's entries)`.
    Call(usize, usize),
}

/// Size of the generated structure, for the CSV.
#[derive(Clone, Debug, Default)]
pub struct RsmSize {
    /// Components / nodes / boxes of the abstract RSM (as in the paper).
    pub rsm_components: usize,
    pub rsm_nodes: usize,
    pub rsm_boxes: usize,
    /// Components (per-entry copies) and nodes (locations + calls) of the built structure.
    pub rks_components: usize,
    pub rks_nodes: usize,
}

const LABELS: [&str; 3] = ["a", "b", "c"];

fn generate_rsm(p: &RsmParams, rng: &mut Rng) -> Vec<RsmComp> {
    // First pass: node kinds and boxes (box targets need every component's entries/exits).
    let mut comps: Vec<RsmComp> = Vec::with_capacity(p.components);
    for _ in 0..p.components {
        let n = p.nodes.max(2);
        let (mut entries, mut exits) = (vec![0], vec![1]);
        for v in 2..n {
            if rng.chance(p.entry_pct) {
                entries.push(v);
            } else if rng.chance(p.exit_pct) {
                exits.push(v);
            }
        }
        let labels = (0..n).map(|_| LABELS.iter().zip(p.label_pct).filter_map(|(l, q)| rng.chance(q).then_some(*l)).collect()).collect();
        let box_callee = (0..p.boxes).map(|_| rng.below(p.components)).collect();
        comps.push(RsmComp { entries, exits, labels, box_callee, node_succ: Vec::new(), return_succ: Vec::new() });
    }
    for c in 0..comps.len() {
        let n = comps[c].labels.len();
        let is_entry: Vec<bool> = (0..n).map(|v| comps[c].entries.contains(&v)).collect();
        let is_exit: Vec<bool> = (0..n).map(|v| comps[c].exits.contains(&v)).collect();
        let mut targets: Vec<Target> = (0..n).filter(|&v| !is_entry[v]).map(Target::Node).collect();
        let non_entry_nodes = targets.clone();
        for (b, &callee) in comps[c].box_callee.iter().enumerate() {
            targets.extend((0..comps[callee].entries.len()).map(|e| Target::Call(b, e)));
        }
        let draw = |rng: &mut Rng, fallback: &[Target]| -> Vec<Target> {
            let mut out: Vec<Target> = targets.iter().copied().filter(|_| rng.chance(p.edge_density)).collect();
            if out.is_empty() && !fallback.is_empty() {
                out.push(fallback[rng.below(fallback.len())]);
            }
            out
        };
        let node_succ: Vec<Vec<Target>> = (0..n).map(|v| if is_exit[v] { Vec::new() } else { draw(rng, &targets) }).collect();
        let return_succ: Vec<Vec<Vec<Target>>> =
            comps[c].box_callee.iter().map(|&callee| (0..comps[callee].exits.len()).map(|_| draw(rng, &non_entry_nodes)).collect()).collect();
        comps[c].node_succ = node_succ;
        comps[c].return_succ = return_succ;
    }
    comps
}

/// [`random_rks`] through [`RksBuilder`] (by names): the reference for the direct construction,
/// which must give the same structure (`tests/rsm_scalability_smoke.rs`). Slow on big instances
/// (the builder looks return targets up by name, linearly).
pub fn random_rks_by_names(params: &RsmParams, seed: u64) -> (RecursiveKripkeStructure, RsmSize) {
    let mut rng = Rng::new(seed);
    let comps = generate_rsm(params, &mut rng);
    let mut b = RksBuilder::new();
    b.termination(TerminationRule::Loop);
    // Fix the proposition numbering: a = 0, b = 1, c = 2.
    let name = |c: usize, e: usize| format!("C{c}@{e}");
    // Worklist of reachable copies (component, entry node).
    let mut queue: Vec<(usize, usize)> = vec![(0, 0)];
    let mut seen = std::collections::HashSet::new();
    seen.insert((0usize, 0usize));
    let mut size = RsmSize {
        rsm_components: comps.len(),
        rsm_nodes: comps.iter().map(|c| c.labels.len()).sum(),
        rsm_boxes: comps.iter().map(|c| c.box_callee.len()).sum(),
        ..Default::default()
    };
    let mut qi = 0;
    let mut first = true;
    while qi < queue.len() {
        let (c, entry) = queue[qi];
        qi += 1;
        let rc = &comps[c];
        let id = b.component(&name(c, entry));
        size.rks_components += 1;
        b.entry(id, &format!("n{entry}"));
        if first {
            // An unreachable location declaring the propositions first, so that a, b, c = 0, 1, 2.
            b.loc(id, "props", &LABELS);
            b.edge(id, "props", "props");
            first = false;
        }
        for (v, labels) in rc.labels.iter().enumerate() {
            b.loc(id, &format!("n{v}"), labels);
        }
        size.rks_nodes += rc.labels.len();
        for &x in &rc.exits {
            b.exit(id, &format!("x{x}"), &format!("n{x}"));
        }
        let call_name = |bx: usize, e: usize| format!("k{bx}_{e}");
        let mut used_calls = std::collections::BTreeSet::new();
        let mut stutters = std::collections::BTreeSet::new();
        let stutter = |b: &mut RksBuilder, made: &mut std::collections::BTreeSet<(usize, usize)>, bx: usize, e: usize| {
            let s = format!("s{bx}_{e}");
            if made.insert((bx, e)) {
                let callee = rc.box_callee[bx];
                b.loc(id, &s, &comps[callee].labels[comps[callee].entries[e]]);
                b.edge(id, &s, &call_name(bx, e));
            }
            s
        };
        for (v, succ) in rc.node_succ.iter().enumerate() {
            for &t in succ {
                match t {
                    Target::Node(w) => b.edge(id, &format!("n{v}"), &format!("n{w}")),
                    Target::Call(bx, e) => {
                        used_calls.insert((bx, e));
                        b.edge(id, &format!("n{v}"), &call_name(bx, e))
                    }
                };
            }
        }
        // Returns of the call nodes used: every call node of box β continues like its return nodes.
        // Continuations may add further call nodes of the same component: iterate to a fixpoint.
        let mut done = std::collections::BTreeSet::new();
        loop {
            let pending: Vec<(usize, usize)> = used_calls.difference(&done).copied().collect();
            if pending.is_empty() {
                break;
            }
            for (bx, e) in pending {
                done.insert((bx, e));
                let callee = rc.box_callee[bx];
                let ce = comps[callee].entries[e];
                let cn = call_name(bx, e);
                b.call(id, &cn, &name(callee, ce));
                size.rks_nodes += 1;
                if seen.insert((callee, ce)) {
                    queue.push((callee, ce));
                }
                for (k, succ) in rc.return_succ[bx].iter().enumerate() {
                    let xname = format!("x{}", comps[callee].exits[k]);
                    for &t in succ {
                        match t {
                            Target::Node(v) => {
                                b.ret(id, &cn, &xname, &format!("n{v}"));
                            }
                            Target::Call(bx2, e2) => {
                                // A call may not continue at a call: go through a stutter location.
                                used_calls.insert((bx2, e2));
                                let s = stutter(&mut b, &mut stutters, bx2, e2);
                                b.ret(id, &cn, &xname, &s);
                            }
                        }
                    }
                }
            }
        }
        size.rks_nodes += stutters.len();
    }
    let rks = b.build().expect("random RSM builds");
    (rks, size)
}

/// Generates instance `params` with `seed` and builds it; the initial component (`C0@0`) is id 0.
///
/// Builds the structure directly, with the node numbering, edge order and return rows that
/// [`random_rks_by_names`] gets through [`RksBuilder`] (entry location first, then the other
/// locations in declaration order, then the calls), in time linear in its size.
pub fn random_rks(params: &RsmParams, seed: u64) -> (RecursiveKripkeStructure, RsmSize) {
    let mut rng = Rng::new(seed);
    let comps = generate_rsm(params, &mut rng);
    let mut size = RsmSize {
        rsm_components: comps.len(),
        rsm_nodes: comps.iter().map(|c| c.labels.len()).sum(),
        rsm_boxes: comps.iter().map(|c| c.box_callee.len()).sum(),
        ..Default::default()
    };
    // Reachable copies (component, entry node) in the order they are built: a copy's id is its
    // position here.
    let mut queue: Vec<(usize, usize)> = vec![(0, 0)];
    let mut copy_id: std::collections::HashMap<(usize, usize), u32> = std::collections::HashMap::new();
    copy_id.insert((0, 0), 0);
    let mut components: Vec<Component> = Vec::new();
    // Per copy: its (call, callee exit, location) return edges.
    let mut pending_rets: Vec<Vec<(u32, u32, NodeId)>> = Vec::new();
    // Per call (position in declaration order): its callee copy.
    let mut call_copy: Vec<u32> = Vec::new();
    while components.len() < queue.len() {
        let (c, entry) = queue[components.len()];
        let first = components.is_empty();
        let rc = &comps[c];
        let n = rc.labels.len();
        // Declaration order of locations: `props` (first copy only), `n0…n{n-1}`, then stutters.
        let off = usize::from(first);
        let mut loc_labels: Vec<&[&'static str]> = Vec::with_capacity(off + n);
        if first {
            loc_labels.push(&LABELS);
        }
        loc_labels.extend(rc.labels.iter().map(Vec::as_slice));
        let mut loc_names: Vec<String> = Vec::with_capacity(off + n);
        if first {
            loc_names.push("props".to_string());
        }
        loc_names.extend((0..n).map(|v| format!("n{v}")));
        // Calls by (box, entry index), numbered in declaration order: first those the nodes
        // step to, then those the returns step to (through stutters), as `random_rks_by_names`.
        let mut call_of: std::collections::HashMap<(usize, usize), u32> = std::collections::HashMap::new();
        let mut calls_decl: Vec<(usize, usize)> = Vec::new();
        let mut used_calls: std::collections::BTreeSet<(usize, usize)> =
            rc.node_succ.iter().flatten().filter_map(|&t| if let Target::Call(bx, e) = t { Some((bx, e)) } else { None }).collect();
        let mut stutter_of: std::collections::HashMap<(usize, usize), u32> = std::collections::HashMap::new();
        // (call, callee exit index, location) in declaration order.
        let mut rets: Vec<(u32, u32, u32)> = Vec::new();
        let mut stutter_edges: Vec<(u32, (usize, usize))> = Vec::new();
        let mut done = std::collections::BTreeSet::new();
        loop {
            let pending: Vec<(usize, usize)> = used_calls.difference(&done).copied().collect();
            if pending.is_empty() {
                break;
            }
            for (bx, e) in pending {
                done.insert((bx, e));
                let callee = rc.box_callee[bx];
                let ce = comps[callee].entries[e];
                call_of.insert((bx, e), calls_decl.len() as u32);
                calls_decl.push((bx, e));
                let target = *copy_id.entry((callee, ce)).or_insert_with(|| {
                    queue.push((callee, ce));
                    queue.len() as u32 - 1
                });
                call_copy.push(target);
                let call = calls_decl.len() as u32 - 1;
                for (k, succ) in rc.return_succ[bx].iter().enumerate() {
                    for &t in succ {
                        let loc = match t {
                            Target::Node(v) => (off + v) as u32,
                            Target::Call(bx2, e2) => {
                                used_calls.insert((bx2, e2));
                                *stutter_of.entry((bx2, e2)).or_insert_with(|| {
                                    let callee2 = rc.box_callee[bx2];
                                    loc_labels.push(&comps[callee2].labels[comps[callee2].entries[e2]]);
                                    loc_names.push(format!("s{bx2}_{e2}"));
                                    let s = loc_names.len() as u32 - 1;
                                    stutter_edges.push((s, (bx2, e2)));
                                    s
                                })
                            }
                        };
                        rets.push((call, k as u32, loc));
                    }
                }
            }
        }
        // Numbering: the entry location first, the other locations in order, then the calls.
        let entry_pos = off + entry;
        let num_locs = loc_names.len();
        let num_nodes = num_locs + calls_decl.len();
        let loc_id = |p: u32| -> NodeId {
            match (p as usize).cmp(&entry_pos) {
                std::cmp::Ordering::Less => NodeId::from_u32(p + 1),
                std::cmp::Ordering::Equal => NodeId::ENTRY,
                std::cmp::Ordering::Greater => NodeId::from_u32(p),
            }
        };
        let call_id = |i: u32| -> NodeId { NodeId::from_u32(num_locs as u32 + i) };
        let mut node_names = vec![String::new(); num_nodes];
        let mut props = vec![FixedBitSet::with_capacity(num_nodes); LABELS.len()];
        for (p, (name, labels)) in loc_names.into_iter().zip(&loc_labels).enumerate() {
            let id = loc_id(p as u32).index();
            node_names[id] = name;
            for l in labels.iter() {
                props[LABELS.iter().position(|x| x == l).expect("one of a, b, c")].insert(id);
            }
        }
        let first_call = call_copy.len() - calls_decl.len();
        let mut call_target = vec![NO_CALL; num_nodes];
        let mut call_index = vec![u32::MAX; num_nodes];
        for (i, &(bx, e)) in calls_decl.iter().enumerate() {
            let id = call_id(i as u32).index();
            node_names[id] = format!("k{bx}_{e}");
            call_target[id] = ComponentId::from_u32(call_copy[first_call + i]);
            call_index[id] = i as u32;
        }
        // Intra-component edges: node successors in order (the call of a `Call` target is the
        // one its (box, entry) pair declared), then one edge per stutter location.
        let mut succ_edges: Vec<(NodeId, NodeId)> = Vec::new();
        if first {
            succ_edges.push((loc_id(0), loc_id(0)));
        }
        for (v, succ) in rc.node_succ.iter().enumerate() {
            for &t in succ {
                let to = match t {
                    Target::Node(w) => loc_id((off + w) as u32),
                    Target::Call(bx, e) => call_id(call_of[&(bx, e)]),
                };
                succ_edges.push((loc_id((off + v) as u32), to));
            }
        }
        for &(s, pair) in &stutter_edges {
            succ_edges.push((loc_id(s), call_id(call_of[&pair])));
        }
        let succ = Csr::from_edges(num_nodes, &succ_edges);
        let pred = succ.transpose();
        size.rks_nodes += n + calls_decl.len() + stutter_of.len();
        components.push(Component {
            name: format!("C{c}@{entry}"),
            num_nodes: num_nodes as u32,
            succ,
            pred,
            call_target,
            calls: (0..calls_decl.len() as u32).map(call_id).collect(),
            call_index,
            exits: rc.exits.iter().map(|&x| loc_id((off + x) as u32)).collect(),
            exit_names: rc.exits.iter().map(|x| format!("x{x}")).collect(),
            returns: Csr::default(),
            return_offsets: Vec::new(),
            props: Labels::from_sets(props.into_iter().enumerate().map(|(p, set)| (PropId::new(p), set)).collect()),
            node_names,
        });
        // Return rows need the callees' exit counts: kept until every copy is built.
        pending_rets.push(rets.into_iter().map(|(call, k, loc)| (call, k, loc_id(loc))).collect());
    }
    size.rks_components = components.len();
    for (comp, rets) in components.iter_mut().zip(pending_rets) {
        let mut offsets = Vec::with_capacity(comp.calls.len());
        let mut rows = 0u32;
        for &call in &comp.calls {
            offsets.push(rows);
            let (callee, _) = queue[comp.call_target[call.index()].index()];
            rows += comps[callee].exits.len() as u32;
        }
        let mut edges: Vec<(u32, NodeId)> = rets.into_iter().map(|(call, k, loc)| (offsets[call as usize] + k, loc)).collect();
        edges.sort_unstable();
        edges.dedup();
        comp.returns = Csr::from_edges(rows as usize, &edges);
        comp.return_offsets = offsets;
    }
    let rks = RecursiveKripkeStructure { components, prop_names: LABELS.iter().map(|l| l.to_string()).collect(), termination: TerminationRule::Loop };
    (rks, size)
}

/// Random CTL formula `j` of the grid: quantifier depth `⌊j/9⌋`.
pub fn random_formula(j: usize, seed: u64) -> Ctl<PropId> {
    let mut rng = Rng::new(seed ^ (j as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let f = gen_formula(j / 9, &mut rng);
    maybe_not(f, &mut rng)
}

fn maybe_not(f: Ctl<PropId>, rng: &mut Rng) -> Ctl<PropId> {
    if rng.chance(0.5) { Ctl::Not(Box::new(f)) } else { f }
}

fn join(fs: Vec<Ctl<PropId>>, rng: &mut Rng) -> Ctl<PropId> {
    let mut it = fs.into_iter();
    let mut acc = it.next().expect("at least one operand");
    for g in it {
        acc = if rng.chance(0.5) { Ctl::And(Box::new(acc), Box::new(g)) } else { Ctl::Or(Box::new(acc), Box::new(g)) };
    }
    acc
}

fn gen_formula(depth: usize, rng: &mut Rng) -> Ctl<PropId> {
    if depth == 0 {
        let mut lits: Vec<Ctl<PropId>> = Vec::new();
        for p in 0..3 {
            if rng.chance(0.5) {
                lits.push(maybe_not(Ctl::Atom(PropId::from_u32(p)), rng));
            }
        }
        if lits.is_empty() {
            lits.push(maybe_not(Ctl::Atom(PropId::new(rng.below(3))), rng));
        }
        return join(lits, rng);
    }
    let width = 1 + rng.below(2);
    let parts = (0..width)
        .map(|_| {
            let q = match rng.below(3) {
                0 => Ctl::EX(Box::new(maybe_not(gen_formula(depth - 1, rng), rng))),
                1 => Ctl::EG(Box::new(maybe_not(gen_formula(depth - 1, rng), rng))),
                _ => {
                    let x = maybe_not(gen_formula(depth - 1, rng), rng);
                    let y = maybe_not(gen_formula(rng.below(depth), rng), rng);
                    if rng.chance(0.5) { Ctl::EU(Box::new(x), Box::new(y)) } else { Ctl::EU(Box::new(y), Box::new(x)) }
                }
            };
            maybe_not(q, rng)
        })
        .collect();
    join(parts, rng)
}

/// The initial component of [`random_rks`].
pub const INITIAL: ComponentId = ComponentId::new(0);
