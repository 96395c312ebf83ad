//! Seeded random well-formed RKSs (as [`Model`]s) and random CTL formulas over all operators.
//!
//! Models have 1–4 components of 1–6 nodes, 0–3 exits (the entry may itself be an exit), calls
//! that are acyclic (component i calls only j > i) or arbitrary (recursion, mutual recursion),
//! 2–3 propositions, and either termination rule. Every generated model is well-formed by
//! construction (checked by `Model::well_formed` in debug builds of the tests).

#[path = "../../tools/splitmix.rs"]
mod splitmix;
use splitmix::SplitMix64;
use xmv_rs::ir::PropId;

use super::ctl_text::F;
use super::model::{Comp, Kind, Model, Node};
use xmv_rs::ctl::Ctl;
use xmv_rs::syntax::ast::TerminationRule;

/// SplitMix64: small, fast, good enough for test-case generation, and stable across platforms.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }
    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.range(0, xs.len() - 1)]
    }
}

pub struct GenParams {
    pub recursive: bool,
    pub max_comps: usize,
    pub max_nodes: usize,
}

pub fn model(rng: &mut Rng, p: &GenParams) -> Model {
    model_with_exits(rng, p, 3)
}

/// [`model`] with up to `max_exits` exits per component (3 and more: one in ten components gets
/// between 3 and `max_exits`).
pub fn model_with_exits(rng: &mut Rng, p: &GenParams, max_exits: usize) -> Model {
    let num_props = rng.range(2, 3);
    let props: Vec<String> = ["p", "q", "r"][..num_props].iter().map(|s| s.to_string()).collect();
    let termination = if rng.chance(50) { TerminationRule::Trap } else { TerminationRule::Loop };
    let num_comps = rng.range(1, p.max_comps);
    let mut comps = Vec::with_capacity(num_comps);
    // First the node kinds and exits of every component (calls need their callee's exit count).
    for ci in 0..num_comps {
        let name = ["A", "B", "C", "D", "E", "G", "H", "I"][ci % 8].to_string();
        let n = rng.range(1, p.max_nodes);
        let lower = name.to_lowercase();
        let mut nodes = Vec::with_capacity(n);
        for i in 0..n {
            let callees: Vec<usize> = if p.recursive { (0..num_comps).collect() } else { (ci + 1..num_comps).collect() };
            let kind = if i > 0 && !callees.is_empty() && rng.chance(35) {
                Kind::Call(rng.pick(&callees))
            } else {
                Kind::Loc((0..num_props).filter(|_| rng.chance(40)).collect())
            };
            nodes.push(Node { name: format!("{lower}{i}"), kind });
        }
        let locs: Vec<usize> = (0..n).filter(|&i| !matches!(nodes[i].kind, Kind::Call(_))).collect();
        // Exits: usually one non-entry location, sometimes two or three, rarely none or the entry.
        let mut candidates: Vec<usize> = locs.iter().copied().filter(|&l| l != 0 || rng.chance(15)).collect();
        let want = match rng.range(0, 99) {
            0..=4 => 0,
            5..=69 => 1,
            70..=91 => 2,
            _ => 3,
        };
        let want = if max_exits > 3 && rng.chance(10) { rng.range(3, max_exits) } else { want.min(max_exits) };
        let mut exits = Vec::new();
        while exits.len() < want && !candidates.is_empty() {
            let i = rng.range(0, candidates.len() - 1);
            exits.push(candidates.swap_remove(i));
        }
        comps.push(Comp { name, nodes, exits, edges: Vec::new(), returns: Vec::new() });
    }
    let exit_counts: Vec<usize> = comps.iter().map(|c| c.exits.len()).collect();
    for c in &mut comps {
        let n = c.nodes.len();
        let locs: Vec<usize> = (0..n).filter(|&i| !c.is_call(i)).collect();
        for i in 0..n {
            match c.nodes[i].kind {
                Kind::Loc(_) if !c.exits.contains(&i) => {
                    for _ in 0..rng.range(1, 3) {
                        let t = rng.range(0, n - 1);
                        c.edges.push((i, t));
                    }
                }
                Kind::Loc(_) => {}
                Kind::Call(t) => {
                    for k in 0..exit_counts[t] {
                        for _ in 0..rng.range(1, 2) {
                            c.returns.push((i, k, rng.pick(&locs)));
                        }
                    }
                }
            }
        }
        c.edges.sort();
        c.edges.dedup();
        c.returns.sort();
        c.returns.dedup();
    }
    let m = Model { props, termination, comps };
    debug_assert_eq!(m.well_formed(), Ok(()), "{}", m.to_text());
    m
}

