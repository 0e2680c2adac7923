#!lua name=corpus_no_functions
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `name=` without a function: FUNCTION LOAD refuses it, and EVAL refuses `name=`.
return redis.call('GET', KEYS[1])
