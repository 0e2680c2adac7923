//! The runtime's key-layout checks (`slotgen_tables::layout`): every warning on its own key
//! and in combinations, every key of up to 8 bytes over `{`, `}`, `a` and 0xff against a
//! reference written from the rule's wording, the seed layouts' slots by the `crc` crate and
//! by a real redis-server's `CLUSTER KEYSLOT`, and `same_slot` / `shared_hashtag`.

use slotgen_tables::{
    explicit_hashtag, same_slot, shared_hashtag, warnings, Warning, Warnings, REDIS_CLUSTER,
};
use slotgen_tests::redis_server::RedisServer;
use slotgen_tests::require_tool;

use Warning::*;

fn set(list: &[Warning]) -> Warnings {
    list.iter().fold(Warnings::NONE, |s, &w| s.with(w))
}

/// CRC-16/XMODEM mod 16384 of `bytes`, by the `crc` crate: the slot of a key whose hashed
/// bytes are `bytes`.
fn xmodem_slot(bytes: &[u8]) -> u16 {
    crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(bytes) % 16384
}

#[test]
fn catalogue_check_value_first() {
    // the catalogue check value 0x31c3 is below 16384
    assert_eq!(xmodem_slot(b"123456789"), 0x31c3);
    assert_eq!(same_slot(["123456789"]), Some(12739));
}

#[test]
fn every_warning_on_its_own_key() {
    let cases: &[(&[u8], &[Warning])] = &[
        (b"emq:{orders}:pending", &[]),
        (b"plain", &[]),
        (b"", &[]),
        (b"a}b", &[]), // a `}` with no `{` at all is harmless
        (b"emq:{}:pending", &[EmptyHashtag]),
        (b"{}", &[EmptyHashtag]),
        (b"emq:{orders:pending", &[UnclosedBrace]),
        (b"{", &[UnclosedBrace]),
        (b"app:s:{authz_{orgid}_groups_1}", &[NestedBrace]),
        (b"{{a}}", &[NestedBrace]),
        (b"foo{bar}{zap}", &[LaterPairsIgnored]),
        (b"{a}{}", &[LaterPairsIgnored]),
        (b"a}b{c}", &[BraceBeforeTag]),
        (b"\xff{a}", &[BinaryBrace]),
        (b"\xc3{a}", &[BinaryBrace]),
        (b"\xff}", &[BinaryBrace]),
        (b"\xff", &[]),          // binary, but no brace
        ("{é}".as_bytes(), &[]), // UTF-8 text
    ];
    for &(key, expected) in cases {
        assert_eq!(
            warnings(key),
            set(expected),
            "{:?}",
            String::from_utf8_lossy(key)
        );
    }
    // each warning occurs alone somewhere above
    for w in Warning::ALL {
        assert!(cases.iter().any(|&(_, e)| e == [w]), "{w}");
    }
}

#[test]
fn warnings_in_combination() {
    let cases: &[(&[u8], &[Warning])] = &[
        (b"}{}", &[EmptyHashtag, BraceBeforeTag]),
        (b"a{}b{c}", &[EmptyHashtag, LaterPairsIgnored]),
        (
            b"}{}{x}",
            &[EmptyHashtag, LaterPairsIgnored, BraceBeforeTag],
        ),
        (b"}{a", &[UnclosedBrace, BraceBeforeTag]),
        (b"{{a}{b}", &[NestedBrace, LaterPairsIgnored]),
        (
            b"}{{a}{b}",
            &[NestedBrace, LaterPairsIgnored, BraceBeforeTag],
        ),
        (
            b"\xff}{{a}{b}",
            &[NestedBrace, LaterPairsIgnored, BraceBeforeTag, BinaryBrace],
        ),
        (b"\xff{}", &[EmptyHashtag, BinaryBrace]),
        (b"\xff{", &[UnclosedBrace, BinaryBrace]),
    ];
    for &(key, expected) in cases {
        assert_eq!(
            warnings(key),
            set(expected),
            "{:?}",
            String::from_utf8_lossy(key)
        );
    }
}

#[test]
fn names_explanations_and_display_are_stable() {
    let names: Vec<&str> = Warning::ALL.iter().map(|w| w.name()).collect();
    assert_eq!(
        names,
        [
            "empty-hashtag",
            "unclosed-brace",
            "nested-brace",
            "later-pairs-ignored",
            "brace-before-tag",
            "binary-brace"
        ]
    );
    for w in Warning::ALL {
        assert_eq!(Warning::from_name(w.name()), Some(w));
        assert_eq!(w.to_string(), w.name());
        let e = w.explanation();
        assert!(
            !e.is_empty() && !e.ends_with('.') && !e.contains('\n'),
            "{e}"
        );
        assert_eq!(e.chars().next().map(char::is_lowercase), Some(true), "{e}");
    }
    assert_eq!(Warning::from_name("empty"), None);
    let all = set(&Warning::ALL);
    assert_eq!(all.len(), 6);
    assert_eq!(all.iter().collect::<Vec<_>>(), Warning::ALL);
    assert_eq!(
        all.to_string(),
        "empty-hashtag,unclosed-brace,nested-brace,later-pairs-ignored,brace-before-tag,binary-brace"
    );
    assert_eq!(Warnings::NONE.to_string(), "-");
}

