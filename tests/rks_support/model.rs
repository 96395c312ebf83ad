//! A test-only, editable description of a recursive Kripke structure (`Model`), with a terse
//! text format (parse and print, so shrunk reproducers can be pasted into tests), a
//! well-formedness check, and `build()` into the engines' `RecursiveKripkeStructure`.
//!
//! Independent of the engines' own builder on purpose: the trust layer shares no code with them.
//!
//! Text format (one item per line, `#` starts a comment):
//! ```text
//! termination trap            # or loop
//! props p q
//! component A exits a3 a4     # exits by node name, exit k = k-th name; may be empty
//!   loc a1 p q                # a location with its labels; the first node declared is the entry
//!   call a2 B                 # a call node of component B
//!   loc a3
//!   edge a1 a2 a3             # a1 -> a2, a1 -> a3
//!   ret a2 0 a3               # when B returns through its exit 0, a2 continues at a3
//! ```
//! `edge c l` from a call `c` is shorthand for `ret c 0 l` when the callee has exactly one exit.

use fixedbitset::FixedBitSet;
use xmv_rs::explicit::csr::Csr;
use xmv_rs::explicit::rks::{Component, ComponentId, NO_CALL, NodeId, RecursiveKripkeStructure};
use xmv_rs::ir::PropId;
use xmv_rs::syntax::ast::TerminationRule;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A location with its labels (prop indices, sorted).
    Loc(Vec<usize>),
    /// A call of the component with this index.
    Call(usize),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub name: String,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comp {
    pub name: String,
    /// Node 0 is the entry.
    pub nodes: Vec<Node>,
    /// Exit `k` is node `exits[k]`.
    pub exits: Vec<usize>,
    /// Intra-component edges from locations.
    pub edges: Vec<(usize, usize)>,
    /// `(call, exit k of the callee, successor location)`.
    pub returns: Vec<(usize, usize, usize)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    pub props: Vec<String>,
    pub termination: TerminationRule,
    pub comps: Vec<Comp>,
}

impl Comp {
    pub fn is_call(&self, n: usize) -> bool {
        matches!(self.nodes[n].kind, Kind::Call(_))
    }
    fn node_index(&self, name: &str) -> usize {
        self.nodes.iter().position(|n| n.name == name).unwrap_or_else(|| panic!("component {}: no node named {name}", self.name))
    }
}

impl Model {
    pub fn comp_index(&self, name: &str) -> usize {
        self.comps.iter().position(|c| c.name == name).unwrap_or_else(|| panic!("no component named {name}"))
    }

