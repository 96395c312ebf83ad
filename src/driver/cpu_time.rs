//! The process's CPU seconds (user + system, every thread), the clock by which `--engine auto`
//! ([`super::flat_engine`]) compares the cost of its explicit attempt and of its BDD probe: on a
//! shared machine wall-clock seconds also count the time other processes run.
//!
//! Assumes a POSIX system with `CLOCK_PROCESS_CPUTIME_ID`; where it is missing the clock reads 0
//! and `auto` then sees every attempt as free (it never gives up its BDD probe early).

/// CPU seconds the process has used so far.
pub(crate) fn process_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the duration of the call.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
    if ok { t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9 } else { 0.0 }
}
