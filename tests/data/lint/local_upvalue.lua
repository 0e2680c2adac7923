#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key) decided
-- A local function reads the upvalue `k`; a helper's parameter `k` is another binding.
local k = KEYS[1]
local function get() return redis.call('GET', k) end
local function length(k) return #k end
length(ARGV[1])
length('x')
return get()
