-- call: keys=1, decided
-- A Lua number with a fraction at an integer position: Redis 7.0 writes it with `%.17g`,
-- Valkey in its shortest form, and no server reads either as an integer ("value is not an
-- integer or out of range"); at a float position (ZADD's score) it runs.
redis.call('SET', KEYS[1], 'v')
redis.call('ZADD', KEYS[1] .. 'z', 0.5, 'm')
return redis.call('PEXPIRE', KEYS[1], 0.5)
