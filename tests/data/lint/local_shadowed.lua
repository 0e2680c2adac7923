#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key) decided
-- `local k` in a `do` block is another binding: the outer `k` keeps KEYS[1].
local k = KEYS[1]
do
  local k = ARGV[1] .. ':x'
  redis.call('EXISTS', KEYS[1])
end
return redis.call('SET', k, 'v')
