-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A rate limiter that keeps its counters in database 1 (`redis.call('select', 1)`, as
-- public rate-limit scripts written for one server do): a cluster has database 0 only,
-- Valkey 9 more with `cluster-databases` (default 1).
redis.call('select', 1)
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 60)
return n
