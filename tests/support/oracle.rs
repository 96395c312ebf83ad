//! Independent brute-force fair CTL, written from the path semantics for the tests only (no code
//! shared with `check::flat`): formulas are evaluated recursively per state with `Vec<bool>`;
//! path quantifiers are decided by naive searches over simple paths and reachability.
//!
//! A *fair path* is an infinite path visiting every fairness set infinitely often. On a finite
//! graph, a fair path staying in a set `A` starts at `s` iff `s` reaches (inside `A`) a state `c`
//! that lies on a closed walk inside `A` through every fairness set — i.e. `c` reaches itself in
//! at least one step and reaches, and is reached from, some state of each fairness set (for a
//! set of transitions: reaches the source of one whose target reaches back), all inside `A`. `E` quantifies over fair paths from the state, `A` over all of them (vacuously true
//! when there is none), as NuSMV does; a state is fair iff a fair path starts there.

use xmv_rs::ctl::Ctl;
use xmv_rs::ir::PropId;

#[derive(Clone, Debug)]
pub struct Model {
    pub succ: Vec<Vec<usize>>,
    pub init: Vec<usize>,
    /// `props[p][s]`
    pub props: Vec<Vec<bool>>,
    /// Indices into `props` of the fairness sets.
    pub fairness: Vec<usize>,
    /// Fairness sets of transitions `(from, to)`: a fair path takes one of each infinitely often.
    pub edge_fairness: Vec<Vec<(usize, usize)>>,
}

impl Model {
    pub fn n(&self) -> usize {
        self.succ.len()
    }

    /// States reachable from `s` by paths of length ≥ `min_steps` (0 or 1) whose states after
    /// `s` all satisfy `inside`.
    fn reach(&self, s: usize, inside: &[bool], min_steps: usize) -> Vec<bool> {
        let mut seen = vec![false; self.n()];
        let mut todo = Vec::new();
        if min_steps == 0 {
            seen[s] = true;
        }
        for &t in &self.succ[s] {
            if inside[t] && !seen[t] {
                seen[t] = true;
                todo.push(t);
            }
        }
        while let Some(u) = todo.pop() {
            for &t in &self.succ[u] {
                if inside[t] && !seen[t] {
                    seen[t] = true;
                    todo.push(t);
                }
            }
        }
        seen
    }

    /// Whether a fair path from `s` stays inside `inside` forever.
    pub fn fair_path_inside(&self, s: usize, inside: &[bool]) -> bool {
        if !inside[s] {
            return false;
        }
        let reachable = self.reach(s, inside, 0);
        (0..self.n()).filter(|&c| reachable[c]).any(|c| {
            let from_c = self.reach(c, inside, 1);
            from_c[c]
                && self.fairness.iter().all(|&f| (0..self.n()).any(|x| self.props[f][x] && inside[x] && from_c[x] && self.reach(x, inside, 0)[c]))
                && self.edge_fairness.iter().all(|edges| edges.iter().any(|&(x, y)| inside[x] && inside[y] && from_c[x] && self.reach(y, inside, 0)[c]))
        })
    }

    pub fn fair(&self) -> Vec<bool> {
        let all = vec![true; self.n()];
        (0..self.n()).map(|s| self.fair_path_inside(s, &all)).collect()
    }

    /// Whether a finite path `s = s0 … sm` exists with `hold` on `s0 … s(m-1)` and `goal` on `sm`
    /// (enumerating simple paths depth-first).
    fn path_until(&self, s: usize, hold: &[bool], goal: &[bool]) -> bool {
        fn dfs(m: &Model, u: usize, hold: &[bool], goal: &[bool], on_path: &mut Vec<bool>) -> bool {
            if goal[u] {
                return true;
            }
            if !hold[u] {
                return false;
            }
            on_path[u] = true;
            let found = m.succ[u].iter().any(|&t| !on_path[t] && dfs(m, t, hold, goal, on_path));
            on_path[u] = false;
            found
        }
        dfs(self, s, hold, goal, &mut vec![false; self.n()])
    }

