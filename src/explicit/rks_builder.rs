//! Terse construction of [`RecursiveKripkeStructure`] values for tests and examples.
//!
//! Two ways in:
//!
//! * [`RksBuilder`]: add components, locations, calls, exits and edges by name; `build()`
//!   numbers the nodes densely (entry location = node 0, then declaration order), resolves call
//!   targets and fills the CSR arrays, the return rows and the proposition bitsets.
//! * [`parse_rks`]: the same from a small line-based text, close to the notation of the
//!   Finis digest (§7):
//!
//! ```text
//! termination loop                 # optional: trap (default) or loop
//! props p q r                      # optional: declare propositions (fixes their numbering)
//! sub A in a1 out a8               # component A; entry a1 (default: first loc); exit a8 named EXIT
//! loc a1 a5{p} a6{p} a7{p,q} a8    # locations with their labels
//! call a2->B a3->B                 # call nodes and their targets
//! edge a1->a2->a5 a1->a3 a3->a6    # edges; chains allowed; an edge from a call is a return
//! sub P in s out ok:x err:y        # several named exits (`name:location`)
//! ret c.ok->l c.err->h             # return continuation of call c for one exit of its callee
//! ```
//!
//! An edge `c->l` from a call `c` adds `l` as continuation for *every* exit of `c`'s target;
//! `ret c.NAME->l` adds it for exit `NAME` only. Tokens are separated by spaces (a trailing comma
//! is ignored); `#` starts a comment. Propositions are global (same name in two components =
//! same proposition), numbered in order of first appearance.

use super::csr::Csr;
use super::rks::{Component, ComponentId, Labels, NO_CALL, NodeId, RecursiveKripkeStructure};
use crate::ctl::Ctl;
use crate::ir::PropId;
use crate::ir::TerminationRule;
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

/// Builds a [`RecursiveKripkeStructure`] by names. Errors are reported by [`RksBuilder::build`].
#[derive(Clone, Debug)]
pub struct RksBuilder {
    comps: Vec<CompDraft>,
    props: Vec<String>,
    termination: TerminationRule,
}

#[derive(Clone, Debug, Default)]
struct CompDraft {
    name: String,
    entry: Option<String>,
    /// (node name, labels) for locations, in declaration order.
    locs: Vec<(String, Vec<String>)>,
    /// (call name, target component name).
    calls: Vec<(String, String)>,
    /// (exit name, location name).
    exits: Vec<(String, String)>,
    edges: Vec<(String, String)>,
    /// (call, exit name, location).
    rets: Vec<(String, String, String)>,
}

impl Default for RksBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl RksBuilder {
    pub fn new() -> Self {
        RksBuilder { comps: Vec::new(), props: Vec::new(), termination: TerminationRule::Trap }
    }

    pub fn termination(&mut self, rule: TerminationRule) -> &mut Self {
        self.termination = rule;
        self
    }

    /// Starts (or reopens) component `name` and returns its id.
    pub fn component(&mut self, name: &str) -> ComponentId {
        if let Some(i) = self.comps.iter().position(|c| c.name == name) {
            return ComponentId::new(i);
        }
        self.comps.push(CompDraft { name: name.to_string(), ..Default::default() });
        ComponentId::new(self.comps.len() - 1)
    }

    /// Sets the entry location of `comp` (default: its first location).
    pub fn entry(&mut self, comp: ComponentId, loc: &str) -> &mut Self {
        self.comps[comp.index()].entry = Some(loc.to_string());
        self
    }

    /// Adds location `name` with the given labels (a location may be added once).
    pub fn loc(&mut self, comp: ComponentId, name: &str, labels: &[&str]) -> &mut Self {
        for l in labels {
            if !self.props.iter().any(|p| p == l) {
                self.props.push(l.to_string());
            }
        }
        let labels = labels.iter().map(|s| s.to_string()).collect();
        self.comps[comp.index()].locs.push((name.to_string(), labels));
        self
    }

