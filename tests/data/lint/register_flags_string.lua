#!lua name=corpus_reg_flags_string
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_flags_string
-- The flags as a string, not a table: "flags argument to redis.register_function must be
-- a table representing function flags" at FUNCTION LOAD.
redis.register_function{function_name='reg_flags_string', callback=function(keys, args)
  return redis.call('GET', keys[1])
end, flags='no-writes'}
