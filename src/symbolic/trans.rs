//! The transition relation as lists of clusters, with image and preimage by early
//! quantification: NuSMV's partitioning schemes (`trans/bdd/ClusterList.c`), chosen by
//! [`Partitioning`].
//!
//! The model builder hands over one part per `next()` assignment (with its variable's domain
//! constraint on the next copy), per `TRANS` conjunct, per `INVAR` conjunct on the next state and
//! one for the input domains, each with the variables it reads. The parts are grouped into
//! clusters, then each direction gets its own cluster order and quantification schedule:
//!
//! - clustering ([`Partitioning`]): `Sequential(t)` (the default) moves global constraints (parts
//!   over the next copies of at least half the state variables) to the front and conjoins the
//!   parts in that order while a cluster stays under `t` nodes; `Threshold(t)` is NuSMV's
//!   default (`-thresh t`, 1,000 nodes): affinity clustering (Moon, Hachtel and Somenzi) merges
//!   the two clusters whose supports share the largest fraction of their variables, a merge
//!   larger than `t` nodes becoming final, for at most 100 parts, else sequential; `Iwls95(t)`
//!   (`-iwls95 t`) clusters as `Threshold(t)`, then orders the clusters by IWLS95's benefit
//!   (Ranjan et al., IWLS 1995), once for images and once for preimages; `Monolithic` (`-mono`)
//!   conjoins every part;
//! - IWLS95 order: repeatedly pick, among the clusters not yet placed, the one maximising
//!   `6·v/w + w/x − y/z + m/M` (NuSMV's weights), where for the variables an image quantifies
//!   (current state and inputs; next state and inputs for a preimage) `v` counts the bits only
//!   this cluster reads (quantifiable right after it), `w` the bits it reads, `x` the bits every
//!   unplaced cluster reads, `m`/`M` the deepest level among them; `y`/`z` count the bits of the
//!   other copy (next state for an image) it / all unplaced clusters introduce. The benefit
//!   ranks a global constraint last in a preimage (it introduces every current variable), where
//!   it no longer prunes anything: on pyboolnet's asynchronous calzone_cellfate this order did
//!   not finish in 200 s; placing such clusters first finished in 13.7 CPU s there but made
//!   msi_wtrans 20x slower (1.1 s to 24 s), so `Iwls95` stays NuSMV's order;
//! - preimage order: a preimage starts from a set over next bits, so the clusters that read no
//!   current state bit (the next copies' domain constraints, `INVAR` on the next state) come
//!   first under `Sequential` and `Monolithic` ([`NextOnly::First`]); `Threshold` keeps NuSMV's
//!   single order, `Iwls95` its backward benefit order. [`TransRel::with_successor`] starts
//!   from a set over current bits instead and takes the preimage order with those clusters last
//!   ([`NextOnly::Last`]): a set over one copy conjoined with a constraint over the other before
//!   any quantification is their product (with interleaved bits, up to the product of their
//!   sizes); for the same reason [`TransRel::preimage_within`] conjoins its care set right after
//!   the first product with a cluster that reads current state bits;
//! - schedule: each quantified bit is abstracted right after the last cluster (in that
//!   direction's order) that reads it, bits no cluster reads with the first cluster; an image is
//!   `acc ← ∃Qᵢ. acc ∧ Cᵢ` per cluster, one oxidd `apply_exists` (the relational product).
//!
//! Which scheme is the default was measured (see the README's BDD section): the sequential
//! clusters of 5,000 nodes keep the parts of neighbouring variables together, which the
//! interleaved static order favours. The process-wide choice is set once by the command line
//! (NuSMV's `-thresh`, `-iwls95`, `-mono` in drop-in mode, `check --clusters`,
//! [`set_partitioning`]).

use super::encoding::{Copy, Encoding};
use super::{Bdd, SymResult};
use crate::lowering::program::VarId;
use oxidd::{BooleanFunction, BooleanFunctionQuant, BooleanOperator, Function};
use std::sync::RwLock;

/// Largest cluster (in BDD nodes) the default sequential clustering builds.
pub(crate) const CLUSTER_NODES: usize = 5000;

/// NuSMV's default cluster limit (`-thresh`, `-iwls95`: 1,000 nodes).
const NUSMV_CLUSTER_NODES: usize = 1000;

/// NuSMV clusters by affinity only up to this many parts (`CLUSTER_LIST_SIZE_INHIBIT_AFFINITY`).
const AFFINITY_MAX_PARTS: usize = 100;

