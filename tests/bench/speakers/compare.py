"""Two runs of tests/bench/speakers.sh side by side (their rows, saved to files): for each
language, function, key type and case, and each key length, the fastest peer's ns per key
over slotgen's, before and after, with slotgen's ns after. Above 1.0 slotgen is faster.
Given one side, the tables of that run alone (docs/performance.md's).

    python3 compare.py BEFORE_ROWS[,MORE...] AFTER_ROWS[,MORE...]
    python3 compare.py ROWS[,MORE...]

Several files to a side (comma-separated) are runs of the same code: each cell is its best.

For tag_for_slot and key_for_slot the "peer" is the language's own lookup (and
concatenation) written in the bench, and the ratio is slotgen's ns over it: the issue's
bound is 1.5.
"""

import sys
from collections import defaultdict

LENGTHS = ["3", "8", "22", "64", "1024"]


def read(paths):
    rows = defaultdict(dict)
    for path in paths.split(","):
        for line in open(path, encoding="utf-8"):
            cells = line.rstrip("\n").split("\t")
            if len(cells) != 7 or not cells[6].isdigit():
                continue
            language, function, kind, case, length, code, ns = cells
            codes = rows[(language, function, kind, case, length)]
            codes[code] = min(int(ns), codes.get(code, int(ns)))
    return rows


def fastest_peer(codes):
    peers = {c: ns for c, ns in codes.items() if c != "slotgen"}
    name = min(peers, key=peers.get)
    return name, peers[name]


def tables_of(function):
    """Which table a function's rows go to: `slot`, or the tag or key lookup of any spelling
    (tag_for_slot, tagForSlot, TagForSlot, tag_for_slot!)."""
    name = function.lower().replace("_", "").rstrip("!")
    return {"slot": "slot", "tagforslot": "tag_for_slot", "keyforslot": "key_for_slot"}[name]


def main():
    if len(sys.argv) == 2:
        before, after, arrow = {}, read(sys.argv[1]), ""
    else:
        before, after, arrow = read(sys.argv[1]), read(sys.argv[2]), ", before -> after"
    print("`slot`: the fastest peer's ns over slotgen's (above 1.0 slotgen is faster)" + arrow + ";")
    print("slotgen's ns per key" + (" after" if arrow else "") + ".\n")
    print("| language | keys | case | peer | " + " | ".join(f"{n} B" for n in LENGTHS) + " |")
    print("|---|---|---|---|" + "---:|" * len(LENGTHS))
    groups = sorted({k[:4] for k in after if tables_of(k[1]) == "slot"}, key=lambda k: list(after).index(
        next(x for x in after if x[:4] == k)))
    for language, function, kind, case in groups:
        cells, peer_names = [], set()
        for n in LENGTHS:
            key = (language, function, kind, case, n)
            if key not in after or "slotgen" not in after[key] or len(after[key]) < 2:
                cells.append("")
                continue
            name, peer = fastest_peer(after[key])
            peer_names.add(name)
            ours = after[key]["slotgen"]
            text = f"{peer / ours:.2f}x ({ours} ns)"
            if key in before and "slotgen" in before[key] and len(before[key]) > 1:
                _, old_peer = fastest_peer(before[key])
                text = f"{old_peer / before[key]['slotgen']:.2f}x -> " + text
            cells.append(text)
        print(f"| {language} | {kind} | {case} | {', '.join(sorted(peer_names))} | " + " | ".join(cells) + " |")
    for table in ("tag_for_slot", "key_for_slot"):
        print()
        print(f"`{table}`: slotgen's ns over the language's own lookup (and concatenation) in the")
        print("same run" + arrow + " (the bound is 1.5x).\n")
        print("| language | function | against | slotgen ns | theirs ns | ratio" + arrow[1:] + " |")
        print("|---|---|---|---:|---:|---|")
        for key, codes in after.items():
            if tables_of(key[1]) != table or "slotgen" not in codes:
                continue
            for code, ns in codes.items():
                if code == "slotgen":
                    continue
                # a lookup under a nanosecond (C's array) has no ratio
                ratio = f"{codes['slotgen'] / ns:.2f}x" if ns else "-"
                if key in before and before[key].get(code) and "slotgen" in before[key]:
                    ratio = f"{before[key]['slotgen'] / before[key][code]:.2f}x -> " + ratio
                print(f"| {key[0]} | {key[1]} | {code} | {codes['slotgen']} | {ns} | {ratio} |")

main()
