//! Assignment rules (NuSMV "single assignment" and "no circular dependencies"): each variable
//! has at most one `init(x) :=`, one `next(x) :=` and one `x :=`, never `x :=` together with
//! `init(x)`/`next(x)`; inputs are never assigned, frozen variables only initialised; the
//! value's type must fit the variable; and the assignments `x := e` (over current values) and
//! `next(x) := e` (over `next` values) must not depend on each other in a cycle.

use crate::diagnostics::Diagnostic;
use crate::ir::id::IdVec;
use crate::ir::{VarId, Variable};
use crate::semantics::checked::{DefineId, TExpr, TKind};
use crate::semantics::flattened::Flattened;
use crate::semantics::types::{Ty, unify_scalar};
use crate::source::Span;
use crate::syntax::ast::{AssignKind, VarKind};
use rustc_hash::FxHashSet;

pub(crate) struct Slot {
    pub value: TExpr,
    /// The whole assignment.
    pub span: Span,
    /// Process index of the instance the assignment is written in.
    pub process: u32,
}

#[derive(Default)]
pub(crate) struct Assignments {
    pub init: Vec<Option<Slot>>,
    pub next: Vec<Option<Slot>>,
    pub invar: Vec<Option<Slot>>,
    /// With processes, `next(x)` may be assigned once per process (NuSMV: the assignment of the
    /// running process applies): the assignments after the first, from other processes.
    pub other_processes_next: Vec<Vec<Slot>>,
}

impl Assignments {
    pub(crate) fn new(n: usize) -> Self {
        let none = || (0..n).map(|_| None).collect();
        Assignments { init: none(), next: none(), invar: none(), other_processes_next: (0..n).map(|_| vec![]).collect() }
    }

    /// Records `kind(v) := value`, reporting rule violations.
    pub(crate) fn record(&mut self, flat: &Flattened, v: VarId, kind: AssignKind, slot: Slot, target_span: Span, diags: &mut Vec<Diagnostic>) {
        let var = &flat.vars[v.index()];
        let name = &var.name;
        if var.kind == VarKind::Input {
            diags.push(
                Diagnostic::error("E0307", format!("input variable `{name}` cannot be assigned"), target_span)
                    .with_secondary(var.span, "declared in IVAR here")
                    .with_help("inputs are unconstrained by definition; constrain them with TRANS, or declare the variable in VAR"),
            );
            return;
        }
        if var.kind == VarKind::Frozen && kind != AssignKind::Init {
            diags.push(
                Diagnostic::error("E0308", format!("frozen variable `{name}` can only be assigned with `init({name}) :=`"), target_span)
                    .with_secondary(var.span, "declared in FROZENVAR here")
                    .with_help("a FROZENVAR keeps its initial value; declare it in VAR to change it"),
            );
            return;
        }
        check_value_type(var, flat.var_ty[v.index()], &slot.value, diags);
        let (list, other, kw) = match kind {
            AssignKind::Init => (&self.init, &self.invar, "init"),
            AssignKind::Next => (&self.next, &self.invar, "next"),
            AssignKind::Invariant => (&self.invar, &self.init, ""),
        };
        let label = |k: &str| if k.is_empty() { format!("{name} :=") } else { format!("{k}({name}) :=") };
        if let Some(first) = &list[v.index()] {
            let same_process = |s: &Slot| s.process == slot.process;
            if kind == AssignKind::Next && !same_process(first) && !self.other_processes_next[v.index()].iter().any(same_process) {
                self.other_processes_next[v.index()].push(slot);
                return;
            }
            diags.push(
                Diagnostic::error("E0301", format!("`{}` is assigned twice", label(kw)), slot.span)
                    .with_label_message("second assignment")
                    .with_secondary(first.span, "first assignment")
                    .with_help("a variable has at most one assignment of each kind; merge them with `case`"),
            );
            return;
        }
        let conflict = other[v.index()]
            .as_ref()
            .map(|s| s.span)
            .or_else(|| if kind == AssignKind::Invariant { self.next[v.index()].as_ref().map(|s| s.span) } else { None });
        if let Some(c) = conflict {
            diags.push(
                Diagnostic::error("E0302", format!("`{name}` has both an invariant assignment and an init/next assignment"), slot.span)
                    .with_secondary(c, "conflicting assignment")
                    .with_help(format!("`{name} := e` already fixes `{name}` in every state; remove one of them")),
            );
            return;
        }
        let list = match kind {
            AssignKind::Init => &mut self.init,
            AssignKind::Next => &mut self.next,
            AssignKind::Invariant => &mut self.invar,
        };
        list[v.index()] = Some(slot);
    }
}