/// A random formula of nesting depth at most `depth` over `num_props` propositions.
pub fn formula(rng: &mut Rng, num_props: usize, depth: usize) -> F {
    use Ctl::*;
    if depth == 0 || rng.chance(15) {
        return match rng.range(0, 19) {
            0 => True,
            1 => False,
            _ => Atom(PropId::new(rng.range(0, num_props - 1))),
        };
    }
    let sub = |rng: &mut Rng| Box::new(formula(rng, num_props, depth - 1));
    match rng.range(0, 17) {
        0 => Not(sub(rng)),
        1 => And(sub(rng), sub(rng)),
        2 => Or(sub(rng), sub(rng)),
        3 => Implies(sub(rng), sub(rng)),
        4 => Iff(sub(rng), sub(rng)),
        5 => {
            if rng.chance(50) {
                Xor(sub(rng), sub(rng))
            } else {
                Xnor(sub(rng), sub(rng))
            }
        }
        6 => EX(sub(rng)),
        7 => AX(sub(rng)),
        8 | 9 => EF(sub(rng)),
        10 => AF(sub(rng)),
        11 | 12 => EG(sub(rng)),
        13 => AG(sub(rng)),
        14 | 15 => EU(sub(rng), sub(rng)),
        _ => AU(sub(rng), sub(rng)),
    }
}

/// A random formula with an RTCTL top operator (`EBF ABF EBG ABG`, `E/A [ BU ]`, bounds within
/// `0..=4`) over [`formula`]s, sometimes nested in another bounded one.
pub fn bounded_formula(rng: &mut Rng, num_props: usize, depth: usize) -> F {
    use Ctl::*;
    let depth = depth.max(1);
    let sub =
        |rng: &mut Rng| Box::new(if depth > 1 && rng.chance(30) { bounded_formula(rng, num_props, depth - 1) } else { formula(rng, num_props, depth - 1) });
    let lo = rng.range(0, 2);
    let k = xmv_rs::ctl::Bound::new(lo as i64, (lo + rng.range(0, 2)) as i64).expect("a small bound");
    match rng.range(0, 5) {
        0 => EBF(sub(rng), k),
        1 => ABF(sub(rng), k),
        2 => EBG(sub(rng), k),
        3 => ABG(sub(rng), k),
        4 => EBU(sub(rng), sub(rng), k),
        _ => ABU(sub(rng), sub(rng), k),
    }
}

/// A random formula whose top operator is temporal (`EX AX EF AF EG AG EU AU`): the specs that
/// carry witnesses or counterexamples.
pub fn temporal_formula(rng: &mut Rng, num_props: usize, depth: usize) -> F {
    use Ctl::*;
    let depth = depth.max(1);
    let sub = |rng: &mut Rng| Box::new(formula(rng, num_props, depth - 1));
    match rng.range(0, 7) {
        0 => EX(sub(rng)),
        1 => AX(sub(rng)),
        2 => EF(sub(rng)),
        3 => AF(sub(rng)),
        4 => EG(sub(rng)),
        5 => AG(sub(rng)),
        6 => EU(sub(rng), sub(rng)),
        _ => AU(sub(rng), sub(rng)),
    }
}
