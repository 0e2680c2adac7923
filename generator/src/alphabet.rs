//! Alphabets: the symbols a tag is made of, as an affine subspace of GF(2)^8.

use std::ops::ControlFlow;

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

    /// The bytes of the tag of `tag_len` symbols with mask `mask`: symbol `k` is the
    /// alphabet's entry at index bits `d * k ..= d * k + d - 1` of the mask (`d` =
    /// [`symbol_bits`](Self::symbol_bits)), as [`AffineMap`](crate::AffineMap) numbers them.
    #[must_use]
    pub fn tag(&self, mask: u64, tag_len: usize) -> Vec<u8> {
        let bits = self.symbol_bits as usize;
        let index_mask = (1u64 << bits) - 1;
        (0..tag_len)
            .map(|k| self.symbols[(mask >> (bits * k) & index_mask) as usize])
            .collect()
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

/// The largest affine subspace of GF(2)^8 inside `symbols` (any order; duplicates ignored),
/// in ascending order. Among several of the largest size, the one whose ascending bytes
/// come first. Exact: it tries the dimensions from 8 down (see [`affine_subsets`]) and
/// stops at the first subspace found. Empty only when `symbols` is.
///
/// # Examples
///
/// ```
/// // `P` (0x50) is no member of 0x40 ^ span(1, 2, 4): the largest affine subset is 4 bytes.
/// assert_eq!(slotgen::alphabet::largest_affine_subset(b"@ABCDEFP"), b"@ABC".to_vec());
/// ```
#[must_use]
pub fn largest_affine_subset(symbols: &[u8]) -> Vec<u8> {
    (0..=8)
        .rev()
        .find_map(|dim| first_affine_subset(symbols, dim))
        .unwrap_or_default()
}

/// The first, in lexicographic order, of [`affine_subsets`]`(symbols, dim)`, found without
/// listing the others.
#[must_use]
pub fn first_affine_subset(symbols: &[u8], dim: u32) -> Option<Vec<u8>> {
    let mut first = None;
    for_each_affine_subset(symbols, dim, |subset| {
        first = Some(subset.to_vec());
        ControlFlow::Break(())
    });
    first
}

/// Every affine subspace of GF(2)^8 with `2^dim` elements that lies inside `symbols` (any
/// order; duplicates ignored): each in ascending byte order, which is its index order as an
/// [`Alphabet`], and the list in lexicographic order. `dim` above 8 gives none.
///
/// # Examples
///
/// ```
/// use slotgen::alphabet::affine_subsets;
///
/// // the 2-symbol subsets of three symbols are its pairs; 0 ^ 1 ^ 2 = 3 is missing for 4
/// assert_eq!(affine_subsets(b"012", 1), vec![b"01".to_vec(), b"02".to_vec(), b"12".to_vec()]);
/// assert!(affine_subsets(b"012", 2).is_empty());
/// assert_eq!(affine_subsets(b"0123", 2), vec![b"0123".to_vec()]);
/// ```
#[must_use]
pub fn affine_subsets(symbols: &[u8], dim: u32) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    for_each_affine_subset(symbols, dim, |subset| {
        found.push(subset.to_vec());
        ControlFlow::Continue(())
    });
    found
}

/// Calls `visit` with every affine subspace of `2^dim` elements inside `symbols`, as
/// [`affine_subsets`] lists them and in the same order, until `visit` breaks.
///
/// The search starts from each symbol `s`, ascending, as the subspace's smallest element,
/// and grows a linear part `V` one basis vector at a time so that `s ^ V` stays inside
/// `symbols` and not below `s`. Each subspace is found once, by its greedy basis (`b1` the
/// least nonzero element of `V`, `b(k+1)` the least element outside the span of
/// `b1..bk`). Such a basis has strictly increasing leading bits, all clear in `s`, so a
/// vector extends it when it is above the last one and clear in the leading bits so far;
/// on `V`, `x -> s ^ x` keeps the order, and the ascending elements of `s ^ V` are
/// `s ^ span(b1)`, then `s ^ span(b1, b2)`, and so on, so trying the vectors `c` by
/// ascending `s ^ c` visits the subspaces in lexicographic order. A branch stops when the
/// vectors `w` that could still join (those above the last basis vector with `w ^ V` inside)
/// cannot fill `2^dim` elements.
pub fn for_each_affine_subset(
    symbols: &[u8],
    dim: u32,
    mut visit: impl FnMut(&[u8]) -> ControlFlow<()>,
) {
    if dim > 8 {
        return;
    }
    let mut present = Bits::default();
    for &s in symbols {
        present.insert(s);
    }
    for offset in 0..=255u8 {
        if !present.contains(offset) {
            continue;
        }
        // the vectors x with offset ^ x a symbol not below offset
        let mut inside = Bits::default();
        for x in 0..=255u8 {
            if present.contains(offset ^ x) && offset ^ x >= offset {
                inside.insert(x);
            }
        }
        let mut search = SubspaceSearch {
            size: 1 << dim,
            offset,
            members: vec![0],
            visit: &mut visit,
        };
        if search.grow(inside, 0, 0).is_break() {
            return;
        }
    }
}

