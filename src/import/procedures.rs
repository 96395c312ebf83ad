//! Splitting an [`Rsm`] into procedures: one per (component, entry) pair that is used, each a
//! graph the `.smv` language can express.
//!
//! A procedure holds the locations reachable from its entry inside the component: along local
//! edges, and from each call node along the continuations of the callee procedure's exits
//! (computed to a fixpoint, so only exits the callee can reach count). Shapes the language
//! forbids become *virtual locations*, each a stutter copy of a node (same labels, one successor),
//! so only `EX`/`AX` formulas can tell them apart:
//! * an exit that has outgoing edges keeps its node as an ordinary location with an extra edge
//!   to a virtual exit location ([`LocKind::SplitExit`]); so does an exit that is also the
//!   procedure's entry under [`EntryExit::Return`], while under [`EntryExit::Stuck`] (RSMCheck's
//!   semantics, where a call node's successors are the entry's successors, so such a call never
//!   returns) the entry is no exit at all;
//! * a call continues at exactly one location per callee exit (Finis 2012, Def. 2.4.1), so a
//!   return node `(b, ex)` whose successors are not exactly one node (several, a call node, or
//!   none) becomes a virtual location of the caller ([`LocKind::Return`], labelled like `ex`, as
//!   the RSM labels return nodes) with the return node's successors; without successors it is a
//!   deadlock, which the writer makes loop, as RSMCheck's `EG` treats that dead end.
//!
//! Locations without successors (deadlocks) are left as they are; the writer makes them loop.

use super::rsm::{Rsm, Target};
use rustc_hash::{FxHashMap, FxHashSet};

/// What a call does when the callee's entry is also one of its exits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EntryExit {
    /// RSMCheck's semantics: the call node's successors are the entry's local successors, so the
    /// callee never returns through that exit (a dead end if the entry has no successors).
    #[default]
    Stuck,
    /// A procedure that may return at once: a virtual exit location after the entry.
    Return,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum LocKind {
    /// The component's node.
    Node(usize),
    /// The virtual exit location of exit node `n` (`n` itself stays an ordinary location).
    SplitExit(usize),
    /// Virtual location for the return node of call state `call` and callee exit node `exit`.
    Return { call: usize, exit: usize },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Succ {
    Loc(usize),
    Call(usize),
}

#[derive(Clone, Debug)]
pub(crate) struct Loc {
    pub kind: LocKind,
    pub succ: Vec<Succ>,
    /// For exits: the exit node of the component this location stands for.
    pub exit_of: Option<usize>,
}

#[derive(Clone, Debug)]
pub(crate) struct CallState {
    pub rbox: usize,
    /// The callee's node the call enters.
    pub entry: usize,
    pub callee: usize,
    /// Per callee exit (by the callee component's exit node): the continuation location.
    pub returns: Vec<(usize, Succ)>,
}

#[derive(Clone, Debug)]
pub(crate) struct Procedure {
    pub component: usize,
    pub entry: usize,
    /// Location 0 is the entry.
    pub locs: Vec<Loc>,
    pub calls: Vec<CallState>,
    /// Exit locations, in discovery order.
    pub exits: Vec<usize>,
}

impl Procedure {
    pub(crate) fn exit_nodes(&self) -> impl Iterator<Item = usize> + '_ {
        self.exits.iter().filter_map(|&l| self.locs[l].exit_of)
    }
    pub(crate) fn is_deadlock(&self, l: usize) -> bool {
        self.locs[l].succ.is_empty() && self.locs[l].exit_of.is_none()
    }
}

