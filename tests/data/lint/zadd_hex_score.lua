-- call: keys=1 decided
-- A hexadecimal score: Redis 7.0 and Valkey 8.0 read `0x10` as 16 (C's strtod), Valkey 9.1
-- refuses it ("value is not a valid float"). INCRBYFLOAT, a `long double`, takes it on all.
redis.call('INCRBYFLOAT', KEYS[1], '0x10')
redis.call('DEL', KEYS[1])
return redis.call('ZADD', KEYS[1], '0x10', 'm')
