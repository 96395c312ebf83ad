//! The front end's parallelism: an order-preserving parallel map on a rayon pool whose workers
//! have the front end's large stacks (parsing, resolution and lowering recurse over expressions).
//!
//! Results come back in input order and each item is processed independently, so the output
//! (and the order of diagnostics assembled from it) does not depend on the number of threads.
//! Without a pool (threads cannot be started) the map runs sequentially on the caller's thread.

use rayon::prelude::*;
use std::cell::Cell;
use std::sync::OnceLock;

thread_local! {
    static SEQUENTIAL: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with every [`map_ordered`] called on this thread done sequentially: tests compare
/// the two modes.
pub fn sequentially<R>(f: impl FnOnce() -> R) -> R {
    let before = SEQUENTIAL.with(|s| s.replace(true));
    let result = f();
    SEQUENTIAL.with(|s| s.set(before));
    result
}

/// Stack of the front end's threads: the parser and the semantic passes recurse over
/// expressions up to [`crate::semantics::resolve::MAX_DEPTH`] levels (plus DEFINE expansion);
/// debug builds need far more than the 2 MiB of a default thread. The memory is only reserved,
/// pages are touched as the recursion goes.
pub const FRONT_END_STACK: usize = 256 << 20;

/// At most this many workers: the front end's parallel parts are short. `-j N` ([`set_threads`])
/// or the environment variable `XMV_FRONT_THREADS` sets the number (1: no pool, everything
/// sequential).
const MAX_THREADS: usize = 8;

/// Workers requested with `-j` (0: not set).
static REQUESTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The front end's worker count, as `-j N` gives it; only effective before the first parallel
/// map of the process (the pool is built once).
pub fn set_threads(n: usize) {
    REQUESTED.store(n, std::sync::atomic::Ordering::Relaxed);
}

fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let available = std::thread::available_parallelism().map_or(1, |n| n.get());
        let requested = Some(REQUESTED.load(std::sync::atomic::Ordering::Relaxed)).filter(|&n| n > 0);
        let from_env = std::env::var("XMV_FRONT_THREADS").ok().and_then(|v| v.parse().ok());
        let threads = requested.or(from_env).unwrap_or(available).min(MAX_THREADS);
        if threads < 2 {
            return None;
        }
        let built = rayon::ThreadPoolBuilder::new().num_threads(threads).stack_size(FRONT_END_STACK).thread_name(|i| format!("xmv-front-{i}")).build();
        built.ok()
    })
    .as_ref()
}

/// Whether [`map_ordered`] runs in parallel on this thread (a pool exists and
/// [`sequentially`] is not in force): callers skip splitting work that would not be shared.
pub(crate) fn is_parallel() -> bool {
    pool().is_some() && !SEQUENTIAL.with(Cell::get)
}

/// `items.map(f)` in parallel when there are at least `min_items`, results in input order.
pub(crate) fn map_ordered<T: Sync, R: Send>(items: &[T], min_items: usize, f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    match pool() {
        Some(pool) if items.len() >= min_items.max(2) && !SEQUENTIAL.with(Cell::get) => pool.install(|| items.par_iter().map(&f).collect()),
        _ => items.iter().map(f).collect(),
    }
}

/// `f(i, &mut items[i])` for every item, in parallel when there are at least `min_items`;
/// results in input order. Each call may only touch its own item, so the items come out the
/// same for every number of threads.
pub(crate) fn map_ordered_mut<T: Send, R: Send>(items: &mut [T], min_items: usize, f: impl Fn(usize, &mut T) -> R + Sync + Send) -> Vec<R> {
    match pool() {
        Some(pool) if items.len() >= min_items.max(2) && !SEQUENTIAL.with(Cell::get) => {
            pool.install(|| items.par_iter_mut().enumerate().map(|(i, t)| f(i, t)).collect())
        }
        _ => items.iter_mut().enumerate().map(|(i, t)| f(i, t)).collect(),
    }
}
