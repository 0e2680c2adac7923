#!/usr/bin/env bash
# Whole-process speed of the key stream: `slotgen slot` to a pipe and `slotgen placement`
# over KEYS keys of 22 bytes (half of them with a hashtag, `{u%06d}:item:%07d`, half
# without, `key:%018d`), against `wc -l` of the same file in the same run. The commands run
# in turn, RUNS rounds (one of each per round, so that the machine's load falls on all of
# them alike); each ratio is the median over the rounds of the command's time over `wc -l`'s
# in the same round. Peak memory is GNU time's maximum resident set size.
#
#   bash tests/bench/stream.sh [KEYS] [RUNS] [BINARY...]    (from the workspace root)
#
# KEYS defaults to 10000000 and RUNS to 11. With no BINARY, the release build
# (`cargo build --release -p slotgen-cli`) is measured; with several, each is measured in
# the same rounds (to compare a build of another commit). The key file is made once, in
# ${TMPDIR:-/tmp}, and kept. Prints a Markdown table and the load average.
set -euo pipefail
cd "$(dirname "$0")/../.."
keys=${1:-10000000}
runs=${2:-11}
shift $(($# < 2 ? $# : 2))
if [ $# -eq 0 ]; then
  cargo build -q --release -p slotgen-cli --bin slotgen
  set -- "${CARGO_TARGET_DIR:-$PWD/target}/release/slotgen"
fi
for bin in "$@"; do
  [ -x "$bin" ] || { echo "stream.sh: no program at $bin" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "stream.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }

file=${TMPDIR:-/tmp}/slotgen-stream-$keys.keys
if [ ! -s "$file" ]; then
  awk -v n="$keys" 'BEGIN {
    for (i = 0; i < n; i++)
      if (i % 2) printf "{u%06d}:item:%07d\n", (i * 7919) % 1000000, i % 10000000
      else printf "key:%018d\n", i
  }' > "$file.part"
  mv "$file.part" "$file"
fi
[ "$(wc -l < "$file")" -eq "$keys" ] || { echo "stream.sh: $file is not $keys lines: remove it" >&2; exit 1; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# the commands of one round: a label, then the shell command (the file on standard input)
time="/usr/bin/time -f %M -o $dir/rss"
labels=("wc -l")
commands=("$time wc -l")
for bin in "$@"; do
  name=$bin
  [ $# -eq 1 ] && name=slotgen
  labels+=("$name slot \\| cat" "$name placement")
  commands+=("$time '$bin' slot | cat" "$time '$bin' placement")
done

# one timed run: elapsed seconds (bash's clock, microseconds) and GNU time's peak KiB of
# the slotgen (or wc) process
run() {
  local start end
  start=$EPOCHREALTIME
  bash -c "$1" < "$file" > /dev/null
  end=$EPOCHREALTIME
  echo "$start $end $(tail -1 "$dir/rss")" | awk '{ printf "%.6f %d\n", $2 - $1, $3 }'
}

# a warm-up round (the file in the page cache), then RUNS rounds
for c in "${commands[@]}"; do run "$c" > /dev/null; done
for ((r = 0; r < runs; r++)); do
  for i in "${!commands[@]}"; do
    run "${commands[$i]}" >> "$dir/$i"
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "$keys keys of 22 bytes ($file), $runs rounds, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "| command | median time | keys per second | over \`wc -l\` (median of rounds) | peak memory |"
echo "|---|---:|---:|---:|---:|"
for i in "${!commands[@]}"; do
  t=$(cut -d' ' -f1 "$dir/$i" | median)
  ratio=$(paste -d' ' "$dir/$i" "$dir/0" | awk '{ print $1 / $3 }' | median)
  rss=$(cut -d' ' -f2 "$dir/$i" | sort -n | tail -1)
  label=${labels[$i]} awk -v t="$t" -v n="$keys" -v q="$ratio" -v m="$rss" 'BEGIN {
    printf "| `%s` | %.3f s | %.1f M | %.2fx | %.1f MB |\n", ENVIRON["label"], t, n / t / 1e6, q, m / 1024
  }'
done
