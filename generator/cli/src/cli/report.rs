//! How the commands that verify (`derive --verify`, `verify`) print a verification report.

use slotgen::Derivation;

use super::text::show;

/// What a passed verification covered, after the tag count: nothing when every tag was
/// checked, else how the tags were covered ([`slotgen::Report::coverage`]).
pub(crate) fn verification_scope(report: Option<&slotgen::Report>, d: &Derivation) -> String {
    report
        .and_then(|r| r.coverage(d))
        .map(|how| format!(" ({how})"))
        .unwrap_or_default()
}

/// One `failed:` line per listed failure of a verification report.
pub(crate) fn write_failures(
    out: &mut impl std::io::Write,
    report: &slotgen::Report,
    max: usize,
) -> std::io::Result<()> {
    for failure in report.failures.iter().take(max) {
        writeln!(
            out,
            "failed:     slot {} tag \"{}\": {}",
            failure.slot,
            show(&failure.tag),
            failure.reason
        )?;
    }
    Ok(())
}
