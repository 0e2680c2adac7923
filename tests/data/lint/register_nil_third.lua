#!lua name=corpus_reg_nil_third
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_nil_third
-- A third argument `nil` counts: "wrong number of arguments" at FUNCTION LOAD.
redis.register_function('reg_nil_third', function(keys, args)
  return redis.call('GET', keys[1])
end, nil)
