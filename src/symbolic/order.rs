//! The static variable order of the BDD engine: the declaration order, or a FORCE order when the
//! declaration order scatters the variables that the transition relation's parts read together.
//!
//! Every `next()` assignment, `x := e`, `TRANS` and `INVAR` constraint is a hyperedge over the
//! variables it reads (and assigns). The cost of an order is the sum of the hyperedges' spans
//! (last position minus first). FORCE (Aloul, Markov and Sakallah, GLSVLSI 2003) moves every
//! variable to the mean centre of gravity of its hyperedges and sorts, a few rounds, keeping the
//! cheapest order seen. Hand-written models (NuSMV's examples: processes declared as instances,
//! their variables together) are already well ordered and keep NuSMV's default order (input
//! variables first, then the state variables, each in the declaration order; the process
//! selector is an input there, and first: every process's assignments read it): FORCE's order is
//! taken only when it at most halves the span. Generated models
//! (pyboolnet's Boolean networks, genes in alphabetical order) are where it pays: the steady-state
//! condition of `klamt_tcr` (40 genes) does not finish in the declaration order.
//!
//! The order only decides the BDD variables' levels; every result that depends on an order
//! (the states picked for traces) is computed in the declaration order (`Encoding::pick_state`),
//! so output is the same whichever order is used.

use super::cone::reads;
use crate::ir::VarKind;
use crate::lowering::program::{Domain, Expr, System};

/// Rounds of FORCE (it converges within a few on the models we see).
const ROUNDS: usize = 12;

/// FORCE's order is used when its span is at most this fraction of the declaration order's.
const GAIN: f64 = 0.5;

