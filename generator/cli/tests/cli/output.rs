//! `--format text|tsv|json|jsonl`, `--header`, `-z` and `slot --with-key`: every format of
//! `slot`, `tag`, `key` and `catalog` read back by an independent reader (Python's `json`
//! and `csv` modules), and compared with slots a real Redis server gave (the committed
//! vectors) or computed here by the `crc` crate over a hashtag found here.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{require_tool, slotgen_with_stdin as slotgen, stdout_bytes as stdout};

/// Runs `program` in python3 with `input` on its standard input; returns its standard
/// output.
fn python(program: &str, input: &[u8]) -> String {
    python_with_arg(program, "", input)
}

/// The committed vectors: `(key, slot)` as a real Redis server answered CLUSTER KEYSLOT.
fn vectors() -> Vec<(Vec<u8>, u16)> {
    let mut rows = Vec::new();
    for name in ["redis_keyslot.tsv", "hashtag_edge_cases.tsv"] {
        let path = format!("{}/../../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        for line in std::fs::read_to_string(path).unwrap().lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut fields = line.split('\t');
            let key = hex::decode(fields.next().unwrap()).unwrap();
            rows.push((key, fields.next().unwrap().parse().unwrap()));
        }
    }
    rows
}

/// The Redis Cluster slot of `key`, computed here: the hashtag rule of the Redis Cluster
/// specification written out, then the `crc` crate's CRC-16/XMODEM.
fn redis_slot(key: &[u8]) -> u16 {
    let mut hashed = key;
    if let Some(open) = key.iter().position(|&b| b == b'{') {
        if let Some(len) = key[open + 1..].iter().position(|&b| b == b'}') {
            if len > 0 {
                hashed = &key[open + 1..open + 1 + len];
            }
        }
    }
    crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(hashed) % 16384
}

/// Python that reads records of `slot` and prints `slot<TAB>key_hex` per record, whatever
/// the format: `tsv` (csv module, the header naming the columns, our escapes undone), `json`
/// (one document of schema slotgen-records/1) or `jsonl`.
const READ_SLOT_RECORDS: &str = r#"
import csv, io, json, re, sys
fmt = sys.argv[1]
data = sys.stdin.buffer.read()
def unescape(s):
    # `\\` is a backslash, `\xNN` the byte NN; nothing else is escaped
    parts = re.split(r'(\\\\|\\x[0-9a-f]{2})', s)
    def byte(p):
        if p == '\\\\':
            return b'\\'
        if p.startswith('\\x'):
            return bytes([int(p[2:], 16)])
        assert all(' ' <= c <= '~' for c in p), p
        return p.encode('ascii')
    return b''.join(byte(p) for p in parts)
def check(record):
    assert isinstance(record['slot'], int), record
    raw = bytes.fromhex(record['key_hex'])
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError:
        text = None
    assert record['key'] == text, record
    print(f"{record['slot']}\t{record['key_hex']}")
if fmt == 'tsv':
    text = data.decode('utf-8', 'surrogateescape')
    rows = csv.DictReader(io.StringIO(text, newline=''), delimiter='\t', quoting=csv.QUOTE_NONE)
    assert rows.fieldnames == ['slot', 'key'], rows.fieldnames
    for row in rows:
        print(f"{int(row['slot'])}\t{unescape(row['key']).hex()}")
elif fmt == 'json':
    doc = json.loads(data)
    assert doc['format'] == 'slotgen-records/1' and doc['command'] == 'slot', doc.keys()
    for record in doc['records']:
        check(record)
else:
    for line in data.decode().splitlines():
        check(json.loads(line))
"#;

#[test]
fn slot_records_in_every_format_read_back_by_python() {
    if !require_tool("python3") {
        return;
    }
    let vectors = vectors();
    let input: String = vectors
        .iter()
        .map(|(key, _)| format!("{}\n", hex::encode(key)))
        .collect();
    let expected: String = vectors
        .iter()
        .map(|(key, slot)| format!("{slot}\t{}\n", hex::encode(key)))
        .collect();
    for (format, extra) in [
        ("tsv", &["--with-key", "--header"][..]),
        ("json", &[][..]),
        ("jsonl", &[][..]),
    ] {
        let mut args = vec!["slot", "--hex", "--format", format];
        args.extend(extra);
        let out = stdout(&slotgen(&args, input.as_bytes()));
        let read = python_with_arg(READ_SLOT_RECORDS, format, &out);
        assert_eq!(read, expected, "--format {format}");
    }
}

