//! Karr's domain of affine equalities (`x == 2*i`, `i + j == n`) over a
//! pack of integer variables. An element is a set of integer rows
//! `a_1 x_1 + ... + a_n x_n == c` in reduced row echelon form (each row
//! primitive, its pivot positive), so equal elements are equal values.
//! Join is the affine hull, computed in homogeneous coordinates: the
//! constraint rows of the hull span the intersection of the two row
//! spaces, the vectors orthogonal to both generator sets.
//!
//! The rows hold for the *lifted* values of the variables: the values a
//! run would have if every operation were computed in unbounded
//! integers. A lifted value equals the machine value modulo 2^width (the
//! caller assigns only through ring operations that keep this true), so a
//! row holds modulo 2^w for w the narrowest width among its variables. No
//! arithmetic here may overflow: an overflow loses the rows (top).

/// Arithmetic that overflowed: the caller falls back to "nothing known".
#[derive(Debug)]
pub struct Overflow;

type Row = Vec<i128>;

/// Affine equalities over `n` variables; a row has `n + 1` entries, the
/// last the constant `c` of `sum a_i x_i == c`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Affine {
    n: usize,
    rows: Vec<Row>,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i128
}

/// Divides a row by the gcd of its entries (the row stays integer).
fn primitive(row: &mut Row) {
    let g = row.iter().fold(0, |g, v| gcd(g, *v));
    if g > 1 {
        row.iter_mut().for_each(|v| *v /= g);
    }
}

/// `a * x - b * y`, entry-wise.
fn combine(a: i128, x: &Row, b: i128, y: &Row) -> Result<Row, Overflow> {
    x.iter()
        .zip(y)
        .map(|(p, q)| {
            let l = a.checked_mul(*p).ok_or(Overflow)?;
            let r = b.checked_mul(*q).ok_or(Overflow)?;
            l.checked_sub(r).ok_or(Overflow)
        })
        .collect()
}

/// Reduced row echelon form over the rationals, kept integer.
fn echelon(mut rows: Vec<Row>) -> Result<Vec<Row>, Overflow> {
    let width = rows.first().map_or(0, Vec::len);
    let mut done = 0;
    for col in 0..width {
        let Some(p) = (done..rows.len()).find(|r| rows[*r][col] != 0) else { continue };
        rows.swap(done, p);
        let pivot_row = rows[done].clone();
        for (r, row) in rows.iter_mut().enumerate() {
            if r != done && row[col] != 0 {
                let g = gcd(pivot_row[col], row[col]);
                *row = combine(pivot_row[col] / g, row, row[col] / g, &pivot_row)?;
                primitive(row);
            }
        }
        primitive(&mut rows[done]);
        if rows[done][col] < 0 {
            rows[done].iter_mut().for_each(|v| *v = -*v);
        }
        done += 1;
    }
    rows.truncate(done);
    Ok(rows)
}

/// A basis of `{v : row . v == 0 for every row}` in `width` dimensions.
fn null_space(rows: &[Row], width: usize) -> Result<Vec<Row>, Overflow> {
    let rows = echelon(rows.to_vec())?;
    let pivots: Vec<usize> = rows.iter().map(|r| r.iter().position(|v| *v != 0).unwrap_or(width)).collect();
    let mut basis = Vec::new();
    for free in (0..width).filter(|c| !pivots.contains(c)) {
        let lcm = rows.iter().zip(&pivots).filter(|(r, _)| r[free] != 0).try_fold(1i128, |l, (r, p)| {
            let d = r[*p];
            (l / gcd(l, d)).checked_mul(d).ok_or(Overflow)
        })?;
        let mut v = vec![0; width];
        v[free] = lcm;
        for (r, p) in rows.iter().zip(&pivots) {
            if r[free] != 0 {
                v[*p] = -(r[free].checked_mul(lcm / r[*p]).ok_or(Overflow)?);
            }
        }
        primitive(&mut v);
        basis.push(v);
    }
    Ok(basis)
}

