//! `tag_for_slot` against the two ways tools find a tag for a slot: a precomputed
//! 16384-entry `[u8; 4]` tag array (the shape of the table redis-benchmark ships, 64 KiB)
//! and a brute-force search over the tags of the same alphabet and length (what most tools
//! do), in three loops:
//!
//! - `throughput`: independent lookups over all 16384 slots in a fixed shuffled order (and
//!   `in-order`), one lookup per iteration;
//! - `latency`: a dependent chain, each slot computed from the previous tag's bytes, so the
//!   loads cannot overlap;
//! - `cache-pressure`: the shuffled loop, each lookup preceded by a read of a random byte of
//!   a 16 MiB buffer that evicts the tables from the caches as a busy program would.
//!
//! ```sh
//! cargo bench -p slotgen-tables --bench tag_for_slot
//! python3 tables/benches/ratios.py
//! ```
//!
//! Every lookup is checked against the `crc` crate once before timing.

use std::hint::black_box;
use std::time::Duration;

use crc::{Crc, CRC_16_XMODEM};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use slotgen_tables::REDIS_CLUSTER;

const SLOTS: usize = 16384;
const PRESSURE_BYTES: usize = 16 << 20;

/// The reference CRC for the checks: the `crc` crate.
static XMODEM: Crc<u16> = Crc::<u16>::new(&CRC_16_XMODEM);

/// The 16384-entry tag array, built by brute force (one 4-byte tag per slot).
fn tag_array() -> Vec<[u8; 4]> {
    let mut array = vec![[0u8; 4]; SLOTS];
    let mut found = vec![false; SLOTS];
    let alphabet = REDIS_CLUSTER.alphabet();
    for i in 0..1usize << 16 {
        let tag = [0, 1, 2, 3].map(|k| alphabet[(i >> (4 * k)) & 15]);
        let slot = usize::from(XMODEM.checksum(&tag) & 0x3fff);
        if !std::mem::replace(&mut found[slot], true) {
            array[slot] = tag;
        }
    }
    assert!(found.iter().all(|&f| f));
    array
}

/// The first 4-symbol tag over the table's alphabet, in counting order, whose CRC lands on
/// `slot`: at most 65536 CRCs of 4 bytes (the runtime's own CRC, so the search is not slowed
/// by a slower CRC).
fn brute_force(slot: u16) -> Option<[u8; 4]> {
    let alphabet = REDIS_CLUSTER.alphabet();
    let crc = REDIS_CLUSTER.crc();
    (0..1usize << 16)
        .map(|i| [0, 1, 2, 3].map(|k| alphabet[(i >> (4 * k)) & 15]))
        .find(|tag| crc.checksum(tag) & 0x3fff == slot)
}

/// All slots in a fixed pseudo-random order (Fisher-Yates with a fixed LCG).
fn shuffled() -> Vec<u16> {
    let mut slots: Vec<u16> = (0..SLOTS as u16).collect();
    let mut state = 0x9e37_79b9u32;
    for i in (1..SLOTS).rev() {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let j = ((u64::from(state) * (i as u64 + 1)) >> 32) as usize;
        slots.swap(i, j);
    }
    slots
}

/// The next slot of the dependent chain: a mix of the previous tag's bytes and a counter,
/// the same function for every implementation.
#[inline(always)]
fn next_slot(tag: [u8; 4], i: u32) -> u16 {
    ((u32::from_le_bytes(tag).wrapping_mul(0x9e37_79b9) ^ i) >> 18) as u16
}

fn bench(c: &mut Criterion) {
    let array = tag_array();
    // Both give an `Option<[u8; 4]>`, so that the loops hand `black_box` the same value: a
    // `Result<[u8; 4], Error>` is 24 bytes and goes through memory, which alone cost the
    // cache-pressure loop 30 ns per lookup (1.5x) in a run of 2026-12-01.
    let lookup = |slot: u16| array.get(usize::from(slot)).copied();
    let slotgen = |slot: u16| REDIS_CLUSTER.tag_for_slot(slot).ok().map(|t| t.to_array());
    for slot in 0..SLOTS as u16 {
        let tag = REDIS_CLUSTER.tag_for_slot(slot).unwrap();
        assert_eq!(XMODEM.checksum(tag.as_ref()) & 0x3fff, slot);
        assert_eq!(
            lookup(slot).map(|t| XMODEM.checksum(&t) & 0x3fff),
            Some(slot)
        );
    }
    let slot = shuffled()[0];
    assert_eq!(
        brute_force(slot).map(|t| XMODEM.checksum(&t) & 0x3fff),
        Some(slot)
    );

    let in_order: Vec<u16> = (0..SLOTS as u16).collect();
    let shuffled = shuffled();
    let mut group = c.benchmark_group("tag_for_slot/throughput");
    for (order, slots) in [("in-order", &in_order), ("shuffled", &shuffled)] {
        group.bench_function(BenchmarkId::new("slotgen", order), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % SLOTS;
                slotgen(black_box(slots[i]))
            });
        });
        group.bench_function(BenchmarkId::new("array", order), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % SLOTS;
                lookup(black_box(slots[i]))
            });
        });
    }
    group.bench_function(BenchmarkId::new("brute-force", "shuffled"), |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % SLOTS;
            brute_force(black_box(shuffled[i]))
        });
    });
    group.finish();

    // One iteration is one lookup whose slot depends on the previous lookup's tag.
    let mut group = c.benchmark_group("tag_for_slot/latency");
    group.bench_function(BenchmarkId::new("slotgen", "chain"), |b| {
        let (mut slot, mut i) = (0u16, 0u32);
        b.iter(|| {
            i = i.wrapping_add(1);
            let tag = slotgen(slot).unwrap_or_default();
            slot = next_slot(tag, i);
        });
        black_box(slot);
    });
    group.bench_function(BenchmarkId::new("array", "chain"), |b| {
        let (mut slot, mut i) = (0u16, 0u32);
        b.iter(|| {
            i = i.wrapping_add(1);
            let tag = lookup(slot).unwrap_or_default();
            slot = next_slot(tag, i);
        });
        black_box(slot);
    });
    group.finish();

    // One iteration is one random read of a 16 MiB buffer (its address from an LCG, not
    // from the lookup) and one lookup of the shuffled order.
    let pressure: Vec<u8> = (0..PRESSURE_BYTES).map(|i| (i * 7) as u8).collect();
    let mut group = c.benchmark_group("tag_for_slot/cache-pressure");
    let read = |state: &mut u32| {
        *state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        pressure[*state as usize % PRESSURE_BYTES]
    };
    group.bench_function(BenchmarkId::new("slotgen", "shuffled"), |b| {
        let (mut i, mut state) = (0, 1u32);
        b.iter(|| {
            i = (i + 1) % SLOTS;
            (read(&mut state), slotgen(black_box(shuffled[i])))
        });
    });
    group.bench_function(BenchmarkId::new("array", "shuffled"), |b| {
        let (mut i, mut state) = (0, 1u32);
        b.iter(|| {
            i = (i + 1) % SLOTS;
            (read(&mut state), lookup(black_box(shuffled[i])))
        });
    });
    group.bench_function(BenchmarkId::new("read-alone", "shuffled"), |b| {
        let (mut i, mut state) = (0, 1u32);
        b.iter(|| {
            i = (i + 1) % SLOTS;
            (read(&mut state), black_box(shuffled[i]))
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    // Short times: the machine is shared; medians are stable at these lengths.
    config = Criterion::default()
        .without_plots()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
