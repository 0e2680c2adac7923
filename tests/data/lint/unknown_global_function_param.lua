#!lua name=corpus_function_param
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL function_param
-- `key[1]` for the function's own parameter `keys[1]`.
redis.register_function('function_param', function(keys, args)
  return redis.call('GET', key[1])
end)