    /// Adds call node `name` calling component `target` (by name; may be declared later).
    pub fn call(&mut self, comp: ComponentId, name: &str, target: &str) -> &mut Self {
        self.comps[comp.index()].calls.push((name.to_string(), target.to_string()));
        self
    }

    /// Declares location `loc` as exit `exit_name` (use `"EXIT"` for the single-exit case).
    pub fn exit(&mut self, comp: ComponentId, exit_name: &str, loc: &str) -> &mut Self {
        self.comps[comp.index()].exits.push((exit_name.to_string(), loc.to_string()));
        self
    }

    /// Adds an edge; from a call it is a return continuation for every exit of the callee.
    pub fn edge(&mut self, comp: ComponentId, from: &str, to: &str) -> &mut Self {
        self.comps[comp.index()].edges.push((from.to_string(), to.to_string()));
        self
    }

    /// Adds `loc` as continuation of `call` when the callee returns through exit `exit_name`.
    pub fn ret(&mut self, comp: ComponentId, call: &str, exit_name: &str, loc: &str) -> &mut Self {
        let c = &mut self.comps[comp.index()];
        c.rets.push((call.to_string(), exit_name.to_string(), loc.to_string()));
        self
    }

    /// Numbers nodes, resolves names and builds the structure.
    pub fn build(&self) -> Result<RecursiveKripkeStructure, String> {
        let comp_index: FxHashMap<&str, ComponentId> = self.comps.iter().enumerate().map(|(i, c)| (c.name.as_str(), ComponentId::new(i))).collect();
        let mut components = Vec::with_capacity(self.comps.len());
        for d in &self.comps {
            components.push(self.build_component(d, &comp_index)?);
        }
        // Return rows need the callees' exit counts: fill them in a second pass.
        for (ci, d) in self.comps.iter().enumerate() {
            let exit_counts: Vec<usize> = components.iter().map(|c| c.exits.len()).collect();
            let exit_names: Vec<Vec<String>> = components.iter().map(|c| c.exit_names.clone()).collect();
            fill_returns(&mut components[ci], d, &exit_counts, &exit_names)?;
        }
        Ok(RecursiveKripkeStructure { components, prop_names: self.props.clone(), termination: self.termination })
    }

