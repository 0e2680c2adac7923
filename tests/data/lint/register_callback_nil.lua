#!lua name=corpus_reg_cb_nil
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_cb_nil
-- The table form with `callback=nil`: "redis.register_function must get a callback
-- argument" at FUNCTION LOAD.
redis.register_function{function_name='reg_cb_nil', callback=nil}