/// How the transition parts become clusters, and in which order images conjoin them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partitioning {
    /// Global constraints first, then the parts in variable order, conjoined while a cluster
    /// stays under this many nodes; images take the clusters in that order, preimages first
    /// those that read no current state bit ([`NextOnly::First`]).
    Sequential(usize),
    /// NuSMV's default (`-thresh`): affinity clustering up to this many nodes; one order.
    Threshold(usize),
    /// NuSMV's `-iwls95`: threshold clustering, then IWLS95's benefit order per direction.
    Iwls95(usize),
    /// NuSMV's `-mono`: one cluster.
    Monolithic,
}

static PARTITIONING: RwLock<Partitioning> = RwLock::new(Partitioning::Sequential(CLUSTER_NODES));

/// Sets the partitioning every later transition relation uses (the command line's choice:
/// `check --clusters`, drop-in `-thresh`/`-iwls95`/`-mono`).
pub fn set_partitioning(p: Partitioning) {
    if let Ok(mut g) = PARTITIONING.write() {
        *g = p;
    }
}

/// `check --clusters`: `sequential`, `threshold`, `iwls95` (each with `:N`, the cluster limit
/// in nodes; default 5,000 for `sequential`, NuSMV's 1,000 for the others) or `mono`.
impl std::str::FromStr for Partitioning {
    type Err = String;

    fn from_str(text: &str) -> Result<Partitioning, String> {
        let (scheme, limit) = match text.split_once(':') {
            Some((scheme, n)) => match n.parse::<usize>() {
                Ok(n) if n > 0 => (scheme, Some(n)),
                _ => return Err(format!("`{n}` is not a cluster limit: write a positive number of BDD nodes, as in `iwls95:1000`")),
            },
            None => (text, None),
        };
        match scheme {
            "sequential" => Ok(Partitioning::Sequential(limit.unwrap_or(CLUSTER_NODES))),
            "threshold" => Ok(Partitioning::Threshold(limit.unwrap_or(NUSMV_CLUSTER_NODES))),
            "iwls95" => Ok(Partitioning::Iwls95(limit.unwrap_or(NUSMV_CLUSTER_NODES))),
            "mono" if limit.is_none() => Ok(Partitioning::Monolithic),
            _ => Err(format!("`{text}` is not a clustering scheme: use sequential, threshold, iwls95 (each with an optional `:NODES`) or mono")),
        }
    }
}

fn partitioning() -> Partitioning {
    PARTITIONING.read().map(|g| *g).unwrap_or(Partitioning::Sequential(CLUSTER_NODES))
}

/// One conjunct of the transition relation and the variables it reads.
pub(crate) struct Part {
    pub bdd: Bdd,
    /// Current copies read (inputs included), by variable.
    pub cur: Vec<bool>,
    /// Next copies read, by variable.
    pub next: Vec<bool>,
}

impl Part {
    fn absorb(&mut self, other: &Part, bdd: Bdd) {
        self.bdd = bdd;
        for v in 0..self.cur.len() {
            self.cur[v] |= other.cur[v];
            self.next[v] |= other.next[v];
        }
    }
}

/// A cluster with what an image (or preimage) quantifies right after conjoining it.
struct Cluster {
    bdd: Bdd,
    quant: Bdd,
    /// Whether the cluster reads the current copy of a state variable (inputs aside).
    reads_cur: bool,
}

/// The clustered transition relation.
pub(crate) struct TransRel {
    /// Clusters in image order, in preimage order and in [`TransRel::with_successor`]'s order
    /// (the same BDDs).
    image: Vec<Cluster>,
    pre: Vec<Cluster>,
    succ: Vec<Cluster>,
    /// With no cluster: what an image / preimage quantifies.
    image_all: Bdd,
    pre_all: Bdd,
    pub parts: usize,
}

/// The direction of a relational product: which copy it quantifies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Quantifies current state and input bits (image).
    Forward,
    /// Quantifies next state and input bits (preimage).
    Backward,
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
    let (mut first, rest): (Vec<Part>, Vec<Part>) = parts.into_iter().partition(|p| is_global(enc, p));
    first.extend(rest);
    first
}

/// Whether `p` reads the next copies of at least [`GLOBAL_FRACTION`] of the state variables.
fn is_global(enc: &Encoding, p: &Part) -> bool {
    let state_vars = (0..enc.num_vars()).filter(|&v| !enc.is_input(VarId::new(v))).count();
    state_vars >= 4 && p.next.iter().filter(|&&b| b).count() as f64 >= GLOBAL_FRACTION * state_vars as f64
}

