//! The memory budget of state-space construction (`--max-memory`).
//!
//! The builders grow their big arrays (the state table's arena and hash slots, the successor
//! arrays, the BFS parent array, node kinds and edges of procedure modules) through
//! [`MemoryBudget`], which accounts the bytes each array has *reserved* (its capacity, not its
//! length). Growth doubles the capacity; while a buffer is copied the old and the new one are both
//! live, so a growth is refused when the bytes in use plus the new buffer exceed the limit.
//! While the capacity suffices a push costs one comparison (no syscall, no clock); the slow path
//! runs once per doubling. Every reservation is fallible (`try_reserve_exact`), so an allocation
//! the allocator refuses becomes a diagnostic too, never an abort. Capacities are set by this
//! module alone (exact reservations, doubling), so the bytes accounted are deterministic for a
//! given model.
//!
//! Not counted: the front end's program, the checker's working sets after construction, per-state
//! scratch buffers. The builders add their post-exploration needs (reverse edges, label bitsets)
//! with [`MemoryBudget::need`] before allocating them.

/// Why a reservation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OutOfMemory {
    /// The budget would be exceeded: `needed` bytes in use at the peak of the growth.
    Budget { needed: u64 },
    /// The allocator refused `bytes` more bytes.
    Allocator { bytes: u64 },
}

/// Bytes reserved by the tracked arrays, against an optional limit.
#[derive(Clone, Debug, Default)]
pub(crate) struct MemoryBudget {
    limit: Option<u64>,
    used: u64,
    /// Most bytes in use at one time so far, counting both buffers of a growth.
    peak: u64,
}

impl MemoryBudget {
    pub(crate) fn new(limit: Option<u64>) -> MemoryBudget {
        MemoryBudget { limit, used: 0, peak: 0 }
    }

    pub(crate) fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// Bytes reserved by the tracked arrays now.
    pub(crate) fn used(&self) -> u64 {
        self.used
    }

    /// Most bytes in use at one time so far (at the peak of a growth, old and new buffer).
    pub(crate) fn peak(&self) -> u64 {
        self.peak
    }

    /// Counts `bytes` already reserved outside this module (initial capacities).
    pub(crate) fn account(&mut self, bytes: u64) {
        self.used += bytes;
        self.peak = self.peak.max(self.used);
    }

    /// Returns `bytes` that were freed.
    pub(crate) fn release(&mut self, bytes: u64) {
        self.used = self.used.saturating_sub(bytes);
    }

    /// Whether `bytes` more can be live at the same time as everything accounted.
    pub(crate) fn need(&self, bytes: u64) -> Result<(), OutOfMemory> {
        let needed = self.used.saturating_add(bytes);
        match self.limit {
            Some(limit) if needed > limit => Err(OutOfMemory::Budget { needed }),
            _ => Ok(()),
        }
    }

    /// Room for `additional` more elements in `v`, growing it to at least twice its capacity
    /// when it is full.
    #[inline]
    pub(crate) fn reserve<T>(&mut self, v: &mut Vec<T>, additional: usize) -> Result<(), OutOfMemory> {
        if v.capacity() - v.len() >= additional {
            return Ok(());
        }
        self.grow(v, additional)
    }

    /// `v.push(x)` within the budget.
    #[inline]
    pub(crate) fn push<T>(&mut self, v: &mut Vec<T>, x: T) -> Result<(), OutOfMemory> {
        self.reserve(v, 1)?;
        v.push(x);
        Ok(())
    }

    #[cold]
    fn grow<T>(&mut self, v: &mut Vec<T>, additional: usize) -> Result<(), OutOfMemory> {
        let size = std::mem::size_of::<T>() as u64;
        let old = v.capacity();
        let new = (old * 2).max(v.len() + additional).max(16);
        let new_bytes = new as u64 * size;
        self.need(new_bytes)?;
        v.try_reserve_exact(new - v.len()).map_err(|_| OutOfMemory::Allocator { bytes: new_bytes })?;
        self.peak = self.peak.max(self.used.saturating_add(v.capacity() as u64 * size));
        // The allocator may round up; account what the vector reports.
        self.used = self.used.saturating_sub(old as u64 * size) + v.capacity() as u64 * size;
        Ok(())
    }

