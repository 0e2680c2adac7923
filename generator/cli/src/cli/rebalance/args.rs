//! The options of `slotgen rebalance`, which rebalance.rs runs and its parts read.

use clap::{Args, ValueEnum};
use slotgen_cluster::{self as cluster, Dialect, Metric};

use super::super::cluster::ServerArgs;
use super::super::weights::WeightArgs;

/// The form of `slotgen rebalance`'s output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    /// Tab-separated lines, each led by what it holds: `skew` (`before`, the skew now;
    /// `predicted`, after the moves; `target`), `move` (slot, from id, from address, to id,
    /// to address, keys, amount), `hot` (slot, amount, the remedy), `drain` (with --drain: id,
    /// address, the slots it gives away, the command that removes it once they are moved),
    /// `forget` (with --drain, a failed node every node table still lists: id, address, one
    /// line a command that removes it, in order), `moved` (slots, keys); with --apply the
    /// plan's total is `planned` (slots, keys), not `moved`, followed by `applied` (slots,
    /// keys) once the plan is carried out or `stopped` (slots, keys done, the error).
    Tsv,
    /// One JSON object: `metric`, `unit`, `source`, `target`, `min_gain`, `max_moves`,
    /// `skew_before`, `skew_after`, `reached`, `floor`, `goal`, `stop` (`kind`: `reached`,
    /// `floor`, `max-moves`, `min-gain`, `no-room` or `relaxed`, with `further`,
    /// `least_target`, or `target` and `asked` (`moves`, `skew`)),
    /// `moves_lower_bound`, `minimal` (null where the plan does not reach its goal),
    /// `keys_moved`, `moves` (`slot`, `from` and `to` with `id` and `addr`,
    /// `keys`, `amount`), `hot` (`slot`, `amount`, `share`, `floor`, the sampled
    /// `hashtags`, and `remedy`: `hashtag`, `tags` of `tag`, `slot`, `node` and `key`,
    /// `skew_after`, `command`), `drained` (with --drain: `id`, `addr`, `slots`, the slots it
    /// gives away, and `remove`, the command that removes it), `forget` (with --drain, the
    /// failed nodes every node table still lists: `id`, `addr`, `remove`, the commands that
    /// remove it in order); with --apply `applied`
    /// (`moves`, `keys`, `untold`: the primaries that did not answer the final `CLUSTER
    /// SETSLOT NODE`, `gone`: the notes of slots of which a few keys left the source
    /// otherwise than by `MIGRATE`), printed once the plan is carried out; after a stop,
    /// `stopped` in its place (`moves`, `keys` done, `half_moved`, `error`, and `slots`:
    /// every range of an atomic job, of which the error gives the first and the last past
    /// four).
    Json,
    /// A sh script that carries the plan out with the server's own CLI (valkey-cli or
    /// redis-cli, the connection options kept, the password from REDISCLI_AUTH), in the
    /// dialect of --dialect (by default the server's): `sh plan.sh`.
    Commands,
    /// The slot map before and predicted after the plan, side by side, as SVG: each
    /// primary's share against its fair share and the target, the slots shaded against
    /// the mean per slot, the hot slots labelled.
    Svg,
}

/// The dialect of `--format commands` and `--apply`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum DialectArg {
    /// CLUSTER SETSLOT IMPORTING/MIGRATING, CLUSTER GETKEYSINSLOT + MIGRATE, CLUSTER
    /// SETSLOT NODE: every version.
    Classic,
    /// CLUSTER MIGRATESLOTS on the source (Valkey 9.0 and later).
    Migrateslots,
    /// CLUSTER MIGRATION IMPORT on the target (Redis 8.4 and later).
    MigrationImport,
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::Classic => Dialect::Classic,
            DialectArg::Migrateslots => Dialect::Migrateslots,
            DialectArg::MigrationImport => Dialect::MigrationImport,
        }
    }
}