/// Parts conjoined in their order while a cluster stays at most `limit` nodes.
fn sequential(enc: &Encoding, parts: Vec<Part>, limit: usize) -> SymResult<Vec<Part>> {
    let mut grouped: Vec<Part> = vec![];
    for p in parts {
        enc.check_growth()?;
        if let Some(last) = grouped.last_mut() {
            let joined = last.bdd.and(&p.bdd)?;
            if joined.node_count() <= limit {
                last.absorb(&p, joined);
                continue;
            }
        }
        grouped.push(p);
    }
    Ok(grouped)
}

/// NuSMV's threshold clustering (`cluster_list_apply_threshold`): parts conjoined in order; a
/// cluster is closed once it, or the next part, exceeds `limit` nodes.
fn threshold_in_order(enc: &Encoding, parts: Vec<Part>, limit: usize) -> SymResult<Vec<Part>> {
    let mut grouped: Vec<Part> = vec![];
    for p in parts {
        enc.check_growth()?;
        if let Some(last) = grouped.last_mut()
            && last.bdd.node_count() <= limit
            && p.bdd.node_count() <= limit
        {
            let joined = last.bdd.and(&p.bdd)?;
            last.absorb(&p, joined);
            continue;
        }
        grouped.push(p);
    }
    Ok(grouped)
}

/// The support of a part as a bitset: bit `2v` the current copy of `v`, `2v + 1` its next copy.
fn support_bits(p: &Part) -> Vec<u64> {
    let n = p.cur.len();
    let mut bits = vec![0u64; (2 * n).div_ceil(64).max(1)];
    for v in 0..n {
        if p.cur[v] {
            bits[2 * v / 64] |= 1 << (2 * v % 64);
        }
        if p.next[v] {
            bits[(2 * v + 1) / 64] |= 1 << ((2 * v + 1) % 64);
        }
    }
    bits
}

/// Moon, Hachtel and Somenzi's affinity of two supports: shared variables over all variables.
fn affinity(a: &[u64], b: &[u64]) -> f64 {
    let (mut inter, mut union) = (0u32, 0u32);
    for (x, y) in a.iter().zip(b) {
        inter += (x & y).count_ones();
        union += (x | y).count_ones();
    }
    if union == 0 { 0.0 } else { f64::from(inter) / f64::from(union) }
}

/// NuSMV's affinity clustering (`cluster_list_apply_threshold_affinity`): parts above `limit`
/// nodes are clusters of their own; of the others, the pair with the highest affinity (the
/// first such pair in part order on ties) is conjoined; a result above `limit` nodes becomes a
/// cluster, a smaller one goes back to the pool. Above [`AFFINITY_MAX_PARTS`] parts, NuSMV's
/// threshold clustering in part order.
fn affinity_clusters(enc: &Encoding, parts: Vec<Part>, limit: usize) -> SymResult<Vec<Part>> {
    if parts.len() > AFFINITY_MAX_PARTS {
        return threshold_in_order(enc, parts, limit);
    }
    let mut done = vec![];
    let mut pool: Vec<(Part, Vec<u64>)> = vec![];
    for p in parts {
        if p.bdd.node_count() > limit {
            done.push(p);
        } else {
            let s = support_bits(&p);
            pool.push((p, s));
        }
    }
    while pool.len() > 1 {
        enc.check_growth()?;
        let mut best = (f64::NEG_INFINITY, 0, 1);
        for i in 0..pool.len() {
            for j in i + 1..pool.len() {
                let a = affinity(&pool[i].1, &pool[j].1);
                if a > best.0 {
                    best = (a, i, j);
                }
            }
        }
        let (_, i, j) = best;
        let (second, _) = pool.remove(j);
        let (mut first, _) = pool.remove(i);
        let joined = first.bdd.and(&second.bdd)?;
        first.absorb(&second, joined);
        if first.bdd.node_count() > limit {
            done.push(first);
        } else {
            let s = support_bits(&first);
            pool.push((first, s));
        }
    }
    done.extend(pool.into_iter().map(|(p, _)| p));
    Ok(done)
}

/// Bits of `v`'s copy an image (`Forward`) or preimage quantifies, if it quantifies that copy.
fn quantified_bits(enc: &Encoding, dir: Direction, v: usize, next: bool) -> &[oxidd::VarNo] {
    let input = enc.is_input(VarId::new(v));
    let quantified = match dir {
        Direction::Forward => !next,
        Direction::Backward => next || input,
    };
    if quantified { enc.bits(VarId::new(v), if next { Copy::Next } else { Copy::Cur }) } else { &[] }
}