    /// Per-state truth of `f`.
    pub fn eval(&self, f: &Ctl<PropId>) -> Vec<bool> {
        let n = self.n();
        let fair = self.fair();
        let map = |v: Vec<bool>, g: &dyn Fn(bool) -> bool| v.into_iter().map(g).collect::<Vec<bool>>();
        let zip = |a: Vec<bool>, b: Vec<bool>, g: &dyn Fn(bool, bool) -> bool| a.into_iter().zip(b).map(|(x, y)| g(x, y)).collect::<Vec<bool>>();
        let not = |v: &[bool]| v.iter().map(|x| !x).collect::<Vec<bool>>();
        let and_fair = |v: &[bool]| v.iter().zip(&fair).map(|(x, y)| *x && *y).collect::<Vec<bool>>();
        match f {
            Ctl::True => vec![true; n],
            Ctl::False => vec![false; n],
            Ctl::Atom(p) => self.props[p.index()].clone(),
            Ctl::Not(a) => map(self.eval(a), &|x| !x),
            Ctl::And(a, b) => zip(self.eval(a), self.eval(b), &|x, y| x && y),
            Ctl::Or(a, b) => zip(self.eval(a), self.eval(b), &|x, y| x || y),
            Ctl::Xor(a, b) => zip(self.eval(a), self.eval(b), &|x, y| x != y),
            Ctl::Xnor(a, b) | Ctl::Iff(a, b) => zip(self.eval(a), self.eval(b), &|x, y| x == y),
            Ctl::Implies(a, b) => zip(self.eval(a), self.eval(b), &|x, y| !x || y),
            Ctl::EX(a) => {
                let a = self.eval(a);
                (0..n).map(|s| self.succ[s].iter().any(|&t| a[t] && fair[t])).collect()
            }
            Ctl::AX(a) => {
                let a = self.eval(a);
                (0..n).map(|s| self.succ[s].iter().all(|&t| !fair[t] || a[t])).collect()
            }
            Ctl::EF(a) => {
                let goal = and_fair(&self.eval(a));
                let all = vec![true; n];
                (0..n).map(|s| self.path_until(s, &all, &goal)).collect()
            }
            Ctl::AG(a) => {
                // every fair state reachable from s (including s) satisfies a
                let a = self.eval(a);
                let all = vec![true; n];
                (0..n).map(|s| self.reach(s, &all, 0).iter().enumerate().all(|(t, &r)| !r || !fair[t] || a[t])).collect()
            }
            Ctl::EG(a) => {
                let a = self.eval(a);
                (0..n).map(|s| self.fair_path_inside(s, &a)).collect()
            }
            Ctl::AF(a) => {
                let not_a = not(&self.eval(a));
                (0..n).map(|s| !self.fair_path_inside(s, &not_a)).collect()
            }
            Ctl::EU(a, b) => {
                let (a, goal) = (self.eval(a), and_fair(&self.eval(b)));
                (0..n).map(|s| self.path_until(s, &a, &goal)).collect()
            }
            Ctl::AU(a, b) => {
                // violated by a fair path never meeting b, or by a path through ¬b into a fair ¬a∧¬b state
                let (a, b) = (self.eval(a), self.eval(b));
                let not_b = not(&b);
                let stuck: Vec<bool> = (0..n).map(|t| !a[t] && !b[t] && fair[t]).collect();
                (0..n).map(|s| !self.fair_path_inside(s, &not_b) && !self.path_until(s, &not_b, &stuck)).collect()
            }
            // RTCTL: a fair path's first `hi` steps are a walk through fair states, and every
            // such walk starts a fair path, so the walks of `hi` steps through fair states decide.
            Ctl::EBF(a, k) | Ctl::ABF(a, k) => {
                let a = self.eval(a);
                self.bounded(matches!(f, Ctl::EBF(..)), k.hi, &|w| (k.lo..=k.hi).any(|i| a[w[i as usize]]))
            }
            Ctl::EBG(a, k) | Ctl::ABG(a, k) => {
                let a = self.eval(a);
                self.bounded(matches!(f, Ctl::EBG(..)), k.hi, &|w| (k.lo..=k.hi).all(|i| a[w[i as usize]]))
            }
            Ctl::EBU(a, b, k) | Ctl::ABU(a, b, k) => {
                let (a, b) = (self.eval(a), self.eval(b));
                let meets = |w: &[usize]| (k.lo..=k.hi).any(|i| b[w[i as usize]] && w[..i as usize].iter().all(|&x| a[x]));
                self.bounded(matches!(f, Ctl::EBU(..)), k.hi, &meets)
            }
        }
    }

    /// A bounded operator from its path semantics: `some` (E) — a walk of `len` steps through
    /// fair states from `s` satisfies `ok`; otherwise (A) every one does. At an unfair state no
    /// fair path starts: E is false there and A vacuously true. (The checkers may differ at
    /// unfair states, which no verdict reads; compare fair states only.)
    fn bounded(&self, some: bool, len: u32, ok: &dyn Fn(&[usize]) -> bool) -> Vec<bool> {
        let fair = self.fair();
        (0..self.n())
            .map(|s| {
                if !fair[s] {
                    return !some;
                }
                let walks = self.fair_walks(s, len as usize, &fair);
                if some { walks.iter().any(|w| ok(w)) } else { walks.iter().all(|w| ok(w)) }
            })
            .collect()
    }

    /// Every walk of exactly `len` steps from `s` through fair states, as its states.
    fn fair_walks(&self, s: usize, len: usize, fair: &[bool]) -> Vec<Vec<usize>> {
        let mut walks = vec![vec![s]];
        for _ in 0..len {
            walks =
                walks.iter().flat_map(|w| self.succ[*w.last().unwrap()].iter().filter(|&&t| fair[t]).map(move |&t| [w.as_slice(), &[t]].concat())).collect();
        }
        walks
    }

    /// Length of a shortest path from an initial state to each state (`None` if unreachable),
    /// by relaxing all edges until nothing changes.
    pub fn distances(&self) -> Vec<Option<usize>> {
        let mut d: Vec<Option<usize>> = vec![None; self.n()];
        for &s in &self.init {
            d[s] = Some(0);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for u in 0..self.n() {
                let Some(du) = d[u] else { continue };
                for &t in &self.succ[u] {
                    if d[t].is_none_or(|dt| dt > du + 1) {
                        d[t] = Some(du + 1);
                        changed = true;
                    }
                }
            }
        }
        d
    }

    /// NuSMV's verdict: `f` holds in every fair initial state.
    pub fn holds(&self, f: &Ctl<PropId>) -> bool {
        let v = self.eval(f);
        let fair = self.fair();
        self.init.iter().all(|&s| !fair[s] || v[s])
    }
}
