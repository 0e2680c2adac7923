"""The harness's driver for the Python module (the protocol: tests/src/harness.rs).

Usage: driver.py MODULE_DIR KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX"""

import itertools
import sys

sys.path.insert(0, sys.argv[1])
import slotgen as m  # noqa: E402

keys_path, groups_path, few, deep = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
prefix, suffix, bad_prefix, bad_suffix = (bytes.fromhex(a) for a in sys.argv[6:10])
slots = range(m.FIRST_SLOT, m.LAST_SLOT + 1)


def hexes(s, n):
    return ",".join(t.hex() for t in itertools.islice(m.tags_for_slot(s), n))


def none_or(value, show):
    return "-" if value is None else show(value)


out = [f"const\t{m.FIRST_SLOT}\t{m.LAST_SLOT}\t{m.SLOTS}\t{m.TAG_LEN}"]
out += [f"tag\t{s}\t{m.tag_for_slot(s).hex()}" for s in slots]
out += [f"tags\t{s}\t{hexes(s, few)}" for s in slots]
out += [f"deep\t{s}\t{hexes(s, deep)}" for s in (m.FIRST_SLOT, m.LAST_SLOT)]
out += [f"key\t{s}\t{m.key_for_slot(prefix, s, suffix).hex()}" for s in slots]
with open(keys_path) as f:
    keys = [bytes.fromhex(line.strip()) for line in f]
out += [f"slot\t{k.hex()}\t{m.slot(k)}" for k in keys]
for k in keys:
    try:
        text = k.decode("utf-8")
    except UnicodeDecodeError:
        continue
    out.append(f"str\t{k.hex()}\t{m.slot(text)}")
out += [f"hashtag\t{k.hex()}\t{m.hashtag(k).hex()}" for k in keys]
with open(groups_path) as f:
    groups = []
    for line in f:
        count, _, listed = line.rstrip("\n").partition(":")
        groups.append([bytes.fromhex(h) for h in listed.split(",")][: int(count)])
out += [f"same\t{i}\t{none_or(m.same_slot(g), str)}" for i, g in enumerate(groups)]
out += [f"shared\t{i}\t{none_or(m.shared_hashtag(g), bytes.hex)}" for i, g in enumerate(groups)]


def refusal(case, call):
    try:
        value = call()
    except (m.SlotgenError, TypeError) as e:
        out.append(f"refused\t{case}\t{type(e).__name__}: {e}")
    else:
        out.append(f"accepted\t{case}\t{value!r}")


refusal("tag_above", lambda: m.tag_for_slot(m.LAST_SLOT + 1))
refusal("tag_below", lambda: m.tag_for_slot(m.FIRST_SLOT - 1))
refusal("tags_above", lambda: m.tags_for_slot(m.LAST_SLOT + 1))
refusal("key_above", lambda: m.key_for_slot(prefix, m.LAST_SLOT + 1, suffix))
refusal("key_rule", lambda: m.key_for_slot(bad_prefix, m.FIRST_SLOT, bad_suffix))
refusal("float_slot", lambda: m.tag_for_slot(1.0))
refusal("str_slot", lambda: m.tag_for_slot("5"))
# one key in place of the iterable of keys: a str and a bytes are iterable too
refusal("one_key_str", lambda: m.same_slot("zz"))
refusal("one_key_bytes", lambda: m.same_slot(b"zz"))
refusal("one_key_shared", lambda: m.shared_hashtag("user:{1}:a"))
print("\n".join(out))
