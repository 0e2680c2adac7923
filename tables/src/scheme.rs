//! Sharding schemes: how a system maps a key to a slot (hash slot, vBucket, bucket,
//! partition or server index) by a CRC.
//!
//! Every scheme here is the same five steps, each a field of [`Scheme`]:
//!
//! 1. the hashtag rule picks the bytes that are hashed ([`HashtagRule`]);
//! 2. a CRC of width 8 to 64 ([`AnyCrc`]) of those bytes, in its own register, or (for
//!    twemproxy's `hash: crc16`) in a wider register that is never masked ([`Register`]);
//! 3. an output transform: `(register >> shift) & mask`;
//! 4. a reduction to `slots` values: `& (slots - 1)` for a power of two, or `% slots`
//!    ([`Reduction`]);
//! 5. an offset added to the result (1 for Tarantool vshard, whose buckets are 1..N).
//!
//! [`SchemeName`] lists the named schemes, each with its source and its default slot count.

use crate::engine::{AnyCrc, CrcEngine};
use crate::Error;

/// The hash slots of a Redis Cluster: `CLUSTER_SLOTS` of the Redis Cluster specification,
/// 16384 (2^14). The one place the number is written as code.
pub const REDIS_CLUSTER_SLOTS: u32 = 16384;

/// CRC-32/ISO-HDLC (zlib's, Go's `crc32.ChecksumIEEE`), used by Codis, Couchbase,
/// librdkafka and twemproxy.
static CRC_32_ISO_HDLC: CrcEngine<u32> = CrcEngine::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// Tarantool's `digest.crc32`: the CRC-32C polynomial (CRC-32/ISCSI's `poly`, `init`,
/// `refin`, `refout`) without its final xor. Not a catalogue entry.
pub const CRC_32_TARANTOOL: crc::Algorithm<u32> = crc::Algorithm {
    width: 32,
    poly: 0x1edc_6f41,
    init: 0xffff_ffff,
    refin: true,
    refout: true,
    xorout: 0x0000_0000,
    check: 0x1cf9_6d7c,
    // Without a final xor, a message followed by its CRC (least significant byte first)
    // leaves the register at 0.
    residue: 0x0000_0000,
};

static CRC_32_TARANTOOL_ENGINE: CrcEngine<u32> = CrcEngine::<u32>::new(&CRC_32_TARANTOOL);

/// Which bytes of a key a scheme hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashtagRule {
    /// The whole key (Couchbase, Tarantool vshard, librdkafka, twemproxy without
    /// `hash_tag`).
    WholeKey,
    /// The Redis Cluster rule ([`hashtag`](crate::hashtag)): the bytes between the first
    /// `{` and the first `}` after it; the whole key when there is no such pair or the tag
    /// is empty.
    Redis,
    /// The Codis rule (Codis proxy `hashSlot`, codis-server `slots_tag`): the bytes between
    /// the first `{` and the first `}` after it, even when empty: `{}` hashes the empty
    /// string. The whole key when there is no such pair.
    Codis,
    /// twemproxy's `hash_tag: "<open><close>"`: the bytes between the first `open` and the
    /// first `close` after it; the whole key when there is no such pair or the tag is empty.
    /// `Delimited { open: b'{', close: b'}' }` is the Redis rule.
    Delimited {
        /// The byte that opens a tag.
        open: u8,
        /// The byte that closes it.
        close: u8,
    },
}

impl HashtagRule {
    /// The bytes that open and close a hashtag under this rule: `{` and `}` for Redis and
    /// Codis, the pool's pair for twemproxy; `None` when the whole key is hashed.
    #[must_use]
    pub const fn delimiters(&self) -> Option<[u8; 2]> {
        match *self {
            Self::WholeKey => None,
            Self::Redis | Self::Codis => Some(*b"{}"),
            Self::Delimited { open, close } => Some([open, close]),
        }
    }

