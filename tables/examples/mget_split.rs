//! Splitting an `MGET` by node and slot, as a cluster client does, with `group_keys`.
//!
//! ```sh
//! cargo run -p slotgen-tables --example mget_split -- user:{42}:name foo user:{42}:mail bar
//! ```
//!
//! A Redis Cluster node refuses a multi-key command whose keys hash to two slots
//! (`CROSSSLOT`), even when it holds both, and answers `MOVED` for a slot it does not hold.
//! So the client sends each node one `MGET` a slot, pipelined on that node's connection,
//! and puts the values back in the caller's order by the keys' indices. Here the slot ->
//! node map is the one `redis-cli --cluster create` makes for three primaries (what
//! `CLUSTER SLOTS` would answer), and each reply is made up as `value of <key>`; slotgen's
//! own tests do the same against a real cluster.

use slotgen_tables::{Placed, REDIS_CLUSTER};

/// The primaries and the slot ranges they hold (inclusive), as `CLUSTER SLOTS` lists them.
const NODES: [(&str, u16, u16); 3] = [
    ("127.0.0.1:7000", 0, 5460),
    ("127.0.0.1:7001", 5461, 10922),
    ("127.0.0.1:7002", 10923, 16383),
];

fn main() -> Result<(), slotgen_tables::Error> {
    // An argument that is not UTF-8 is taken with U+FFFD in place of its odd bytes.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    let keys: Vec<&str> = if args.is_empty() {
        vec![
            "user:{42}:name",
            "foo",
            "user:{42}:mail",
            "bar",
            "{orders}:1",
        ]
    } else {
        args.iter().map(String::as_str).collect()
    };

    // The slot -> node map: one node index a slot, built once per topology.
    let mut node_of_slot = vec![u16::MAX; REDIS_CLUSTER.slots() as usize];
    for (node, &(_, first, last)) in NODES.iter().enumerate() {
        node_of_slot[usize::from(first)..=usize::from(last)].fill(node as u16);
    }

    // One pass and one sort; `placed` can be reused from batch to batch.
    let mut placed = vec![Placed::default(); keys.len()];
    let groups = REDIS_CLUSTER.group_keys(&keys, &node_of_slot, &mut placed)?;

    let mut values: Vec<Option<String>> = vec![None; keys.len()];
    for node in groups.nodes() {
        let (address, _, _) = NODES[usize::from(node.node)];
        println!("{address}: one pipeline of {} MGET", node.slots().count());
        for group in node.slots() {
            let names: Vec<&str> = group.indices().map(|i| keys[i]).collect();
            // Keys from outside, escaped before they reach the terminal.
            let shown: Vec<String> = names.iter().map(|k| k.escape_debug().to_string()).collect();
            println!("  slot {:>5}: MGET {}", group.slot, shown.join(" "));
            // The node's reply: one value a key, in the order the keys were sent.
            let reply: Vec<String> = names.iter().map(|k| format!("value of {k}")).collect();
            for (index, value) in group.indices().zip(reply) {
                values[index] = Some(value);
            }
        }
    }
    println!("in the caller's order:");
    for (key, value) in keys.iter().zip(&values) {
        let value = value.as_deref().unwrap_or("(nil)");
        println!("  {} = {}", key.escape_debug(), value.escape_debug());
    }
    Ok(())
}
