#!/usr/bin/env bash
# Compares the emitted Lua module with the seed document's Lua module, on LuaJIT and Lua 5.4:
# `bash tests/bench/lua_tags.sh`. Needs shared/seeds beside the checkout (or an ancestor).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shared/ beside the checkout, or beside an ancestor (a worktree).
seed=$(for d in .. ../.. ../../..; do f=$d/shared/seeds/001_074cc5bdf0f18b58.txt; [ -f "$f" ] && echo "$f" && break; done)
[ -n "$seed" ] || { echo "the seed document shared/seeds/001_074cc5bdf0f18b58.txt is not beside the checkout" >&2; exit 1; }
# The seed's module: from `local _M = {}` to the line before `-- ===== `.
awk '/^local _M = \{\}$/ {on = 1} /^-- ===== / {on = 0} on' "$seed" > "$dir/seed.lua"
echo 'return _M' >> "$dir/seed.lua"
cargo run -q -p slotgen -- emit lua -o "$dir/slotgen.lua"
for lua in luajit lua5.4; do
  echo "== $lua"
  "$lua" tests/bench/lua_tags.lua "$dir/seed.lua" for_slot
  "$lua" tests/bench/lua_tags.lua "$dir/slotgen.lua" key_for_slot
  "$lua" tests/bench/lua_tags.lua "$dir/slotgen.lua" tag_for_slot
  "$lua" tests/bench/lua_tags.lua "$dir/seed.lua" slot
  "$lua" tests/bench/lua_tags.lua "$dir/slotgen.lua" slot
done