/// The warnings of `key`, written from each warning's wording with string searches on the
/// key's bytes as a sequence, separately from the runtime's one pass.
fn reference(key: &[u8]) -> Warnings {
    let mut found = Warnings::NONE;
    let opens: Vec<usize> = (0..key.len()).filter(|&i| key[i] == b'{').collect();
    let closes: Vec<usize> = (0..key.len()).filter(|&i| key[i] == b'}').collect();
    if let Some(&open) = opens.first() {
        if closes.iter().any(|&c| c < open) {
            found = found.with(BraceBeforeTag);
        }
        match closes.iter().find(|&&c| c > open) {
            None => found = found.with(UnclosedBrace),
            Some(&close) => {
                if close == open + 1 {
                    found = found.with(EmptyHashtag);
                } else if opens.iter().any(|&o| o > open && o < close) {
                    found = found.with(NestedBrace);
                }
                let later_open = opens.iter().find(|&&o| o > close);
                if later_open.is_some_and(|&o| closes.iter().any(|&c| c > o)) {
                    found = found.with(LaterPairsIgnored);
                }
            }
        }
    }
    if !(opens.is_empty() && closes.is_empty()) && String::from_utf8(key.to_vec()).is_err() {
        found = found.with(BinaryBrace);
    }
    found
}

#[test]
fn every_short_key_over_braces_a_and_ff_matches_the_reference() {
    let symbols = [b'{', b'}', b'a', 0xff];
    let mut checked = 0u64;
    for len in 0..=8u32 {
        for n in 0..4u32.pow(len) {
            let key: Vec<u8> = (0..len)
                .map(|i| symbols[(n >> (2 * i)) as usize & 3])
                .collect();
            let found = warnings(&key);
            assert_eq!(found, reference(&key), "{key:x?}");
            // the warnings that say "the whole key is hashed" agree with the hashtag rule
            let whole = explicit_hashtag(&key).is_none();
            if found.contains(EmptyHashtag) || found.contains(UnclosedBrace) {
                assert!(whole, "{key:x?}");
            }
            if found.contains(NestedBrace) {
                assert!(explicit_hashtag(&key).unwrap().contains(&b'{'), "{key:x?}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, (0..=8).map(|l| 4u64.pow(l)).sum::<u64>());
}

#[test]
fn the_seed_layouts() {
    // slots by the `crc` crate over the bytes the rule hashes, worked out by hand
    assert_eq!(xmodem_slot(b"orders"), 105);
    assert_eq!(xmodem_slot(b"emq:{}:pending"), 7387);
    assert_eq!(xmodem_slot(b"emq:{}:active"), 5857);
    assert_eq!(
        same_slot(["emq:{orders}:pending", "emq:{orders}:active"]),
        Some(105)
    );
    assert_eq!(
        shared_hashtag(["emq:{orders}:pending", "emq:{orders}:active"]),
        Some(&b"orders"[..])
    );
    assert_eq!(same_slot(["emq:{}:pending"]), Some(7387));
    assert_eq!(same_slot(["emq:{}:active"]), Some(5857));
    assert_eq!(same_slot(["emq:{}:pending", "emq:{}:active"]), None);
    assert_eq!(shared_hashtag(["emq:{}:pending", "emq:{}:pending"]), None);
    // `{emq}:version` is on another slot than any queue's keys
    assert_eq!(same_slot(["{emq}:version"]), Some(xmodem_slot(b"emq")));
    assert_eq!(same_slot(["emq:{orders}:pending", "{emq}:version"]), None);
    // the tag is `authz_{orgid`, and `foo{bar}{zap}` hashes `bar`
    assert_eq!(
        explicit_hashtag(b"app:s:{authz_{orgid}_groups_1}"),
        Some(&b"authz_{orgid"[..])
    );
    assert_eq!(
        same_slot(["app:s:{authz_{orgid}_groups_1}"]),
        Some(xmodem_slot(b"authz_{orgid"))
    );
    assert_eq!(
        same_slot(["foo{bar}{zap}", "{bar}"]),
        Some(xmodem_slot(b"bar"))
    );
}

#[test]
fn same_slot_and_shared_hashtag_edges() {
    assert_eq!(same_slot::<[&str; 0]>([]), None);
    assert_eq!(shared_hashtag::<str>([]), None);
    // two keys without hashtags can share a slot by chance: same_slot passes, the layout
    // check does not
    let a = b"123456789".to_vec();
    let slot = xmodem_slot(&a);
    let other = (0u32..)
        .map(|n| format!("k{n}"))
        .find(|k| xmodem_slot(k.as_bytes()) == slot)
        .unwrap();
    assert_eq!(same_slot([&a[..], other.as_bytes()]), Some(slot));
    assert_eq!(shared_hashtag([&a[..], other.as_bytes()]), None);
    // owned keys, and a generated table's method
    let keys = vec![b"{x}1".to_vec(), b"{x}2".to_vec()];
    assert_eq!(shared_hashtag(&keys), Some(&b"x"[..]));
    assert_eq!(REDIS_CLUSTER.same_slot(&keys), Some(xmodem_slot(b"x")));
}

#[test]
fn the_seed_layouts_by_cluster_keyslot() {
    if !require_tool("redis-server") {
        return;
    }
    let server = RedisServer::start(true).unwrap_or_else(|e| panic!("starting redis-server: {e}"));
    let keys: [&[u8]; 8] = [
        b"emq:{orders}:pending",
        b"emq:{orders}:active",
        b"emq:{}:pending",
        b"emq:{}:active",
        b"{emq}:version",
        b"app:s:{authz_{orgid}_groups_1}",
        b"foo{bar}{zap}",
        b"a}b{c}",
    ];
    let answers = server.keyslots(&keys);
    assert_eq!(&answers[..4], [105, 105, 7387, 5857]);
    for (key, answer) in keys.iter().zip(answers) {
        assert_eq!(
            same_slot([key]),
            Some(answer),
            "{}",
            String::from_utf8_lossy(key)
        );
    }
}
