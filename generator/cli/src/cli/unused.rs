//! Refusing an option a command would not use.

use anyhow::{anyhow, Result};

use crate::exit::usage;

/// Refuses `options` (given on the command line) that `what` would not use: an option must
/// never be silently ignored.
pub(crate) fn refuse_unused(options: &[&str], what: &str) -> Result<()> {
    match options {
        [] => Ok(()),
        [one] => Err(usage(anyhow!(
            "`{one}` does not apply to {what}: remove it"
        ))),
        many => Err(usage(anyhow!(
            "{} do not apply to {what}: remove them",
            many.iter()
                .map(|o| format!("`{o}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
