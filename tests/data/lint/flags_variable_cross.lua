#!lua name=corpus_flags_cross
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL flagged_cross
-- `allow-cross-slot-keys` kept in a local table shared by two functions.
local cross = { 'allow-cross-slot-keys' }
redis.register_function{
  function_name = 'flagged_cross',
  callback = function(keys, args)
    redis.call('SET', keys[1], 'v')
    return redis.call('SET', args[1], 'v')
  end,
  flags = cross,
}
redis.register_function{
  function_name = 'flagged_cross_too',
  callback = function(keys, args) return redis.call('GET', keys[1]) end,
  flags = cross,
}