/// Bits of the copy a product introduces (next state for an image, current state for a preimage).
fn introduced_bits(enc: &Encoding, dir: Direction, v: usize, next: bool) -> usize {
    if enc.is_input(VarId::new(v)) {
        return 0;
    }
    match dir {
        Direction::Forward if next => enc.bits(VarId::new(v), Copy::Next).len(),
        Direction::Backward if !next => enc.bits(VarId::new(v), Copy::Cur).len(),
        _ => 0,
    }
}

/// IWLS95's cluster order for one direction (`cluster_list_iwls95_order`): the positions of
/// `clusters` in the order images conjoin them.
fn iwls95_order(enc: &Encoding, clusters: &[Part], dir: Direction) -> Vec<usize> {
    let n = enc.num_vars();
    let reads = |c: &Part, v: usize, next: bool| if next { c.next[v] } else { c.cur[v] };
    let mut left: Vec<usize> = (0..clusters.len()).collect();
    let mut order = Vec::with_capacity(clusters.len());
    while !left.is_empty() {
        // How many unplaced clusters read each copy.
        let mut readers = vec![[0u32; 2]; n];
        for &c in &left {
            for (v, r) in readers.iter_mut().enumerate() {
                r[0] += u32::from(clusters[c].cur[v]);
                r[1] += u32::from(clusters[c].next[v]);
            }
        }
        let (mut x, mut z, mut max_all) = (0usize, 0usize, 0u32);
        for (v, r) in readers.iter().enumerate() {
            for (k, next) in [false, true].into_iter().enumerate() {
                if r[k] > 0 {
                    let q = quantified_bits(enc, dir, v, next);
                    x += q.len();
                    max_all = max_all.max(q.iter().copied().max().unwrap_or(0));
                    z += introduced_bits(enc, dir, v, next);
                }
            }
        }
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, &c) in left.iter().enumerate() {
            let (mut v_c, mut w_c, mut y_c, mut max_c) = (0usize, 0usize, 0usize, 0u32);
            for (v, r) in readers.iter().enumerate() {
                for (k, next) in [false, true].into_iter().enumerate() {
                    if !reads(&clusters[c], v, next) {
                        continue;
                    }
                    let q = quantified_bits(enc, dir, v, next);
                    w_c += q.len();
                    if r[k] == 1 {
                        v_c += q.len();
                    }
                    max_c = max_c.max(q.iter().copied().max().unwrap_or(0));
                    y_c += introduced_bits(enc, dir, v, next);
                }
            }
            let ratio = |a: f64, b: f64| if b == 0.0 { 0.0 } else { a / b };
            let benefit =
                6.0 * ratio(v_c as f64, w_c as f64) + ratio(w_c as f64, x as f64) - ratio(y_c as f64, z as f64) + ratio(f64::from(max_c), f64::from(max_all));
            if benefit > best.0 {
                best = (benefit, i);
            }
        }
        order.push(left.remove(best.1));
    }
    order
}

/// Whether cluster `c` reads the current copy of some state variable (inputs aside).
fn reads_current_state(enc: &Encoding, c: &Part) -> bool {
    (0..enc.num_vars()).any(|v| c.cur[v] && !enc.is_input(VarId::new(v)))
}

/// Which end of an order the clusters that read no current state bit go to ([`next_only_moved`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum NextOnly {
    /// Preimages: their first products then meet the target, a set over next bits, with
    /// constraints over next bits only, and quantify at once the next bits no later cluster
    /// reads (free variables' domains). Placed last, they were conjoined into a relation over
    /// both copies: NuSMV's gigamax files (17 next copies constrained by their domains in one
    /// cluster) check in 0.59–0.84 of the CPU time (`--engine bdd`; CHANGELOG, session 21).
    First,
    /// Products that start from a set over current bits ([`TransRel::with_successor`]).
    Last,
}

/// `order` with the clusters that read no current state bit moved to the end `to` (a stable
/// partition: each group keeps its order).
fn next_only_moved(enc: &Encoding, clusters: &[Part], order: &[usize], to: NextOnly) -> Vec<usize> {
    let (mut front, back): (Vec<usize>, Vec<usize>) = order.iter().partition(|&&c| reads_current_state(enc, &clusters[c]) == (to == NextOnly::Last));
    front.extend(back);
    front
}

