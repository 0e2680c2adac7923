//! [`SlotFunction`]: the slot of a key, for a CRC-16 spec or a named scheme alike, with the
//! hashtag rule it reads the key by: what `slotgen check`, the conformance corpus
//! ([`crate::vectors`]) and `slotgen verify --exec` compute slots with.

use std::fmt;

use slotgen_tables::{hashtag, AnyCrc, Crc16, HashtagRule, Reduction, Scheme, SchemeName};

use crate::Spec;

/// The slot of a key under a CRC-16 spec (the Redis rule, then `crc & (slots - 1)`, slots
/// `0..slots`) or a named scheme ([`Scheme::slot`], slots `first..first + slots`).
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
/// let redis = SlotFunction::from(&slotgen::Spec::default());
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
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    /// A CRC-16 spec: its engine (8 KiB of tables), built once, and the mask `slots - 1`.
    Crc16 {
        spec: Spec,
        crc: Box<Crc16>,
        mask: u16,
    },
    /// A named scheme, with the `hash_tag` it was given.
    Scheme {
        name: SchemeName,
        hash_tag: Option<[u8; 2]>,
        scheme: Scheme<'static>,
    },
}

impl From<&Spec> for SlotFunction {
    /// The slot function of `spec`'s CRC and slot count (its alphabet and tag length do not
    /// matter to a key's slot).
    fn from(spec: &Spec) -> Self {
        Self {
            kind: Kind::Crc16 {
                spec: spec.clone(),
                crc: Box::new(Crc16::new(&spec.crc)),
                // a spec's slot count is a power of two in 2..=65536: the mask fits 16 bits
                mask: (spec.slots.max(1) - 1) as u16,
            },
        }
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
            kind: Kind::Scheme {
                name,
                hash_tag,
                scheme: name.scheme(slots, hash_tag)?,
            },
        })
    }

    /// The slot of `key`, in [`first_slot`](Self::first_slot)`..=`[`last_slot`](Self::last_slot).
    #[must_use]
    #[inline]
    pub fn slot(&self, key: &[u8]) -> u32 {
        match &self.kind {
            Kind::Crc16 { crc, mask, .. } => u32::from(crc.checksum(hashtag(key)) & mask),
            Kind::Scheme { scheme, .. } => scheme.slot(key),
        }
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
    /// let redis = SlotFunction::from(&slotgen::Spec::default());
    /// let keys: [&[u8]; 3] = [b"123456789", b"user:{42}:name", b"foo"];
    /// let mut slots = [0u32; 3];
    /// redis.key_slots(&keys, &mut slots);
    /// assert_eq!(slots, [12739, 8000, 12182]);
    /// ```
    pub fn key_slots<K: AsRef<[u8]>>(&self, keys: &[K], out: &mut [u32]) {
        match &self.kind {
            Kind::Crc16 { crc, mask, .. } => crc16_scheme(crc, *mask).key_slots(keys, out),
            Kind::Scheme { scheme, .. } => scheme.key_slots(keys, out),
        }
    }

    /// The hashtag rule keys are read by: the Redis rule for a CRC-16 spec.
    #[must_use]
    pub fn rule(&self) -> HashtagRule {
        match &self.kind {
            Kind::Crc16 { .. } => HashtagRule::Redis,
            Kind::Scheme { scheme, .. } => scheme.hashtag(),
        }
    }

    /// The number of slots.
    #[must_use]
    pub fn slots(&self) -> u32 {
        match &self.kind {
            Kind::Crc16 { spec, .. } => spec.slots,
            Kind::Scheme { scheme, .. } => scheme.slots(),
        }
    }

    /// The first slot: 0, or 1 for Tarantool vshard's buckets.
    #[must_use]
    pub fn first_slot(&self) -> u32 {
        match &self.kind {
            Kind::Crc16 { .. } => 0,
            Kind::Scheme { scheme, .. } => scheme.offset(),
        }
    }

    /// The last slot.
    #[must_use]
    pub fn last_slot(&self) -> u32 {
        match &self.kind {
            Kind::Crc16 { spec, .. } => spec.slots - 1,
            Kind::Scheme { scheme, .. } => scheme.last(),
        }
    }

    /// The CRC-16 spec, when this is one's.
    #[must_use]
    pub fn spec(&self) -> Option<&Spec> {
        match &self.kind {
            Kind::Crc16 { spec, .. } => Some(spec),
            Kind::Scheme { .. } => None,
        }
    }

    /// The named scheme and its `hash_tag`, when this is one's.
    #[must_use]
    pub fn scheme_name(&self) -> Option<(SchemeName, Option<[u8; 2]>)> {
        match &self.kind {
            Kind::Crc16 { .. } => None,
            Kind::Scheme { name, hash_tag, .. } => Some((*name, *hash_tag)),
        }
    }

    /// The keys' fields of a JSON header that name this function: `crc` (the RevEng
    /// parameters, as `slotgen emit json` writes them) and `slots` for a CRC-16 spec;
    /// `scheme` (`name`, `hash_tag` as text or null, `first_slot`) and `slots` for a scheme.
    #[must_use]
    pub fn json_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let value = match &self.kind {
            Kind::Crc16 { spec, .. } => serde_json::json!({
                "crc": crate::crc_catalog::crc_value(spec.crc_name(), &spec.crc),
                "slots": spec.slots,
            }),
            Kind::Scheme {
                name,
                hash_tag,
                scheme,
            } => serde_json::json!({
                "scheme": {
                    "name": name.name(),
                    "hash_tag": hash_tag.map(|d| String::from_utf8_lossy(&d).into_owned()),
                    "first_slot": scheme.offset(),
                },
                "slots": scheme.slots(),
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
        match &self.kind {
            Kind::Crc16 { spec, .. } => format!(
                "{} --slots {}",
                crate::catalog::crc_options(&spec.crc),
                spec.slots
            ),
            Kind::Scheme {
                name,
                hash_tag,
                scheme,
            } => {
                let mut out = format!("--scheme {} --slots {}", name.name(), scheme.slots());
                if let Some(pair) = hash_tag {
                    out += " --hash-tag ";
                    out += &crate::text::shell_quote(pair);
                }
                out
            }
        }
    }
}

/// A CRC-16 spec's slot function as a [`Scheme`], so that its keys take the scheme's batch
/// path: the Redis rule, the CRC, and `mask` as the output transform's mask; the reduction
/// to 65536 slots then leaves `crc & mask`, what [`SlotFunction::slot`] gives, whatever the
/// mask.
fn crc16_scheme(crc: &Crc16, mask: u16) -> Scheme<'_> {
    const VALUES: u32 = 1 << 16;
    match Scheme::new(
        HashtagRule::Redis,
        AnyCrc::W16(crc),
        0,
        u64::from(mask),
        Reduction::Mask,
        VALUES,
        0,
    ) {
        Ok(scheme) => scheme,
        Err(e) => unreachable!("no shift, 2^16 values, no offset: {e}"),
    }
}

impl fmt::Display for SlotFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Crc16 { spec, .. } => write!(f, "{}, {} slots", spec.crc_name(), spec.slots),
            Kind::Scheme {
                name,
                hash_tag,
                scheme,
            } => {
                write!(f, "scheme {}, {} slots", name.name(), scheme.slots())?;
                if scheme.offset() != 0 {
                    write!(f, " ({} to {})", self.first_slot(), self.last_slot())?;
                }
                if let Some(pair) = hash_tag {
                    write!(f, ", hash_tag \"{}\"", crate::text::escape(pair))?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            SlotFunction::from(&spec).key_slots(&keys, &mut slots);
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
