#!lua name=corpus_wrapper_vararg
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL wrapped
-- A wrapper of the library's body (`local f = function(...)` forwarding `...`): FUNCTION
-- LOAD only makes it; each of its calls in the function is a command.
local rcall = function(...) return redis.call(...) end
redis.register_function('wrapped', function(keys, args)
  rcall('SET', keys[1], 'v')
  return rcall('SET', args[1], 'v')
end)
