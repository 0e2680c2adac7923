#!lua name=corpus_reg_flags_number
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_flags_number
-- A number among the flags: "unknown flag given" at FUNCTION LOAD.
redis.register_function{function_name='reg_flags_number', callback=function(keys, args)
  return redis.call('GET', keys[1])
end, flags={'no-writes', 1}}
