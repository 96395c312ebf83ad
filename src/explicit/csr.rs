//! Compressed sparse rows: the adjacency lists of explicit graphs as two flat arrays.

/// `targets[offsets[v]..offsets[v+1]]` are the neighbours of node `v`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr {
    pub offsets: Vec<u32>,
    pub targets: Vec<u32>,
}

// `len` without `is_empty`: nothing asks whether it is empty (an `is_empty` would be dead code
// once the type is `pub(crate)`, tools/visibility/sweep.sh).
#[allow(clippy::len_without_is_empty)]
impl Csr {
    /// Builds from an edge list over `n` nodes; neighbours of each node keep the input order.
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Csr {
        let mut offsets = vec![0u32; n + 1];
        for &(s, _) in edges {
            offsets[s as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(s, t) in edges {
            targets[fill[s as usize] as usize] = t;
            fill[s as usize] += 1;
        }
        Csr { offsets, targets }
    }

    /// The reverse graph (each node's predecessors in ascending order, as an edge list sorted
    /// by source would give), counted and filled in place: no edge list.
    pub fn transpose(&self) -> Csr {
        let n = self.len();
        let mut offsets = vec![0u32; n + 1];
        for &w in &self.targets {
            offsets[w as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill: Vec<u32> = offsets[..n].to_vec();
        let mut targets = vec![0u32; self.targets.len()];
        for v in 0..n {
            for &w in self.neighbours(v as u32) {
                targets[fill[w as usize] as usize] = v as u32;
                fill[w as usize] += 1;
            }
        }
        Csr { offsets, targets }
    }

    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
    pub fn neighbours(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_is_the_reverse_edge_list_in_source_order() {
        let edges = [(0, 2), (0, 1), (2, 0), (1, 2), (2, 2), (3, 0)];
        let g = Csr::from_edges(4, &edges);
        let mut reversed: Vec<(u32, u32)> = edges.iter().map(|&(s, t)| (t, s)).collect();
        reversed.sort_by_key(|&(_, s)| s);
        assert_eq!(g.transpose(), Csr::from_edges(4, &reversed));
        assert_eq!(Csr::from_edges(0, &[]).transpose(), Csr::from_edges(0, &[]));
    }
}
