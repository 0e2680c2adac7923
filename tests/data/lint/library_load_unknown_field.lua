#!lua name=corpus_unknown_field
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL typo_field
-- A field `register_function` does not take (a typo of `flags`): FUNCTION LOAD refuses the
-- library, so FCALL finds no function.
redis.register_function{function_name='typo_field', callback=function(keys, args)
  return redis.call('GET', keys[1])
end, flag={'no-writes'}}
