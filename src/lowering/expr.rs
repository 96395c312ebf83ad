//! Lowering one system's typed expressions ([`TExpr`]) to [`Expr`]: DEFINEs are expanded
//! (each body lowered once per current/next context and reused), `next(e)` is pushed down to
//! `Next(x)` on variables, constants are folded and `case` chains become tables.
//!
//! A DEFINE body of at least [`SHARE_MIN_NODES`] nodes is lowered once and shared by all its
//! uses ([`Expr::Shared`]), so memory grows with the text, not with the expansion; smaller
//! bodies are copied into each use (later stages pattern-match their structure). Two limits
//! remain, as diagnostics instead of exhausted memory or stack: the nodes allocated for one
//! system ([`NODE_BUDGET`], shared bodies counted once), and the nodes an evaluation walks
//! ([`MAX_EXPANDED_NODES`], shared bodies counted at every use: the state-space builder
//! evaluates a shared body at each use, so a chain of DEFINEs that each use the previous one
//! twice still costs exponential time); every expanded DEFINE is also limited to
//! [`MAX_EXPANDED_DEPTH`] levels (later stages evaluate expressions recursively).

use crate::diagnostics::Diagnostic;
use crate::ir::VarKind;
use crate::ir::id::IdVec;
use crate::lowering::ops::EvalError;
use crate::lowering::program::{Expr, Value};
use crate::lowering::{fold, table};
use crate::semantics::checked::{CheckedSystem, DefineId, TExpr, TKind};
use crate::source::Span;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Where an expression is read: the frame variables are read in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// The current state (`x` is `Var(x)`).
    Current,
    /// Inside `next(...)` (`x` is `Next(x)`).
    Next,
    /// A transition (`TRANS`, `next(x) :=`): the current state, except that an input variable
    /// recorded in the state (`CheckedSystem::step_inputs`) is the next state's record.
    Step,
}

/// A lowered DEFINE body and what one use of it costs.
#[derive(Clone)]
struct Lowered {
    /// The body itself (small bodies) or an [`Expr::Shared`] handle to it.
    expr: Expr,
    /// Nodes of the body as a tree (shared sub-bodies expanded).
    tree: usize,
    /// Nodes copied at each use: `tree` for small bodies, 1 for shared ones.
    copied: usize,
}

pub(crate) struct Lowerer<'c> {
    pub sys: &'c CheckedSystem,
    /// Global labels (`LoweredProgram::labels`).
    pub labels: &'c [String],
    /// Lowered DEFINE bodies, by [`Frame`].
    memo: IdVec<DefineId, [Option<Lowered>; 3]>,
    /// Whether some input variable is read as the input of the step (`CheckedSystem::step_inputs`).
    has_step_inputs: bool,
    /// Tree size and depth of every shared body, by address.
    shared: FxHashMap<*const Expr, (usize, usize)>,
    /// Expression nodes allocated by DEFINE expansion so far.
    nodes: usize,
    /// Expression nodes DEFINE uses expand to so far (shared bodies counted at every use).
    expanded: usize,
    budget_reported: bool,
    pub diags: Vec<Diagnostic>,
}

/// Largest number of expression nodes DEFINE expansion may allocate for one system.
pub(crate) const NODE_BUDGET: usize = 4_000_000;
/// Largest number of nodes the DEFINE uses of one system may expand to (shared bodies counted
/// at every use): a bound on the work of evaluating every expression once.
pub(crate) const MAX_EXPANDED_NODES: usize = 64_000_000;
/// Deepest expression a DEFINE may expand to.
pub(crate) const MAX_EXPANDED_DEPTH: usize = 2000;
/// Smallest DEFINE body (in nodes) that is shared rather than copied into every use.
pub(crate) const SHARE_MIN_NODES: usize = 64;

