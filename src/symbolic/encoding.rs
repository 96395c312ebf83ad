//! The BDD variables of a flat model and how values are encoded on them.
//!
//! Every variable's value index (its position in its [`Domain`], as in explicit states) is
//! written in binary on `⌈log2 |domain|⌉` bits, most significant bit first; a word's index is its
//! bit pattern, so a word variable is its bits. State variables have a current and a next copy of
//! each bit, interleaved (`x₁ x₁' x₂ x₂' …`), so renaming between the copies keeps the order;
//! input variables (`IVAR`) have one copy, quantified away in images.
//!
//! Static order: the variables in the order [`super::order::static_order`] chooses (the
//! flattened declaration order — instances of a module stay together, as NuSMV's default order
//! does — unless a FORCE order gathers the relation's parts much better), then, inside a
//! variable, its bits from the most significant one. Words of one width that a transition part
//! reads together have their bits interleaved (`a.7 b.7 a.6 b.6 …`, as NuSMV's default order),
//! placed where the first of them comes ([`super::order::interleaved_words`]). With dynamic
//! reordering on ([`super::reorder`], `--reorder`), each variable's bits (current and next
//! interleaved), or a group of interleaved words' bits, are one sifting group, moved at safe points ([`Encoding::maybe_reorder`]). `--stats` reports the
//! number of BDD variables and the peak node count, so an order change is measurable. States
//! picked from a BDD are the least in the declaration order whatever the levels are, so traces
//! do not depend on the order.
//!
//! A word variable's bits are its bit pattern, however wide; a state's value index for a word
//! wider than [`crate::ir::words::MAX_VAR_WIDTH`] bits numbers the patterns met
//! ([`crate::ir::word_values`]), so [`Encoding::value_is`] and the states picked translate.
//! Assumes ranges and enumerations have at most
//! [`crate::lowering::program::MAX_TABLE_DOMAIN`] values (larger ones are refused with an error
//! naming the variable).

use super::reorder::AutoReorder;
use super::{Bdd, SymResult, SymbolicError};
use crate::ir::VarKind;
use crate::ir::WideValues;
use crate::lowering::program::{Domain, System, VarId};
use oxidd::bcdd::BCDDManagerRef;
use oxidd::{BooleanFunction, BooleanFunctionQuant, FunctionSubst, Manager, ManagerRef, Subst, VarNo};
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

/// Which copy of a variable an expression reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Copy {
    Cur,
    Next,
}

/// The BDD variables of one system.
pub(crate) struct Encoding {
    pub manager: BCDDManagerRef,
    /// Per system variable: its current bits (BDD variable numbers, most significant first).
    cur_bits: Vec<Vec<VarNo>>,
    /// Per system variable: its next bits (empty for inputs).
    next_bits: Vec<Vec<VarNo>>,
    /// Groups of word variables whose bits are interleaved ([`super::order::interleaved_words`]);
    /// each is one sifting group.
    interleaved: Vec<Vec<usize>>,
    /// Domain sizes (2^width, saturated, for words).
    lens: Vec<usize>,
    /// Per system variable: the value table of a word wider than
    /// [`crate::ir::words::MAX_VAR_WIDTH`] bits, whose bits hold the bit pattern while a state's
    /// value index numbers the patterns met ([`crate::ir::word_values`]).
    wide: Vec<Option<WideValues>>,
    /// One function per BDD variable.
    vars: Vec<Bdd>,
    pub kinds: Vec<VarKind>,
    /// The automatic reordering's trigger, when it is on.
    reorder: Option<AutoReorder>,
    /// Variables not at their declaration position (for `--stats`).
    pub moved_vars: usize,
    /// Whether the apply cache is smaller than [`cache_entries`] gives for the model.
    pub small_cache: bool,
    /// Node count past which [`Encoding::check_growth`] fails (`usize::MAX`: never).
    outgrow_at: AtomicUsize,
    /// Capacity of the node table, and the node count from which the engine collects dead nodes
    /// itself at its next safe point ([`Encoding::collect_when_nearly_full`]).
    capacity: usize,
    collect_at: AtomicUsize,
    /// Cubes of all current state bits, all next state bits, all input bits.
    pub cur_cube: Bdd,
    pub next_cube: Bdd,
    pub input_cube: Bdd,
    /// Number of current-state bits (for counting states).
    pub state_bits: u32,
    next_to_cur: Subst<Bdd>,
    cur_to_next: Subst<Bdd>,
    t: Bdd,
    f: Bdd,
}

