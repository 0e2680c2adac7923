#!lua name=corpus_keys_element
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL keys_element
-- An element of FCALL's keys written by the function.
redis.register_function('keys_element', function(keys, args)
  keys[1] = args[1] -- changes the call's table
  return redis.call('SET', keys[1], 'v')
end)
