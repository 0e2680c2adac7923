#!lua name=corpus_names
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL get-value
-- A function named with `-`, and one registered twice: FUNCTION LOAD refuses both.
redis.register_function('get-value', function(keys, args)
  return redis.call('GET', keys[1])
end)
redis.register_function('get_value', function(keys, args) return 1 end)
redis.register_function('get_value', function(keys, args) return 2 end)