    fn build_component(&self, d: &CompDraft, comp_index: &FxHashMap<&str, ComponentId>) -> Result<Component, String> {
        let entry = match &d.entry {
            Some(e) => e.clone(),
            None => d.locs.first().map(|l| l.0.clone()).ok_or(format!("component {} has no location", d.name))?,
        };
        let mut names: Vec<String> = vec![entry.clone()];
        let mut labels: Vec<Vec<String>> = vec![Vec::new()];
        let mut found_entry = false;
        for (n, ls) in &d.locs {
            if *n == entry {
                if found_entry {
                    return Err(format!("{}: location {} declared twice", d.name, n));
                }
                found_entry = true;
                labels[0] = ls.clone();
            } else {
                names.push(n.clone());
                labels.push(ls.clone());
            }
        }
        if !found_entry {
            return Err(format!("{}: entry {} is not a declared location", d.name, entry));
        }
        let num_locs = names.len();
        for (n, _) in &d.calls {
            names.push(n.clone());
        }
        let mut index: FxHashMap<&str, NodeId> = FxHashMap::default();
        for (i, n) in names.iter().enumerate() {
            if index.insert(n.as_str(), NodeId::new(i)).is_some() {
                return Err(format!("{}: node {} declared twice", d.name, n));
            }
        }
        let node = |n: &str| index.get(n).copied().ok_or(format!("{}: unknown node {}", d.name, n));
        let num_nodes = names.len();
        let mut call_target = vec![NO_CALL; num_nodes];
        let mut calls = Vec::new();
        let mut call_index = vec![u32::MAX; num_nodes];
        for (k, (n, t)) in d.calls.iter().enumerate() {
            let id = NodeId::new(num_locs + k);
            let target = comp_index.get(t.as_str()).copied().ok_or(format!("{}: call {} targets unknown component {}", d.name, n, t))?;
            call_target[id.index()] = target;
            call_index[id.index()] = calls.len() as u32;
            calls.push(id);
        }
        let mut exits = Vec::new();
        let mut exit_names = Vec::new();
        for (en, l) in &d.exits {
            let id = node(l)?;
            if call_target[id.index()] != NO_CALL {
                return Err(format!("{}: exit {} is a call", d.name, l));
            }
            exits.push(id);
            exit_names.push(en.clone());
        }
        let mut edges = Vec::new();
        for (a, b) in &d.edges {
            let (a, b) = (node(a)?, node(b)?);
            if call_target[a.index()] != NO_CALL {
                continue; // a return continuation, handled in `fill_returns`
            }
            if exits.contains(&a) {
                return Err(format!("{}: exit {} has a successor", d.name, names[a.index()]));
            }
            edges.push((a, b));
        }
        let succ = Csr::from_edges(num_nodes, &edges);
        let pred = succ.transpose();
        let mut props = vec![FixedBitSet::with_capacity(num_nodes); self.props.len()];
        for (i, ls) in labels.iter().enumerate() {
            for l in ls {
                let p = self.props.iter().position(|q| q == l).ok_or(format!("unknown label {l}"))?;
                props[p].insert(i);
            }
        }
        Ok(Component {
            name: d.name.clone(),
            num_nodes: num_nodes as u32,
            succ,
            pred,
            call_target,
            calls,
            call_index,
            exits,
            exit_names,
            returns: Csr::default(),
            return_offsets: Vec::new(),
            props: Labels::from_sets(props.into_iter().enumerate().map(|(p, set)| (PropId::new(p), set)).collect()),
            node_names: names,
        })
    }
}

fn fill_returns(c: &mut Component, d: &CompDraft, exit_counts: &[usize], exit_names: &[Vec<String>]) -> Result<(), String> {
    let node =
        |n: &str| -> Result<NodeId, String> { c.node_names.iter().position(|m| m == n).map(NodeId::new).ok_or(format!("{}: unknown node {}", d.name, n)) };
    let mut offsets = Vec::with_capacity(c.calls.len());
    let mut rows = 0u32;
    for &call in &c.calls {
        offsets.push(rows);
        rows += exit_counts[c.call_target[call.index()].index()] as u32;
    }
    let mut edges: Vec<(u32, NodeId)> = Vec::new();
    let check_loc = |l: NodeId| -> Result<NodeId, String> {
        if c.call_target[l.index()] != NO_CALL {
            return Err(format!("{}: a call returns to call {}", d.name, c.node_names[l.index()]));
        }
        Ok(l)
    };
    for (a, b) in &d.edges {
        let a = node(a)?;
        if c.call_target[a.index()] == NO_CALL {
            continue;
        }
        let b = check_loc(node(b)?)?;
        let i = c.call_index[a.index()] as usize;
        let t = c.call_target[a.index()].index();
        for k in 0..exit_counts[t] {
            edges.push((offsets[i] + k as u32, b));
        }
    }
    for (call, exit, l) in &d.rets {
        let a = node(call)?;
        if c.call_target[a.index()] == NO_CALL {
            return Err(format!("{}: ret from {} which is not a call", d.name, call));
        }
        let t = c.call_target[a.index()].index();
        let k = exit_names[t].iter().position(|e| e == exit).ok_or(format!("{}: component of call {} has no exit {}", d.name, call, exit))?;
        let b = check_loc(node(l)?)?;
        edges.push((offsets[c.call_index[a.index()] as usize] + k as u32, b));
    }
    edges.sort_unstable();
    edges.dedup();
    c.returns = Csr::from_edges(rows as usize, &edges);
    c.return_offsets = offsets;
    Ok(())
}

