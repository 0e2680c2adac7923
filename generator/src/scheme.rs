//! Named sharding schemes by name, with their slot count and hashtag delimiters checked:
//! what `--scheme`, `--slots` and `--hash-tag` resolve to.
//!
//! The schemes themselves (hashtag rule, CRC, output transform, reduction, offset) are the
//! runtime's [`Scheme`] and [`SchemeName`]; this module parses names and options and gives
//! the library's errors.

use slotgen_tables::{Scheme, SchemeName};

use crate::Error;

/// The named scheme called `name`, case-insensitive, with `_` read as `-`.
///
/// # Errors
///
/// [`Error::UnknownScheme`] when no scheme has that name, with the nearest one.
///
/// # Examples
///
/// ```
/// use slotgen_tables::SchemeName;
///
/// assert_eq!(slotgen::scheme::find("Tarantool_vshard")?, SchemeName::TarantoolVshard);
/// assert!(slotgen::scheme::find("kafka").is_err());
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn find(name: &str) -> Result<SchemeName, Error> {
    let wanted = name.trim().to_ascii_lowercase().replace('_', "-");
    if let Some(s) = SchemeName::ALL.iter().find(|s| s.name() == wanted) {
        return Ok(*s);
    }
    // A name that contains what was given comes first (`kafka`, `twemproxy`), then the
    // nearest by edit distance.
    let nearest = SchemeName::ALL
        .iter()
        .min_by_key(|s| {
            (
                !s.name().contains(wanted.as_str()),
                strsim::levenshtein(s.name(), &wanted),
            )
        })
        .map_or("redis-cluster", |s| s.name());
    Err(Error::UnknownScheme {
        name: name.to_owned(),
        nearest,
        known: SchemeName::ALL.iter().map(|s| s.name()).collect(),
    })
}

/// Hashtag delimiters as given in text: exactly two bytes, the opening then the closing one
/// (`{}`, `::`), as twemproxy's `hash_tag` takes them.
///
/// # Errors
///
/// [`Error::HashTagDelimiters`] when `text` is not two bytes long.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::scheme::hash_tag("{}")?, *b"{}");
/// assert!(slotgen::scheme::hash_tag("{").is_err());
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn hash_tag(text: &str) -> Result<[u8; 2], Error> {
    <[u8; 2]>::try_from(text.as_bytes()).map_err(|_| Error::HashTagDelimiters {
        given: text.to_owned(),
    })
}

/// The scheme named `name`, with `slots` slots (its default when `None`) and, for
/// twemproxy, the hashtag delimiters `hash_tag`.
///
/// # Errors
///
/// - [`Error::UnknownScheme`] as [`find`].
/// - [`Error::HashTagDelimiters`] as [`hash_tag`].
/// - [`Error::SchemeSlots`] when `slots` is above `u32::MAX`.
/// - [`Error::Scheme`] with [`slotgen_tables::Error::SlotsRequired`] when the scheme has no
///   default slot count and none is given, [`slotgen_tables::Error::HashTagNotTaken`] when
///   delimiters are given to a scheme with a fixed rule,
///   [`slotgen_tables::Error::ZeroSlots`] for 0 slots and
///   [`slotgen_tables::Error::SlotsNotPowerOfTwo`] for Redis Cluster with a slot count that
///   is not a power of two.
///
/// # Examples
///
/// ```
/// let codis = slotgen::scheme::resolve("codis", None, None)?;
/// assert_eq!((codis.slots(), codis.slot(b"a{}b")), (1024, 0)); // `{}` hashes ""
///
/// let twemproxy = slotgen::scheme::resolve("twemproxy-crc32a", Some(3), Some("{}"))?;
/// assert_eq!(twemproxy.slot(b"x{123456789}y"), 0xcbf4_3926 % 3);
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn resolve(
    name: &str,
    slots: Option<u64>,
    hash_tag: Option<&str>,
) -> Result<Scheme<'static>, Error> {
    let scheme = find(name)?;
    let delimiters = hash_tag.map(self::hash_tag).transpose()?;
    let slots = slots
        .map(|n| u32::try_from(n).map_err(|_| Error::SchemeSlots { slots: n }))
        .transpose()?;
    Ok(scheme.scheme(slots, delimiters)?)
}

/// Refuses a scheme for which tags cannot be derived yet: every one but `redis-cluster`.
///
/// # Errors
///
/// [`Error::InversionUnavailable`] for every scheme but [`SchemeName::RedisCluster`].
pub fn require_invertible(scheme: SchemeName) -> Result<(), Error> {
    if scheme == SchemeName::RedisCluster {
        Ok(())
    } else {
        Err(Error::InversionUnavailable {
            scheme: scheme.name(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotgen_tables::Error as TablesError;

    #[test]
    fn defaults_and_required_slot_counts() {
        for (name, slots) in [
            ("redis-cluster", Some(16384)),
            ("codis", Some(1024)),
            ("couchbase", Some(1024)),
            ("tarantool-vshard", Some(3000)),
            ("librdkafka", None),
            ("twemproxy-crc32a", None),
            ("twemproxy-crc32", None),
        ] {
            match (resolve(name, None, None), slots) {
                (Ok(s), Some(n)) => assert_eq!(s.slots(), n, "{name}"),
                (Err(Error::Scheme(TablesError::SlotsRequired { scheme })), None) => {
                    assert_eq!(scheme, name);
                }
                (other, _) => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn option_errors() {
        assert!(matches!(
            resolve("codis", None, Some("{}")),
            Err(Error::Scheme(TablesError::HashTagNotTaken {
                scheme: "codis"
            }))
        ));
        assert!(matches!(
            resolve("twemproxy-crc32", Some(3), Some("{")),
            Err(Error::HashTagDelimiters { .. })
        ));
        assert!(matches!(
            resolve("librdkafka", Some(0), None),
            Err(Error::Scheme(TablesError::ZeroSlots))
        ));
        assert!(matches!(
            resolve("redis-cluster", Some(3000), None),
            Err(Error::Scheme(TablesError::SlotsNotPowerOfTwo {
                slots: 3000
            }))
        ));
        assert!(matches!(
            resolve("librdkafka", Some(1 << 32), None),
            Err(Error::SchemeSlots { .. })
        ));
        match find("twemproxy") {
            Err(e @ Error::UnknownScheme { .. }) => {
                let text = e.to_string();
                assert!(text.contains("nearest: `twemproxy-crc32`"), "{text}");
            }
            other => panic!("{other:?}"),
        }
    }
}
