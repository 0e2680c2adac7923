#!/usr/bin/env bash
# Tags per second of the C, Go and JavaScript modules emitted by another revision (BASE, by
# default `main`) against those of the working tree, measured in the same run: for each run,
# each language and each spec, BASE's module and then the working tree's, each in a fresh
# process, so that the two shapes meet the same machine load. Two specs: Redis Cluster's
# (4-byte tags) and the same with 16-symbol tags (`--tag-len 16`: 64-bit masks, 16-byte
# tags, 2^50 tags per slot). Two figures per process, each the CPU time of at least 0.3 s
# of calls after a warm-up pass over every slot: `tag_for_slot` over every slot in order,
# and `tags_for_slot` over the first 4 tags of every slot. Prints a Markdown table of the
# medians over RUNS (default 7) and the ratio of the working tree's median over BASE's.
#
#   bash tests/bench/tags_per_second_vs.sh [BASE] [RUNS]      (from the workspace root)
#
# BASE is built from `git archive` into target/bench-base (the first run builds it, in
# debug). Needs gcc, go and node; a missing one is skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
base=${1:-main}
runs=${2:-7}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
have() { command -v "$1" >/dev/null 2>&1; }

mkdir -p "$dir/base-src"
git archive "$base" | tar -x -C "$dir/base-src"
cargo build -q -p slotgen-cli --bin slotgen --manifest-path "$dir/base-src/Cargo.toml" \
  --target-dir "$root/target/bench-base"
cargo build -q -p slotgen-cli --bin slotgen
declare -A bin=([before]="$root/target/bench-base/debug/slotgen" [after]="$root/target/debug/slotgen")
declare -A spec=([redis]="" [long]="--tag-len 16")
shapes="before after"
specs="redis long"

cat > "$dir/c.c" <<'C'
#include <stdio.h>
#include <time.h>
#include "slotgen.h"
static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static unsigned long sum;
static void one(void) {
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned long s;
    unsigned k;
    for (s = 0; s < SLOTGEN_SLOTS; s++) {
        slotgen_tag_for_slot(s, tag);
        for (k = 0; k < SLOTGEN_TAG_LEN; k++) sum += tag[k];
    }
}
/* the tags of a slot, up to 4 (every slot of a CRC-16 table has as many) */
static unsigned long long FIRST;
static void count_first(void) {
    unsigned char tag[SLOTGEN_TAG_LEN];
    for (FIRST = 0; FIRST < 4; FIRST++)
        if (slotgen_tags_for_slot(0, FIRST, tag) != 0) break;
}
static void all(void) {
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned long s;
    unsigned long long i;
    unsigned k;
    for (s = 0; s < SLOTGEN_SLOTS; s++) {
        for (i = 0; i < FIRST; i++) {
            slotgen_tags_for_slot(s, i, tag);
            for (k = 0; k < SLOTGEN_TAG_LEN; k++) sum += tag[k];
        }
    }
}
static double rate(void (*pass)(void), double per_pass) {
    double a, t;
    unsigned long n = 0;
    pass();
    a = cpu();
    do {
        pass();
        n++;
    } while ((t = cpu() - a) < 0.3);
    return n * per_pass / t;
}
int main(void) {
    double r1, r2;
    count_first();
    r1 = rate(one, SLOTGEN_SLOTS);
    r2 = rate(all, SLOTGEN_SLOTS * (double)FIRST);
    fprintf(stderr, "%lu\n", sum);
    printf("%.0f %.0f\n", r1, r2);
    return 0;
}
C

cat > "$dir/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"syscall"

	"bench/slotgen"
)

func cpu() float64 {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
}

var sum int

func one() {
	for s := uint32(0); s < slotgen.Slots; s++ {
		tag, _ := slotgen.TagForSlot(s)
		for _, b := range tag {
			sum += int(b)
		}
	}
}

var first = 4

func all() {
	for s := uint32(0); s < slotgen.Slots; s++ {
		tags, _ := slotgen.TagsForSlot(s)
		n := 0
		tags(func(tag []byte) bool {
			for _, b := range tag {
				sum += int(b)
			}
			n++
			return n < first
		})
	}
}

func rate(pass func(), perPass float64) float64 {
	pass()
	a, n := cpu(), 0
	for {
		pass()
		n++
		if t := cpu() - a; t >= 0.3 {
			return float64(n) * perPass / t
		}
	}
}

