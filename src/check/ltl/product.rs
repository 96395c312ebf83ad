//! The product of a Kripke structure, the past monitor and the automaton of `¬φ`, explored on
//! the fly, and its emptiness check: Couvreur's SCC algorithm ("On-the-fly verification of linear
//! temporal logic", FM 1999) for generalized Büchi acceptance, stopping at the first SCC that
//! holds a cycle through every acceptance set.
//!
//! A product state is `(model state, monitor bits, automaton state)` with the automaton state's
//! label true in the model state and the monitor bits; successors pair each model successor with
//! each automaton successor whose label holds there. Acceptance sets: the automaton's, then one
//! per fairness constraint (the product states whose model state satisfies it). Only infinite
//! paths count: a product state without successors (a deadlock of the model, or a label that no
//! successor satisfies) is on no accepting run, as in NuSMV 2.5.4.
//!
//! The accepting lasso: the DFS path from an initial product state to the root of the accepting
//! SCC, then, inside the SCC, shortest paths (BFS) through a state of each acceptance set still
//! missing and back to the root. Its model states are the counterexample.

use super::past::PastMonitor;
use super::tableau::Gba;
use crate::explicit::kripke::{KripkeStructure, StateId};
use crate::ir::PropId;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

type Key = (StateId, u64, u32);

/// An accepting lasso of the product, as model states: `states[loop_start..]` repeats forever.
pub(crate) struct Lasso {
    pub(crate) states: Vec<StateId>,
    /// The monitor bits at each position.
    pub(crate) bits: Vec<u64>,
    pub(crate) loop_start: usize,
}

/// What the search found and how much of the product it built.
pub(crate) struct Search {
    /// Some run of the product is accepting (the spec is false).
    pub(crate) accepting: bool,
    /// One such run, when asked for.
    pub(crate) lasso: Option<Lasso>,
    pub(crate) product_states: usize,
}

/// The product being explored.
pub(crate) struct Product<'a> {
    kripke: &'a KripkeStructure,
    past: &'a PastMonitor,
    gba: &'a Gba,
    fairness: &'a [PropId],
    /// Every acceptance set: automaton sets then fairness constraints.
    all: u64,
    keys: Vec<Key>,
    ids: FxHashMap<Key, u32>,
}

/// A DFS frame: the state and where its successor enumeration stands.
struct Frame {
    id: u32,
    /// Index into the model successors of the state.
    model: u32,
    /// Index into the automaton successors, for the current model successor.
    auto: u32,
    /// Monitor bits of the current model successor.
    bits: u64,
}

