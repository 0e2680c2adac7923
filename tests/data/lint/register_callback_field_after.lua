#!lua name=corpus_reg_field_after
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_field_after
-- A table's field given as the callback before the function is defined into it: nil when
-- FUNCTION LOAD runs the call ("second argument ... must be a function").
local M = {}
redis.register_function('reg_field_after', M.handler)
function M.handler(keys, args)
  return redis.call('GET', keys[1])
end