#[derive(Debug, Args)]
#[command(mut_arg("timeout", |a| a.help(TIMEOUT_HELP)))]
pub struct RebalanceArgs {
    #[command(flatten)]
    pub(super) server: ServerArgs,
    /// The metric to even out: `keys`, `cpu`, `net-in`, `net-out`, `net` or `memory`, per
    /// slot from CLUSTER SLOT-STATS (keys by CLUSTER COUNTKEYSINSLOT on servers without it).
    /// Required, but with --drain [default: keys] or --plan.
    #[arg(long, value_name = "METRIC", value_parser = super::super::load::metric_parser(), required_unless_present_any = ["plan", "drain"])]
    pub(super) by: Option<Metric>,
    /// The highest skew allowed: the fullest primary's metric over its fair share (the
    /// total split by weight), from 1.0 to 100.
    #[arg(
        long,
        value_name = "RATIO",
        default_value_t = cluster::DEFAULT_TARGET_SKEW,
        allow_negative_numbers = true
    )]
    pub(super) target_skew: f64,
    /// At most this many slot moves: a cap, not the stopping rule (the plan stops at the
    /// target, or at the floor that hot slots set, with the fewest moves it finds). With
    /// --drain, a cap on the moves that even out the primaries that stay: the drain moves
    /// every slot of the drained primary, however many.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub(super) max_moves: usize,
    /// The least gain of a move: a slot moves only if it lowers its primary's ratio to its
    /// fair share (the skew, when that primary is the fullest) by at least this much, from
    /// 0 (every move that helps) to 1. By default 0.001, which skips slots under 0.1% of a
    /// fair share (a round trip and a cluster-bus epoch each for no measurable skew), or half
    /// the mean of the non-empty slots where that is less (a metric spread evenly puts each
    /// slot under 0.1% of a fair share below 17 primaries); JSON's `min_gain` gives it.
    #[arg(long, value_name = "GAIN", allow_negative_numbers = true)]
    pub(super) min_gain: Option<f64>,
    #[command(flatten)]
    pub(super) weights: WeightArgs,
    /// Empty this primary (by id or `host:port`) so that it can leave the cluster: every slot
    /// of it moves, empty ones included, its load to the other primaries as evenly as the
    /// plan can make it by --by (keys unless given) and its empty slots by slot count; the other primaries are
    /// then evened out within the usual limits. Stderr gives the command that removes it
    /// once the moves are done. Repeat for several.
    #[arg(long, value_name = "NODE")]
    pub(super) drain: Vec<String>,
    /// The output form.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    pub(super) format: Format,
    /// The dialect of --format commands [default: from the server's INFO server: Valkey
    /// 9.0+ migrateslots, Redis 8.4+ migration-import, otherwise classic] and of --apply
    /// [default: migrateslots where every primary has CLUSTER MIGRATESLOTS, by COMMAND INFO;
    /// otherwise classic; migration-import is printed only]; classic for both where the
    /// cluster keeps several databases (`cluster-databases` above 1: Valkey 9's atomic
    /// migration misplaces writes made during a job there).
    #[arg(long, value_enum)]
    pub(super) dialect: Option<DialectArg>,
    /// The keys one CLUSTER GETKEYSINSLOT asks for and one MIGRATE carries.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub(super) batch: u32,
    /// Carry the plan out (each step within --timeout): one atomic CLUSTER MIGRATESLOTS job
    /// per pair of nodes (Valkey 9), or the classic sequence slot by slot, the keys of every
    /// database. A slot a former run left half moved is finished first; refused when the
    /// cluster's state is not `ok`. A failed step stops it, naming the slot, the two nodes
    /// and the repair; Ctrl-C (SIGINT), SIGTERM or SIGHUP stops it after the slot in
    /// flight, none left migrating. A progress line on a terminal.
    #[arg(long)]
    pub(super) apply: bool,
    /// Also write the plan, with the map it was made on (every primary's id, address and
    /// slots), to FILE as JSON: review it, then carry out exactly those moves with `--apply
    /// --plan FILE`.
    #[arg(long, value_name = "FILE", conflicts_with = "plan")]
    pub(super) out: Option<std::path::PathBuf>,
    /// With --apply: carry out exactly the moves of FILE (written by --out), without
    /// planning again; refused, naming every difference, when the cluster's map is no longer
    /// the one the plan was made on.
    #[arg(long, value_name = "FILE", requires = "apply", conflicts_with_all = ["by", "weight", "drain"])]
    pub(super) plan: Option<std::path::PathBuf>,
}

/// `--timeout` of `rebalance`: the reads are one exchange, as for every command, but
/// `--apply` gives each step its own time (`ApplyOptions::timeout`), the whole apply none.
const TIMEOUT_HELP: &str = "The time allowed for reading the map and the load (the whole exchange, connecting to every primary included), and with --apply for each step of a move on its own (a connection, a command; an atomic job is cancelled when it shows no progress for this long; a source that stops answering is waited for this long at most, for its replica to take its place), not for the whole apply: seconds (`10`, `0.5`), or with a unit (`500ms`, `2s`) [default: 10]";

impl RebalanceArgs {
    /// `--by`, which clap requires unless --drain ([`DEFAULT_METRIC`] then) or --plan
    /// (which takes another path) is given.
    ///
    /// [`DEFAULT_METRIC`]: super::super::load::DEFAULT_METRIC
    pub(super) fn by(&self) -> Metric {
        self.by.unwrap_or(super::super::load::DEFAULT_METRIC)
    }
}
