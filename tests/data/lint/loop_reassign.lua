#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A local reassigned in a loop: the second pass writes ARGV[1], not KEYS[1].
local k = KEYS[1]
for i = 1, 2 do
  redis.call('SET', k, 'v')
  k = ARGV[1]
end
return 1