/// Tree size (shared bodies expanded, saturating), depth, and nodes not inside a shared body
/// of `e` (iterative: `e` may be deep). `shared` gives the size and depth of shared bodies.
fn measure(e: &Expr, shared: &FxHashMap<*const Expr, (usize, usize)>) -> (usize, usize, usize) {
    let (mut tree, mut depth, mut own) = (0usize, 0, 0);
    let mut stack = vec![(e, 1usize)];
    while let Some((e, d)) = stack.pop() {
        own += 1;
        tree = tree.saturating_add(1);
        depth = depth.max(d);
        match e {
            Expr::Const(_) | Expr::Var(_) | Expr::Next(_) | Expr::Exited => {}
            Expr::Shared(body) => {
                let (t, dd) = shared.get(&Arc::as_ptr(body)).copied().unwrap_or((1, 1));
                tree = tree.saturating_add(t);
                depth = depth.max(d + dd);
            }
            Expr::Unary(_, a) => stack.push((a, d + 1)),
            Expr::Binary(_, a, b) | Expr::Range(a, b) => {
                stack.push((a, d + 1));
                stack.push((b, d + 1));
            }
            Expr::Ite(a, b, c) => {
                for x in [a, b, c] {
                    stack.push((x, d + 1));
                }
            }
            Expr::Case { branches, .. } => {
                for (c, v) in branches {
                    stack.push((c, d + 1));
                    stack.push((v, d + 1));
                }
            }
            Expr::Table { entries, fallback, .. } => {
                stack.extend(entries.iter().flatten().map(|x| (x, d + 1)));
                stack.extend(fallback.iter().map(|x| (&**x, d + 1)));
            }
            Expr::Set(xs) | Expr::Builtin(_, xs) => stack.extend(xs.iter().map(|x| (x, d + 1))),
        }
    }
    (tree, depth, own)
}

impl<'c> Lowerer<'c> {
    pub(crate) fn new(sys: &'c CheckedSystem, labels: &'c [String]) -> Self {
        Lowerer {
            sys,
            labels,
            memo: IdVec::from_elem([None, None, None], sys.defines.len()),
            has_step_inputs: sys.step_inputs.contains(&true),
            shared: FxHashMap::default(),
            nodes: 0,
            expanded: 0,
            budget_reported: false,
            diags: vec![],
        }
    }

    /// `t` read in the current state.
    pub(crate) fn lower(&mut self, t: &TExpr) -> Expr {
        self.lower_in(t, Frame::Current)
    }

    /// `t` read in a transition (`TRANS`, the right-hand side of `next(x) :=`).
    pub(crate) fn lower_step(&mut self, t: &TExpr) -> Expr {
        self.lower_in(t, self.step_frame())
    }

    fn step_frame(&self) -> Frame {
        if self.has_step_inputs { Frame::Step } else { Frame::Current }
    }

    /// The lowered body of DEFINE `d` read in the current state.
    pub(crate) fn define(&mut self, d: DefineId) -> Expr {
        self.define_in(d, Frame::Current)
    }

    /// The lowered body of DEFINE `d` (a copy or a shared handle, counted against the budgets).
    fn define_in(&mut self, d: DefineId, frame: Frame) -> Expr {
        let slot = frame as usize;
        if let Some(l) = &self.memo[d][slot] {
            let l = l.clone();
            return self.spend(l.copied, l.tree, d, l.expr);
        }
        let body = &self.sys.defines[d].expr;
        let e = self.lower_in(body, frame);
        let (tree, depth, own) = measure(&e, &self.shared);
        let e = if depth > MAX_EXPANDED_DEPTH {
            let def = &self.sys.defines[d];
            self.diags.push(
                Diagnostic::error(
                    "E0216",
                    format!("DEFINE `{}` expands to an expression nested more than {MAX_EXPANDED_DEPTH} levels deep", def.name),
                    def.span,
                )
                .with_help("DEFINEs are macros: shorten the chain of DEFINEs that use each other"),
            );
            Expr::Const(Value::Bool(false))
        } else {
            e
        };
        let l = if tree >= SHARE_MIN_NODES {
            let body = Arc::new(e);
            self.shared.insert(Arc::as_ptr(&body), (tree, depth));
            // The body is allocated once, here; each use copies one handle.
            self.nodes = self.nodes.saturating_add(own);
            Lowered { expr: Expr::Shared(body), tree, copied: 1 }
        } else {
            Lowered { expr: e, tree, copied: tree }
        };
        self.memo[d][slot] = Some(l.clone());
        self.spend(l.copied, l.tree, d, l.expr)
    }

