//! Alphabets: the symbols a tag is made of, as an affine subspace of GF(2)^8.

use crate::Error;

/// An alphabet of `2^d` symbols (`d` in `1..=7`) that is an affine subspace of GF(2)^8: the
/// bytes `offset ^ span(basis)`. Only such an alphabet makes the tag -> slot function affine
/// in the bits of the symbols' indices.
///
/// The index order is ascending byte order, which is canonical: with `offset` the smallest
/// symbol and the basis in reduced echelon form ordered by leading bit, the index
/// `i = sum of 2^j over a set of j` maps to `offset ^ xor of basis[j]`, and that map is
/// increasing. So symbol `i` is `symbols()[i]`, and `basis()[j] = symbols()[2^j] ^ offset`.
/// For `@ABCDEFGHIJKLMNO` the index of a symbol is its low four bits.
///
/// # Examples
///
/// ```
/// use slotgen::Alphabet;
///
/// let alphabet = Alphabet::new(b"ONMLKJIHGFEDCBA@").unwrap();
/// assert_eq!(alphabet.symbols(), b"@ABCDEFGHIJKLMNO");
/// assert_eq!(alphabet.symbol_bits(), 4);
/// assert_eq!(alphabet.basis(), vec![1, 2, 4, 8]);
/// assert!(Alphabet::new(b"@AB{").is_err()); // `{` would end up in a key's hashtag
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    symbols: Vec<u8>,
    symbol_bits: u32,
}

impl Alphabet {
    /// The alphabet of the given symbols, in any order.
    ///
    /// # Errors
    ///
    /// - [`Error::BraceInAlphabet`]: a symbol is `{` or `}`.
    /// - [`Error::DuplicateSymbol`]: a symbol appears twice.
    /// - [`Error::AlphabetSize`]: the number of symbols is not a power of two in `2..=128`.
    /// - [`Error::NotAffine`]: the symbols are not an affine subspace of GF(2)^8.
    pub fn new(symbols: &[u8]) -> Result<Self, Error> {
        if let Some(&symbol) = symbols.iter().find(|&&b| b == b'{' || b == b'}') {
            return Err(Error::BraceInAlphabet { symbol });
        }
        let mut seen = [false; 256];
        for &b in symbols {
            if std::mem::replace(&mut seen[usize::from(b)], true) {
                return Err(Error::DuplicateSymbol { symbol: b });
            }
        }
        let len = symbols.len();
        if !(2..=128).contains(&len) || !len.is_power_of_two() {
            return Err(Error::AlphabetSize { len });
        }
        let mut sorted = symbols.to_vec();
        sorted.sort_unstable();
        let symbol_bits = len.trailing_zeros();
        let offset = sorted[0];
        let basis: Vec<u8> = (0..symbol_bits).map(|j| sorted[1 << j] ^ offset).collect();
        for (i, &symbol) in sorted.iter().enumerate() {
            if symbol != affine_symbol(offset, &basis, i) {
                return Err(Error::NotAffine {
                    symbol,
                    largest_subset: largest_affine_subset(&sorted),
                });
            }
        }
        Ok(Self {
            symbols: sorted,
            symbol_bits,
        })
    }

    /// The symbols in index order (ascending bytes): `2^symbol_bits()` of them.
    #[must_use]
    pub fn symbols(&self) -> &[u8] {
        &self.symbols
    }

    /// `d`, the bits of a symbol's index: `log2` of the alphabet's size.
    #[must_use]
    pub fn symbol_bits(&self) -> u32 {
        self.symbol_bits
    }

    /// The number of symbols.
    #[must_use]
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Always false: an alphabet has at least two symbols.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The affine offset: the smallest symbol, index 0.
    #[must_use]
    pub fn offset(&self) -> u8 {
        self.symbols[0]
    }

    /// The linear part's basis: `basis()[j]` is what bit `j` of an index xors into the
    /// offset. `symbol_bits()` bytes.
    #[must_use]
    pub fn basis(&self) -> Vec<u8> {
        (0..self.symbol_bits)
            .map(|j| self.symbols[1 << j] ^ self.offset())
            .collect()
    }
}

/// `offset ^ xor of basis[j] over the set bits j of index`.
fn affine_symbol(offset: u8, basis: &[u8], index: usize) -> u8 {
    basis
        .iter()
        .enumerate()
        .filter(|&(j, _)| index >> j & 1 == 1)
        .fold(offset, |acc, (_, &b)| acc ^ b)
}

/// An affine subspace of GF(2)^8 inside `symbols` (ascending, distinct), in ascending order:
/// from each starting symbol, the set grows by the first direction that keeps it inside
/// `symbols`, and the largest result wins (ties: the one whose sorted bytes come first).
/// The result is always affine; being greedy, it can miss a larger subspace.
#[must_use]
pub fn largest_affine_subset(symbols: &[u8]) -> Vec<u8> {
    let mut present = [false; 256];
    for &s in symbols {
        present[usize::from(s)] = true;
    }
    let mut best: Vec<u8> = symbols.iter().take(1).copied().collect();
    for &offset in symbols {
        // the set offset ^ span(basis), grown direction by direction
        let mut members = vec![offset];
        loop {
            let grew = symbols.iter().find_map(|&s| {
                let direction = s ^ offset;
                if direction == 0 || members.contains(&s) {
                    return None;
                }
                let grown: Vec<u8> = members.iter().map(|&m| m ^ direction).collect();
                grown
                    .iter()
                    .all(|&g| present[usize::from(g)])
                    .then_some(grown)
            });
            match grew {
                Some(grown) => members.extend(grown),
                None => break,
            }
        }
        members.sort_unstable();
        if members.len() > best.len() || (members.len() == best.len() && members < best) {
            best = members;
        }
    }
    best
}
