"""A deliberately broken adapter for `slotgen verify --exec`: answers every key with the slot
the corpus file gives it, except the keys of one class, whose slot it moves by one.

    python3 broken.py CORPUS.tsv CLASS
"""
import sys

corpus, broken = sys.argv[1], sys.argv[2]
slots = {}
with open(corpus) as rows:
    for row in rows:
        if not row.startswith("#"):
            key_hex, slot, cls = row.rstrip("\n").split("\t")
            slots[key_hex] = (int(slot) + 1) % 16384 if cls == broken else int(slot)
sys.stdout.writelines(f"{slots[line.rstrip(chr(10))]}\n" for line in sys.stdin)
