#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key) decided
-- A helper defined in a table literal, called with KEYS[1] and with ARGV[1].
local M = {
  set = function(k, v) return redis.call('SET', k, v) end,
  name = 'helpers',
}
M.set(KEYS[1], 'a')
return M.set(ARGV[1], 'b')
