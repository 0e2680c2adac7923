//! How the commands write outside bytes, counts and the system's errors in their lines.

/// Outside bytes escaped for a line of output ([`slotgen::text::escape`]).
pub(crate) fn show(bytes: &[u8]) -> String {
    slotgen::text::escape(bytes)
}

/// As [`show`], cut with a marker ([`slotgen::text::escape_cut`]).
pub(crate) fn show_short(bytes: &[u8]) -> String {
    slotgen::text::escape_cut(bytes)
}

/// `n` with the noun in the number it needs: `1 slot`, `2 slots`.
pub(crate) fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The operating system's reason for `e`, once, without `(os error N)`.
pub(crate) fn os_reason(e: &std::io::Error) -> String {
    slotgen::text::os_reason(e)
}
