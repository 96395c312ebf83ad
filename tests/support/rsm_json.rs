//! Test support: builds a `RecursiveKripkeStructure` directly from RSMCheck's JSON format
//! (digest §2.2/§4.2), splitting each multi-entry component per entry, with the `loop`
//! termination rule. Call node (b, en) becomes an RKS call node targeting the split component
//! (Y(b), en); transitions out of return node (b, ex) become `returns(c, k)` of every call node
//! of box b. Only what the tests need; the real importer lives in `src/import`.

use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use serde_json::Value;
use xmv_rs::explicit::csr::Csr;
use xmv_rs::explicit::rks::{Component, NO_CALL, RecursiveKripkeStructure};
use xmv_rs::syntax::ast::TerminationRule;

pub struct Rsm {
    pub rks: RecursiveKripkeStructure,
    pub initial: u32,
    /// (component, entry) name of each RKS component.
    pub split: Vec<(String, String)>,
}

impl Rsm {
    pub fn prop(&self, name: &str) -> u32 {
        self.rks.prop_names.iter().position(|p| p == name).unwrap_or_else(|| panic!("no label {name}")) as u32
    }
    pub fn component(&self, comp: &str, entry: &str) -> u32 {
        self.split.iter().position(|(c, e)| c == comp && e == entry).expect("no such split component") as u32
    }
}

fn s(v: &Value) -> &str {
    v.as_str().expect("string")
}

pub fn load(path: &str) -> Rsm {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&text)
}

