-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- ZRANK ... WITHSCORE: Valkey's (from Redis 7.2), one argument too many for Redis 7.0.
redis.call('ZADD', KEYS[1], 1, 'member')
return redis.call('ZRANK', KEYS[1], 'member', 'WITHSCORE')
