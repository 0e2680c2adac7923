#!lua name=corpus_reg_single
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_single
-- One argument that is no table: FUNCTION LOAD refuses the library ("... a single argument
-- is only applicable to Lua table").
redis.register_function('reg_single')
