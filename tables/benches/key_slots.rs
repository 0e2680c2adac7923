//! `key_slots` (a batch of keys) against `key_slot` and each CRC-16 crate called once a key
//! in a loop, each behind the same hashtag scan
//! (`slotgen_tables::hashtag`), over 1024 distinct keys of 8, 22 and 64 bytes: every key
//! plain (`plain`), or every other one with an 8-byte hashtag in its middle (`mixed`, a
//! client's usual mix: `user:{12345678}:profile`).
//!
//! ```sh
//! cargo bench -p slotgen-tables --features simd --bench key_slots
//! ```
//!
//! `slotgen-batch` is `REDIS_CLUSTER.key_slots`; `slotgen-loop` is `REDIS_CLUSTER.key_slot`
//! once a key; the others are the `crc` crate's `Table<1>` and `Table<16>`, `crc-fast` and
//! `crc16` (what redis-rs uses) once a key. Throughput is in keys.

mod common;

use std::hint::black_box;
use std::time::Duration;

use common::{CRC_TABLE1, CRC_TABLE16, SLOT_MASK};
use crc::{Crc, CRC_16_XMODEM};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use slotgen_tables::{hashtag, REDIS_CLUSTER};

const LENGTHS: [usize; 3] = [8, 22, 64];
const KEYS: usize = 1024;

/// `KEYS` keys of `len` bytes of lowercase letters from a fixed LCG; with `tagged`, every
/// other key holds `{tag}` in its middle, the tag `min(len - 2, 8)` bytes.
fn keys(len: usize, tagged: bool) -> Vec<Vec<u8>> {
    let mut state = 0x2545_f491u32;
    (0..KEYS)
        .map(|k| {
            let mut key: Vec<u8> = (0..len)
                .map(|_| {
                    state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    b'a' + ((state >> 24) % 26) as u8
                })
                .collect();
            if tagged && k % 2 == 0 {
                let tag_len = (len - 2).min(8);
                let open = (len - tag_len - 2) / 2;
                key[open] = b'{';
                key[open + tag_len + 1] = b'}';
            }
            key
        })
        .collect()
}

/// Times `slots` over `keys`, after checking its slots against the `crc` crate.
fn time<F: Fn(&[Vec<u8>], &mut [u16])>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    keys: &[Vec<u8>],
    slots: F,
) {
    let reference = Crc::<u16>::new(&CRC_16_XMODEM);
    let mut out = vec![0u16; keys.len()];
    slots(keys, &mut out);
    for (key, slot) in keys.iter().zip(&out) {
        let expected = reference.checksum(hashtag(key)) & SLOT_MASK;
        assert_eq!(
            *slot,
            expected,
            "{name} on {:?}",
            String::from_utf8_lossy(key)
        );
    }
    group.bench_with_input(BenchmarkId::new(name, keys[0].len()), keys, |b, keys| {
        b.iter(|| {
            slots(black_box(keys), &mut out);
            black_box(&out);
        });
    });
}

/// A loop of `slot` over the keys: what a client does without a batch call.
fn each(keys: &[Vec<u8>], out: &mut [u16], slot: impl Fn(&[u8]) -> u16) {
    for (key, s) in keys.iter().zip(out.iter_mut()) {
        *s = slot(key);
    }
}

fn bench(c: &mut Criterion) {
    for (kind, tagged) in [("mixed", true), ("plain", false)] {
        let mut group = c.benchmark_group(format!("key_slots/{kind}"));
        for len in LENGTHS {
            let keys = keys(len, tagged);
            group.throughput(Throughput::Elements(KEYS as u64));
            let g = &mut group;
            time(g, "slotgen-batch", &keys, |k, out| {
                REDIS_CLUSTER.key_slots(k, out);
            });
            time(g, "slotgen-loop", &keys, |k, out| {
                each(k, out, |key| REDIS_CLUSTER.key_slot(key));
            });
            time(g, "crc-table1-loop", &keys, |k, out| {
                each(k, out, |key| CRC_TABLE1.checksum(hashtag(key)) & SLOT_MASK);
            });
            time(g, "crc-table16-loop", &keys, |k, out| {
                each(k, out, |key| CRC_TABLE16.checksum(hashtag(key)) & SLOT_MASK);
            });
            time(g, "crc-fast-loop", &keys, |k, out| {
                each(k, out, |key| {
                    crc_fast::checksum(crc_fast::CrcAlgorithm::Crc16Xmodem, hashtag(key)) as u16
                        & SLOT_MASK
                });
            });
            time(g, "crc16-loop", &keys, |k, out| {
                each(k, out, |key| {
                    crc16::State::<crc16::XMODEM>::calculate(hashtag(key)) & SLOT_MASK
                });
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    // Short times: the machine is shared; medians are stable at these sizes.
    config = Criterion::default()
        .without_plots()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1000));
    targets = bench
}
criterion_main!(benches);