    /// The rule's name, as slotgen's JSON writes it (`emit json`, `check --format json`):
    /// `whole-key`, `redis`, `codis` or `delimited`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match *self {
            Self::WholeKey => "whole-key",
            Self::Redis => "redis",
            Self::Codis => "codis",
            Self::Delimited { .. } => "delimited",
        }
    }

    /// Whether an empty hashtag (`{}`) is hashed, as the empty string (Codis), rather than
    /// sending the whole key to the CRC (Redis, twemproxy).
    #[must_use]
    pub const fn hashes_empty_tag(&self) -> bool {
        matches!(self, Self::Codis)
    }

    /// The bytes of `key` that this rule hashes, borrowed from `key`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::HashtagRule;
    ///
    /// assert_eq!(HashtagRule::Redis.apply(b"a{}b"), b"a{}b");
    /// assert_eq!(HashtagRule::Codis.apply(b"a{}b"), b"");
    /// let colons = HashtagRule::Delimited { open: b':', close: b':' };
    /// assert_eq!(colons.apply(b"user:42:name"), b"42");
    /// ```
    #[must_use]
    #[inline]
    pub fn apply<'k>(&self, key: &'k [u8]) -> &'k [u8] {
        match *self {
            Self::WholeKey => key,
            Self::Redis => crate::hashtag(key),
            Self::Codis => match between(key, b'{', b'}') {
                Some(tag) => tag,
                None => key,
            },
            Self::Delimited { open, close } => match between(key, open, close) {
                Some(tag) if !tag.is_empty() => tag,
                _ => key,
            },
        }
    }
}

/// The bytes between the first `open` and the first `close` after it, if both are there.
#[inline]
fn between(key: &[u8], open: u8, close: u8) -> Option<&[u8]> {
    let start = memchr::memchr(open, key)? + 1;
    let len = memchr::memchr(close, &key[start..])?;
    Some(&key[start..start + len])
}

/// How a transformed CRC value becomes one of `slots` slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// `value & (slots - 1)`: the slot count is a power of two (Redis Cluster).
    Mask,
    /// `value % slots` (every other scheme here).
    Modulus,
}

/// The register a scheme's CRC steps run in, whose final contents are the value the output
/// transform reads.
///
/// # Examples
///
/// ```
/// use slotgen_tables::{Register, Scheme};
///
/// // nutcracker's `hash_crc16` of "123456789": CRC-16/XMODEM's check value 0x31c3 in the
/// // low 16 bits, and above it the high bytes of the CRCs of "12345678" (0x90) and
/// // "1234567" (0x86), which the register's shifts carried up
/// let pool = Scheme::twemproxy_crc16(3, None)?;
/// assert_eq!(pool.register(), Register::Unmasked32);
/// assert_eq!(pool.value(b"123456789"), 0x8690_31c3);
/// assert_eq!(pool.slot(b"123456789"), 0x8690_31c3 % 3);
/// # Ok::<(), slotgen_tables::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Register {
    /// The CRC's own register of `width` bits: the value is the CRC, final xor and
    /// reflection applied (every scheme but `twemproxy-crc16`).
    Crc,
    /// twemproxy's `hash_crc16` (`src/hashkit/nc_crc16.c`): the byte steps of a CRC-16 that
    /// is not reflected and has no final xor (CRC-16/XMODEM), `reg = (reg << 8) ^
    /// table[((reg >> 8) ^ byte) & 0xff]`, in a 32-bit register that is never cut back to
    /// 16 bits. Its low 16 bits are the CRC of the key; bits 16 to 23 are the high byte of
    /// the CRC of the key without its last byte, and bits 24 to 31 that of the key without
    /// its last two bytes (0 for shorter keys), carried up by the shifts. Each is a CRC of a
    /// fixed part of the key, so the value is still affine over GF(2) in the key's bits for
    /// a fixed length.
    Unmasked32,
}

impl Register {
    /// The width of the value this register holds, in bits: the CRC's for
    /// [`Register::Crc`], 32 for [`Register::Unmasked32`].
    #[must_use]
    pub const fn width(self, crc: AnyCrc<'_>) -> u32 {
        match self {
            Self::Crc => crc.width() as u32,
            Self::Unmasked32 => 32,
        }
    }
}

/// The register of [`Register::Unmasked32`] after `bytes`, from the CRC-16 engine `crc`.
///
/// After two more bytes the register's bits 16 to 31 have been shifted out, so the register
/// after all but the last two bytes contributes only its low 16 bits, which are that
/// prefix's CRC (no reflection, no final xor): the CRC engine's fast paths take the prefix,
/// and the last two bytes are stepped here.
#[inline]
fn unmasked_32(crc: &CrcEngine<u16>, bytes: &[u8]) -> u32 {
    let (head, tail) = bytes.split_at(bytes.len().saturating_sub(2));
    unmasked_steps(crc.table(), u32::from(crc.checksum(head)), tail)
}

