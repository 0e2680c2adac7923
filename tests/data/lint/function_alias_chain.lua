#!lua name=corpus_alias_chain
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL alias_chain
-- `local s = r` after `local r = redis` in the library's body: `s` holds FUNCTION LOAD's
-- `redis` too, which registers, and has no `call` when the function runs.
local r = redis
local s = r
s.register_function('alias_chain', function(keys, args)
  return s.call('SET', keys[1], 'v')
end)
