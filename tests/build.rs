//! Writes a table with slotgen's build.rs API, for `tests/build_api.rs` to `include!`.

use slotgen::{build::Table, Spec};

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
    Ok(())
}