    /// Parses the text format above. Panics with a message on malformed text (test input only).
    pub fn parse(text: &str) -> Model {
        let mut model = Model { props: Vec::new(), termination: TerminationRule::Trap, comps: Vec::new() };
        // Calls, edges and returns refer to names that may be declared later: resolve at the end.
        let mut calls: Vec<(usize, usize, String)> = Vec::new();
        let mut exits: Vec<Vec<String>> = Vec::new();
        let mut edges: Vec<(usize, String, Vec<String>)> = Vec::new();
        let mut rets: Vec<(usize, String, usize, Vec<String>)> = Vec::new();
        for raw in text.lines() {
            let line = raw.split('#').next().unwrap_or("");
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some((&head, rest)) = words.split_first() else { continue };
            let cur = model.comps.len().wrapping_sub(1);
            match head {
                "termination" => {
                    model.termination = match rest {
                        ["trap"] => TerminationRule::Trap,
                        ["loop"] => TerminationRule::Loop,
                        _ => panic!("bad line: {raw}"),
                    }
                }
                "props" => model.props = rest.iter().map(|s| s.to_string()).collect(),
                "component" => {
                    let (name, ex) = match rest {
                        [name] => (name, &[][..]),
                        [name, "exits", ex @ ..] => (name, ex),
                        _ => panic!("bad line: {raw}"),
                    };
                    model.comps.push(Comp { name: name.to_string(), nodes: Vec::new(), exits: Vec::new(), edges: Vec::new(), returns: Vec::new() });
                    exits.push(ex.iter().map(|s| s.to_string()).collect());
                }
                "loc" => {
                    let (name, labels) = rest.split_first().expect("loc needs a name");
                    let mut labels: Vec<usize> =
                        labels.iter().map(|l| model.props.iter().position(|p| p == l).unwrap_or_else(|| panic!("unknown prop {l}"))).collect();
                    labels.sort();
                    labels.dedup();
                    model.comps[cur].nodes.push(Node { name: name.to_string(), kind: Kind::Loc(labels) });
                }
                "call" => {
                    let [name, target] = rest else { panic!("bad line: {raw}") };
                    let n = model.comps[cur].nodes.len();
                    model.comps[cur].nodes.push(Node { name: name.to_string(), kind: Kind::Call(usize::MAX) });
                    calls.push((cur, n, target.to_string()));
                }
                "edge" => {
                    let (from, to) = rest.split_first().expect("edge needs a source");
                    edges.push((cur, from.to_string(), to.iter().map(|s| s.to_string()).collect()));
                }
                "ret" => {
                    let [call, k, to @ ..] = rest else { panic!("bad line: {raw}") };
                    let k: usize = k.parse().unwrap_or_else(|_| panic!("bad exit index in: {raw}"));
                    rets.push((cur, call.to_string(), k, to.iter().map(|s| s.to_string()).collect()));
                }
                _ => panic!("bad line: {raw}"),
            }
        }
        for (c, n, target) in calls {
            let t = model.comp_index(&target);
            model.comps[c].nodes[n].kind = Kind::Call(t);
        }
        for (c, ex) in exits.into_iter().enumerate() {
            let ex: Vec<usize> = ex.iter().map(|e| model.comps[c].node_index(e)).collect();
            model.comps[c].exits = ex;
        }
        for (c, from, to) in edges {
            let f = model.comps[c].node_index(&from);
            for t in to {
                let t = model.comps[c].node_index(&t);
                if let Kind::Call(callee) = model.comps[c].nodes[f].kind {
                    assert_eq!(model.comps[callee].exits.len(), 1, "edge from call {from}: callee needs exactly one exit; use ret");
                    model.comps[c].returns.push((f, 0, t));
                } else {
                    model.comps[c].edges.push((f, t));
                }
            }
        }
        for (c, call, k, to) in rets {
            let f = model.comps[c].node_index(&call);
            for t in to {
                let t = model.comps[c].node_index(&t);
                model.comps[c].returns.push((f, k, t));
            }
        }
        model
    }