/// Apply-cache entries for a model of `bdd_vars` variables. oxidd allocates and initialises its
/// direct-mapped cache when the manager is created (~20 bytes an entry) and cannot grow it, so
/// the size is chosen here from the model: 2^16 entries (1.3 MB) up to 15 variables, doubling
/// every 8 variables, at most 2^22 (80 MB) from 56 variables on, and no more than the node
/// capacity. Measured (CPU s, peak RSS, `--engine bdd`, shared machine): `gas-nq7.smv` 8.95 s
/// with 2^18 entries, 6.40 s with 2^20, 4.59 s / 356 MB with 2^22, 4.69 s / 602 MB with 2^24;
/// `abp8.smv` 0.9-1.1 s with 2^18 to 2^24 (146 MB to 471 MB); pyboolnet's asynchronous
/// calzone_cellfate (56 BDD variables, `EF STEADYSTATE`, preimages of 30K-node sets) 23.6 s with
/// 2^18 (the size of 12 variables a doubling), 13.1 s with 2^20, 6.6 s / 264 MB with 2^22.
fn cache_entries(bdd_vars: VarNo, nodes: usize) -> usize {
    let log = (15 + bdd_vars / 8).clamp(16, 22);
    (1usize << log).min(nodes.max(1 << 16))
}

/// Bytes of one node slot in oxidd's node table (`oxidd-manager-index` 0.13; its allocation for
/// 206 M nodes, the default budget's on a 24 GB machine, was 3,297,506,096 bytes).
const NODE_SLOT_BYTES: usize = 16;
/// Bytes of one apply-cache entry, rounded up (2^22 entries take about 80 MB).
const CACHE_ENTRY_BYTES: usize = 24;

/// oxidd allocates the whole node table and apply cache when a manager is created and aborts
/// the process when that allocation fails (under `ulimit -v`, or a `--max-memory` above what the
/// machine can give). Asks the operating system for the same bytes first, with room for the
/// worker threads' stacks when their size is set, and gives them back at once: a failure is an
/// error for the user instead of an abort. (The system allocator, not the global one: mimalloc
/// would keep the freed block reserved.)
fn reserve_up_front(nodes: usize, cache: usize, threads: u32) -> SymResult<()> {
    // The stacks only when their size is set (the command line sets it under a limit): the
    // default 1 GiB a thread is address space that no limit constrains then, and one block of
    // the sum could exceed what the kernel's overcommit check allows in one piece.
    let stacks = std::env::var("OXIDD_STACK_SIZE").ok().and_then(|s| s.parse::<usize>().ok()).unwrap_or(0);
    let bytes =
        nodes.saturating_mul(NODE_SLOT_BYTES).saturating_add(cache.saturating_mul(CACHE_ENTRY_BYTES)).saturating_add(stacks.saturating_mul(threads as usize));
    let failed = || {
        SymbolicError(format!(
            "could not reserve {} for the BDD node table (a third of --max-memory), its cache and its threads: the process's memory limit (`ulimit -v`) or the machine has less; lower --max-memory",
            crate::explicit::budget::format_size(bytes as u64)
        ))
    };
    let layout = std::alloc::Layout::from_size_align(bytes.max(1), 4096).map_err(|_| failed())?;
    use std::alloc::GlobalAlloc;
    // SAFETY: `layout` has a non-zero size.
    let block = unsafe { std::alloc::System.alloc(layout) };
    if block.is_null() {
        return Err(failed());
    }
    // SAFETY: `block` was allocated just above by the same allocator with the same layout, and
    // was never read or written.
    unsafe { std::alloc::System.dealloc(block, layout) };
    Ok(())
}

