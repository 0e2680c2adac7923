#!lua name=corpus_alias_load
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL aliased
-- An EVAL script's alias moved into a library's body: `local call = redis.call` runs at
-- FUNCTION LOAD, where `redis` has no `call`, and the load is refused ("Script attempted
-- to access nonexistent global variable 'call'", on Redis 7.0, Valkey 8.0 and 9.1).
local call = redis.call
redis.register_function('aliased', function(keys, args)
  return call('SET', keys[1], args[1])
end)