func main() {
	// the tags of a slot, up to 4 (every slot of a CRC-16 table has as many)
	tags, _ := slotgen.TagsForSlot(0)
	first = 0
	tags(func([]byte) bool {
		first++
		return first < 4
	})
	r1, r2 := rate(one, slotgen.Slots), rate(all, float64(slotgen.Slots*first))
	fmt.Fprintln(os.Stderr, sum)
	fmt.Printf("%.0f %.0f\n", r1, r2)
}
GO

cat > "$dir/js.mjs" <<'JS'
const m = await import(process.argv[2]);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
// the tags of a slot, up to 4 (every slot of a CRC-16 table has as many)
let first = 0;
for (const _ of m.tagsForSlot(0)) if (++first === 4) break;
let sum = 0;
function one() {
  for (let s = 0; s < m.SLOTS; s++) {
    const tag = m.tagForSlot(s);
    for (let k = 0; k < tag.length; k++) sum += tag[k];
  }
}
function all() {
  for (let s = 0; s < m.SLOTS; s++) {
    let n = 0;
    for (const tag of m.tagsForSlot(s)) {
      for (let k = 0; k < tag.length; k++) sum += tag[k];
      if (++n === first) break;
    }
  }
}
function rate(pass, perPass) {
  pass();
  const a = cpu();
  for (let n = 1; ; n++) {
    pass();
    const t = cpu() - a;
    if (t >= 0.3) return (n * perPass) / t;
  }
}
const r1 = rate(one, m.SLOTS), r2 = rate(all, m.SLOTS * first);
console.error(sum);
console.log(`${Math.round(r1)} ${Math.round(r2)}`);
JS

# Build every program once: $dir/<spec>-<shape>/{c, go/driver, slotgen.mjs}.
langs=""
for sp in $specs; do
  for sh in $shapes; do
    d="$dir/$sp-$sh"
    mkdir -p "$d/go/slotgen"
    # shellcheck disable=SC2086
    "${bin[$sh]}" emit c ${spec[$sp]} -o "$d/slotgen.h"
    # shellcheck disable=SC2086
    "${bin[$sh]}" emit go ${spec[$sp]} -o "$d/go/slotgen/slotgen.go"
    # shellcheck disable=SC2086
    "${bin[$sh]}" emit js ${spec[$sp]} -o "$d/slotgen.mjs"
    if have gcc; then gcc -O2 -std=gnu99 -I "$d" -o "$d/c" "$dir/c.c"; fi
    if have go; then
      cp "$dir/main.go" "$d/go/" && printf 'module bench\n\ngo 1.19\n' > "$d/go/go.mod"
      (cd "$d/go" && GOFLAGS=-mod=mod GOPROXY=off go build -o driver .)
    fi
  done
done
have gcc && langs+=" C"
have go && langs+=" Go"
have node && langs+=" JavaScript"

declare -A got
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
measure() { # lang spec shape
  local d="$dir/$2-$3"
  case $1 in
    C) "$d/c" 2>/dev/null ;;
    Go) "$d/go/driver" 2>/dev/null ;;
    JavaScript) node "$dir/js.mjs" "$d/slotgen.mjs" 2>/dev/null ;;
  esac
}
for _ in $(seq "$runs"); do
  for lang in $langs; do
    for sp in $specs; do
      for sh in $shapes; do
        read -r one all < <(measure "$lang" "$sp" "$sh")
        got[$lang,$sp,$sh,one]+="$one "
        got[$lang,$sp,$sh,all]+="$all "
      done
    done
  done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
millions() { awk -v r="$1" 'BEGIN { printf "%.1f M", r / 1e6 }'; }
echo "base $base, $runs runs; load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after" >&2
echo "| module | spec | call | $base | working tree | ratio |"
echo "|---|---|---|---:|---:|---:|"
for lang in $langs; do
  for sp in $specs; do
    for call in one all; do
      b=$(median <<< "${got[$lang,$sp,before,$call]}")
      a=$(median <<< "${got[$lang,$sp,after,$call]}")
      name=$([ "$call" = one ] && echo '`tag_for_slot`' || echo '`tags_for_slot`, first 4')
      label=$([ "$sp" = redis ] && echo 'Redis Cluster' || echo '`--tag-len 16`')
      printf '| %s | %s | %s | %s | %s | %sx |\n' "$lang" "$label" "$name" "$(millions "$b")" \
        "$(millions "$a")" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')"
    done
  done
done
