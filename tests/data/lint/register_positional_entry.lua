#!lua name=corpus_reg_positional
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_positional
-- An entry without a name in the table form: "unknown argument given to
-- redis.register_function" at FUNCTION LOAD.
redis.register_function{function_name='reg_positional', callback=function(keys, args)
  return redis.call('GET', keys[1])
end, flags={'no-writes'}, 'extra'}