/// The quantification schedule of `order` (positions in `clusters`) for one direction: each
/// quantified bit with the last cluster that reads it, unread ones with the first.
fn schedule(enc: &Encoding, clusters: &[Part], order: &[usize], dir: Direction) -> SymResult<Vec<Cluster>> {
    let n = enc.num_vars();
    let mut later_cur = vec![false; n];
    let mut later_next = vec![false; n];
    let mut out = Vec::with_capacity(order.len());
    for (i, &c) in order.iter().enumerate().rev() {
        let p = &clusters[c];
        let first = i == 0;
        let own_cur = |v: usize| (p.cur[v] || first) && !later_cur[v];
        let quant = match dir {
            Direction::Forward => enc.cube_of((0..n).filter(|&v| own_cur(v)).map(VarId::new), Copy::Cur)?,
            Direction::Backward => {
                let state_next = (0..n).filter(|&v| !enc.is_input(VarId::new(v)) && (p.next[v] || first) && !later_next[v]).map(VarId::new);
                let inputs = (0..n).filter(|&v| enc.is_input(VarId::new(v)) && own_cur(v)).map(VarId::new);
                enc.cube_of(state_next, Copy::Next)?.and(&enc.cube_of(inputs, Copy::Cur)?)?
            }
        };
        for v in 0..n {
            later_cur[v] |= p.cur[v];
            later_next[v] |= p.next[v];
        }
        out.push(Cluster { bdd: p.bdd.clone(), quant, reads_cur: reads_current_state(enc, p) });
    }
    out.reverse();
    Ok(out)
}

impl TransRel {
    /// The relation of `parts` under the process-wide [`Partitioning`].
    pub(crate) fn new(enc: &Encoding, parts: Vec<Part>) -> SymResult<TransRel> {
        Self::with(enc, parts, partitioning())
    }

    /// The relation of `parts` under `scheme`.
    pub(crate) fn with(enc: &Encoding, parts: Vec<Part>, scheme: Partitioning) -> SymResult<TransRel> {
        let count = parts.len();
        let clusters = match scheme {
            Partitioning::Sequential(limit) => sequential(enc, global_constraints_first(enc, parts), limit)?,
            Partitioning::Threshold(limit) | Partitioning::Iwls95(limit) => affinity_clusters(enc, parts, limit)?,
            Partitioning::Monolithic => sequential(enc, parts, usize::MAX)?,
        };
        let in_order: Vec<usize> = (0..clusters.len()).collect();
        let (image_order, pre_order) = match scheme {
            Partitioning::Iwls95(_) => (iwls95_order(enc, &clusters, Direction::Forward), iwls95_order(enc, &clusters, Direction::Backward)),
            Partitioning::Threshold(_) => (in_order.clone(), in_order),
            Partitioning::Sequential(_) | Partitioning::Monolithic => (in_order.clone(), next_only_moved(enc, &clusters, &in_order, NextOnly::First)),
        };
        let succ_order = next_only_moved(enc, &clusters, &pre_order, NextOnly::Last);
        let image = schedule(enc, &clusters, &image_order, Direction::Forward)?;
        let pre = schedule(enc, &clusters, &pre_order, Direction::Backward)?;
        let succ = schedule(enc, &clusters, &succ_order, Direction::Backward)?;
        let image_all = enc.cur_cube.and(&enc.input_cube)?;
        let pre_all = enc.next_cube.and(&enc.input_cube)?;
        Ok(TransRel { image, pre, succ, image_all, pre_all, parts: count })
    }

    pub(crate) fn clusters(&self) -> usize {
        self.image.len()
    }

    /// The successors of `from` (a set over current bits), over current bits.
    pub(crate) fn image(&self, enc: &Encoding, from: &Bdd) -> SymResult<Bdd> {
        if self.image.is_empty() {
            let any = from.exists(&self.image_all)?;
            return Ok(any);
        }
        let mut acc = from.clone();
        for c in &self.image {
            acc = acc.apply_exists(BooleanOperator::And, &c.bdd, &c.quant)?;
        }
        enc.to_cur(&acc)
    }

    /// The states with a successor in `to` (a set over current bits), over current bits.
    pub(crate) fn preimage(&self, enc: &Encoding, to: &Bdd) -> SymResult<Bdd> {
        let target = enc.to_next(to)?;
        if self.pre.is_empty() {
            return Ok(target.exists(&self.pre_all)?);
        }
        let mut acc = target;
        for c in &self.pre {
            acc = acc.apply_exists(BooleanOperator::And, &c.bdd, &c.quant)?;
        }
        Ok(acc)
    }

