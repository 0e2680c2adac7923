-- call: keys=1 decided
-- Valkey 9.1's HEXPIRE reads its seconds as an integer: `1.5` is refused ("value is not an
-- integer or out of range"); Redis 7.0 and Valkey 8.0 have no HEXPIRE ("unknown command").
redis.call('HSET', KEYS[1], 'f', 'v')
return redis.call('HEXPIRE', KEYS[1], '1.5', 'FIELDS', '1', 'f')
