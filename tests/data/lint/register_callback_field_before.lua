#!lua name=corpus_reg_field_before
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_field_before
-- A table's field given as the callback after the function is defined into it: it loads.
local M = {}
function M.handler(keys, args)
  return redis.call('GET', keys[1])
end
redis.register_function('reg_field_before', M.handler)
