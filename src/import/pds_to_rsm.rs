//! Pushdown systems and the standard PDS → RSM construction (Alur et al. 2005; RSMCheck's
//! `src/etc/pds_to_rsm.py`), shared by the PuMoC and PDSolver readers.
//!
//! One component whose nodes are the heads `p<g>` (control state, top of stack). A rule
//! `p<g> → q<g'>` is an edge between heads; `p<g> → q<g1 g2>` is an edge to the call node
//! (box `g2`, entry `q<g1>`) — one box per pushed return symbol, as in the reference script;
//! `p<g> → q<ε>` pops. A head whose only rule is a pop is itself an exit (the construction is then
//! step-exact: `<p, g g2 w>` is followed directly by `<q, g2 w>`, the return head `q<g2>` of the
//! caller); otherwise the pop goes to a virtual exit node `pop<q>` labelled with the labels of
//! control state `q` (the reference script's exit node `q`), one extra step. Heads are labelled
//! with the labels of their control state, of their stack symbol and of the head itself. Unlike
//! the reference script there are no separate entry nodes `[q<g1>]`: the `.smv` language allows
//! edges into an entry location, so a push enters `q<g1>` directly (one step, as in the PDS).

use super::rsm::{Component, Node, Returns, Rsm, RsmBox, Target};
use rustc_hash::FxHashMap;

#[derive(Clone, Debug, Default)]
pub(crate) struct Pds {
    pub states: Vec<String>,
    pub symbols: Vec<String>,
    pub rules: Vec<Rule>,
    /// The initial head (the initial stack has exactly one symbol).
    pub initial: (u32, u32),
    pub state_labels: Vec<Vec<String>>,
    pub symbol_labels: Vec<Vec<String>>,
    pub head_labels: FxHashMap<(u32, u32), Vec<String>>,
    pub format_name: String,
    pub notes: Vec<String>,
    state_index: FxHashMap<String, u32>,
    symbol_index: FxHashMap<String, u32>,
}

#[derive(Clone, Debug)]
pub(crate) struct Rule {
    pub from: (u32, u32),
    pub to_state: u32,
    /// 0, 1 or 2 symbols, top first.
    pub push: Vec<u32>,
}

impl Pds {
    pub(crate) fn new(format_name: &str) -> Pds {
        Pds { format_name: format_name.to_string(), ..Pds::default() }
    }
    pub(crate) fn state(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.state_index.get(name) {
            return i;
        }
        let i = self.states.len() as u32;
        self.states.push(name.to_string());
        self.state_labels.push(Vec::new());
        self.state_index.insert(name.to_string(), i);
        i
    }
    pub(crate) fn symbol(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.symbol_index.get(name) {
            return i;
        }
        let i = self.symbols.len() as u32;
        self.symbols.push(name.to_string());
        self.symbol_labels.push(Vec::new());
        self.symbol_index.insert(name.to_string(), i);
        i
    }
    pub(crate) fn find_state(&self, name: &str) -> Option<u32> {
        self.state_index.get(name).copied()
    }
    pub(crate) fn find_symbol(&self, name: &str) -> Option<u32> {
        self.symbol_index.get(name).copied()
    }
    fn head_name(&self, (p, g): (u32, u32)) -> String {
        format!("{}<{}>", self.states[p as usize], self.symbols[g as usize])
    }
    fn labels(&self, (p, g): (u32, u32)) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let head = self.head_labels.get(&(p, g)).map(|v| v.as_slice()).unwrap_or(&[]);
        for l in self.state_labels[p as usize].iter().chain(&self.symbol_labels[g as usize]).chain(head) {
            if !out.contains(l) {
                out.push(l.clone());
            }
        }
        out
    }
}