/// Percentage of the node table from which the engine collects dead nodes at its safe points
/// ([`Encoding::collect_when_nearly_full`]); oxidd's own thread starts at 95.
const COLLECT_FROM_PERCENT: usize = 85;

/// The node count of the engine's first collection in a table of `capacity` nodes.
fn first_collection(capacity: usize) -> usize {
    capacity / 100 * COLLECT_FROM_PERCENT
}

fn bits_for(len: usize) -> usize {
    if len <= 1 { 0 } else { (usize::BITS - (len - 1).leading_zeros()) as usize }
}

impl Encoding {
    /// Allocates the variables of `system` in the static order `order` (position → variable, a
    /// permutation). `nodes`: capacity of the node table; `threads`: oxidd's worker threads.
    /// With at most `cache` apply-cache entries (`None`: [`cache_entries`] for the model's BDD
    /// variables). oxidd fills the whole cache when the manager is created, so a
    /// short job on a model with many variables (the static domain check of assignments) asks
    /// for a small one: 2^22 entries cost 80 MB and tens of milliseconds.
    pub(crate) fn with_cache(system: &System, order: &[usize], nodes: usize, cache: Option<usize>, threads: u32) -> SymResult<Encoding> {
        let mut lens = Vec::with_capacity(system.vars.len());
        let mut widths = Vec::with_capacity(system.vars.len());
        let mut wide = Vec::with_capacity(system.vars.len());
        for v in &system.vars {
            // A word is its bits, however wide; other domains are their value indices' bits.
            let (len, width) = match &v.domain {
                Domain::Word { width, .. } => (v.domain.len(), usize::from(*width)),
                d => {
                    let len = d.table_len().ok_or_else(|| {
                        SymbolicError(format!(
                            "the BDD engine encodes ranges and enumerations of up to 2^16 values; `{}` has more (use --engine explicit)",
                            v.name
                        ))
                    })?;
                    (len, bits_for(len))
                }
            };
            lens.push(len.max(1));
            widths.push(width);
            wide.push(match &v.domain {
                Domain::Word { wide: Some(values), .. } => Some(values.clone()),
                _ => None,
            });
        }
        let mut cur_bits = vec![vec![]; system.vars.len()];
        let mut next_bits = vec![vec![]; system.vars.len()];
        // A group of interleaved words is placed where its first member comes in `order`.
        let interleaved = super::order::interleaved_words(system);
        let mut group_of = vec![None; system.vars.len()];
        for (g, members) in interleaved.iter().enumerate() {
            for &v in members {
                group_of[v] = Some(g);
            }
        }
        let mut placed = vec![false; system.vars.len()];
        let mut n: VarNo = 0;
        for &v in order {
            if placed[v] {
                continue;
            }
            let members = group_of[v].map_or(std::slice::from_ref(&v), |g| interleaved[g].as_slice());
            let k = members.iter().map(|&m| widths[m]).max().unwrap_or(0);
            for bit in 0..k {
                for &m in members {
                    if bit >= widths[m] {
                        continue;
                    }
                    cur_bits[m].push(n);
                    n += 1;
                    if system.vars[m].kind != VarKind::Input {
                        next_bits[m].push(n);
                        n += 1;
                    }
                }
            }
            for &m in members {
                placed[m] = true;
            }
        }
        let moved_vars = order.iter().enumerate().filter(|&(i, &v)| i != v).count();
        let model_cache = cache_entries(n, nodes);
        let cache = cache.map_or(model_cache, |c| c.min(model_cache));
        reserve_up_front(nodes, cache, threads.max(1))?;
        let manager = oxidd::bcdd::new_manager(nodes, cache, threads.max(1));
        let (vars, t, f) = manager.with_manager_exclusive(|m| -> SymResult<(Vec<Bdd>, Bdd, Bdd)> {
            m.add_vars(n);
            let vars = (0..n).map(|i| Bdd::var(m, i)).collect::<Result<Vec<_>, _>>()?;
            Ok((vars, Bdd::t(m), Bdd::f(m)))
        })?;
        let kinds: Vec<VarKind> = system.vars.iter().map(|v| v.kind).collect();
        let cube = |bits: &mut dyn Iterator<Item = VarNo>| -> SymResult<Bdd> {
            let mut c = t.clone();
            for b in bits {
                c = c.and(&vars[b as usize])?;
            }
            Ok(c)
        };
        let state = |v: &usize| kinds[*v] != VarKind::Input;
        let cur_cube = cube(&mut (0..kinds.len()).filter(state).flat_map(|v| cur_bits[v].iter().copied()))?;
        let next_cube = cube(&mut next_bits.iter().flatten().copied())?;
        let input_cube = cube(&mut (0..kinds.len()).filter(|v| !state(v)).flat_map(|v| cur_bits[v].iter().copied()))?;
        let state_bits = next_bits.iter().map(|b| b.len() as u32).sum();
        let (mut from_next, mut to_cur, mut from_cur, mut to_next) = (vec![], vec![], vec![], vec![]);
        for v in 0..kinds.len() {
            for (&c, &x) in cur_bits[v].iter().zip(&next_bits[v]) {
                from_next.push(x);
                to_cur.push(vars[c as usize].clone());
                from_cur.push(c);
                to_next.push(vars[x as usize].clone());
            }
        }
        Ok(Encoding {
            manager,
            small_cache: cache < model_cache,
            outgrow_at: AtomicUsize::new(usize::MAX),
            capacity: nodes,
            collect_at: AtomicUsize::new(first_collection(nodes)),
            cur_bits,
            next_bits,
            interleaved,
            lens,
            wide,
            vars,
            reorder: super::reorder::dynamic_reordering().map(AutoReorder::new),
            moved_vars,
            kinds,
            cur_cube,
            next_cube,
            input_cube,
            state_bits,
            next_to_cur: Subst::new(from_next, to_cur),
            cur_to_next: Subst::new(from_cur, to_next),
            t,
            f,
        })
    }

