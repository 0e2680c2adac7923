//! The alphabet search of `--charset`, against the derivation it precedes.
//!
//! `cargo bench -p slotgen --bench charset`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use slotgen::alphabet::largest_affine_subset;
use slotgen::charset::{choose, Charset};
use slotgen::{derive, Spec};

/// The spec of a CRC-16 table of 16384 slots, for `choose`.
fn crc16(crc: &crc::Algorithm<u16>) -> slotgen::request::TableSpec {
    Spec {
        crc: *crc,
        ..Spec::default()
    }
    .into()
}

fn charset(c: &mut Criterion) {
    let alnum = Charset::parse("alnum").unwrap();
    let printable = Charset::parse("printable").unwrap();
    let mut group = c.benchmark_group("charset");
    group.bench_function("derive Redis Cluster (baseline)", |b| {
        b.iter(|| derive(black_box(&Spec::default())).unwrap());
    });
    group.bench_function("choose alnum CRC-16/XMODEM", |b| {
        b.iter(|| choose(black_box(&alnum), &crc16(&crc::CRC_16_XMODEM)).unwrap());
    });
    group.bench_function("choose alnum CRC-16/MODBUS", |b| {
        b.iter(|| choose(black_box(&alnum), &crc16(&crc::CRC_16_MODBUS)).unwrap());
    });
    group.bench_function("choose alnum, all 31 catalogue CRCs", |b| {
        b.iter(|| {
            for e in slotgen::catalog::CATALOG {
                choose(black_box(&alnum), &crc16(e.algorithm)).unwrap();
            }
        });
    });
    group.bench_function("choose printable CRC-16/XMODEM", |b| {
        b.iter(|| choose(black_box(&printable), &crc16(&crc::CRC_16_XMODEM)).unwrap());
    });
    // 128 symbols, not affine: ASCII 0..128 with 77 replaced by 200
    let mut broken: Vec<u8> = (0..128).collect();
    broken[77] = 200;
    group.bench_function("largest affine subset of 128 symbols", |b| {
        b.iter(|| largest_affine_subset(black_box(&broken)));
    });
    group.finish();
}

criterion_group!(benches, charset);
criterion_main!(benches);
