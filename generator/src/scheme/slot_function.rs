//! [`SlotFunction`]: the slot of a key, for a CRC-16 spec or a named scheme alike, with the
//! hashtag rule it reads the key by: what `slotgen check`, the conformance corpus
//! ([`crate::vectors`]) and `slotgen verify --exec` compute slots with.

use std::fmt;

use slotgen_tables::{HashtagRule, Scheme, SchemeName};

use super::invert::SchemeSpec;
use super::table_spec::{crc16_scheme, TableSpec};
use crate::spec::SlotCount;
use crate::Spec;

/// The slot of a key under a CRC-16 spec (the Redis rule, then `crc & (slots - 1)`, slots
/// `0..slots`) or a named scheme ([`Scheme::slot`], slots `first..first + slots`): in both
/// cases a [`Scheme`] computes it, a CRC-16 spec's being the one [`derive()`](crate::derive())
/// solves its tags for.
///
/// `Display` names it for reports: `CRC-16/XMODEM, 16384 slots`, `scheme codis, 1024
/// slots`, `scheme tarantool-vshard, 3000 slots (1 to 3000)`, `scheme twemproxy-crc32a, 3
/// slots, hash_tag "{}"`.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::SlotFunction;
/// use slotgen_tables::SchemeName;
///
/// let redis = SlotFunction::try_from(&slotgen::Spec::default())?;
/// assert_eq!(redis.slot(b"123456789"), 12739);
/// assert_eq!(redis.to_string(), "CRC-16/XMODEM, 16384 slots");
///
/// let vshard = SlotFunction::scheme(SchemeName::TarantoolVshard, None, None)?;
/// assert_eq!(vshard.slot(b"123456789"), 0x1cf9_6d7c % 3000 + 1);
/// assert_eq!((vshard.first_slot(), vshard.last_slot()), (1, 3000));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SlotFunction {
    /// What it was made from: a CRC-16 spec, or a named scheme with its slot count and
    /// `hash_tag`.
    spec: TableSpec,
    /// What computes the slots.
    scheme: Scheme<'static>,
}

impl TableSpec {
    /// The slot of a key under this spec: the CRC-16 spec's (its alphabet and tag length do
    /// not matter to a key's slot), or the scheme's.
    ///
    /// # Errors
    ///
    /// [`crate::Error::SlotCount`] as [`SlotFunction::try_from`], [`crate::Error::Scheme`]
    /// as [`SlotFunction::scheme`].
    pub fn slot_function(&self) -> Result<SlotFunction, crate::Error> {
        match self {
            Self::Crc16(spec) => SlotFunction::try_from(spec),
            Self::Scheme(spec) => SlotFunction::scheme(spec.name, spec.slots, spec.hash_tag),
        }
    }
}

impl Default for SlotFunction {
    /// Redis Cluster's: CRC-16/XMODEM, 16384 slots.
    fn default() -> Self {
        Self::try_from(&Spec::default()).expect("16384 slots: a power of two")
    }
}

impl TryFrom<&Spec> for SlotFunction {
    type Error = crate::Error;

    /// The slot function of `spec`'s CRC and slot count (its alphabet and tag length do not
    /// matter to a key's slot).
    ///
    /// # Errors
    ///
    /// [`crate::Error::SlotCount`] when the slot count is not a power of two from 2 to
    /// 65536.
    fn try_from(spec: &Spec) -> Result<Self, Self::Error> {
        let slots = SlotCount::new(u64::from(spec.slots))?;
        Ok(Self {
            spec: TableSpec::Crc16(spec.clone()),
            scheme: crc16_scheme(&spec.crc, slots),
        })
    }
}

impl SlotFunction {
    /// The named scheme `name` with `slots` slots (its default when `None`) and, for
    /// twemproxy, the `hash_tag` delimiters.
    ///
    /// # Errors
    ///
    /// [`crate::Error::Scheme`] as [`SchemeName::scheme`].
    pub fn scheme(
        name: SchemeName,
        slots: Option<u32>,
        hash_tag: Option<[u8; 2]>,
    ) -> Result<Self, crate::Error> {
        Ok(Self {
            scheme: name.scheme(slots, hash_tag)?,
            spec: TableSpec::Scheme(SchemeSpec {
                slots,
                hash_tag,
                ..SchemeSpec::new(name)
            }),
        })
    }

