#!lua name=corpus_load
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL loaded
-- An EVAL script made a library: `redis.call` left outside the function (run at load).
local version = redis.call('GET', 'corpus:version')
redis.register_function('loaded', function(keys, args)
  return redis.call('GET', keys[1])
end)