/// `reg = (reg << 8) ^ table[((reg >> 8) ^ byte) & 0xff]` for each byte, in 32 bits.
const fn unmasked_steps(table: &[u16; 256], mut reg: u32, bytes: &[u8]) -> u32 {
    let mut i = 0;
    while i < bytes.len() {
        let index = ((reg >> 8) as u8 ^ bytes[i]) as usize;
        reg = (reg << 8) ^ table[index] as u32;
        i += 1;
    }
    reg
}

/// A sharding scheme with its slot count: `slot(key) = reduce((register(rule(key)) >> shift)
/// & mask) + offset`, with the slot in `offset..offset + slots`; the register is the CRC's
/// own but for `twemproxy-crc16` ([`Register`]).
///
/// # Examples
///
/// ```
/// use slotgen_tables::{Scheme, SchemeName};
///
/// // Redis Cluster: CLUSTER KEYSLOT 123456789 answers 12739
/// assert_eq!(Scheme::redis_cluster().slot(b"123456789"), 12739);
///
/// // Tarantool vshard, 3000 buckets: bucket_id_strcrc32("123456789") is
/// // 0x1cf96d7c % 3000 + 1
/// let vshard = SchemeName::TarantoolVshard.scheme(None, None)?;
/// assert_eq!(vshard.slot(b"123456789"), 0x1cf9_6d7c % 3000 + 1);
///
/// // librdkafka has no default partition count
/// assert!(SchemeName::Librdkafka.scheme(None, None).is_err());
/// assert_eq!(Scheme::librdkafka(12)?.slot(b"123456789"), 0xcbf4_3926 % 12);
/// # Ok::<(), slotgen_tables::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Scheme<'a> {
    hashtag: HashtagRule,
    crc: AnyCrc<'a>,
    register: Register,
    /// Below the CRC's width (at most 64), so a byte: with `register` and the other small
    /// fields it keeps a `Scheme` at 40 bytes on 64-bit targets.
    shift: u8,
    mask: u64,
    reduction: Reduction,
    slots: u32,
    offset: u32,
}

impl<'a> Scheme<'a> {
    /// A scheme from its parts.
    ///
    /// # Errors
    ///
    /// - [`Error::ZeroSlots`] when `slots` is 0.
    /// - [`Error::SlotsNotPowerOfTwo`] when `reduction` is [`Reduction::Mask`] and `slots`
    ///   is not a power of two.
    /// - [`Error::ShiftTooWide`] when `shift` is not below the CRC's width.
    /// - [`Error::OffsetOverflow`] when `offset + slots - 1` does not fit a `u32`.
    pub const fn new(
        hashtag: HashtagRule,
        crc: AnyCrc<'a>,
        shift: u32,
        mask: u64,
        reduction: Reduction,
        slots: u32,
        offset: u32,
    ) -> Result<Self, Error> {
        if slots == 0 {
            return Err(Error::ZeroSlots);
        }
        if matches!(reduction, Reduction::Mask) && !slots.is_power_of_two() {
            return Err(Error::SlotsNotPowerOfTwo { slots });
        }
        if shift >= crc.width() as u32 {
            return Err(Error::ShiftTooWide {
                shift,
                width: crc.width(),
            });
        }
        if offset.checked_add(slots - 1).is_none() {
            return Err(Error::OffsetOverflow { offset, slots });
        }
        Ok(Self {
            hashtag,
            crc,
            register: Register::Crc,
            // below the width, which is at most 64
            shift: shift as u8,
            mask,
            reduction,
            slots,
            offset,
        })
    }

    /// The slot of `key`, in `offset..offset + slots`.
    #[must_use]
    #[inline]
    pub fn slot(&self, key: &[u8]) -> u32 {
        let value = self.value(key);
        let reduced = match self.reduction {
            Reduction::Mask => value & u64::from(self.slots - 1),
            // A 32-bit division where the value fits (every CRC-32 scheme): it is several
            // times faster than a 64-bit one on common CPUs.
            Reduction::Modulus => match u32::try_from(value) {
                Ok(v) => u64::from(v % self.slots),
                Err(_) => value % u64::from(self.slots),
            },
        };
        // below `slots`, a u32
        reduced as u32 + self.offset
    }