    fn spend(&mut self, copied: usize, tree: usize, d: DefineId, e: Expr) -> Expr {
        self.nodes = self.nodes.saturating_add(copied);
        self.expanded = self.expanded.saturating_add(tree);
        if self.nodes <= NODE_BUDGET && self.expanded <= MAX_EXPANDED_NODES {
            return e;
        }
        if !self.budget_reported {
            self.budget_reported = true;
            let def = &self.sys.defines[d];
            let (what, limit) = if self.nodes > NODE_BUDGET { ("exceeds", NODE_BUDGET) } else { ("expands to more than", MAX_EXPANDED_NODES) };
            self.diags.push(
                Diagnostic::error("E0220", format!("expanding DEFINE `{}` {what} {limit} expression nodes", def.name), def.span)
                    .with_label_message("expanded here")
                    .with_help("each use of a DEFINE is evaluated again: reuse a value through a variable, or simplify the chain of DEFINEs"),
            );
        }
        // Keep memory bounded: the program is rejected anyway.
        for m in self.memo.iter_mut().flatten() {
            *m = Some(Lowered { expr: Expr::Const(Value::Bool(false)), tree: 1, copied: 1 });
        }
        Expr::Const(Value::Bool(false))
    }

    fn lower_in(&mut self, t: &TExpr, frame: Frame) -> Expr {
        match &t.kind {
            TKind::Const(v) => Expr::Const(*v),
            TKind::Var(v) => match frame {
                // `next(i)` of an input `i` (allowed in a flat model's INVARSPEC only, see
                // `Ctx::INVARSPEC_FLAT`) reads the step's input, as `i` does.
                Frame::Next if self.sys.vars[v.index()].kind == VarKind::Input => self.lower_in(t, Frame::Step),
                Frame::Next => Expr::Next(*v),
                Frame::Step if self.sys.step_inputs.get(v.index()) == Some(&true) => Expr::Next(*v),
                Frame::Current | Frame::Step => Expr::Var(*v),
            },
            TKind::Define(d) => self.define_in(*d, frame),
            TKind::Next(a) => self.lower_in(a, Frame::Next),
            TKind::Exited => Expr::Exited,
            TKind::ForeignLabel(name) => {
                self.diags.push(
                    Diagnostic::error("E0219", format!("label `{name}` of another module cannot be used inside an expression"), t.span)
                        .with_label_message("not defined in this module")
                        .with_help("use it as a proposition (with !, &, |, ->, <-> and CTL operators), or define it in this module"),
                );
                Expr::Const(Value::Bool(false))
            }
            TKind::Unary(op, a) => {
                let a = self.lower_in(a, frame);
                self.check(fold::unary(*op, a), t.span)
            }
            TKind::Binary(op, a, b) => {
                let (a, b) = (self.lower_in(a, frame), self.lower_in(b, frame));
                self.check(fold::binary(*op, a, b), t.span)
            }
            TKind::Ite(c, a, b) => {
                let c = self.lower_in(c, frame);
                let (a, b) = (self.lower_in(a, frame), self.lower_in(b, frame));
                fold::ite(c, a, b)
            }
            TKind::Case(bs) => {
                let branches = bs.iter().map(|(c, v)| (self.lower_in(c, frame), self.lower_in(v, frame))).collect();
                match fold::case(branches) {
                    Ok(e) => e,
                    Err(branches) => table::compile(branches, t.span, &self.sys.vars),
                }
            }
            TKind::Set(xs) => {
                let xs = xs.iter().map(|x| self.lower_in(x, frame)).collect();
                fold::set(xs)
            }
            TKind::Range(a, b) => {
                let (a, b) = (self.lower_in(a, frame), self.lower_in(b, frame));
                Expr::Range(Box::new(a), Box::new(b))
            }
            TKind::Builtin(f, xs) => {
                let xs = xs.iter().map(|x| self.lower_in(x, frame)).collect();
                self.check(fold::builtin(*f, xs), t.span)
            }
            // CTL operators only occur in specifications, which `spec` splits before lowering
            // their non-temporal parts; `Error` never reaches lowering (errors stop the
            // pipeline). Both are kept total rather than panicking on a broken invariant.
            TKind::Ctl(..) | TKind::Until { .. } | TKind::Ltl(..) | TKind::Error => {
                self.diags.push(Diagnostic::error("E0299", "internal error: unexpected temporal or erroneous expression in lowering", t.span));
                Expr::Const(Value::Bool(false))
            }
        }
    }

    fn check(&mut self, r: Result<Expr, EvalError>, span: Span) -> Expr {
        r.unwrap_or_else(|e| {
            self.diags.push(
                Diagnostic::error("E0218", format!("constant expression fails: {e}"), span)
                    .with_label_message(e.to_string())
                    .with_help("this expression is constant and cannot be evaluated; fix the operands"),
            );
            Expr::Const(Value::Int(0))
        })
    }
}
