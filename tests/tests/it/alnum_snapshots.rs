//! Snapshot of the derivation of each catalogue CRC with the alphabet `--charset alnum`
//! chooses for 16384 slots. The semantic test beside it is `catalogue_alphabets`, which
//! derives and verifies these same specs over every slot.

use std::fmt::Write;

use slotgen::catalog::CATALOG;
use slotgen::charset::{choose, Charset};
use slotgen::{derive, Spec};

fn hex_list(values: &[u64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:#07x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One block per catalogue CRC: the chosen alphabet and tag length, the base slot, the
/// pivot columns, the inverse constants (one mask per slot bit) and the kernel basis.
#[test]
fn alnum_derivations_of_every_catalogue_crc() {
    let alnum = Charset::parse("alnum").unwrap();
    let mut text = String::new();
    for entry in CATALOG {
        let choice = choose(
            &alnum,
            &Spec {
                crc: *entry.algorithm,
                slots: 16384,
                ..Spec::default()
            }
            .into(),
        )
        .unwrap();
        let spec = Spec {
            crc: *entry.algorithm,
            alphabet: choice.alphabet.symbols().to_vec(),
            tag_len: Some(choice.tag_len),
            slots: 16384,
        };
        let d = derive(&spec).unwrap();
        let base_tag = d.slot_table().unwrap().tag_from_mask(0);
        writeln!(text, "{}", entry.name).unwrap();
        writeln!(
            text,
            "  alphabet {} ({} symbols), {}-symbol tags",
            String::from_utf8_lossy(d.alphabet.symbols()),
            d.alphabet.len(),
            d.tag_len
        )
        .unwrap();
        writeln!(text, "  base slot {} (\"{base_tag}\")", d.base_slot()).unwrap();
        let pivots: Vec<String> = d.pivots.iter().map(ToString::to_string).collect();
        writeln!(text, "  pivots {}", pivots.join(" ")).unwrap();
        writeln!(text, "  inverse {}", hex_list(&d.inverse)).unwrap();
        writeln!(text, "  kernel {}", hex_list(&d.kernel)).unwrap();
    }
    insta::assert_snapshot!("alnum_derivations", text);
}
