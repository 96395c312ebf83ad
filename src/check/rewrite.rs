//! CTL to the core operators, once for every engine: `True`, atoms, `¬`, `∧`, `∨`, `EX`, `EU`,
//! `EG`. The one formula DAG (`check::formula::DagBuilder`, which every engine reads) implements
//! [`CoreBuilder`] — how it makes one core node (hash-consing, double negation, constant folding
//! are its own) — and [`lower`] applies the rewriting:
//!
//! `ff = ¬tt`, `a → b = ¬a ∨ b`, `a xor b = (a ∧ ¬b) ∨ (¬a ∧ b)`, `a ↔ b = ¬(a xor b)` (a builder
//! may choose another equivalent shape), `EF a = E[tt U a]`, `AX a = ¬EX ¬a`, `AF a = ¬EG ¬a`,
//! `AG a = ¬E[tt U ¬a]`, `A[a U b] = ¬(E[¬b U (¬a ∧ ¬b)] ∨ EG ¬b)` — the dualities NuSMV's
//! `mcEval.c` uses, so its fair semantics carry over.
//!
//! RTCTL's bounded operators are unfolded step by step as NuSMV's `ebu`, `ebg` and `abu`
//! (`mcMc.c`) iterate them: `E[a BU l..h b]` is `Y₀ = b`, then `h − l` times `Y = b ∨ (a ∧ EX Y)`
//! (written `b ∨ (EX Y ∧ a ∧ ¬b)`, its steps marked for the witness walkers: `bounded_until`),
//! then `l` times `Y = a ∧ EX Y`; `EBF l..h b = E[tt BU l..h b]`; `EBG l..h a` is `Y₀ = a`,
//! `h − l` times `Y = a ∧ EX Y`, then `l` times `Y = EX Y`; `A[a BU l..h b]` is `E[a BU l..h b]`
//! with `AX` for `EX`; `ABF l..h a = ¬EBG l..h ¬a`, `ABG l..h a = ¬EBF l..h ¬a`. NuSMV also
//! intersects `Y₀` with the fair states; that changes no state's value where a verdict reads it
//! (every operator reads its operands at fair states only, and specs hold at fair initial
//! states). NuSMV stops early at a fixpoint; the unfolding has `O(h)` nodes instead (the
//! resolver caps `h`, [`crate::ctl::MAX_TIME_BOUND`]), and engines store equal sets once.
//!
//! Operands are made before their operator, left before right, and the calls for one operator
//! come in the order written above, so a builder that numbers nodes in creation order numbers
//! them children first. The walk uses an explicit stack: deep nesting cannot overflow the stack.

use crate::ctl::{Bound, Ctl};

/// Makes the core nodes of one formula DAG.
pub(crate) trait CoreBuilder {
    /// A node (or literal) of the DAG.
    type Node: Copy;
    /// The atoms of the formulas.
    type Atom: Copy;

    fn tt(&mut self) -> Self::Node;
    fn atom(&mut self, p: Self::Atom) -> Self::Node;
    fn not(&mut self, a: Self::Node) -> Self::Node;
    fn and(&mut self, a: Self::Node, b: Self::Node) -> Self::Node;
    fn or(&mut self, a: Self::Node, b: Self::Node) -> Self::Node;
    fn ex(&mut self, a: Self::Node) -> Self::Node;
    fn eu(&mut self, a: Self::Node, b: Self::Node) -> Self::Node;
    fn eg(&mut self, a: Self::Node) -> Self::Node;
    /// Marks `step`, an operand of the conjunction or disjunction `node`, as the step of an
    /// unfolded RTCTL operator: a witness walker at `node` follows it, so a path goes on to the
    /// bound (the guard and the goal beside it are only checked at that state, as NuSMV's
    /// `ebu_explain` does). Builders without witness walkers ignore it.
    fn mark_step(&mut self, _node: Self::Node, _step: Self::Node) {}

    fn ff(&mut self) -> Self::Node {
        let t = self.tt();
        self.not(t)
    }
    fn xor(&mut self, a: Self::Node, b: Self::Node) -> Self::Node {
        let (na, nb) = (self.not(a), self.not(b));
        let l = self.and(a, nb);
        let r = self.and(na, b);
        self.or(l, r)
    }
    fn iff(&mut self, a: Self::Node, b: Self::Node) -> Self::Node {
        let x = self.xor(a, b);
        self.not(x)
    }
}

