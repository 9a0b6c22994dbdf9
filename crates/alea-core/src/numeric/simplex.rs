//! Linear programs over variables at least 0, solved exactly: the two-phase simplex
//! method in rationals, with Bland's rule (the lowest index enters and leaves), which
//! cannot cycle. The tableau is dense, but a pivot touches only the rows and columns
//! where the pivot's column and row are not zero: the programs of decision processes
//! stay sparse for many pivots.

use num_traits::{One, Signed, Zero};

use super::value::Exact;

/// How a constraint's left side compares with its right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Eq,
    Ge,
    Le,
}

/// `Σ coefficient · x[column] relation bound`, the columns each once.
#[derive(Clone, Debug)]
pub struct Constraint {
    pub terms: Vec<(usize, Exact)>,
    pub relation: Relation,
    pub bound: Exact,
}

/// A linear program's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// No point meets the constraints.
    Infeasible,
    /// The objective grows without bound.
    Unbounded,
    /// The greatest value of the objective, and a point where it is reached.
    Optimal { value: Exact, point: Vec<Exact> },
}

/// The greatest value of `Σ objective` over `x >= 0` (`columns` of them) meeting
/// `constraints`. Stops with `None` past `max_cells` cells of tableau.
pub fn maximise(
    columns: usize,
    constraints: &[Constraint],
    objective: &[(usize, Exact)],
    max_cells: usize,
) -> Option<Outcome> {
    Some(match Simplex::new(columns, constraints, max_cells)? {
        None => Outcome::Infeasible,
        Some(mut s) => s.maximise(objective),
    })
}

/// A feasible basis of a program's constraints, from which objective after objective is
/// maximised, each starting where the last stopped.
pub struct Simplex {
    t: Tableau,
    columns: usize,
    /// The first artificial column, and the right side's.
    artificial: usize,
    rhs: usize,
}

impl Simplex {
    /// A feasible basis of `constraints` over `columns` variables at least 0: `None`
    /// past `max_cells` cells of tableau, `Some(None)` where no point meets them.
    pub fn new(
        columns: usize,
        constraints: &[Constraint],
        max_cells: usize,
    ) -> Option<Option<Simplex>> {
        let rows = constraints.len();
        let slacks = constraints
            .iter()
            .filter(|c| c.relation != Relation::Eq)
            .count();
        // Columns: the variables, a slack for each inequality, an artificial for each
        // row, and the right-hand side last.
        let width = columns + slacks + rows + 1;
        if rows.saturating_mul(width) > max_cells {
            return None;
        }
        let artificial = columns + slacks;
        let rhs = width - 1;
        let mut t = Tableau {
            rows: Vec::with_capacity(rows),
            basis: Vec::with_capacity(rows),
            cost: vec![Exact::zero(); width],
            blocked: vec![false; width],
        };
        let mut slack = columns;
        for (i, c) in constraints.iter().enumerate() {
            let mut row = vec![Exact::zero(); width];
            for (j, a) in &c.terms {
                row[*j] += a;
            }
            match c.relation {
                Relation::Eq => {}
                Relation::Le => {
                    row[slack] = Exact::one();
                    slack += 1;
                }
                Relation::Ge => {
                    row[slack] = -Exact::one();
                    slack += 1;
                }
            }
            row[rhs] = c.bound.clone();
            // The right sides at least 0, so that the artificials start feasible.
            if row[rhs].is_negative() {
                row.iter_mut().for_each(|v| *v = -v.clone());
            }
            row[artificial + i] = Exact::one();
            t.rows.push(row);
            t.basis.push(artificial + i);
        }
        // Phase one: the least sum of the artificials (the greatest of its negation),
        // whose reduced costs are the sums of the rows.
        for row in &t.rows {
            for (j, v) in row.iter().enumerate().take(artificial) {
                if !v.is_zero() {
                    t.cost[j] += v;
                }
            }
            t.cost[rhs] += &row[rhs];
        }
        t.run(rhs);
        if !t.cost[rhs].is_zero() {
            return Some(None);
        }
        // Artificials still in the basis (at 0) leave it for any other column of their
        // row; a row with none is redundant.
        let mut i = 0;
        while i < t.rows.len() {
            if t.basis[i] >= artificial {
                match (0..artificial).find(|&j| !t.rows[i][j].is_zero()) {
                    Some(j) => t.pivot(i, j),
                    None => {
                        t.rows.swap_remove(i);
                        t.basis.swap_remove(i);
                        continue;
                    }
                }
            }
            i += 1;
        }
        Some(Some(Simplex {
            t,
            columns,
            artificial,
            rhs,
        }))
    }

