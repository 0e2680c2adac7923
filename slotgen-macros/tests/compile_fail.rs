//! Every `slot_table!` error, as a compile-fail test with its committed `.stderr`: each
//! error is on the offending token and is the only error of its file (the macro emits a
//! placeholder table, which `main` uses).

#[test]
fn slot_table_errors() {
    trybuild::TestCases::new().compile_fail("ui/*.rs");
}

/// A hand-built `SlotTable` that is inconsistent does not compile: `SlotTable::new` checks
/// it in the `static`'s const evaluation and names what is wrong.
#[test]
fn inconsistent_hand_built_tables() {
    trybuild::TestCases::new().compile_fail("ui-table/*.rs");
}
