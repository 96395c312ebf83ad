//! Dynamic variable reordering of the BDD engine: Rudell's sifting over variable groups, and the
//! automatic trigger that runs it when the live node count has doubled (CUDD's
//! `CUDD_REORDER_SIFT` with automatic reordering, which NuSMV's `-dynamic` turns on).
//!
//! oxidd has no sifting driver; `oxidd_reorder::set_var_order` establishes any order by adjacent
//! level swaps (safe code). [`sift`] runs inside one `Manager::reorder` call (so the apply cache
//! is cleared once, not per move) and moves each group as a block through the order, one
//! neighbouring block at a time, counting the nodes after each move (`num_inner_nodes`: the
//! unique table, exact after the garbage collection done before each group; a swap frees the
//! nodes it orphans on its two levels, so the few dead nodes it leaves are deeper down). The
//! level swaps themselves (`oxidd_reorder::level_swap`) are most of the time. A group goes first
//! towards the nearer end, then to the other, and back to the position with the fewest nodes; a
//! direction stops when the count passes [`Sifting::max_growth`] times the best count seen for
//! this group (CUDD: 1.2), or when the swap budget is spent. Groups are sifted largest first
//! (most nodes on their levels). Levels outside every group (LTL tableau variables) are never
//! moved on their own, so their relative order stays.
//!
//! What stays correct across a reorder: BDD functions are functions of variable *numbers*, which
//! a reorder does not change; cubes, substitutions (oxidd prepares them per call), the
//! transition clusters and their quantification schedules (both by support) stay valid, and
//! oxidd clears its apply cache in `reorder`. The one thing in `src/symbolic` that read levels,
//! the shortcut of `Encoding::pick_state` when the levels follow the declaration order, asks the
//! manager each time. A reorder needs exclusive access to the manager, so it only runs at safe
//! points between BDD operations ([`super::encoding::Encoding::maybe_reorder`]: the fixpoint
//! loops, after each image).
//!
//! The setting is process-wide ([`set_dynamic_reordering`], like `trans::set_partitioning`):
//! `xmv-rs check --reorder` and NuSMV drop-in mode's `-dynamic` turn it on.

use oxidd::{HasLevel, HasWorkers, Manager, VarNo};
use oxidd_core::LevelView;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// CUDD's `DD_FIRST_REORDER`: the live node count of the first automatic reordering.
pub const FIRST_REORDER: usize = 4004;

/// The first automatic reordering's threshold, 0 = off (process-wide).
static DYNAMIC: AtomicUsize = AtomicUsize::new(0);

/// Turns automatic reordering on (sifting when the live nodes first reach `first_at`, then each
/// time they double since the last reordering) or off (`None`), for the BDD models built from
/// now on. `xmv-rs check --reorder` uses [`FIRST_REORDER`].
pub fn set_dynamic_reordering(first_at: Option<usize>) {
    DYNAMIC.store(first_at.map_or(0, |n| n.max(1)), Ordering::Relaxed);
}

/// The first threshold, when automatic reordering is on.
pub(crate) fn dynamic_reordering() -> Option<usize> {
    match DYNAMIC.load(Ordering::Relaxed) {
        0 => None,
        n => Some(n),
    }
}

/// Limits of one sifting run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sifting {
    /// A direction stops when the live nodes exceed this factor times the best count (CUDD 1.2).
    pub max_growth: f64,
    /// Adjacent level swaps of the whole run (CUDD's `siftMaxSwap`, 2,000,000).
    pub max_swaps: u64,
    /// No group is started after this time.
    pub max_time: Duration,
}

impl Default for Sifting {
    fn default() -> Self {
        Sifting { max_growth: 1.2, max_swaps: 2_000_000, max_time: Duration::from_secs(30) }
    }
}

/// What a sifting run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SiftReport {
    /// Live nodes before and after.
    pub before: usize,
    pub after: usize,
    /// The largest live node count measured at a position sifting went on from.
    pub peak_kept: usize,
    /// Adjacent level swaps performed.
    pub swaps: u64,
    /// Groups that ended at another position.
    pub groups_moved: usize,
}

/// Collects the dead nodes and counts the live ones.
fn live_nodes<M: Manager>(m: &M) -> usize {
    m.gc();
    m.num_inner_nodes()
}

/// Sifts `groups` (each a set of BDD variables kept together in their current relative order)
/// in the manager `m`. The functions represented do not change; only the levels do.
pub(crate) fn sift<M>(m: &mut M, groups: &[Vec<VarNo>], limits: Sifting) -> SiftReport
where
    M: Manager + HasWorkers,
    M::InnerNode: HasLevel,
{
    m.reorder(|m| sift_in(m, groups, limits))
}

/// A block of the order: a group (index into `groups`) or a variable outside every group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Group(usize),
    Single(VarNo),
}

