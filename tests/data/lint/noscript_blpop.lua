-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A blocking command: Redis 7.0 refuses it in a script (`noscript`), Valkey runs it without
-- blocking.
redis.call('RPUSH', KEYS[1], 'job')
return redis.call('BLPOP', KEYS[1], 0)
