//! Cooperative cancellation for `--spec-timeout`: a per-spec deadline that the checkers poll in
//! their outer loops, and the clock that runs one spec's check under it.
//!
//! A shared utility rather than part of `check`: the engines poll it, and so do the BDD path
//! searches of `symbolic::rings`, which the symbolic model (a stage before `check`) shares with
//! the BDD checker. The driver owns the clocks.
//!
//! The token is a [`SpecClock`]: a rayon pool whose worker threads carry the clock's deadline
//! in a thread-local from the moment they start (`ThreadPoolBuilder::start_handler`), so every
//! piece of a check — the calling code and its parallel parts — sees the deadline without a
//! parameter in every fixpoint's signature. A pool an engine builds for itself inside a check
//! ([`pool_builder`]) inherits the deadline of the thread that builds it.
//!
//! The checkers call [`poll`] once per iteration of a loop whose iterations are expensive (a BDD
//! image, a fixpoint round) and [`tick`] in loops whose iterations are cheap (a worklist pop;
//! it reads the clock every [`TICKS_PER_READ`] iterations, counting with the loop's own
//! counter). Outside a clock a poll costs one thread-local read. When the deadline has passed they unwind with a [`TimedOut`] payload
//! (`std::panic::resume_unwind`, which runs no panic hook: nothing is printed), which rayon
//! carries back to the caller of the parallel section and [`SpecClock::run`] catches — the
//! cancellation scheme salsa and rustc use. What the unwinding drops is the spec's own
//! working state: a check is run on one spec at a time under a clock and the models are not
//! modified by checking, so the next spec starts from a clean slate. Any other panic is resumed
//! unchanged.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How many [`tick`]s pass between two readings of the clock.
pub(crate) const TICKS_PER_READ: usize = 1024;

/// The payload of the unwinding that cancels a check whose deadline has passed.
#[derive(Debug)]
pub(crate) struct TimedOut;

/// The deadline shared by the threads of one clock: nanoseconds after `base`, `u64::MAX` when no
/// spec is running.
#[derive(Debug)]
struct Shared {
    base: Instant,
    at: AtomicU64,
}

impl Shared {
    fn passed(&self) -> bool {
        let at = self.at.load(Ordering::Relaxed);
        at != u64::MAX && self.base.elapsed().as_nanos() >= u128::from(at)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<Shared>>> = const { RefCell::new(None) };
}

/// Unwinds with [`TimedOut`] when the current thread runs under a clock whose deadline has passed.
#[inline]
pub(crate) fn poll() {
    if CURRENT.with(|c| c.borrow().as_ref().is_some_and(|shared| shared.passed())) {
        resume_unwind(Box::new(TimedOut));
    }
}

/// [`poll`] for cheap loop iterations, given the iteration's number: reads the clock when `i`
/// is a multiple of [`TICKS_PER_READ`] (a loop without a counter keeps one for this).
#[inline]
pub(crate) fn tick(i: usize) {
    if i.is_multiple_of(TICKS_PER_READ) {
        poll();
    }
}

/// A rayon pool builder for a pool built inside a check: its threads carry the deadline of the
/// calling thread, if any.
pub(crate) fn pool_builder() -> rayon::ThreadPoolBuilder {
    let builder = rayon::ThreadPoolBuilder::new();
    match CURRENT.with(|c| c.borrow().clone()) {
        Some(shared) => builder.start_handler(move |_| CURRENT.with(|c| *c.borrow_mut() = Some(shared.clone()))),
        None => builder,
    }
}

/// Runs checks one spec at a time, each under its own time limit.
pub(crate) struct SpecClock {
    shared: Arc<Shared>,
    pool: rayon::ThreadPool,
    limit: Duration,
}

impl SpecClock {
    /// A clock giving each spec `limit`, checking on `threads` worker threads (0 = all cores).
    pub(crate) fn new(limit: Duration, threads: usize) -> Result<SpecClock, String> {
        let shared = Arc::new(Shared { base: Instant::now(), at: AtomicU64::new(u64::MAX) });
        let theirs = shared.clone();
        let pool = (rayon::ThreadPoolBuilder::new().num_threads(threads))
            .start_handler(move |_| CURRENT.with(|c| *c.borrow_mut() = Some(theirs.clone())))
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        Ok(SpecClock { shared, pool, limit })
    }

    /// The time each spec gets.
    pub(crate) fn limit(&self) -> Duration {
        self.limit
    }

    /// Runs `job` on the clock's threads with the deadline `limit` from now; `None` when the
    /// deadline passed first (the job was cancelled at one of its polls).
    pub(crate) fn run<T: Send>(&self, job: impl FnOnce() -> T + Send) -> Option<T> {
        let at = self.shared.base.elapsed() + self.limit;
        self.shared.at.store(u64::try_from(at.as_nanos()).unwrap_or(u64::MAX - 1), Ordering::Relaxed);
        let result = catch_unwind(AssertUnwindSafe(|| self.pool.install(job)));
        self.shared.at.store(u64::MAX, Ordering::Relaxed);
        match result {
            Ok(value) => Some(value),
            Err(payload) if payload.is::<TimedOut>() => None,
            Err(payload) => resume_unwind(payload),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn a_job_past_its_deadline_is_cancelled_and_the_next_runs() {
        let clock = SpecClock::new(Duration::ZERO, 2).expect("a pool");
        // Cancelled in a parallel part, on whichever worker polls first.
        assert_eq!(clock.run(|| (0..1000u64).into_par_iter().map(|i| (poll(), i).1).sum::<u64>()), None);
        let clock = SpecClock { limit: Duration::from_secs(3600), ..clock };
        assert_eq!(clock.run(|| (0..1000u64).into_par_iter().map(|i| (poll(), i).1).sum::<u64>()), Some(499_500));
    }

    #[test]
    fn ticks_read_the_clock_now_and_then_and_pools_built_inside_inherit_it() {
        let clock = SpecClock::new(Duration::ZERO, 1).expect("a pool");
        let ticks = clock.run(|| {
            let mut n = 0usize;
            loop {
                tick(n);
                n += 1;
            }
            #[allow(unreachable_code)]
            n
        });
        assert_eq!(ticks, None);
        let inner = clock.run(|| pool_builder().num_threads(1).build().map(|p| p.install(poll)));
        assert!(inner.is_none());
    }

    #[test]
    fn outside_a_clock_polls_do_nothing_and_other_panics_pass_through() {
        poll();
        tick(0);
        let clock = SpecClock::new(Duration::from_secs(3600), 1).expect("a pool");
        let other = catch_unwind(AssertUnwindSafe(|| clock.run(|| resume_unwind(Box::new("boom")))));
        assert!(other.is_err_and(|p| p.downcast_ref::<&str>() == Some(&"boom")));
    }
}
