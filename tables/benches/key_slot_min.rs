//! `key_slot` and `tag_for_slot` against their peers, robust to a loaded machine: every
//! implementation in the criterion benches' shape (a closure inlined into a loop over one
//! key, behind the same hashtag scan), interleaved round by round in one process, and the
//! minimum over rounds of the mean of a round's calls. Contention only ever adds time, so
//! the minimum is the figure a quiet machine would give, where criterion's median moved 2x
//! to 4x between runs on the shared 2-core machine. Prints Markdown tables: slotgen's
//! minimum, then each peer's over slotgen's (above 1, slotgen is faster).
//!
//! ```sh
//! cargo bench -p slotgen-tables --features simd --bench key_slot_min [-- ROUNDS]
//! ```

mod common;

use std::hint::black_box;
use std::time::Instant;

use common::{plain_key, tagged_key, CRC_TABLE1, CRC_TABLE16, SLOT_MASK};
use crc::{Crc, CRC_16_XMODEM};
use slotgen_tables::{hashtag, REDIS_CLUSTER};

const CALLS: u32 = 3000;
const SLOTS: usize = 16384;

/// One implementation's round on a key: nanoseconds a call.
type Timer<'a> = &'a dyn Fn(&[u8]) -> f64;

/// Nanoseconds a call of `slot` on `key`, the mean of `CALLS` calls.
#[inline(never)]
fn round<F: Fn(&[u8]) -> u16>(slot: &F, key: &[u8]) -> f64 {
    let start = Instant::now();
    for _ in 0..CALLS {
        black_box(slot(black_box(key)));
    }
    start.elapsed().as_nanos() as f64 / f64::from(CALLS)
}

/// Nanoseconds a lookup of `tag` over `slots` in turn, the mean of `4 * CALLS` lookups.
#[inline(never)]
fn round_tags<F: Fn(u16) -> Option<[u8; 4]>>(tag: &F, slots: &[u16]) -> f64 {
    let start = Instant::now();
    let mut i = 0;
    for _ in 0..4 * CALLS {
        i = (i + 1) % slots.len();
        black_box(tag(black_box(slots[i])));
    }
    start.elapsed().as_nanos() as f64 / f64::from(4 * CALLS)
}

/// The minimum of each column over `rounds` rounds of `measure`.
fn minimum<const K: usize>(rounds: usize, mut measure: impl FnMut() -> [f64; K]) -> [f64; K] {
    let mut best = [f64::MAX; K];
    for _ in 0..rounds {
        for (b, t) in best.iter_mut().zip(measure()) {
            *b = b.min(t);
        }
    }
    best
}

fn row(label: &str, best: &[f64]) {
    let ratios: Vec<String> = best[1..]
        .iter()
        .map(|b| format!("{:.2}x", b / best[0]))
        .collect();
    println!("| {label} | {:.2} ns | {} |", best[0], ratios.join(" | "));
}

fn main() {
    // `cargo bench` passes `--bench`; a number is the round count.
    let rounds = std::env::args()
        .filter_map(|a| a.parse().ok())
        .next()
        .unwrap_or(300);
    println!("key_slot, minimum over {rounds} rounds of {CALLS} calls\n");
    println!(
        "| key bytes | slotgen | crc-table1 | crc-table16 | crc-fast | crc16-xmodem-fast | crc16 |"
    );
    println!("|---|---|---|---|---|---|---|");
    let implementations: [Timer<'_>; 6] = [
        &|k| round(&|k: &[u8]| REDIS_CLUSTER.key_slot(k), k),
        &|k| round(&|k: &[u8]| CRC_TABLE1.checksum(hashtag(k)) & SLOT_MASK, k),
        &|k| round(&|k: &[u8]| CRC_TABLE16.checksum(hashtag(k)) & SLOT_MASK, k),
        &|k| {
            round(
                &|k: &[u8]| {
                    crc_fast::checksum(crc_fast::CrcAlgorithm::Crc16Xmodem, hashtag(k)) as u16
                        & SLOT_MASK
                },
                k,
            )
        },
        &|k| {
            round(
                &|k: &[u8]| crc16_xmodem_fast::hash(hashtag(k)) as u16 & SLOT_MASK,
                k,
            )
        },
        &|k| {
            round(
                &|k: &[u8]| crc16::State::<crc16::XMODEM>::calculate(hashtag(k)) & SLOT_MASK,
                k,
            )
        },
    ];
    for (kind, make) in [
        ("", plain_key as fn(usize) -> Vec<u8>),
        (", hashtag", tagged_key),
    ] {
        for len in [3, 8, 16, 64] {
            let key = make(len);
            // Every implementation gives the `crc` crate's slot.
            let expected = Crc::<u16>::new(&CRC_16_XMODEM).checksum(hashtag(&key)) & SLOT_MASK;
            assert_eq!(REDIS_CLUSTER.key_slot(&key), expected);
            let best = minimum(rounds, || implementations.map(|time| time(&key)));
            row(&format!("{len}{kind}"), &best);
        }
    }

    println!("\ntag_for_slot against a 16384-entry array of its tags (64 KiB), minimum over {rounds} rounds of {} lookups\n", 4 * CALLS);
    println!("| order | slotgen | array |");
    println!("|---|---|---|");
    let array: Vec<[u8; 4]> = (0..SLOTS as u16)
        .map(|slot| REDIS_CLUSTER.tag_for_slot(slot).map(|t| t.to_array()))
        .collect::<Result<_, _>>()
        .expect("every slot has a tag");
    let in_order: Vec<u16> = (0..SLOTS as u16).collect();
    let mut shuffled = in_order.clone();
    let mut state = 0x9e37_79b9u32;
    for i in (1..SLOTS).rev() {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let j = ((u64::from(state) * (i as u64 + 1)) >> 32) as usize;
        shuffled.swap(i, j);
    }
    let slotgen = |slot: u16| REDIS_CLUSTER.tag_for_slot(slot).ok().map(|t| t.to_array());
    let lookup = |slot: u16| array.get(usize::from(slot)).copied();
    for (order, slots) in [("in-order", &in_order), ("shuffled", &shuffled)] {
        let best = minimum(rounds, || {
            [round_tags(&slotgen, slots), round_tags(&lookup, slots)]
        });
        row(order, &best);
    }
}
