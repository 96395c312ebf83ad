//! NuSMV 2.5.4's static domain check of assignments, before anything is built.
//!
//! NuSMV evaluates the right-hand side of every `init(x) :=`, `next(x) :=` and `x :=` of a
//! variable with an integer-range or enumerated type as an ADD over all variables and rejects the
//! model ("cannot assign value 6 to variable c", exit 1) if any leaf is a value outside the
//! variable's type, whether the states giving it are reachable or not, allowed by `INVAR`/`INIT`
//! or not (`BddEnc.c`, `Utils_range_check`; leaves where a `case` has no true branch are
//! ignored). The same check here, exactly: the right-hand side becomes `(value, guard)` pairs over
//! the binary encoding of every variable's current, next and input values ([`super::expr`]); a
//! value outside the domain whose guard meets a valid encoding of all variables is an error. Sets
//! (`{c, c + 1}`) are checked value by value, DEFINEs are read through, errors inside the
//! expression (no `case` branch, division by zero) are left to the state-space builder, as NuSMV
//! leaves FAILURE leaves to its other checks.
//!
//! Assumes a flat (non-procedure) system. Booleans and words are not checked (their typing already
//! keeps values in range, as in NuSMV). When the encoding cannot be built (a domain wider than
//! 2^16 values) or the BDDs outgrow [`NODES`], the check is skipped and out-of-range values are
//! reported only when a reachable state meets them (E0502).

use super::Bdd;
use super::encoding::{Copy, Encoding};
use super::expr::SymEval;
use crate::diagnostics::Diagnostic;
use crate::explicit::names::Names;
use crate::ir::VarKind;
use crate::lowering::program::{Domain, Expr, LoweredProgram, System, Value, VarId};
use crate::source::Span;
use oxidd::BooleanFunction;

/// An assignment can give a value outside its variable's type in some state, reachable or not.
pub(crate) const E_DOMAIN: &str = "E0510";

/// Node capacity of the check's BDD manager; larger models skip the check.
const NODES: usize = 1 << 22;

/// Apply-cache entries of the check's BDD manager (1.3 MB): the check is one pass over the
/// assignments, run on every flat model before it is built, where the model-sized cache of the
/// engine (up to 2^22 entries, 80 MB, filled when the manager is created) cost more than the
/// whole check on NuSMV's small examples (`abp4.smv`: 35 ms of its 55 ms).
const CACHE: usize = 1 << 16;

/// The kind of assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Init,
    Next,
    Invar,
}

/// A value outside the domain, with where it comes from and a state giving it.
struct Violation {
    var: VarId,
    value: Value,
    which: Which,
    span: Span,
    /// Value indices of the current state variables of one state giving the value.
    state: Option<Vec<u32>>,
    /// Whether the value also depends on inputs or next-state values (not shown in `state`).
    reads_more: bool,
}

/// The diagnostic for the first assignment (variables in declaration order; `init`, `next`, then
/// `x :=`) that can leave its variable's type, if any.
pub(crate) fn check(program: &LoweredProgram) -> Option<Diagnostic> {
    let system = program.systems.get(program.flat?.index())?;
    if system.is_procedure {
        return None;
    }
    let violation = first_violation(system).ok().flatten()?;
    Some(diagnostic(program, system, &violation))
}

/// The first violation as NuSMV 2.5.4 reports it, for the drop-in mode
/// (`nusmv_mode::range_error`), with xmv-rs's diagnostic.
pub(crate) struct NusmvViolation {
    /// The variable's qualified name and the value, as NuSMV prints them.
    pub(crate) var: String,
    pub(crate) value: String,
    /// An `init()` assignment (NuSMV names a line of its own choosing for these).
    pub(crate) init: bool,
    /// The assignment's span.
    pub(crate) span: Span,
    /// The declaration of the variable the right-hand side is, when it is one variable.
    pub(crate) rhs_var: Option<Span>,
    pub(crate) diagnostic: Diagnostic,
}

/// [`check`] with what NuSMV's message needs.
pub(crate) fn check_nusmv(program: &LoweredProgram) -> Option<NusmvViolation> {
    let system = program.systems.get(program.flat?.index())?;
    if system.is_procedure {
        return None;
    }
    let found = first_violation(system).ok().flatten()?;
    let list = match found.which {
        Which::Init => &system.init_assign,
        Which::Next => &system.next_assign,
        Which::Invar => &system.invar_assign,
    };
    let rhs_var = match list.get(found.var.index()).and_then(Option::as_ref) {
        Some(Expr::Var(x) | Expr::Next(x)) => system.vars.get(x.index()).map(|v| v.span),
        _ => None,
    };
    Some(NusmvViolation {
        var: system.vars[found.var.index()].name.clone(),
        value: Names::of(program).value(found.value),
        init: found.which == Which::Init,
        span: found.span,
        rhs_var,
        diagnostic: diagnostic(program, system, &found),
    })
}

