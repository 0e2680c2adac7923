#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 20), from the committed seeds, and
# prints libFuzzer's last status line of each: `bash tests/fuzz/run-all.sh [SECONDS] [TARGET...]`.
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-20}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(values keys charset crc_params json tags macro_parse runtime scheme lint)
fi
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "seeds/$t"
  log="$(mktemp)"
  if ! cargo +nightly fuzz run "$t" "corpus/$t" "seeds/$t" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $t FAILED (artifacts in tests/fuzz/artifacts/$t)"
    exit 1
  fi
  last="$(grep -E '^#[0-9]+' "$log" | tail -1)"
  runs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')"
  echo "fuzz: $t ok in ${seconds}s: $runs runs; $last"
  rm -f "$log"
done
