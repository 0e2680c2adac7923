-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A typo: `Redis.call` for `redis.call`.
redis.call('SET', KEYS[1], 'v')
return Redis.call('GET', KEYS[1])
