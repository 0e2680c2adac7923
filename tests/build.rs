//! Writes tables with slotgen's build.rs API, for `tests/build_api.rs` to `include!`: a
//! CRC-16 table and a named scheme's.

use slotgen::{build::Table, request::Request, scheme::invert::SchemeSpec};

fn main() -> Result<(), slotgen::Error> {
    println!("cargo::rerun-if-changed=build.rs");
    // by the request layer, as `slotgen derive` takes the options; the tag length left
    // out is the shortest that reaches every slot
    let built = Request {
        crc: Some("CRC-16/IBM-3740".to_owned()),
        alphabet: Some(b"@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_".to_vec()),
        ..Request::default()
    };
    Table::new("BUILT")
        .request(&built)
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
