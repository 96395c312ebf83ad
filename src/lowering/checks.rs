//! Checks that need folded expressions.
//!
//! - A constant assigned to a variable must be in its domain (NuSMV: "cannot assign value 4 to
//!   variable x"). Only constant right-hand sides (and constant sets) are checked here; computed
//!   values are range-checked by the state-space builder.
//! - A word variable that the explicit state-space builder would enumerate (an input, or a
//!   variable without `init`/`next` assignment) must have at most 2^[`MAX_ENUMERATED_WORD`]
//!   values. Lowering checks it on procedure modules (only the explicit engines check them);
//!   the flat model's explicit build calls [`enumerated_words`] itself, since the BDD engine
//!   encodes such words as their bits.
//! - A procedure module's `init` must give exactly one state (its entry). This is decided here
//!   when every variable's `init` is a constant (or a constant set); when some `init` depends on
//!   other variables, or `INIT` constraints exist, the builder decides it on the state space.

use crate::diagnostics::Diagnostic;
use crate::ir::VarKind;
use crate::lowering::fold::const_set;
use crate::lowering::program::{Domain, System, Value};
use crate::semantics::checked::CheckedSystem;

pub(crate) fn assignments_in_domain(checked: &CheckedSystem, sys: &System, symbols: &[String], diags: &mut Vec<Diagnostic>) {
    let lists = [(&sys.init_assign, &checked.init_assign), (&sys.next_assign, &checked.next_assign), (&sys.invar_assign, &checked.invar_assign)];
    for (lowered, typed) in lists {
        for (v, (e, t)) in lowered.iter().zip(typed.iter()).enumerate() {
            let (Some(e), Some(t)) = (e, t) else { continue };
            let Some(values) = const_set(e) else { continue };
            let var = &sys.vars[v];
            for value in values {
                if value == Value::Exit && sys.is_procedure {
                    continue;
                }
                if var.domain.index_of(value).is_none() {
                    diags.push(
                        Diagnostic::error("E0209", format!("cannot assign value {} to variable `{}`", show(value, symbols), var.name), t.span)
                            .with_label_message("not in the variable's domain")
                            .with_secondary(var.span, "variable declared here")
                            .with_help(format!("the values of `{}` are {}", var.name, describe(&var.domain, symbols))),
                    );
                    break;
                }
            }
        }
    }
}

/// Widest word variable whose values the builder enumerates (the same bound as ranges).
pub(crate) const MAX_ENUMERATED_WORD: u8 = 24;

/// The code of [`enumerated_words`]'s error.
pub(crate) const E_ENUMERATED_WORD: &str = "E0234";

/// The word variables of `sys` that the explicit builder would enumerate and that have more
/// than 2^[`MAX_ENUMERATED_WORD`] values, each with the reason it is enumerated.
pub(crate) fn words_beyond_explicit_reach(sys: &System) -> impl Iterator<Item = (usize, &'static str)> + '_ {
    sys.vars.iter().enumerate().filter_map(|(v, var)| {
        let Domain::Word { width, .. } = var.domain else { return None };
        if width <= MAX_ENUMERATED_WORD || sys.invar_assign[v].is_some() {
            return None;
        }
        let why = match var.kind {
            VarKind::Input => "it is an input variable, so every transition enumerates its values",
            _ if sys.init_assign[v].is_none() => "it has no `init` assignment, so the initial states enumerate its values",
            VarKind::State if sys.next_assign[v].is_none() => "it has no `next` assignment, so every transition enumerates its values",
            _ => return None,
        };
        Some((v, why))
    })
}

/// E0234 for each of [`words_beyond_explicit_reach`].
pub(crate) fn enumerated_words(sys: &System, diags: &mut Vec<Diagnostic>) {
    for (v, why) in words_beyond_explicit_reach(sys) {
        let var = &sys.vars[v];
        let Domain::Word { width, signed, .. } = var.domain else { continue };
        let ty = format!("{} word[{width}]", if signed { "signed" } else { "unsigned" });
        diags.push(
            Diagnostic::error(E_ENUMERATED_WORD, format!("variable `{}` of type {ty} would need its 2^{width} values enumerated", var.name), var.span)
                .with_label_message(why)
                .with_note(format!("the explicit state-space builder enumerates unassigned variables of at most 2^{MAX_ENUMERATED_WORD} values"))
                .with_help(if var.kind == VarKind::Input {
                    "use a narrower word, or a state variable with `init` and `next` assignments".to_string()
                } else {
                    format!("assign `init({0})` and `next({0})`, or use a narrower word", var.name)
                }),
        );
    }
}

pub(crate) fn single_entry(checked: &CheckedSystem, sys: &System, diags: &mut Vec<Diagnostic>) {
    if checked.has_init_constraints {
        return; // INIT constraints: decided by the state-space builder.
    }
    for (v, var) in sys.vars.iter().enumerate() {
        if var.kind == VarKind::Input || sys.invar_assign[v].is_some() {
            continue;
        }
        match &sys.init_assign[v] {
            None if var.domain.len() > 1 => diags.push(
                Diagnostic::error("E0405", format!("variable `{}` of procedure module `{}` has no initial value", var.name, sys.name), var.span)
                    .with_label_message("no `init` assignment")
                    .with_help(format!("a procedure module has exactly one entry state: add `init({}) := value;`", var.name)),
            ),
            Some(e) => {
                let Some(mut values) = const_set(e) else { continue }; // computed: the builder decides
                values.sort();
                values.dedup();
                if values.len() > 1 {
                    let span = checked.init_assign[v].as_ref().map_or(var.span, |t| t.span);
                    diags.push(
                        Diagnostic::error(
                            "E0405",
                            format!("`init({})` gives {} values, but a procedure module has exactly one entry state", var.name, values.len()),
                            span,
                        )
                        .with_label_message("several initial values")
                        .with_help("choose one initial value; branch nondeterministically in `next()` instead"),
                    );
                }
            }
            None => {}
        }
    }
}

fn show(v: Value, symbols: &[String]) -> String {
    match v {
        Value::Bool(b) => if b { "TRUE" } else { "FALSE" }.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Sym(s) => symbols.get(s.index()).cloned().unwrap_or_default(),
        Value::Exit => "EXIT".to_string(),
        Value::ExitName(n) => format!("exit {n}"),
        Value::Word { bits, width, signed } => {
            let mut s = String::new();
            crate::ir::words::write_word(&mut s, bits, width, signed);
            s
        }
    }
}

fn describe(d: &Domain, symbols: &[String]) -> String {
    match d {
        Domain::Boolean => "TRUE and FALSE".to_string(),
        Domain::Range { lo, hi } => format!("{lo}..{hi}"),
        Domain::Enum(vs) => format!("{{{}}}", vs.iter().map(|&v| show(v, symbols)).collect::<Vec<_>>().join(", ")),
        Domain::Word { width, signed, .. } => format!("the {} word[{width}] values", if *signed { "signed" } else { "unsigned" }),
    }
}
