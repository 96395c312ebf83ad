//! Reader for RSMCheck's JSON recursive state machines (`.rsm`, Dubslaff et al. 2024).
//!
//! Format: `{"initial_component", "initial_node", "components": [{"name", "nodes": [{"name",
//! "is_entry", "is_exit", "labels"}], "boxes": [{"name", "component", "call_nodes",
//! "return_nodes"}], "transitions": [{"source", "targets"}]}]}` where a source or target is
//! `{"type": "node", "name"}` or `{"type": "box_node", "box_name", "node_name"}` (a call node as a
//! target, a return node as a source). Unknown members (`formulas`, a node's `type`) are ignored,
//! as RSMCheck does. Every structural problem is an error with the span of the offending JSON
//! value; reading continues so that one run reports all of them.

use super::json::{self, JKind, JVal};
use super::rsm::{Component, Node, Returns, Rsm, RsmBox, Target};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::source::{SourceFile, Span};
use rustc_hash::FxHashMap;

pub(crate) fn read(file: &SourceFile) -> Result<Rsm, Diagnostics> {
    let mut diags = Diagnostics::new();
    let root = match json::parse(file) {
        Ok(v) => v,
        Err(d) => {
            diags.push(d);
            return Err(diags);
        }
    };
    let rsm = Reader { diags: &mut diags }.rsm(&root);
    match rsm {
        Some(rsm) if !diags.has_errors() => Ok(rsm),
        _ => Err(diags),
    }
}

struct Reader<'d> {
    diags: &'d mut Diagnostics,
}

/// Name → index, per component.
type NameMap = FxHashMap<String, usize>;