/// Lowers `formula` into `b`'s DAG and returns its node.
pub(crate) fn lower<B: CoreBuilder>(b: &mut B, formula: &Ctl<B::Atom>) -> B::Node {
    enum Step<'f, A> {
        Enter(&'f Ctl<A>),
        Unary(Unary),
        Binary(Binary),
    }
    let mut work = vec![Step::Enter(formula)];
    let mut done: Vec<B::Node> = Vec::new();
    while let Some(step) = work.pop() {
        match step {
            Step::Enter(f) => match shape(f) {
                Shape::True => done.push(b.tt()),
                Shape::False => done.push(b.ff()),
                Shape::Atom(p) => done.push(b.atom(p)),
                Shape::Unary(op, x) => work.extend([Step::Unary(op), Step::Enter(x)]),
                Shape::Binary(op, x, y) => work.extend([Step::Binary(op), Step::Enter(y), Step::Enter(x)]),
            },
            Step::Unary(op) => {
                let x = pop(&mut done);
                let node = unary(b, op, x);
                done.push(node);
            }
            Step::Binary(op) => {
                let y = pop(&mut done);
                let x = pop(&mut done);
                let node = binary(b, op, x, y);
                done.push(node);
            }
        }
    }
    pop(&mut done)
}

// The operators' names are NuSMV's (`EBF`, `ABU`, …).
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy)]
enum Unary {
    Not,
    EX,
    EG,
    AX,
    EF,
    AF,
    AG,
    EBF(Bound),
    ABF(Bound),
    EBG(Bound),
    ABG(Bound),
}

#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy)]
enum Binary {
    And,
    Or,
    Implies,
    Xor,
    Iff,
    EU,
    AU,
    EBU(Bound),
    ABU(Bound),
}

enum Shape<'f, A> {
    True,
    False,
    Atom(A),
    Unary(Unary, &'f Ctl<A>),
    Binary(Binary, &'f Ctl<A>, &'f Ctl<A>),
}

fn shape<A: Copy>(f: &Ctl<A>) -> Shape<'_, A> {
    match f {
        Ctl::True => Shape::True,
        Ctl::False => Shape::False,
        Ctl::Atom(p) => Shape::Atom(*p),
        Ctl::Not(a) => Shape::Unary(Unary::Not, a),
        Ctl::EX(a) => Shape::Unary(Unary::EX, a),
        Ctl::EG(a) => Shape::Unary(Unary::EG, a),
        Ctl::AX(a) => Shape::Unary(Unary::AX, a),
        Ctl::EF(a) => Shape::Unary(Unary::EF, a),
        Ctl::AF(a) => Shape::Unary(Unary::AF, a),
        Ctl::AG(a) => Shape::Unary(Unary::AG, a),
        Ctl::And(a, b) => Shape::Binary(Binary::And, a, b),
        Ctl::Or(a, b) => Shape::Binary(Binary::Or, a, b),
        Ctl::Implies(a, b) => Shape::Binary(Binary::Implies, a, b),
        Ctl::Xor(a, b) => Shape::Binary(Binary::Xor, a, b),
        Ctl::Xnor(a, b) | Ctl::Iff(a, b) => Shape::Binary(Binary::Iff, a, b),
        Ctl::EU(a, b) => Shape::Binary(Binary::EU, a, b),
        Ctl::AU(a, b) => Shape::Binary(Binary::AU, a, b),
        Ctl::EBF(a, k) => Shape::Unary(Unary::EBF(*k), a),
        Ctl::ABF(a, k) => Shape::Unary(Unary::ABF(*k), a),
        Ctl::EBG(a, k) => Shape::Unary(Unary::EBG(*k), a),
        Ctl::ABG(a, k) => Shape::Unary(Unary::ABG(*k), a),
        Ctl::EBU(a, b, k) => Shape::Binary(Binary::EBU(*k), a, b),
        Ctl::ABU(a, b, k) => Shape::Binary(Binary::ABU(*k), a, b),
    }
}