pub fn parse(text: &str) -> Rsm {
    let json: Value = serde_json::from_str(text).expect("RSM JSON");
    let comps: Vec<&Value> = json["components"].as_array().expect("components").iter().collect();
    let comp_index: FxHashMap<&str, usize> = comps.iter().enumerate().map(|(i, c)| (s(&c["name"]), i)).collect();
    let mut prop_names: Vec<String> = Vec::new();
    let mut split: Vec<(usize, String)> = vec![(comp_index[s(&json["initial_component"])], s(&json["initial_node"]).to_string())];
    let mut split_ids: FxHashMap<(usize, String), u32> = FxHashMap::default();
    split_ids.insert(split[0].clone(), 0);
    let mut components = Vec::new();
    let mut next = 0;
    while next < split.len() {
        let (ci, entry) = split[next].clone();
        next += 1;
        let c = comps[ci];
        let nodes: Vec<&Value> = c["nodes"].as_array().expect("nodes").iter().collect();
        // Local numbering: entry first, then the other nodes, then call nodes.
        let mut order: Vec<&Value> = nodes.iter().copied().filter(|n| s(&n["name"]) == entry).collect();
        assert_eq!(order.len(), 1, "entry {entry} not found");
        order.extend(nodes.iter().copied().filter(|n| s(&n["name"]) != entry));
        let mut id: FxHashMap<String, u32> = FxHashMap::default();
        for (i, n) in order.iter().enumerate() {
            id.insert(s(&n["name"]).to_string(), i as u32);
        }
        let mut num_nodes = order.len() as u32;
        let mut call_target = vec![NO_CALL; order.len()];
        let mut calls = Vec::new();
        let mut node_names: Vec<String> = order.iter().map(|n| s(&n["name"]).to_string()).collect();
        let mut call_of: FxHashMap<(String, String), u32> = FxHashMap::default();
        let mut box_calls: FxHashMap<String, Vec<u32>> = FxHashMap::default();
        let mut box_callee: FxHashMap<String, usize> = FxHashMap::default();
        for b in c["boxes"].as_array().expect("boxes") {
            let callee = comp_index[s(&b["component"])];
            box_callee.insert(s(&b["name"]).to_string(), callee);
            for en in b["call_nodes"].as_array().expect("call_nodes") {
                let key = (callee, s(en).to_string());
                let target = *split_ids.entry(key.clone()).or_insert_with(|| {
                    split.push(key);
                    split.len() as u32 - 1
                });
                let node = num_nodes;
                num_nodes += 1;
                call_target.push(target);
                calls.push(node);
                node_names.push(format!("({},{})", s(&b["name"]), s(en)));
                call_of.insert((s(&b["name"]).to_string(), s(en).to_string()), node);
                box_calls.entry(s(&b["name"]).to_string()).or_default().push(node);
            }
        }
        let target_of = |t: &Value| -> u32 {
            if s(&t["type"]) == "node" {
                id[s(&t["name"])]
            } else {
                call_of[&(s(&t["box_name"]).to_string(), s(&t["node_name"]).to_string())]
            }
        };
        let mut edges = Vec::new();
        let mut return_edges: FxHashMap<(String, String), Vec<u32>> = FxHashMap::default();
        for tr in c["transitions"].as_array().expect("transitions") {
            let src = &tr["source"];
            let targets: Vec<u32> = tr["targets"].as_array().expect("targets").iter().map(target_of).collect();
            if s(&src["type"]) == "node" {
                let from = id[s(&src["name"])];
                edges.extend(targets.iter().map(|&t| (from, t)));
            } else {
                let key = (s(&src["box_name"]).to_string(), s(&src["node_name"]).to_string());
                return_edges.entry(key).or_default().extend(targets);
            }
        }
        let exits: Vec<u32> = order.iter().enumerate().filter(|(_, n)| n["is_exit"].as_bool() == Some(true)).map(|(i, _)| i as u32).collect();
        let exit_names = exits.iter().map(|&e| node_names[e as usize].clone()).collect();
        // Return rows: for call i (in node order), one row per exit of the callee's base.
        let mut return_offsets = Vec::new();
        let mut ret_edges = Vec::new();
        let mut rows = 0u32;
        let call_box: FxHashMap<u32, String> = box_calls.iter().flat_map(|(b, cs)| cs.iter().map(move |&c| (c, b.clone()))).collect();
        for &call in &calls {
            return_offsets.push(rows);
            let bname = &call_box[&call];
            let callee = comps[box_callee[bname]];
            for n in callee["nodes"].as_array().expect("nodes") {
                if n["is_exit"].as_bool() == Some(true) {
                    let key = (bname.clone(), s(&n["name"]).to_string());
                    for &t in return_edges.get(&key).map(|v| v.as_slice()).unwrap_or(&[]) {
                        ret_edges.push((rows, t));
                    }
                    rows += 1;
                }
            }
        }
        let mut props = Vec::new();
        for (i, n) in order.iter().enumerate() {
            for l in n["labels"].as_array().expect("labels") {
                let p = match prop_names.iter().position(|q| q == s(l)) {
                    Some(p) => p,
                    None => {
                        prop_names.push(s(l).to_string());
                        prop_names.len() - 1
                    }
                };
                props.push((p, i));
            }
        }
        let succ = Csr::from_edges(num_nodes as usize, &edges);
        let mut call_index = vec![u32::MAX; num_nodes as usize];
        for (i, &c) in calls.iter().enumerate() {
            call_index[c as usize] = i as u32;
        }
        components.push((
            Component {
                name: format!("{}@{}", s(&c["name"]), entry),
                num_nodes,
                pred: succ.transpose(),
                succ,
                call_target,
                calls,
                call_index,
                exits,
                exit_names,
                returns: Csr::from_edges(rows as usize, &ret_edges),
                return_offsets,
                props: Vec::new(),
                node_names,
            },
            props,
        ));
    }
    let np = prop_names.len();
    let components = components
        .into_iter()
        .map(|(mut comp, props)| {
            comp.props = vec![FixedBitSet::with_capacity(comp.num_nodes as usize); np];
            for (p, i) in props {
                comp.props[p].insert(i);
            }
            comp
        })
        .collect();
    let names = split.iter().map(|(c, e)| (s(&comps[*c]["name"]).to_string(), e.clone())).collect();
    Rsm {
        rks: RecursiveKripkeStructure { components, prop_names, termination: TerminationRule::Loop },
        initial: 0,
        split: names,
    }
}
