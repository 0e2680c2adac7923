#!lua name=corpus_allow
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL allow
-- A function flagged allow-cross-slot-keys: several slots, one node.
redis.register_function{
  function_name = 'allow',
  callback = function(keys, args)
    redis.call('SET', keys[1], 'v')
    return redis.call('SET', args[1], 'v')
  end,
  flags = { 'allow-cross-slot-keys' },
}