/// All procedures reachable from the initial node; procedure 0 is the initial one.
pub(crate) fn split(rsm: &Rsm, entry_exit: EntryExit) -> Vec<Procedure> {
    let mut index: FxHashMap<(usize, usize), usize> = FxHashMap::default();
    let mut procs: Vec<Procedure> = Vec::new();
    let mut callers: Vec<FxHashSet<usize>> = Vec::new();
    let mut queue: Vec<usize> = Vec::new();
    let mut queued: Vec<bool> = Vec::new();
    let mut add =
        |comp: usize, entry: usize, procs: &mut Vec<Procedure>, callers: &mut Vec<FxHashSet<usize>>, queue: &mut Vec<usize>, queued: &mut Vec<bool>| {
            if let Some(&q) = index.get(&(comp, entry)) {
                return q;
            }
            let q = procs.len();
            procs.push(Procedure { component: comp, entry, locs: Vec::new(), calls: Vec::new(), exits: Vec::new() });
            index.insert((comp, entry), q);
            callers.push(FxHashSet::default());
            queued.push(true);
            queue.push(q);
            q
        };
    add(rsm.initial_component, rsm.initial_node, &mut procs, &mut callers, &mut queue, &mut queued);
    while let Some(p) = queue.pop() {
        queued[p] = false;
        let exits_of: Vec<Vec<usize>> = procs.iter().map(|q| q.exit_nodes().collect()).collect();
        let (comp, entry) = (procs[p].component, procs[p].entry);
        let built = Builder::new(rsm, &exits_of, comp, entry, entry_exit).build(&mut |c, e| add(c, e, &mut procs, &mut callers, &mut queue, &mut queued));
        for c in &built.calls {
            callers[c.callee].insert(p);
        }
        let changed = built.exit_nodes().collect::<FxHashSet<_>>() != exits_of[p].iter().copied().collect::<FxHashSet<_>>();
        procs[p] = built;
        if changed {
            let mut cs: Vec<usize> = callers[p].iter().copied().collect();
            cs.sort_unstable();
            for c in cs {
                if !queued[c] {
                    queued[c] = true;
                    queue.push(c);
                }
            }
        }
    }
    procs
}

struct Builder<'a> {
    rsm: &'a Rsm,
    /// Exit nodes of every procedure as of the start of this build (procedures created since
    /// have none yet, which is their correct starting value for the fixpoint).
    exits_of: &'a [Vec<usize>],
    entry_exit: EntryExit,
    comp: usize,
    entry: usize,
    locs: Vec<Loc>,
    calls: Vec<CallState>,
    exits: Vec<usize>,
    loc_of: FxHashMap<LocKind, usize>,
    call_of: FxHashMap<(usize, usize), usize>,
    todo: Vec<usize>,
}

