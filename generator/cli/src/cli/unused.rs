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

/// The value of an option that applies to some uses of a command only (`verify
/// --max-errors`, not with `--exec`): clap keeps its check's answer, and the command asks
/// for it ([`Deferred::get`]) after [`refuse_unused`], so that an option that does not apply
/// is refused as such whatever its value, not first for its value and then for itself.
#[derive(Clone, Debug)]
pub(crate) struct Deferred<T>(Box<Result<T, String>>);

impl<T: Clone> Deferred<T> {
    /// The value, or its check's refusal under `option`'s name (a usage error).
    pub(crate) fn get(&self, option: &str) -> Result<T> {
        (*self.0)
            .clone()
            .map_err(|reason| usage(anyhow!("{option}: {reason}")))
    }
}

/// A clap value parser that keeps `parse`'s answer for [`Deferred::get`].
pub(crate) fn deferred<T: Clone + Send + Sync + 'static>(
    parse: fn(&str) -> Result<T, String>,
) -> impl Fn(&str) -> Result<Deferred<T>, std::convert::Infallible> + Clone + Send + Sync + 'static
{
    move |text| Ok(Deferred(Box::new(parse(text))))
}
