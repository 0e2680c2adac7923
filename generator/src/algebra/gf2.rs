//! Matrices over GF(2) on `bitvec` rows: echelon form, rank, pivot columns, a right inverse
//! and a kernel basis.
//!
//! Addition is xor and multiplication is and. Row `i`, column `j` is bit `j` of row `i`.
//!
//! The echelon form is the reduced row echelon form (RREF), which is unique, so every result
//! here is canonical: the pivot columns are the lowest-indexed columns independent of the
//! columns before them, the right inverse sets every free (non-pivot) coordinate to zero,
//! and the kernel basis has one vector per free column `f`, with coordinate `f` one, the
//! other free coordinates zero.

use bitvec::prelude::*;

/// One row of a [`Matrix`].
pub type Row = BitVec<u64, Lsb0>;

/// A `rows x cols` matrix over GF(2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    rows: Vec<Row>,
    cols: usize,
}

/// The reduced row echelon form of a matrix `A`, with the row operations that led to it:
/// `transform * A = echelon`.
#[derive(Clone, Debug)]
pub struct Echelon {
    /// The RREF of `A`: its first `rank` rows have a leading one in the pivot columns, the
    /// rest are zero.
    pub echelon: Matrix,
    /// The invertible `rows x rows` matrix `T` with `T * A = echelon`.
    pub transform: Matrix,
    /// The pivot column of each of the first `rank` rows, ascending.
    pub pivots: Vec<usize>,
}

impl Echelon {
    /// The rank of `A`: the number of pivot columns.
    #[must_use]
    pub fn rank(&self) -> usize {
        self.pivots.len()
    }
}

impl Matrix {
    /// The `rows x cols` zero matrix.
    #[must_use]
    pub fn zero(rows: usize, cols: usize) -> Self {
        Self {
            rows: vec![bitvec![u64, Lsb0; 0; cols]; rows],
            cols,
        }
    }

    /// The `n x n` identity matrix.
    #[must_use]
    pub fn identity(n: usize) -> Self {
        let mut m = Self::zero(n, n);
        for i in 0..n {
            m.set(i, i, true);
        }
        m
    }

    /// The `rows x columns.len()` matrix whose column `j` holds the low `rows` bits of
    /// `columns[j]` (bit `i` in row `i`).
    ///
    /// # Panics
    ///
    /// When `rows > 64`.
    #[must_use]
    pub fn from_columns(rows: usize, columns: &[u64]) -> Self {
        assert!(rows <= 64, "a column of u64 holds at most 64 rows");
        let mut m = Self::zero(rows, columns.len());
        for (j, &col) in columns.iter().enumerate() {
            for i in 0..rows {
                m.set(i, j, col >> i & 1 == 1);
            }
        }
        m
    }

    /// The number of rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// The number of columns.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Entry (`row`, `col`).
    ///
    /// # Panics
    ///
    /// When out of bounds.
    #[must_use]
    pub fn get(&self, row: usize, col: usize) -> bool {
        self.rows[row][col]
    }

    /// Sets entry (`row`, `col`).
    ///
    /// # Panics
    ///
    /// When out of bounds.
    pub fn set(&mut self, row: usize, col: usize, value: bool) {
        self.rows[row].set(col, value);
    }

    /// Row `i`.
    #[must_use]
    pub fn row(&self, i: usize) -> &Row {
        &self.rows[i]
    }

    /// Column `j` as an integer, bit `i` = row `i`.
    ///
    /// # Panics
    ///
    /// When the matrix has more than 64 rows.
    #[must_use]
    pub fn column_bits(&self, j: usize) -> u64 {
        assert!(self.rows() <= 64, "a column of u64 holds at most 64 rows");
        (0..self.rows()).fold(0, |acc, i| acc | u64::from(self.get(i, j)) << i)
    }

    /// The product `self * other` over GF(2).
    ///
    /// # Panics
    ///
    /// When `self.cols() != other.rows()`.
    #[must_use]
    pub fn mul(&self, other: &Matrix) -> Matrix {
        assert_eq!(self.cols, other.rows(), "inner dimensions differ");
        let mut out = Self::zero(self.rows(), other.cols);
        for (i, row) in self.rows.iter().enumerate() {
            for k in row.iter_ones() {
                out.rows[i] ^= &other.rows[k];
            }
        }
        out
    }