/// A set of bytes as 256 bits.
#[derive(Clone, Copy, Default)]
struct Bits([u64; 4]);

impl Bits {
    fn insert(&mut self, b: u8) {
        self.0[usize::from(b >> 6)] |= 1 << (b & 63);
    }

    fn contains(self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] >> (b & 63) & 1 == 1
    }

    /// `{x ^ c : x in self}`.
    fn translate(self, c: u8) -> Self {
        // within a word, xor by the low six bits of c swaps blocks of 2^j bits
        const KEEP: [u64; 6] = [
            0x5555_5555_5555_5555,
            0x3333_3333_3333_3333,
            0x0f0f_0f0f_0f0f_0f0f,
            0x00ff_00ff_00ff_00ff,
            0x0000_ffff_0000_ffff,
            0x0000_0000_ffff_ffff,
        ];
        let mut out = [0u64; 4];
        for (w, &word) in self.0.iter().enumerate() {
            let mut x = word;
            for (j, &keep) in KEEP.iter().enumerate() {
                if c >> j & 1 == 1 {
                    x = (x & keep) << (1 << j) | (x >> (1 << j)) & keep;
                }
            }
            out[w ^ usize::from(c >> 6)] = x;
        }
        Self(out)
    }

    fn and(self, other: Self) -> Self {
        Self(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }

    /// The members above `b`.
    fn above(self, b: u8) -> Self {
        let mut out = self;
        for w in 0..4 {
            let low = w as u32 * 64;
            let first = u32::from(b) + 1; // the first kept value
            out.0[w] &= match first.saturating_sub(low) {
                0 => u64::MAX,
                k if k >= 64 => 0,
                k => u64::MAX << k,
            };
        }
        out
    }

    fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The members, ascending.
    fn iter(self) -> impl Iterator<Item = u8> {
        (0..4).flat_map(move |w| {
            let mut word = self.0[w];
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let bit = word.trailing_zeros();
                    word &= word - 1;
                    (w as u32 * 64 + bit) as u8
                })
            })
        })
    }
}

/// The depth-first search of [`for_each_affine_subset`] from one offset.
struct SubspaceSearch<'a, F> {
    size: usize,
    offset: u8,
    /// The linear part so far, `V`, in ascending order.
    members: Vec<u8>,
    visit: &'a mut F,
}

impl<F: FnMut(&[u8]) -> ControlFlow<()>> SubspaceSearch<'_, F> {
    /// `fits` is `{w : w ^ V inside}`; `last` the last basis vector (0 at first);
    /// `leading` the leading bits of the basis so far.
    fn grow(&mut self, fits: Bits, last: u8, leading: u8) -> ControlFlow<()> {
        let len = self.members.len();
        if len == self.size {
            let subset: Vec<u8> = self.members.iter().map(|&m| self.offset ^ m).collect();
            return (self.visit)(&subset);
        }
        // each basis vector still to come leads with a bit above those so far, clear in
        // the offset
        let higher = if last == 0 {
            0xff
        } else {
            !((1u16 << (8 - last.leading_zeros())) - 1) as u8
        };
        let missing = (self.size / len).trailing_zeros();
        if (higher & !self.offset).count_ones() < missing {
            return ControlFlow::Continue(());
        }
        // every element still to come is above `last` and fits
        let open = fits.above(last);
        if len + open.len() < self.size {
            return ControlFlow::Continue(());
        }
        // ascending `offset ^ c`, the order of the subspaces' next smallest elements
        let offset = self.offset;
        for c in open.translate(offset).iter().map(|x| x ^ offset) {
            if c & leading != 0 {
                continue; // not the least of its coset of V
            }
            let top = 1 << (7 - c.leading_zeros());
            for i in 0..len {
                self.members.push(self.members[i] ^ c);
            }
            let flow = self.grow(fits.and(fits.translate(c)), c, leading | top);
            self.members.truncate(len);
            flow?;
        }
        ControlFlow::Continue(())
    }
}

