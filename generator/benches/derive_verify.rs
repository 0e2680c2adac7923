//! `derive` plus exhaustive `verify`: for the default spec (Redis Cluster), and for all 31
//! catalogue CRCs with the default alphabet and tag length.
//!
//! ```sh
//! cargo bench -p slotgen --bench derive_verify
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use slotgen::catalog::CATALOG;
use slotgen::{derive, verify, Spec};

fn bench(c: &mut Criterion) {
    let spec = Spec::default();
    let derivation = derive(&spec).expect("the default spec derives");
    assert!(verify(&derivation).passed());
    let specs: Vec<Spec> = CATALOG
        .iter()
        .map(|e| Spec::default().with_crc(e.name).expect("a catalogue name"))
        .collect();
    let mut group = c.benchmark_group("derive_verify");
    group.bench_function("derive/default", |b| b.iter(|| derive(black_box(&spec))));
    group.bench_function("verify/default", |b| {
        b.iter(|| verify(black_box(&derivation)))
    });
    group.bench_function("derive+verify/default", |b| {
        b.iter(|| verify(&derive(black_box(&spec)).expect("derives")).passed())
    });
    // Every catalogue CRC whose 4-symbol tags reach every slot; the others fail in `derive`,
    // which is timed as well.
    group.bench_function("derive+verify/catalogue-31", |b| {
        b.iter(|| {
            specs
                .iter()
                .filter(|spec| match derive(black_box(*spec)) {
                    Ok(d) => verify(&d).passed(),
                    Err(_) => false,
                })
                .count()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