fn unary<B: CoreBuilder>(b: &mut B, op: Unary, a: B::Node) -> B::Node {
    match op {
        Unary::Not => b.not(a),
        Unary::EX => b.ex(a),
        Unary::EG => b.eg(a),
        Unary::AX => {
            let na = b.not(a);
            let e = b.ex(na);
            b.not(e)
        }
        Unary::EF => {
            let t = b.tt();
            b.eu(t, a)
        }
        Unary::AF => {
            let na = b.not(a);
            let e = b.eg(na);
            b.not(e)
        }
        Unary::AG => {
            let t = b.tt();
            let na = b.not(a);
            let e = b.eu(t, na);
            b.not(e)
        }
        Unary::EBF(k) => bounded_until(b, Path::Some, None, a, k),
        Unary::EBG(k) => bounded_globally(b, a, k),
        Unary::ABF(k) => {
            let na = b.not(a);
            let e = bounded_globally(b, na, k);
            b.not(e)
        }
        Unary::ABG(k) => {
            let na = b.not(a);
            let e = bounded_until(b, Path::Some, None, na, k);
            b.not(e)
        }
    }
}

fn binary<B: CoreBuilder>(b: &mut B, op: Binary, x: B::Node, y: B::Node) -> B::Node {
    match op {
        Binary::And => b.and(x, y),
        Binary::Or => b.or(x, y),
        Binary::Implies => {
            let nx = b.not(x);
            b.or(nx, y)
        }
        Binary::Xor => b.xor(x, y),
        Binary::Iff => b.iff(x, y),
        Binary::EU => b.eu(x, y),
        Binary::AU => {
            let (nx, ny) = (b.not(x), b.not(y));
            let both = b.and(nx, ny);
            let eu = b.eu(ny, both);
            let eg = b.eg(ny);
            let either = b.or(eu, eg);
            b.not(either)
        }
        Binary::EBU(k) => bounded_until(b, Path::Some, Some(x), y, k),
        Binary::ABU(k) => bounded_until(b, Path::Every, Some(x), y, k),
    }
}

/// Which paths a bounded operator quantifies over: one step is `EX` or `AX`.
#[derive(Clone, Copy)]
enum Path {
    Some,
    Every,
}

/// One step of a bounded operator: `EX y` or `AX y`.
fn step<B: CoreBuilder>(b: &mut B, path: Path, y: B::Node) -> B::Node {
    match path {
        Path::Some => b.ex(y),
        Path::Every => {
            let ny = b.not(y);
            let e = b.ex(ny);
            b.not(e)
        }
    }
}

/// `E[a BU l..h g]` (`Path::Some`) or `A[a BU l..h g]`; `a = None` is `tt` (`EBF`).
///
/// The shapes serve the witness walkers, which follow one operand of a conjunction: the step
/// nodes are marked ([`CoreBuilder::mark_step`]), so a path is followed to the bound, and the
/// step is written `¬g ∧ a ∧ EX Y` (the same set as `a ∧ EX Y` beside `g`), so a walk stops at
/// the first `g` state, as NuSMV's `ebu_explain` does.
fn bounded_until<B: CoreBuilder>(b: &mut B, path: Path, a: Option<B::Node>, g: B::Node, k: Bound) -> B::Node {
    let guarded = |b: &mut B, y: B::Node| match a {
        Some(a) => {
            let both = b.and(y, a);
            b.mark_step(both, y);
            both
        }
        None => y,
    };
    let not_g = b.not(g);
    let mut y = g;
    for _ in k.lo..k.hi {
        let next = step(b, path, y);
        let next = guarded(b, next);
        let before_g = b.and(next, not_g);
        b.mark_step(before_g, next);
        y = b.or(g, before_g);
        b.mark_step(y, before_g);
    }
    for _ in 0..k.lo {
        let next = step(b, path, y);
        y = guarded(b, next);
    }
    y
}

/// `EBG l..h g` (the step first, as in [`bounded_until`]).
fn bounded_globally<B: CoreBuilder>(b: &mut B, g: B::Node, k: Bound) -> B::Node {
    let mut y = g;
    for _ in k.lo..k.hi {
        let next = step(b, Path::Some, y);
        y = b.and(next, g);
        b.mark_step(y, next);
    }
    for _ in 0..k.lo {
        y = step(b, Path::Some, y);
    }
    y
}