    /// The slots of many keys at once: `out[i]` becomes [`slot`](Self::slot)`(keys[i])` for
    /// every `i` below `keys.len()`; `out`'s entries past that are left as they are.
    ///
    /// # Panics
    ///
    /// When `out` is shorter than `keys`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::Scheme;
    ///
    /// let codis = Scheme::codis();
    /// let keys: [&[u8]; 2] = [b"a{x}b", b"x"];
    /// let mut slots = [0u32; 2];
    /// codis.key_slots(&keys, &mut slots);
    /// assert_eq!(slots, [codis.slot(b"x"), codis.slot(b"x")]);
    /// ```
    #[track_caller]
    pub fn key_slots<K: AsRef<[u8]>>(&self, keys: &[K], out: &mut [u32]) {
        crate::engine::check_out(out.len(), keys.len());
        for (key, slot) in keys.iter().zip(out) {
            *slot = self.slot(key.as_ref());
        }
    }

    /// The transformed CRC value of `key`, before the reduction: `(register(rule(key)) >>
    /// shift) & mask`, the register being the CRC but for `twemproxy-crc16`
    /// ([`Register`]).
    #[must_use]
    #[inline]
    pub fn value(&self, key: &[u8]) -> u64 {
        let register = match (self.register, self.hashtag) {
            // One pass over a short key, as `SlotTable::key_slot` does.
            (Register::Crc, HashtagRule::Redis) => self.crc.key_checksum(key),
            (_, rule) => self.register_of(rule.apply(key)),
        };
        (register >> self.shift) & self.mask
    }

    /// The transformed value of bytes the hashtag rule has already picked (a tag hashed
    /// alone, whatever bytes it holds): `(register(hashed) >> shift) & mask`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::Scheme;
    ///
    /// let codis = Scheme::codis();
    /// assert_eq!(codis.value_of_hashed(b"x"), codis.value(b"a{x}b"));
    /// // the bytes `{}` themselves, which the rule would read as an empty tag
    /// assert_ne!(codis.value_of_hashed(b"{}"), codis.value(b"{}"));
    /// ```
    #[must_use]
    #[inline]
    pub fn value_of_hashed(&self, hashed: &[u8]) -> u64 {
        (self.register_of(hashed) >> self.shift) & self.mask
    }

    /// The register after `hashed`, the bytes the rule picked.
    #[inline]
    fn register_of(&self, hashed: &[u8]) -> u64 {
        match (self.register, self.crc) {
            // only `twemproxy_crc16` makes this register, and over a CRC-16
            (Register::Unmasked32, AnyCrc::W16(crc)) => u64::from(unmasked_32(crc, hashed)),
            (_, crc) => crc.checksum(hashed),
        }
    }

    /// The transformed value of bytes hashed whole (a tag alone), in a `const fn`, one byte
    /// per step: what [`SchemeTable::new`](crate::SchemeTable::new) checks its columns with
    /// at compile time.
    pub(crate) const fn const_value(&self, hashed: &[u8]) -> u64 {
        let register = match (self.register, self.crc) {
            (Register::Unmasked32, AnyCrc::W16(crc)) => {
                let start = crc.algorithm().init as u32;
                unmasked_steps(crc.table(), start, hashed) as u64
            }
            (_, AnyCrc::W8(e)) => e.const_checksum(hashed) as u64,
            (_, AnyCrc::W16(e)) => e.const_checksum(hashed) as u64,
            (_, AnyCrc::W32(e)) => e.const_checksum(hashed) as u64,
            (_, AnyCrc::W64(e)) => e.const_checksum(hashed),
        };
        (register >> self.shift) & self.mask
    }

    /// The width of the transformed value, when its mask keeps a run of low bits (every
    /// named scheme: 16 bits for Redis Cluster, 32 for CRC-32 and twemproxy's `crc16`, 15
    /// for Couchbase); `None` when the mask has holes.
    #[must_use]
    pub const fn value_bits(&self) -> Option<u32> {
        let kept = self.register.width(self.crc) - self.shift as u32;
        let all = if kept >= 64 {
            u64::MAX
        } else {
            (1u64 << kept) - 1
        };
        let mask = self.mask & all;
        if mask & mask.wrapping_add(1) == 0 {
            Some(64 - mask.leading_zeros())
        } else {
            None
        }
    }

    /// The hashtag rule.
    #[must_use]
    pub const fn hashtag(&self) -> HashtagRule {
        self.hashtag
    }

