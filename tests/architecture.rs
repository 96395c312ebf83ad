//! The structure docs/architecture.md promises, checked on the source text of `src/`:
//!
//! 1. a one-way pipeline: every top-level module has a layer (`LAYERS`), and a module imports
//!    only modules of its own or an earlier layer (`syntax` never names `semantics`, `check`
//!    never names `report`, nothing but the front ends names `api`);
//! 2. no import cycles between the crate's modules (a module and its own submodules aside: a
//!    parent declares its children and a child may read its parent's items).
//!
//! What counts as an import: every `crate::a::b…` path and every `super::…`/`self::…` path in
//! code (comments and doc comments are skipped, so doc links are not imports; so is test code:
//! everything from the first `#[cfg(test)]` of a file on, and files that are test modules). A
//! path names the deepest module it reaches; the items of a `{…}` group are not followed, so
//! `use crate::report::{json, text}` counts as an import of `report`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers of the pipeline, earliest first. A module may import its own layer and earlier ones.
const LAYERS: &[&[&str]] = &[
    // Shared by every stage: the types that cross stages, sources and diagnostics, CTL and LTL
    // formulas over any atoms, and utilities (parallel map, progress, CPU trace, deadlines).
    &["ir", "source", "diagnostics", "ctl", "ltl", "par", "progress", "cpu_trace", "deadline"],
    &["syntax"],
    &["semantics"],
    &["lowering"],
    // The front end (syntax → semantics → lowering) and NuSMV's property numbering of its output.
    &["frontend", "properties"],
    // State spaces: explicit (Kripke structures, RKSs) and symbolic (BDDs).
    &["explicit", "symbolic"],
    &["check"],
    &["report"],
    &["driver", "import"],
    // Front ends over the whole pipeline.
    &["api", "nusmv_mode", "lsp"],
];

struct Module {
    /// `a::b::c` (the crate root is `lib`).
    path: String,
    file: PathBuf,
    /// The module paths this one names (resolved to the deepest existing module).
    imports: BTreeSet<String>,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every module file of the library (not `main.rs`), by module path.
fn module_files() -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).expect("src is readable").map(|e| e.expect("a directory entry").path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    let src = src_dir();
    let mut files = vec![];
    walk(&src, &mut files);
    let mut modules = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src").with_extension("");
        let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
        if parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        let path = parts.join("::");
        if path == "main" || parts.iter().any(|p| p == "tests" || p == "test_support") {
            continue;
        }
        modules.insert(path, file);
    }
    modules
}

