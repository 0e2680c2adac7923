#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A local function reads `k` after it is reassigned: it writes ARGV[1].
local k = KEYS[1]
local function touch() return redis.call('SET', k, 'v') end
k = ARGV[1]
return touch()
