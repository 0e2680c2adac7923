#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- The outer `k` assigned again from an inner block: one binding given two values.
local k = KEYS[1]
do
  k = ARGV[1]
end
return redis.call('SET', k, 'v')
