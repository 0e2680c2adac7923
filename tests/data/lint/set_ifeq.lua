-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A compare-and-set by Valkey 9's `SET ... IFEQ`: Redis 7.0 and Valkey 8.0 take no option
-- `IFEQ` ("syntax error").
redis.call('SET', KEYS[1], 'old')
return redis.call('SET', KEYS[1], 'new', 'IFEQ', 'old')
