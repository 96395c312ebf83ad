//! The transition relation as a list of clusters, with image and preimage by early
//! quantification (the IWLS95 scheme NuSMV uses, with a fixed cluster order).
//!
//! The model builder hands over one part per `next()` assignment (with its variable's domain
//! constraint on the next copy), per `TRANS` conjunct, per `INVAR` conjunct on the next state and
//! one for the input domains, each with the variables it reads. Global constraints (parts over
//! the next copies of at least half the state variables) are moved to the front; parts are
//! conjoined in that order into clusters while a cluster stays under [`CLUSTER_NODES`] nodes. For the image, each cluster
//! is paired with the current-state and input variables no later cluster reads, quantified right
//! after the conjunction (`∃Q. acc ∧ C` in one oxidd `apply_exists`); the preimage does the same
//! with next-state and input variables.

use super::encoding::{Copy, Encoding};
use super::{Bdd, SymResult};
use crate::lowering::program::VarId;
use oxidd::{BooleanFunction, BooleanFunctionQuant, BooleanOperator, Function};

/// Largest cluster (in BDD nodes) the greedy clustering builds.
pub(crate) const CLUSTER_NODES: usize = 5000;

/// One conjunct of the transition relation and the variables it reads.
pub(crate) struct Part {
    pub bdd: Bdd,
    /// Current copies read (inputs included), by variable.
    pub cur: Vec<bool>,
    /// Next copies read, by variable.
    pub next: Vec<bool>,
}

struct Cluster {
    bdd: Bdd,
    /// Quantified right after conjoining this cluster in an image / a preimage.
    image_quant: Bdd,
    pre_quant: Bdd,
}

/// The clustered transition relation.
pub(crate) struct TransRel {
    clusters: Vec<Cluster>,
    /// With no cluster: what an image / preimage quantifies.
    image_all: Bdd,
    pre_all: Bdd,
    pub parts: usize,
}

/// A part that reads the next copy of at least this fraction of the state variables is a
/// global constraint.
const GLOBAL_FRACTION: f64 = 0.5;

/// The parts with global constraints (a `TRANS` over the next copies of most state variables,
/// such as the interleaving constraint `count(next(x) != x, …) = 1` of pyboolnet's asynchronous
/// networks) moved to the front, the others in their order. No next variable such a part reads
/// can be quantified before it anyway; placed last, it leaves every cluster before it to be
/// conjoined unconstrained (calzone_cellfate's 28 choices `next(x) := {x, x_IMAGE}` grew a
/// preimage to 2M nodes before the constraint cut it down to thousands); placed first, it prunes
/// each later cluster, which then quantifies its own next variables at once.
fn global_constraints_first(enc: &Encoding, parts: Vec<Part>) -> Vec<Part> {
    let state_vars = (0..enc.num_vars()).filter(|&v| !enc.is_input(VarId::new(v))).count();
    let global = |p: &Part| state_vars >= 4 && p.next.iter().filter(|&&b| b).count() as f64 >= GLOBAL_FRACTION * state_vars as f64;
    let (mut first, rest): (Vec<Part>, Vec<Part>) = parts.into_iter().partition(global);
    first.extend(rest);
    first
}

impl TransRel {
    pub(crate) fn new(enc: &Encoding, parts: Vec<Part>) -> SymResult<TransRel> {
        let n = enc.num_vars();
        let count = parts.len();
        let mut grouped: Vec<Part> = vec![];
        for p in global_constraints_first(enc, parts) {
            if let Some(last) = grouped.last_mut() {
                let joined = last.bdd.and(&p.bdd)?;
                if joined.node_count() <= CLUSTER_NODES {
                    last.bdd = joined;
                    for v in 0..n {
                        last.cur[v] |= p.cur[v];
                        last.next[v] |= p.next[v];
                    }
                    continue;
                }
            }
            grouped.push(p);
        }
        // Variables read by clusters after each one.
        let mut later_cur = vec![false; n];
        let mut later_next = vec![false; n];
        let mut clusters = Vec::with_capacity(grouped.len());
        for (i, p) in grouped.iter().enumerate().rev() {
            let first = i == 0;
            let img = (0..n).filter(|&v| (p.cur[v] || first) && !later_cur[v]).map(VarId::new);
            let image_quant = enc.cube_of(img, Copy::Cur)?;
            let state_next = (0..n).filter(|&v| !enc.is_input(VarId::new(v)) && (p.next[v] || first) && !later_next[v]).map(VarId::new);
            let inputs = (0..n).filter(|&v| enc.is_input(VarId::new(v)) && (p.cur[v] || first) && !later_cur[v]).map(VarId::new);
            let pre_quant = enc.cube_of(state_next, Copy::Next)?.and(&enc.cube_of(inputs, Copy::Cur)?)?;
            for v in 0..n {
                later_cur[v] |= p.cur[v];
                later_next[v] |= p.next[v];
            }
            clusters.push(Cluster { bdd: p.bdd.clone(), image_quant, pre_quant });
        }
        clusters.reverse();
        let image_all = enc.cur_cube.and(&enc.input_cube)?;
        let pre_all = enc.next_cube.and(&enc.input_cube)?;
        Ok(TransRel { clusters, image_all, pre_all, parts: count })
    }

    pub(crate) fn clusters(&self) -> usize {
        self.clusters.len()
    }

    /// The successors of `from` (a set over current bits), over current bits.
    pub(crate) fn image(&self, enc: &Encoding, from: &Bdd) -> SymResult<Bdd> {
        if self.clusters.is_empty() {
            let any = from.exists(&self.image_all)?;
            return Ok(any);
        }
        let mut acc = from.clone();
        for c in &self.clusters {
            acc = acc.apply_exists(BooleanOperator::And, &c.bdd, &c.image_quant)?;
        }
        enc.to_cur(&acc)
    }

    /// The states with a successor in `to` (a set over current bits), over current bits.
    pub(crate) fn preimage(&self, enc: &Encoding, to: &Bdd) -> SymResult<Bdd> {
        let target = enc.to_next(to)?;
        if self.clusters.is_empty() {
            return Ok(target.exists(&self.pre_all)?);
        }
        let mut acc = target;
        for c in &self.clusters {
            acc = acc.apply_exists(BooleanOperator::And, &c.bdd, &c.pre_quant)?;
        }
        Ok(acc)
    }

    /// Whether some transition from `from` satisfies `region` (over current, input and next bits).
    pub(crate) fn some_transition(&self, from: &Bdd, region: &Bdd) -> SymResult<bool> {
        let mut acc = from.and(region)?;
        for c in &self.clusters {
            acc = acc.and(&c.bdd)?;
            if !acc.satisfiable() {
                return Ok(false);
            }
        }
        Ok(acc.satisfiable())
    }
}
