//! Hash-consed core formulas: every CTL spec is reduced to `True`, atoms, `And`, `EX`, `EU` and
//! `EG` over literals (a node id plus a negation bit, as in and-inverter graphs), and identical
//! subformulas — within one spec or across thousands of specs — share one node.
//!
//! A spec is first lowered into the shared DAG ([`crate::check::formula`], with the reductions
//! `AX a = ¬EX ¬a`, `AG a = ¬E[true U ¬a]`, … of [`crate::check::rewrite`]) and then read into
//! this and-inverter view: negation is a bit of the literal, `∨` is `¬(¬a ∧ ¬b)`, `∧` is
//! commutative and simplified (`a ∧ ¬a = false`), and every node knows its level (the labelling
//! runs level by level).

use crate::check::formula::{DagBuilder, FormulaId, Op};
use crate::ctl::Ctl;
use crate::ir::PropId;

use crate::ir::id::IdVec;
use rustc_hash::FxHashMap;

crate::index_type! {
    /// A node of the core-formula DAG ([`Arena`]): a formula node, not a state or graph node.
    pub(crate) struct CoreNodeId;
}

/// A node reference with a negation bit: `node << 1 | negated`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Lit(u32);

impl Lit {
    pub(crate) const TRUE: Lit = Lit(0);
    pub(crate) const FALSE: Lit = Lit(1);

    pub(crate) fn positive(node: CoreNodeId) -> Lit {
        Lit(node.as_u32() << 1)
    }
    pub(crate) fn node(self) -> CoreNodeId {
        CoreNodeId::from_u32(self.0 >> 1)
    }
    pub(crate) fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
    pub(crate) fn negate(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// A core operator; its operands are literals of nodes created earlier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Node {
    True,
    Atom(PropId),
    And(Lit, Lit),
    /// Fair `EX`: some successor satisfies the operand and is fair.
    EX(Lit),
    /// Fair `E[a U b]`: a finite path through `a` to a fair `b` state.
    EU(Lit, Lit),
    /// Fair `EG`: an infinite fair path staying in the operand.
    EG(Lit),
}

impl Node {
    /// The operand literals, in order.
    pub(crate) fn operands(&self) -> impl Iterator<Item = Lit> {
        let (a, b) = match *self {
            Node::True | Node::Atom(_) => (None, None),
            Node::EX(a) | Node::EG(a) => (Some(a), None),
            Node::And(a, b) | Node::EU(a, b) => (Some(a), Some(b)),
        };
        a.into_iter().chain(b)
    }
}

/// The shared formula DAG. Node 0 is `True`; nodes only refer to smaller ids.
#[derive(Clone, Debug)]
pub(crate) struct Arena {
    nodes: IdVec<CoreNodeId, Node>,
    /// Height in the DAG: atoms and `True` are 0, an operator is one more than its operands.
    levels: IdVec<CoreNodeId, u32>,
    index: FxHashMap<Node, CoreNodeId>,
    /// `And` nodes of unfolded RTCTL operators and their step operand ([`Arena::follow_order`]).
    steps: FxHashMap<CoreNodeId, Lit>,
}

impl Default for Arena {
    fn default() -> Self {
        Self::new()
    }
}

// `len` without `is_empty`: nothing asks whether it is empty (an `is_empty` would be dead code
// once the type is `pub(crate)`, tools/visibility/sweep.sh).
#[allow(clippy::len_without_is_empty)]
impl Arena {
    pub(crate) fn new() -> Arena {
        let mut arena = Arena { nodes: IdVec::new(), levels: IdVec::new(), index: FxHashMap::default(), steps: FxHashMap::default() };
        arena.intern(Node::True);
        arena
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }
    /// The node ids, in creation order (operands before the nodes that use them).
    pub(crate) fn ids(&self) -> impl DoubleEndedIterator<Item = CoreNodeId> + ExactSizeIterator + use<> {
        self.nodes.indices()
    }
    pub(crate) fn node(&self, id: CoreNodeId) -> Node {
        self.nodes[id]
    }
    /// The operands `a`, `b` of the `And` node `and` (as they are to be explained: for its
    /// negation, `¬a ∨ ¬b`, the negated operands) in the order a witness walker prefers to
    /// follow them. NuSMV's `explain_and` keeps the conjunct whose explanation extends the path;
    /// the walkers follow one: the step of an unfolded RTCTL operator when `and` is one of its
    /// conjunctions (`check::rewrite::CoreBuilder::mark_step`), else the left one when it has a
    /// temporal operator, else the right one. A walker takes the second when the first does not
    /// extend the path and the second does.
    pub(crate) fn follow_order(&self, and: CoreNodeId, a: Lit, b: Lit) -> (Lit, Lit) {
        if let Some(&step) = self.steps.get(&and) {
            if b == step || b == step.negate() {
                return (b, a);
            }
            return (a, b);
        }
        if self.is_temporal(a) || !self.is_temporal(b) { (a, b) } else { (b, a) }
    }

    /// Whether explaining `lit` surely extends a path: a positive `EX` (a successor) or `EG`
    /// (a lasso). Anything else may stop where it starts.
    pub(crate) fn surely_extends(&self, lit: Lit) -> bool {
        !lit.is_negated() && matches!(self.node(lit.node()), Node::EX(_) | Node::EG(_))
    }

    /// Whether a literal may have an explanation worth following: a conjunction or
    /// disjunction, or a positive temporal operator.
    fn is_temporal(&self, lit: Lit) -> bool {
        match self.node(lit.node()) {
            Node::True | Node::Atom(_) => false,
            Node::And(..) => true,
            Node::EX(_) | Node::EU(..) | Node::EG(_) => !lit.is_negated(),
        }
    }

