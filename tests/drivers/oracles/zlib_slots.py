import sys, zlib
def codis(key):
    # first '{', then the first '}' after it: the bytes between, even none
    i = key.find(b'{')
    if i >= 0:
        j = key.find(b'}', i + 1)
        if j >= 0:
            key = key[i + 1:j]
    return zlib.crc32(key) % 1024
def couchbase(key, n):
    return ((zlib.crc32(key) >> 16) & 0x7fff) % n
for line in sys.stdin:
    key = bytes.fromhex(line.strip())
    print(codis(key), couchbase(key, 1024), couchbase(key, 64))
