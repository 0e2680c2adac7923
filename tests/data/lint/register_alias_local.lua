#!lua name=corpus_reg_alias
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_alias
-- `register_function` through a local: a call of the local registers the function, as
-- the servers load it; its body is judged as any function's.
local register = redis.register_function
register('reg_alias', function(keys, args)
  return redis.call('GET', keys[1])
end)