    /// The states of `within` (a set over current bits) with a successor in `to`: the preimage
    /// conjoined with `within` right after the first relational product with a cluster that
    /// reads current state bits ([`TransRel::within_after`]), so that the later products only
    /// carry the states the caller keeps (the fixpoints' care set: reachable, not yet found,
    /// satisfying the `E[… U …]`'s left side). Against conjoining after the last cluster,
    /// callgrind instructions of `check --engine bdd`: NuSMV's `smv-dist/gigamax` −11 %,
    /// `example_irst/gigamax` −9 %, `reactor/base` −9 %, `abp4` ±0 %; conjoining before the
    /// first product instead made `smv-dist/gigamax` 11 % slower. After a cluster over next bits
    /// only, the product would still be over next bits only, and conjoining `within` there
    /// multiplies the two (NuSMV's `deadlock/gas-nq7.smv`: no result in 120 s, against 1.4 s).
    pub(crate) fn preimage_within(&self, enc: &Encoding, to: &Bdd, within: &Bdd) -> SymResult<Bdd> {
        let target = enc.to_next(to)?;
        if self.pre.is_empty() {
            return Ok(target.exists(&self.pre_all)?.and(within)?);
        }
        let meet = self.within_after();
        let mut acc = target;
        for (i, c) in self.pre.iter().enumerate() {
            acc = acc.apply_exists(BooleanOperator::And, &c.bdd, &c.quant)?;
            if i == meet {
                acc = acc.and(within)?;
            }
        }
        Ok(acc)
    }

    /// The position in the preimage order after whose product [`TransRel::preimage_within`]
    /// conjoins its care set: the first cluster that reads current state bits, else the last.
    fn within_after(&self) -> usize {
        self.pre.iter().position(|c| c.reads_cur).unwrap_or(self.pre.len().saturating_sub(1))
    }

    /// The states of `within` (a set over current bits) with a successor: the preimage of all
    /// states, with `within` conjoined before the first cluster's relational product (it reads
    /// no next or input bit, so it moves inside their quantifiers), the clusters in the
    /// preimage order with those over next bits only last. NuSMV's `guidance.smv`: the
    /// unrestricted preimage did not finish in 100 s, this one on the reachable states takes
    /// well under a second.
    pub(crate) fn with_successor(&self, within: &Bdd) -> SymResult<Bdd> {
        if self.succ.is_empty() {
            return Ok(within.clone());
        }
        let mut acc = within.clone();
        for c in &self.succ {
            acc = acc.apply_exists(BooleanOperator::And, &c.bdd, &c.quant)?;
        }
        Ok(acc)
    }

    /// The inputs of the transitions in `pair` (a set over current and next bits), over input
    /// bits.
    pub(crate) fn transition_inputs(&self, enc: &Encoding, pair: &Bdd) -> SymResult<Bdd> {
        let mut acc = pair.clone();
        for c in &self.image {
            acc = acc.and(&c.bdd)?;
        }
        Ok(acc.exists(&enc.cur_cube.and(&enc.next_cube)?)?)
    }

