//! The octagon domain (Miné): constraints `±x ± y <= c` over a small pack
//! of integer variables, as a difference-bound matrix over the 2n signed
//! forms `+x_k` (index 2k) and `-x_k` (index 2k+1): `m[i][j]` bounds
//! `v_j - v_i`. Closure is the integer tight closure (shortest paths, then
//! tightening of the unary bounds to even values and strengthening), which
//! also detects emptiness. Values are mathematical integers: the caller
//! only relates variables through assignments that cannot wrap.

use super::value::{NEG_INF, POS_INF};

/// "No bound".
const INF: i128 = POS_INF;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Octagon {
    n: usize,
    m: Vec<i128>,
    /// False after a widening, whose result is not closed (the callers
    /// that add constraints close right after).
    closed: bool,
}

fn bar(i: usize) -> usize {
    i ^ 1
}

fn add(a: i128, b: i128) -> i128 {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b)
    }
}

/// A constraint `sign_a * x_a + sign_b * x_b <= bound` (`b == None`: unary).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct OctConstraint {
    pub a: usize,
    pub a_positive: bool,
    pub b: Option<(usize, bool)>,
    pub bound: i128,
}

impl Octagon {
    pub fn top(n: usize) -> Octagon {
        let size = 2 * n;
        let mut m = vec![INF; size * size];
        for i in 0..size {
            m[i * size + i] = 0;
        }
        Octagon { n, m, closed: true }
    }
    pub fn is_closed(&self) -> bool {
        self.closed
    }
    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    fn at(&self, i: usize, j: usize) -> i128 {
        self.m[i * 2 * self.n + j]
    }
    fn tighten(&mut self, i: usize, j: usize, c: i128) {
        let size = 2 * self.n;
        for (r, s) in [(i, j), (bar(j), bar(i))] {
            let cell = &mut self.m[r * size + s];
            *cell = (*cell).min(c);
        }
    }

    /// Integer tight closure; `false` when the constraints are unsatisfiable.
    pub fn close(&mut self) -> bool {
        let pivots: Vec<usize> = (0..2 * self.n).collect();
        self.close_through(&pivots)
    }

    /// The closure of a closed octagon to which constraints on the
    /// variables `vars` only were added (Miné's incremental closure: only
    /// their forms are used as intermediate nodes), in quadratic time.
    pub fn close_on(&mut self, vars: &[usize]) -> bool {
        let pivots: Vec<usize> = vars.iter().flat_map(|k| [2 * k, 2 * k + 1]).collect();
        self.close_through(&pivots)
    }

    fn close_through(&mut self, pivots: &[usize]) -> bool {
        let size = 2 * self.n;
        for &k in pivots {
            for i in 0..size {
                let ik = self.m[i * size + k];
                if ik == INF {
                    continue;
                }
                for j in 0..size {
                    let through = add(ik, self.m[k * size + j]);
                    if through < self.m[i * size + j] {
                        self.m[i * size + j] = through;
                    }
                }
            }
        }
        for i in 0..size {
            if self.m[i * size + i] < 0 {
                return false;
            }
            let unary = self.m[i * size + bar(i)];
            if unary != INF {
                self.m[i * size + bar(i)] = unary.div_euclid(2) * 2;
            }
        }
        for i in 0..size {
            for j in 0..size {
                let (a, b) = (self.at(i, bar(i)), self.at(bar(j), j));
                if a != INF && b != INF {
                    let strong = a.div_euclid(2) + b.div_euclid(2);
                    if strong < self.m[i * size + j] {
                        self.m[i * size + j] = strong;
                    }
                }
            }
        }
        self.closed = (0..size).all(|i| add(self.at(i, bar(i)), self.at(bar(i), i)) >= 0 && self.at(i, i) >= 0);
        self.closed
    }

    /// Adds a constraint (the caller closes afterwards).
    pub fn add_constraint(&mut self, c: OctConstraint) {
        let pos = |k: usize, positive: bool| if positive { 2 * k } else { 2 * k + 1 };
        let va = pos(c.a, c.a_positive);
        match c.b {
            // v_a - v_{bar a} = 2 (±x_a) <= 2c
            None => self.tighten(bar(va), va, c.bound.saturating_mul(2)),
            // v_a - v_{bar b}  with v_{bar b} = -(±x_b)
            Some((b, b_positive)) => self.tighten(bar(pos(b, b_positive)), va, c.bound),
        }
    }