impl<'a> Builder<'a> {
    fn new(rsm: &'a Rsm, exits_of: &'a [Vec<usize>], comp: usize, entry: usize, entry_exit: EntryExit) -> Builder<'a> {
        Builder {
            rsm,
            exits_of,
            entry_exit,
            comp,
            entry,
            locs: Vec::new(),
            calls: Vec::new(),
            exits: Vec::new(),
            loc_of: FxHashMap::default(),
            call_of: FxHashMap::default(),
            todo: Vec::new(),
        }
    }

    /// Rebuilds the procedure from scratch with the callees' current exits. `proc_for` finds or
    /// creates the procedure of a (component, entry) pair.
    fn build(mut self, proc_for: &mut dyn FnMut(usize, usize) -> usize) -> Procedure {
        self.loc(LocKind::Node(self.entry));
        while let Some(l) = self.todo.pop() {
            let succ = self.successors(l, proc_for);
            self.locs[l].succ = dedup(succ);
        }
        self.into_source_order()
    }

    /// Renumbers locations: the entry, then the component's nodes in source order, then virtual
    /// locations in discovery order (so the output reads like the source).
    fn into_source_order(self) -> Procedure {
        let mut order: Vec<usize> = (0..self.locs.len()).collect();
        let key = |l: usize| match self.locs[l].kind {
            _ if l == 0 => (0, 0),
            LocKind::Node(n) => (1, n),
            _ => (2, l),
        };
        order.sort_by_key(|&l| key(l));
        let mut new_index = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let map = |s: &Succ| match *s {
            Succ::Loc(l) => Succ::Loc(new_index[l]),
            call => call,
        };
        let locs = order
            .iter()
            .map(|&old| {
                let l = &self.locs[old];
                Loc { kind: l.kind, succ: l.succ.iter().map(map).collect(), exit_of: l.exit_of }
            })
            .collect();
        let calls = self.calls.into_iter().map(|c| CallState { returns: c.returns.iter().map(|(x, s)| (*x, map(s))).collect(), ..c }).collect();
        let mut exits: Vec<usize> = self.exits.iter().map(|&l| new_index[l]).collect();
        exits.sort_unstable();
        Procedure { component: self.comp, entry: self.entry, locs, calls, exits }
    }

    fn loc(&mut self, kind: LocKind) -> usize {
        if let Some(&l) = self.loc_of.get(&kind) {
            return l;
        }
        let l = self.locs.len();
        self.locs.push(Loc { kind, succ: Vec::new(), exit_of: None });
        self.loc_of.insert(kind, l);
        self.todo.push(l);
        l
    }

    fn successors(&mut self, l: usize, proc_for: &mut dyn FnMut(usize, usize) -> usize) -> Vec<Succ> {
        let rsm = self.rsm;
        let comp = &rsm.components[self.comp];
        match self.locs[l].kind {
            LocKind::Node(n) => {
                let node = &comp.nodes[n];
                let mut out: Vec<Succ> = node.succ.iter().map(|&t| self.target(t, proc_for)).collect();
                if node.is_exit && !(n == self.entry && self.entry_exit == EntryExit::Stuck) {
                    if n == self.entry || !node.succ.is_empty() {
                        out.push(Succ::Loc(self.loc(LocKind::SplitExit(n))));
                    } else {
                        self.mark_exit(l, n);
                    }
                }
                out
            }
            LocKind::SplitExit(n) => {
                self.mark_exit(l, n);
                Vec::new()
            }
            LocKind::Return { call, exit } => {
                let targets = rsm.return_targets(self.comp, self.calls[call].rbox, exit);
                targets.into_iter().map(|t| self.target(t, proc_for)).collect()
            }
        }
    }

    fn mark_exit(&mut self, l: usize, n: usize) {
        self.locs[l].exit_of = Some(n);
        self.exits.push(l);
    }

    fn target(&mut self, t: Target, proc_for: &mut dyn FnMut(usize, usize) -> usize) -> Succ {
        match t {
            Target::Node(m) => Succ::Loc(self.loc(LocKind::Node(m))),
            Target::Call { rbox, entry } => Succ::Call(self.call(rbox, entry, proc_for)),
        }
    }

    fn call(&mut self, rbox: usize, entry: usize, proc_for: &mut dyn FnMut(usize, usize) -> usize) -> usize {
        if let Some(&c) = self.call_of.get(&(rbox, entry)) {
            return c;
        }
        let rsm = self.rsm;
        let callee_comp = rsm.components[self.comp].boxes[rbox].callee;
        let callee = proc_for(callee_comp, entry);
        let c = self.calls.len();
        self.calls.push(CallState { rbox, entry, callee, returns: Vec::new() });
        self.call_of.insert((rbox, entry), c);
        let exits: Vec<usize> = self.exits_of.get(callee).cloned().unwrap_or_default();
        let mut returns = Vec::new();
        for x in exits {
            let succ = match rsm.return_targets(self.comp, rbox, x).as_slice() {
                [Target::Node(m)] => Succ::Loc(self.loc(LocKind::Node(*m))),
                _ => Succ::Loc(self.loc(LocKind::Return { call: c, exit: x })),
            };
            returns.push((x, succ));
        }
        self.calls[c].returns = returns;
        c
    }
}

fn dedup(v: Vec<Succ>) -> Vec<Succ> {
    let mut seen = FxHashSet::default();
    v.into_iter().filter(|s| seen.insert(*s)).collect()
}