pub(crate) fn translate(pds: &Pds) -> Rsm {
    let mut comp = Component::default();
    let mut node_of: FxHashMap<(u32, u32), usize> = FxHashMap::default();
    let head = |h: (u32, u32), comp: &mut Component, node_of: &mut FxHashMap<(u32, u32), usize>| -> usize {
        *node_of.entry(h).or_insert_with(|| {
            comp.nodes.push(Node { name: pds.head_name(h), labels: pds.labels(h), ..Node::default() });
            comp.heads.insert(h, comp.nodes.len() - 1);
            comp.nodes.len() - 1
        })
    };
    let mut rules_of: FxHashMap<(u32, u32), Vec<usize>> = FxHashMap::default();
    let mut order: Vec<(u32, u32)> = Vec::new();
    head(pds.initial, &mut comp, &mut node_of);
    for (i, r) in pds.rules.iter().enumerate() {
        head(r.from, &mut comp, &mut node_of);
        let v = rules_of.entry(r.from).or_default();
        if v.is_empty() {
            order.push(r.from);
        }
        v.push(i);
    }
    // Return heads q<g2>: every pop target state with every pushed return symbol.
    let mut pop_states: Vec<u32> = Vec::new();
    let mut ret_symbols: Vec<u32> = Vec::new();
    for r in &pds.rules {
        if r.push.is_empty() && !pop_states.contains(&r.to_state) {
            pop_states.push(r.to_state);
        }
        if r.push.len() == 2 && !ret_symbols.contains(&r.push[1]) {
            ret_symbols.push(r.push[1]);
        }
    }
    let mut box_of: FxHashMap<u32, usize> = FxHashMap::default();
    for &g2 in &ret_symbols {
        box_of.insert(g2, comp.boxes.len());
        comp.boxes.push(RsmBox { name: pds.symbols[g2 as usize].clone(), callee: 0, call_nodes: Vec::new(), returns: Returns::Pop { symbol: g2 } });
        for &q in &pop_states {
            head((q, g2), &mut comp, &mut node_of);
        }
    }
    let mut pop_node: FxHashMap<u32, usize> = FxHashMap::default();
    for h in order {
        let rules = &rules_of[&h];
        let n = node_of[&h];
        if let [only] = rules.as_slice() {
            let r = &pds.rules[*only];
            if r.push.is_empty() {
                comp.nodes[n].is_exit = true;
                comp.nodes[n].pop_state = Some(r.to_state);
                continue;
            }
        }
        for &ri in rules {
            let r = &pds.rules[ri];
            let target = match r.push.as_slice() {
                [] => Target::Node(*pop_node.entry(r.to_state).or_insert_with(|| {
                    comp.nodes.push(Node {
                        name: format!("pop<{}>", pds.states[r.to_state as usize]),
                        labels: pds.state_labels[r.to_state as usize].clone(),
                        is_exit: true,
                        pop_state: Some(r.to_state),
                        ..Node::default()
                    });
                    comp.nodes.len() - 1
                })),
                [g1] => Target::Node(head((r.to_state, *g1), &mut comp, &mut node_of)),
                [g1, g2, ..] => {
                    let entry = head((r.to_state, *g1), &mut comp, &mut node_of);
                    comp.nodes[entry].is_entry = true;
                    let b = box_of[g2];
                    if !comp.boxes[b].call_nodes.contains(&entry) {
                        comp.boxes[b].call_nodes.push(entry);
                    }
                    Target::Call { rbox: b, entry }
                }
            };
            comp.nodes[n].succ.push(target);
        }
    }
    let initial_node = node_of[&pds.initial];
    comp.nodes[initial_node].is_entry = true;
    let mut notes = vec![
        "Pushdown system to RSM (the standard construction, as RSMCheck's pds_to_rsm.py): the nodes are the heads `p<g>` (control state, top of stack), each module is the procedure entered at one head, and its name is that head's. A rule `p<g> --> q<g1 g2>` calls the procedure entered at `q<g1>` (the call state is `<g2>_<q<g1>>`, for the pushed return symbol g2); a head whose only rule pops to state q is an exit, and the caller continues at head `q<g2>`, so the step count is the PDS's. A pop from a head that has other rules too goes through a virtual exit `pop<q>` labelled like state q (one extra step). A head carries the labels of its control state, of its stack symbol and its own. When the initial head pops its only symbol the PDS stops; here that exit loops (TERMINATION loop).".to_string(),
    ];
    notes.extend(pds.notes.iter().cloned());
    Rsm { components: vec![comp], initial_component: 0, initial_node, format_name: pds.format_name.clone(), notes }
}