    /// A new vector of `n` copies of `value`, within the budget.
    pub(crate) fn filled<T: Clone>(&mut self, n: usize, value: T) -> Result<Vec<T>, OutOfMemory> {
        let bytes = n as u64 * std::mem::size_of::<T>() as u64;
        self.need(bytes)?;
        let mut v = Vec::new();
        v.try_reserve_exact(n).map_err(|_| OutOfMemory::Allocator { bytes })?;
        v.resize(n, value);
        self.used += v.capacity() as u64 * std::mem::size_of::<T>() as u64;
        self.peak = self.peak.max(self.used);
        Ok(v)
    }
}

/// Bytes reserved by a vector.
pub(crate) fn reserved<T>(v: &Vec<T>) -> u64 {
    v.capacity() as u64 * std::mem::size_of::<T>() as u64
}

/// Parses a size: plain bytes (`1048576`) or a number with a binary unit `K`, `M`, `G`, `T`
/// (`512M`, `1.5G`; an optional trailing `B` or `iB`, any case).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let body = lower.strip_suffix("ib").or_else(|| lower.strip_suffix('b')).unwrap_or(&lower);
    let (number, shift) = match body.chars().last() {
        Some('k') => (&body[..body.len() - 1], 10),
        Some('m') => (&body[..body.len() - 1], 20),
        Some('g') => (&body[..body.len() - 1], 30),
        Some('t') => (&body[..body.len() - 1], 40),
        _ => (body, 0),
    };
    let bad = || format!("`{text}` is not a size (examples: 512M, 4G, 1.5G, 1048576)");
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes >= u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

/// A size for messages: `1.5 GiB`, `512.0 MiB`, `900 bytes`.
pub(crate) fn format_size(bytes: u64) -> String {
    const UNITS: [(&str, u32); 4] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (unit, shift) in UNITS {
        if bytes >= 1u64 << shift {
            return format!("{:.1} {unit}", bytes as f64 / (1u64 << shift) as f64);
        }
    }
    format!("{bytes} bytes")
}

/// The default budget: this fraction of the memory the system reports as available.
pub(crate) const DEFAULT_FRACTION: f64 = 0.8;
/// The default budget when the available memory cannot be read (not Linux, no `/proc`).
pub(crate) const FALLBACK_BYTES: u64 = 4 << 30;

/// Address space a run takes beyond what the budget counts: the allocators' arenas (mimalloc
/// reserves 128–256 MiB at a time), the threads' stacks (the BDD workers' see `main.rs`), the
/// program. On the 2-core machine this project is measured on, a run under `ulimit -v 1000000`
/// had reserved about 0.9 GB before its first BDD manager; with 1 GiB here, `auto` on NuSMV's
/// gas-nq7 still aborted at `ulimit -v 1500000` (both engines' threads at once); with 1.5 GiB
/// none of 96 runs did (four models, three engines, eight limits from 0.4 to 3 GB).
pub(crate) const UNCOUNTED_ADDRESS_SPACE: u64 = 3 << 29;
/// The default budget under an address-space limit when the limit leaves less than that.
pub(crate) const MIN_DEFAULT_BYTES: u64 = 16 << 20;

/// The default `--max-memory`: 80 % of `MemAvailable` in `/proc/meminfo` (else 4 GiB); under an
/// address-space or data limit, no more than half of what the limit leaves beyond
/// [`UNCOUNTED_ADDRESS_SPACE`] (at least [`MIN_DEFAULT_BYTES`]). Without the second rule, a model
/// too big for the limit ended in an allocation abort instead of E0508.
pub fn default_limit() -> u64 {
    let memory = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| mem_available(&m)).map_or(FALLBACK_BYTES, |b| (b as f64 * DEFAULT_FRACTION) as u64);
    match process_memory_limit() {
        Some(limit) => memory.min((limit.saturating_sub(UNCOUNTED_ADDRESS_SPACE) / 2).max(MIN_DEFAULT_BYTES)),
        None => memory,
    }
}

