#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A helper called twice with two keys: each call is followed into its body with its own
-- key (`k` is KEYS[1] at the first, ARGV[1] at the second).
local function set(k)
  redis.call('SET', k, 1)
end
set(KEYS[1])
set(ARGV[1])
return 1
