-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- The same release by Valkey 9's DELIFEQ (delete if the value equals), which Valkey 8 and
-- Redis 7.0 do not have.
redis.call('SET', KEYS[1], ARGV[1])
return redis.call('DELIFEQ', KEYS[1], ARGV[1])
