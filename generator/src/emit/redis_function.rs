//! Lua that runs inside the server: a Redis Functions library (`#!lua name=...`) for Redis 7
//! and Valkey 8, and a block to paste at the top of an `EVAL` script. Both are Lua 5.1 over
//! the server's `bit` library, and create no globals (the server's sandbox refuses them).
//! Their template is `emit/template/lua/server.lua`, around the key rule, lookup and
//! surface parts of the [`lua`] module (tags as rows of bytes, so that every value `bit`
//! handles stays far below its 32 bits); the CRC is the server's own, over `bit`, and for a
//! scheme that hashes the whole key also a function of any bytes (`server_crc.lua`), which
//! the rule's frame solver measures.

use slotgen_tables::SchemeName;

use minijinja::context;

use super::common;
use super::engine;
use super::lua;
use super::model::Model;
use super::values;
use crate::Error;

const TEMPLATE: &str = include_str!("template/lua/server.lua");

/// The default library name, and prefix of the function names.
pub const DEFAULT_NAME: &str = "slotgen";

/// Checks that `name` can name a Functions library and prefix its functions (and name the
/// script block's local table): ASCII letters, digits and `_`, not starting with a digit,
/// and no Lua keyword.
///
/// # Errors
///
/// [`Error::ModuleName`] when it is not.
///
/// # Examples
///
/// ```
/// assert!(slotgen::emit::redis_function::check_name("orders_slots").is_ok());
/// assert!(slotgen::emit::redis_function::check_name("end").is_err());
/// ```
pub fn check_name(name: &str) -> Result<(), Error> {
    const KEYWORDS: [&str; 21] = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ];
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
        && !matches!(
            name,
            "bit" | "redis" | "string" | "math" | "table" | "server"
        );
    if valid {
        Ok(())
    } else {
        Err(Error::ModuleName {
            language: "redis-function",
            name: name.to_owned(),
            rule: "give ASCII letters, digits and `_`, not starting with a digit, such as `orders_slots`; no Lua keyword and not `bit`, `redis`, `server`, `string`, `math` or `table`",
        })
    }
}

/// Server-side Lua for a scheme: a Functions library, or an `EVAL` script block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ServerLua {
    Library,
    Block,
}

impl ServerLua {
    fn what(self) -> &'static str {
        match self {
            Self::Library => "a Redis Functions library",
            Self::Block => "an EVAL script block",
        }
    }
}

/// Whether the servers of `scheme` run `lua`: Redis Cluster's (Redis 7, Valkey 8) run
/// both; codis-server (a Redis 3.2) and the Redis servers behind twemproxy (which forwards
/// `EVAL` and `EVALSHA` by their first key, but not `FCALL`) run `EVAL` scripts only; the
/// other schemes' systems run no Redis Lua.
///
/// Sources, read 2026-12-01: Codis `pkg/proxy/mapper.go` lists `EVAL` and `EVALSHA` in its
/// command table and routes them by their first key (`getHashKey`, argument 3); `FCALL`
/// is not in the table, so it would be routed by its first argument, the function's name;
/// its server is `extern/redis-3.2.11`. twemproxy's parser (`src/proto/nc_redis.c`) knows
/// `EVAL` and `EVALSHA` (`redis_argeval`) and no `FCALL`, so it refuses that request.
fn runs_on_server(scheme: SchemeName, lua: ServerLua) -> Result<(), Error> {
    let reason = match (scheme, lua) {
        (SchemeName::RedisCluster, _)
        | (SchemeName::Codis | SchemeName::TwemproxyCrc32a | SchemeName::TwemproxyCrc32, ServerLua::Block) => {
            return Ok(())
        }
        (SchemeName::Codis, ServerLua::Library) => {
            "codis-server is Redis 3.2, which has no Functions (they came with Redis 7); an EVAL script block runs there: `slotgen emit lua --for-script`"
        }
        (SchemeName::TwemproxyCrc32a | SchemeName::TwemproxyCrc32, ServerLua::Library) => {
            "twemproxy forwards EVAL and EVALSHA but not FCALL, so a Functions library on its servers cannot be called through it; an EVAL script block can: `slotgen emit lua --for-script`"
        }
        _ => "its keys do not live on Redis servers, which alone run this Lua; a module runs in your program: `slotgen emit lua`",
    };
    Err(Error::ServerLua {
        scheme: scheme.name(),
        what: lua.what(),
        reason,
    })
}

/// The scheme of `model`, by its name.
fn scheme_of(model: &Model) -> SchemeName {
    SchemeName::ALL
        .into_iter()
        .find(|s| s.name() == model.scheme)
        .expect("a model's scheme is a named scheme")
}

/// An argument as `redis-cli` takes it: `""` for none.
fn argument(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "\"\"".to_owned()
    } else {
        common::comment_text(bytes)
    }
}

/// The server-side Lua of `model` (`lua/server.lua`): the Functions library when
/// `library`, else the `EVAL` block, with `command` after `slotgen emit` in the header.
fn render(model: &Model, name: &str, command: &str, library: bool) -> String {
    let e = &model.examples;
    let context = context! {
        library,
        name,
        prefix_arg => argument(e.prefix),
        suffix_arg => argument(e.suffix),
        ..values::context(model, command, "--")
    };
    engine::render_source_in(&lua::ENV, "lua/server.lua", TEMPLATE, &context)
}

