"""The benchmark's keys: for each length (3, 8, 22, 64, 1024 bytes) two files of
printable ASCII keys, one a line, deterministic: `plain-LEN.txt` (no `{`, so the whole key is
hashed) and `tag-LEN.txt` (a hashtag `{...}` of up to 8 bytes after a prefix of up to 8, so
its hashtag is hashed). 20,000 keys a file, 2,000 of 1,024 bytes.

    python3 keys.py DIR
"""

import random
import sys

LENGTHS = (3, 8, 22, 64, 1024)
SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:_-."


def text(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(SYMBOLS) for _ in range(n))


def tagged(rng: random.Random, n: int) -> str:
    # prefix {tag} suffix, the tag 1 to 8 bytes, the prefix up to 8
    tag_len = min(8, n - 2)
    head = min(8, n - 2 - tag_len)
    return text(rng, head) + "{" + text(rng, tag_len) + "}" + text(rng, n - 2 - tag_len - head)


def main() -> None:
    out = sys.argv[1]
    rng = random.Random(33)
    for n in LENGTHS:
        count = 2_000 if n > 100 else 20_000
        for kind, make in (("plain", text), ("tag", tagged)):
            with open(f"{out}/{kind}-{n}.txt", "w", encoding="ascii") as f:
                for _ in range(count):
                    key = make(rng, n)
                    assert len(key) == n
                    f.write(key + "\n")


main()
