//! Reads RSMCheck's JSON recursive state machines into a [`Model`] (test-only; independent of
//! the importer in `src/import`).
//!
//! RSMCheck's C-semantics (Dubslaff digest §2.3) is our semantics: a box's call node `(b,en)` is
//! labelled like `en` and behaves like the callee's entry (a transparent call), a return node
//! `(b,ex)` is never a configuration (no transition enters it), and an exit reached with an
//! empty stack loops (termination rule `loop`). The mapping:
//! - a component with entries `en1..enk` becomes `k` components `name@eni` (or just `name` when
//!   it has one entry), each with every node of the original, its own entry first; nodes are
//!   locations, `is_exit` nodes are the exits in declaration order;
//! - a call node `(b,en)` becomes a call node `b@en` of the copy for `en`;
//! - `n -> m` is an edge, `n -> (b,en)` an edge to the call node, `(b,ex) -> m` a continuation of
//!   every call node of `b` for exit `ex`;
//! - `(b,ex) -> (b',en')` (a return straight into a call, not allowed in our RKSs) goes through a
//!   fresh location labelled like `en'`. That adds one stutter step, so only X-free formulas keep
//!   their verdicts; [`Rsm::virtual_locations`] counts these.
//!
//! Errors (returned, not panics): malformed JSON, unknown names, a box without continuations for
//! one of its callee's exits (a deadlock the RSM format assumes away).

use super::model::{Comp, Kind, Model, Node};
use serde_json::Value;
use xmv_rs::syntax::ast::TerminationRule;

pub struct Rsm {
    pub model: Model,
    /// Index of the initial component in `model.comps`.
    pub initial: usize,
    pub virtual_locations: usize,
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| format!("missing field {key:?} in {v}"))
}
fn string(v: &Value, key: &str) -> Result<String, String> {
    field(v, key)?.as_str().map(str::to_string).ok_or_else(|| format!("field {key:?} is not a string"))
}
fn array<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, String> {
    field(v, key)?.as_array().ok_or_else(|| format!("field {key:?} is not an array"))
}
fn strings(v: &Value, key: &str) -> Result<Vec<String>, String> {
    array(v, key)?.iter().map(|s| s.as_str().map(str::to_string).ok_or_else(|| format!("{key}: not a string"))).collect()
}

/// A transition endpoint: a plain node, or a box node `(box, node)`.
enum End {
    Node(String),
    Box(String, String),
}

fn end(v: &Value) -> Result<End, String> {
    match string(v, "type")?.as_str() {
        "node" => Ok(End::Node(string(v, "name")?)),
        "box_node" => Ok(End::Box(string(v, "box_name")?, string(v, "node_name")?)),
        t => Err(format!("unknown endpoint type {t}")),
    }
}

struct RawComp {
    name: String,
    /// (name, is_entry, is_exit, labels)
    nodes: Vec<(String, bool, bool, Vec<String>)>,
    /// (box name, callee component name)
    boxes: Vec<(String, String)>,
    transitions: Vec<(End, Vec<End>)>,
}