/// Whether NuSMV checks assignments to a variable of this type.
fn checked(domain: &Domain) -> bool {
    matches!(domain, Domain::Range { .. } | Domain::Enum(_))
}

fn first_violation(system: &System) -> super::SymResult<Option<Violation>> {
    let n = system.vars.len();
    // The assignments that could leave the type (see [`surely_inside`]).
    let assignments = |v: usize| {
        let domain = &system.vars[v].domain;
        [(Which::Init, &system.init_assign), (Which::Next, &system.next_assign), (Which::Invar, &system.invar_assign)]
            .into_iter()
            .filter_map(move |(which, list)| list.get(v).and_then(Option::as_ref).map(|e| (which, e)))
            .filter(move |(_, e)| !surely_inside(system, e, domain))
    };
    if !(0..n).any(|v| checked(&system.vars[v].domain) && assignments(v).next().is_some()) {
        return Ok(None);
    }
    let order: Vec<usize> = (0..n).collect();
    let enc = Encoding::with_cache(system, &order, NODES, Some(CACHE), 1)?;
    // Every variable's current, next and input bits hold a valid value index.
    let mut valid = enc.t();
    for v in (0..n).map(VarId::new) {
        valid = valid.and(&enc.in_domain(v, Copy::Cur)?)?;
        if system.vars[v.index()].kind != VarKind::Input {
            valid = valid.and(&enc.in_domain(v, Copy::Next)?)?;
        }
    }
    let mut ev = SymEval::new(&enc, &system.vars);
    for v in 0..n {
        let domain = &system.vars[v].domain;
        if !checked(domain) {
            continue;
        }
        for (which, e) in assignments(v) {
            let found = outside(&mut ev, &enc, &valid, domain, e)?;
            ev.take_errors();
            if let Some((value, region)) = found {
                let spans = match which {
                    Which::Init => &system.spans.init_assign,
                    Which::Next => &system.spans.next_assign,
                    Which::Invar => &system.spans.invar_assign,
                };
                let span = spans.get(v).copied().flatten().unwrap_or(system.vars[v].span);
                let state = enc.pick_state(&region)?;
                let reads_more = e.reads_var(&|x| system.vars.get(x.index()).is_some_and(|x| x.kind == VarKind::Input)) || e.reads_next();
                return Ok(Some(Violation { var: VarId::new(v), value, which, span, state, reads_more }));
            }
        }
    }
    Ok(None)
}

/// The value of `e` outside `domain` that NuSMV 2.5.4 names, with the region giving it: the
/// first out-of-range leaf of NuSMV's ADD of `e`, i.e. the one reached by the greatest
/// assignment of the bits it reads ([`nusmv_first_point`]).
fn outside(ev: &mut SymEval, enc: &Encoding, valid: &Bdd, domain: &Domain, e: &Expr) -> super::SymResult<Option<(Value, Bdd)>> {
    let mut regions: Vec<(Value, Bdd)> = vec![];
    let value = ev.eval(e)?;
    if let (super::expr::Sym::Word(w), Domain::Word { width, signed, .. }) = (&value, domain)
        && w.width() == usize::from(*width)
        && w.signed == *signed
    {
        // A word of the variable's type has no value outside it.
        return Ok(None);
    }
    for (value, guard) in ev.as_cases(value)? {
        if domain.index_of(value).is_some_and(|i| i < domain.len()) {
            continue;
        }
        let region = guard.and(valid)?;
        if region.satisfiable() {
            regions.push((value, region));
        }
    }
    if regions.len() < 2 {
        return Ok(regions.pop());
    }
    let mut all = enc.f();
    for (_, r) in &regions {
        all = all.or(r)?;
    }
    let point = nusmv_first_point(enc, &vars_read(e, enc), all)?;
    // Several values at that point come from a set (`{y, y + 1}`): NuSMV names the greatest on
    // the models tried (`{y + 1, y}`, `{y + 2, y, y + 1}`, `{0, 1}`, `{1, 0}`) but not always
    // (`{y, 0, y + 1}` names 0; README).
    let mut found: Option<(Value, Bdd)> = None;
    for (value, region) in regions {
        if region.and(&point)?.satisfiable() && found.as_ref().is_none_or(|(v, _)| value > *v) {
            found = Some((value, region));
        }
    }
    Ok(found)
}