/// [`python`] with `arg` as `sys.argv[1]`.
fn python_with_arg(program: &str, arg: &str, input: &[u8]) -> String {
    let mut child = Command::new("python3")
        .args(["-c", program, arg])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python3 ({arg}): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Keys holding line feeds, tabs, carriage returns and braces pass through `slot -z`
/// unchanged, each beside the slot computed here.
#[test]
fn nul_terminated_keys_with_newlines_round_trip_through_slot_z() {
    let keys: Vec<&[u8]> = vec![
        b"line one\nline two",
        b"{user\n1}:cart",
        b"tab\there\r\n",
        b"\n",
        b"{}\n{a}",
        b"plain",
        b"\xff\xfe{\n}",
    ];
    let mut input = Vec::new();
    for key in &keys {
        input.extend_from_slice(key);
        input.push(0);
    }
    let out = stdout(&slotgen(&["slot", "-z", "--with-key"], &input));
    let records: Vec<&[u8]> = out.split(|&b| b == 0).collect();
    assert_eq!(records.len(), keys.len() + 1, "{out:?}");
    assert_eq!(
        records.last(),
        Some(&&b""[..]),
        "every record ends with NUL"
    );
    for (record, key) in records.iter().zip(&keys) {
        let tab = record.iter().position(|&b| b == b'\t').unwrap();
        let slot: u16 = std::str::from_utf8(&record[..tab])
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(&record[tab + 1..], *key);
        assert_eq!(slot, redis_slot(key), "{key:?}");
    }

    // -z without --with-key: the slots alone, NUL-terminated
    let out = stdout(&slotgen(&["slot", "-z"], &input));
    let expected: Vec<u8> = keys
        .iter()
        .flat_map(|key| format!("{}\0", redis_slot(key)).into_bytes())
        .collect();
    assert_eq!(out, expected);

    // without -z a text line shows a line feed escaped, as TSV does: one record, not two
    let out = stdout(&slotgen(&["slot", "--with-key", "a\nb"], b""));
    assert_eq!(
        out,
        format!("{}\ta\\x0ab\n", redis_slot(b"a\nb")).as_bytes()
    );
}

/// The default text of `slot` is unchanged: one slot per line; `--with-key` adds the key.
#[test]
fn slot_text_with_key() {
    let out = stdout(&slotgen(
        &["slot", "--with-key", "123456789", "emq:{orders}:pending"],
        b"",
    ));
    assert_eq!(out, b"12739\t123456789\n105\temq:{orders}:pending\n");
    let out = stdout(&slotgen(
        &["slot", "123456789", "emq:{orders}:pending"],
        b"",
    ));
    assert_eq!(out, b"12739\n105\n");
}

/// `tag` and `key` in TSV and JSON: every slot's record read back by Python, the tags equal
/// to the text output's, each landing on its slot by the slot computed here.
#[test]
fn tag_and_key_records_read_back_by_python() {
    if !require_tool("python3") {
        return;
    }
    let text = String::from_utf8(stdout(&slotgen(&["tag", "0-16383"], b""))).unwrap();
    let tags: Vec<String> = text
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap().to_owned())
        .collect();
    assert_eq!(tags.len(), 16384);
    for (slot, tag) in tags.iter().enumerate() {
        assert_eq!(
            usize::from(redis_slot(format!("{{{tag}}}").as_bytes())),
            slot
        );
    }

    let tsv = stdout(&slotgen(
        &["tag", "0-16383", "--format", "tsv", "--header"],
        b"",
    ));
    let read = python(
        r#"
import csv, sys, io
rows = list(csv.DictReader(io.StringIO(sys.stdin.read(), newline=''), delimiter='\t', quoting=csv.QUOTE_NONE))
for r in rows:
    print(int(r['slot']), r['tag'])
"#,
        &tsv,
    );
    let expected: String = tags
        .iter()
        .enumerate()
        .map(|(slot, tag)| format!("{slot} {tag}\n"))
        .collect();
    assert_eq!(read, expected);

    let program = r#"
import json, sys
doc = json.load(sys.stdin)
assert doc['format'] == 'slotgen-records/1', doc['format']
for r in doc['records']:
    assert isinstance(r['slot'], int)
    assert bytes.fromhex(r[doc['command'] + '_hex']).decode() == r[doc['command']]
    print(r['slot'], r[doc['command']])
"#;
    let json = stdout(&slotgen(&["tag", "0-16383", "--format", "json"], b""));
    assert_eq!(python(program, &json), expected);

    let json = stdout(&slotgen(
        &[
            "key", "0-3", "--prefix", "user:\t", "--suffix", ":\ncart", "--format", "json",
        ],
        b"",
    ));
    let expected: String = tags[..4]
        .iter()
        .enumerate()
        .map(|(slot, tag)| format!("{slot} user:\t{{{tag}}}:\ncart\n"))
        .collect();
    assert_eq!(python(program, &json), expected);

    // JSON Lines: one object per line, the same objects as the document's records
    let jsonl = stdout(&slotgen(&["key", "0-3", "--format", "jsonl"], b""));
    let read = python(
        r#"
import json, sys
for line in sys.stdin.read().splitlines():
    r = json.loads(line)
    print(r['slot'], r['key'])
"#,
        &jsonl,
    );
    assert_eq!(
        read,
        tags[..4]
            .iter()
            .enumerate()
            .map(|(slot, tag)| format!("{slot} {{{tag}}}\n"))
            .collect::<String>()
    );
}

