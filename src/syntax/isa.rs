//! `ISA name` (NuSMV 2.5, deprecated in 2.6): textual inclusion of module `name`'s sections into
//! the including module, at the place of the `ISA` line.
//!
//! The parser records each `ISA` ([`IsaRef`]); [`expand`] copies the sections once the whole
//! file is parsed (an included module may come later in the file, and may itself use `ISA`).
//! Spans keep pointing at the included module's text, so diagnostics about copied sections show
//! the original lines. Each `ISA` gets a deprecation warning (W0004); an unknown module (E0102)
//! or a module that includes itself (E0304) is an error and the `ISA` is dropped. Included
//! modules are listed in [`Program::included`] so they are not reported as unused.

use super::ast::{Ident, Program, Section};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use rustc_hash::FxHashMap;

/// One `ISA name` of module `module`, found before its section number `position`.
pub(crate) struct IsaRef {
    pub module: usize,
    pub position: usize,
    pub target: Ident,
    pub span: Span,
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    Todo,
    Active,
    Done,
}

/// The warning code of every `ISA` (NuSMV 2.6 removed it).
pub(crate) const DEPRECATED: &str = "W0004";

/// Copies included sections into the including modules (see the module comment).
pub(crate) fn expand(program: &mut Program, refs: Vec<IsaRef>, diags: &mut Vec<Diagnostic>) {
    if refs.is_empty() {
        return;
    }
    let index: FxHashMap<String, usize> = program.modules.iter().enumerate().map(|(i, m)| (m.name.name.clone(), i)).collect();
    let mut by_module: Vec<Vec<IsaRef>> = (0..program.modules.len()).map(|_| vec![]).collect();
    for r in refs {
        diags.push(
            Diagnostic::warning(DEPRECATED, format!("`ISA {}` is deprecated", r.target.name), r.span)
                .with_label_message("the sections of the module are copied here")
                .with_help("NuSMV 2.6 removed `ISA`; declare an instance of the module instead, or copy its sections"),
        );
        if let Some(list) = by_module.get_mut(r.module) {
            list.push(r);
        }
    }
    let mut state = vec![State::Todo; program.modules.len()];
    for m in 0..program.modules.len() {
        expand_module(program, &index, &mut by_module, &mut state, m, diags);
    }
}

/// Expands module `m` after the modules it includes (iteratively: no recursion on the chain).
fn expand_module(
    program: &mut Program,
    index: &FxHashMap<String, usize>,
    by_module: &mut [Vec<IsaRef>],
    state: &mut [State],
    m: usize,
    diags: &mut Vec<Diagnostic>,
) {
    let mut stack = vec![m];
    while let Some(&cur) = stack.last() {
        if state[cur] == State::Done {
            stack.pop();
            continue;
        }
        state[cur] = State::Active;
        // Include targets first.
        let mut pending = None;
        let mut bad = vec![];
        for (k, r) in by_module[cur].iter().enumerate() {
            match index.get(&r.target.name) {
                None => {
                    diags.push(
                        Diagnostic::error("E0102", format!("module `{}` is not defined", r.target.name), r.target.span)
                            .with_label_message("unknown module")
                            .with_help("`ISA` names a module declared in this file"),
                    );
                    bad.push(k);
                }
                Some(&t) if state[t] == State::Active => {
                    diags.push(
                        Diagnostic::error("E0304", format!("module `{}` includes itself through `ISA`", r.target.name), r.target.span)
                            .with_label_message("circular inclusion")
                            .with_help("remove one of the `ISA` lines of the cycle"),
                    );
                    bad.push(k);
                }
                Some(&t) if state[t] == State::Todo => {
                    pending = Some(t);
                    break;
                }
                Some(_) => {}
            }
        }
        for k in bad.into_iter().rev() {
            by_module[cur].remove(k);
        }
        if let Some(t) = pending {
            stack.push(t);
            continue;
        }
        // All targets are done: copy their sections in, last ISA first so positions stay valid.
        let refs = std::mem::take(&mut by_module[cur]);
        for r in refs.iter().rev() {
            let Some(&t) = index.get(&r.target.name) else { continue };
            let copied: Vec<Section> = program.modules[t].sections.clone();
            let sections = &mut program.modules[cur].sections;
            let at = r.position.min(sections.len());
            sections.splice(at..at, copied);
            if !program.included.contains(&r.target.name) {
                program.included.push(r.target.name.clone());
            }
        }
        state[cur] = State::Done;
        stack.pop();
    }
}