    /// The reduced row echelon form, by Gauss-Jordan elimination from the leftmost column.
    /// For each column, the pivot row is the first row at or below the current one with a
    /// one there; the RREF does not depend on that choice.
    #[must_use]
    pub fn echelon(&self) -> Echelon {
        let mut echelon = self.clone();
        let mut transform = Self::identity(self.rows());
        let mut pivots = Vec::new();
        let mut r = 0;
        for c in 0..self.cols {
            if r == self.rows() {
                break;
            }
            let Some(p) = (r..self.rows()).find(|&i| echelon.rows[i][c]) else {
                continue;
            };
            echelon.rows.swap(r, p);
            transform.rows.swap(r, p);
            for i in 0..self.rows() {
                if i != r && echelon.rows[i][c] {
                    let (pivot_row, pivot_t) = (echelon.rows[r].clone(), transform.rows[r].clone());
                    echelon.rows[i] ^= &pivot_row;
                    transform.rows[i] ^= &pivot_t;
                }
            }
            pivots.push(c);
            r += 1;
        }
        Echelon {
            echelon,
            transform,
            pivots,
        }
    }

    /// The rank.
    #[must_use]
    pub fn rank(&self) -> usize {
        self.echelon().rank()
    }

    /// A right inverse `R` (`cols x rows`, with `self * R = I`), when the matrix has full
    /// row rank; `None` otherwise. See [`Echelon::right_inverse`].
    #[must_use]
    pub fn right_inverse(&self) -> Option<Matrix> {
        self.echelon().right_inverse()
    }

    /// A basis of the kernel (null space) `{x : self * x = 0}`. See [`Echelon::kernel`].
    #[must_use]
    pub fn kernel(&self) -> Vec<Row> {
        self.echelon().kernel()
    }
}

impl Echelon {
    /// A right inverse `R` of `A` (`cols x rows`, with `A * R = I`), when `A` has full row
    /// rank; `None` otherwise. Column `i` of `R` solves `A * x = e_i` with every free
    /// coordinate zero.
    #[must_use]
    pub fn right_inverse(&self) -> Option<Matrix> {
        let rows = self.transform.rows();
        if self.rank() < rows {
            return None;
        }
        // T * A = E, and E restricted to the pivot columns is the identity, so
        // x[pivot k] = (T e_i)[k] = T[k][i] solves A x = e_i.
        let mut r = Matrix::zero(self.echelon.cols, rows);
        for (k, &p) in self.pivots.iter().enumerate() {
            r.rows[p] = self.transform.rows[k].clone();
        }
        Some(r)
    }

    /// A basis of the kernel (null space) `{x : A * x = 0}` of `A`, one vector per free
    /// column `f` in ascending order (coordinate `f` one, the other free coordinates zero),
    /// each as a row of length `cols`.
    #[must_use]
    pub fn kernel(&self) -> Vec<Row> {
        let cols = self.echelon.cols;
        let mut basis = Vec::new();
        let mut next_pivot = self.pivots.iter().peekable();
        for f in 0..cols {
            if next_pivot.peek() == Some(&&f) {
                next_pivot.next();
                continue;
            }
            let mut x = bitvec![u64, Lsb0; 0; cols];
            x.set(f, true);
            for (k, &p) in self.pivots.iter().enumerate() {
                if self.echelon.rows[k][f] {
                    x.set(p, true);
                }
            }
            basis.push(x);
        }
        basis
    }
}

/// The span of a growing set of columns of at most 64 bits, kept as an echelon basis indexed
/// by each vector's leading bit: adding a column reduces it by the basis (at most 64 xors)
/// and keeps it when something is left. The rank of a matrix built column by column, without
/// eliminating it again for every new column.
///
/// # Examples
///
/// ```
/// use slotgen::gf2::Span;
///
/// let mut span = Span::default();
/// assert!(span.insert(0b011));
/// assert!(span.insert(0b110));
/// assert!(!span.insert(0b101)); // 0b011 ^ 0b110
/// assert_eq!(span.rank(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Span {
    /// `by_top[t]`: the basis vector whose highest set bit is `t`, or 0.
    by_top: [u64; 64],
    rank: usize,
}

