//! Which specs [`super::LaneSummary`] solves together: specs with the same initial component
//! and the same *shape* (the formula with its atoms renamed `0, 1, …` in order of first
//! occurrence) are cut, in order, into batches of at most [`super::LANES`]. The cut depends
//! on the spec list only, never on the number of threads, so results and statistics are the
//! same for every `-j`.

use super::LANES;
use crate::ctl::Ctl;
use crate::explicit::rks::ComponentId;
use crate::ir::PropId;
use rustc_hash::FxHashMap;

/// Fewer specs of one shape than this are checked one at a time (a lane batch pays a word per
/// location for every lane it could hold).
pub(crate) const MIN_LANES: usize = 4;

/// One batch of specs of the same shape.
pub(crate) struct LaneBatch {
    pub(crate) init: ComponentId,
    /// The shape, atoms numbered from 0.
    pub(crate) shape: Ctl<PropId>,
    /// The specs' positions in the checked list, increasing.
    pub(crate) specs: Vec<usize>,
    /// `atoms[p][l]`: the proposition of shape atom `p` in spec `specs[l]`.
    pub(crate) atoms: Vec<Vec<PropId>>,
}

/// The specs of one (initial component, shape): positions and atoms.
type Group = (ComponentId, Ctl<PropId>, Vec<(usize, Vec<PropId>)>);

/// The shape of `ctl` and its atoms in order of first occurrence.
pub(crate) fn shape_of(ctl: &Ctl<PropId>) -> (Ctl<PropId>, Vec<PropId>) {
    let mut atoms: Vec<PropId> = Vec::new();
    let shape = ctl.map_atoms(&mut |p: &PropId| match atoms.iter().position(|q| q == p) {
        Some(i) => PropId::new(i),
        None => {
            atoms.push(*p);
            PropId::new(atoms.len() - 1)
        }
    });
    (shape, atoms)
}

/// The lane batches of `specs` and the positions of the specs left to one-at-a-time checking
/// (in order).
pub(crate) fn plan(specs: &[(ComponentId, Ctl<PropId>)]) -> (Vec<LaneBatch>, Vec<usize>) {
    let mut groups: FxHashMap<(ComponentId, Ctl<PropId>), usize> = FxHashMap::default();
    let mut members: Vec<Group> = Vec::new();
    for (i, (init, ctl)) in specs.iter().enumerate() {
        let (shape, atoms) = shape_of(ctl);
        let key = (*init, shape);
        let g = match groups.get(&key) {
            Some(&g) => g,
            None => {
                groups.insert(key.clone(), members.len());
                members.push((key.0, key.1, Vec::new()));
                members.len() - 1
            }
        };
        members[g].2.push((i, atoms));
    }
    let mut batches = Vec::new();
    let mut single = Vec::new();
    for (init, shape, list) in members {
        if list.len() < MIN_LANES {
            single.extend(list.iter().map(|(i, _)| *i));
            continue;
        }
        for chunk in list.chunks(LANES) {
            let width = chunk[0].1.len();
            let atoms = (0..width).map(|p| chunk.iter().map(|(_, a)| a[p]).collect()).collect();
            batches.push(LaneBatch { init, shape: shape.clone(), specs: chunk.iter().map(|(i, _)| *i).collect(), atoms });
        }
    }
    single.sort_unstable();
    (batches, single)
}
