#!lua name=corpus_alias
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL aliased
-- `local r = redis` in the library's body, then `r.register_function` and `r.call`: the body
-- runs at FUNCTION LOAD with a `redis` that has no `call`, and `r` keeps that table for the
-- function ("Script attempted to access nonexistent global variable 'call'").
local r = redis
r.register_function('aliased', function(keys, args)
  return r.call('SET', keys[1], 'v')
end)
