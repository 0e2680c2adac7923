//! The emitted Java class, compiled by `javac --release 11 -Xlint:all -Werror` and run for
//! every test spec, against the Rust runtime and a real Redis server's answers; and two
//! classes of different specs in one program.

use std::path::Path;
use std::process::Command;

use slotgen::emit;
use slotgen_tests::emitted::{self, cases, fresh_dir, keys, run};
use slotgen_tests::{require_tool, speakers};

/// Prints the driver protocol of [`slotgen_tests::emitted`] and [`speakers`] for the class
/// `test.Slots` and the keys file `args[0]`.
const DRIVER: &str = r#"
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import test.Slots;

public final class Driver {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    static byte[] unhex(String text) {
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    interface Call {
        Object run();
    }

    static void refusal(PrintWriter out, String name, Call call) {
        try {
            out.println("accepted\t" + name + "\t" + call.run());
        } catch (IllegalArgumentException e) {
            out.println("refused\t" + name + "\t" + e.getMessage());
        }
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII)));
        for (int s = 0; s < Slots.SLOTS; s++) {
            out.println("tag\t" + s + "\t" + hex(Slots.tagForSlot(s)));
        }
        for (int s = 0; s < Slots.SLOTS; s++) {
            out.println("tags\t" + s + "\t" + Slots.tagsForSlot(s).map(Driver::hex).collect(Collectors.joining(",")));
        }
        for (int s = 0; s < Slots.SLOTS; s++) {
            byte[] key = Slots.keyForSlot("user:".getBytes(StandardCharsets.UTF_8), s, ":profile".getBytes(StandardCharsets.UTF_8));
            out.println("key\t" + s + "\t" + hex(key));
        }
        List<String> keys = Files.readAllLines(Paths.get(args[0]));
        for (String k : keys) {
            out.println("slot\t" + k + "\t" + Slots.slot(unhex(k)));
        }
        for (String k : keys) {
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(unhex(k))).toString();
            } catch (CharacterCodingException e) {
                continue;
            }
            out.println("str\t" + k + "\t" + Slots.slot(text));
        }
        for (String k : keys) {
            out.println("hashtag\t" + k + "\t" + hex(Slots.hashtag(unhex(k))));
        }
        byte[] empty = new byte[0];
        byte[] user = "user:".getBytes(StandardCharsets.UTF_8);
        refusal(out, "tag_out_of_range", () -> Slots.tagForSlot(Slots.SLOTS));
        refusal(out, "tag_negative", () -> Slots.tagForSlot(-1));
        refusal(out, "tags_out_of_range", () -> Slots.tagsForSlot(Slots.SLOTS));
        refusal(out, "key_out_of_range", () -> Slots.keyForSlot(user, Slots.SLOTS, empty));
        refusal(out, "prefix_brace", () -> Slots.keyForSlot("a{b".getBytes(StandardCharsets.UTF_8), 0, empty));
        out.flush();
    }
}
"#;

/// Prints the `pair` lines of [`speakers`] for the classes `a.Slots` and `b.Slots`.
const PAIR_DRIVER: &str = r#"
public final class Pair {
    static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x", b & 0xff));
        }
        return out.toString();
    }

    public static void main(String[] args) {
        System.out.println("pair\ta\t" + a.Slots.slot("123456789") + "\t" + hex(a.Slots.tagForSlot(1)) + "\t" + hex(a.Slots.tagForSlot(a.Slots.SLOTS - 1)));
        System.out.println("pair\tb\t" + b.Slots.slot("123456789") + "\t" + hex(b.Slots.tagForSlot(1)) + "\t" + hex(b.Slots.tagForSlot(b.Slots.SLOTS - 1)));
    }
}
"#;

fn javac(dir: &Path, files: &[&str]) {
    let _ = run(Command::new("javac")
        .args(["--release", "11", "-Xlint:all", "-Werror", "-d"])
        .arg(dir.join("classes"))
        .args(files.iter().map(|f| dir.join(f))));
}

#[test]
fn java_class_matches_runtime() {
    if !require_tool("javac") || !require_tool("java") {
        return;
    }
    let keys = keys();
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("java-{}", case.name),
        );
        let class = emit::java::class(&case.derivation, "test.Slots").unwrap();
        std::fs::write(dir.join("Slots.java"), class).unwrap();
        std::fs::write(dir.join("Driver.java"), DRIVER).unwrap();
        let keys_path = emitted::write_keys(&dir, &keys);
        javac(&dir, &["Slots.java", "Driver.java"]);
        let output = run(Command::new("java")
            .arg("-cp")
            .arg(dir.join("classes"))
            .arg("Driver")
            .arg(&keys_path));
        speakers::check_output(
            &format!("Java, spec {}", case.name),
            &output,
            &case.derivation,
            &keys,
            &["slot", "str"],
        );
    }
}

#[test]
fn two_java_classes_of_different_specs_in_one_program() {
    if !require_tool("javac") || !require_tool("java") {
        return;
    }
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "java-pair");
    for case in speakers::pair_cases() {
        let class = emit::java::class(&case.derivation, &format!("{}.Slots", case.name)).unwrap();
        std::fs::create_dir_all(dir.join(case.name)).unwrap();
        std::fs::write(dir.join(case.name).join("Slots.java"), class).unwrap();
    }
    std::fs::write(dir.join("Pair.java"), PAIR_DRIVER).unwrap();
    javac(&dir, &["a/Slots.java", "b/Slots.java", "Pair.java"]);
    let output = run(Command::new("java")
        .arg("-cp")
        .arg(dir.join("classes"))
        .arg("Pair"));
    speakers::check_pair("Java", &output);
}

#[test]
fn java_names_are_checked() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    for bad in [
        "",
        "com..Slots",
        "com.example.",
        "9Slots",
        "com.class.Slots",
        "String",
        "Stream",
        "Slöts",
        "a-b",
    ] {
        let error = emit::java::class(&d, bad).unwrap_err();
        assert!(
            error.to_string().contains("is not a name for `emit java`"),
            "{bad}: {error}"
        );
    }
    assert!(emit::java::class(&d, "com.example.RedisSlots").is_ok());
    assert!(emit::java::class(&d, "Slots_2").is_ok());
}