    /// The CRC.
    #[must_use]
    pub const fn crc(&self) -> AnyCrc<'a> {
        self.crc
    }

    /// The register the CRC's steps run in: [`Register::Crc`] but for `twemproxy-crc16`.
    #[must_use]
    pub const fn register(&self) -> Register {
        self.register
    }

    /// The output transform: the right shift, then the mask.
    #[must_use]
    pub const fn transform(&self) -> (u32, u64) {
        (self.shift as u32, self.mask)
    }

    /// The reduction.
    #[must_use]
    pub const fn reduction(&self) -> Reduction {
        self.reduction
    }

    /// The number of slots.
    #[must_use]
    pub const fn slots(&self) -> u32 {
        self.slots
    }

    /// The first slot: 0, or 1 for Tarantool vshard.
    #[must_use]
    pub const fn offset(&self) -> u32 {
        self.offset
    }

    /// The last slot, `offset + (slots - 1)`: the one place that adds them, in this order
    /// so that no sum of an offset and a slot count overflows.
    ///
    /// ```
    /// use slotgen_tables::Scheme;
    ///
    /// assert_eq!(Scheme::tarantool_vshard(3000)?.last(), 3000);
    /// assert_eq!(Scheme::redis_cluster().last(), 16383);
    /// # Ok::<(), slotgen_tables::Error>(())
    /// ```
    #[must_use]
    pub const fn last(&self) -> u32 {
        self.offset + (self.slots - 1)
    }
}

/// Unwraps a named scheme whose parts are fixed and valid.
const fn fixed(scheme: Result<Scheme<'static>, Error>) -> Scheme<'static> {
    match scheme {
        Ok(s) => s,
        Err(_) => panic!("a named scheme's fixed parts are valid"),
    }
}

impl Scheme<'static> {
    /// Redis Cluster (and Valkey, KeyDB, Dragonfly, Garnet, kvrocks):
    /// `CRC-16/XMODEM(hashtag) & 16383`, the Redis rule (the Redis Cluster specification).
    #[must_use]
    pub const fn redis_cluster() -> Self {
        fixed(Self::new(
            HashtagRule::Redis,
            AnyCrc::W16(&crate::catalog::CRC_16_XMODEM),
            0,
            0xffff,
            Reduction::Mask,
            REDIS_CLUSTER_SLOTS,
            0,
        ))
    }

    /// Codis (proxy `hashSlot` in `pkg/proxy/mapper.go`, 1024 slots in
    /// `pkg/models/slots.go`): `CRC-32/ISO-HDLC(tag) % 1024`, the Codis rule (an empty `{}`
    /// hashes the empty string, so lands on slot 0).
    #[must_use]
    pub const fn codis() -> Self {
        fixed(Self::new(
            HashtagRule::Codis,
            AnyCrc::W32(&CRC_32_ISO_HDLC),
            0,
            0xffff_ffff,
            Reduction::Modulus,
            1024,
            0,
        ))
    }

    /// Couchbase vBuckets (libcouchbase `lcbvb_k2vb`, `src/vbucket/vbucket.c`):
    /// `((CRC-32/ISO-HDLC(key) >> 16) & 0x7fff) % vbuckets`, no hashtag.
    ///
    /// # Errors
    ///
    /// [`Error::ZeroSlots`] when `vbuckets` is 0.
    pub const fn couchbase(vbuckets: u32) -> Result<Self, Error> {
        Self::new(
            HashtagRule::WholeKey,
            AnyCrc::W32(&CRC_32_ISO_HDLC),
            16,
            0x7fff,
            Reduction::Modulus,
            vbuckets,
            0,
        )
    }

    /// Tarantool vshard `bucket_id_strcrc32`: `digest.crc32(key) % buckets + 1`, with
    /// Tarantool's CRC ([`CRC_32_TARANTOOL`]); buckets are `1..=buckets`.
    ///
    /// # Errors
    ///
    /// [`Error::ZeroSlots`] when `buckets` is 0.
    pub const fn tarantool_vshard(buckets: u32) -> Result<Self, Error> {
        Self::new(
            HashtagRule::WholeKey,
            AnyCrc::W32(&CRC_32_TARANTOOL_ENGINE),
            0,
            0xffff_ffff,
            Reduction::Modulus,
            buckets,
            1,
        )
    }

    /// librdkafka's `consistent` partitioner (`rd_kafka_msg_partitioner_consistent`,
    /// `src/rdkafka_msg.c`): `CRC-32/ISO-HDLC(key) % partitions`. The default
    /// `consistent_random` partitioner gives the same partition for every non-empty key
    /// (an empty or absent key goes to a random partition there).
    ///
    /// # Errors
    ///
    /// [`Error::ZeroSlots`] when `partitions` is 0.
    pub const fn librdkafka(partitions: u32) -> Result<Self, Error> {
        Self::new(
            HashtagRule::WholeKey,
            AnyCrc::W32(&CRC_32_ISO_HDLC),
            0,
            0xffff_ffff,
            Reduction::Modulus,
            partitions,
            0,
        )
    }

    /// twemproxy (nutcracker) with `hash: crc32a` and `distribution: modula`, `servers`
    /// servers of equal weight: `CRC-32/ISO-HDLC(tag) % servers` (`hash_crc32a`,
    /// `modula_dispatch`), with `hash_tag` as the pool's two delimiter bytes, or the whole
    /// key without one.
    ///
    /// The slot is an index into the pool's servers **sorted by name** (shorter names
    /// first, then byte order; a server without a name is named `host:port`), not into the
    /// configuration's list: twemproxy sorts the list when it checks it for duplicates
    /// (`conf_validate_server` in `src/nc_conf.c`).
    ///
    /// # Errors
    ///
    /// [`Error::ZeroSlots`] when `servers` is 0.
    pub const fn twemproxy_crc32a(servers: u32, hash_tag: Option<[u8; 2]>) -> Result<Self, Error> {
        Self::new(
            twemproxy_rule(hash_tag),
            AnyCrc::W32(&CRC_32_ISO_HDLC),
            0,
            0xffff_ffff,
            Reduction::Modulus,
            servers,
            0,
        )
    }

    /// twemproxy with `hash: crc32` and `distribution: modula`: `((CRC-32/ISO-HDLC(tag) >>
    /// 16) & 0x7fff) % servers` (`hash_crc32`), the hashtag as for
    /// [`twemproxy_crc32a`](Self::twemproxy_crc32a), and the slot the index into the servers
    /// sorted by name as there.
    ///
    /// # Errors
    ///
    /// [`Error::ZeroSlots`] when `servers` is 0.
    pub const fn twemproxy_crc32(servers: u32, hash_tag: Option<[u8; 2]>) -> Result<Self, Error> {
        Self::new(
            twemproxy_rule(hash_tag),
            AnyCrc::W32(&CRC_32_ISO_HDLC),
            16,
            0x7fff,
            Reduction::Modulus,
            servers,
            0,
        )
    }
}