/// A Redis Functions library for `model`, to load with `FUNCTION LOAD` on Redis 7 or
/// Valkey 8: `#!lua name={name}`, registering `{name}_slot` (argument: a key; answer: its
/// slot), `{name}_tag_for_slot` (a slot; its tag) and `{name}_key_for_slot` (prefix, slot,
/// suffix; the key), each with the `no-writes` flag, so that they run on replicas and
/// read-only scripts too, over the table of the [`script_block`]'s functions, built at the
/// first call. Call them with no keys (`FCALL name_slot 0 key`): the key hashed is an
/// argument, not a key of the node's. A refusal is an `ERR` error reply with the rule. Only
/// Redis Cluster's servers run Functions (Redis 7, Valkey 8): for every other scheme this is
/// refused with the reason and what to use instead. The output depends only on the model
/// and the name.
///
/// # Errors
///
/// - [`Error::ModuleName`] when `name` is not a library name (see [`check_name`]).
/// - [`Error::ServerLua`] for a scheme other than `redis-cluster`.
///
/// # Examples
///
/// ```
/// use slotgen::emit::{lua, model::Model, redis_function};
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen_tables::SchemeName;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let model = Model::of(&d, "redis-function", lua::MAX_KERNEL_LEN)?;
/// let library = redis_function::library(&model, "slotgen")?;
/// assert!(library.starts_with("#!lua name=slotgen\n-- @generated by slotgen"));
/// assert!(library.contains("function_name = \"slotgen_tag_for_slot\""));
///
/// let codis = slotgen::derive(&SchemeSpec::new(SchemeName::Codis))?;
/// let model = Model::of(&codis, "redis-function", lua::MAX_KERNEL_LEN)?;
/// let refused = redis_function::library(&model, "slotgen").unwrap_err();
/// assert!(refused.to_string().contains("codis-server is Redis 3.2"));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn library(model: &Model, name: &str) -> Result<String, Error> {
    check_name(name)?;
    runs_on_server(scheme_of(model), ServerLua::Library)?;
    Ok(render(
        model,
        name,
        &format!("redis-function --name {name}"),
        true,
    ))
}

/// A block of Lua for `model` to paste at the top of an `EVAL` script (Redis 7, Valkey 8,
/// codis-server; Lua 5.1 with the server's `bit`): it declares one local table `name` with
/// the surface of the [`lua`] module (`slot(key)`, `hashtag(key)`, `tag_for_slot(slot)`,
/// `key_for_slot(prefix, slot, suffix)`, `tags_for_slot(slot)`, `same_slot(keys)`,
/// `shared_hashtag(keys)`; slots as numbers or decimal strings; errors `nil` plus a
/// message), and no global. For twemproxy without `hash_tag`, which hashes the whole key,
/// `key_for_slot` solves the tag inside the prefix and suffix as the module does, each
/// frame once per script run. For the schemes whose keys live on servers that run `EVAL`:
/// Redis Cluster's, codis-server, and the Redis servers behind twemproxy. The output
/// depends only on the model and the name.
///
/// # Errors
///
/// - [`Error::ModuleName`] when `name` is not a Lua name (see [`check_name`]).
/// - [`Error::ServerLua`] for a scheme whose keys do not live on Redis servers (Couchbase,
///   Tarantool vshard, librdkafka).
///
/// # Examples
///
/// ```
/// use slotgen::emit::{lua, model::Model, redis_function};
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen_tables::SchemeName;
///
/// let codis = slotgen::derive(&SchemeSpec::new(SchemeName::Codis))?;
/// let model = Model::of(&codis, "lua", lua::MAX_KERNEL_LEN)?;
/// let block = redis_function::script_block(&model, "slots")?;
/// assert!(block.ends_with("\nlocal slots = slots_build()\n"));
///
/// let vshard = slotgen::derive(&SchemeSpec::new(SchemeName::TarantoolVshard))?;
/// let model = Model::of(&vshard, "lua", lua::MAX_KERNEL_LEN)?;
/// assert!(redis_function::script_block(&model, "slots").is_err());
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn script_block(model: &Model, name: &str) -> Result<String, Error> {
    check_name(name)?;
    runs_on_server(scheme_of(model), ServerLua::Block)?;
    let command = if name == DEFAULT_NAME {
        "lua --for-script".to_owned()
    } else {
        format!("lua --for-script --name {name}")
    };
    Ok(render(model, name, &command, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name that is not a Lua name, or is one the server's Lua already holds, is refused
    /// by both the library and the block.
    #[test]
    fn server_lua_names_are_checked() {
        let d = crate::derive(&crate::Spec::default()).unwrap();
        let model = Model::of(&d, "redis-function", lua::MAX_KERNEL_LEN).unwrap();
        for bad in ["", "9lives", "end", "bit", "redis", "slot-gen", "süß"] {
            let error = library(&model, bad).unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains("is not a name for `emit redis-function`"),
                "{bad}: {error}"
            );
            assert!(script_block(&model, bad).is_err());
        }
    }
}
