#!lua name=corpus_named
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL named
-- A function registered by name, as the Redis docs write it (`my_hset`).
local function named(keys, args)
  redis.call('SET', keys[1], 'v')
  return redis.call('SET', args[1], 'v')
end
redis.register_function('named', named)
