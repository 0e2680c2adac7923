//! Cross-crate tests: one test binary (a link each would cost more than most of these
//! tests on a 2-core machine), a module a concern. Three stay apart: `build_out_dir` sets
//! its process's environment, and `slot_table` and `scheme_tables` deny warnings and
//! missing docs over the items the macro generates at their crate's root.

mod alnum_snapshots;
mod bad_input;
mod build_api;
mod catalogue_alphabets;
mod cluster_apply;
mod cluster_drain;
mod cluster_failover;
mod cluster_grants;
mod cluster_live;
mod cluster_load;
mod cluster_plan;
mod cluster_rebalance;
mod cluster_remedy;
mod cluster_tls;
mod crc_engine;
mod crc_paths;
mod derivation_core;
mod docs;
mod emit_c_names;
mod emit_elixir;
mod emit_java;
mod emit_js_types;
mod emit_native;
mod emit_php;
mod emit_ruby;
mod emit_snapshots;
mod emit_tag_words;
mod emitted;
mod front_ends;
mod imports;
mod key_checksum;
mod key_slots;
mod layout;
mod lint_commands;
mod lint_corpus;
mod lint_real;
mod mget_split;
mod packages;
mod rank_brute_force;
mod redis_server;
mod scheme_catalogue;
mod scheme_oracles;
mod shortest;
mod shortest_run;
mod source_literals;
mod tag_from_mask;
mod tag_lengths;
mod vectors;