    /// Prints the text format; `Model::parse(&m.to_text()) == m` up to edge order.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let rule = match self.termination {
            TerminationRule::Trap => "trap",
            TerminationRule::Loop => "loop",
        };
        s += &format!("termination {rule}\nprops {}\n", self.props.join(" "));
        for c in &self.comps {
            s += &format!("component {}", c.name);
            if !c.exits.is_empty() {
                s += " exits";
                for &e in &c.exits {
                    s += &format!(" {}", c.nodes[e].name);
                }
            }
            s += "\n";
            for n in &c.nodes {
                match &n.kind {
                    Kind::Loc(labels) => {
                        s += &format!("  loc {}", n.name);
                        for &l in labels {
                            s += &format!(" {}", self.props[l]);
                        }
                        s += "\n";
                    }
                    Kind::Call(t) => s += &format!("  call {} {}\n", n.name, self.comps[*t].name),
                }
            }
            for (f, t) in &c.edges {
                s += &format!("  edge {} {}\n", c.nodes[*f].name, c.nodes[*t].name);
            }
            for (call, k, t) in &c.returns {
                s += &format!("  ret {} {} {}\n", c.nodes[*call].name, k, c.nodes[*t].name);
            }
        }
        s
    }

    /// Prints the model in the text format of `xmv_rs::explicit::rks_builder::parse_rks` (the
    /// engines' builder), so reproducers can be pasted into engine tests. A single exit is named
    /// `EXIT`; several exits are named after their locations.
    pub fn to_builder_text(&self) -> String {
        let mut s = String::new();
        if self.termination == TerminationRule::Loop {
            s += "termination loop\n";
        }
        for c in &self.comps {
            let exit_name = |k: usize| if c.exits.len() == 1 { "EXIT".to_string() } else { c.nodes[c.exits[k]].name.clone() };
            s += &format!("sub {} in {}", c.name, c.nodes[0].name);
            if !c.exits.is_empty() {
                s += " out";
                for (k, &e) in c.exits.iter().enumerate() {
                    s += &format!(" {}:{}", exit_name(k), c.nodes[e].name);
                }
            }
            s += "\n  loc";
            for n in &c.nodes {
                if let Kind::Loc(labels) = &n.kind {
                    let ls: Vec<&str> = labels.iter().map(|&l| self.props[l].as_str()).collect();
                    s += &format!(" {}{{{}}}", n.name, ls.join(","));
                }
            }
            s += "\n";
            let calls: Vec<String> = c
                .nodes
                .iter()
                .filter_map(|n| match n.kind {
                    Kind::Call(t) => Some(format!(" {}->{}", n.name, self.comps[t].name)),
                    Kind::Loc(_) => None,
                })
                .collect();
            if !calls.is_empty() {
                s += &format!("  call{}\n", calls.concat());
            }
            if !c.edges.is_empty() {
                s += "  edge";
                for (f, t) in &c.edges {
                    s += &format!(" {}->{}", c.nodes[*f].name, c.nodes[*t].name);
                }
                s += "\n";
            }
            if !c.returns.is_empty() {
                s += "  ret";
                for &(cl, k, t) in &c.returns {
                    let Kind::Call(callee) = c.nodes[cl].kind else { continue };
                    let callee = &self.comps[callee];
                    let name = if callee.exits.len() == 1 { "EXIT".to_string() } else { callee.nodes[callee.exits[k]].name.clone() };
                    s += &format!(" {}.{}->{}", c.nodes[cl].name, name, c.nodes[t].name);
                }
                s += "\n";
            }
        }
        s
    }

    /// The well-formedness rules of an RKS (see `src/explicit/rks.rs` and the README): the entry
    /// is a location; exits are distinct locations without successors; calls have no intra edges
    /// (their continuations are `returns`, which lead to locations); every non-exit location has a
    /// successor; every call has at least one continuation per exit of its callee.
    pub fn well_formed(&self) -> Result<(), String> {
        if self.comps.is_empty() {
            return Err("no components".into());
        }
        for c in &self.comps {
            let err = |m: String| Err(format!("component {}: {m}", c.name));
            if c.nodes.is_empty() || c.is_call(0) {
                return err("the entry must be a location".into());
            }
            let mut is_exit = vec![false; c.nodes.len()];
            for &e in &c.exits {
                if e >= c.nodes.len() || c.is_call(e) || is_exit[e] {
                    return err(format!("bad exit {e}"));
                }
                is_exit[e] = true;
            }
            let mut has_succ = vec![false; c.nodes.len()];
            for &(f, t) in &c.edges {
                if f >= c.nodes.len() || t >= c.nodes.len() || c.is_call(f) || is_exit[f] {
                    return err(format!("bad edge {f}->{t}"));
                }
                has_succ[f] = true;
            }
            for (n, node) in c.nodes.iter().enumerate() {
                match node.kind {
                    Kind::Loc(ref labels) => {
                        if labels.iter().any(|&l| l >= self.props.len()) {
                            return err(format!("bad label at {}", node.name));
                        }
                        if !is_exit[n] && !has_succ[n] {
                            return err(format!("location {} has no successor", node.name));
                        }
                    }
                    Kind::Call(t) => {
                        if t >= self.comps.len() {
                            return err(format!("bad call target at {}", node.name));
                        }
                        for k in 0..self.comps[t].exits.len() {
                            if !c.returns.iter().any(|&(cl, kk, _)| cl == n && kk == k) {
                                return err(format!("call {} has no continuation for exit {k}", node.name));
                            }
                        }
                    }
                }
            }
            for &(cl, k, t) in &c.returns {
                if cl >= c.nodes.len() || t >= c.nodes.len() || c.is_call(t) {
                    return err(format!("bad return {cl}.{k}->{t}"));
                }
                match c.nodes[cl].kind {
                    Kind::Call(callee) if k < self.comps[callee].exits.len() => {}
                    _ => return err(format!("bad return {cl}.{k}->{t}")),
                }
            }
        }
        Ok(())
    }

    /// True if some component can (syntactically) reach itself through calls from `initial`.
    pub fn call_graph_cyclic(&self, initial: usize) -> bool {
        // Depth-first search with colours over the call graph restricted to reachable components.
        fn visit(m: &Model, c: usize, colour: &mut [u8]) -> bool {
            colour[c] = 1;
            for n in &m.comps[c].nodes {
                if let Kind::Call(t) = n.kind
                    && (colour[t] == 1 || (colour[t] == 0 && visit(m, t, colour)))
                {
                    return true;
                }
            }
            colour[c] = 2;
            false
        }
        visit(self, initial, &mut vec![0; self.comps.len()])
    }

    /// Builds the engines' input type. Panics if the model is not well-formed.
    pub fn build(&self) -> RecursiveKripkeStructure {
        if let Err(e) = self.well_formed() {
            panic!("model is not well-formed: {e}\n{}", self.to_text());
        }
        let components = self
            .comps
            .iter()
            .map(|c| {
                let n = c.nodes.len();
                let mut edges: Vec<(NodeId, NodeId)> = c.edges.iter().map(|&(f, t)| (NodeId::new(f), NodeId::new(t))).collect();
                edges.sort();
                edges.dedup();
                let succ = Csr::from_edges(n, &edges);
                let pred = succ.transpose();
                let call_target: Vec<ComponentId> = c
                    .nodes
                    .iter()
                    .map(|nd| match nd.kind {
                        Kind::Call(t) => ComponentId::new(t),
                        Kind::Loc(_) => NO_CALL,
                    })
                    .collect();
                let calls: Vec<NodeId> = (0..n).filter(|&i| call_target[i] != NO_CALL).map(NodeId::new).collect();
                let mut call_index = vec![u32::MAX; n];
                let mut return_offsets = Vec::with_capacity(calls.len());
                let mut rows = 0u32;
                for (i, &cl) in calls.iter().enumerate() {
                    call_index[cl.index()] = i as u32;
                    return_offsets.push(rows);
                    rows += self.comps[call_target[cl.index()].index()].exits.len() as u32;
                }
                let mut ret_edges: Vec<(u32, NodeId)> =
                    c.returns.iter().map(|&(cl, k, t)| (return_offsets[call_index[cl] as usize] + k as u32, NodeId::new(t))).collect();
                ret_edges.sort();
                ret_edges.dedup();
                let returns = Csr::from_edges(rows as usize, &ret_edges);
                let mut props = vec![FixedBitSet::with_capacity(n); self.props.len()];
                for (i, nd) in c.nodes.iter().enumerate() {
                    if let Kind::Loc(labels) = &nd.kind {
                        for &l in labels {
                            props[l].insert(i);
                        }
                    }
                }
                Component {
                    name: c.name.clone(),
                    num_nodes: n as u32,
                    succ,
                    pred,
                    call_target,
                    calls,
                    call_index,
                    exits: c.exits.iter().map(|&e| NodeId::new(e)).collect(),
                    exit_names: c.exits.iter().map(|&e| c.nodes[e].name.clone()).collect(),
                    returns,
                    return_offsets,
                    props: xmv_rs::explicit::rks::Labels::from_sets(props.into_iter().enumerate().map(|(p, set)| (PropId::new(p), set)).collect()),
                    node_names: c.nodes.iter().map(|nd| nd.name.clone()).collect(),
                }
            })
            .collect();
        RecursiveKripkeStructure { components, prop_names: self.props.clone(), termination: self.termination }
    }
}