/// The longest tag for symbols of `symbol_bits` bits: at most
/// [`MAX_TAG_LEN`](slotgen_tables::MAX_TAG_LEN) symbols and
/// [`MAX_MASK_BITS`](slotgen_tables::MAX_MASK_BITS) bits.
#[must_use]
pub fn max_tag_len(symbol_bits: u32) -> usize {
    slotgen_tables::MAX_TAG_LEN.min(slotgen_tables::MAX_MASK_BITS / symbol_bits as usize)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Whether `set` is an affine subspace of GF(2)^8, by the definition that needs no
    /// basis: nonempty and closed under `a ^ b ^ c`.
    fn is_affine(set: &[u8]) -> bool {
        !set.is_empty()
            && set.iter().all(|&a| {
                set.iter()
                    .all(|&b| set.iter().all(|&c| set.contains(&(a ^ b ^ c))))
            })
    }

    /// Every subset of `symbols` (at most 16) that is affine, each ascending, sorted.
    fn brute_force_affine_subsets(symbols: &[u8]) -> Vec<Vec<u8>> {
        let mut distinct = symbols.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(distinct.len() <= 16);
        let mut found: Vec<Vec<u8>> = (1u32..1 << distinct.len())
            .map(|pick| {
                (0..distinct.len())
                    .filter(|&i| pick >> i & 1 == 1)
                    .map(|i| distinct[i])
                    .collect::<Vec<u8>>()
            })
            .filter(|subset| is_affine(subset))
            .collect();
        found.sort_unstable();
        found
    }

    /// Bytes drawn from a few small patterns so that affine subsets are frequent.
    fn small_symbol_sets() -> impl Strategy<Value = Vec<u8>> {
        (
            any::<u8>(),
            prop::collection::vec(0u8..32, 1..=14),
            any::<u8>(),
        )
            .prop_map(|(offset, low, spread)| {
                low.into_iter()
                    .map(|x| offset ^ x ^ if x & 1 == 1 { spread & 0xe0 } else { 0 })
                    .collect()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn affine_subsets_are_all_affine_subsets_in_lexicographic_order(
            symbols in small_symbol_sets(),
        ) {
            let brute = brute_force_affine_subsets(&symbols);
            let mut listed = Vec::new();
            for dim in 0..=4 {
                let of_dim: Vec<Vec<u8>> =
                    brute.iter().filter(|s| s.len() == 1 << dim).cloned().collect();
                prop_assert_eq!(&affine_subsets(&symbols, dim), &of_dim, "dim {}", dim);
                listed.extend(of_dim);
            }
            prop_assert_eq!(listed.len(), brute.len());
        }

        #[test]
        fn largest_affine_subset_is_the_first_of_the_largest(symbols in small_symbol_sets()) {
            let brute = brute_force_affine_subsets(&symbols);
            let size = brute.iter().map(Vec::len).max().unwrap_or(0);
            let first = brute.iter().find(|s| s.len() == size).cloned().unwrap_or_default();
            prop_assert_eq!(largest_affine_subset(&symbols), first);
        }
    }

    /// A greedy search misses this one: from `@`, growing by `A` first leads to a dead end
    /// of 2, while `@BDF` (directions 2 and 4) has 4.
    #[test]
    fn largest_affine_subset_is_exact_where_greedy_is_not() {
        assert_eq!(largest_affine_subset(b"@ABDF"), b"@BDF");
        assert_eq!(largest_affine_subset(b""), b"");
        assert_eq!(largest_affine_subset(b"x"), b"x");
    }

    /// The whole byte space and its halves, large enough that only pruning makes it fast.
    #[test]
    fn large_affine_subsets() {
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(largest_affine_subset(&all), all);
        assert_eq!(affine_subsets(&all, 7).len(), 2 * 255);
        let ascii: Vec<u8> = (0..128).collect();
        let mut broken = ascii.clone();
        broken[77] = 200;
        assert_eq!(largest_affine_subset(&ascii), ascii);
        let largest = largest_affine_subset(&broken);
        assert_eq!(largest.len(), 64);
        assert!(is_affine(&largest));
        assert_eq!(largest, (0..64).collect::<Vec<u8>>());
    }

    #[test]
    fn not_affine_error_names_the_breaking_symbol_and_the_largest_subset() {
        match Alphabet::new(b"@ABDFGHI") {
            Err(Error::NotAffine {
                symbol,
                largest_subset,
            }) => {
                // sorted @ABDFGHI: symbol 3 should be @^A^B = C, and is D
                assert_eq!(symbol, b'D');
                // 0x40 ^ 0x41 ^ 0x46 = 0x47: directions 1 and 6; nothing has 8
                assert_eq!(largest_subset, b"@AFG");
            }
            other => panic!("{other:?}"),
        }
    }
}