impl Scheme<'static> {
    /// twemproxy with `hash: crc16` and `distribution: modula`: `hash_crc16(tag) % servers`,
    /// where `hash_crc16` is CRC-16/XMODEM's byte steps in a 32-bit register that is never
    /// masked ([`Register::Unmasked32`]), so the value is 32 bits wide and its low 16 bits
    /// alone are XMODEM's: nutcracker with 3 servers puts about two keys in three elsewhere
    /// than `XMODEM % 3` would. The hashtag as for
    /// [`twemproxy_crc32a`](Self::twemproxy_crc32a), and the slot the index into the servers
    /// sorted by name as there.
    ///
    /// # Errors
    ///
    /// [`Error::ZeroSlots`] when `servers` is 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::Scheme;
    ///
    /// let pool = Scheme::twemproxy_crc16(3, Some(*b"{}"))?;
    /// assert_eq!(pool.slot(b"user:{123456789}"), 0x8690_31c3 % 3);
    /// # Ok::<(), slotgen_tables::Error>(())
    /// ```
    pub const fn twemproxy_crc16(servers: u32, hash_tag: Option<[u8; 2]>) -> Result<Self, Error> {
        match Self::new(
            twemproxy_rule(hash_tag),
            AnyCrc::W16(&crate::catalog::CRC_16_XMODEM),
            0,
            0xffff_ffff,
            Reduction::Modulus,
            servers,
            0,
        ) {
            Ok(scheme) => Ok(Self {
                register: Register::Unmasked32,
                ..scheme
            }),
            Err(e) => Err(e),
        }
    }
}

const fn twemproxy_rule(hash_tag: Option<[u8; 2]>) -> HashtagRule {
    match hash_tag {
        Some([open, close]) => HashtagRule::Delimited { open, close },
        None => HashtagRule::WholeKey,
    }
}

