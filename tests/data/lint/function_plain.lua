#!lua name=corpus_plain
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL plain
-- A function without flags: one slot for the whole call.
redis.register_function('plain', function(keys, args)
  redis.call('SET', keys[1], 'v')
  return redis.call('SET', args[1], 'v')
end)
