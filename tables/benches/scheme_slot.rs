//! The slot of a key under the CRC-32 schemes, slotgen's own engine ([`CrcEngine<u32>`],
//! byte table below 16 bytes, slice-by-16 above; with `--features simd`, `crc32fast` and
//! `crc32c` from 64 bytes on) against the CRC-32 crates a user would pick, for keys of 3 to
//! 16384 bytes without a hashtag:
//!
//! - `iso-hdlc`: CRC-32/ISO-HDLC, the CRC of Codis, Couchbase, librdkafka and twemproxy,
//!   reduced `% 100` (librdkafka with 100 partitions). `slotgen` is the engine with
//!   CRC-32/ISO-HDLC, `slotgen-librdkafka` the whole scheme, `Scheme::librdkafka(100).slot`;
//!   the alternatives: the `crc` crate with `Table<1>` (its default) and `Table<16>`,
//!   `crc32fast` (SIMD folding from 64 bytes, slice-by-16 below), and `crc-fast` (SIMD
//!   folding).
//! - `crc32c`: CRC-32C reduced `% 3000` (Tarantool vshard's bucket count). `slotgen` is the
//!   engine with CRC-32/ISCSI; the alternatives: `crc` `Table<1>` and `Table<16>`, `crc32c`
//!   (the SSE 4.2 `crc32` instruction) and `crc-fast`. `slotgen-vshard` is the whole
//!   `tarantool-vshard` scheme (Tarantool's CRC-32C without the final xor, `% 3000 + 1`).
//!
//! ```sh
//! cargo bench -p slotgen-tables --bench scheme_slot
//! python3 tables/benches/ratios.py
//! ```

mod common;

use std::hint::black_box;
use std::time::Duration;

use common::plain_key;
use crc::{Crc, Table, CRC_32_ISCSI, CRC_32_ISO_HDLC};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use slotgen_tables::{CrcEngine, Scheme};

const LENGTHS: [usize; 7] = [3, 8, 16, 64, 256, 1024, 16384];
const PARTITIONS: u32 = 100;
const BUCKETS: u32 = 3000;

static HDLC_TABLE1: Crc<u32, Table<1>> = Crc::<u32, Table<1>>::new(&CRC_32_ISO_HDLC);
static HDLC_TABLE16: Crc<u32, Table<16>> = Crc::<u32, Table<16>>::new(&CRC_32_ISO_HDLC);
static C_TABLE1: Crc<u32, Table<1>> = Crc::<u32, Table<1>>::new(&CRC_32_ISCSI);
static C_TABLE16: Crc<u32, Table<16>> = Crc::<u32, Table<16>>::new(&CRC_32_ISCSI);
static C_ENGINE: CrcEngine<u32> = CrcEngine::<u32>::new(&CRC_32_ISCSI);
static HDLC_ENGINE: CrcEngine<u32> = CrcEngine::<u32>::new(&CRC_32_ISO_HDLC);

/// Times `slot` on `key`, after checking it gives `expected`. Generic, so that each
/// implementation is inlined into its own loop.
fn time<F: Fn(&[u8]) -> u32>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    key: &[u8],
    expected: u32,
    slot: F,
) {
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
    let kafka = Scheme::librdkafka(PARTITIONS).expect("100 partitions");
    // The alternatives divide by a run-time count, as slotgen does, not by a constant that
    // the compiler would turn into a multiplication.
    let (partitions, buckets) = (black_box(PARTITIONS), black_box(BUCKETS));
    let vshard = Scheme::tarantool_vshard(BUCKETS).expect("3000 buckets");
    let mut group = c.benchmark_group("scheme_slot/iso-hdlc");
    for len in LENGTHS {
        let key = plain_key(len);
        let expected = Crc::<u32>::new(&CRC_32_ISO_HDLC).checksum(&key) % PARTITIONS;
        group.throughput(Throughput::Bytes(len as u64));
        let g = &mut group;
        time(g, "slotgen", &key, expected, |k| {
            HDLC_ENGINE.checksum(k) % partitions
        });
        time(g, "slotgen-librdkafka", &key, expected, |k| kafka.slot(k));
        time(g, "crc-table1", &key, expected, |k| {
            HDLC_TABLE1.checksum(k) % partitions
        });
        time(g, "crc-table16", &key, expected, |k| {
            HDLC_TABLE16.checksum(k) % partitions
        });
        time(g, "crc32fast", &key, expected, |k| {
            crc32fast::hash(k) % partitions
        });
        time(g, "crc-fast", &key, expected, |k| {
            crc_fast::checksum(crc_fast::CrcAlgorithm::Crc32IsoHdlc, k) as u32 % partitions
        });
    }
    group.finish();
    let mut group = c.benchmark_group("scheme_slot/crc32c");
    for len in LENGTHS {
        let key = plain_key(len);
        let expected = Crc::<u32>::new(&CRC_32_ISCSI).checksum(&key) % BUCKETS;
        group.throughput(Throughput::Bytes(len as u64));
        let g = &mut group;
        time(g, "slotgen", &key, expected, |k| {
            C_ENGINE.checksum(k) % buckets
        });
        // Tarantool's CRC is CRC-32C without the final xor.
        let bucket = !expected_c(&key) % BUCKETS + 1;
        time(g, "slotgen-vshard", &key, bucket, |k| vshard.slot(k));
        time(g, "crc-table1", &key, expected, |k| {
            C_TABLE1.checksum(k) % buckets
        });
        time(g, "crc-table16", &key, expected, |k| {
            C_TABLE16.checksum(k) % buckets
        });
        time(g, "crc32c", &key, expected, |k| crc32c::crc32c(k) % buckets);
        time(g, "crc-fast", &key, expected, |k| {
            crc_fast::checksum(crc_fast::CrcAlgorithm::Crc32Iscsi, k) as u32 % buckets
        });
    }
    group.finish();
}

/// CRC-32C of `key` by the `crc` crate.
fn expected_c(key: &[u8]) -> u32 {
    Crc::<u32>::new(&CRC_32_ISCSI).checksum(key)
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