impl Reader<'_> {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::error("E0802", message, span));
    }

    fn field<'v>(&mut self, obj: &'v JVal, key: &str, what: &str) -> Option<&'v JVal> {
        if !matches!(obj.kind, JKind::Obj(_)) {
            self.error(obj.span, format!("expected {what} (a JSON object), found {}", obj.kind_name()));
            return None;
        }
        let v = obj.get(key);
        if v.is_none() {
            self.diags.push(
                Diagnostic::error("E0802", format!("{what} has no `{key}` member"), Span::new(obj.span.start as usize, obj.span.start as usize + 1))
                    .with_help(format!("add `\"{key}\": …` to this object")),
            );
        }
        v
    }
    fn string<'v>(&mut self, obj: &'v JVal, key: &str, what: &str) -> Option<(&'v str, Span)> {
        let v = self.field(obj, key, what)?;
        match v.as_str() {
            Some(s) => Some((s, v.span)),
            None => {
                self.error(v.span, format!("`{key}` of {what} must be a string, found {}", v.kind_name()));
                None
            }
        }
    }
    /// An optional array member (missing = empty).
    fn array<'v>(&mut self, obj: &'v JVal, key: &str, what: &str) -> &'v [JVal] {
        match obj.get(key) {
            None => &[],
            Some(v) => match v.as_array() {
                Some(items) => items,
                None => {
                    self.error(v.span, format!("`{key}` of {what} must be an array, found {}", v.kind_name()));
                    &[]
                }
            },
        }
    }
    fn flag(&mut self, obj: &JVal, key: &str, what: &str) -> bool {
        match obj.get(key) {
            None => false,
            Some(v) => v.as_bool().unwrap_or_else(|| {
                self.error(v.span, format!("`{key}` of {what} must be true or false, found {}", v.kind_name()));
                false
            }),
        }
    }
    fn strings(&mut self, obj: &JVal, key: &str, what: &str) -> Vec<(String, Span)> {
        let mut out = Vec::new();
        for v in self.array(obj, key, what) {
            match v.as_str() {
                Some(s) => out.push((s.to_string(), v.span)),
                None => self.error(v.span, format!("entries of `{key}` of {what} must be strings, found {}", v.kind_name())),
            }
        }
        out
    }

    fn rsm(&mut self, root: &JVal) -> Option<Rsm> {
        let init_comp = self.string(root, "initial_component", "the RSM");
        let init_node = self.string(root, "initial_node", "the RSM");
        let comps_json: Vec<&JVal> = match self.field(root, "components", "the RSM") {
            Some(v) => match v.as_array() {
                Some(items) => items.iter().collect(),
                None => {
                    self.error(v.span, format!("`components` must be an array, found {}", v.kind_name()));
                    Vec::new()
                }
            },
            None => Vec::new(),
        };
        // Pass 1: components and their nodes.
        let mut comps: Vec<Component> = Vec::new();
        let mut comp_index: NameMap = FxHashMap::default();
        let mut node_index: Vec<NameMap> = Vec::new();
        let mut comp_json: Vec<&JVal> = Vec::new();
        for cj in comps_json {
            let Some((name, name_span)) = self.string(cj, "name", "a component") else { continue };
            if comp_index.contains_key(name) {
                self.diags.push(Diagnostic::error("E0804", format!("component `{name}` is declared twice"), name_span));
                continue;
            }
            let mut comp = Component { name: name.to_string(), ..Component::default() };
            let mut nodes: NameMap = FxHashMap::default();
            for nj in self.array(cj, "nodes", "a component") {
                let Some((nname, nspan)) = self.string(nj, "name", "a node") else { continue };
                if nodes.contains_key(nname) {
                    self.diags.push(Diagnostic::error("E0804", format!("node `{nname}` is declared twice in component `{name}`"), nspan));
                    continue;
                }
                let labels = self.strings(nj, "labels", "a node").into_iter().map(|(l, _)| l).collect();
                let node = Node {
                    name: nname.to_string(),
                    labels,
                    is_entry: self.flag(nj, "is_entry", "a node"),
                    is_exit: self.flag(nj, "is_exit", "a node"),
                    ..Node::default()
                };
                nodes.insert(nname.to_string(), comp.nodes.len());
                comp.nodes.push(node);
            }
            comp_index.insert(name.to_string(), comps.len());
            comps.push(comp);
            node_index.push(nodes);
            comp_json.push(cj);
        }
        // Pass 2: boxes (they refer to other components' nodes).
        let mut box_index: Vec<NameMap> = vec![FxHashMap::default(); comps.len()];
        for (ci, cj) in comp_json.iter().enumerate() {
            for bj in self.array(cj, "boxes", "a component") {
                let Some((bname, bspan)) = self.string(bj, "name", "a box") else { continue };
                let Some((callee, callee_span)) = self.string(bj, "component", "a box") else { continue };
                let Some(&callee_idx) = comp_index.get(callee) else {
                    self.diags.push(
                        Diagnostic::error("E0803", format!("box `{bname}` calls unknown component `{callee}`"), callee_span)
                            .with_help(format!("declare a component named `{callee}` or fix the name")),
                    );
                    continue;
                };
                if box_index[ci].contains_key(bname) {
                    self.diags.push(Diagnostic::error("E0804", format!("box `{bname}` is declared twice in component `{}`", comps[ci].name), bspan));
                    continue;
                }
                let mut calls = Vec::new();
                for (entry, span) in self.strings(bj, "call_nodes", "a box") {
                    if let Some(n) = self.callee_node(&comps[callee_idx], &node_index[callee_idx], &entry, span, "call") {
                        calls.push(n);
                    }
                }
                let mut returns = Vec::new();
                for (exit, span) in self.strings(bj, "return_nodes", "a box") {
                    if let Some(n) = self.callee_node(&comps[callee_idx], &node_index[callee_idx], &exit, span, "return") {
                        returns.push((n, Vec::new()));
                    }
                }
                box_index[ci].insert(bname.to_string(), comps[ci].boxes.len());
                comps[ci].boxes.push(RsmBox { name: bname.to_string(), callee: callee_idx, call_nodes: calls, returns: Returns::Explicit(returns) });
            }
        }
        // Pass 3: transitions.
        for (ci, cj) in comp_json.iter().enumerate() {
            for tj in self.array(cj, "transitions", "a component") {
                let Some(source) = self.field(tj, "source", "a transition") else { continue };
                // RSMCheck's own writer emits call nodes as sources with no targets: skip those.
                if self.array(tj, "targets", "a transition").is_empty() && source.get("type").and_then(JVal::as_str) == Some("box_node") {
                    continue;
                }
                let source = self.endpoint(&comps, ci, &node_index, &box_index[ci], source, true);
                let targets: Vec<Target> =
                    self.array(tj, "targets", "a transition").iter().filter_map(|t| self.endpoint(&comps, ci, &node_index, &box_index[ci], t, false)).collect();
                match source {
                    Some(Target::Node(n)) => comps[ci].nodes[n].succ.extend(targets),
                    Some(Target::Call { rbox, entry: exit }) => {
                        if let Returns::Explicit(rs) = &mut comps[ci].boxes[rbox].returns
                            && let Some(r) = rs.iter_mut().find(|(x, _)| *x == exit)
                        {
                            r.1.extend(targets);
                        }
                    }
                    None => {}
                }
            }
        }
        let (init_comp, init_comp_span) = init_comp?;
        let (init_node, init_node_span) = init_node?;
        let Some(&ic) = comp_index.get(init_comp) else {
            self.diags.push(Diagnostic::error("E0803", format!("initial component `{init_comp}` is not declared"), init_comp_span));
            return None;
        };
        let Some(&inode) = node_index[ic].get(init_node) else {
            self.diags.push(Diagnostic::error("E0803", format!("initial node `{init_node}` is not a node of component `{init_comp}`"), init_node_span));
            return None;
        };
        Some(Rsm { components: comps, initial_component: ic, initial_node: inode, format_name: "RSMCheck JSON".into(), notes: Vec::new() })
    }

    /// A node of the callee named in a box's `call_nodes` / `return_nodes`.
    fn callee_node(&mut self, callee: &Component, nodes: &NameMap, name: &str, span: Span, role: &str) -> Option<usize> {
        let Some(&n) = nodes.get(name) else {
            self.diags.push(Diagnostic::error("E0803", format!("{role} node `{name}` is not a node of component `{}`", callee.name), span));
            return None;
        };
        let node = &callee.nodes[n];
        let (ok, kind) = if role == "call" { (node.is_entry, "an entry") } else { (node.is_exit, "an exit") };
        if !ok {
            self.diags.push(
                Diagnostic::warning("W0801", format!("{role} node `{name}` is not {kind} of component `{}`", callee.name), span)
                    .with_note("it is used as one anyway"),
            );
        }
        Some(n)
    }

    /// Resolves a transition source or target. A `box_node` is a return node as a source and a
    /// call node as a target; both come back as `Target::Call { rbox, entry: callee node }`.
    fn endpoint(&mut self, comps: &[Component], ci: usize, node_index: &[NameMap], boxes: &NameMap, v: &JVal, is_source: bool) -> Option<Target> {
        let (ty, ty_span) = self.string(v, "type", "a transition endpoint")?;
        match ty {
            "node" => {
                let (name, span) = self.string(v, "name", "a node endpoint")?;
                match node_index[ci].get(name) {
                    Some(&n) => Some(Target::Node(n)),
                    None => {
                        self.diags.push(Diagnostic::error("E0803", format!("`{name}` is not a node of component `{}`", comps[ci].name), span));
                        None
                    }
                }
            }
            "box_node" => {
                let (bname, bspan) = self.string(v, "box_name", "a box endpoint")?;
                let (nname, nspan) = self.string(v, "node_name", "a box endpoint")?;
                let Some(&b) = boxes.get(bname) else {
                    self.diags.push(Diagnostic::error("E0803", format!("`{bname}` is not a box of component `{}`", comps[ci].name), bspan));
                    return None;
                };
                let rbox = &comps[ci].boxes[b];
                let callee = rbox.callee;
                let Some(&n) = node_index[callee].get(nname) else {
                    self.diags.push(Diagnostic::error(
                        "E0803",
                        format!("`{nname}` is not a node of component `{}` (called by box `{bname}`)", comps[callee].name),
                        nspan,
                    ));
                    return None;
                };
                if !is_source && !rbox.call_nodes.contains(&n) {
                    self.diags.push(
                        Diagnostic::error(
                            "E0803",
                            format!("`({bname}, {nname})` is not a call node: `{nname}` is not in the `call_nodes` of box `{bname}`"),
                            nspan,
                        )
                        .with_help(format!("add \"{nname}\" to the box's `call_nodes`")),
                    );
                    return None;
                }
                if is_source {
                    let listed = matches!(&rbox.returns, Returns::Explicit(rs) if rs.iter().any(|(x, _)| *x == n));
                    if !listed {
                        self.diags.push(
                            Diagnostic::error(
                                "E0803",
                                format!("`({bname}, {nname})` is not a return node: `{nname}` is not in the `return_nodes` of box `{bname}`"),
                                nspan,
                            )
                            .with_help(format!("add \"{nname}\" to the box's `return_nodes`")),
                        );
                        return None;
                    }
                }
                Some(Target::Call { rbox: b, entry: n })
            }
            other => {
                self.diags.push(Diagnostic::error("E0802", format!("unknown endpoint type `{other}`"), ty_span).with_help("use \"node\" or \"box_node\""));
                None
            }
        }
    }
}
