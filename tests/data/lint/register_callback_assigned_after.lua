#!lua name=corpus_reg_after
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_after
-- A local callback declared without a value and assigned after the call: nil when
-- FUNCTION LOAD runs the call ("second argument ... must be a function").
local handler
redis.register_function('reg_after', handler)
handler = function(keys, args)
  return redis.call('GET', keys[1])
end
