#!/usr/bin/env bash
# Every emitted module's `slot` against its language's clients' own slot code, in one
# process a language, for keys of 3, 8, 22, 64 and 1,024 bytes with and without a hashtag
# (tests/bench/speakers/keys.py), string and byte keys where the language has both; and
# `tag_for_slot`/`key_for_slot` against a lookup in an array of 16384 ready tags (and that
# lookup concatenated with a prefix and suffix). Whole ns per key, the best of ROUNDS rounds.
# Peers: redis-py, valkey-py, coredis (pip, pinned below, into a directory of this run),
# cluster-key-slot (tests/conformance, npm ci), predis (Debian's php-predis), redis-rb
# (Debian's ruby-redis). A missing interpreter or peer is skipped and said.
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
for pair in python:slotgen.py js:slotgen.mjs php:slotgen.php ruby:slotgen.rb; do
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

python3 "$bench/table.py" < "$rows"
