#!lua name=corpus_flags_built
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL built_flags
-- The flags table filled in after it is made: the lint does not follow it.
local flags = {}
flags[1] = 'no-writes'
redis.register_function{
  function_name = 'built_flags',
  callback = function(keys, args) return redis.call('SET', keys[1], 'v') end,
  flags = flags,
}
