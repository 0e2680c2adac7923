#!lua name=corpus_keys_shadowed
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL keys_shadowed
-- A local `keys` inside the function: another table than FCALL's keys.
redis.register_function('keys_shadowed', function(keys, args)
  local keys = { args[1] } -- changes the call's table
  return redis.call('SET', keys[1], 'v')
end)