pub fn parse(text: &str) -> Result<Rsm, String> {
    let root: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut raws = Vec::new();
    for c in array(&root, "components")? {
        let mut nodes = Vec::new();
        for n in array(c, "nodes")? {
            let flag = |k| field(n, k).map(|v| v.as_bool().unwrap_or(false));
            nodes.push((string(n, "name")?, flag("is_entry")?, flag("is_exit")?, strings(n, "labels")?));
        }
        let boxes = array(c, "boxes")?.iter().map(|b| Ok((string(b, "name")?, string(b, "component")?))).collect::<Result<_, String>>()?;
        let mut transitions = Vec::new();
        for t in array(c, "transitions")? {
            let targets = array(t, "targets")?.iter().map(end).collect::<Result<_, _>>()?;
            transitions.push((end(field(t, "source")?)?, targets));
        }
        raws.push(RawComp { name: string(c, "name")?, nodes, boxes, transitions });
    }
    let mut props: Vec<String> = Vec::new();
    for r in &raws {
        for (_, _, _, ls) in &r.nodes {
            for l in ls {
                if !props.contains(l) {
                    props.push(l.clone());
                }
            }
        }
    }
    // One copy per (component, entry).
    let entries = |r: &RawComp| -> Vec<String> { r.nodes.iter().filter(|n| n.1).map(|n| n.0.clone()).collect() };
    let mut copies: Vec<(usize, String, String)> = Vec::new(); // (raw index, entry, copy name)
    for (i, r) in raws.iter().enumerate() {
        let es = entries(r);
        if es.is_empty() {
            return Err(format!("component {} has no entry", r.name));
        }
        for e in &es {
            let name = if es.len() == 1 { r.name.clone() } else { format!("{}@{e}", r.name) };
            copies.push((i, e.clone(), name));
        }
    }
    let copy_of = |comp: &str, entry: &str| -> Result<usize, String> {
        copies.iter().position(|(i, e, _)| raws[*i].name == comp && e == entry).ok_or_else(|| format!("{entry} is not an entry of component {comp}"))
    };
    let mut comps = Vec::new();
    let mut virtual_locations = 0;
    for (ri, entry, name) in &copies {
        let r = &raws[*ri];
        let mut order: Vec<usize> = (0..r.nodes.len()).collect();
        order.sort_by_key(|&i| r.nodes[i].0 != *entry);
        let mut nodes: Vec<Node> = order
            .iter()
            .map(|&i| {
                let mut ls: Vec<usize> = r.nodes[i].3.iter().map(|l| props.iter().position(|p| p == l).unwrap_or(0)).collect();
                ls.sort();
                Node { name: r.nodes[i].0.clone(), kind: Kind::Loc(ls) }
            })
            .collect();
        let exits: Vec<usize> = (0..nodes.len()).filter(|&i| r.nodes[order[i]].2).collect();
        let index = |nodes: &[Node], n: &str| -> Result<usize, String> {
            nodes.iter().position(|x| x.name == n).ok_or_else(|| format!("{}: unknown node {n}", r.name))
        };
        let callee = |b: &str| -> Result<&RawComp, String> {
            let (_, c) = r.boxes.iter().find(|(bn, _)| bn == b).ok_or_else(|| format!("{}: unknown box {b}", r.name))?;
            raws.iter().find(|x| x.name == *c).ok_or_else(|| format!("unknown component {c}"))
        };
        // Call nodes `b@en`, created on first use.
        let call_node = |nodes: &mut Vec<Node>, b: &str, en: &str| -> Result<usize, String> {
            let n = format!("{b}@{en}");
            if let Ok(i) = index(nodes, &n) {
                return Ok(i);
            }
            let target = copy_of(&callee(b)?.name, en)?;
            nodes.push(Node { name: n, kind: Kind::Call(target) });
            Ok(nodes.len() - 1)
        };
        let mut edges = Vec::new();
        let mut returns = Vec::new();
        let mut pending_returns: Vec<(String, String, usize)> = Vec::new(); // (box, exit node, location)
        for (src, targets) in &r.transitions {
            for t in targets {
                match (src, t) {
                    (End::Node(a), End::Node(b)) => edges.push((index(&nodes, a)?, index(&nodes, b)?)),
                    (End::Node(a), End::Box(b, en)) => {
                        let c = call_node(&mut nodes, b, en)?;
                        edges.push((index(&nodes, a)?, c));
                    }
                    (End::Box(b, ex), End::Node(m)) => pending_returns.push((b.clone(), ex.clone(), index(&nodes, m)?)),
                    (End::Box(b, ex), End::Box(b2, en2)) => {
                        let c = call_node(&mut nodes, b2, en2)?;
                        let callee2 = callee(b2)?;
                        let labels = &callee2.nodes.iter().find(|n| n.0 == *en2).ok_or("unknown entry")?.3;
                        let mut ls: Vec<usize> = labels.iter().map(|l| props.iter().position(|p| p == l).unwrap_or(0)).collect();
                        ls.sort();
                        nodes.push(Node { name: format!("{b}.{ex}>{b2}.{en2}"), kind: Kind::Loc(ls) });
                        let v = nodes.len() - 1;
                        edges.push((v, c));
                        pending_returns.push((b.clone(), ex.clone(), v));
                        virtual_locations += 1;
                    }
                }
            }
        }
        for (b, ex, loc) in pending_returns {
            let k = callee(&b)?.nodes.iter().filter(|n| n.2).position(|n| n.0 == ex).ok_or_else(|| format!("{ex} is not an exit"))?;
            for (i, n) in nodes.iter().enumerate() {
                if n.name.starts_with(&format!("{b}@")) && matches!(n.kind, Kind::Call(_)) {
                    returns.push((i, k, loc));
                }
            }
        }
        comps.push(Comp { name: name.clone(), nodes, exits, edges, returns });
    }
    let model = Model { props, termination: TerminationRule::Loop, comps };
    model.well_formed()?;
    let initial = copy_of(&string(&root, "initial_component")?, &string(&root, "initial_node")?)?;
    Ok(Rsm { model, initial, virtual_locations })
}
