"""slotgen's Python module against the clients' own slot functions, in one process: redis-py
`redis.crc.key_slot`, valkey-py `valkey.crc.key_slot`, coredis `coredis._utils.hash_slot`
(bytes keys; for str keys each peer is given `key.encode()`, as the clients encode a key
before they hash it). Then `tag_for_slot` against a lookup in a list of 16384 ready tags,
and `key_for_slot` against that lookup joined with a prefix and suffix.

    python3 bench.py MODULE_DIR KEY_DIR ROUNDS

Prints tab-separated rows: language, function, key type, case, length, code, ns per key
(the best of ROUNDS rounds over every key of the case).
"""

import sys
import time

sys.path.insert(0, sys.argv[1])
import slotgen  # noqa: E402

PEERS = {}
for name, path in (
    ("redis-py", "redis.crc"),
    ("valkey-py", "valkey.crc"),
    ("coredis", "coredis._utils"),
):
    try:
        module = __import__(path, fromlist=["_"])
    except ImportError:
        print(f"skip: {name} is not installed", file=sys.stderr)
        continue
    PEERS[name] = getattr(module, "key_slot", None) or module.hash_slot

KEY_DIR, ROUNDS = sys.argv[2], int(sys.argv[3])


def best(function, keys) -> int:
    """ns per key of the best round; every round checks the slots' sum."""
    times = []
    total = None
    for _ in range(ROUNDS):
        start = time.perf_counter_ns()
        s = 0
        for k in keys:
            s += function(k)
        times.append(time.perf_counter_ns() - start)
        assert total in (None, s)
        total = s
    return round(min(times) / len(keys)), total


def row(*cells) -> None:
    print("\t".join(str(c) for c in cells), flush=True)


def interleaved(functions, keys):
    """best() of each function, their rounds taken in turn (slotgen's, then each peer's), so
    that a change of the machine's load meets them all alike."""
    times = {name: [] for name in functions}
    totals = {}
    for _ in range(ROUNDS):
        for name, function in functions.items():
            start = time.perf_counter_ns()
            s = 0
            for k in keys:
                s += function(k)
            times[name].append(time.perf_counter_ns() - start)
            assert totals.setdefault(name, s) == s
    return {name: (round(min(t) / len(keys)), totals[name]) for name, t in times.items()}


for case in ("plain", "tag"):
    for n in (3, 8, 22, 64, 1024):
        with open(f"{KEY_DIR}/{case}-{n}.txt", encoding="ascii") as f:
            texts = f.read().split()
        raw = [t.encode() for t in texts]
        for kind, keys, peers in (
            ("bytes", raw, {name: peer for name, peer in PEERS.items()}),
            (
                "str",
                texts,
                {
                    name + " + encode": (lambda k, peer=peer: peer(k.encode()))
                    for name, peer in PEERS.items()
                },
            ),
        ):
            results = interleaved({"slotgen": slotgen.slot, **peers}, keys)
            want = results["slotgen"][1]
            for name, (ns, got) in results.items():
                assert got == want, (name, case, n)
                row("python", "slot", kind, case, n, name, ns)

slots = list(range(slotgen.FIRST_SLOT, slotgen.LAST_SLOT + 1))
ready = [slotgen.tag_for_slot(s) for s in slots]
ns, _ = best(lambda s: len(slotgen.tag_for_slot(s)), slots)
row("python", "tag_for_slot", "-", "-", "-", "slotgen", ns)
ns, _ = best(lambda s: len(ready[s]), slots)
row("python", "tag_for_slot", "-", "-", "-", "list of tags", ns)


def only_index(s: int) -> bytes:
    return ready[s]


# the least a function can cost: one that only indexes the list
ns, _ = best(lambda s: len(only_index(s)), slots)
row("python", "tag_for_slot", "-", "-", "-", "a function indexing the list", ns)
ns, _ = best(lambda s: len(slotgen.key_for_slot(b"user:", s, b":cart")), slots)
row("python", "key_for_slot", "bytes", "-", "-", "slotgen", ns)
ns, _ = best(lambda s: len(b"".join((b"user:{", ready[s], b"}:cart"))), slots)
row("python", "key_for_slot", "bytes", "-", "-", "list of tags + join", ns)



def only_join(prefix: bytes, s: int, suffix: bytes) -> bytes:
    return b"".join((prefix, b"{", ready[s], b"}", suffix))


# the least a function can cost: one that only joins
ns, _ = best(lambda s: len(only_join(b"user:", s, b":cart")), slots)
row("python", "key_for_slot", "bytes", "-", "-", "a function joining", ns)