fn pop<N>(done: &mut Vec<N>) -> N {
    done.pop().expect("formula lowering keeps one result per finished subformula")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes core nodes as text and logs the order they are made in.
    #[derive(Default)]
    struct Text(Vec<String>);

    impl CoreBuilder for Text {
        type Node = usize;
        type Atom = char;
        fn tt(&mut self) -> usize {
            self.make("tt".into())
        }
        fn atom(&mut self, p: char) -> usize {
            self.make(p.to_string())
        }
        fn not(&mut self, a: usize) -> usize {
            self.make(format!("!{}", self.0[a]))
        }
        fn and(&mut self, a: usize, b: usize) -> usize {
            self.make(format!("({} & {})", self.0[a], self.0[b]))
        }
        fn or(&mut self, a: usize, b: usize) -> usize {
            self.make(format!("({} | {})", self.0[a], self.0[b]))
        }
        fn ex(&mut self, a: usize) -> usize {
            self.make(format!("EX {}", self.0[a]))
        }
        fn eu(&mut self, a: usize, b: usize) -> usize {
            self.make(format!("E[{} U {}]", self.0[a], self.0[b]))
        }
        fn eg(&mut self, a: usize) -> usize {
            self.make(format!("EG {}", self.0[a]))
        }
    }

    impl Text {
        fn make(&mut self, s: String) -> usize {
            self.0.push(s);
            self.0.len() - 1
        }
    }

    fn text(f: &Ctl<char>) -> (String, Vec<String>) {
        let mut b = Text::default();
        let n = lower(&mut b, f);
        (b.0[n].clone(), b.0)
    }

    fn p() -> Box<Ctl<char>> {
        Box::new(Ctl::Atom('p'))
    }
    fn q() -> Box<Ctl<char>> {
        Box::new(Ctl::Atom('q'))
    }

    #[test]
    fn universal_operators_become_existential_ones() {
        assert_eq!(text(&Ctl::AX(p())).0, "!EX !p");
        assert_eq!(text(&Ctl::EF(p())).0, "E[tt U p]");
        assert_eq!(text(&Ctl::AF(p())).0, "!EG !p");
        assert_eq!(text(&Ctl::AG(p())).0, "!E[tt U !p]");
        assert_eq!(text(&Ctl::AU(p(), q())).0, "!(E[!q U (!p & !q)] | EG !q)");
        assert_eq!(text(&Ctl::Implies(p(), q())).0, "(!p | q)");
        assert_eq!(text(&Ctl::Xor(p(), q())).0, "((p & !q) | (!p & q))");
        assert_eq!(text(&Ctl::Iff(p(), q())).0, text(&Ctl::Xnor(p(), q())).0);
        assert_eq!(text(&Ctl::False).0, "!tt");
    }

    #[test]
    fn operands_are_made_first_left_to_right() {
        let (_, order) = text(&Ctl::AG(Box::new(Ctl::And(p(), q()))));
        assert_eq!(order, ["p", "q", "(p & q)", "tt", "!(p & q)", "E[tt U !(p & q)]", "!E[tt U !(p & q)]"]);
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let mut f = Ctl::Atom('p');
        for _ in 0..200_000 {
            f = Ctl::EX(Box::new(f));
        }
        struct Depth;
        impl CoreBuilder for Depth {
            type Node = u32;
            type Atom = char;
            fn tt(&mut self) -> u32 {
                0
            }
            fn atom(&mut self, _: char) -> u32 {
                0
            }
            fn not(&mut self, a: u32) -> u32 {
                a
            }
            fn and(&mut self, a: u32, b: u32) -> u32 {
                a.max(b) + 1
            }
            fn or(&mut self, a: u32, b: u32) -> u32 {
                a.max(b) + 1
            }
            fn ex(&mut self, a: u32) -> u32 {
                a + 1
            }
            fn eu(&mut self, a: u32, b: u32) -> u32 {
                a.max(b) + 1
            }
            fn eg(&mut self, a: u32) -> u32 {
                a + 1
            }
        }
        assert_eq!(lower(&mut Depth, &f), 200_000);
        // Dropping a deep Box chain recurses; unwind it iteratively.
        let mut cur = f;
        while let Ctl::EX(inner) = cur {
            cur = *inner;
        }
    }
}