/// `catalog` as records: integers are JSON integers (never hex strings), TSV has the same
/// values, and `--format json`'s records are `--json`'s array.
#[test]
fn catalog_records_read_back_by_python() {
    if !require_tool("python3") {
        return;
    }
    let legacy = stdout(&slotgen(&["catalog", "--json"], b""));
    let json = stdout(&slotgen(&["catalog", "--format", "json"], b""));
    let tsv = stdout(&slotgen(&["catalog", "--format", "tsv", "--header"], b""));
    let read = python(
        r#"
import csv, io, json, sys
data = sys.stdin.buffer.read()
legacy, doc, tsv = data.split(b'\0')
legacy, doc = json.loads(legacy), json.loads(doc)
assert doc['format'] == 'slotgen-records/1' and doc['command'] == 'catalog'
assert doc['records'] == legacy, 'the records are --json array'
def walk(v):
    if isinstance(v, dict):
        for x in v.values(): walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
    elif isinstance(v, str):
        assert not v.lower().startswith('0x'), v
walk(doc)
rows = list(csv.DictReader(io.StringIO(tsv.decode(), newline=''), delimiter='\t', quoting=csv.QUOTE_NONE))
assert len(rows) == len(legacy)
for row, r in zip(rows, legacy):
    for k, v in r.items():
        if isinstance(v, bool): v = 'true' if v else 'false'
        elif v is None: v = ''
        elif isinstance(v, list): v = ','.join(v)
        assert row[k] == str(v), (k, row[k], v)
x = next(r for r in legacy if r['name'] == 'CRC-16/XMODEM')
print(len(legacy), x['poly'], x['check'], type(x['poly']).__name__)
"#,
        &[legacy, json, tsv].join(&0u8),
    );
    // CRC-16/XMODEM: poly 0x1021 = 4129, check 0x31c3 = 12739 (the CRC catalogue)
    assert_eq!(read, "31 4129 12739 int\n");
}