    pub(crate) fn t(&self) -> Bdd {
        self.t.clone()
    }
    pub(crate) fn f(&self) -> Bdd {
        self.f.clone()
    }
    pub(crate) fn num_vars(&self) -> usize {
        self.kinds.len()
    }
    pub(crate) fn num_bdd_vars(&self) -> u32 {
        self.vars.len() as u32
    }
    pub(crate) fn domain_len(&self, v: VarId) -> usize {
        self.lens[v.index()]
    }
    pub(crate) fn is_input(&self, v: VarId) -> bool {
        self.kinds[v.index()] == VarKind::Input
    }

    pub(crate) fn bits(&self, v: VarId, copy: Copy) -> &[VarNo] {
        match copy {
            Copy::Cur => &self.cur_bits[v.index()],
            Copy::Next if self.is_input(v) => &self.cur_bits[v.index()],
            Copy::Next => &self.next_bits[v.index()],
        }
    }

    /// `v = index` on the given copy (a cube).
    pub(crate) fn value_is(&self, v: VarId, copy: Copy, index: usize) -> SymResult<Bdd> {
        let bits = self.bits(v, copy);
        let pattern = match &self.wide[v.index()] {
            Some(values) => values.0.bits(index).ok_or_else(|| SymbolicError(format!("internal error: no word value with index {index}")))?,
            None => index as u64,
        };
        let mut r = self.t();
        for (i, &b) in bits.iter().enumerate().rev() {
            let lit = &self.vars[b as usize];
            let bit = (pattern >> (bits.len() - 1 - i)) & 1 == 1;
            r = if bit { r.and(lit)? } else { r.and(&lit.not()?)? };
        }
        Ok(r)
    }

