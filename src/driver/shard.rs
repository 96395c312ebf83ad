//! `--shard I/N`: check only the I-th of N deterministic slices of a file's specs, so that a
//! spec suite too big for one machine runs as an array job (Slurm job arrays, Kubernetes
//! indexed Jobs) and the outputs are merged afterwards.
//!
//! The slices are contiguous runs of the *report order* (every CTL spec in file order, then
//! every LTL spec, then every invariant, as NuSMV reports them): slice `I` (1-based) holds the
//! positions `⌊(I-1)·S/N⌋ .. ⌊I·S/N⌋` of the `S` specs. So the `specs` arrays of the JSON
//! documents of shards `1..N`, concatenated in order, are those of one run over all specs
//! (except `time_ms`), and every spec is in exactly one shard. The slice depends on the file alone, never on the machine or `-j`.

use crate::lowering::program::LoweredSpec;

/// Parses `I/N` (`1 ≤ I ≤ N`).
pub fn parse(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{text}` is not a shard: write I/N with 1 <= I <= N, e.g. `--shard 3/8` for the third of eight slices");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Keeps the specs of shard `i` of `n` (in their file order).
pub(crate) fn select(specs: &mut Vec<LoweredSpec>, (i, n): (usize, usize)) {
    let mut order: Vec<usize> = (0..specs.len()).collect();
    order.sort_by_key(|&k| crate::properties::group(specs[k].kind));
    let (lo, hi) = (specs.len() * (i - 1) / n, specs.len() * i / n);
    let mut keep = vec![false; specs.len()];
    for &k in &order[lo..hi] {
        keep[k] = true;
    }
    let mut k = 0;
    specs.retain(|_| {
        k += 1;
        keep[k - 1]
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ctl::Ctl;
    use crate::explicit::test_support::spec;
    use crate::ir::SpecKind;

    #[test]
    fn shards_partition_the_report_order() {
        let mut all = Vec::new();
        for k in 0..10 {
            let mut s = spec(0, Ctl::True, &format!("s{k}"));
            s.kind = [SpecKind::Invar, SpecKind::Compute, SpecKind::Ctl][k % 3];
            all.push(s);
        }
        // The report prints CTL, then COMPUTE, then invariants (each in file order).
        let kinds = [SpecKind::Ctl, SpecKind::Compute, SpecKind::Invar];
        let in_report_order =
            |specs: &[LoweredSpec]| -> Vec<String> { kinds.iter().flat_map(|&k| specs.iter().filter(move |s| s.kind == k).map(|s| s.text.clone())).collect() };
        let report_order = in_report_order(&all);
        let mut merged = Vec::new();
        for i in 1..=4 {
            let mut specs = all.clone();
            select(&mut specs, (i, 4));
            assert!(specs.len() == 2 || specs.len() == 3, "balanced: {}", specs.len());
            merged.extend(in_report_order(&specs));
        }
        assert_eq!(merged, report_order);
        let mut one = all.clone();
        select(&mut one, (1, 1));
        assert_eq!(one.len(), 10);
        let mut empty = all[..2].to_vec();
        select(&mut empty, (2, 5));
        assert!(empty.is_empty(), "more shards than specs: some are empty");
    }

    #[test]
    fn shard_syntax() {
        assert_eq!(parse("3/8"), Ok((3, 8)));
        assert_eq!(parse("1/1"), Ok((1, 1)));
        for bad in ["0/4", "5/4", "3", "a/b", "1/0", "-1/2"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
