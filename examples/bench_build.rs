//! State-space construction benchmark: random control-flow-style models (one enumeration
//! variable `pc` with N values, `next(pc)` a case table with 1–3 random successors per value,
//! random `pc = …`/`pc in {…}` atoms as specs: 0.9·N of them, at most 4500), built from a hand-made `LoweredProgram`
//! so only the builder is timed. Run with `cargo run --release --example bench_build`.
//!
//! Prints a table: states, transitions, propositions, build time, ns per state.

use std::time::Instant;
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::build_flat::{BuildLimits, build_flat};
use xmv_rs::lowering::program::*;
use xmv_rs::source::Span;
use xmv_rs::syntax::ast::{SpecKind, TerminationRule, VarKind};

/// A small deterministic generator (xorshift64*), so runs are comparable.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn cfg_model(n: u32, specs: u32, seed: u64) -> LoweredProgram {
    let mut rng = Rng(seed | 1);
    let sym = |i: u32| Expr::Const(Value::Sym(SymId::from_u32(i)));
    let mut entries = Vec::with_capacity(n as usize);
    for i in 0..n {
        // a chain keeps every value reachable; plus up to two random jumps
        let mut succ = vec![sym((i + 1) % n)];
        for _ in 0..rng.below(3) {
            succ.push(sym(rng.below(n as u64) as u32));
        }
        entries.push(Some(if succ.len() == 1 { succ.pop().unwrap_or(sym(0)) } else { Expr::Set(succ) }));
    }
    let pc = Variable {
        name: "pc".into(),
        domain: Domain::Enum((0..n).map(|i| Value::Sym(SymId::from_u32(i))).collect()),
        kind: VarKind::State,
        span: Span::default(),
    };
    let table = Expr::Table { var: VarId::new(0), entries, fallback: None, span: Span::default() };
    let system = System {
        name: "main".into(),
        span: Span::default(),
        is_procedure: false,
        vars: vec![pc],
        init_assign: vec![Some(sym(0))],
        next_assign: vec![Some(table)],
        invar_assign: vec![None],
        init: vec![],
        trans: vec![],
        invar: vec![],
        defines: vec![],
        define_scopes: vec![],
        define_labels: vec![],
        fairness: vec![],
        step_inputs: vec![],
        calls: vec![],
        exits: vec![],
        uses_exit_value: false,
        spans: SystemSpans::default(),
    };
    let specs = (0..specs)
        .map(|_| {
            let atom = if rng.below(2) == 0 {
                Expr::Binary(BinOp::Eq, Box::new(Expr::Var(VarId::new(0))), Box::new(sym(rng.below(n as u64) as u32)))
            } else {
                let set = (0..3).map(|_| sym(rng.below(n as u64) as u32)).collect();
                Expr::Binary(BinOp::In, Box::new(Expr::Var(VarId::new(0))), Box::new(Expr::Set(set)))
            };
            LoweredSpec {
                kind: SpecKind::Ctl,
                name: None,
                system: SystemId::new(0),
                formula: Ctl::AG(Box::new(Ctl::Atom(SpecAtom::State(atom)))),
                ltl: None,
                compute: None,
                text: String::new(),
                span: Span::default(),
            }
        })
        .collect();
    LoweredProgram {
        systems: vec![system],
        flat: Some(SystemId::new(0)),
        symbols: (0..n).map(|i| format!("l{i}")).collect(),
        labels: vec![],
        exit_names: vec!["EXIT".into()],
        specs,
        termination: TerminationRule::Trap,
    }
}

fn main() {
    println!("{:>9} {:>11} {:>7} {:>10} {:>9}", "states", "transitions", "props", "build ms", "ns/state");
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![1_000, 5_000, 10_000, 100_000, 1_000_000] } else { sizes };
    for n in sizes {
        let program = cfg_model(n, (n * 9 / 10).min(4500), 42);
        let t = Instant::now();
        let model = match build_flat(&program, &BuildLimits::default()) {
            Ok(m) => m,
            Err(d) => {
                eprintln!("build failed: {:?}", d.items.first().map(|x| &x.message));
                return;
            }
        };
        let elapsed = t.elapsed().as_secs_f64();
        let k = &model.kripke;
        println!("{:>9} {:>11} {:>7} {:>10.2} {:>9.0}", k.num_states, k.succ.edge_count(), k.props.len(), elapsed * 1e3, elapsed * 1e9 / k.num_states as f64);
    }
}