    /// Bit `k` (0: least significant) of `v`'s encoding on the given copy is 1 (of a word's bit
    /// pattern, of other variables' value index); `None` when there is no such bit.
    pub(crate) fn index_bit(&self, v: VarId, copy: Copy, k: usize) -> Option<&Bdd> {
        let bits = self.bits(v, copy);
        let b = *bits.get(bits.len().checked_sub(k + 1)?)?;
        self.vars.get(b as usize)
    }

    /// `v < len(domain)` on the given copy: the valid encodings.
    pub(crate) fn in_domain(&self, v: VarId, copy: Copy) -> SymResult<Bdd> {
        let bits = self.bits(v, copy);
        let len = self.lens[v.index()];
        if bits.len() >= usize::BITS as usize || len >= 1usize << bits.len() {
            return Ok(self.t());
        }
        // index < len, from the least significant bit up.
        let mut below = self.f();
        for (i, &b) in bits.iter().enumerate().rev() {
            let lit = &self.vars[b as usize];
            below = if (len >> (bits.len() - 1 - i)) & 1 == 1 { lit.not()?.or(&below)? } else { lit.not()?.and(&below)? };
        }
        Ok(below)
    }

    /// The cube of the bits of `vars` on one copy.
    pub(crate) fn cube_of(&self, vars: impl Iterator<Item = VarId>, copy: Copy) -> SymResult<Bdd> {
        let mut c = self.t();
        for v in vars {
            for &b in self.bits(v, copy) {
                c = c.and(&self.vars[b as usize])?;
            }
        }
        Ok(c)
    }

    /// `x' = x` for a state variable (frozen variables).
    pub(crate) fn unchanged(&self, v: VarId) -> SymResult<Bdd> {
        let mut r = self.t();
        for (&c, &n) in self.cur_bits[v.index()].iter().zip(&self.next_bits[v.index()]) {
            r = r.and(&self.vars[c as usize].equiv(&self.vars[n as usize])?)?;
        }
        Ok(r)
    }

    /// Renames next-state bits to current-state bits (`f` must not read current bits).
    pub(crate) fn to_cur(&self, f: &Bdd) -> SymResult<Bdd> {
        Ok(f.substitute(&self.next_to_cur)?)
    }

    /// Renames current-state bits to next-state bits (`f` must not read next bits).
    pub(crate) fn to_next(&self, f: &Bdd) -> SymResult<Bdd> {
        Ok(f.substitute(&self.cur_to_next)?)
    }

    /// The state (all variables' current copies, inputs at index 0) as a cube.
    pub(crate) fn state_cube(&self, values: &[u32]) -> SymResult<Bdd> {
        let mut r = self.t();
        for v in (0..self.num_vars()).map(VarId::new) {
            if !self.is_input(v) {
                r = r.and(&self.value_is(v, Copy::Cur, values[v.index()] as usize)?)?;
            }
        }
        Ok(r)
    }

    /// One state of `set` (a BDD over current bits; other bits are ignored): the least in the
    /// declaration order (variables as declared, bits from the most significant one, 0 first),
    /// value indices per variable, inputs 0; don't-care bits are 0 (so the index stays in the
    /// domain when `set` implies the domain constraints). `None` if `set` is empty.
    pub(crate) fn pick_state(&self, set: &Bdd) -> SymResult<Option<Vec<u32>>> {
        let only_cur = set.exists(&self.next_cube.and(&self.input_cube)?)?;
        if !self.levels_follow_declaration() {
            return self.least_state(only_cur);
        }
        // Levels in declaration order: the cube that always takes the 0 branch is the least.
        let Some(cube) = only_cur.pick_cube(|_, _, _| false) else { return Ok(None) };
        self.state_of_bits(|b| Ok(matches!(cube.get(b as usize), Some(oxidd::util::OptBool::True)))).map(Some)
    }

