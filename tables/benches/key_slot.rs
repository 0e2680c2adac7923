//! `key_slot` against every CRC-16 crate a user could pick, each behind the same hashtag
//! scan (`slotgen_tables::hashtag`), for keys of 3 to 16384 bytes with and without a hashtag.
//!
//! ```sh
//! cargo bench -p slotgen-tables --features simd --bench key_slot
//! ```
//!
//! `slotgen` is `REDIS_CLUSTER.key_slot` (with the `simd` feature: byte table, slice-by-16
//! or `crc-fast` by length); `slotgen-portable` is the same without the SIMD path. The
//! alternatives: the `crc` crate with `Table<1>` (its default) and `Table<16>` (its bitwise
//! `NoTable` is 4 to 15 times slower than `Table<1>` and was left out to keep the run short);
//! `crc-fast` (SIMD folding, any catalogue CRC); `crc16-xmodem-fast` (SIMD, XMODEM only);
//! and `crc16` (what redis-rs uses).

mod common;

use std::hint::black_box;
use std::time::Duration;

use common::{plain_key, tagged_key, CRC_TABLE1, CRC_TABLE16, SLOT_MASK};
use crc::{Crc, CRC_16_XMODEM};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use slotgen_tables::{hashtag, REDIS_CLUSTER};

const LENGTHS: [usize; 7] = [3, 8, 16, 64, 256, 1024, 16384];

/// Times `slot` on `key`, after checking it against the `crc` crate. Generic, so that each
/// implementation is inlined into its own loop.
fn time<F: Fn(&[u8]) -> u16>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    key: &[u8],
    slot: F,
) {
    let expected = Crc::<u16>::new(&CRC_16_XMODEM).checksum(hashtag(key)) & SLOT_MASK;
    assert_eq!(
        slot(key),
        expected,
        "{name} on a key of {} bytes",
        key.len()
    );
    group.bench_with_input(BenchmarkId::new(name, key.len()), key, |b, key| {
        b.iter(|| slot(black_box(key)));
    });
}

fn bench(c: &mut Criterion) {
    for (kind, make) in [
        ("no-hashtag", plain_key as fn(usize) -> Vec<u8>),
        ("hashtag", tagged_key),
    ] {
        let mut group = c.benchmark_group(format!("key_slot/{kind}"));
        for len in LENGTHS {
            let key = make(len);
            group.throughput(Throughput::Bytes(len as u64));
            let g = &mut group;
            time(g, "slotgen", &key, |k| REDIS_CLUSTER.key_slot(k));
            time(g, "slotgen-portable", &key, |k| {
                REDIS_CLUSTER.crc().checksum_portable(hashtag(k)) & SLOT_MASK
            });
            time(g, "crc-table1", &key, |k| {
                CRC_TABLE1.checksum(hashtag(k)) & SLOT_MASK
            });
            time(g, "crc-table16", &key, |k| {
                CRC_TABLE16.checksum(hashtag(k)) & SLOT_MASK
            });
            time(g, "crc-fast", &key, |k| {
                crc_fast::checksum(crc_fast::CrcAlgorithm::Crc16Xmodem, hashtag(k)) as u16
                    & SLOT_MASK
            });
            time(g, "crc16-xmodem-fast", &key, |k| {
                crc16_xmodem_fast::hash(hashtag(k)) as u16 & SLOT_MASK
            });
            time(g, "crc16", &key, |k| {
                crc16::State::<crc16::XMODEM>::calculate(hashtag(k)) & SLOT_MASK
            });
        }
        group.finish();
    }
    // The hashtag scan alone, on keys without a brace (the scan reads the whole key).
    let mut group = c.benchmark_group("hashtag_scan");
    for len in LENGTHS {
        let key = plain_key(len);
        group.throughput(Throughput::Bytes(len as u64));
        group.bench_with_input(BenchmarkId::new("slotgen", len), &key, |b, key| {
            b.iter(|| hashtag(black_box(key)).len());
        });
        group.bench_with_input(BenchmarkId::new("byte-loop", len), &key, |b, key| {
            b.iter(|| hashtag_byte_loop(black_box(key)).len());
        });
    }
    group.finish();
}

/// The hashtag rule with a byte-at-a-time scan, as redis-rs and most clients write it.
fn hashtag_byte_loop(key: &[u8]) -> &[u8] {
    let Some(open) = key.iter().position(|&b| b == b'{') else {
        return key;
    };
    let rest = &key[open + 1..];
    match rest.iter().position(|&b| b == b'}') {
        Some(close) if close > 0 => &rest[..close],
        _ => key,
    }
}

criterion_group! {
    name = benches;
    // Short times: the machine is shared; medians are stable at these lengths.
    config = Criterion::default()
        .without_plots()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1000));
    targets = bench
}
criterion_main!(benches);
