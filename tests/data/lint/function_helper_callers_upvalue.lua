#!lua name=corpus_helper_callers_upvalue
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL helper_upvalue
-- One helper of the library's body called by three functions with three keys: each call is
-- followed into the helper with the key it passes, in the function that makes it.
-- `upvalue` passes `prefix .. args[1]`, `prefix` a local of the library's body holding `{c}`: the GET is on slot 7365.
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
