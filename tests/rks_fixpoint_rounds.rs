//! Regression tests for `labelByFixpoint` run in rounds (passes computed from the knowledge
//! base as it was at the start of the round, then written in index order): a pass that read a
//! callee pair before another pass of the same round wrote it must run again. Without that,
//! batches sharing one knowledge base answered differently from one-by-one checks (found by
//! `rks_differential` with `XMV_TEST_CASES=3000 XMV_TEST_MAX_COMPS=6 XMV_TEST_MAX_NODES=8`).
//! Every spec is checked from every component, by `check_many` and by `check`, with both
//! engines, and the engines must agree.

use xmv_rs::check::rks::{RksEngine, RksOptions, check, check_many};
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::rks::ComponentId;
use xmv_rs::explicit::rks_builder::parse_rks;
use xmv_rs::ir::PropId;

fn atom(p: u32) -> Box<Ctl<PropId>> {
    Box::new(Ctl::Atom(PropId::from_u32(p)))
}

fn batch_agrees(text: &str, specs: &[Ctl<PropId>]) {
    let rks = parse_rks(&format!("props p q r\n{text}")).expect("model parses");
    let batch: Vec<(ComponentId, Ctl<PropId>)> = specs.iter().flat_map(|f| (0..rks.components.len()).map(move |c| (ComponentId::new(c), f.clone()))).collect();
    let mut verdicts = Vec::new();
    for engine in [RksEngine::Incremental, RksEngine::Global, RksEngine::Summary] {
        let opts = RksOptions { engine, want_trace: false };
        let many: Vec<bool> = check_many(&rks, &batch, &opts).iter().map(|r| r.holds).collect();
        let one: Vec<bool> = batch.iter().map(|(c, f)| check(&rks, *c, f, &opts).holds).collect();
        assert_eq!(many, one, "{engine:?}: check_many and check disagree");
        verdicts.push(one);
    }
    assert_eq!(verdicts[0], verdicts[1], "the engines disagree");
}

#[test]
fn eg_r_from_every_component() {
    // Global check_many says true for EG r at E, check says Some(false)
    let model = r"
termination loop
sub A in a0
  loc a0{p,q,r}
  edge a0->a0
sub B in b0
  loc b0{p,r}
  edge b0->b0
sub C in c0 out c5:c5 c4:c4
  loc c0{p} c3{q,r} c4{q} c5{p,r}
  call c1->G c2->D c6->G
  edge c0->c6 c3->c0 c3->c3 c3->c6
  ret c2.EXIT->c5
sub D in d0 out EXIT:d2
  loc d0{q} d2{q,r} d4{q}
  call d1->E d3->G d5->E d6->G d7->G
  edge d0->d5 d4->d4
sub E in e0
  loc e0{p,r}
  call e1->G e2->G e3->G
  edge e0->e1 e0->e2
sub G in g0
  loc g0{}
  edge g0->g0
";
    batch_agrees(model, &[Ctl::EG(atom(2))]);
}

#[test]
fn ef_ef_not_eg_p_from_every_component() {
    // Global check_many says false for EF EF !EG p at C, check says Some(true)
    let model = r"
sub A in a0 out EXIT:a9
  loc a0{r} a4{p,q} a7{r} a9{p} a10{r}
  call a1->D a2->G a3->B a5->G a6->B a8->B
  edge a0->a7 a0->a10 a4->a1 a4->a4 a7->a6 a7->a8 a10->a2 a10->a9 a10->a10
  ret a2.EXIT->a7 a3.b3->a4 a3.b4->a0 a3.b5->a4 a3.b5->a10 a5.EXIT->a0 a5.EXIT->a10 a6.b3->a0 a6.b4->a10 a6.b5->a4 a8.b3->a7 a8.b3->a9 a8.b4->a7 a8.b5->a0 a8.b5->a10
sub B in b0 out b3:b3 b4:b4 b5:b5
  loc b0{} b3{r} b4{q} b5{q}
  call b1->C b2->C
  edge b0->b5
sub C in c0
  loc c0{p,q,r}
  call c1->D
  edge c0->c0 c0->c1
sub D in d0
  loc d0{p,r} d3{} d4{p} d5{q}
  call d1->E d2->G
  edge d0->d1 d0->d5 d3->d4 d4->d0 d4->d1 d5->d0 d5->d1 d5->d3
  ret d1.EXIT->d3 d1.EXIT->d4 d2.EXIT->d3
sub E in e0 out EXIT:e2
  loc e0{} e2{} e4{p} e5{p,q,r} e6{q}
  call e1->G e3->G
  edge e0->e0 e0->e2 e4->e1 e5->e1 e6->e3 e6->e4
  ret e1.EXIT->e2 e3.EXIT->e4 e3.EXIT->e5
sub G in g0 out EXIT:g2
  loc g0{p,q,r} g1{r} g2{p} g3{q} g4{p,r}
  edge g0->g3 g0->g4 g1->g1 g1->g3 g3->g1 g4->g4
";
    batch_agrees(model, &[Ctl::EF(Box::new(Ctl::EF(Box::new(Ctl::Not(Box::new(Ctl::EG(atom(0))))))))]);
}
