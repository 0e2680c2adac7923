#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local helper called once with each of its arguments: its parameters are what the call
-- passes (`key` is ARGV[1], another slot than KEYS[1]'s unless they share a hashtag).
local rcall = redis.call
local function getOrSet(key, default)
  local v = rcall('GET', key)
  if v then return v end
  rcall('SET', key, default)
  return default
end
rcall('SET', KEYS[1], 'v')
return getOrSet(ARGV[1], '0')