    /// `state` with its input slots set to the least input values of `inputs` (a set over input
    /// bits) in the declaration order, bit by bit from the most significant; `None` if `inputs`
    /// is empty.
    pub(crate) fn pick_inputs(&self, inputs: &Bdd, state: &[u32]) -> SymResult<Option<Vec<u32>>> {
        let mut set = inputs.clone();
        if !set.satisfiable() {
            return Ok(None);
        }
        let mut values = state.to_vec();
        for v in (0..self.num_vars()).filter(|&v| self.kinds[v] == VarKind::Input) {
            let mut pattern = 0u64;
            for &b in &self.cur_bits[v] {
                let lit = &self.vars[b as usize];
                let zero = set.and(&lit.not()?)?;
                let one = !zero.satisfiable();
                set = if one { set.and(lit)? } else { zero };
                pattern = pattern << 1 | u64::from(one);
            }
            values[v] = self.index_of_pattern(v, pattern)?;
        }
        Ok(Some(values))
    }

    /// The value index of variable `v` whose bits hold `pattern`.
    fn index_of_pattern(&self, v: usize, pattern: u64) -> SymResult<u32> {
        Ok(match &self.wide[v] {
            Some(values) => {
                let index = values
                    .0
                    .index(pattern)
                    .ok_or_else(|| SymbolicError(format!("more than {} values of one wide word", crate::ir::word_values::MAX_WIDE_VALUES)))?;
                index as u32
            }
            None => pattern as u32,
        })
    }

    /// Whether the current state bits' levels follow the declaration order (then the cube that
    /// always takes the 0 branch is the least state in that order). Asked each time: a dynamic
    /// reordering may have changed the levels.
    fn levels_follow_declaration(&self) -> bool {
        self.manager.with_manager_shared(|m| {
            let mut levels = (0..self.num_vars()).filter(|&v| self.kinds[v] != VarKind::Input).flat_map(|v| &self.cur_bits[v]).map(|&b| m.var_to_level(b));
            let Some(mut last) = levels.next() else { return true };
            levels.all(|l| std::mem::replace(&mut last, l) < l)
        })
    }

    /// The least state of `set` (over current state bits) in the declaration order, bit by bit.
    fn least_state(&self, mut set: Bdd) -> SymResult<Option<Vec<u32>>> {
        if !set.satisfiable() {
            return Ok(None);
        }
        self.state_of_bits(|b| {
            let lit = &self.vars[b as usize];
            let zero = set.and(&lit.not()?)?;
            Ok(if zero.satisfiable() {
                set = zero;
                false
            } else {
                set = set.and(lit)?;
                true
            })
        })
        .map(Some)
    }

    /// Value indices of the state variables (inputs 0) from their current bits' values, asked in
    /// the declaration order, most significant bit first (a wide word's pattern is numbered in
    /// its value table).
    fn state_of_bits(&self, mut bit: impl FnMut(VarNo) -> SymResult<bool>) -> SymResult<Vec<u32>> {
        let mut values = vec![0u32; self.num_vars()];
        for (v, value) in values.iter_mut().enumerate() {
            if self.kinds[v] == VarKind::Input {
                continue;
            }
            let mut pattern = 0u64;
            for &b in &self.cur_bits[v] {
                pattern = pattern << 1 | u64::from(bit(b)?);
            }
            *value = self.index_of_pattern(v, pattern)?;
        }
        Ok(values)
    }

    /// The number of states in `set` (a BDD over current state bits).
    pub(crate) fn count_states(&self, set: &Bdd) -> f64 {
        let mut cache = oxidd::util::SatCountCache::<oxidd::util::num::F64, std::hash::BuildHasherDefault<rustc_hash::FxHasher>>::default();
        let all = set.sat_count(self.num_bdd_vars(), &mut cache).0;
        all / 2f64.powi((self.num_bdd_vars() - self.state_bits) as i32)
    }

