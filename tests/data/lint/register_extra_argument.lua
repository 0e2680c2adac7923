#!lua name=corpus_reg_extra
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_extra
-- The flags as a third argument (they go in the table form's `flags`): FUNCTION LOAD
-- refuses the library ("wrong number of arguments to redis.register_function").
redis.register_function('reg_extra', function(keys, args)
  return redis.call('GET', keys[1])
end, 'no-writes')