/// The named schemes, by the name `slotgen --scheme` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SchemeName {
    /// `redis-cluster`: see [`Scheme::redis_cluster`].
    RedisCluster,
    /// `codis`: see [`Scheme::codis`].
    Codis,
    /// `couchbase`: see [`Scheme::couchbase`].
    Couchbase,
    /// `tarantool-vshard`: see [`Scheme::tarantool_vshard`].
    TarantoolVshard,
    /// `librdkafka`: see [`Scheme::librdkafka`].
    Librdkafka,
    /// `twemproxy-crc32a`: see [`Scheme::twemproxy_crc32a`].
    TwemproxyCrc32a,
    /// `twemproxy-crc32`: see [`Scheme::twemproxy_crc32`].
    TwemproxyCrc32,
    /// `twemproxy-crc16`: see [`Scheme::twemproxy_crc16`].
    TwemproxyCrc16,
}

impl SchemeName {
    /// Every named scheme, `redis-cluster` first.
    pub const ALL: [Self; 8] = [
        Self::RedisCluster,
        Self::Codis,
        Self::Couchbase,
        Self::TarantoolVshard,
        Self::Librdkafka,
        Self::TwemproxyCrc32a,
        Self::TwemproxyCrc32,
        Self::TwemproxyCrc16,
    ];