    /// The greatest value of `Σ objective`, from the current basis.
    pub fn maximise(&mut self, objective: &[(usize, Exact)]) -> Outcome {
        for j in 0..self.rhs {
            self.t.blocked[j] = j >= self.artificial;
        }
        self.optimise(objective)
    }

    /// The greatest value of `Σ objective` among the points where the last objective
    /// maximised is greatest (a column whose reduced cost is below 0 would lower it).
    pub fn then_maximise(&mut self, objective: &[(usize, Exact)]) -> Outcome {
        for j in 0..self.artificial {
            if self.t.cost[j].is_negative() {
                self.t.blocked[j] = true;
            }
        }
        self.optimise(objective)
    }

    fn optimise(&mut self, objective: &[(usize, Exact)]) -> Outcome {
        let (t, rhs) = (&mut self.t, self.rhs);
        // The objective's reduced costs in the current basis.
        let mut cost = vec![Exact::zero(); rhs + 1];
        for (j, c) in objective {
            cost[*j] += c;
        }
        for (i, row) in t.rows.iter().enumerate() {
            let cb = cost[t.basis[i]].clone();
            if cb.is_zero() {
                continue;
            }
            for (j, v) in row.iter().enumerate() {
                if !v.is_zero() && j != t.basis[i] {
                    cost[j] -= &cb * v;
                }
            }
        }
        for i in 0..t.rows.len() {
            cost[t.basis[i]] = Exact::zero();
        }
        t.cost = cost;
        if !t.run(rhs) {
            return Outcome::Unbounded;
        }
        let mut point = vec![Exact::zero(); self.columns];
        for (i, &b) in t.basis.iter().enumerate() {
            if b < self.columns {
                point[b] = t.rows[i][rhs].clone();
            }
        }
        let value = objective
            .iter()
            .map(|(j, c)| c * &point[*j])
            .fold(Exact::zero(), |a, b| a + b);
        Outcome::Optimal { value, point }
    }
}

struct Tableau {
    rows: Vec<Vec<Exact>>,
    basis: Vec<usize>,
    /// The reduced costs (to be made at most 0), and at the right side minus the
    /// objective's value.
    cost: Vec<Exact>,
    /// Columns that may not enter (the artificials, in phase two).
    blocked: Vec<bool>,
}

impl Tableau {
    /// Pivots until no column improves the objective: true at an optimum, false where a
    /// column improves it without bound.
    fn run(&mut self, rhs: usize) -> bool {
        loop {
            let Some(enter) = (0..rhs).find(|&j| !self.blocked[j] && self.cost[j].is_positive())
            else {
                return true;
            };
            // The least ratio; among ties the row whose basic column is lowest.
            let mut best: Option<(usize, Exact)> = None;
            for (i, row) in self.rows.iter().enumerate() {
                let a = &row[enter];
                if !a.is_positive() {
                    continue;
                }
                let ratio = &row[rhs] / a;
                let better = match &best {
                    None => true,
                    Some((k, r)) => ratio < *r || (ratio == *r && self.basis[i] < self.basis[*k]),
                };
                if better {
                    best = Some((i, ratio));
                }
            }
            let Some((leave, _)) = best else {
                return false;
            };
            self.pivot(leave, enter);
        }
    }

