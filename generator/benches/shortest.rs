//! The shortest-tag search: redis-benchmark's table (62 symbols, up to length 3, 16384
//! slots), by the affine enumeration of `slotgen::shortest`, against a plain enumeration
//! that computes each string's CRC from scratch with the same table-driven engine.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use slotgen::shortest::{shortest, ShortestSpec};
use slotgen_tables::Crc16;

/// Every string of length 1, 2, 3 in order, each CRC computed in full: the first string
/// of each slot.
fn plain(spec: &ShortestSpec) -> Vec<Option<Vec<u8>>> {
    let crc16 = spec.function.spec().expect("a CRC-16 spec");
    let (crc, slots) = (Crc16::new(&crc16.crc), crc16.slots as usize);
    let symbols = spec.charset.symbols();
    let mut first = vec![None; slots];
    let mut left = first.len();
    for len in 1..=spec.max_len {
        let mut index = vec![0usize; len];
        let mut tag = vec![symbols[0]; len];
        'strings: loop {
            let slot = usize::from(crc.checksum(&tag)) & (slots - 1);
            if first[slot].is_none() {
                first[slot] = Some(tag.clone());
                left -= 1;
                if left == 0 {
                    return first;
                }
            }
            let mut k = len;
            loop {
                if k == 0 {
                    break 'strings;
                }
                k -= 1;
                index[k] += 1;
                if index[k] < symbols.len() {
                    tag[k] = symbols[index[k]];
                    break;
                }
                index[k] = 0;
                tag[k] = symbols[0];
            }
        }
    }
    first
}

fn bench(c: &mut Criterion) {
    let spec = ShortestSpec::default();
    let fast = shortest(&spec).unwrap();
    let slow = plain(&spec);
    assert!(fast.tags().zip(&slow).all(|(a, b)| a == b.as_deref()));
    let mut group = c.benchmark_group("redis_benchmark_table");
    group.bench_function("affine_enumeration", |b| {
        b.iter(|| shortest(black_box(&spec)).unwrap())
    });
    group.bench_function("plain_enumeration", |b| b.iter(|| plain(black_box(&spec))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