fn sift_in<M>(m: &mut M, groups: &[Vec<VarNo>], limits: Sifting) -> SiftReport
where
    M: Manager + HasWorkers,
    M::InnerNode: HasLevel,
{
    let start = Instant::now();
    let levels = m.num_levels();
    let mut group_of = vec![None; levels as usize];
    for (g, vars) in groups.iter().enumerate() {
        for &v in vars {
            group_of[v as usize] = Some(g);
        }
    }
    // Each group's variables in their current level order; the blocks in level order.
    let mut members: Vec<Vec<VarNo>> = groups.to_vec();
    for g in &mut members {
        g.sort_by_key(|&v| m.var_to_level(v));
    }
    let mut blocks: Vec<Block> = vec![];
    for level in 0..levels {
        let v = m.level_to_var(level);
        let block = group_of[v as usize].map_or(Block::Single(v), Block::Group);
        if !blocks.contains(&block) || matches!(block, Block::Single(_)) {
            blocks.push(block);
        }
    }
    let width = |b: Block| match b {
        Block::Group(g) => members[g].len() as u64,
        Block::Single(_) => 1,
    };
    let flatten = |blocks: &[Block]| -> Vec<VarNo> {
        blocks
            .iter()
            .flat_map(|&b| match b {
                Block::Group(g) => members[g].clone(),
                Block::Single(v) => vec![v],
            })
            .collect()
    };
    // Groups kept apart by the current order are gathered first.
    oxidd_reorder::set_var_order(m, &flatten(&blocks));
    let before = live_nodes(m);
    let mut report = SiftReport { before, after: before, peak_kept: before, ..Default::default() };
    let mut current;
    // Largest groups first: the most nodes on their levels.
    let mut order: Vec<usize> = (0..groups.len()).filter(|&g| !members[g].is_empty()).collect();
    let size = |m: &M, g: usize| -> usize { members[g].iter().map(|&v| m.level(m.var_to_level(v)).len()).sum() };
    let sizes: Vec<usize> = (0..groups.len()).map(|g| if members[g].is_empty() { 0 } else { size(m, g) }).collect();
    order.sort_by_key(|&g| std::cmp::Reverse(sizes[g]));
    for g in order {
        if report.swaps >= limits.max_swaps || start.elapsed() >= limits.max_time {
            break;
        }
        let Some(from) = blocks.iter().position(|&b| b == Block::Group(g)) else { continue };
        current = live_nodes(m);
        let mut pos = from;
        let mut best = (current, pos);
        let last = blocks.len() - 1;
        // Towards the nearer end first, then the other end.
        let down_first = last - pos < pos;
        for down in [down_first, !down_first] {
            loop {
                if (down && pos == last) || (!down && pos == 0) || report.swaps >= limits.max_swaps {
                    break;
                }
                let other = if down { pos + 1 } else { pos - 1 };
                report.swaps += width(blocks[pos]) * width(blocks[other]);
                blocks.swap(pos, other);
                pos = other;
                oxidd_reorder::set_var_order(m, &flatten(&blocks));
                current = m.num_inner_nodes();
                if current < best.0 {
                    best = (current, pos);
                }
                if current as f64 > limits.max_growth * best.0 as f64 {
                    break;
                }
                report.peak_kept = report.peak_kept.max(current);
            }
        }
        if pos != best.1 {
            let block = blocks.remove(pos);
            blocks.insert(best.1, block);
            let moved = pos.abs_diff(best.1) as u64;
            report.swaps += moved * width(block);
            oxidd_reorder::set_var_order(m, &flatten(&blocks));
        }
        if best.1 != from {
            report.groups_moved += 1;
        }
    }
    report.after = live_nodes(m);
    report
}

/// The automatic trigger's state for one manager: the live node count of the next reordering.
#[derive(Debug)]
pub(crate) struct AutoReorder {
    first: usize,
    next: AtomicUsize,
    /// Reorderings done and the live nodes after the last one (for `--stats`).
    pub runs: AtomicUsize,
    pub last_after: AtomicUsize,
}

impl AutoReorder {
    pub(crate) fn new(first: usize) -> AutoReorder {
        AutoReorder { first, next: AtomicUsize::new(first), runs: AtomicUsize::new(0), last_after: AtomicUsize::new(0) }
    }

    /// Whether `nodes` (in the unique table, dead ones included) reach the threshold.
    pub(crate) fn due(&self, nodes: usize) -> bool {
        nodes >= self.next.load(Ordering::Relaxed)
    }

    /// Sifts the groups of `m` when its live nodes reach the threshold; the next threshold is
    /// twice the live nodes after (CUDD's `DD_DYN_RATIO`).
    pub(crate) fn run<M>(&self, m: &mut M, groups: &[Vec<VarNo>]) -> Option<SiftReport>
    where
        M: Manager + HasWorkers,
        M::InnerNode: HasLevel,
    {
        if live_nodes(m) < self.next.load(Ordering::Relaxed) {
            return None;
        }
        let report = sift(m, groups, Sifting::default());
        self.next.store((2 * report.after).max(self.first), Ordering::Relaxed);
        self.runs.fetch_add(1, Ordering::Relaxed);
        self.last_after.store(report.after, Ordering::Relaxed);
        Some(report)
    }
}

