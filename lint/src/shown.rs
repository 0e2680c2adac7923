//! How the lint names a file in its messages.

use std::path::Path;

/// How a lint message shows the path of a file: its text with every control character
/// escaped ([`slotgen::text::escape_controls`]: `bad\x1b[31m.lua`, no raw ESC reaches a
/// terminal), a name that is not UTF-8 byte by byte ([`slotgen::text::escape`]). Every
/// message that names a file, errors and findings, shows it through here.
#[must_use]
pub fn shown(path: &Path) -> String {
    match path.to_str() {
        Some(text) => slotgen::text::escape_controls(text),
        None => slotgen::text::escape(path.as_os_str().as_encoded_bytes()),
    }
}
