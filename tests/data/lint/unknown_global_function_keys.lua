#!lua name=corpus_function_keys
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL touch_keys
-- `KEYS[1]` in a function, written as in an EVAL script: a function has no `KEYS`.
redis.register_function('touch_keys', function(keys, args)
  return redis.call('SET', KEYS[1], 'v')
end)
