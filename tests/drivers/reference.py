"""The reference the emitted modules are checked against, written from the systems' sources,
not from slotgen's: each scheme's hashtag rule and slot formula, with Python's own CRCs
(zlib.crc32, binascii.crc_hqx) and bitwise CRCs written out here.

Usage: reference.py KEYS CASE...  where KEYS has one hex key a line and each CASE is
  NAME:scheme:SCHEME:SLOTS:HASH_TAG_HEX   a named scheme, or
  NAME:crc16:POLY:INIT:REFIN:REFOUT:XOROUT:SLOTS   a CRC-16 table (Redis Cluster's rule).
Prints, for every case and key: NAME<TAB>KEY<TAB>SLOT<TAB>HASHED<TAB>EXPLICIT, where
HASHED is the hex of the bytes hashed and EXPLICIT the hex of the hashtag the rule found
between its delimiters, or - when the rule found none (the whole key is hashed)."""

import binascii
import sys
import zlib


def bitwise_crc(width, poly, init, refin, refout, xorout):
    """A CRC in the RevEng model, one bit at a time."""
    top, mask = 1 << (width - 1), (1 << width) - 1

    def reflect(value, bits):
        return int(format(value, f"0{bits}b")[::-1], 2)

    def crc(data):
        reg = init
        for byte in data:
            if refin:
                byte = reflect(byte, 8)
            reg ^= byte << (width - 8)
            for _ in range(8):
                reg = ((reg << 1) ^ poly) & mask if reg & top else (reg << 1) & mask
        if refout:
            reg = reflect(reg, width)
        return reg ^ xorout

    return crc


# Tarantool's digest.crc32: CRC-32C (Castagnoli), initial value 0xffffffff, no final xor.
crc32c_no_final_xor = bitwise_crc(32, 0x1EDC6F41, 0xFFFFFFFF, True, True, 0)
assert crc32c_no_final_xor(b"123456789") == 0x1CF96D7C  # its check value
assert bitwise_crc(16, 0x1021, 0, False, False, 0)(b"123456789") == 0x31C3  # XMODEM


def between(key, open_, close):
    start = key.find(open_)
    if start < 0:
        return None
    end = key.find(close, start + 1)
    return None if end < 0 else key[start + 1 : end]


def redis_rule(key):  # cluster.c keyHashSlot: an empty {} hashes the whole key
    tag = between(key, b"{", b"}")
    return tag if tag else None


def codis_rule(key):  # codis hashSlot: {} hashes the empty string
    return between(key, b"{", b"}")


def twemproxy_rule(hash_tag):  # nc_request: an empty tag hashes the whole key
    if not hash_tag:
        return lambda key: None

    def rule(key):
        tag = between(key, hash_tag[:1], hash_tag[1:])
        return tag if tag else None

    return rule


whole = lambda key: None
# name: (rule of hash_tag, crc, shift, mask, offset); slot = ((crc >> shift) & mask) % slots + offset
SCHEMES = {
    "redis-cluster": (lambda tag: redis_rule, lambda d: binascii.crc_hqx(d, 0), 0, 0xFFFF, 0),
    "codis": (lambda tag: codis_rule, zlib.crc32, 0, 0xFFFFFFFF, 0),
    "couchbase": (lambda tag: whole, zlib.crc32, 16, 0x7FFF, 0),
    "tarantool-vshard": (lambda tag: whole, crc32c_no_final_xor, 0, 0xFFFFFFFF, 1),
    "librdkafka": (lambda tag: whole, zlib.crc32, 0, 0xFFFFFFFF, 0),
    "twemproxy-crc32a": (twemproxy_rule, zlib.crc32, 0, 0xFFFFFFFF, 0),
    "twemproxy-crc32": (twemproxy_rule, zlib.crc32, 16, 0x7FFF, 0),
}

with open(sys.argv[1]) as f:
    keys = [bytes.fromhex(line.strip()) for line in f]
out = []
for case in sys.argv[2:]:
    name, kind, *fields = case.split(":")
    if kind == "scheme":
        scheme, slots, hash_tag = fields
        rule, crc, shift, mask, offset = SCHEMES[scheme]
        rule = rule(bytes.fromhex(hash_tag))
    else:
        poly, init, refin, refout, xorout, slots = fields
        crc = bitwise_crc(16, int(poly, 0), int(init, 0), refin == "true", refout == "true", int(xorout, 0))
        rule, shift, mask, offset = redis_rule, 0, 0xFFFF, 0
    for key in keys:
        tag = rule(key)
        hashed = key if tag is None else tag
        slot = ((crc(hashed) >> shift) & mask) % int(slots) + offset
        explicit = "-" if tag is None else tag.hex()
        out.append(f"{name}\t{key.hex()}\t{slot}\t{hashed.hex()}\t{explicit}")
print("\n".join(out))
