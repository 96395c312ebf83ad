//! Name-based views of a `RecursiveKripkeStructure`, to compare structures built in different
//! ways (node numbering may differ) and to check the invariants the type's documentation states.

use xmv_rs::explicit::rks::{NO_CALL, NodeId, RecursiveKripkeStructure};

/// A canonical text: per component (by name), per node (by name, sorted): labels by proposition
/// name or the call target, successors by name, continuations per exit index; the entry and the
/// exits by name. Exit names and node numbering are left out.
pub fn canonical(rks: &RecursiveKripkeStructure) -> String {
    let mut out = Vec::new();
    for c in &rks.components {
        let name = |n: NodeId| c.node_names[n.index()].clone();
        let names = |ns: &[NodeId]| {
            let mut v: Vec<String> = ns.iter().map(|&n| name(n)).collect();
            v.sort();
            v.join(",")
        };
        out.push(format!("component {} entry {} exits {}", c.name, name(NodeId::ENTRY), c.exits.iter().map(|&e| name(e)).collect::<Vec<_>>().join(",")));
        let mut lines = Vec::new();
        for n in c.nodes() {
            let kind = if c.is_call(n) {
                let t = c.call_target[n.index()].index();
                let rets: Vec<String> = (0..rks.components[t].exits.len()).map(|k| format!("[{}]", names(c.returns(n, k)))).collect();
                format!("call {} returns {}", rks.components[t].name, rets.concat())
            } else {
                let mut labels: Vec<&str> = (0..rks.prop_names.len()).filter(|&p| c.props[p].contains(n.index())).map(|p| rks.prop_names[p].as_str()).collect();
                labels.sort();
                format!("loc {{{}}}", labels.join(","))
            };
            lines.push(format!("  {} {} -> {}", name(n), kind, names(c.succ.neighbours(n))));
        }
        lines.sort();
        out.extend(lines);
    }
    out.join("\n")
}

/// The invariants of `src/explicit/rks.rs`: node 0 is a location; `pred` is the transpose of
/// `succ`; `calls`/`call_index`/`call_target` agree; exits are locations without successors;
/// calls have no intra-component successors; one return row per (call, callee exit), leading to
/// locations; label bitsets are over the nodes and never contain calls.
pub fn check_invariants(rks: &RecursiveKripkeStructure) -> Result<(), String> {
    for c in &rks.components {
        let n = c.num_nodes as usize;
        let err = |m: &str| Err(format!("component {}: {m}", c.name));
        if n == 0 || c.is_call(NodeId::ENTRY) {
            return err("node 0 must be the entry location");
        }
        if c.succ.len() != n || c.pred.len() != n || c.call_target.len() != n || c.call_index.len() != n || c.node_names.len() != n {
            return err("array lengths differ from num_nodes");
        }
        let mut fwd: Vec<(NodeId, NodeId)> = c.nodes().flat_map(|v| c.succ.neighbours(v).iter().map(move |&w| (v, w))).collect();
        let mut bwd: Vec<(NodeId, NodeId)> = c.nodes().flat_map(|v| c.pred.neighbours(v).iter().map(move |&w| (w, v))).collect();
        fwd.sort();
        bwd.sort();
        if fwd != bwd {
            return err("pred is not the transpose of succ");
        }
        let calls: Vec<NodeId> = c.nodes().filter(|&v| c.call_target[v.index()] != NO_CALL).collect();
        if calls != c.calls {
            return err("calls is not the sorted list of call nodes");
        }
        for (i, &cl) in calls.iter().enumerate() {
            if c.call_index[cl.index()] != i as u32 || c.call_target[cl.index()].index() >= rks.components.len() {
                return err("bad call_index or call_target");
            }
            if !c.succ.neighbours(cl).is_empty() {
                return err("a call has intra-component successors");
            }
            let t = &rks.components[c.call_target[cl.index()].index()];
            for k in 0..t.exits.len() {
                if c.returns(cl, k).iter().any(|&r| c.is_call(r)) {
                    return err("a call returns to a call");
                }
            }
        }
        let rows: usize = calls.iter().map(|&cl| rks.components[c.call_target[cl.index()].index()].exits.len()).sum();
        if c.returns.len() != rows {
            return err(&format!("{} return rows, expected {rows}", c.returns.len()));
        }
        if c.exit_names.len() != c.exits.len() {
            return err("exit_names and exits differ in length");
        }
        for &e in &c.exits {
            if c.is_call(e) || !c.succ.neighbours(e).is_empty() {
                return err("an exit is a call or has successors");
            }
        }
        if c.props.ids().iter().any(|&p| p.index() >= rks.prop_names.len()) {
            return err("a label that is not a proposition");
        }
        for &id in c.props.ids() {
            let p = &c.props[id.index()];
            if p.ones().any(|v| v >= n || c.is_call(NodeId::new(v))) {
                return err("a label on a call or outside the nodes");
            }
        }
    }
    Ok(())
}
