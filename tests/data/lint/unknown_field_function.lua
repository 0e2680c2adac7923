#!lua name=corpus_field_function
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL field_function
-- An EVAL habit in a function: `redis.replicate_commands()`, which a function does not have.
redis.register_function('field_function', function(keys, args)
  redis.replicate_commands()
  return redis.call('SET', keys[1], 'v')
end)