/// The code of a file without comments and without test code.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        // A trailing comment: cut at `//` outside a string literal (good enough for paths).
        let code = match line.find("//") {
            Some(at) if line[..at].matches('"').count() % 2 == 0 => &line[..at],
            _ => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The identifiers of the path starting at `at` (`a::b::c` → `[a, b, c]`), up to a `{`, `*` or
/// anything that is not an identifier.
fn path_at(code: &str, at: usize) -> Vec<&str> {
    let mut parts = vec![];
    let mut rest = &code[at..];
    loop {
        let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        parts.push(&rest[..len]);
        rest = &rest[len..];
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    parts
}

/// The deepest module of `known` that `base` followed by `parts` reaches.
fn deepest(known: &BTreeMap<String, PathBuf>, base: &[String], parts: &[&str]) -> Option<String> {
    let mut best = None;
    let mut path: Vec<String> = base.to_vec();
    for p in parts {
        path.push(p.to_string());
        let joined = path.join("::");
        if known.contains_key(&joined) {
            best = Some(joined);
        } else {
            break;
        }
    }
    best
}

fn modules() -> Vec<Module> {
    let known = module_files();
    let mut out = vec![];
    for (path, file) in &known {
        let text = std::fs::read_to_string(file).expect("a readable source file");
        let code = code_of(&text);
        let own: Vec<String> = if path == "lib" { vec![] } else { path.split("::").map(str::to_string).collect() };
        let mut imports = BTreeSet::new();
        for (prefix, base) in [("crate::", vec![]), ("super::", own[..own.len().saturating_sub(1)].to_vec()), ("self::", own.clone())] {
            let mut from = 0;
            while let Some(found) = code[from..].find(prefix) {
                let at = from + found;
                from = at + prefix.len();
                // `crate::` preceded by an identifier character is part of another word.
                if at > 0 && code[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let mut parts = path_at(&code, from);
                // `super::super::x`
                let mut base = base.clone();
                while parts.first() == Some(&"super") {
                    base.pop();
                    parts.remove(0);
                }
                if let Some(target) = deepest(&known, &base, &parts) {
                    imports.insert(target);
                }
            }
        }
        out.push(Module { path: path.clone(), file: file.clone(), imports });
    }
    out
}

fn top(path: &str) -> &str {
    path.split("::").next().unwrap_or(path)
}

fn layer(top: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&top))
}

#[test]
fn every_top_level_module_has_a_layer() {
    let tops: BTreeSet<String> = module_files().keys().map(|p| top(p).to_string()).filter(|t| t != "lib").collect();
    let missing: Vec<&String> = tops.iter().filter(|t| layer(t).is_none()).collect();
    assert!(missing.is_empty(), "modules without a layer in tests/architecture.rs (add them to LAYERS and docs/architecture.md): {missing:?}");
}

#[test]
fn no_stage_imports_a_later_one() {
    let mut wrong = vec![];
    for m in modules() {
        let Some(from) = layer(top(&m.path)) else { continue };
        for i in &m.imports {
            if let Some(to) = layer(top(i))
                && to > from
            {
                wrong.push(format!("{} ({}) imports {i}", m.path, m.file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "imports of later stages:\n{}", wrong.join("\n"));
}

#[test]
fn no_import_cycles_between_modules() {
    let modules = modules();
    let index: BTreeMap<&str, usize> = modules.iter().enumerate().map(|(i, m)| (m.path.as_str(), i)).collect();
    // An edge a → b unless one is an ancestor of the other.
    let related = |a: &str, b: &str| a.starts_with(&format!("{b}::")) || b.starts_with(&format!("{a}::"));
    let edges: Vec<Vec<usize>> = modules
        .iter()
        .map(|m| m.imports.iter().filter(|i| **i != m.path && !related(&m.path, i)).filter_map(|i| index.get(i.as_str()).copied()).collect())
        .collect();
    // Tarjan's strongly connected components, iteratively.
    let n = modules.len();
    let (mut idx, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut cycles) = (vec![], 0, vec![]);
    for root in 0..n {
        if idx[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        idx[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if let Some(&w) = edges[v].get(*e) {
                *e += 1;
                if idx[w] == usize::MAX {
                    idx[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(idx[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == idx[v] {
                let mut component = vec![];
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    component.push(modules[w].path.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    cycles.push(component.join(" <-> "));
                }
            }
        }
    }
    assert!(cycles.is_empty(), "modules that import each other (directly or through others):\n{}", cycles.join("\n"));
}

/// The checks above see through the crate's own import forms: a known backward import and a
/// known cycle, written the ways the code writes them, are found.
#[test]
fn the_import_reader_finds_paths_in_every_form() {
    let code = code_of(
        "//! see crate::report\nuse crate::report::{json, text};\nfn f() { crate::check::deadline::poll(); super::x::y(); }\n#[cfg(test)]\nuse crate::api;\n",
    );
    assert!(!code.contains("api") && !code.contains("see"), "{code}");
    let at = |needle: &str| code.find(needle).map(|i| i + needle.len()).expect("present");
    assert_eq!(path_at(&code, at("use crate::")), ["report"]);
    assert_eq!(path_at(&code, at("{ crate::")), ["check", "deadline", "poll"]);
    assert_eq!(path_at(&code, at("super::")), ["x", "y"]);
    let known: BTreeMap<String, PathBuf> = ["check", "check::deadline", "a::x"].iter().map(|p| (p.to_string(), PathBuf::new())).collect();
    assert_eq!(deepest(&known, &[], &["check", "deadline", "poll"]).as_deref(), Some("check::deadline"));
    assert_eq!(deepest(&known, &["a".to_string()], &["x", "y"]).as_deref(), Some("a::x"));
    assert_eq!(layer("check").zip(layer("report")).map(|(c, r)| c < r), Some(true));
}
