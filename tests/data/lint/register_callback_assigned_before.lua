#!lua name=corpus_reg_before
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_before
-- A local callback declared without a value and assigned before the call: a function
-- when FUNCTION LOAD runs the call, which loads.
local handler
handler = function(keys, args)
  return redis.call('GET', keys[1])
end
redis.register_function('reg_before', handler)
