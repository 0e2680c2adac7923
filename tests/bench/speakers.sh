#!/usr/bin/env bash
# Every emitted module's `slot` against its language's clients' own slot code, in one
# process a language, for keys of 3, 8, 22, 64 and 1,024 bytes with and without a hashtag
# (tests/bench/speakers/keys.py), string and byte keys where the language has both; and
# `tag_for_slot`/`key_for_slot` against a lookup in an array of 16384 ready tags (and that
# lookup concatenated with a prefix and suffix). Whole ns per key, the best of ROUNDS rounds.
# Peers: redis-py, valkey-py, coredis (pip, pinned below, into a directory of this run),
# cluster-key-slot (tests/conformance, npm ci), predis (Debian's php-predis), redis-rb
# (Debian's ruby-redis); where no client's code can be had here, the slot code of a
# language's clients written in its bench file as they write it (go-redis, Redis's
# keyHashSlot in C, Jedis, StackExchange.Redis, eredis_cluster) and the seed's Elixir and
# Lua modules. A missing interpreter or peer is skipped and said; the per-language files are
# in tests/bench/speakers/<language>/.
#
#   bash tests/bench/speakers.sh [ROUNDS] [SLOTGEN]      (from the workspace root)
#
# SLOTGEN is the binary that emits the modules (default: this tree's, built in debug), so
# that another revision's modules can be measured by the same benchmarks. Prints the rows
# (language, function, key type, case, length, code, ns per key) and then a Markdown table
# of each peer's ratio (peer ns / slotgen ns: above 1.0 slotgen is faster).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
rounds=${1:-7}
bin=${2:-}
if [ -z "$bin" ]; then
  cargo build -q -p slotgen-cli --bin slotgen
  bin=$root/target/debug/slotgen
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
have() { command -v "$1" >/dev/null 2>&1; }
bench=$root/tests/bench/speakers
mkdir -p "$dir/keys" "$dir/modules" "$dir/py"
python3 "$bench/keys.py" "$dir/keys"
for pair in python:slotgen.py js:slotgen.mjs php:slotgen.php ruby:slotgen.rb go:slotgen.go \
  c:slotgen.h java:Slotgen.java csharp:Slotgen.cs erlang:slotgen.erl elixir:slotgen.ex lua:slotgen.lua; do
  "$bin" emit "${pair%%:*}" -o "$dir/modules/${pair#*:}"
done
rows=$dir/rows.tsv
: > "$rows"

if have python3; then
  python3 -m pip install --quiet --target "$dir/py" valkey==6.2.0 coredis==6.9.0 >&2 ||
    echo "skip: valkey-py and coredis did not install" >&2
  PYTHONPATH=$dir/py python3 "$bench/python/bench.py" "$dir/modules" "$dir/keys" "$rounds" | tee -a "$rows"
fi
if have node; then
  [ -d tests/conformance/node_modules/cluster-key-slot ] ||
    npm ci --prefix tests/conformance --no-audit --no-fund --silent >&2
  node "$bench/js/bench.mjs" "$dir/modules" "$dir/keys" "$rounds" tests/conformance | tee -a "$rows"
fi
have php && php "$bench/php/bench.php" "$dir/modules" "$dir/keys" "$rounds" | tee -a "$rows"
have ruby && ruby "$bench/ruby/bench.rb" "$dir/modules" "$dir/keys" "$rounds" | tee -a "$rows"
if have go; then
  mkdir -p "$dir/go/slotgen" && cp "$dir/modules/slotgen.go" "$dir/go/slotgen/" && cp "$bench/go/main.go" "$dir/go/"
  printf 'module bench\n\ngo 1.19\n' > "$dir/go/go.mod"
  (cd "$dir/go" && go run . "$dir/keys" "$rounds") | tee -a "$rows"
fi
if have gcc; then
  gcc -O2 -std=gnu99 -I "$dir/modules" "$bench/c/bench.c" -o "$dir/c-bench"
  "$dir/c-bench" "$dir/keys" "$rounds" | tee -a "$rows"
fi
if have javac && have java; then
  javac -d "$dir/java" "$dir/modules/Slotgen.java" "$bench/java/Bench.java"
  java -cp "$dir/java" Bench "$dir/keys" "$rounds" | tee -a "$rows"
fi
if have mcs && have mono; then
  mcs -optimize+ -nologo -out:"$dir/csharp-bench.exe" "$dir/modules/Slotgen.cs" "$bench/csharp/Bench.cs"
  mono "$dir/csharp-bench.exe" "$dir/keys" "$rounds" | tee -a "$rows"
fi
if have erlc && have erl; then
  erlc -o "$dir" "$dir/modules/slotgen.erl" "$bench/erlang/bench.erl"
  erl -noshell -pa "$dir" -run bench main "$dir/keys" "$rounds" -s init stop | tee -a "$rows"
fi
have elixir && elixir "$bench/elixir/bench.exs" "$dir/modules/slotgen.ex" "$dir/keys" "$rounds" | tee -a "$rows"
for lua in lua5.4 luajit; do
  have "$lua" && "$lua" "$bench/lua/bench.lua" "$dir/modules/slotgen.lua" "$dir/keys" "$rounds" | tee -a "$rows"
done

python3 "$bench/table.py" < "$rows"
