//! LTL (NNF over `X U R`) to a generalized Büchi automaton by the tableau construction of Gerth,
//! Peled, Vardi and Wolper ("Simple on-the-fly automatic verification of linear temporal
//! logic", 1995).
//!
//! A tableau node is a set `old` of subformulas that hold at the current position (its literals
//! are the node's label) and a set `next` of obligations for the next position; nodes with equal
//! `old` and `next` are one automaton state. Edges go from each node to the nodes expanded from
//! its `next`. One acceptance set per `a U b` in the closure: the states where `a U b` is not
//! promised or `b` holds. A run is a sequence of states from an initial one (expanded from the
//! formula itself) whose labels hold along the path and which visits every acceptance set
//! infinitely often. Sets are sorted `Vec<NnfId>`s (formulas of specs are small); expansion uses a
//! worklist, not recursion.

use super::formula::{Arena, Atom, NnfId, Node};
use rustc_hash::FxHashMap;

/// Stop translating when the automaton grows beyond this many states.
pub(crate) const MAX_STATES: usize = 1 << 16;

/// A generalized Büchi automaton with state labels.
#[derive(Clone, Debug, Default)]
pub(crate) struct Gba {
    /// Per state: the literals that must hold at the position where the run is in that state.
    pub(crate) labels: Vec<Vec<(Atom, bool)>>,
    /// Per state: its successor states.
    pub(crate) succ: Vec<Vec<u32>>,
    pub(crate) initial: Vec<u32>,
    /// Per state: the acceptance sets it belongs to (bit `i` = set `i`).
    pub(crate) accepting: Vec<u64>,
    /// Number of acceptance sets (at most 64).
    pub(crate) sets: u32,
}

/// `incoming` marker of the initial pseudo-state.
const INIT: u32 = u32::MAX;

#[derive(Clone)]
struct Pending {
    incoming: Vec<u32>,
    new: Vec<NnfId>,
    old: Vec<NnfId>,
    next: Vec<NnfId>,
}

struct Expanded {
    incoming: Vec<u32>,
    old: Vec<NnfId>,
}

/// The automaton of `root` (already negated by the caller when checking a spec).
pub(crate) fn translate(arena: &Arena, root: NnfId) -> Result<Gba, String> {
    let mut states: Vec<Expanded> = vec![];
    let mut index: FxHashMap<(Vec<NnfId>, Vec<NnfId>), u32> = FxHashMap::default();
    let mut work = vec![Pending { incoming: vec![INIT], new: vec![root], old: vec![], next: vec![] }];
    'nodes: while let Some(mut n) = work.pop() {
        loop {
            let Some(eta) = n.new.pop() else {
                n.old.sort_unstable();
                n.old.dedup();
                n.next.sort_unstable();
                n.next.dedup();
                let key = (n.old, n.next);
                if let Some(&i) = index.get(&key) {
                    states[i as usize].incoming.extend(n.incoming);
                } else {
                    if states.len() >= MAX_STATES {
                        return Err(format!("the automaton of the negated spec has more than {MAX_STATES} states"));
                    }
                    let i = states.len() as u32;
                    let (old, next) = key.clone();
                    index.insert(key, i);
                    states.push(Expanded { incoming: n.incoming, old });
                    work.push(Pending { incoming: vec![i], new: next, old: vec![], next: vec![] });
                }
                continue 'nodes;
            };
            if n.old.contains(&eta) {
                continue;
            }
            match arena.node(eta) {
                Node::True => n.old.push(eta),
                Node::False => continue 'nodes,
                Node::Lit(a, p) => {
                    let clash = n.old.iter().any(|&o| arena.node(o) == Node::Lit(a, !p));
                    if clash {
                        continue 'nodes;
                    }
                    n.old.push(eta);
                }
                Node::And(a, b) => {
                    n.old.push(eta);
                    n.new.extend([a, b]);
                }
                Node::X(a) => {
                    n.old.push(eta);
                    n.next.push(a);
                }
                Node::Or(a, b) | Node::U(a, b) | Node::R(a, b) => {
                    n.old.push(eta);
                    // Split: `first` takes the left alternative, `n` the right one.
                    let mut first = n.clone();
                    match arena.node(eta) {
                        Node::Or(..) => {
                            first.new.push(a);
                            n.new.push(b);
                        }
                        // a U b = b ∨ (a ∧ X (a U b))
                        Node::U(..) => {
                            first.new.push(a);
                            first.next.push(eta);
                            n.new.push(b);
                        }
                        // a R b = (a ∧ b) ∨ (b ∧ X (a R b))
                        _ => {
                            first.new.push(b);
                            first.next.push(eta);
                            n.new.extend([a, b]);
                        }
                    }
                    work.push(first);
                }
            }
        }
    }
    finish(arena, &states)
}

