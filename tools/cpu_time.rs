//! CPU time of the current process (user + system, all threads), for benchmarks that must stay
//! meaningful on a loaded machine, where wall time measures the other processes too. Included
//! with `#[path]`, since examples are separate crates.

/// CPU seconds used by this process so far (0 if `getrusage` fails).
pub fn cpu_seconds() -> f64 {
    // SAFETY: `rusage` is plain old data (integers and `timeval`s), for which all zeros is valid.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `getrusage` only writes the struct it is given, which lives for the call.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(u.ru_utime) + secs(u.ru_stime)
}
