//! `slotgen verify --redis`: a running server's CLUSTER KEYSLOT for the tag of every slot of
//! the spec's table, and for the keys of `--keys`, read in chunks and sent pipelined.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use slotgen_cluster::grant::Run;
use slotgen_cluster::server::{self, Server};
use slotgen_tables::{hashtag, Crc16};

use super::super::key_input::KeyReader;
use super::args::VerifyArgs;

/// `--timeout`'s default with `--redis`.
const REDIS_TIMEOUT: Duration = Duration::from_secs(30);

/// Checks the server at `url`: the tag of every slot, then the keys of `--keys`; exit 1 with
/// the disagreements listed (up to `--max-errors`) when any answer differs from the spec. A
/// refusal for a right names the grant of the whole run ([`Run::Verify`]).
pub(super) fn run(args: &VerifyArgs, url: &str) -> Result<ExitCode> {
    checked(args, url).map_err(|e| {
        super::super::cluster::with_whole_run_grant(e, "verify --redis", || Run::Verify)
    })
}

/// [`run`], before a refusal is given its grant.
fn checked(args: &VerifyArgs, url: &str) -> Result<ExitCode> {
    if let Some(name) = args.spec.crc.other_scheme()? {
        return Err(crate::exit::usage(anyhow!(
            "--scheme {} with --redis: a server's CLUSTER KEYSLOT answers by Redis Cluster's rule (the `redis-cluster` scheme), not by this scheme's; check its tags with `slotgen verify --tags FILE --scheme {}`, or a client's slots with `slotgen verify --exec CMD --scheme {}`",
            name.name(),
            name.name(),
            name.name()
        )));
    }
    let derivation = args.spec.derive()?;
    let spec = derivation
        .crc16_spec()
        .expect("the options name a CRC-16 spec");
    let table = derivation
        .slot_table()
        .expect("a CRC-16 spec's derivation has its slot table");
    let slots = spec.slots;
    let tags: Vec<Vec<u8>> = (0..slots)
        .map(|slot| Ok(table.tag_for_slot(slot as u16)?.as_ref().to_vec()))
        .collect::<Result<_>>()?;
    // the keys are opened, and their first chunk read, before the server is asked, so that
    // a missing file or a bad key is named first
    let mut keys = match &args.keys {
        Some(path) => {
            let mut keys = KeyReader::open(path, args.records.terminator(), args.hex)?;
            let first = next_chunk(&mut keys)?;
            Some((keys, first))
        }
        None => None,
    };
    let stdin_keys = args.keys.as_deref() == Some(Path::new("-"));
    let timeout = args.timeout()?.unwrap_or(REDIS_TIMEOUT);
    let options =
        args.connect
            .options(url, stdin_keys.then_some("the keys of `--keys -`"), timeout)?;
    let mut server =
        Server::connect(url, &options, timeout).map_err(super::super::cluster::explain)?;
    let tag_answers = server
        .keyslots(&tags)
        .map_err(super::super::cluster::explain)?;

    let mut out = std::io::stdout().lock();
    writeln!(out, "server:     {} (cluster-enabled)", server.url())?;
    let mut listing = Listing::new(args.max_errors()?);
    for (slot, (tag, &answer)) in tags.iter().zip(&tag_answers).enumerate() {
        if usize::from(answer) != slot && listing.count() {
            writeln!(
                out,
                "disagree:   slot {slot} tag \"{}\": the server puts it on slot {answer}",
                super::super::show_short(tag)
            )?;
        }
    }
    let tag_disagreements = listing.total;
    let mut key_listing = Listing::new(args.max_errors()?);
    writeln!(
        out,
        "tags:       {} of {slots} tags of {}, {} slots, land on their slot by CLUSTER KEYSLOT",
        u64::from(slots) - tag_disagreements,
        spec.crc_name(),
        slots
    )?;
    if let Some((keys, first)) = &mut keys {
        let crc = Crc16::new(&spec.crc);
        let mask = (slots - 1) as u16;
        let mut asked = 0u64;
        while let Some(chunk) = match first.take() {
            Some(chunk) => Some(chunk),
            None => next_chunk(keys)?,
        } {
            let answers = server
                .keyslots(&chunk)
                .map_err(super::super::cluster::explain)?;
            asked += chunk.len() as u64;
            for (key, &answer) in chunk.iter().zip(&answers) {
                let ours = crc.checksum(hashtag(key)) & mask;
                if ours != answer && key_listing.count() {
                    writeln!(
                        out,
                        "disagree:   key \"{}\": slot {ours} by {}, slot {answer} by the server",
                        super::super::show_short(key),
                        spec.crc_name()
                    )?;
                }
            }
        }
        writeln!(
            out,
            "keys:       {} of {} {} the same slot from the server",
            asked - key_listing.total,
            asked,
            if asked == 1 { "key gets" } else { "keys get" }
        )?;
    }
    let total = tag_disagreements + key_listing.total;
    if total > 0 {
        out.flush()?;
        let note = if listing.listed_note().is_empty() {
            key_listing.listed_note()
        } else {
            listing.listed_note()
        };
        bail!(
            "{} of {} disagree with the spec{note}; see the `disagree:` lines",
            super::super::plural(total, "answer", "answers"),
            server.url(),
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The key bytes of one chunk of `--keys` sent to the server at most (a chunk ends at
/// [`server::CHUNK`] keys or past these bytes): the pipeline copies and packs them, so that
/// a chunk of long keys holds some 3 times this much.
const CHUNK_BYTES: usize = 4 << 20;

/// The next keys of `keys`, up to [`server::CHUNK`] keys and about [`CHUNK_BYTES`] bytes;
/// `None` at the end.
fn next_chunk<R: Read>(keys: &mut KeyReader<R>) -> Result<Option<Vec<Vec<u8>>>> {
    let mut chunk = Vec::new();
    let mut bytes = 0;
    while chunk.len() < server::CHUNK && bytes < CHUNK_BYTES {
        let Some(key) = keys.next()? else { break };
        bytes += key.len();
        chunk.push(key.to_vec());
    }
    Ok((!chunk.is_empty()).then_some(chunk))
}

/// Counts the entries of one listing and says which to print: the first `max`.
struct Listing {
    max: usize,
    /// Entries counted.
    pub total: u64,
}

impl Listing {
    pub fn new(max: usize) -> Self {
        Self { max, total: 0 }
    }

    /// Counts one entry; true when it is to be listed.
    pub fn count(&mut self) -> bool {
        self.total += 1;
        self.total <= self.max as u64
    }

    /// ` (the first N are listed)` when some were left out.
    pub fn listed_note(&self) -> String {
        if self.total > self.max as u64 {
            format!(" (the first {} are listed)", self.max)
        } else {
            String::new()
        }
    }
}