    /// Bounds of `x_k`: (lower, upper), `NEG_INF`/`POS_INF` when unbounded.
    /// Exact on a closed octagon.
    pub fn bounds(&self, k: usize) -> (i128, i128) {
        let upper = self.at(2 * k + 1, 2 * k);
        let lower = self.at(2 * k, 2 * k + 1);
        let hi = if upper == INF { POS_INF } else { upper.div_euclid(2) };
        let lo = if lower == INF { NEG_INF } else { -(lower.div_euclid(2)) };
        (lo, hi)
    }
    /// The bound of `sign_a * x_a + sign_b * x_b` on a closed octagon.
    pub fn pair_bound(&self, a: usize, a_positive: bool, b: usize, b_positive: bool) -> i128 {
        let pos = |k: usize, positive: bool| if positive { 2 * k } else { 2 * k + 1 };
        self.at(bar(pos(b, b_positive)), pos(a, a_positive))
    }

    /// Removes every constraint on `x_k` (on a closed octagon, so the
    /// constraints it implied between other variables stay).
    pub fn forget(&mut self, k: usize) {
        let size = 2 * self.n;
        for v in [2 * k, 2 * k + 1] {
            for j in 0..size {
                if j != v {
                    self.m[v * size + j] = INF;
                    self.m[j * size + v] = INF;
                }
            }
        }
    }

    /// `x_k := x_k + c`: every bound on `x_k` moves by `c`.
    pub fn shift(&mut self, k: usize, c: i128) {
        let size = 2 * self.n;
        let delta = |i: usize| -> i128 {
            match i {
                _ if i == 2 * k => c,
                _ if i == 2 * k + 1 => -c,
                _ => 0,
            }
        };
        for i in 0..size {
            for j in 0..size {
                let cell = &mut self.m[i * size + j];
                if *cell != INF {
                    *cell = cell.saturating_add(delta(j) - delta(i));
                }
            }
        }
    }

    /// `x_k := x_k + t` for some `t` in `[lo, hi]` (both finite): each
    /// bound on `v_j - v_i` grows by the most `t` can add to it (`+x_k`
    /// counts `t`, `-x_k` counts `-t`). The caller closes on `k` after.
    pub fn shift_by_range(&mut self, k: usize, lo: i128, hi: i128) {
        let size = 2 * self.n;
        let sign = |i: usize| -> i128 {
            match i {
                _ if i == 2 * k => 1,
                _ if i == 2 * k + 1 => -1,
                _ => 0,
            }
        };
        for i in 0..size {
            for j in 0..size {
                let coef = sign(j) - sign(i);
                let cell = &mut self.m[i * size + j];
                if *cell != INF && coef != 0 {
                    let most = if coef > 0 { coef.saturating_mul(hi) } else { coef.saturating_mul(lo) };
                    *cell = cell.saturating_add(most);
                }
            }
        }
        self.closed = false;
    }

    /// `x_k := -x_k`: the forms `+x_k` and `-x_k` trade places.
    pub fn negate(&mut self, k: usize) {
        let size = 2 * self.n;
        let swap = |i: usize| if i / 2 == k { bar(i) } else { i };
        let old = self.m.clone();
        for i in 0..size {
            for j in 0..size {
                self.m[swap(i) * size + swap(j)] = old[i * size + j];
            }
        }
    }

    /// `x_k := sign * x_src + c` for `src != k` (on a closed octagon).
    pub fn assign_var(&mut self, k: usize, src: usize, positive: bool, c: i128) {
        self.forget(k);
        // x_k - sign*x_src <= c and sign*x_src - x_k <= -c
        self.add_constraint(OctConstraint { a: k, a_positive: true, b: Some((src, !positive)), bound: c });
        self.add_constraint(OctConstraint { a: k, a_positive: false, b: Some((src, positive)), bound: c.saturating_neg() });
    }

