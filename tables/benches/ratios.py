#!/usr/bin/env python3
"""Prints the README's ratio tables from criterion's last run (target/criterion).

    python3 tables/benches/ratios.py [target/criterion]

Each cell is the alternative's median over slotgen's median in the same row (above 1:
slotgen is faster), from criterion's `new/estimates.json` of each benchmark.
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
medians = {}  # (group, parameter) -> {function: ns}
for bench in root.glob("**/new/benchmark.json"):
    meta = json.loads(bench.read_text())
    estimates = json.loads((bench.parent / "estimates.json").read_text())
    key = (meta["group_id"], meta.get("value_str") or "")
    medians.setdefault(key, {})[meta["function_id"]] = estimates["median"]["point_estimate"]


def fmt_ns(ns):
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns / 1e3:.2f} µs" if ns >= 1e3 else f"{ns:.1f} ns"


def table(group, baseline, others, note_param=""):
    rows = sorted((k for k in medians if k[0] == group), key=lambda k: (len(k[1]), k[1]))
    if not rows:
        return
    print(f"\n{group} ({baseline} median; other columns: their median / {baseline}'s)\n")
    print(f"| {note_param or 'case'} | {baseline} | " + " | ".join(others) + " |")
    print("|---" * (2 + len(others)) + "|")
    for key in rows:
        row = medians[key]
        if baseline not in row:
            continue
        base = row[baseline]
        cells = [f"{row[o] / base:.2f}x" if o in row else "-" for o in others]
        print(f"| {key[1]} | {fmt_ns(base)} | " + " | ".join(cells) + " |")


for kind in ("no-hashtag", "hashtag"):
    table(f"key_slot/{kind}", "slotgen",
          ["slotgen-portable", "crc-table1", "crc-table16", "crc-fast",
           "crc16-xmodem-fast", "crc16"], "key bytes")
for kind in ("mixed", "plain"):
    table(f"key_slots/{kind}", "slotgen-batch",
          ["slotgen-loop", "crc-table1-loop", "crc-table16-loop", "crc-fast-loop", "crc16-loop"],
          "key bytes")
table("hashtag_scan", "slotgen", ["byte-loop"], "key bytes")
table("scheme_slot/iso-hdlc", "slotgen", ["slotgen-librdkafka", "crc-table1", "crc-table16", "crc32fast", "crc-fast"], "key bytes")
table("scheme_slot/crc32c", "slotgen", ["slotgen-vshard", "crc-table1", "crc-table16", "crc32c", "crc-fast"], "key bytes")
for loop in ("throughput", "latency", "cache-pressure"):
    table(f"tag_for_slot/{loop}", "slotgen", ["array", "brute-force", "read-alone"], "order")
group = "derive_verify"
if any(k[0] == group for k in medians):
    print(f"\n{group}\n")
    print("| operation | median |")
    print("|---|---|")
    for (g, _), row in sorted(medians.items()):
        if g == group:
            for name, ns in sorted(row.items()):
                print(f"| {name} | {fmt_ns(ns)} |")