impl Default for Span {
    fn default() -> Self {
        Self {
            by_top: [0; 64],
            rank: 0,
        }
    }
}

impl Span {
    /// Adds `column` to the span; whether it was independent of the columns before it.
    pub fn insert(&mut self, mut column: u64) -> bool {
        while column != 0 {
            let top = 63 - column.leading_zeros() as usize;
            if self.by_top[top] == 0 {
                self.by_top[top] = column;
                self.rank += 1;
                return true;
            }
            column ^= self.by_top[top];
        }
        false
    }

    /// The dimension of the span.
    #[must_use]
    pub fn rank(&self) -> usize {
        self.rank
    }
}

/// A row of at most 64 bits as an integer, bit `j` = column `j`.
///
/// # Panics
///
/// When the row has more than 64 bits.
#[must_use]
pub fn row_bits(row: &Row) -> u64 {
    assert!(row.len() <= 64, "a u64 holds at most 64 columns");
    row.iter_ones().fold(0, |acc, j| acc | 1 << j)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Multiplies by hand, entry by entry, without `Matrix::mul`.
    fn product_entry(a: &Matrix, b: &Matrix, i: usize, j: usize) -> bool {
        (0..a.cols()).fold(false, |acc, k| acc ^ (a.get(i, k) & b.get(k, j)))
    }

    fn m(rows: &[&str]) -> Matrix {
        let cols = rows[0].len();
        let mut out = Matrix::zero(rows.len(), cols);
        for (i, r) in rows.iter().enumerate() {
            for (j, c) in r.chars().enumerate() {
                out.set(i, j, c == '1');
            }
        }
        out
    }

    #[test]
    fn rank_of_small_matrices() {
        assert_eq!(m(&["000", "000"]).rank(), 0);
        assert_eq!(m(&["110", "011", "101"]).rank(), 2); // row 3 = row 1 + row 2
        assert_eq!(m(&["100", "010", "001"]).rank(), 3);
        assert_eq!(m(&["1111", "1111"]).rank(), 1);
    }

    #[test]
    fn pivots_are_the_lowest_independent_columns() {
        // column 1 = column 0, so the pivots are 0 and 2
        let e = m(&["1101", "1110"]).echelon();
        assert_eq!(e.pivots, vec![0, 2]);
        assert_eq!(e.echelon, m(&["1101", "0011"]));
    }

    #[test]
    fn right_inverse_multiplies_to_identity() {
        let a = m(&["101101", "011011", "110001"]);
        let r = a.right_inverse().expect("full row rank");
        assert_eq!((r.rows(), r.cols()), (6, 3));
        for i in 0..3 {
            for j in 0..3 {
                assert_eq!(product_entry(&a, &r, i, j), i == j, "entry ({i}, {j})");
            }
        }
    }

    #[test]
    fn right_inverse_needs_full_row_rank() {
        assert!(m(&["110", "110"]).right_inverse().is_none());
    }

    #[test]
    fn kernel_vectors_are_annihilated_and_independent() {
        let a = m(&["101101", "011011", "110110"]); // rank 2: row 3 = row 1 + row 2
        let kernel = a.kernel();
        assert_eq!(kernel.len(), 4);
        for x in &kernel {
            for i in 0..a.rows() {
                let dot = (0..a.cols()).fold(false, |acc, k| acc ^ (a.get(i, k) & x[k]));
                assert!(!dot, "row {i} times {x} is not zero");
            }
        }
        let as_matrix = Matrix::from_columns(6, &kernel.iter().map(row_bits).collect::<Vec<_>>());
        assert_eq!(as_matrix.rank(), 4);
    }

    #[test]
    fn mul_agrees_with_entrywise_product() {
        let a = m(&["1011", "0110"]);
        let b = m(&["10", "11", "01", "10"]);
        let p = a.mul(&b);
        for i in 0..2 {
            for j in 0..2 {
                assert_eq!(p.get(i, j), product_entry(&a, &b, i, j));
            }
        }
        assert_eq!(p, m(&["01", "10"]));
    }
}
