-- call: keys=1 decided
-- A score bound with a space before it: Redis 7.0 and Valkey 8.0 take ` 1`, Valkey 9.1
-- refuses it ("min or max is not a float"); the empty bound is 0 on all three.
redis.call('ZRANGEBYSCORE', KEYS[1], '', '+inf')
return redis.call('ZRANGEBYSCORE', KEYS[1], ' 1', '+inf')