impl<'a> Product<'a> {
    pub(crate) fn new(kripke: &'a KripkeStructure, past: &'a PastMonitor, gba: &'a Gba, fairness: &'a [PropId]) -> Result<Product<'a>, String> {
        let sets = gba.sets as usize + fairness.len();
        if sets > 64 {
            return Err(format!("the spec's automaton and the fairness constraints need {sets} acceptance sets (at most 64)"));
        }
        let all = if sets == 64 { u64::MAX } else { (1u64 << sets) - 1 };
        Ok(Product { kripke, past, gba, fairness, all, keys: vec![], ids: FxHashMap::default() })
    }

    fn label_holds(&self, q: u32, s: StateId, bits: u64) -> bool {
        self.gba.labels[q as usize].iter().all(|&(atom, positive)| {
            let value = match atom {
                super::formula::Atom::Prop(p) => self.kripke.props[p.index()].contains(s.index()),
                super::formula::Atom::Past(b) => bits >> b & 1 == 1,
            };
            value == positive
        })
    }

    fn acceptance(&self, id: u32) -> u64 {
        let (s, _, q) = self.keys[id as usize];
        let mut acc = self.gba.accepting[q as usize];
        for (k, &p) in self.fairness.iter().enumerate() {
            if self.kripke.props[p.index()].contains(s.index()) {
                acc |= 1 << (self.gba.sets as usize + k);
            }
        }
        acc
    }

    /// The id of `key`, and whether it was new.
    fn intern(&mut self, key: Key) -> (u32, bool) {
        if let Some(&id) = self.ids.get(&key) {
            return (id, false);
        }
        let id = self.keys.len() as u32;
        self.keys.push(key);
        self.ids.insert(key, id);
        (id, true)
    }

    /// The next successor key of the frame's state, advancing the frame.
    fn next_successor(&self, frame: &mut Frame) -> Option<Key> {
        let (s, bits, q) = self.keys[frame.id as usize];
        let model = self.kripke.succ.neighbours(s);
        let autos = &self.gba.succ[q as usize];
        while (frame.model as usize) < model.len() {
            let t = model[frame.model as usize];
            if frame.auto == 0 {
                frame.bits = if self.past.is_empty() { 0 } else { self.past.step(Some(bits), self.kripke, t) };
            }
            while (frame.auto as usize) < autos.len() {
                let q2 = autos[frame.auto as usize];
                frame.auto += 1;
                if self.label_holds(q2, t, frame.bits) {
                    return Some((t, frame.bits, q2));
                }
            }
            frame.model += 1;
            frame.auto = 0;
        }
        None
    }

    fn initial_keys(&self) -> Vec<Key> {
        let mut keys = vec![];
        for &s in &self.kripke.initial {
            let bits = if self.past.is_empty() { 0 } else { self.past.step(None, self.kripke, s) };
            keys.extend(self.gba.initial.iter().filter(|&&q| self.label_holds(q, s, bits)).map(|&q| (s, bits, q)));
        }
        keys
    }

    /// Couvreur's algorithm from every initial product state; the first accepting SCC found
    /// gives the lasso (when `want_lasso`).
    pub(crate) fn search(mut self, want_lasso: bool) -> Search {
        let mut live: Vec<bool> = vec![];
        let mut roots: Vec<(u32, u64)> = vec![];
        let mut active: Vec<u32> = vec![];
        let mut dfs: Vec<Frame> = vec![];
        for key in self.initial_keys() {
            let (start, new) = self.intern(key);
            if !new {
                continue;
            }
            live.push(true);
            roots.push((start, self.acceptance(start)));
            active.push(start);
            dfs.push(Frame { id: start, model: 0, auto: 0, bits: 0 });
            while let Some(frame) = dfs.last_mut() {
                if let Some(key) = self.next_successor(frame) {
                    let (t, new) = self.intern(key);
                    if new {
                        crate::deadline::tick(t as usize);
                        live.push(true);
                        roots.push((t, self.acceptance(t)));
                        active.push(t);
                        dfs.push(Frame { id: t, model: 0, auto: 0, bits: 0 });
                    } else if live[t as usize] {
                        let mut acc = 0;
                        while roots.last().is_some_and(|r| r.0 > t) {
                            acc |= roots.pop().map_or(0, |r| r.1);
                        }
                        if let Some(top) = roots.last_mut() {
                            top.1 |= acc;
                            if top.1 & self.all == self.all {
                                let root = top.0;
                                let lasso = want_lasso.then(|| self.lasso(&dfs, root, &live));
                                return Search { accepting: true, lasso, product_states: self.keys.len() };
                            }
                        }
                    }
                } else {
                    let id = frame.id;
                    dfs.pop();
                    if roots.last().is_some_and(|r| r.0 == id) {
                        roots.pop();
                        while let Some(x) = active.pop() {
                            live[x as usize] = false;
                            if x == id {
                                break;
                            }
                        }
                    }
                }
            }
        }
        Search { accepting: false, lasso: None, product_states: self.keys.len() }
    }

    /// The lasso through the SCC of `root` (live states numbered from `root` on).
    fn lasso(&self, dfs: &[Frame], root: u32, live: &[bool]) -> Lasso {
        let in_scc = |id: u32| id >= root && live[id as usize];
        let mut path: Vec<u32> = dfs.iter().map(|f| f.id).take_while(|&id| id != root).collect();
        let loop_start = path.len();
        path.push(root);
        let mut missing = self.all & !self.acceptance(root);
        let mut at = root;
        while missing != 0 {
            let Some(seg) = self.bfs(at, |id| self.acceptance(id) & missing != 0, &in_scc) else { break };
            at = *seg.last().unwrap_or(&at);
            missing &= !self.acceptance(at);
            path.extend(seg);
        }
        if let Some(mut back) = self.bfs(at, |id| id == root, &in_scc) {
            back.pop(); // the root itself: the loop closes there
            path.extend(back);
        }
        Lasso { states: path.iter().map(|&id| self.keys[id as usize].0).collect(), bits: path.iter().map(|&id| self.keys[id as usize].1).collect(), loop_start }
    }

    /// A shortest path (at least one step) from `from` to a state satisfying `target`, inside
    /// `allowed`; the states after `from`.
    fn bfs(&self, from: u32, target: impl Fn(u32) -> bool, allowed: &impl Fn(u32) -> bool) -> Option<Vec<u32>> {
        let mut parent: FxHashMap<u32, u32> = FxHashMap::default();
        let mut queue = VecDeque::from([from]);
        while let Some(u) = queue.pop_front() {
            let mut frame = Frame { id: u, model: 0, auto: 0, bits: 0 };
            while let Some(key) = self.next_successor(&mut frame) {
                let Some(&v) = self.ids.get(&key) else { continue };
                if !allowed(v) || parent.contains_key(&v) {
                    continue;
                }
                parent.insert(v, u);
                if target(v) {
                    let mut seg = vec![v];
                    let mut x = v;
                    while let Some(&p) = parent.get(&x) {
                        if p == from {
                            break;
                        }
                        seg.push(p);
                        x = p;
                    }
                    seg.reverse();
                    return Some(seg);
                }
                queue.push_back(v);
            }
        }
        None
    }
}
