//! Every command that takes a spec takes all of its options, and refuses the ones it would
//! ignore.

use crate::common::slotgen;

fn refused(args: &[&str]) -> String {
    let out = slotgen(args);
    assert!(!out.status.success(), "{args:?} was accepted: {out:?}");
    assert!(
        out.stdout.is_empty(),
        "{args:?}: a refusal prints nothing on stdout"
    );
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn shortest_takes_custom_crc_parameters() {
    // CRC-16/MODBUS spelled as parameters, over 1024 slots
    let out = slotgen(&[
        "shortest",
        "--poly",
        "0x8005",
        "--init",
        "0xffff",
        "--refin",
        "true",
        "--refout",
        "true",
        "--xorout",
        "0",
        "--charset",
        "alnum",
        "--slots",
        "1024",
        "--max-len",
        "3",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let tags: Vec<&str> = text.lines().collect();
    assert_eq!(tags.len(), 1024);
    // the expected table by enumeration: every string of one, two, then three symbols of
    // the charset in ascending byte order, CRC'd by the `crc` crate's CRC-16/MODBUS
    let modbus = crc::Crc::<u16>::new(&crc::CRC_16_MODBUS);
    let alnum: Vec<u8> = (b'0'..=b'9')
        .chain(b'A'..=b'Z')
        .chain(b'a'..=b'z')
        .collect();
    let mut expected: Vec<Option<Vec<u8>>> = vec![None; 1024];
    let ones = alnum.iter().map(|&a| vec![a]);
    let twos = alnum
        .iter()
        .flat_map(|&a| alnum.iter().map(move |&b| vec![a, b]));
    let threes = twos
        .clone()
        .flat_map(|ab| alnum.iter().map(move |&c| [ab.as_slice(), &[c]].concat()));
    for tag in ones.chain(twos).chain(threes) {
        let slot = usize::from(modbus.checksum(&tag) & 1023);
        expected[slot].get_or_insert(tag);
    }
    for (slot, (got, want)) in tags.iter().zip(&expected).enumerate() {
        let want = want.as_deref().map(|w| std::str::from_utf8(w).unwrap());
        assert_eq!(Some(*got), want, "slot {slot}");
    }
}

#[test]
fn shortest_checks_the_crc_like_derive() {
    // an even polynomial with a wrong check value: refused with the rule, before any search
    let err = refused(&["shortest", "--crc", "nosuch", "--charset", "alnum"]);
    assert!(err.contains("unknown CRC `nosuch`"), "{err}");
}

#[test]
fn commands_refuse_options_they_would_ignore() {
    // `slot` computes a key's slot: the alphabet and tag length play no part
    for option in [
        ["--alphabet", "ab"],
        ["--tag-len", "4"],
        ["--charset", "alnum"],
    ] {
        let err = refused(&["slot", option[0], option[1], "foo"]);
        assert!(err.contains(option[0]), "{option:?}: {err}");
    }
    // a JSON derivation names its own spec
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("t.json");
    let out = slotgen(&["emit", "json", "-o", json.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let err = refused(&[
        "verify",
        json.to_str().unwrap(),
        "--crc",
        "modbus",
        "--alphabet",
        "{",
    ]);
    assert!(
        err.contains("`--crc`, `--alphabet` do not apply to a JSON derivation"),
        "{err}"
    );
    // a tag table is read from its file: only the CRC and the slot count apply
    let tags = dir.path().join("tags.txt");
    std::fs::write(&tags, "DLH@\n").unwrap();
    let err = refused(&["verify", "--tags", tags.to_str().unwrap(), "--tag-len", "4"]);
    assert!(
        err.contains("`--tag-len` does not apply to a tag table"),
        "{err}"
    );
}

#[test]
fn the_corpus_and_layout_checks_refuse_options_they_would_ignore() {
    // a key's slot depends on the CRC and the slot count only
    for option in [
        ["--alphabet", "ab"],
        ["--tag-len", "4"],
        ["--charset", "alnum"],
    ] {
        let err = refused(&["check", option[0], option[1], "foo"]);
        assert!(err.contains(option[0]), "{option:?}: {err}");
        let err = refused(&["emit", "vectors", option[0], option[1]]);
        assert!(
            err.contains(&format!("`{}` does not apply to `emit vectors`", option[0])),
            "{option:?}: {err}"
        );
        let err = refused(&["verify", "--exec", "true", option[0], option[1]]);
        assert!(
            err.contains(&format!("`{}` does not apply to `--exec`", option[0])),
            "{option:?}: {err}"
        );
    }
    // the corpus's options make no table
    let err = refused(&["emit", "go", "--count", "10", "--seed", "1"]);
    assert!(
        err.contains("`--count`, `--seed` do not apply to `emit go` (only to `emit vectors`)"),
        "{err}"
    );
    // and the CRC options still apply
    let out = slotgen(&[
        "emit", "vectors", "--crc", "modbus", "--slots", "4096", "--count", "2",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("# slotgen vectors 1: CRC-16/MODBUS, 4096 slots, seed 0, 2 keys"),
        "{text}"
    );
}
