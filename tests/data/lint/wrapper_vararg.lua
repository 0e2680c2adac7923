#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A wrapper that forwards its arguments whole: each of its calls is a command.
local function rcall(...)
  return redis.call(...)
end
rcall('SET', KEYS[1], 'v')
return rcall('SET', ARGV[1], 'v')
