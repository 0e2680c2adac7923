//! How the lint names a file in its messages.

use std::path::Path;

/// How a lint message shows the path of a file: [`slotgen::text::path`], the one rule of
/// every message that names a file; errors and findings show it through here.
#[must_use]
pub fn shown(path: &Path) -> String {
    slotgen::text::path(path)
}