    pub(crate) fn level(&self, id: CoreNodeId) -> u32 {
        self.levels[id]
    }
    pub(crate) fn max_level(&self) -> u32 {
        self.levels.iter().copied().max().unwrap_or(0)
    }

    fn intern(&mut self, node: Node) -> Lit {
        if let Some(&id) = self.index.get(&node) {
            return Lit::positive(id);
        }
        let level = node.operands().map(|l| self.levels[l.node()] + 1).max().unwrap_or(0);
        let id = self.nodes.push(node);
        self.levels.push(level);
        self.index.insert(node, id);
        Lit::positive(id)
    }

    pub(crate) fn atom(&mut self, p: PropId) -> Lit {
        self.intern(Node::Atom(p))
    }

    pub(crate) fn and(&mut self, a: Lit, b: Lit) -> Lit {
        if a == Lit::FALSE || b == Lit::FALSE || a == b.negate() {
            return Lit::FALSE;
        }
        if a == Lit::TRUE || a == b {
            return b;
        }
        if b == Lit::TRUE {
            return a;
        }
        self.intern(Node::And(a.min(b), a.max(b)))
    }

    pub(crate) fn or(&mut self, a: Lit, b: Lit) -> Lit {
        self.and(a.negate(), b.negate()).negate()
    }

    pub(crate) fn ex(&mut self, a: Lit) -> Lit {
        if a == Lit::FALSE {
            return Lit::FALSE;
        }
        self.intern(Node::EX(a))
    }

    pub(crate) fn eu(&mut self, a: Lit, b: Lit) -> Lit {
        if b == Lit::FALSE {
            return Lit::FALSE;
        }
        self.intern(Node::EU(a, b))
    }

    pub(crate) fn eg(&mut self, a: Lit) -> Lit {
        if a == Lit::FALSE {
            return Lit::FALSE;
        }
        self.intern(Node::EG(a))
    }

    /// Lowers a spec into the arena and returns its literal: through the shared DAG, whose
    /// nodes (children first) are read into and-inverter nodes in creation order.
    pub(crate) fn lower(&mut self, formula: &Ctl<PropId>) -> Lit {
        let mut b = DagBuilder::default();
        let root = b.lower(formula);
        let dag = b.finish();
        let mut lits: IdVec<FormulaId, Lit> = IdVec::from_raw(Vec::with_capacity(dag.len()));
        for &op in &dag.nodes {
            let lit = |f: FormulaId| lits[f];
            let l = match op {
                Op::True => Lit::TRUE,
                Op::Prop(p) => self.atom(p),
                Op::Not(a) => lit(a).negate(),
                Op::And(a, b) => self.and(lit(a), lit(b)),
                Op::Or(a, b) => self.or(lit(a), lit(b)),
                Op::EX(a) => self.ex(lit(a)),
                Op::EG(a) => self.eg(lit(a)),
                Op::EU(a, b) => self.eu(lit(a), lit(b)),
            };
            lits.push(l);
        }
        // A marked DAG conjunction is an and-inverter `And` whose step operand is the step's
        // literal; a marked disjunction `a ∨ b` is a negated `And(¬a, ¬b)`, whose step operand
        // is the negated step. Folding may have removed the node: then nothing is marked.
        for &(f, step) in &dag.steps {
            let node = lits[f];
            let operand = if node.is_negated() { lits[step].negate() } else { lits[step] };
            if let Node::And(a, b) = self.node(node.node())
                && (operand == a || operand == b)
            {
                self.steps.insert(node.node(), operand);
            }
        }
        lits[root]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(p: u32) -> Box<Ctl<PropId>> {
        Box::new(Ctl::Atom(PropId::from_u32(p)))
    }

    #[test]
    fn shared_subformulas_are_one_node() {
        let mut arena = Arena::new();
        let f1 = arena.lower(&Ctl::AG(Box::new(Ctl::Implies(atom(0), Box::new(Ctl::AF(atom(1)))))));
        let before = arena.len();
        let f2 = arena.lower(&Ctl::AG(Box::new(Ctl::Implies(atom(0), Box::new(Ctl::AF(atom(1)))))));
        assert_eq!(f1, f2);
        assert_eq!(arena.len(), before);
        // EF p and AG !p are one node with opposite signs.
        let ef = arena.lower(&Ctl::EF(atom(2)));
        let ag = arena.lower(&Ctl::AG(Box::new(Ctl::Not(atom(2)))));
        assert_eq!(ef, ag.negate());
    }

    #[test]
    fn boolean_simplifications() {
        let mut arena = Arena::new();
        let p = arena.atom(PropId::new(0));
        assert_eq!(arena.and(p, p.negate()), Lit::FALSE);
        assert_eq!(arena.or(p, p.negate()), Lit::TRUE);
        assert_eq!(arena.and(p, Lit::TRUE), p);
        assert_eq!(arena.and(p, Lit::FALSE), Lit::FALSE);
        let q = arena.atom(PropId::new(1));
        assert_eq!(arena.and(p, q), arena.and(q, p));
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let mut f = Ctl::Atom(PropId::new(0));
        for i in 0..100_000 {
            f = if i % 2 == 0 { Ctl::EX(Box::new(f)) } else { Ctl::Not(Box::new(f)) };
        }
        let mut arena = Arena::new();
        arena.lower(&f);
        assert_eq!(arena.max_level(), 50_000);
        // Dropping a deep Box chain recurses; unwind it iteratively.
        let mut cur = f;
        loop {
            cur = match cur {
                Ctl::EX(inner) | Ctl::Not(inner) => *inner,
                _ => break,
            };
        }
    }
}