    /// Makes column `j` basic in row `r`.
    fn pivot(&mut self, r: usize, j: usize) {
        let p = self.rows[r][j].clone();
        if !p.is_one() {
            for v in self.rows[r].iter_mut() {
                if !v.is_zero() {
                    *v = &*v / &p;
                }
            }
        }
        let nonzero: Vec<usize> = (0..self.rows[r].len())
            .filter(|&k| !self.rows[r][k].is_zero())
            .collect();
        let pivot_row = std::mem::take(&mut self.rows[r]);
        for (i, row) in self.rows.iter_mut().enumerate() {
            if i == r || row[j].is_zero() {
                continue;
            }
            let f = row[j].clone();
            for &k in &nonzero {
                row[k] -= &f * &pivot_row[k];
            }
        }
        let f = self.cost[j].clone();
        if !f.is_zero() {
            for &k in &nonzero {
                self.cost[k] -= &f * &pivot_row[k];
            }
        }
        self.rows[r] = pivot_row;
        self.basis[r] = j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Exact {
        Exact::new(n.into(), d.into())
    }

    fn c(terms: &[(usize, i64)], relation: Relation, bound: i64) -> Constraint {
        Constraint {
            terms: terms.iter().map(|&(j, a)| (j, q(a, 1))).collect(),
            relation,
            bound: q(bound, 1),
        }
    }

    #[test]
    fn small_programs() {
        // max 3x + 2y, x + y <= 4, x + 3y <= 6, x <= 3: at (3, 1), 11.
        let cons = [
            c(&[(0, 1), (1, 1)], Relation::Le, 4),
            c(&[(0, 1), (1, 3)], Relation::Le, 6),
            c(&[(0, 1)], Relation::Le, 3),
        ];
        let obj = [(0, q(3, 1)), (1, q(2, 1))];
        assert_eq!(
            maximise(2, &cons, &obj, 1 << 20),
            Some(Outcome::Optimal {
                value: q(11, 1),
                point: vec![q(3, 1), q(1, 1)]
            })
        );
        // With x + y >= 5 as well: infeasible.
        let mut more = cons.to_vec();
        more.push(c(&[(0, 1), (1, 1)], Relation::Ge, 5));
        assert_eq!(maximise(2, &more, &obj, 1 << 20), Some(Outcome::Infeasible));
        // max x with x - y = 1 alone: unbounded.
        let cons = [c(&[(0, 1), (1, -1)], Relation::Eq, 1)];
        assert_eq!(
            maximise(2, &cons, &[(0, q(1, 1))], 1 << 20),
            Some(Outcome::Unbounded)
        );
        // min x + y (max of its negation) with 2x + y >= 3, x + 2y >= 3: 2 at (1, 1).
        let cons = [
            c(&[(0, 2), (1, 1)], Relation::Ge, 3),
            c(&[(0, 1), (1, 2)], Relation::Ge, 3),
        ];
        let Some(Outcome::Optimal { value, .. }) =
            maximise(2, &cons, &[(0, q(-1, 1)), (1, q(-1, 1))], 1 << 20)
        else {
            panic!()
        };
        assert_eq!(value, q(-2, 1));
        // Redundant equalities, a negative right side and a fraction.
        let cons = [
            c(&[(0, 1), (1, 1)], Relation::Eq, 1),
            c(&[(0, 2), (1, 2)], Relation::Eq, 2),
            c(&[(0, -3), (1, 1)], Relation::Le, -1),
        ];
        let Some(Outcome::Optimal { value, .. }) = maximise(2, &cons, &[(1, q(1, 1))], 1 << 20)
        else {
            panic!()
        };
        // y = 1 - x, -3x + 1 - x <= -1: x >= 1/2, so y <= 1/2.
        assert_eq!(value, q(1, 2));
        // Too large a tableau: refused.
        assert_eq!(maximise(2, &cons, &[(1, q(1, 1))], 4), None);
    }
}