/// Parses the text format described in the module documentation.
pub fn parse_rks(text: &str) -> Result<RecursiveKripkeStructure, String> {
    let mut b = RksBuilder::new();
    let mut cur: Option<ComponentId> = None;
    for (ln, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let toks: Vec<&str> = line.split_whitespace().map(|t| t.trim_end_matches(',')).filter(|t| !t.is_empty()).collect();
        let Some((&kw, rest)) = toks.split_first() else { continue };
        let err = |m: &str| format!("line {}: {}", ln + 1, m);
        if kw == "termination" {
            match rest {
                ["trap"] => b.termination(TerminationRule::Trap),
                ["loop"] => b.termination(TerminationRule::Loop),
                _ => return Err(err("expected `termination trap` or `termination loop`")),
            };
            continue;
        }
        if kw == "props" {
            for t in rest {
                if !b.props.iter().any(|p| p == t) {
                    b.props.push(t.to_string());
                }
            }
            continue;
        }
        if kw == "sub" {
            let (&name, mut rest) = rest.split_first().ok_or(err("`sub` needs a name"))?;
            let c = b.component(name);
            cur = Some(c);
            while let Some((&k, r)) = rest.split_first() {
                match k {
                    "in" => {
                        let (&e, r2) = r.split_first().ok_or(err("`in` needs a location"))?;
                        b.entry(c, e);
                        rest = r2;
                    }
                    "out" => {
                        let mut r2 = r;
                        while let Some((&x, r3)) = r2.split_first() {
                            if x == "in" {
                                break;
                            }
                            match x.split_once(':') {
                                Some((n, l)) => b.exit(c, n, l),
                                None => b.exit(c, "EXIT", x),
                            };
                            r2 = r3;
                        }
                        rest = r2;
                    }
                    _ => return Err(err(&format!("unexpected `{k}` after sub"))),
                }
            }
            continue;
        }
        let c = cur.ok_or(err("expected `sub NAME` first"))?;
        match kw {
            "loc" => {
                for t in rest {
                    let (name, labels) = match t.split_once('{') {
                        Some((n, l)) => {
                            let l = l.strip_suffix('}').ok_or(err(&format!("unclosed label set in {t}")))?;
                            (n, l.split(',').map(str::trim).filter(|s| !s.is_empty()).collect::<Vec<_>>())
                        }
                        None => (*t, Vec::new()),
                    };
                    b.loc(c, name, &labels);
                }
            }
            "call" => {
                for t in rest {
                    let (n, tgt) = t.split_once("->").ok_or(err(&format!("expected call->Target, got {t}")))?;
                    b.call(c, n, tgt);
                }
            }
            "edge" => {
                for t in rest {
                    let chain: Vec<&str> = t.split("->").collect();
                    if chain.len() < 2 {
                        return Err(err(&format!("expected a->b, got {t}")));
                    }
                    for w in chain.windows(2) {
                        b.edge(c, w[0], w[1]);
                    }
                }
            }
            "ret" => {
                for t in rest {
                    let (lhs, l) = t.split_once("->").ok_or(err(&format!("expected call.exit->loc, got {t}")))?;
                    let (call, exit) = lhs.split_once('.').ok_or(err(&format!("expected call.exit->loc, got {t}")))?;
                    b.ret(c, call, exit, l);
                }
            }
            _ => return Err(err(&format!("unknown keyword `{kw}`"))),
        }
    }
    b.build()
}

