#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local given two values that both begin with the hashtag `{p}` (bull's `rateLimiterKey`,
-- then `rateLimiterKey .. ':' .. group`): whichever it holds, its key is on `{p}`'s slot.
local key = '{p}:' .. KEYS[1]
if ARGV[1] ~= '' then
  key = key .. ':' .. ARGV[1]
end
return redis.call('SET', key, 'x')
