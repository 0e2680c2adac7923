#!/usr/bin/env bash
# CI's fuzzing smoke: builds a few fuzz targets with libFuzzer's coverage instrumentation
# (the flags `cargo fuzz` passes, without AddressSanitizer: the code is safe Rust, and what is
# looked for is a panic, a hang or unbounded memory) and runs each for SECONDS (default 20)
# from the committed seeds. Needs only a nightly toolchain; says so and skips without one.
#   bash tests/fuzz/smoke.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-20}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(tags json macro_parse values scheme lint)
fi
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz smoke: skipped: no nightly toolchain (rustup toolchain install nightly)"
  exit 0
fi
host="$(rustc +nightly -vV | sed -n 's/^host: //p')"
export CARGO_TARGET_DIR="$PWD/target/smoke"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions"
bins=()
for t in "${targets[@]}"; do bins+=(--bin "$t"); done
cargo +nightly build --quiet --release --target "$host" "${bins[@]}"
for t in "${targets[@]}"; do
  corpus="$(mktemp -d)"
  log="$(mktemp)"
  seeds=()
  [ -d "seeds/$t" ] && seeds=("seeds/$t") # a target without committed seeds starts empty
  if ! "$CARGO_TARGET_DIR/$host/release/$t" "$corpus" "${seeds[@]}" -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$corpus/" >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz smoke: $t FAILED; the crashing input:"
    for f in "$corpus"/crash-* "$corpus"/timeout-* "$corpus"/oom-*; do
      [ -e "$f" ] && od -c "$f" | head -20
    done
    exit 1
  fi
  runs="$(awk '/^stat::number_of_executed_units/ {print $2}' "$log")"
  cov="$(grep -oE 'cov: [0-9]+' "$log" | tail -1)"
  echo "fuzz smoke: $t ok: $runs runs in ${seconds}s, $cov"
  rm -rf "$corpus" "$log"
done
