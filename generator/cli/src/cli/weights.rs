//! `--weight NODE=W`, of `rebalance` and `load`: one primary's weight, parsed and checked
//! here once. What a weight means (the fair share `total * weight / sum of weights`, the
//! skew over it) is [`slotgen_cluster::Summary`]'s; this module only reads the options.

use anyhow::{anyhow, Result};
use clap::Args;
use slotgen::text::field;
use slotgen_cluster::{self as cluster, Topology};

/// The `--weight` options of a command that weighs the primaries' fair shares.
#[derive(Debug, Args)]
pub struct WeightArgs {
    /// A primary's weight (by id or `host:port`; default 1), from 0.001 to 1000: a primary of
    /// weight 2 is meant to carry twice the load of one of weight 1. Its fair share is the
    /// total times its weight over the sum of the weights, and the skew is measured against
    /// it. Repeat for several, once per primary. A primary to empty takes `rebalance
    /// --drain`, not a weight of 0.
    #[arg(long = "weight", value_name = "NODE=W")]
    pub weight: Vec<String>,
}

impl WeightArgs {
    /// Each option's form and weight, checked before any server is asked.
    pub(super) fn check(&self) -> Result<()> {
        for text in &self.weight {
            weight_option(text)?;
        }
        Ok(())
    }

    /// One weight per shard of `topology` (1 for a primary no option names).
    pub(super) fn of(&self, topology: &Topology) -> Result<Vec<f64>> {
        weights(topology, &self.weight)
    }

    /// Whether any primary is weighed: without, every fair share is the mean.
    pub(super) fn given(&self) -> bool {
        !self.weight.is_empty()
    }
}

/// The shard of the primary `node` names (id or `host:port`) for the option `option`:
/// refused, naming its primary, when it is a replica.
pub(super) fn primary_of(topology: &Topology, option: &str, node: &str) -> Result<usize> {
    let (shard, found) = topology
        .find(node)
        .map_err(|e| crate::exit::usage(anyhow!("{option}: {e}")))?;
    if shard.primary.id != found.id {
        return Err(crate::exit::usage(anyhow!(
            "{option}: {} is a replica: name its primary, {} ({})",
            field(node.as_bytes()),
            field(shard.primary.id.as_bytes()),
            field(shard.primary.addr.as_bytes())
        )));
    }
    Ok(topology
        .shards
        .iter()
        .position(|s| s.primary.id == shard.primary.id)
        .expect("found in the shards"))
}

/// A `--weight NODE=W` option's node and weight, checked before any server is asked.
pub(super) fn weight_option(text: &str) -> Result<(&str, f64)> {
    let Some((node, w)) = text.rsplit_once('=') else {
        return Err(crate::exit::usage(anyhow!(
            "--weight `{}` is not NODE=W: give a primary's id or host:port, `=`, and a number (`--weight 127.0.0.1:7000=2`)",
            field(text.as_bytes())
        )));
    };
    let parsed = w.parse::<f64>().ok();
    let w: f64 = parsed
        .filter(|w| cluster::WEIGHTS.contains(w))
        .ok_or_else(|| {
            // a weight of 0 is how valkey-cli empties a primary: here, --drain
            let drain = if parsed == Some(0.0) {
                format!(
                    "; to empty a primary so that it can leave the cluster, give `slotgen rebalance --drain {}`",
                    field(node.as_bytes())
                )
            } else {
                String::new()
            };
            crate::exit::usage(anyhow!(
                "--weight `{}`: {}{drain}",
                field(text.as_bytes()),
                cluster::WEIGHT_RULE
            ))
        })?;
    Ok((node, w))
}

/// One weight per shard of `topology`, from `NODE=W` options (1 for the others).
pub(super) fn weights(topology: &Topology, given: &[String]) -> Result<Vec<f64>> {
    let mut weights = vec![1.0; topology.shards.len()];
    // the option that weighed each shard, to refuse a second
    let mut given_by: Vec<Option<&String>> = vec![None; topology.shards.len()];
    for text in given {
        let (node, w) = weight_option(text)?;
        let i = primary_of(topology, "--weight", node)?;
        let shard = &topology.shards[i];
        if let Some(first) = &given_by[i] {
            return Err(crate::exit::usage(anyhow!(
                "--weight `{}` and --weight `{}` both weigh {} ({}): give one --weight per primary",
                field(first.as_bytes()),
                field(text.as_bytes()),
                field(shard.primary.id.as_bytes()),
                field(shard.primary.addr.as_bytes())
            )));
        }
        given_by[i] = Some(text);
        weights[i] = w;
    }
    Ok(weights)
}