    /// The scheme's name, such as `tarantool-vshard`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::RedisCluster => "redis-cluster",
            Self::Codis => "codis",
            Self::Couchbase => "couchbase",
            Self::TarantoolVshard => "tarantool-vshard",
            Self::Librdkafka => "librdkafka",
            Self::TwemproxyCrc32a => "twemproxy-crc32a",
            Self::TwemproxyCrc32 => "twemproxy-crc32",
            Self::TwemproxyCrc16 => "twemproxy-crc16",
        }
    }

    /// The systems that shard this way.
    #[must_use]
    pub const fn systems(self) -> &'static str {
        match self {
            Self::RedisCluster => "Redis Cluster, Valkey, KeyDB, Dragonfly, Garnet, kvrocks",
            Self::Codis => "Codis proxy and codis-server, Pika in Codis mode",
            Self::Couchbase => "Couchbase vBuckets (libcouchbase `lcbvb_k2vb`)",
            Self::TarantoolVshard => "Tarantool vshard `bucket_id_strcrc32`",
            Self::Librdkafka => {
                "librdkafka producers (`consistent` and, for non-empty keys, the default `consistent_random` partitioner)"
            }
            Self::TwemproxyCrc32a => "twemproxy (nutcracker) `hash: crc32a`, `distribution: modula`",
            Self::TwemproxyCrc32 => "twemproxy (nutcracker) `hash: crc32`, `distribution: modula`",
            Self::TwemproxyCrc16 => "twemproxy (nutcracker) `hash: crc16`, `distribution: modula`",
        }
    }

    /// The slot count when none is given: 16384, 1024, 1024, 3000, and none (required) for
    /// librdkafka's partitions and twemproxy's servers.
    #[must_use]
    pub const fn default_slots(self) -> Option<u32> {
        match self {
            Self::RedisCluster => Some(REDIS_CLUSTER_SLOTS),
            Self::Codis | Self::Couchbase => Some(1024),
            Self::TarantoolVshard => Some(3000),
            Self::Librdkafka
            | Self::TwemproxyCrc32a
            | Self::TwemproxyCrc32
            | Self::TwemproxyCrc16 => None,
        }
    }

    /// Whether the scheme takes two hashtag delimiter bytes (twemproxy's `hash_tag`).
    #[must_use]
    pub const fn takes_hash_tag(self) -> bool {
        matches!(
            self,
            Self::TwemproxyCrc32a | Self::TwemproxyCrc32 | Self::TwemproxyCrc16
        )
    }

    /// The scheme with `slots` slots (its default when `None`) and, for twemproxy, the
    /// `hash_tag` delimiters.
    ///
    /// # Errors
    ///
    /// - [`Error::SlotsRequired`] when `slots` is `None` and the scheme has no default.
    /// - [`Error::HashTagNotTaken`] when `hash_tag` is given to a scheme without one.
    /// - As [`Scheme::new`] for the slot count.
    pub const fn scheme(
        self,
        slots: Option<u32>,
        hash_tag: Option<[u8; 2]>,
    ) -> Result<Scheme<'static>, Error> {
        if hash_tag.is_some() && !self.takes_hash_tag() {
            return Err(Error::HashTagNotTaken {
                scheme: self.name(),
            });
        }
        let slots = match (slots, self.default_slots()) {
            (Some(n), _) | (None, Some(n)) => n,
            (None, None) => {
                return Err(Error::SlotsRequired {
                    scheme: self.name(),
                })
            }
        };
        let redis = Scheme::redis_cluster();
        let codis = Scheme::codis();
        match self {
            Self::RedisCluster => Scheme::new(
                redis.hashtag,
                redis.crc,
                redis.shift as u32,
                redis.mask,
                redis.reduction,
                slots,
                0,
            ),
            Self::Codis => Scheme::new(
                codis.hashtag,
                codis.crc,
                codis.shift as u32,
                codis.mask,
                codis.reduction,
                slots,
                0,
            ),
            Self::Couchbase => Scheme::couchbase(slots),
            Self::TarantoolVshard => Scheme::tarantool_vshard(slots),
            Self::Librdkafka => Scheme::librdkafka(slots),
            Self::TwemproxyCrc32a => Scheme::twemproxy_crc32a(slots, hash_tag),
            Self::TwemproxyCrc32 => Scheme::twemproxy_crc32(slots, hash_tag),
            Self::TwemproxyCrc16 => Scheme::twemproxy_crc16(slots, hash_tag),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nutcracker's `hash_crc16` written out bit by bit: each step's table entry computed
    /// by shifting the polynomial 0x1021 through 16 bits, not read from the engine's table,
    /// in a 32-bit register that is never masked.
    fn hash_crc16(bytes: &[u8]) -> u32 {
        let mut reg = 0u32;
        for &b in bytes {
            let mut entry = u16::from((reg >> 8) as u8 ^ b) << 8;
            for _ in 0..8 {
                entry = if entry & 0x8000 != 0 {
                    (entry << 1) ^ 0x1021
                } else {
                    entry << 1
                };
            }
            reg = (reg << 8) ^ u32::from(entry);
        }
        reg
    }

    /// The check string (0x869031c3, as Python's `binascii.crc_hqx` steps in an unmasked
    /// register give it), and every length from 0 to 300 at a few contents, through each
    /// of the engine's paths for the prefix (bytes, slice-by-16, SIMD) and the `const`
    /// path; the low 16 bits are XMODEM's.
    #[test]
    fn twemproxy_crc16_register_is_nutcrackers() {
        let pool = Scheme::twemproxy_crc16(1, None).unwrap();
        assert_eq!(hash_crc16(b"123456789"), 0x8690_31c3);
        assert_eq!(pool.value(b"123456789"), 0x8690_31c3);
        let xmodem = &crate::catalog::CRC_16_XMODEM;
        for seed in [0u8, 0x5a, 0xff] {
            let mut key = [0u8; 300];
            for (i, b) in key.iter_mut().enumerate() {
                *b = (i as u8).wrapping_mul(31) ^ seed;
            }
            for len in 0..=key.len() {
                let bytes = &key[..len];
                let expected = hash_crc16(bytes);
                assert_eq!(pool.value(bytes), u64::from(expected), "len {len}");
                assert_eq!(pool.const_value(bytes), u64::from(expected), "len {len}");
                assert_eq!(expected as u16, xmodem.checksum(bytes), "len {len}");
            }
        }
    }

    #[test]
    fn twemproxy_crc16_takes_a_hash_tag_and_reduces_by_the_servers() {
        let tagged = SchemeName::TwemproxyCrc16
            .scheme(Some(5), Some(*b"{}"))
            .unwrap();
        assert_eq!(
            tagged.slot(b"user:{123456789}:x"),
            0x8690_31c3 % 5,
            "the tag alone is hashed"
        );
        assert_eq!(
            u64::from(tagged.slot(b"a{}b")),
            u64::from(hash_crc16(b"a{}b")) % 5
        );
        assert_eq!(
            (tagged.value_bits(), tagged.register()),
            (Some(32), Register::Unmasked32)
        );
        assert!(SchemeName::TwemproxyCrc16.scheme(None, None).is_err());
        assert!(SchemeName::TwemproxyCrc16.takes_hash_tag());
        assert_eq!(Scheme::librdkafka(3).unwrap().register(), Register::Crc);
    }
}