    /// A safe point for dynamic reordering (no BDD operation under way on this manager): sifts
    /// the variables' groups when the automatic trigger is due (see [`super::reorder`]).
    pub(crate) fn maybe_reorder(&self) {
        self.collect_when_nearly_full();
        let Some(auto) = &self.reorder else { return };
        if !auto.due(self.node_count()) {
            return;
        }
        let bits_of = |v: usize| self.cur_bits[v].iter().chain(&self.next_bits[v]).copied();
        let mut groups: Vec<Vec<VarNo>> = self.interleaved.iter().map(|g| g.iter().flat_map(|&v| bits_of(v)).collect()).collect();
        let grouped: Vec<usize> = self.interleaved.iter().flatten().copied().collect();
        groups.extend((0..self.num_vars()).filter(|v| !grouped.contains(v)).map(|v| bits_of(v).collect()));
        self.manager.with_manager_exclusive(|m| auto.run(m, &groups));
    }

    /// At a safe point (no BDD operation of this engine under way): collects the dead nodes when
    /// the node table is nearly full. oxidd collects on a background thread only from 95 % of
    /// the table, and an operation that fills the table before that thread is done fails: the
    /// same model then had its verdicts on one run and E0508 on the next (`tests/build/
    /// max-memory.smv` with a budget of 12–24 MiB, 2 to 4 runs in 8 failed). Collecting here,
    /// from [`COLLECT_FROM_PERCENT`] of the table, leaves a table that an operation fills only
    /// with live nodes, and the outcome no longer depends on that thread's timing. Until the
    /// next collection, half the room left after this one is used (a table full of live
    /// nodes is not collected at every safe point); a collection empties the apply cache, but
    /// only models near the node budget ever get here.
    pub(crate) fn collect_when_nearly_full(&self) {
        let at = self.collect_at.load(Relaxed);
        if self.manager.with_manager_shared(|m| m.approx_num_inner_nodes()) < at {
            return;
        }
        let after = self.manager.with_manager_shared(|m| {
            m.gc();
            m.approx_num_inner_nodes()
        });
        let room = self.capacity.saturating_sub(after);
        self.collect_at.store(first_collection(self.capacity).max(after + room / 2), Relaxed);
    }

    /// Dynamic reorderings done and the live nodes after the last one (`None`: reordering off).
    pub(crate) fn reorderings(&self) -> Option<(usize, usize)> {
        self.reorder.as_ref().map(|a| (a.runs.load(Relaxed), a.last_after.load(Relaxed)))
    }

    /// Current node count of the manager.
    pub(crate) fn node_count(&self) -> usize {
        self.manager.with_manager_shared(|m| m.num_inner_nodes())
    }

    /// From now on [`Encoding::check_growth`] fails once the manager holds more than `nodes`
    /// nodes (dead ones included: they are reclaimed only near the table's capacity);
    /// `usize::MAX` turns the watch off.
    pub(crate) fn watch_growth(&self, nodes: usize) {
        self.outgrow_at.store(nodes, Relaxed);
    }

    /// [`SymbolicError::outgrown`] when the manager has passed the node count given to
    /// [`Encoding::watch_growth`]. Called between BDD operations of a build (every 64th
    /// expression node evaluated, each part clustered, each image), so that the work lost by
    /// starting again is at most about that many nodes'. Reads the exact node count (one lock
    /// per BDD level), so the restart point is the same on every run.
    pub(crate) fn check_growth(&self) -> SymResult<()> {
        self.collect_when_nearly_full();
        let at = self.outgrow_at.load(Relaxed);
        if at != usize::MAX && self.node_count() > at { Err(SymbolicError::outgrown()) } else { Ok(()) }
    }
}
