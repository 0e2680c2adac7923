//! The build.rs API's `write_to_out_dir` writes inside `OUT_DIR` only: a file name that is
//! absolute, climbs with `..`, or has any component that is not a plain name is refused
//! before anything is written (issue 17).

use slotgen::build::Table;
use slotgen::Error;

#[test]
fn write_to_out_dir_stays_inside_out_dir() {
    let root = tempfile::tempdir().unwrap();
    let out_dir = root.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    // SAFETY: the only test of this file, so the only thread of its process that reads or
    // writes the environment.
    unsafe { std::env::set_var("OUT_DIR", &out_dir) };
    let outside = root.path().join("x.rs");
    let absolute = outside.to_str().unwrap().to_owned();
    for name in ["../x.rs", "a/../../x.rs", &absolute, "./x.rs", "", "a//"] {
        match Table::new("T").write_to_out_dir(name) {
            Err(e @ Error::OutDirPath { .. }) => {
                let text = e.to_string();
                assert!(text.contains("OUT_DIR"), "{name}: {text}");
            }
            other => panic!("{name:?}: {other:?}"),
        }
    }
    assert!(!outside.exists(), "a file was written outside OUT_DIR");
    let path = Table::new("T").write_to_out_dir("table.rs").unwrap();
    assert_eq!(path, out_dir.join("table.rs"));
    assert!(path.exists());
    std::fs::create_dir(out_dir.join("gen")).unwrap();
    assert!(Table::new("T")
        .write_to_out_dir("gen/table.rs")
        .unwrap()
        .exists());
}
