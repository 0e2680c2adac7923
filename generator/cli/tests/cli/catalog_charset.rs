//! The `slotgen` binary: `catalog`, `--charset`, custom CRC parameters, and their errors.

use crate::common::slotgen;
use std::process::Output;

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn catalog_json_lists_31_verified_algorithms() {
    let output = slotgen(&["catalog", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 31);
    for row in rows {
        let name = row["name"].as_str().unwrap();
        let entry = slotgen::catalog::find(name).unwrap();
        assert_eq!(row["check"], u64::from(entry.algorithm.check), "{name}");
        assert_eq!(row["check_verified"], true, "{name}");
        assert!(row["alnum_tag_len"].as_u64().unwrap() <= 4, "{name}");
    }
    let modbus = rows.iter().find(|r| r["name"] == "CRC-16/MODBUS").unwrap();
    assert_eq!(modbus["default_tag_len"], 5);
}

#[test]
fn charset_reports_its_choice_and_the_table_verifies() {
    let output = slotgen(&["derive", "--crc", "modbus", "--charset", "alnum"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--charset alnum: alphabet `HIJKLMNOPQRSTUVWhijklmnopqrstuvw` (32 symbols): 4-symbol tags"),
        "{}",
        stderr(&output)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("verified:   16384/16384 slots"), "{stdout}");
}

#[test]
fn custom_parameters_name_the_catalogue_algorithm_they_match() {
    let output = slotgen(&[
        "derive", "--poly", "0x8005", "--init", "0xffff", "--refin", "true",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("crc:        CRC-16/MODBUS"));
}

#[test]
fn usage_errors_exit_2_and_failures_exit_1() {
    for args in [
        &["derive", "--charset", "alnum", "--alphabet", "@A"][..],
        &["derive", "--poly", "0x1021", "--crc", "xmodem"],
        &["derive", "--init", "0xffff"],
        &["derive", "--charset", "[z-a]"],
        &["derive", "--poly", "0x10000"],
    ] {
        assert_eq!(slotgen(args).status.code(), Some(2), "{args:?}");
    }
    let output = slotgen(&["derive", "--crc", "modbus", "--tag-len", "4"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("4-symbol tags reach only 8192 of 16384 slots; use tag length 5"),
        "{}",
        stderr(&output)
    );
    // an alphabet that is not affine is wrong by itself: a usage error
    let output = slotgen(&["derive", "--alphabet", "@ABDFGHI"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("the largest affine subset of this alphabet is `@AFG`"));
}

/// `--crc` spelled with other punctuation is the catalogue name it spells (`crc16xmodem`
/// was refused with no suggestion), and what Redis calls its CRC gets CRC-16/XMODEM first:
/// the slot is the `crc` crate's CRC-16/XMODEM of the key, mod 16384.
#[test]
fn crc_spellings_resolve_and_redis_words_suggest_xmodem() {
    let key = "user:1000";
    let expected = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(key.as_bytes()) % 16384;
    for spelling in [
        "crc16xmodem",
        "crc16-xmodem",
        "crc16_xmodem",
        "CRC_16_XMODEM",
    ] {
        let output = slotgen(&["slot", "--crc", spelling, key]);
        assert!(output.status.success(), "{spelling}: {}", stderr(&output));
        let slot = String::from_utf8_lossy(&output.stdout);
        assert_eq!(slot.trim(), expected.to_string(), "{spelling}");
    }
    for (name, first) in [
        ("redis", "CRC-16/XMODEM"),
        ("redis-cluster", "CRC-16/XMODEM"),
        ("crc16", "CRC-16/XMODEM"),
        ("xmodem-crc16", "CRC-16/XMODEM"),
        ("crc16_modbsu", "CRC-16/MODBUS"),
    ] {
        let output = slotgen(&["slot", "--crc", name, key]);
        assert_eq!(output.status.code(), Some(2), "{name}");
        let text = stderr(&output);
        assert!(
            text.contains(&format!("nearest: `{first}`")),
            "{name}: {text}"
        );
    }
}