impl Affine {
    pub fn top(n: usize) -> Affine {
        Affine { n, rows: Vec::new() }
    }
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }
    /// Whether the rows are contradictory (`0 == c`, c != 0): no state.
    pub fn is_bottom(&self) -> bool {
        self.rows.iter().any(|r| r[..self.n].iter().all(|v| *v == 0) && r[self.n] != 0)
    }

    fn set_rows(&mut self, rows: Vec<Row>) {
        match echelon(rows) {
            Ok(rows) => self.rows = rows,
            Err(Overflow) => self.rows.clear(),
        }
    }

    /// Removes `x_k` (projection): the rows that do not mention it, plus
    /// the combinations that eliminate it.
    pub fn forget(&mut self, k: usize) {
        let Some(p) = self.rows.iter().position(|r| r[k] != 0) else { return };
        let pivot = self.rows.remove(p);
        let mut rows = Vec::with_capacity(self.rows.len());
        for row in self.rows.drain(..) {
            if row[k] == 0 {
                rows.push(row);
                continue;
            }
            let g = gcd(pivot[k], row[k]);
            if let Ok(mut combined) = combine(pivot[k] / g, &row, row[k] / g, &pivot) {
                primitive(&mut combined);
                rows.push(combined);
            }
        }
        self.set_rows(rows);
    }

    /// `x_k := sum coeffs[i] x_i + c` (lifted values). When `x_k` occurs on
    /// the right with coefficient `b != 0`, the old value is substituted
    /// (`x_old = (x_new - rest) / b`, rows scaled by `b`); otherwise
    /// `x_k` is forgotten and the new row added.
    pub fn assign(&mut self, k: usize, coeffs: &[(usize, i128)], c: i128) {
        let mut expr = vec![0i128; self.n + 1];
        for (i, a) in coeffs {
            expr[*i] += a;
        }
        expr[self.n] = c;
        let b = expr[k];
        if b == 0 {
            self.forget(k);
            // x_k - sum a_i x_i == c
            let mut row: Row = expr.iter().map(|v| -v).collect();
            row[k] = 1;
            row[self.n] = c;
            let mut rows = std::mem::take(&mut self.rows);
            rows.push(row);
            self.set_rows(rows);
            return;
        }
        let substituted: Result<Vec<Row>, Overflow> = self
            .rows
            .iter()
            .map(|row| {
                let r_k = row[k];
                // b * row, with r_k (x_new - rest) in place of r_k b x_old
                let mut out = Vec::with_capacity(self.n + 1);
                for i in 0..=self.n {
                    let scaled = row[i].checked_mul(b).ok_or(Overflow)?;
                    let value = if i == k {
                        r_k
                    } else if i == self.n {
                        scaled.checked_add(r_k.checked_mul(expr[i]).ok_or(Overflow)?).ok_or(Overflow)?
                    } else {
                        scaled.checked_sub(r_k.checked_mul(expr[i]).ok_or(Overflow)?).ok_or(Overflow)?
                    };
                    out.push(value);
                }
                Ok(out)
            })
            .collect();
        match substituted {
            Ok(rows) => self.set_rows(rows),
            Err(Overflow) => self.rows.clear(),
        }
    }

    /// The affine hull of the two (neither is bottom).
    pub fn join(&self, other: &Affine) -> Affine {
        let width = self.n + 1;
        let hull = || -> Result<Vec<Row>, Overflow> {
            let mut generators = null_space(&self.rows, width)?;
            generators.extend(null_space(&other.rows, width)?);
            echelon(null_space(&generators, width)?)
        };
        Affine { n: self.n, rows: hull().unwrap_or_default() }
    }
    /// Whether `self`'s space lies inside `other`'s: every row of `other`
    /// is implied by `self`'s rows.
    pub fn is_subset(&self, other: &Affine) -> bool {
        other.rows.iter().all(|row| {
            let mut rows = self.rows.clone();
            rows.push(row.clone());
            echelon(rows).is_ok_and(|r| r.len() == self.rows.len())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Affine;

    #[test]
    fn join_of_two_points_is_the_line_through_them() {
        // x0 = 0, x1 = 0 joined with x0 = 1, x1 = 2: the line x1 == 2 x0.
        let mut a = Affine::top(2);
        a.assign(0, &[], 0);
        a.assign(1, &[], 0);
        let mut b = a.clone();
        b.assign(0, &[(0, 1)], 1);
        b.assign(1, &[(1, 1)], 2);
        let hull = a.join(&b);
        assert_eq!(hull.rows(), &[vec![2, -1, 0]]);
        // one more iteration of x0 += 1, x1 += 2 stays on the line
        let mut c = hull.clone();
        c.assign(0, &[(0, 1)], 1);
        c.assign(1, &[(1, 1)], 2);
        assert_eq!(hull.join(&c), hull);
        assert!(c.is_subset(&hull));
    }

    #[test]
    fn forget_keeps_what_other_variables_imply() {
        // x0 == x1, x1 == x2 + 1; forgetting x1 leaves x0 == x2 + 1
        let mut a = Affine::top(3);
        a.assign(1, &[(2, 1)], 1);
        a.assign(0, &[(1, 1)], 0);
        a.forget(1);
        assert_eq!(a.rows(), &[vec![1, 0, -1, 1]]);
    }

    #[test]
    fn self_referencing_assignment_substitutes() {
        // x0 == 2 x1; x0 := x0 + 2 gives x0 == 2 x1 + 2
        let mut a = Affine::top(2);
        a.assign(0, &[(1, 2)], 0);
        a.assign(0, &[(0, 1)], 2);
        assert_eq!(a.rows(), &[vec![1, -2, 2]]);
    }
}
