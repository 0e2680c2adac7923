-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A key written as a fractional number: Redis 7.0 passes 0.1 as `0.10000000000000001`
-- (slot 14720), Valkey as `0.1` (slot 1598).
redis.call('SET', KEYS[1], 'v')
return redis.call('SET', 0.1, 'v')