#[test]
fn output_options_that_change_nothing_are_refused() {
    for (args, needle) in [
        (
            &["tag", "0", "--header"][..],
            "`--header` applies to `--format tsv`",
        ),
        (&["tag", "0", "-z", "--format", "json"][..], "`-z`"),
        (&["catalog", "--json", "--header"][..], "`--header`"),
    ] {
        let out = slotgen(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(message.contains(needle), "{args:?}: {message}");
    }
    // --json and --format are one choice
    assert_eq!(
        slotgen(&["catalog", "--json", "--format", "tsv"], b"")
            .status
            .code(),
        Some(2)
    );
}

/// `verify` reads what `emit json` and `shortest --format json` write: both pass as
/// written, an edited tag is found, a table with gaps and a CRC option are refused.
#[test]
fn verify_reads_emit_json_and_shortest_json() {
    let dir = tempfile::tempdir().unwrap();
    let derivation = dir.path().join("table.json");
    std::fs::write(&derivation, stdout(&slotgen(&["emit", "json"], b""))).unwrap();
    let out = stdout(&slotgen(&["verify", derivation.to_str().unwrap()], b""));
    assert!(String::from_utf8_lossy(&out).contains("verified:   16384/16384 slots"));

    let shortest = stdout(&slotgen(
        &[
            "shortest",
            "--charset",
            "alnum",
            "--crc",
            "modbus",
            "--max-len",
            "4",
            "--format",
            "json",
        ],
        b"",
    ));
    let path = dir.path().join("tags.json");
    std::fs::write(&path, &shortest).unwrap();
    let out = stdout(&slotgen(&["verify", "--tags", path.to_str().unwrap()], b""));
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("(JSON, 16384 entries) for CRC-16/MODBUS, 16384 slots")
            && text.contains("verified:"),
        "{text}"
    );
    // from standard input, with the format named
    let out = stdout(&slotgen(
        &["verify", "--tags", "-", "--format", "json"],
        &shortest,
    ));
    assert!(String::from_utf8_lossy(&out).contains("verified:"));

    // slot 7's tag swapped with slot 8's: both land elsewhere
    let mut value: serde_json::Value = serde_json::from_slice(&shortest).unwrap();
    let tags = value["tags"].as_array_mut().unwrap();
    tags.swap(7, 8);
    std::fs::write(&path, value.to_string()).unwrap();
    let out = slotgen(&["verify", "--tags", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("misplaced:  slot 7 tag") && text.contains("misplaced:  slot 8 tag"),
        "{text}"
    );

    // gaps: refused, naming the first
    let gappy = stdout(&slotgen(
        &[
            "shortest",
            "--charset",
            "digits",
            "--max-len",
            "2",
            "--allow-gaps",
            "--format",
            "json",
        ],
        b"",
    ));
    std::fs::write(&path, gappy).unwrap();
    let out = slotgen(&["verify", "--tags", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("slots without a tag"));

    // the file names its CRC: a CRC option would be ignored, so it is refused
    let out = slotgen(
        &[
            "verify",
            "--tags",
            path.to_str().unwrap(),
            "--crc",
            "kermit",
        ],
        b"",
    );
    // an option that does not apply is a usage error, exit 2
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`--crc` does not apply"));

    // a derivation given as a tag table: the schema is named
    let out = slotgen(&["verify", "--tags", derivation.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not `slotgen-shortest/1`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `emit json` (schema `slotgen-derivation/2`) read by Python: every value but
/// `alphabet_hex` that is a number is a JSON integer, masks included, and the tag of every
/// slot, computed in Python by the schema's documented formula from `low`, `high` and
/// `base_slot`, lands on its slot by Python's own CRC-16/XMODEM (`binascii.crc_hqx`).
#[test]
fn derivation_json_read_by_python() {
    if !require_tool("python3") {
        return;
    }
    let json = stdout(&slotgen(&["emit", "json"], b""));
    let read = python(
        r#"
import binascii, json, sys
d = json.load(sys.stdin)
assert d['format'] == 'slotgen-derivation/2', d['format']
def walk(path, v):
    if isinstance(v, dict):
        for k, x in v.items(): walk(path + '.' + k, x)
    elif isinstance(v, list):
        for x in v: walk(path + '[]', x)
    elif isinstance(v, str) and path not in ('.format', '.generator', '.alphabet', '.alphabet_hex', '.crc.name', '.verification.failures[].reason'):
        raise AssertionError(f'{path} is a string: {v!r}')
walk('', d)
for key in ('inverse', 'low', 'high', 'kernel', 'columns'):
    assert all(isinstance(m, int) for m in d[key]), key
alphabet = bytes.fromhex(d['alphabet_hex'])
bits, n, lb = d['symbol_bits'], d['tag_len'], d['low_bits']
for slot in range(d['slots']):
    delta = slot ^ d['base_slot']
    m = d['low'][delta & ((1 << lb) - 1)] ^ d['high'][delta >> lb]
    tag = bytes(alphabet[(m >> (bits * k)) & ((1 << bits) - 1)] for k in range(n))
    assert binascii.crc_hqx(tag, 0) % d['slots'] == slot, (slot, tag)
    if slot == 0:
        first = tag
print(d['inverse'][0], first.decode())
"#,
        &json,
    );
    // the seed's first inverse constant, 0x88d4, and the tag of slot 0
    assert_eq!(read, "35028 DLH@\n");
}

/// `derive --format json` is `derive --json`; a derivation is one document, so the record
/// formats and options are refused.
#[test]
fn derive_format_json_is_derive_json() {
    let json = stdout(&slotgen(&["derive", "--format", "json"], b""));
    assert_eq!(json, stdout(&slotgen(&["derive", "--json"], b"")));
    let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(value["format"], "slotgen-derivation/2");
    for args in [
        &["derive", "--format", "tsv"][..],
        &["derive", "--format", "jsonl"][..],
        &["derive", "-z"][..],
    ] {
        let out = slotgen(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("one document"),
            "{args:?}"
        );
    }
}

/// Records read from standard input across the 64 KiB read buffer's edges: 30,000 keys of
/// 0 to 60 bytes (some ending in `\r`, which is not part of the key, some with braces), a
/// key of 200 KB that spans several buffers, and a last key without a line feed; each slot
/// computed here. The same keys NUL-terminated with `-z`, where `\r` is part of the key.
#[test]
fn keys_across_read_buffers() {
    let mut state = 7u32;
    let mut next = |n: u32| {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (state >> 8) % n
    };
    let mut keys: Vec<Vec<u8>> = (0..30_000)
        .map(|_| {
            let len = next(61);
            (0..len)
                .map(|i| match next(20) {
                    0 => b'{',
                    1 => b'}',
                    // a `\r` only at the end, where it is the line's, not the key's
                    2 if i + 1 == len => b'\r',
                    _ => b'a' + next(26) as u8,
                })
                .collect()
        })
        .collect();
    keys.insert(
        12_345,
        (0..200_000).map(|i| b'a' + (i % 26) as u8).collect(),
    );
    keys.push(b"last{key}".to_vec());
    for (terminator, flags) in [(b'\n', &[][..]), (b'\0', &["-z"][..])] {
        let mut input = Vec::new();
        for (i, key) in keys.iter().enumerate() {
            input.extend_from_slice(key);
            if i + 1 < keys.len() {
                input.push(terminator);
            }
        }
        let mut args = vec!["slot"];
        args.extend(flags);
        let out = stdout(&slotgen(&args, &input));
        let slots: Vec<u16> = out
            .split(|&b| b == terminator)
            .filter(|r| !r.is_empty())
            .map(|r| std::str::from_utf8(r).unwrap().parse().unwrap())
            .collect();
        assert_eq!(slots.len(), keys.len(), "{flags:?}");
        for (key, &slot) in keys.iter().zip(&slots) {
            let key = match (terminator, key.strip_suffix(b"\r")) {
                (b'\n', Some(stripped)) => stripped,
                _ => &key[..],
            };
            assert_eq!(
                slot,
                redis_slot(key),
                "{flags:?} {}",
                String::from_utf8_lossy(&key[..key.len().min(40)])
            );
        }
    }
}

/// Every line of `out` is `columns` fields separated by single tabs, and holds no other
/// control byte: nothing a terminal would act on, nothing that adds a column or a row.
fn plain_rows(out: &[u8], columns: usize) -> Vec<String> {
    let text = String::from_utf8(out.to_vec()).expect("escaped output is ASCII");
    let rows: Vec<String> = text.lines().map(str::to_owned).collect();
    for row in &rows {
        assert!(
            row.bytes()
                .all(|b| b == b'\t' || (b' '..=b'~').contains(&b)),
            "a raw control byte: {row:?}"
        );
        assert_eq!(row.split('\t').count(), columns, "{row:?}");
    }
    rows
}

/// In `text` and `tsv` output a key or a tag is escaped by one rule (printable ASCII as is,
/// `\` as `\\`, any other byte `\xNN`), the same as `check`'s: an ESC, a tab or a line feed
/// from a prefix, a key or an alphabet never reaches the terminal raw. Raw bytes only under
/// `-z`, which asks for raw records.
#[test]
fn control_bytes_are_escaped_by_one_rule_in_text_and_tsv() {
    for format in ["text", "tsv"] {
        let out = stdout(&slotgen(
            &["key", "0", "--prefix", "a\u{1b}[31mb", "--format", format],
            b"",
        ));
        let rows = plain_rows(&out, 2);
        assert_eq!(rows.len(), 1);
        assert!(rows[0].starts_with("0\ta\\x1b[31mb{"), "{rows:?}");

        let out = stdout(&slotgen(
            &["key", "0", "--prefix", "a\tb", "--format", format],
            b"",
        ));
        let rows = plain_rows(&out, 2);
        assert!(rows[0].starts_with("0\ta\\x09b{"), "{rows:?}");

        let key = b"a\tb\x1bc\\d\ne";
        let out = stdout(&slotgen(
            &[
                "slot",
                "a\tb\u{1b}c\\d\ne",
                "--with-key",
                "--format",
                format,
            ],
            b"",
        ));
        plain_rows(&out, 2);
        let expected = format!("{}\ta\\x09b\\x1bc\\\\d\\x0ae\n", redis_slot(key));
        assert_eq!(String::from_utf8_lossy(&out), expected, "--format {format}");

        // an alphabet of control bytes: 0x1b, 0x1a, 0x19, 0x18 (0x1b XOR 0..3, affine)
        let out = stdout(&slotgen(
            &[
                "tag",
                "0-1",
                "--alphabet-hex",
                "1b1a1918",
                "--format",
                format,
            ],
            b"",
        ));
        let rows = plain_rows(&out, 2);
        assert_eq!(rows.len(), 2, "{rows:?}");
        for row in &rows {
            let tag = row.split('\t').nth(1).unwrap();
            let symbols: Vec<&str> = tag.split("\\x").skip(1).collect();
            assert!(
                !symbols.is_empty() && symbols.iter().all(|s| ["1b", "1a", "19", "18"].contains(s)),
                "{row:?}"
            );
        }
    }

    // a line feed shows as `\x0a` in key and slot TSV, as in check's
    let out = stdout(&slotgen(
        &["slot", "--format", "tsv", "--with-key", "a\nb"],
        b"",
    ));
    assert_eq!(
        out,
        format!("{}\ta\\x0ab\n", redis_slot(b"a\nb")).as_bytes()
    );
    let out = stdout(&slotgen(&["check", "a\nb"], b""));
    assert!(
        String::from_utf8_lossy(&out).contains("\ta\\x0ab\t"),
        "{out:?}"
    );

    // -z in text: raw records, for `xargs -0`
    let out = stdout(&slotgen(&["key", "0", "-z", "--prefix", "a\nb\u{1b}"], b""));
    assert!(out.starts_with(b"0\ta\nb\x1b{"), "{out:?}");
    assert_eq!(out.last(), Some(&0));
}

/// `derive`'s text shows a tag as it shows its alphabet: quoted and escaped, so that an
/// alphabet of `"` and `\` does not print `""""""`.
#[test]
fn derive_shows_its_base_tag_escaped_as_its_alphabet() {
    let out = stdout(&slotgen(
        &[
            "derive",
            "--alphabet-hex",
            "2223262758595c5da2a3a6a7d8d9dcdd",
        ],
        b"",
    ));
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains(r##"alphabet:   "\"#&'XY\\]\xa2\xa3\xa6\xa7\xd8\xd9\xdc\xdd" (16 symbols"##),
        "{text}"
    );
    let base = text
        .lines()
        .find(|l| l.starts_with("base slot:"))
        .unwrap_or_else(|| panic!("{text}"));
    // the base tag is copies of the first symbol, `"`, each shown `\"`
    let tag = base
        .split("(the slot of \"")
        .nth(1)
        .and_then(|t| t.strip_suffix("\")"))
        .unwrap_or_else(|| panic!("{base}"));
    assert!(
        !tag.is_empty() && tag.as_bytes().chunks(2).all(|c| c == br#"\""#),
        "{base}"
    );
}