fn check_value_type(var: &Variable, var_ty: Ty, value: &TExpr, diags: &mut Vec<Diagnostic>) {
    let (Some(vs), Some(xs)) = (var_ty.scalar(), value.ty.scalar()) else { return };
    if unify_scalar(xs, vs) == Some(vs) {
        return;
    }
    diags.push(
        Diagnostic::error(
            "E0208",
            format!("cannot assign {} value to `{}` of type {}", crate::semantics::types::with_article(value.ty), var.name, var_ty),
            value.span,
        )
        .with_label_message(format!("this is {}", value.ty))
        .with_secondary(var.span, "variable declared here")
        .with_help(match (var_ty, xs) {
            (Ty::Bool, crate::semantics::types::Scalar::Int) => "use TRUE/FALSE for booleans (no implicit conversion since NuSMV 2.5.1)".to_string(),
            (Ty::Int, crate::semantics::types::Scalar::Bool) => "use `toint(...)` to turn a boolean into 0/1".to_string(),
            _ => crate::semantics::types::conversion_help(value.ty, var_ty).unwrap_or_else(|| format!("the value must be one of the values of `{}`", var.name)),
        }),
    );
}

/// `(current, next)` variables read by an expression.
type ReadSets = (Vec<VarId>, Vec<VarId>);

/// Which variables an expression reads, now and in the next state (through DEFINEs).
pub(crate) struct Reads<'d> {
    defines: &'d IdVec<DefineId, TExpr>,
    memo: IdVec<DefineId, Option<ReadSets>>,
}

impl<'d> Reads<'d> {
    pub(crate) fn new(defines: &'d IdVec<DefineId, TExpr>) -> Self {
        Reads { defines, memo: IdVec::from_elem(None, defines.len()) }
    }

    /// `(current, next)` variables read by `t`.
    pub(crate) fn of(&mut self, t: &TExpr) -> (Vec<VarId>, Vec<VarId>) {
        let (mut cur, mut nxt) = (FxHashSet::default(), FxHashSet::default());
        self.walk(t, false, &mut cur, &mut nxt, 0);
        let mut cur: Vec<VarId> = cur.into_iter().collect();
        let mut nxt: Vec<VarId> = nxt.into_iter().collect();
        cur.sort_unstable();
        nxt.sort_unstable();
        (cur, nxt)
    }

    fn walk(&mut self, t: &TExpr, under_next: bool, cur: &mut FxHashSet<VarId>, nxt: &mut FxHashSet<VarId>, depth: usize) {
        match &t.kind {
            TKind::Var(v) => {
                if under_next {
                    nxt.insert(*v)
                } else {
                    cur.insert(*v)
                };
            }
            TKind::Next(a) => self.walk(a, true, cur, nxt, depth),
            TKind::Define(d) => {
                let d = *d;
                if depth > 64 {
                    return; // only reachable through a DEFINE cycle, already reported
                }
                if self.memo[d].is_none() {
                    let (mut c, mut n) = (FxHashSet::default(), FxHashSet::default());
                    let body = &self.defines[d];
                    self.walk(body, false, &mut c, &mut n, depth + 1);
                    self.memo[d] = Some((c.into_iter().collect(), n.into_iter().collect()));
                }
                if let Some((c, n)) = &self.memo[d] {
                    if under_next {
                        nxt.extend(c.iter().chain(n.iter()).copied());
                    } else {
                        cur.extend(c.iter().copied());
                        nxt.extend(n.iter().copied());
                    }
                }
            }
            _ => t.for_each_child(|c| self.walk(c, under_next, cur, nxt, depth)),
        }
    }
}

/// Reports cycles in a dependency graph over variables (`edges[x]` = variables `x` depends on).
pub(crate) fn report_cycles(vars: &[Variable], edges: &[Vec<VarId>], spans: &[Option<Span>], what: &str, diags: &mut Vec<Diagnostic>) {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let mut mark = vec![Mark::New; edges.len()];
    for root in 0..edges.len() {
        if mark[root] != Mark::New || edges[root].is_empty() {
            continue;
        }
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        mark[root] = Mark::Active;
        while let Some(top) = path.last_mut() {
            let (x, i) = *top;
            if i < edges[x].len() {
                top.1 += 1;
                let y = edges[x][i].index();
                match mark[y] {
                    Mark::New => {
                        mark[y] = Mark::Active;
                        path.push((y, 0));
                    }
                    Mark::Active => {
                        let start = path.iter().position(|&(p, _)| p == y).unwrap_or(0);
                        let mut names: Vec<String> = path[start..].iter().map(|&(p, _)| fmt_var(&vars[p].name, what)).collect();
                        names.push(fmt_var(&vars[y].name, what));
                        let span = spans[y].unwrap_or(vars[y].span);
                        diags.push(
                            Diagnostic::error("E0303", format!("combinational cycle between {what} assignments"), span)
                                .with_label_message(format!("`{}` depends on itself", fmt_var(&vars[y].name, what)))
                                .with_note(format!("cycle: {}", names.join(" -> ")))
                                .with_help("break the cycle: make one of the values depend on the current state instead"),
                        );
                    }
                    Mark::Done => {}
                }
            } else {
                mark[x] = Mark::Done;
                path.pop();
            }
        }
    }
}

fn fmt_var(name: &str, what: &str) -> String {
    if what == "next" { format!("next({name})") } else { name.to_string() }
}
