#!/usr/bin/env bash
# Tags per second of each emitted module for Redis Cluster's spec (the default): every
# module's own tag_for_slot, called for every slot ROUNDS times after one warm-up round,
# timed inside the language by its monotonic clock. The C header (gcc -O2) is the baseline
# of the same run: the last column is C's rate over the module's.
#
#   bash tests/bench/tags_per_second.sh [ROUNDS]      (from the workspace root; default 20)
#
# Needs the tools the emit_* tests run; a missing one is skipped. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-20}
cargo build -q -p slotgen-cli --bin slotgen
bin=$PWD/target/debug/slotgen
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
have() { command -v "$1" >/dev/null 2>&1; }
declare -A rate

"$bin" emit c -o slotgen.h
cat > c.c <<C
#include <stdio.h>
#include <time.h>
#include "slotgen.h"
int main(void) {
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned long s, sum = 0;
    unsigned k;
    int r;
    struct timespec a, b;
    for (s = 0; s < SLOTGEN_SLOTS; s++) { slotgen_tag_for_slot(s, tag); sum += tag[0]; }
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (r = 0; r < $rounds; r++)
        for (s = 0; s < SLOTGEN_SLOTS; s++) { slotgen_tag_for_slot(s, tag); for (k = 0; k < SLOTGEN_TAG_LEN; k++) sum += tag[k]; }
    clock_gettime(CLOCK_MONOTONIC, &b);
    fprintf(stderr, "%lu\n", sum);
    printf("%.0f\n", $rounds * 16384.0 / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9));
    return 0;
}
C
have gcc && gcc -O2 -std=gnu99 -o c c.c && rate[C]=$(./c 2>/dev/null)

if have go; then
  mkdir -p gomod/slotgen && "$bin" emit go -o gomod/slotgen/slotgen.go
  printf 'module bench\n\ngo 1.19\n' > gomod/go.mod
  cat > gomod/main.go <<GO
package main

import (
	"fmt"
	"os"
	"time"

	"bench/slotgen"
)

func main() {
	sum := 0
	loop := func() {
		for s := 0; s < slotgen.Slots; s++ {
			tag, _ := slotgen.TagForSlot(s)
			sum += int(tag[0])
		}
	}
	loop()
	start := time.Now()
	for r := 0; r < $rounds; r++ {
		loop()
	}
	fmt.Fprintln(os.Stderr, sum)
	fmt.Printf("%.0f\n", float64($rounds*16384)/time.Since(start).Seconds())
}
GO
  rate[Go]=$(cd gomod && GOFLAGS=-mod=mod GOPROXY=off go run . 2>/dev/null)
fi

if have javac; then
  "$bin" emit java -o Slotgen.java
  cat > Bench.java <<JAVA
public final class Bench {
    public static void main(String[] args) {
        long sum = 0;
        for (int w = 0; w < 5; w++) for (int s = 0; s < Slotgen.SLOTS; s++) sum += Slotgen.tagForSlot(s)[0];
        long a = System.nanoTime();
        for (int r = 0; r < $rounds; r++) for (int s = 0; s < Slotgen.SLOTS; s++) sum += Slotgen.tagForSlot(s)[0];
        long b = System.nanoTime();
        System.err.println(sum);
        System.out.printf("%.0f%n", $rounds * 16384.0 / ((b - a) / 1e9));
    }
}
JAVA
  javac -d jc Slotgen.java Bench.java && rate[Java]=$(java -cp jc Bench 2>/dev/null)
fi