fn finish(arena: &Arena, states: &[Expanded]) -> Result<Gba, String> {
    let mut untils: Vec<(NnfId, NnfId)> = states.iter().flat_map(|s| s.old.iter()).filter_map(|&f| until_rhs(arena, f).map(|b| (f, b))).collect();
    untils.sort_unstable();
    untils.dedup();
    let mut gba = Gba::default();
    let mut useful_sets = vec![];
    for &(u, b) in &untils {
        let member: Vec<bool> = states.iter().map(|s| !s.old.contains(&u) || s.old.contains(&b)).collect();
        if member.iter().all(|&m| m) {
            continue;
        }
        useful_sets.push(member);
    }
    if useful_sets.len() > 64 {
        return Err(format!("the automaton of the negated spec has {} acceptance sets (at most 64)", useful_sets.len()));
    }
    gba.sets = useful_sets.len() as u32;
    gba.succ = vec![vec![]; states.len()];
    for (i, s) in states.iter().enumerate() {
        gba.labels.push(s.old.iter().filter_map(|&f| if let Node::Lit(a, p) = arena.node(f) { Some((a, p)) } else { None }).collect());
        gba.accepting.push(useful_sets.iter().enumerate().filter(|(_, m)| m[i]).fold(0u64, |acc, (k, _)| acc | 1 << k));
        for &from in &s.incoming {
            if from == INIT {
                gba.initial.push(i as u32);
            } else {
                gba.succ[from as usize].push(i as u32);
            }
        }
    }
    for s in &mut gba.succ {
        s.sort_unstable();
        s.dedup();
    }
    gba.initial.sort_unstable();
    gba.initial.dedup();
    Ok(gba)
}

fn until_rhs(arena: &Arena, f: NnfId) -> Option<NnfId> {
    if let Node::U(_, b) = arena.node(f) { Some(b) } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::ltl::past::PastMonitor;
    use crate::ir::PropId;
    use crate::ltl::{Ltl, LtlOp};

    fn automaton(f: &Ltl<PropId>) -> Gba {
        let mut arena = Arena::new();
        let root = arena.nnf(f, false, &mut PastMonitor::default()).unwrap();
        translate(&arena, root).unwrap()
    }

    #[test]
    fn f_p_has_one_acceptance_set_and_a_waiting_state() {
        let g = automaton(&Ltl::Unary(LtlOp::F, Box::new(Ltl::Atom(PropId::new(0)))));
        assert_eq!(g.sets, 1);
        // ⊤ U p: the state promising p later (not accepting) and the state where p holds, then
        // the true-forever state.
        assert!(g.initial.len() == 2);
        assert!(g.accepting.contains(&0));
    }

    #[test]
    fn g_p_is_one_looping_state() {
        let g = automaton(&Ltl::Unary(LtlOp::G, Box::new(Ltl::Atom(PropId::new(0)))));
        assert_eq!(g.sets, 0);
        assert_eq!(g.labels.len(), 1);
        assert_eq!(g.succ[0], vec![0]);
        assert_eq!(g.labels[0], vec![(Atom::Prop(PropId::new(0)), true)]);
    }
}
