//! `tag_for_slot` against the two ways tools find a tag for a slot: a brute-force search over
//! the tags of the same alphabet and length (what most tools do), and a precomputed
//! 16384-entry tag array (the shape of the table redis-benchmark ships, 64 KiB).
//!
//! ```sh
//! cargo bench -p slotgen-tables --bench tag_for_slot
//! ```
//!
//! One iteration is one lookup; the slots cycle through all 16384, in order or in a fixed
//! shuffled order. Every lookup is checked once before timing.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use slotgen_tables::REDIS_CLUSTER;

const SLOTS: usize = 16384;

/// The 16384-entry tag array, built from `REDIS_CLUSTER` (one 4-byte tag per slot).
fn tag_array() -> Vec<[u8; 4]> {
    (0..SLOTS as u16)
        .map(|slot| {
            let tag = REDIS_CLUSTER.tag_for_slot(slot).expect("slot in range");
            tag.as_ref().try_into().expect("4-symbol tags")
        })
        .collect()
}

/// The first 4-symbol tag over the table's alphabet, in counting order, whose CRC lands on
/// `slot`: at most 65536 CRCs of 4 bytes (the runtime's own CRC, so the search is not slowed
/// by a slower CRC).
fn brute_force(slot: u16) -> Option<[u8; 4]> {
    let alphabet = REDIS_CLUSTER.alphabet;
    let n = alphabet.len();
    for i in 0..n * n * n * n {
        let tag = [
            alphabet[i % n],
            alphabet[i / n % n],
            alphabet[i / (n * n) % n],
            alphabet[i / (n * n * n)],
        ];
        if REDIS_CLUSTER.crc.checksum(&tag) & 0x3fff == slot {
            return Some(tag);
        }
    }
    None
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

fn bench(c: &mut Criterion) {
    let array = tag_array();
    let lookup = |slot: u16| array.get(usize::from(slot)).copied();
    for slot in 0..SLOTS as u16 {
        let tag = REDIS_CLUSTER.tag_for_slot(slot).unwrap();
        assert_eq!(REDIS_CLUSTER.key_slot(tag.as_ref()), slot);
        assert_eq!(lookup(slot).map(|t| REDIS_CLUSTER.key_slot(&t)), Some(slot));
    }
    let in_order: Vec<u16> = (0..SLOTS as u16).collect();
    let shuffled = shuffled();
    for (order, slots) in [("in-order", &in_order), ("shuffled", &shuffled)] {
        let mut group = c.benchmark_group("tag_for_slot");
        group.bench_function(BenchmarkId::new("slotgen", order), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % SLOTS;
                REDIS_CLUSTER.tag_for_slot(black_box(slots[i]))
            });
        });
        group.bench_function(BenchmarkId::new("array", order), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % SLOTS;
                lookup(black_box(slots[i]))
            });
        });
        group.bench_function(BenchmarkId::new("brute-force", order), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % SLOTS;
                brute_force(black_box(slots[i]))
            });
        });
        group.finish();
    }
    let slot = shuffled[0];
    assert_eq!(
        brute_force(slot).map(|t| REDIS_CLUSTER.key_slot(&t)),
        Some(slot)
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