if have node; then
  "$bin" emit js -o slotgen.mjs
  rate[JavaScript]=$(node --input-type=module -e "
import { tagForSlot, SLOTS } from '$dir/slotgen.mjs';
let sum = 0;
for (let s = 0; s < SLOTS; s++) sum += tagForSlot(s)[0];
const a = process.hrtime.bigint();
for (let r = 0; r < $rounds; r++) for (let s = 0; s < SLOTS; s++) sum += tagForSlot(s)[0];
const b = process.hrtime.bigint();
console.error(sum);
console.log(Math.round($rounds * 16384 / (Number(b - a) / 1e9)));
" 2>/dev/null)
fi

if have python3; then
  "$bin" emit python -o slotgen.py
  rate[Python]=$(python3 -c "
import sys, time, slotgen
f, n = slotgen.tag_for_slot, slotgen.SLOTS
s = sum(f(x)[0] for x in range(n))
a = time.perf_counter()
for _ in range($rounds):
    s += sum(f(x)[0] for x in range(n))
b = time.perf_counter()
print(s, file=sys.stderr)
print(round($rounds * 16384 / (b - a)))
" 2>/dev/null)
fi

if have ruby; then
  "$bin" emit ruby -o slotgen.rb
  rate[Ruby]=$(ruby -e "
require './slotgen'
sum = 0
Slotgen::SLOTS.times { |s| sum += Slotgen.tag_for_slot(s).getbyte(0) }
a = Process.clock_gettime(Process::CLOCK_MONOTONIC)
$rounds.times { Slotgen::SLOTS.times { |s| sum += Slotgen.tag_for_slot(s).getbyte(0) } }
b = Process.clock_gettime(Process::CLOCK_MONOTONIC)
warn sum
puts ($rounds * 16384 / (b - a)).round
" 2>/dev/null)
fi

if have php; then
  "$bin" emit php -o slotgen.php
  rate[PHP]=$(php -r "
require 'slotgen.php';
\$sum = 0;
for (\$s = 0; \$s < Slotgen::SLOTS; \$s++) \$sum += ord(Slotgen::tagForSlot(\$s));
\$a = hrtime(true);
for (\$r = 0; \$r < $rounds; \$r++) for (\$s = 0; \$s < Slotgen::SLOTS; \$s++) \$sum += ord(Slotgen::tagForSlot(\$s));
\$b = hrtime(true);
fwrite(STDERR, \$sum . PHP_EOL);
echo round($rounds * 16384 / ((\$b - \$a) / 1e9)), PHP_EOL;
" 2>/dev/null)
fi

if have elixirc; then
  "$bin" emit elixir -o slotgen.ex && elixirc -o ebin slotgen.ex >/dev/null
  rate[Elixir]=$(elixir -pa ebin -e "
loop = fn -> Enum.reduce(0..(Slotgen.slots() - 1), 0, fn s, acc -> {:ok, <<b, _::binary>>} = Slotgen.tag_for_slot(s); acc + b end) end
loop.()
{micros, _} = :timer.tc(fn -> Enum.each(1..$rounds, fn _ -> loop.() end) end)
IO.puts(round($rounds * 16384 / (micros / 1.0e6)))
" 2>/dev/null)
fi

"$bin" emit lua -o slotgen.lua
for lua in lua5.1 lua5.4 luajit; do
  have $lua || continue
  rate["Lua ($lua)"]=$($lua -e "
local m = dofile('slotgen.lua')
local f, n, byte, sum = m.tag_for_slot, m.slots, string.byte, 0
for s = 0, n - 1 do sum = sum + byte(f(s)) end
local a = os.clock()
for _ = 1, $rounds do for s = 0, n - 1 do sum = sum + byte(f(s)) end end
local b = os.clock()
io.stderr:write(sum, '\n')
print(string.format('%.0f', $rounds * 16384 / (b - a)))
" 2>/dev/null)
done

# Inside the server: the `lua --for-script` block, looping in one EVAL (the Functions
# library runs the same code). TIME gives the server's clock.
if have redis-server && have redis-cli; then
  "$bin" emit lua --for-script -o block.lua
  redis-server --port 0 --unixsocket "$dir/redis.sock" --save '' --daemonize no >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 100); do redis-cli -s "$dir/redis.sock" ping >/dev/null 2>&1 && break; sleep 0.05; done
  rate["Redis 7 EVAL (Lua 5.1)"]=$(redis-cli -s "$dir/redis.sock" EVAL "$(cat block.lua)
local t = redis.call('TIME')
local a = t[1] * 1e6 + t[2]
local sum = 0
for _ = 1, $rounds do for s = 0, slotgen.slots - 1 do sum = sum + string.byte(slotgen.tag_for_slot(s)) end end
t = redis.call('TIME')
return tostring(math.floor($rounds * 16384 / ((t[1] * 1e6 + t[2] - a) / 1e6)))" 0)
  kill "$pid"
  wait "$pid" 2>/dev/null || true
fi

base=${rate[C]:-}
echo "| module | tags per second | C's rate over it |"
echo "|---|---:|---:|"
for name in C Go Java JavaScript Python Ruby PHP Elixir "Lua (lua5.1)" "Lua (lua5.4)" "Lua (luajit)" "Redis 7 EVAL (Lua 5.1)"; do
  r=${rate[$name]:-}
  [ -n "$r" ] || continue
  ratio=$( [ -n "$base" ] && awk -v b="$base" -v r="$r" 'BEGIN { printf "%.1fx", b / r }' || echo -)
  printf '| %s | %s | %s |\n' "$name" "$r" "$ratio"
done
