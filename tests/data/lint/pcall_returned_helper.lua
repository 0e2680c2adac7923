#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `return redis.pcall(...)` in a helper: its values go to the helper's caller, which drops
-- them; the script goes on and returns its own.
local function try_set(k)
  return redis.pcall('SET', k, 'v')
end
try_set(ARGV[1])
return redis.call('SET', KEYS[1], 'v')
