//! Per-thread CPU time at named points of a run, to see how much of a run uses both cores on a
//! shared machine, where wall-clock times say little.
//!
//! With the environment variable `XMV_CPU_TRACE` set, each [`mark`] writes one line to stderr:
//! the label, the wall time since the first mark, the CPU time of the whole process since the
//! previous mark and, per thread that ran at least 1 ms since then, its name and CPU ms (from
//! `/proc/self/task/*/{comm,schedstat}`, nanosecond run times). A stage whose work is on one
//! thread costs its CPU time in wall time on an idle machine; a stage spread over N threads
//! about its total over N. Threads that end between two marks are missed. Without the variable
//! (or without `/proc`) a mark costs one cached check; nothing is printed.

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// One thread's CPU time at a mark: (thread id, name, nanoseconds).
type ThreadTime = (u64, String, u64);

struct Trace {
    start: Instant,
    last: Mutex<Vec<ThreadTime>>,
}

fn trace() -> Option<&'static Trace> {
    static TRACE: OnceLock<Option<Trace>> = OnceLock::new();
    TRACE.get_or_init(|| std::env::var_os("XMV_CPU_TRACE").map(|_| Trace { start: Instant::now(), last: Mutex::new(Vec::new()) })).as_ref()
}

/// CPU nanoseconds of every thread of the process, by thread id.
fn thread_times() -> Vec<ThreadTime> {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    let mut out: Vec<ThreadTime> = (dir.flatten())
        .filter_map(|e| {
            let tid: u64 = e.file_name().to_str()?.parse().ok()?;
            let name = std::fs::read_to_string(e.path().join("comm")).ok()?.trim_end().to_string();
            let stat = std::fs::read_to_string(e.path().join("schedstat")).ok()?;
            Some((tid, name, stat.split_whitespace().next()?.parse().ok()?))
        })
        .collect();
    out.sort_unstable_by_key(|t| t.0);
    out
}

/// The line of one mark: `now` and `before` are the threads' times at this mark and the previous
/// one, `wall_ms` the time since the first mark.
fn line(label: &str, wall_ms: f64, before: &[ThreadTime], now: &[ThreadTime]) -> String {
    let mut ran: Vec<(&str, u64)> = (now.iter())
        .map(|(tid, name, ns)| {
            let earlier = before.iter().find(|t| t.0 == *tid).map_or(0, |t| t.2.min(*ns));
            (name.as_str(), ns - earlier)
        })
        .filter(|&(_, d)| d >= 1_000_000)
        .collect();
    ran.sort_by_key(|r| std::cmp::Reverse(r.1));
    let total: u64 = ran.iter().map(|r| r.1).sum();
    let threads: Vec<String> = ran.iter().map(|(name, d)| format!("{name}:{:.0}", *d as f64 / 1e6)).collect();
    format!("-- cpu: {label:<22} wall {wall_ms:>8.0} ms  cpu {:>7.0} ms  [{}]", total as f64 / 1e6, threads.join(" "))
}

/// Records the point `label` (see the module doc).
pub(crate) fn mark(label: &str) {
    let Some(t) = trace() else { return };
    let now = thread_times();
    let Ok(mut last) = t.last.lock() else { return };
    eprintln!("{}", line(label, t.start.elapsed().as_secs_f64() * 1e3, &last, &now));
    *last = now;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_lists_the_threads_that_ran_busiest_first() {
        let before = vec![(1, "main".to_string(), 5_000_000), (2, "xmv-front-0".to_string(), 0)];
        let now = vec![(1, "main".to_string(), 7_000_000), (2, "xmv-front-0".to_string(), 30_000_000), (3, "idle".to_string(), 10_000)];
        assert_eq!(line("parsed", 12.4, &before, &now), "-- cpu: parsed                 wall       12 ms  cpu      32 ms  [xmv-front-0:30 main:2]");
    }

    #[test]
    fn this_process_has_a_thread_with_a_cpu_time() {
        let times = thread_times();
        if std::path::Path::new("/proc/self/task").exists() {
            assert!(times.iter().any(|t| t.2 > 0));
        }
    }
}