/// The smaller soft limit of this process's address space (`ulimit -v`, `RLIMIT_AS`) and data
/// (`ulimit -d`, `RLIMIT_DATA`, which Linux also applies to private mappings) in bytes, from
/// `/proc/self/limits`; `None` when both are unlimited or unknown (not Linux).
pub fn process_memory_limit() -> Option<u64> {
    std::fs::read_to_string("/proc/self/limits").ok().and_then(|l| soft_limits(&l))
}

/// The smaller soft limit of the `Max address space` and `Max data size` lines of a
/// `/proc/self/limits` text.
fn soft_limits(limits: &str) -> Option<u64> {
    let soft = |name: &str| -> Option<u64> {
        let line = limits.lines().find(|l| l.starts_with(name))?;
        line[name.len()..].split_whitespace().next()?.parse().ok()
    };
    [soft("Max address space"), soft("Max data size")].into_iter().flatten().min()
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kib: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("100MB"), Ok(100 << 20));
        for bad in ["", "M", "-1G", "0", "1.5X", "abc", "1e30T"] {
            assert!(parse_size(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn sizes_format_in_the_largest_unit() {
        assert_eq!(format_size(900), "900 bytes");
        assert_eq!(format_size(1 << 20), "1.0 MiB");
        assert_eq!(format_size(3 << 29), "1.5 GiB");
    }

    #[test]
    fn meminfo_available_line() {
        let text = "MemTotal:       16000000 kB\nMemFree:         1000 kB\nMemAvailable:    8000000 kB\n";
        assert_eq!(mem_available(text), Some(8_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert!(default_limit() > 0);
    }

    #[test]
    fn address_space_and_data_limit_lines() {
        let head = "Limit                     Soft Limit           Hard Limit           Units     \n";
        let line = |name: &str, soft: &str| format!("{name:<26}{soft:<21}unlimited            bytes     \n");
        let stack = line("Max stack size", "8388608");
        let limited = format!("{head}{}{stack}{}", line("Max data size", "unlimited"), line("Max address space", "4096000000"));
        assert_eq!(soft_limits(&limited), Some(4_096_000_000));
        let both = format!("{head}{}{stack}{}", line("Max data size", "2000000000"), line("Max address space", "4096000000"));
        assert_eq!(soft_limits(&both), Some(2_000_000_000));
        let unlimited = format!("{head}{}{stack}{}", line("Max data size", "unlimited"), line("Max address space", "unlimited"));
        assert_eq!(soft_limits(&unlimited), None);
        assert_eq!(soft_limits(head), None);
        assert_eq!(soft_limits(&stack), None, "the stack limit is not a memory limit");
    }

    #[test]
    fn growth_counts_old_and_new_buffers_and_doubles() {
        let mut b = MemoryBudget::new(Some(1000));
        let mut v: Vec<u32> = Vec::new();
        for i in 0..100 {
            b.push(&mut v, i).expect("fits");
        }
        // 16 → 32 → 64 → 128 elements: 512 bytes.
        assert_eq!(v.capacity(), 128);
        assert_eq!(b.used(), 512);
        // Doubling to 256 needs 512 + 1024 bytes at the peak.
        for i in 100..128 {
            b.push(&mut v, i).expect("fits");
        }
        assert_eq!(b.push(&mut v, 0), Err(OutOfMemory::Budget { needed: 512 + 1024 }));
        assert_eq!(v.len(), 128);
        assert!(MemoryBudget::new(None).need(u64::MAX).is_ok());
    }

    #[test]
    fn allocator_refusal_is_an_error_not_an_abort() {
        let mut b = MemoryBudget::new(None);
        assert!(matches!(b.filled::<u64>(usize::MAX / 4, 0), Err(OutOfMemory::Allocator { .. })));
    }
}