    /// The slot of `key`, in [`first_slot`](Self::first_slot)`..=`[`last_slot`](Self::last_slot).
    #[must_use]
    #[inline]
    pub fn slot(&self, key: &[u8]) -> u32 {
        self.scheme.slot(key)
    }

    /// The slots of many keys at once: `out[i]` becomes [`slot`](Self::slot)`(keys[i])` for
    /// every `i` below `keys.len()`, by the runtime's batch path
    /// ([`Scheme::key_slots`]), which works on several keys at a time.
    ///
    /// # Panics
    ///
    /// When `out` is shorter than `keys`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen::scheme::SlotFunction;
    ///
    /// let redis = SlotFunction::try_from(&slotgen::Spec::default())?;
    /// let keys: [&[u8]; 3] = [b"123456789", b"user:{42}:name", b"foo"];
    /// let mut slots = [0u32; 3];
    /// redis.key_slots(&keys, &mut slots);
    /// assert_eq!(slots, [12739, 8000, 12182]);
    /// # Ok::<(), slotgen::Error>(())
    /// ```
    pub fn key_slots<K: AsRef<[u8]>>(&self, keys: &[K], out: &mut [u32]) {
        self.scheme.key_slots(keys, out);
    }

    /// The hashtag rule keys are read by: the Redis rule for a CRC-16 spec.
    #[must_use]
    pub fn rule(&self) -> HashtagRule {
        self.scheme.hashtag()
    }

    /// The number of slots.
    #[must_use]
    pub fn slots(&self) -> u32 {
        self.scheme.slots()
    }

    /// The first slot: 0, or 1 for Tarantool vshard's buckets.
    #[must_use]
    pub fn first_slot(&self) -> u32 {
        self.scheme.offset()
    }

    /// The last slot.
    #[must_use]
    pub fn last_slot(&self) -> u32 {
        self.scheme.last()
    }

    /// The runtime's scheme that computes the slots.
    pub(crate) fn runtime(&self) -> &Scheme<'static> {
        &self.scheme
    }

    /// The CRC-16 spec, when this is one's.
    #[must_use]
    pub fn spec(&self) -> Option<&Spec> {
        match &self.spec {
            TableSpec::Crc16(spec) => Some(spec),
            TableSpec::Scheme(_) => None,
        }
    }

    /// The named scheme and its `hash_tag`, when this is one's.
    #[must_use]
    pub fn scheme_name(&self) -> Option<(SchemeName, Option<[u8; 2]>)> {
        match &self.spec {
            TableSpec::Crc16(_) => None,
            TableSpec::Scheme(spec) => Some((spec.name, spec.hash_tag)),
        }
    }

    /// The keys' fields of a JSON header that name this function: `crc` (the RevEng
    /// parameters, as `slotgen emit json` writes them) and `slots` for a CRC-16 spec;
    /// `scheme` (`name`, `hash_tag` as text or null, `first_slot`) and `slots` for a scheme.
    #[must_use]
    pub fn json_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let value = match &self.spec {
            TableSpec::Crc16(spec) => serde_json::json!({
                "crc": crate::crc_catalog::crc_value(spec.crc_name(), &spec.crc),
                "slots": spec.slots,
            }),
            TableSpec::Scheme(spec) => serde_json::json!({
                "scheme": {
                    "name": spec.name.name(),
                    "hash_tag": spec.hash_tag.map(|d| String::from_utf8_lossy(&d).into_owned()),
                    "first_slot": self.first_slot(),
                },
                "slots": self.slots(),
            }),
        };
        match value {
            serde_json::Value::Object(map) => map,
            _ => unreachable!("an object literal"),
        }
    }

    /// The `slotgen` options that name this function: `--crc NAME --slots N` (or the custom
    /// CRC's parameters), or `--scheme NAME --slots N` with `--hash-tag`, each value quoted
    /// for a POSIX shell where it needs it.
    #[must_use]
    pub fn options(&self) -> String {
        match &self.spec {
            TableSpec::Crc16(spec) => format!(
                "{} --slots {}",
                crate::catalog::crc_options(&spec.crc),
                spec.slots
            ),
            TableSpec::Scheme(spec) => {
                let mut out = format!("--scheme {} --slots {}", spec.name.name(), self.slots());
                if let Some(pair) = spec.hash_tag {
                    out += " --hash-tag ";
                    out += &crate::text::shell_quote(&pair);
                }
                out
            }
        }
    }
}