/// The variables `e` reads (current, next or input), in declaration order.
fn vars_read(e: &Expr, enc: &Encoding) -> Vec<VarId> {
    (0..enc.num_vars()).map(VarId::new).filter(|&v| e.reads_var(&|x| x == v)).collect()
}

/// NuSMV 2.5.4 encodes a value of a range or enumeration by the bits of its index, least
/// significant first (its encoding tree puts the values at odd positions under bit = 1 and
/// recurses on each half), variable after variable in declaration order with each bit's current
/// and next copies adjacent, and the range check names the first out-of-range leaf its ADD
/// traversal meets, the `then` (bit = 1) branch first. That is the out-of-range value at the
/// greatest point of `set` in that bit order, found here bit by bit (checked against the 2.5.4
/// binary: `next(x) := y` with `x : 2..3` names 5 for `y : 0..5` and `0..6`, 7 for `0..7`, 1 for
/// `0..3`). Variables `e` does not read do not change the value.
fn nusmv_first_point(enc: &Encoding, vars: &[VarId], mut set: Bdd) -> super::SymResult<Bdd> {
    for &v in vars {
        let copies: &[Copy] = if enc.is_input(v) { &[Copy::Cur] } else { &[Copy::Cur, Copy::Next] };
        for k in 0.. {
            let mut any = false;
            for &copy in copies {
                let Some(bit) = enc.index_bit(v, copy, k) else { continue };
                any = true;
                let one = set.and(bit)?;
                set = if one.satisfiable() { one } else { set.and(&bit.not()?)? };
            }
            if !any {
                break;
            }
        }
    }
    Ok(set)
}

/// Whether every value `e` can give is in `domain`, read off its leaves without BDDs: constants
/// in the domain and variables whose domain is inside it, under `case`, tables, `? :` and sets.
/// (A control-flow `next(pc) := case pc = l0 : {l1, l7}; …` is settled here, which matters for
/// enumerations of tens of thousands of locations.) `false` means "not known", not "outside".
fn surely_inside(system: &System, e: &Expr, domain: &Domain) -> bool {
    // `Domain::index_of` scans an enumeration: a set for wide ones.
    let members: Option<rustc_hash::FxHashSet<Value>> = match domain {
        Domain::Enum(values) if values.len() > 16 => Some(values.iter().copied().collect()),
        _ => None,
    };
    let contains = |v: Value| members.as_ref().map_or_else(|| domain.index_of(v).is_some(), |m| m.contains(&v));
    let var_inside = |x: VarId| {
        let Some(var) = system.vars.get(x.index()) else { return false };
        match (&var.domain, domain) {
            (Domain::Range { lo, hi }, Domain::Range { lo: dlo, hi: dhi }) => dlo <= lo && hi <= dhi,
            (d, _) if d == domain => true,
            (d, _) => d.table_len().is_some() && (0..d.len()).all(|i| contains(d.value(i))),
        }
    };
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Const(v) => {
                if !contains(*v) {
                    return false;
                }
            }
            Expr::Var(x) | Expr::Next(x) => {
                if !var_inside(*x) {
                    return false;
                }
            }
            Expr::Case { branches, .. } => stack.extend(branches.iter().map(|(_, v)| v)),
            Expr::Table { entries, fallback, .. } => {
                stack.extend(entries.iter().flatten());
                stack.extend(fallback.as_deref());
            }
            Expr::Ite(_, a, b) => stack.extend([&**a, &**b]),
            Expr::Set(items) => stack.extend(items.iter()),
            Expr::Shared(inner) => stack.push(inner),
            _ => return false,
        }
    }
    true
}

fn diagnostic(program: &LoweredProgram, system: &System, found: &Violation) -> Diagnostic {
    let names = Names::of(program);
    let var = &system.vars[found.var.index()];
    let value = names.value(found.value);
    let what = match found.which {
        Which::Init => "init assignment",
        Which::Next => "next assignment",
        Which::Invar => "assignment",
    };
    let mut d = Diagnostic::error(E_DOMAIN, format!("cannot assign value {value} to variable `{}`", var.name), found.span)
        .with_label_message(format!("this {what} can give {value}"))
        .with_secondary(var.span, format!("`{}` is declared here", var.name))
        .with_help(format!("widen the type of `{}` or keep the assigned value within it in every state", var.name))
        .with_note(
            "as NuSMV does, every assignment is checked for all values of the variables it reads, reachable or not (INVAR and INIT do not restrict this check)",
        );
    if let Some(state) = &found.state {
        let more = if found.reads_more { " (with some input or next-state values)" } else { "" };
        d = d.with_note(format!("for example in the state {}{more}", names.state(system, state)));
    }
    d
}
