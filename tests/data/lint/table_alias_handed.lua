#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- The table of the API's functions handed to a helper: its calls there are not followed.
local r = { call = redis.call }
local function set(api, k) return api.call('SET', k, 'v') end
set(r, KEYS[1])
return set(r, ARGV[1])