/// Parses a CTL formula in NuSMV syntax over the propositions of `rks` (for tests):
/// `TRUE FALSE p ! & | xor xnor -> <-> EX AX EF AF EG AG E[a U b] A[a U b]` and parentheses,
/// also in RSMCheck's spelling (`E F φ`, `E (a U b)`, `not and or --> true false`),
/// with NuSMV's precedences (`!` and temporal prefixes bind tightest, then `&`, `|`/`xor`/`xnor`,
/// `<->`, `->` right-associative).
pub fn parse_ctl(text: &str, rks: &RecursiveKripkeStructure) -> Result<Ctl<PropId>, String> {
    let mut toks = Vec::new();
    let cs: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let j = (i..cs.len()).find(|&j| !(cs[j].is_alphanumeric() || cs[j] == '_' || cs[j] == '.')).unwrap_or(cs.len());
            toks.push(cs[i..j].iter().collect::<String>());
            i = j;
        } else {
            let three: String = cs[i..(i + 3).min(cs.len())].iter().collect();
            let two: String = cs[i..(i + 2).min(cs.len())].iter().collect();
            let (t, len) = match (three.as_str(), two.as_str()) {
                ("<->", _) => ("<->".to_string(), 3),
                ("-->", _) => ("->".to_string(), 3),
                (_, "->") => ("->".to_string(), 2),
                _ => (c.to_string(), 1),
            };
            i += len;
            toks.push(t);
        }
    }
    let mut p = CtlParser { toks, pos: 0, rks };
    let f = p.implies()?;
    if p.pos != p.toks.len() {
        return Err(format!("unexpected `{}`", p.toks[p.pos]));
    }
    Ok(f)
}

struct CtlParser<'a> {
    toks: Vec<String>,
    pos: usize,
    rks: &'a RecursiveKripkeStructure,
}

