#!lua name=corpus_helper_callers_other
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL helper_other
-- One helper of the library's body called by three functions with three keys: each call is
-- followed into the helper with the key it passes, in the function that makes it.
-- `other` passes args[1]: the GET in `get` is on the second key's slot.
local prefix = '{c}'
local function get(k)
  return redis.call('GET', k)
end
redis.register_function{
  function_name = 'helper_own',
  callback = function(keys, args) return get(keys[1]) end,
  flags = { 'no-writes' },
}
redis.register_function('helper_other', function(keys, args) return get(args[1]) end)
redis.register_function('helper_upvalue', function(keys, args) return get(prefix .. args[1]) end)
