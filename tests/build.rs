//! Writes tables with slotgen's build.rs API, for `tests/build_api.rs` to `include!`: a
//! CRC-16 table and a named scheme's.

use slotgen::{build::Table, scheme::invert::SchemeSpec, Spec};

fn main() -> Result<(), slotgen::Error> {
    println!("cargo::rerun-if-changed=build.rs");
    let mut spec = Spec::default().with_crc("CRC-16/IBM-3740")?;
    spec.alphabet = b"@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_".to_vec();
    spec.tag_len = None; // the shortest length that reaches every slot
    Table::new("BUILT")
        .spec(spec)
        .doc("CRC-16/IBM-3740 over the 32 bytes `@` to `_`, written by build.rs.")
        .visibility("pub(crate)")
        .write_to_out_dir("built.rs")?;
    // Couchbase's vBuckets over 32 symbols, the tag length left to slotgen.
    let couchbase = SchemeSpec {
        alphabet: b"@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_".to_vec(),
        ..SchemeSpec::new(slotgen::scheme::find("couchbase")?)
    };
    Table::new("VBUCKETS")
        .scheme(couchbase)
        .doc("Couchbase's 1024 vBuckets over the 32 bytes `@` to `_`, written by build.rs.")
        .visibility("pub(crate)")
        .write_to_out_dir("vbuckets.rs")?;
    Ok(())
}