    pub fn join(&self, other: &Octagon) -> Octagon {
        let m = self.m.iter().zip(&other.m).map(|(a, b)| *a.max(b)).collect();
        Octagon { n: self.n, m, closed: self.closed && other.closed }
    }
    /// Whether every constraint of `other` is implied by `self`'s matrix
    /// (entry-wise; exact when `self` is closed).
    pub fn is_subset(&self, other: &Octagon) -> bool {
        self.m.iter().zip(&other.m).all(|(a, b)| a <= b)
    }
    /// Widening with thresholds: an entry that grew jumps to the next
    /// threshold (`thresholds` sorted) or to no bound. The result is not
    /// closed again, which keeps the chain finite.
    pub fn widen(&self, next: &Octagon, thresholds: &[i128]) -> Octagon {
        let m = self
            .m
            .iter()
            .zip(&next.m)
            .map(|(old, new)| match new > old {
                true => thresholds.iter().find(|t| **t >= *new).copied().unwrap_or(INF),
                false => *old,
            })
            .collect();
        Octagon { n: self.n, m, closed: false }
    }
    /// The binary constraints between two variables (not the unary ones),
    /// as `sign_a x_a + sign_b x_b <= bound`, with `a < b`.
    pub fn relations(&self) -> Vec<OctConstraint> {
        let mut out = Vec::new();
        for a in 0..self.n {
            for b in a + 1..self.n {
                for (a_positive, b_positive) in [(true, false), (false, true), (true, true), (false, false)] {
                    let bound = self.pair_bound(a, a_positive, b, b_positive);
                    if bound != INF {
                        out.push(OctConstraint { a, a_positive, b: Some((b, b_positive)), bound });
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{OctConstraint, Octagon};

    fn le(a: usize, b: usize, bound: i128) -> OctConstraint {
        // x_a - x_b <= bound
        OctConstraint { a, a_positive: true, b: Some((b, false)), bound }
    }

    #[test]
    fn closure_derives_transitive_bounds() {
        let mut o = Octagon::top(3);
        o.add_constraint(le(0, 1, 0)); // x0 <= x1
        o.add_constraint(le(1, 2, -1)); // x1 < x2
        o.add_constraint(OctConstraint { a: 2, a_positive: true, b: None, bound: 10 });
        assert!(o.close());
        assert_eq!(o.pair_bound(0, true, 2, false), -1);
        assert_eq!(o.bounds(0).1, 9);
    }

    #[test]
    fn shift_by_a_range_moves_each_bound_by_its_worst_case() {
        // x0 <= x1, 0 <= x1 <= 5; then x1 += t for t in [1, 10]
        let mut o = Octagon::top(2);
        o.add_constraint(le(0, 1, 0));
        o.add_constraint(OctConstraint { a: 1, a_positive: true, b: None, bound: 5 });
        o.add_constraint(OctConstraint { a: 1, a_positive: false, b: None, bound: 0 });
        assert!(o.close());
        o.shift_by_range(1, 1, 10);
        assert!(o.close());
        assert_eq!(o.pair_bound(0, true, 1, false), -1, "x0 < x1 now");
        assert_eq!(o.bounds(1), (1, 15));
    }

    #[test]
    fn closure_finds_contradictions_and_integer_tightening() {
        let mut o = Octagon::top(2);
        o.add_constraint(le(0, 1, -1));
        o.add_constraint(le(1, 0, 0));
        assert!(!o.close());
        let mut o = Octagon::top(2);
        // x0 + x1 <= 1 and x0 - x1 <= 0 imply 2 x0 <= 1, so x0 <= 0
        o.add_constraint(OctConstraint { a: 0, a_positive: true, b: Some((1, true)), bound: 1 });
        o.add_constraint(le(0, 1, 0));
        assert!(o.close());
        assert_eq!(o.bounds(0).1, 0);
    }

    #[test]
    fn assignment_and_shift_keep_the_difference() {
        let mut o = Octagon::top(2);
        o.add_constraint(OctConstraint { a: 1, a_positive: true, b: None, bound: 5 });
        o.add_constraint(OctConstraint { a: 1, a_positive: false, b: None, bound: 0 });
        assert!(o.close());
        o.assign_var(0, 1, true, 2); // x0 = x1 + 2
        assert!(o.close());
        assert_eq!(o.bounds(0), (2, 7));
        o.shift(1, 1); // x1 += 1
        assert!(o.close());
        assert_eq!(o.pair_bound(0, true, 1, false), 1);
        assert_eq!(o.pair_bound(1, true, 0, false), -1);
        o.negate(1); // x1 = -x1: x0 + x1 == 1, x1 in -6..=-1
        assert!(o.close());
        assert_eq!(o.pair_bound(0, true, 1, true), 1);
        assert_eq!(o.bounds(1), (-6, -1));
    }
}
