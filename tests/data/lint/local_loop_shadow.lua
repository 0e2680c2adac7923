#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key) decided
-- The loop's `k` is a binding of the loop's body: the `k` after it is the outer one.
local k = KEYS[1]
for _, k in ipairs(ARGV) do
  redis.call('EXISTS', KEYS[1])
end
for k = 1, 2 do end
return redis.call('SET', k, 'v')