/// Groups of word variables whose bits are interleaved, most significant bits first (`a.7 b.7
/// a.6 b.6 …`), as NuSMV's default order does for the operands of word operations: words of one
/// width that a transition part reads together (`next(a) := a + b`). Declared one after the
/// other, the adder relation `a' = a + b` has to remember all of `a`'s bits while it reads
/// `b`'s, 2^width nodes where interleaved it needs a few per bit; an `EF` over two 8-bit words
/// took 12 s instead of NuSMV's 0.5 s. Each group has at least two variables, in the
/// declaration order; a variable is in at most one group.
pub(crate) fn interleaved_words(system: &System) -> Vec<Vec<usize>> {
    let width = |v: usize| match system.vars[v].domain {
        Domain::Word { width, .. } => Some(width),
        _ => None,
    };
    let n = system.vars.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut v: usize) -> usize {
        while parent[v] != v {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        v
    }
    for edge in hyperedges(system) {
        let words: Vec<usize> = edge.into_iter().filter(|&v| width(v).is_some()).collect();
        for (i, &a) in words.iter().enumerate() {
            if let Some(&b) = words[i + 1..].iter().find(|&&b| width(b) == width(a)) {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = vec![vec![]; n];
    for v in 0..n {
        let r = root(&mut parent, v);
        groups[r].push(v);
    }
    groups.retain(|g| g.len() >= 2);
    groups
}

/// Positions of the system's variables (`result[i]` = the variable at position `i`).
pub(crate) fn static_order(system: &System) -> Vec<usize> {
    let n = system.vars.len();
    let identity: Vec<usize> = (0..n).collect();
    let edges = hyperedges(system);
    if edges.is_empty() || n < 3 {
        return inputs_first(system);
    }
    let declared = span_cost(&edges, &identity);
    let (order, cost) = force(n, &edges, identity.clone());
    if (cost as f64) <= GAIN * declared as f64 { order } else { inputs_first(system) }
}

/// NuSMV's default order: the input variables first, then the state variables, each in the
/// declaration order. A [recorded step input](System::step_inputs) (the process selector under
/// `FAIRNESS running`) counts as an input: every transition part reads it.
fn inputs_first(system: &System) -> Vec<usize> {
    let is_input = |v: usize| system.vars[v].kind == VarKind::Input || system.step_inputs.get(v) == Some(&true);
    let (mut order, rest): (Vec<usize>, Vec<usize>) = (0..system.vars.len()).partition(|&v| is_input(v));
    order.extend(rest);
    order
}

/// The variables each relation part reads (parts over fewer than two variables are left out).
fn hyperedges(system: &System) -> Vec<Vec<usize>> {
    let mut edges = vec![];
    let mut add = |e: &Expr, own: Option<usize>| {
        let (cur, next) = reads(system, e);
        let mut vars: Vec<usize> = (0..cur.len()).filter(|&v| cur[v] || next[v] || own == Some(v)).collect();
        vars.dedup();
        if vars.len() >= 2 {
            edges.push(vars);
        }
    };
    for (v, e) in system.next_assign.iter().enumerate() {
        if let Some(e) = e {
            add(e, Some(v));
        }
    }
    for (v, e) in system.invar_assign.iter().enumerate() {
        if let Some(e) = e {
            add(e, Some(v));
        }
    }
    for e in system.trans.iter().chain(&system.invar) {
        add(e, None);
    }
    edges
}

/// Sum of the hyperedges' spans under `order` (position → variable).
fn span_cost(edges: &[Vec<usize>], order: &[usize]) -> u64 {
    let mut pos = vec![0usize; order.len()];
    for (i, &v) in order.iter().enumerate() {
        pos[v] = i;
    }
    edges
        .iter()
        .map(|e| {
            let (lo, hi) = e.iter().fold((usize::MAX, 0), |(lo, hi), &v| (lo.min(pos[v]), hi.max(pos[v])));
            (hi - lo) as u64
        })
        .sum()
}

/// FORCE from `start`: the cheapest order of the rounds and its cost.
fn force(n: usize, edges: &[Vec<usize>], start: Vec<usize>) -> (Vec<usize>, u64) {
    let mut best_cost = span_cost(edges, &start);
    let mut best = start.clone();
    let mut order = start;
    let mut pos = vec![0f64; n];
    for _ in 0..ROUNDS {
        for (i, &v) in order.iter().enumerate() {
            pos[v] = i as f64;
        }
        let mut sum = vec![0f64; n];
        let mut count = vec![0u32; n];
        for e in edges {
            let cog = e.iter().map(|&v| pos[v]).sum::<f64>() / e.len() as f64;
            for &v in e {
                sum[v] += cog;
                count[v] += 1;
            }
        }
        let target: Vec<f64> = (0..n).map(|v| if count[v] > 0 { sum[v] / f64::from(count[v]) } else { pos[v] }).collect();
        // Ties keep the current relative order (a stable sort of the current order).
        order.sort_by(|&a, &b| target[a].total_cmp(&target[b]));
        let cost = span_cost(edges, &order);
        if cost < best_cost {
            best_cost = cost;
            best = order.clone();
        } else if cost == best_cost {
            break;
        }
    }
    (best, best_cost)
}

#[cfg(test)]
mod tests {
    use super::{force, span_cost, static_order};

    #[test]
    fn force_gathers_scattered_chains() {
        // A chain 0-5, 5-1, 1-4, 4-2, 2-3 declared as 0..6: span 5+4+3+2+1 = 15.
        let edges = vec![vec![0, 5], vec![1, 5], vec![1, 4], vec![2, 4], vec![2, 3]];
        let identity: Vec<usize> = (0..6).collect();
        assert_eq!(span_cost(&edges, &identity), 15);
        let (order, cost) = force(6, &edges, identity);
        assert!(cost < 15, "FORCE did not improve: {order:?} costs {cost}");
        assert_eq!(span_cost(&edges, &order), cost);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..6).collect::<Vec<_>>());
    }

    #[test]
    fn inputs_and_recorded_inputs_come_first_as_in_nusmv() {
        use crate::ir::{Domain, VarKind};
        // x, i (input), y, s (a recorded step input such as the process selector under
        // `FAIRNESS running`): NuSMV's default order is i, then x and y; s counts as an input.
        let mut system =
            crate::explicit::test_support::system("main", &[("x", Domain::Boolean), ("i", Domain::Boolean), ("y", Domain::Boolean), ("s", Domain::Boolean)]);
        system.vars[1].kind = VarKind::Input;
        system.step_inputs = vec![false, false, false, true];
        assert_eq!(static_order(&system), [1, 3, 0, 2]);
        system.step_inputs.clear();
        assert_eq!(static_order(&system), [1, 0, 2, 3]);
    }
}