impl CtlParser<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|s| s.as_str())
    }
    fn eat(&mut self, t: &str) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &str) -> Result<(), String> {
        if self.eat(t) { Ok(()) } else { Err(format!("expected `{t}` at token {}", self.pos)) }
    }
    fn implies(&mut self) -> Result<Ctl<PropId>, String> {
        let a = self.iff()?;
        if self.eat("->") {
            let b = self.implies()?;
            return Ok(Ctl::Implies(Box::new(a), Box::new(b)));
        }
        Ok(a)
    }
    fn iff(&mut self) -> Result<Ctl<PropId>, String> {
        let mut a = self.or()?;
        while self.eat("<->") {
            a = Ctl::Iff(Box::new(a), Box::new(self.or()?));
        }
        Ok(a)
    }
    fn or(&mut self) -> Result<Ctl<PropId>, String> {
        let mut a = self.and()?;
        loop {
            if self.eat("|") || self.eat("or") {
                a = Ctl::Or(Box::new(a), Box::new(self.and()?));
            } else if self.eat("xor") {
                a = Ctl::Xor(Box::new(a), Box::new(self.and()?));
            } else if self.eat("xnor") {
                a = Ctl::Xnor(Box::new(a), Box::new(self.and()?));
            } else {
                return Ok(a);
            }
        }
    }
    fn and(&mut self) -> Result<Ctl<PropId>, String> {
        let mut a = self.unary()?;
        while self.eat("&") || self.eat("and") {
            a = Ctl::And(Box::new(a), Box::new(self.unary()?));
        }
        Ok(a)
    }
    fn unary(&mut self) -> Result<Ctl<PropId>, String> {
        let t = self.peek().ok_or("unexpected end of formula")?.to_string();
        self.pos += 1;
        let un = |p: &mut Self, k: fn(Box<Ctl<PropId>>) -> Ctl<PropId>| -> Result<Ctl<PropId>, String> { Ok(k(Box::new(p.unary()?))) };
        match t.as_str() {
            "!" | "~" | "not" => un(self, Ctl::Not),
            "EX" => un(self, Ctl::EX),
            "AX" => un(self, Ctl::AX),
            "EF" => un(self, Ctl::EF),
            "AF" => un(self, Ctl::AF),
            "EG" => un(self, Ctl::EG),
            "AG" => un(self, Ctl::AG),
            "E" | "A" if matches!(self.peek(), Some("X" | "F" | "G")) => {
                // RSMCheck spelling: `E F φ`, `A G φ`, …
                let op = format!("{t}{}", self.toks[self.pos]);
                self.toks[self.pos] = op;
                self.unary()
            }
            "E" | "A" => {
                let close = if self.eat("(") { ")" } else { self.expect("[").map(|_| "]")? };
                let a = self.implies()?;
                self.expect("U")?;
                let b = self.implies()?;
                self.expect(close)?;
                let (a, b) = (Box::new(a), Box::new(b));
                Ok(if t == "E" { Ctl::EU(a, b) } else { Ctl::AU(a, b) })
            }
            "(" => {
                let a = self.implies()?;
                self.expect(")")?;
                Ok(a)
            }
            "TRUE" | "true" => Ok(Ctl::True),
            "FALSE" | "false" => Ok(Ctl::False),
            name => {
                let p = self.rks.prop_names.iter().position(|q| q == name).ok_or(format!("unknown proposition `{name}`"))?;
                Ok(Ctl::Atom(PropId::new(p)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::test_support::{nd, nds};

    #[test]
    fn builds_a_two_component_structure() {
        let r = parse_rks(
            "sub A in a1 out a3\n loc a1{p} a3{q}\n call a2->B\n edge a1->a2->a3\n\
             sub B out ok:b1 err:b2\n loc b0 b1{p,q} b2\n edge b0->b1 b0->b2",
        )
        .unwrap();
        assert_eq!(r.prop_names, vec!["p", "q"]);
        let a = &r.components[0];
        assert_eq!(a.num_nodes, 3);
        assert_eq!(a.node_names, vec!["a1", "a3", "a2"]);
        assert!(a.is_call(nd(2)) && a.call_target[2] == ComponentId::new(1));
        assert_eq!(a.exits, nds(&[1]));
        assert_eq!(a.returns(nd(2), 0), nds(&[1]));
        assert_eq!(a.returns(nd(2), 1), nds(&[1]));
        assert_eq!(a.succ.neighbours(nd(0)), nds(&[2]));
        let b = &r.components[1];
        assert_eq!(b.exit_names, vec!["ok", "err"]);
        assert!(b.props[0].contains(1) && b.props[1].contains(1) && !b.props[0].contains(2));
    }

    #[test]
    fn parses_ctl() {
        let r = parse_rks("props p q\nsub A\n loc a").unwrap();
        let f = parse_ctl("AG (p -> E[p U !q]) & EX TRUE | A[p U q]", &r).unwrap();
        let p = || Box::new(Ctl::Atom(PropId::new(0)));
        let q = || Box::new(Ctl::Atom(PropId::new(1)));
        let ag = Ctl::AG(Box::new(Ctl::Implies(p(), Box::new(Ctl::EU(p(), Box::new(Ctl::Not(q())))))));
        let lhs = Ctl::And(Box::new(ag), Box::new(Ctl::EX(Box::new(Ctl::True))));
        assert_eq!(f, Ctl::Or(Box::new(lhs), Box::new(Ctl::AU(p(), q()))));
        assert_eq!(parse_ctl("A G ( p --> E F (not q and true) )", &r).unwrap(), parse_ctl("AG (p -> EF (!q & TRUE))", &r).unwrap());
        assert_eq!(parse_ctl("E (p U q) or A (p U q)", &r).unwrap(), parse_ctl("E[p U q] | A[p U q]", &r).unwrap());
        assert!(parse_ctl("EF r", &r).is_err());
        assert!(parse_ctl("E[p U q", &r).is_err());
    }

    #[test]
    fn reports_unknown_names() {
        assert!(parse_rks("sub A\n loc a\n call c->Z").is_err());
        assert!(parse_rks("sub A\n loc a\n edge a->b").is_err());
        assert!(parse_rks("loc a").is_err());
    }
}
