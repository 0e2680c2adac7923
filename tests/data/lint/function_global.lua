#!lua name=corpus_function_global
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL counted
-- A function that keeps its key in a global (a forgotten `local`): refused when it runs.
redis.register_function('counted', function(keys, args)
  last_key = keys[1]
  return redis.call('SET', keys[1], 'v')
end)
