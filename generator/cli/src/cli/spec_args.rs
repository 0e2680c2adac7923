//! The options that choose a spec (the CRC, the slot count or a named scheme, the alphabet
//! and the tag length) on every command that computes a slot or derives a table, their
//! request to the library's request layer, and this tool's spelling of that layer's
//! refusals and ways out (the option that applies each).

use anyhow::{anyhow, Result};
use clap::Args;
use crc::Algorithm;
use slotgen::charset::Charset;
use slotgen::request::{alphabet_of_text, CustomCrc, Field, Refusal, Request, TableSpec, WayOut};
use slotgen::scheme::invert::SchemeSpec;
use slotgen::scheme::SlotFunction;
use slotgen::{derive, Derivation, Spec};
use slotgen_tables::SchemeName;

use super::text::show;
use super::values::{self, parse_u16};
use crate::exit::usage;

/// The options that choose the slot function: the CRC and the slot count. On every command
/// that computes a slot (`slot`, `shortest`, `verify --tags`), and inside [`SpecArgs`].
#[derive(Debug, Clone, Args)]
pub struct CrcArgs {
    /// CRC-16 by catalogue name or alias, case-insensitive, punctuation optional
    /// (`CRC-16/XMODEM`, `crc16_xmodem`, `XMODEM`, `MODBUS`, `ibm-3740`); Redis Cluster's
    /// CRC16 is CRC-16/XMODEM, not the alias `CRC-16`; `slotgen catalog` lists them
    /// [default: CRC-16/XMODEM].
    #[arg(long, value_name = "NAME")]
    crc: Option<String>,
    /// A custom CRC-16 instead of --crc: its polynomial (hex `0x8005` or decimal), in the
    /// RevEng model (normal form, without the x^16 term).
    #[arg(long, value_name = "HEX", value_parser = parse_u16)]
    poly: Option<u16>,
    /// Custom CRC: the register's initial value [default: 0].
    #[arg(long, value_name = "HEX", value_parser = parse_u16)]
    init: Option<u16>,
    /// Custom CRC: whether each input byte is reflected (`true` or `false`) [default: false].
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set)]
    refin: Option<bool>,
    /// Custom CRC: whether the output is reflected [default: as --refin].
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set)]
    refout: Option<bool>,
    /// Custom CRC: the value xored into the output [default: 0].
    #[arg(long, value_name = "HEX", value_parser = parse_u16)]
    xorout: Option<u16>,
    /// The number of hash slots: a power of two from 2 to 65536 [default: 16384]. With
    /// --scheme, the scheme's slot count (vBuckets, buckets, partitions or servers) [default:
    /// the scheme's; required for librdkafka and twemproxy].
    #[arg(long, value_name = "N")]
    slots: Option<u64>,
    // The help names every scheme from `SchemeName::ALL`, the one list of them.
    #[arg(long, value_name = "NAME", help = scheme_help())]
    scheme: Option<String>,
    /// With a twemproxy --scheme: the pool's `hash_tag`, two delimiter bytes such as `{}`
    /// [default: none, the whole key is hashed].
    #[arg(long, value_name = "OC")]
    hash_tag: Option<String>,
}

// The rules between these options (one of `--crc`, `--poly` and `--scheme`; `--hash-tag`
// only with a twemproxy `--scheme`) are the library's request layer's: they are passed on
// as given and its refusal is printed (`refused`).

/// The help of `--scheme`: every named scheme, from [`SchemeName::ALL`].
fn scheme_help() -> String {
    let names: Vec<String> = SchemeName::ALL
        .iter()
        .map(|s| format!("`{}`", s.name()))
        .collect();
    format!(
        "A named sharding scheme instead of --crc: {}. With a modulus that is not a power of two, tags are solved for the whole CRC value, so they are longer (9 or 10 symbols of 16 for CRC-32); `slotgen derive --scheme` says why",
        names.join(", ")
    )
}