impl fmt::Display for SlotFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.spec {
            TableSpec::Crc16(spec) => write!(f, "{}, {} slots", spec.crc_name(), spec.slots),
            TableSpec::Scheme(spec) => {
                write!(f, "scheme {}, {} slots", spec.name.name(), self.slots())?;
                if self.first_slot() != 0 {
                    write!(f, " ({} to {})", self.first_slot(), self.last_slot())?;
                }
                if let Some(pair) = spec.hash_tag {
                    write!(f, ", hash_tag \"{}\"", crate::text::escape(&pair))?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotgen_tables::hashtag;

    /// Keys for every hashtag rule and length path: braces and twemproxy's delimiters in
    /// every place, empty tags, binary bytes, lengths 0 to 300.
    fn keys() -> Vec<Vec<u8>> {
        let mut keys: Vec<Vec<u8>> = [
            &b""[..],
            b"123456789",
            b"{}",
            b"{a}",
            b"a{}b{c}",
            b"{{a}}",
            b"user:{42}:name",
            b"}{",
            b"{",
            b"x{yz",
            b"\x00\xff{\n}",
            b"$a$b$",
        ]
        .iter()
        .map(|k| k.to_vec())
        .collect();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for len in 0..300 {
            let key = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    b"ab{}$\x00\xff"[(state % 7) as usize]
                })
                .collect();
            keys.push(key);
        }
        keys
    }

    #[test]
    fn key_slots_are_the_crc_crates_slots_and_each_schemes_own() {
        let keys = keys();
        let mut slots = vec![0; keys.len()];
        // a CRC-16 spec: the `crc` crate's CRC of the Redis hashtag, masked
        let specs = [
            (crc::CRC_16_XMODEM, 16384),
            (crc::CRC_16_KERMIT, 1024),
            (
                crate::catalog::custom(0x8005, 0x1234, true, false, 0xbeef),
                65536,
            ),
            (crc::CRC_16_XMODEM, 2),
        ];
        for (algorithm, count) in specs {
            let spec = Spec {
                crc: algorithm,
                slots: count,
                ..Spec::default()
            };
            SlotFunction::try_from(&spec)
                .unwrap()
                .key_slots(&keys, &mut slots);
            // the crc crate takes a static algorithm
            let reference = crc::Crc::<u16>::new(Box::leak(Box::new(algorithm)));
            for (key, &slot) in keys.iter().zip(&slots) {
                let expected = reference.checksum(hashtag(key)) & (count - 1) as u16;
                assert_eq!(slot, u32::from(expected), "{key:?}, {count} slots");
            }
        }
        // a named scheme: its own slot of each key
        for name in SchemeName::ALL {
            let hash_tags = match name {
                SchemeName::TwemproxyCrc32a
                | SchemeName::TwemproxyCrc32
                | SchemeName::TwemproxyCrc16 => &[None, Some(*b"$$"), Some(*b"{}")][..],
                _ => &[None],
            };
            for &hash_tag in hash_tags {
                let function = SlotFunction::scheme(name, Some(1024), hash_tag).unwrap();
                function.key_slots(&keys, &mut slots);
                for (key, &slot) in keys.iter().zip(&slots) {
                    assert_eq!(slot, function.slot(key), "{key:?}, {function}");
                }
            }
        }
    }
}
