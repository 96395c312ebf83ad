//! Lane-batched summary checking against one-spec-at-a-time checking, on seeded random RKSs
//! (recursive and not, up to five exits, both termination rules) and random formulas over every
//! CTL operator.
//!
//! For each model, one random formula is instantiated many times with its atoms mapped to random
//! propositions, so that `check_many` solves most instances together in lanes (specs of the same
//! shape, see `check::rks::lanes`); the same specs checked one at a time (`rks::check`, which
//! never batches) must get the same verdicts, and, with traces asked for, the same traces. The
//! instances are shuffled with specs of other shapes and other initial components, so that the
//! planner's grouping and the scattering of results back into spec order are exercised too.
//!
//! `XMV_TEST_CASES=n` runs `n` models instead of the default; `XMV_TEST_SEED=s` changes the seed.

mod rks_support;

use rks_support::ctl_text::F;
use rks_support::random::{self, GenParams, Rng};
use xmv_rs::check::rks::{RksEngine, RksOptions, check, check_many};
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::rks::ComponentId;
use xmv_rs::ir::PropId;

const DEFAULT_MODELS: usize = 400;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `f` with every atom mapped to a random proposition (the same atom to the same proposition).
fn instance(rng: &mut Rng, f: &F, num_props: usize) -> F {
    let map: Vec<PropId> = (0..num_props).map(|_| PropId::new(rng.range(0, num_props - 1))).collect();
    f.map_atoms(&mut |p: &PropId| map[p.index()])
}

#[test]
fn lane_batches_give_the_verdicts_and_traces_of_one_at_a_time_checking() {
    let models = env_usize("XMV_TEST_CASES", DEFAULT_MODELS);
    let mut rng = Rng::new(env_usize("XMV_TEST_SEED", 0x1a9e5) as u64);
    let (mut specs_checked, mut traces_compared, mut true_specs) = (0, 0, 0);
    for i in 0..models {
        let params = GenParams { recursive: i % 2 == 1, max_comps: 4 + i % 3, max_nodes: 6 + i % 4 };
        let model = random::model_with_exits(&mut rng, &params, 5);
        let rks = model.build();
        let init = ComponentId::new(rng.range(0, model.comps.len() - 1));
        let shape = if i % 3 == 0 { random::temporal_formula(&mut rng, model.props.len(), 4) } else { random::formula(&mut rng, model.props.len(), 4) };
        let mut specs: Vec<(ComponentId, Ctl<PropId>)> = Vec::new();
        for j in 0..70 {
            let f = instance(&mut rng, &shape, model.props.len());
            // Every tenth spec: another shape or another initial component.
            let spec = match j % 10 {
                3 => (init, random::formula(&mut rng, model.props.len(), 3)),
                7 => (ComponentId::new(rng.range(0, model.comps.len() - 1)), f),
                _ => (init, f),
            };
            specs.push(spec);
        }
        let want_trace = i % 4 == 0;
        let opts = RksOptions { engine: RksEngine::Summary, want_trace };
        let batched = check_many(&rks, &specs, &opts);
        assert_eq!(batched.len(), specs.len());
        for (k, ((c, f), b)) in specs.iter().zip(&batched).enumerate() {
            let alone = check(&rks, *c, f, &opts);
            assert_eq!(
                b.holds,
                alone.holds,
                "model {i} spec {k} ({f:?} from component {c}): batched and one-at-a-time verdicts differ\n{}",
                model.to_builder_text()
            );
            assert_eq!(b.trace, alone.trace, "model {i} spec {k} ({f:?}): batched and one-at-a-time traces differ\n{}", model.to_builder_text());
            specs_checked += 1;
            traces_compared += usize::from(alone.trace.is_some());
            true_specs += usize::from(alone.holds);
        }
    }
    eprintln!("rks lanes: {models} models, {specs_checked} specs ({true_specs} true), {traces_compared} traces compared");
    assert!(traces_compared > 100, "the comparison covers traces");
}
