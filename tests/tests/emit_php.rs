//! The emitted PHP class, checked by `php -l` and run by `php` for every test spec, against
//! the Rust runtime and a real Redis server's answers; and two classes of different specs
//! in one program.

use std::path::Path;
use std::process::Command;

use slotgen::emit;
use slotgen_tests::emitted::{self, cases, fresh_dir, keys, run};
use slotgen_tests::{require_tool, speakers};

/// Prints the driver protocol of [`slotgen_tests::emitted`] and [`speakers`] for the class
/// `Test\Slots` in the file `$argv[1]` and the keys file `$argv[2]`.
const DRIVER: &str = r#"<?php
declare(strict_types=1);
require $argv[1];
use Test\Slots;
$out = [];
for ($s = 0; $s < Slots::SLOTS; $s++) {
    $out[] = "tag\t$s\t" . bin2hex(Slots::tagForSlot($s));
}
for ($s = 0; $s < Slots::SLOTS; $s++) {
    $tags = [];
    foreach (Slots::tagsForSlot($s) as $tag) {
        $tags[] = bin2hex($tag);
    }
    $out[] = "tags\t$s\t" . implode(',', $tags);
}
for ($s = 0; $s < Slots::SLOTS; $s++) {
    $out[] = "key\t$s\t" . bin2hex(Slots::keyForSlot('user:', $s, ':profile'));
}
$keys = file($argv[2], FILE_IGNORE_NEW_LINES);
foreach ($keys as $k) {
    $out[] = "slot\t$k\t" . Slots::slot(hex2bin($k));
}
foreach ($keys as $k) {
    $out[] = "hashtag\t$k\t" . bin2hex(Slots::hashtag(hex2bin($k)));
}
function refusal(array &$out, string $name, callable $call): void {
    try {
        $out[] = "accepted\t$name\t" . var_export($call(), true);
    } catch (ValueError | InvalidArgumentException $e) {
        $out[] = "refused\t$name\t" . $e->getMessage();
    }
}
refusal($out, 'tag_out_of_range', fn () => Slots::tagForSlot(Slots::SLOTS));
refusal($out, 'tag_negative', fn () => Slots::tagForSlot(-1));
refusal($out, 'tags_out_of_range', fn () => Slots::tagsForSlot(Slots::SLOTS));
refusal($out, 'key_out_of_range', fn () => Slots::keyForSlot('user:', Slots::SLOTS, ''));
refusal($out, 'prefix_brace', fn () => Slots::keyForSlot('a{b', 0, ''));
echo implode("\n", $out), "\n";
"#;

/// Prints the `pair` lines of [`speakers`] for the classes `A\Slots` (`$argv[1]`) and
/// `B\Slots` (`$argv[2]`).
const PAIR_DRIVER: &str = r#"<?php
declare(strict_types=1);
require $argv[1];
require $argv[2];
foreach (['a' => A\Slots::class, 'b' => B\Slots::class] as $name => $class) {
    echo implode("\t", ['pair', $name, $class::slot('123456789'), bin2hex($class::tagForSlot(1)),
        bin2hex($class::tagForSlot($class::SLOTS - 1))]), "\n";
}
"#;

/// `php -l` on `file`: it must report no syntax error.
fn lint(file: &Path) {
    let output = run(Command::new("php").arg("-l").arg(file));
    assert!(output.contains("No syntax errors detected"), "{output}");
}

#[test]
fn php_class_matches_runtime() {
    if !require_tool("php") {
        return;
    }
    let keys = keys();
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("php-{}", case.name),
        );
        let class = emit::php::class(&case.derivation, r"Test\Slots").unwrap();
        std::fs::write(dir.join("Slots.php"), class).unwrap();
        std::fs::write(dir.join("driver.php"), DRIVER).unwrap();
        lint(&dir.join("Slots.php"));
        let keys_path = emitted::write_keys(&dir, &keys);
        let output = run(Command::new("php")
            .args(["-d", "error_reporting=-1", "-d", "display_errors=stderr"])
            .arg(dir.join("driver.php"))
            .arg(dir.join("Slots.php"))
            .arg(&keys_path));
        speakers::check_output(
            &format!("PHP, spec {}", case.name),
            &output,
            &case.derivation,
            &keys,
            &["slot"],
        );
    }
}

#[test]
fn two_php_classes_of_different_specs_in_one_program() {
    if !require_tool("php") {
        return;
    }
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "php-pair");
    for case in speakers::pair_cases() {
        let name = format!(r"{}\Slots", case.name.to_uppercase());
        let class = emit::php::class(&case.derivation, &name).unwrap();
        std::fs::write(dir.join(format!("{}.php", case.name)), class).unwrap();
    }
    std::fs::write(dir.join("pair.php"), PAIR_DRIVER).unwrap();
    let output = run(Command::new("php")
        .arg(dir.join("pair.php"))
        .arg(dir.join("a.php"))
        .arg(dir.join("b.php")));
    speakers::check_pair("PHP", &output);
}

#[test]
fn php_names_are_checked() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    for bad in [
        "",
        r"Example\",
        r"\Slots",
        "9Slots",
        r"Example\List",
        "class",
        "Slöts",
        "A.B",
    ] {
        let error = emit::php::class(&d, bad).unwrap_err();
        assert!(
            error.to_string().contains("is not a name for `emit php`"),
            "{bad}: {error}"
        );
    }
    assert!(emit::php::class(&d, r"Vendor\Pkg\RedisSlots").is_ok());
}
