#!lua name=corpus_reg_string
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_string
-- A callback that is a string: "second argument to redis.register_function must be a
-- function" at FUNCTION LOAD.
redis.register_function('reg_string', 'handler')
