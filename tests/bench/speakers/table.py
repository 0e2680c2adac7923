"""The Markdown table of tests/bench/speakers.sh's rows (standard input): one row a language,
function, key type, case and peer; one column a key length; each cell the peer's ns and
slotgen's, and the ratio peer / slotgen (above 1.0 slotgen is faster)."""

import sys
from collections import defaultdict

cells = defaultdict(dict)
lengths = []
for line in sys.stdin:
    language, function, kind, case, length, code, ns = line.rstrip("\n").split("\t")
    cells[(language, function, kind, case, code)][length] = int(ns)
    if length not in lengths:
        lengths.append(length)

print("| language | function | keys | case | peer | " + " | ".join(
    f"{n} B" if n != "-" else "-" for n in lengths) + " |")
print("|---" * 5 + "|---:" * len(lengths) + "|")
for (language, function, kind, case, code), row in cells.items():
    if code == "slotgen":
        continue
    ours = cells[(language, function, kind, case, "slotgen")]
    shown = []
    for n in lengths:
        if n in row and n in ours:
            shown.append(f"{row[n]} / {ours[n]} = {row[n] / max(ours[n], 1):.2f}x")
        else:
            shown.append("")
    print(f"| {language} | {function} | {kind} | {case} | {code} | " + " | ".join(shown) + " |")
