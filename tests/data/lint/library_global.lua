#!lua name=corpus_global
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL global_helped
-- A helper written without `local`: a global, assigned when FUNCTION LOAD runs the body.
function touch(key)
  return redis.call('SET', key, 'v')
end
redis.register_function('global_helped', function(keys, args)
  return touch(keys[1])
end)