impl CrcArgs {
    /// The custom CRC's parameters given, as spelled: `--poly` first, then `--init`,
    /// `--refin`, `--refout` and `--xorout`.
    fn custom_given(&self) -> Vec<&'static str> {
        let given = self.given();
        given
            .into_iter()
            .filter(|o| ["--poly", "--init", "--refin", "--refout", "--xorout"].contains(o))
            .collect()
    }

    /// How this command line spells the request's fields: the custom CRC by its first
    /// option given (`--init` in `--crc xmodem --init 0xffff`).
    fn spelling(&self) -> Spelling {
        Spelling {
            alphabet_hex: false,
            custom: self.custom_given().first().copied().unwrap_or("--poly"),
        }
    }

    /// These options as the library's request (without the options of the tags). A
    /// custom CRC's parameter without `--poly` is refused as the request layer refuses it
    /// beside `--crc` or `--scheme` (a catalogue CRC's parameters are fixed), else as a
    /// custom CRC without its polynomial.
    fn request(&self) -> Result<Request> {
        let custom_given = !self.custom_given().is_empty();
        if self.poly.is_none() && custom_given && self.crc.is_none() && self.scheme.is_none() {
            let given = self.custom_given().join("`, `");
            return Err(usage(anyhow!(
                "`{given}` without `--poly`: a custom CRC needs its polynomial: give `--poly HEX` too, or `--crc NAME` alone for a catalogue CRC"
            )));
        }
        // beside `--crc` or `--scheme` the request layer refuses the custom CRC before it
        // reads its polynomial
        Ok(Request {
            crc: self.crc.clone(),
            custom: custom_given.then(|| CustomCrc {
                poly: self.poly.unwrap_or_default(),
                init: self.init,
                refin: self.refin,
                refout: self.refout,
                xorout: self.xorout,
            }),
            scheme: self.scheme.clone(),
            slots: self.slots,
            hash_tag: self.hash_tag.clone(),
            ..Request::default()
        })
    }

    /// The CRC these options name, checked against its check value. `--scheme` other than
    /// `redis-cluster` is refused: the commands that take it ask
    /// [`CrcArgs::slot_function`].
    fn crc(&self) -> Result<Algorithm<u16>> {
        if let Some(named) = self.other_scheme()? {
            return Err(usage(anyhow!(
                "--scheme {}: this command takes only the redis-cluster scheme; `slot`, `tag`, `key`, `derive`, `shortest`, `emit`, `check` and `verify` but `--redis` take every scheme",
                named.name()
            )));
        }
        self.request()?
            .crc_algorithm()
            .map_err(|refusal| refused(refusal, self.spelling()))
    }

    /// The named scheme of `--scheme`, when it is not `redis-cluster` (which is the CRC-16
    /// shape of every command), with every scheme option checked.
    pub(super) fn other_scheme(&self) -> Result<Option<SchemeName>> {
        let named = self
            .request()?
            .named_scheme()
            .map_err(|refusal| refused(refusal, self.spelling()))?;
        Ok(named
            .map(|(name, _)| name)
            .filter(|name| *name != SchemeName::RedisCluster))
    }

    /// The slot function these options name: a named scheme's (`--scheme` other than
    /// `redis-cluster`, with `--slots` and `--hash-tag`), or the CRC-16 spec's, for what
    /// depends on a key's slot only (`check`, `emit vectors`, `verify --exec`, `shortest`).
    pub(super) fn slot_function(&self) -> Result<SlotFunction> {
        let spec = self
            .request()?
            .resolve()
            .map_err(|refusal| refused(refusal, self.spelling()))?
            .spec;
        Ok(spec.slot_function()?)
    }

    /// The options of this group given on the command line, as spelled there.
    pub(super) fn given(&self) -> Vec<&'static str> {
        [
            ("--crc", self.crc.is_some()),
            ("--poly", self.poly.is_some()),
            ("--init", self.init.is_some()),
            ("--refin", self.refin.is_some()),
            ("--refout", self.refout.is_some()),
            ("--xorout", self.xorout.is_some()),
            ("--slots", self.slots.is_some()),
            ("--scheme", self.scheme.is_some()),
            ("--hash-tag", self.hash_tag.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// The options that choose the tags: the alphabet (or a charset to choose it from) and the
/// tag length. Inside [`SpecArgs`].
#[derive(Debug, Clone, Args)]
pub struct AlphabetArgs {
    /// The tag symbols, in any order: 2^d distinct bytes forming an affine subspace of
    /// GF(2)^8, without `{` or `}`; by default `@ABCDEFGHIJKLMNO`, the Redis Cluster
    /// alphabet.
    #[arg(long, value_name = "STR")]
    alphabet: Option<String>,
    /// Instead of --alphabet, its bytes as hex pairs (`000180ff`), for symbols that are not
    /// ASCII text or that a shell cannot pass (NUL).
    #[arg(long, value_name = "HEX", conflicts_with = "alphabet", value_parser = values::parse_hex_bytes)]
    alphabet_hex: Option<values::HexBytes>,
    /// Instead of --alphabet, the bytes tags may use, and slotgen picks the affine alphabet
    /// inside them with the shortest tags, then the most symbols, then the first in byte
    /// order: `alnum`, `alpha`, `digits`, `lower`, `upper`, `printable`, a bracket
    /// expression such as `[0-9A-Za-z_-]`, or the bytes themselves. With --scheme, the
    /// scheme's hashtag delimiters are left out too.
    #[arg(long, value_name = "SPEC")]
    charset: Option<Charset>,
    // the range is the tables' (`slotgen::MAX_TAG_LEN` symbols, `MAX_MASK_BITS` bits)
    #[arg(long, value_name = "N", help = format!("Symbols per tag, at most {} and {} bits [default: the shortest length that reaches every slot]", slotgen::derive::MAX_TAG_LEN, slotgen::derive::MAX_MASK_BITS))]
    tag_len: Option<usize>,
}

impl AlphabetArgs {
    /// The options of this group given on the command line, as spelled there.
    pub(super) fn given(&self) -> Vec<&'static str> {
        [
            ("--alphabet", self.alphabet.is_some()),
            ("--alphabet-hex", self.alphabet_hex.is_some()),
            ("--charset", self.charset.is_some()),
            ("--tag-len", self.tag_len.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// The options that choose a spec, on every command that derives a table.
#[derive(Debug, Clone, Args)]
pub struct SpecArgs {
    #[command(flatten)]
    pub(super) crc: CrcArgs,
    #[command(flatten)]
    pub(super) tags: AlphabetArgs,
}

impl SpecArgs {
    /// These options as the library's request.
    fn request(&self) -> Result<Request> {
        Ok(Request {
            alphabet: self.alphabet()?,
            charset: self.tags.charset.clone(),
            tag_len: self.tags.tag_len,
            ..self.crc.request()?
        })
    }

    /// The spec of the table these options name, through the library's request layer.
    /// With --charset, the chosen alphabet is reported on standard error.
    fn table_spec(&self) -> Result<TableSpec> {
        let charset = |c: &Charset| show(c.spec().as_bytes());
        let spelling = Spelling {
            alphabet_hex: self.tags.alphabet_hex.is_some(),
            ..self.crc.spelling()
        };
        let resolved = self.request()?.resolve().map_err(|refusal| {
            match (refusal.field, &self.tags.charset) {
                (Field::Charset, Some(c)) => spelled_with(refusal.error, spelling)
                    .context(format!("--charset {}", charset(c))),
                _ => refused(refusal, spelling),
            }
        })?;
        if let (Some(choice), Some(c)) = (&resolved.choice, &self.tags.charset) {
            say!("slotgen: --charset {}: {choice}", charset(c));
        }
        Ok(resolved.spec)
    }

    /// The CRC-16 spec these options name; a scheme other than `redis-cluster` is refused
    /// (as [`CrcArgs::crc`] says).
    fn spec(&self) -> Result<Spec> {
        self.crc.crc()?;
        match self.table_spec()? {
            TableSpec::Crc16(spec) => Ok(spec),
            TableSpec::Scheme(_) => unreachable!("`crc` refuses every other scheme"),
        }
    }

    /// The derivation of the CRC-16 spec these options name.
    pub(super) fn derive(&self) -> Result<Derivation> {
        derive(&self.spec()?).map_err(spelled)
    }

    /// The scheme spec these options name, when `--scheme` names one other than
    /// `redis-cluster` (whose tables are the CRC-16 derivation's).
    pub(super) fn scheme_spec(&self) -> Result<Option<SchemeSpec>> {
        if self.crc.other_scheme()?.is_none() {
            return Ok(None);
        }
        match self.table_spec()? {
            TableSpec::Scheme(spec) => Ok(Some(spec)),
            TableSpec::Crc16(_) => unreachable!("another scheme resolves to a scheme spec"),
        }
    }

    /// What these options derive: a CRC-16 table, or a scheme's.
    pub(super) fn derived(&self) -> Result<Derivation> {
        self.table_spec()?.derive().map_err(spelled)
    }

    /// `--alphabet-hex`, or `--alphabet` (held to ASCII by the request layer), if given.
    fn alphabet(&self) -> Result<Option<Vec<u8>>> {
        if let Some(bytes) = &self.tags.alphabet_hex {
            return Ok(Some(bytes.0.clone()));
        }
        let text = self.tags.alphabet.as_deref();
        text.map(alphabet_of_text)
            .transpose()
            .map_err(|refusal| refused(refusal, Spelling::default()))
    }

    /// The options of the spec given on the command line, as spelled there.
    pub(super) fn given(&self) -> Vec<&'static str> {
        let mut given = self.crc.given();
        given.extend(self.tags.given());
        given
    }
}

/// How a command line gave the fields that more than one option gives.
#[derive(Clone, Copy, Debug)]
struct Spelling {
    /// The alphabet as `--alphabet-hex`, not `--alphabet`.
    alphabet_hex: bool,
    /// The custom CRC's first option given: `--poly`, or `--init` given without it.
    custom: &'static str,
}

impl Default for Spelling {
    fn default() -> Self {
        Self {
            alphabet_hex: false,
            custom: "--poly",
        }
    }
}

/// The command line's spelling of a field of the library's request: the option that gives
/// `field`, as `spelling` says where several do.
fn option(field: Field, spelling: Spelling) -> &'static str {
    match field {
        Field::Alphabet if spelling.alphabet_hex => "--alphabet-hex",
        Field::Crc => "--crc",
        Field::Custom => spelling.custom,
        Field::Scheme => "--scheme",
        Field::Slots => "--slots",
        Field::HashTag => "--hash-tag",
        Field::Alphabet => "--alphabet",
        Field::Charset => "--charset",
        Field::TagLen => "--tag-len",
    }
}

/// A refusal of the library's request layer: a value of the command line's (exit 2) is
/// named by its option; the rest as [`spelled`].
fn refused(refusal: Refusal, spelling: Spelling) -> anyhow::Error {
    let Refusal { field, error } = refusal;
    match field {
        Field::Crc | Field::Custom | Field::Scheme | Field::Slots | Field::HashTag => {
            usage(anyhow!(
                "{}: {}",
                option(field, spelling),
                spelled_with(error, spelling)
            ))
        }
        _ => spelled_with(error, spelling),
    }
}

/// A library error with this tool's spelling of the way out ([`WayOut`]): the option that
/// applies it.
pub(super) fn spelled(error: slotgen::Error) -> anyhow::Error {
    spelled_with(error, Spelling::default())
}

/// [`spelled`], with the options as `spelling` says the command line gave them.
fn spelled_with(error: slotgen::Error, spelling: Spelling) -> anyhow::Error {
    let option = |field| option(field, spelling);
    let hint = match WayOut::of(&error) {
        Some(WayOut::Give {
            field,
            value: Some(value),
        }) => format!(" (`{} {value}` on the command line)", option(field)),
        Some(WayOut::Give { field, value: None }) => format!(" (`{}`)", option(field)),
        Some(WayOut::Remove { field, reason }) => {
            format!(" (remove `{}`: {reason})", option(field))
        }
        Some(WayOut::Either { field, other }) => {
            format!(" (remove `{}` or `{}`)", option(field), option(other))
        }
        Some(WayOut::GiveBytes {
            field: _,
            bytes,
            other,
        }) => format!(
            " (`{}`, or `{}`)",
            slotgen::emit::common::alphabet_option(&bytes),
            option(other)
        ),
        Some(WayOut::AsBytes { field: _ }) => " (give its bytes with `--alphabet-hex`)".to_owned(),
        None => String::new(),
    };
    let spelled = anyhow!("{error}{hint}");
    if error.is_usage() {
        usage(spelled)
    } else {
        spelled
    }
}
