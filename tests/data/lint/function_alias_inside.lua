#!lua name=corpus_alias_inside
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL aliased_inside
-- `local lib = redis` in the library's body registers the function; the function's own
-- `local r = redis` is the `redis` of FCALL, whose `r.call` writes both keys.
local lib = redis
lib.register_function{function_name = 'aliased_inside', callback = function(keys, args)
  local r = redis
  r.call('SET', keys[1], 'v')
  return r.call('SET', args[1], 'v')
end}