#[cfg(test)]
mod tests {
    use super::{Sifting, sift};
    use crate::symbolic::Bdd;
    use oxidd::{BooleanFunction, Function, Manager, ManagerRef, VarNo};

    /// The first `n` variables of a new manager. Only the manager-level calls (`add_vars`,
    /// `var`) run inside `with_manager_exclusive`: oxidd's `Function` operations (`and`, `not`,
    /// `eval`, …) take the manager's lock for shared access themselves, and that lock is not
    /// reentrant, so calling them inside the exclusive closure blocks the thread for good (what
    /// made these tests hang at 0 % CPU before).
    fn new_vars(n: u32) -> (oxidd::bcdd::BCDDManagerRef, Vec<Bdd>) {
        let mref = oxidd::bcdd::new_manager(1 << 16, 1 << 12, 1);
        let vars = mref.with_manager_exclusive(|m| {
            m.add_vars(n);
            (0..n).map(|i| Bdd::var(m, i).expect("var")).collect()
        });
        (mref, vars)
    }

    /// Truth table of `f` over `n` variables (variable i = bit i of the row).
    fn table(f: &Bdd, n: u32) -> Vec<bool> {
        (0..1u32 << n).map(|row| f.eval((0..n).map(|i| (i as VarNo, row >> i & 1 == 1)))).collect()
    }

    /// `x_i ⇔ y_i` for all i with all x before all y: exponential; interleaved: linear.
    #[test]
    fn sifting_shrinks_the_comparator_and_keeps_its_function() {
        let n = 6u32;
        let (mref, vars) = new_vars(2 * n);
        let mut f = mref.with_manager_shared(|m| Bdd::t(m));
        for i in 0..n as usize {
            f = f.and(&vars[i].equiv(&vars[i + n as usize]).expect("equiv")).expect("and");
        }
        let before = table(&f, 2 * n);
        let groups: Vec<Vec<VarNo>> = (0..2 * n).map(|v| vec![v]).collect();
        let report = mref.with_manager_exclusive(|m| sift(m, &groups, Sifting::default()));
        assert_eq!(table(&f, 2 * n), before, "sifting changed the function");
        assert!(report.after <= report.before, "{report:?}");
        // Bad order: 3·2^n - 1 nodes, plus the literals; interleaved: 3n plus the literals.
        assert!(report.before > 3 * (1 << n) - 1, "{report:?}");
        assert!(report.after <= 3 * n as usize + vars.len(), "{report:?}");
        // Interleaved, with complement edges: an x node and two y nodes per pair, one y node for
        // the last pair (y and ¬y share it), and the terminal.
        assert_eq!(f.node_count(), 3 * n as usize);
    }

    /// Random functions over 8 variables, groups of two: unchanged functions, no growth, and no
    /// kept position above the growth limit of the start.
    #[test]
    fn sifting_random_functions_keeps_them_and_never_grows() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..30 {
            let n = 8u32;
            let (mref, vars) = new_vars(n);
            let (t, ff) = mref.with_manager_shared(|m| (Bdd::t(m), Bdd::f(m)));
            let roots: Vec<Bdd> = (0..3)
                .map(|_| {
                    let mut f = ff.clone();
                    for _ in 0..6 {
                        let mut cube = t.clone();
                        for v in &vars {
                            match rand() % 3 {
                                0 => cube = cube.and(v).expect("and"),
                                1 => cube = cube.and(&v.not().expect("not")).expect("and"),
                                _ => {}
                            }
                        }
                        f = f.or(&cube).expect("or");
                    }
                    f
                })
                .collect();
            let tables: Vec<Vec<bool>> = roots.iter().map(|f| table(f, n)).collect();
            let groups: Vec<Vec<VarNo>> = (0..n / 2).map(|g| vec![2 * g, 2 * g + 1]).collect();
            let limits = Sifting::default();
            let report = mref.with_manager_exclusive(|m| sift(m, &groups, limits));
            for (f, t) in roots.iter().zip(&tables) {
                assert_eq!(&table(f, n), t, "sifting changed a function");
            }
            assert!(report.after <= report.before, "{report:?}");
            assert!(report.peak_kept as f64 <= limits.max_growth * report.before as f64, "{report:?}");
            // Groups stay together, their variables in order.
            mref.with_manager_shared(|m| {
                for g in &groups {
                    assert_eq!(m.var_to_level(g[0]) + 1, m.var_to_level(g[1]), "group {g:?} split");
                }
            });
        }
    }
}