    /// Whether some transition from `from` satisfies `region` (over current, input and next bits).
    pub(crate) fn some_transition(&self, from: &Bdd, region: &Bdd) -> SymResult<bool> {
        let mut acc = from.and(region)?;
        for c in &self.image {
            acc = acc.and(&c.bdd)?;
            if !acc.satisfiable() {
                return Ok(false);
            }
        }
        Ok(acc.satisfiable())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clustering_schemes_parse_with_and_without_a_limit() {
        let parse = |t: &str| t.parse::<Partitioning>();
        assert_eq!(parse("sequential"), Ok(Partitioning::Sequential(super::CLUSTER_NODES)));
        assert_eq!(parse("sequential:200"), Ok(Partitioning::Sequential(200)));
        assert_eq!(parse("threshold"), Ok(Partitioning::Threshold(1000)));
        assert_eq!(parse("iwls95:7"), Ok(Partitioning::Iwls95(7)));
        assert_eq!(parse("mono"), Ok(Partitioning::Monolithic));
        for bad in ["mono:5", "iwls95:", "iwls95:x", "threshold:0", "affinity", ""] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    use super::{Direction, Part, Partitioning, TransRel, VarId};
    use crate::symbolic::encoding::{Copy, Encoding};
    use crate::symbolic::{Bdd, SymbolicModel};
    use oxidd::{BooleanFunction, BooleanFunctionQuant, Function};

    const SCHEMES: [Partitioning; 6] = [
        Partitioning::Sequential(super::CLUSTER_NODES),
        Partitioning::Sequential(1),
        Partitioning::Threshold(1000),
        Partitioning::Threshold(1),
        Partitioning::Iwls95(20),
        Partitioning::Monolithic,
    ];

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    /// A random network: booleans and one `0..3`, an input, nondeterministic and functional
    /// `next()`s, sometimes a `TRANS` over most next copies and an `INVAR`.
    fn network(rng: &mut Rng) -> String {
        let n = 4 + rng.below(5) as usize;
        let mut s = String::from("MODULE main\nIVAR i : boolean;\nVAR\n  w : 0..3;\n");
        for k in 0..n {
            s.push_str(&format!("  b{k} : boolean;\n"));
        }
        s.push_str("ASSIGN\n  next(w) := case b0 : (w + 1) mod 4; i : 0; TRUE : w; esac;\n");
        for k in 0..n {
            let (a, b) = (rng.below(n as u64), rng.below(n as u64));
            let rhs = match rng.below(4) {
                0 => format!("b{a} & !b{b}"),
                1 => format!("{{b{k}, b{a} | i}}"),
                2 => format!("b{a} xor (w = {})", rng.below(4)),
                _ => continue,
            };
            s.push_str(&format!("  next(b{k}) := {rhs};\n"));
        }
        if rng.below(2) == 0 {
            let changes: Vec<String> = (0..n).map(|k| format!("next(b{k}) != b{k}")).collect();
            s.push_str(&format!("TRANS count({}) <= 1\n", changes.join(", ")));
        }
        if rng.below(2) == 0 {
            s.push_str(&format!("INVAR !(b{} & w = 3)\n", rng.below(n as u64)));
        }
        s.push_str("SPEC AG EF b0\n");
        s
    }

    fn model(text: &str) -> SymbolicModel {
        let file = crate::source::SourceFile::new("net.smv", text);
        let (program, diags) = crate::frontend::load(&file, None);
        let program = program.unwrap_or_else(|| panic!("{text}\n{diags:?}"));
        SymbolicModel::build(&program, None, 1).unwrap_or_else(|_| panic!("not built:\n{text}"))
    }

    /// The model's parts with the input domain, as the model's relation gets them.
    fn parts(m: &SymbolicModel) -> Vec<Part> {
        let enc = &m.enc;
        let mut parts: Vec<Part> = m.parts.iter().map(|p| Part { bdd: p.bdd.clone(), cur: p.cur.clone(), next: p.next.clone() }).collect();
        let n = enc.num_vars();
        let inputs: Vec<bool> = (0..n).map(|v| enc.is_input(VarId::new(v))).collect();
        let mut dom = enc.t();
        for v in (0..n).filter(|&v| inputs[v]) {
            dom = dom.and(&enc.in_domain(VarId::new(v), Copy::Cur).unwrap()).unwrap();
        }
        parts.push(Part { bdd: dom, cur: inputs, next: vec![false; n] });
        parts
    }

    /// A random set of states: a union of random partial assignments.
    fn random_set(enc: &Encoding, rng: &mut Rng) -> Bdd {
        let mut set = enc.f();
        for _ in 0..1 + rng.below(4) {
            let mut cube = enc.t();
            for v in (0..enc.num_vars()).map(VarId::new) {
                if !enc.is_input(v) && rng.below(3) == 0 {
                    let value = rng.below(enc.domain_len(v) as u64) as usize;
                    cube = cube.and(&enc.value_is(v, Copy::Cur, value).unwrap()).unwrap();
                }
            }
            set = set.or(&cube).unwrap();
        }
        set
    }

    #[test]
    fn every_partitioning_gives_the_monolithic_image_and_preimages() {
        let mut rng = Rng(13);
        let mut clusters_seen = [0usize; SCHEMES.len()];
        for _ in 0..40 {
            let text = network(&mut rng);
            let m = model(&text);
            let enc = &m.enc;
            let mut relation = enc.t();
            for p in parts(&m) {
                relation = relation.and(&p.bdd).unwrap();
            }
            let img_q = enc.cur_cube.and(&enc.input_cube).unwrap();
            let pre_q = enc.next_cube.and(&enc.input_cube).unwrap();
            let rels: Vec<TransRel> = SCHEMES.iter().map(|&s| TransRel::with(enc, parts(&m), s).unwrap()).collect();
            for (k, r) in rels.iter().enumerate() {
                clusters_seen[k] += r.clusters();
            }
            for _ in 0..6 {
                let set = random_set(enc, &mut rng);
                let image = enc.to_cur(&set.and(&relation).unwrap().exists(&img_q).unwrap()).unwrap();
                let pre = enc.to_next(&set).unwrap().and(&relation).unwrap().exists(&pre_q).unwrap();
                let within = random_set(enc, &mut rng);
                let pre_within = pre.and(&within).unwrap();
                for (r, scheme) in rels.iter().zip(SCHEMES) {
                    assert!(r.image(enc, &set).unwrap() == image, "{scheme:?}: image differs on\n{text}");
                    assert!(r.preimage(enc, &set).unwrap() == pre, "{scheme:?}: preimage differs on\n{text}");
                    let got = r.preimage_within(enc, &set, &within).unwrap();
                    assert!(got == pre_within, "{scheme:?}: preimage within a set differs on\n{text}");
                    let live = relation.exists(&pre_q).unwrap().and(&within).unwrap();
                    assert!(r.with_successor(&within).unwrap() == live, "{scheme:?}: states with a successor differ on\n{text}");
                }
            }
        }
        // The small thresholds split the relation, the monolithic scheme never does.
        assert!(clusters_seen[1] > 40 && clusters_seen[3] > 40, "{clusters_seen:?}");
        assert_eq!(clusters_seen[5], 40);
    }

    /// Preimages meet the clusters over next bits only first, `with_successor` (which starts
    /// from a set over current bits) last, and `preimage_within` conjoins its care set after a
    /// cluster that reads current bits (else the product of a set over next bits and one over
    /// current bits is built unquantified: NuSMV's gas-nq7 did not finish in 120 s).
    #[test]
    fn next_only_clusters_come_first_in_preimages_and_last_from_current_sets() {
        let m = model(
            "MODULE main\nVAR\n  x : 0..2;\n  y : 0..4;\n  z : boolean;\nASSIGN\n  next(y) := case y < 4 : y + 1; TRUE : 0; esac;\n  next(z) := !z;\nSPEC AG EF y = 0\n",
        );
        let enc = &m.enc;
        for scheme in [Partitioning::Sequential(super::CLUSTER_NODES), Partitioning::Sequential(1), Partitioning::Monolithic] {
            let r = TransRel::with(enc, parts(&m), scheme).unwrap();
            let split = |cs: &[super::Cluster], first_reads_cur: bool| {
                let k = cs.iter().position(|c| c.reads_cur != first_reads_cur).unwrap_or(cs.len());
                cs[k..].iter().all(|c| c.reads_cur != first_reads_cur)
            };
            assert!(split(&r.pre, false), "{scheme:?}: preimage order");
            assert!(split(&r.succ, true), "{scheme:?}: with_successor order");
            assert!(r.pre[r.within_after()].reads_cur, "{scheme:?}: care set after a cluster over next bits only");
            assert_eq!(r.pre.len(), r.succ.len());
        }
        // One part per cluster: x's domain (next bits only) is the first preimage cluster.
        let r = TransRel::with(enc, parts(&m), Partitioning::Sequential(1)).unwrap();
        assert!(!r.pre[0].reads_cur && r.succ[0].reads_cur && r.within_after() > 0, "{} clusters", r.pre.len());
    }

    #[test]
    fn each_bit_is_quantified_once_after_the_last_cluster_reading_it() {
        let mut rng = Rng(7);
        for _ in 0..25 {
            let text = network(&mut rng);
            let m = model(&text);
            let enc = &m.enc;
            for scheme in SCHEMES {
                let r = TransRel::with(enc, parts(&m), scheme).unwrap();
                for (dir, list) in [(Direction::Forward, &r.image), (Direction::Backward, &r.pre)] {
                    let all = if dir == Direction::Forward { enc.cur_cube.and(&enc.input_cube) } else { enc.next_cube.and(&enc.input_cube) };
                    let all = all.unwrap();
                    let mut union = enc.t();
                    let mut bits = 0;
                    for (i, c) in list.iter().enumerate() {
                        union = union.and(&c.quant).unwrap();
                        bits += c.quant.node_count() - 1;
                        for later in &list[i + 1..] {
                            assert!(later.bdd.exists(&c.quant).unwrap() == later.bdd, "{scheme:?}: a later cluster reads a bit quantified at {i}:\n{text}");
                        }
                    }
                    assert!(union == all, "{scheme:?}: some bit is never quantified:\n{text}");
                    assert_eq!(bits, all.node_count() - 1, "{scheme:?}: a bit is quantified twice:\n{text}");
                }
            }
        }
    }
}
