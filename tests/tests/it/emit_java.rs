//! The Java class's name rules (`slotgen emit java --name`): the harness
//! (`tests/tests/emitted.rs`) runs the class of every case, each under a name of its own.

use slotgen::emit::language::{self, Options};

fn emit_named(name: &str) -> Result<String, slotgen::Error> {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    language::find("java").unwrap().emit(
        &d,
        &Options {
            name: Some(name),
            ..Options::default()
        },
    )
}

#[test]
fn java_names_are_checked() {
    for bad in [
        "",
        "com..Slots",
        "com.example.",
        "9Slots",
        "com.class.Slots",
        "String",
        "Stream",
        "OptionalLong",
        "SlotOutOfRangeException",
        "FrameNotSolvableException",
        "Long",
        "Slöts",
        "a-b",
    ] {
        let error = emit_named(bad).unwrap_err();
        assert!(
            error.to_string().contains("is not a name for `emit java`"),
            "{bad}: {error}"
        );
    }
    assert!(emit_named("com.example.RedisSlots").is_ok());
    assert!(emit_named("Slots_2").is_ok());
}
