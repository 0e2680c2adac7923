#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A local table's element assigned again in a branch: `t[1]` may be either key, not known
-- (the branch runs: the second key, refused on another slot).
local t = { KEYS[1] }
if #ARGV > 0 then
  t[1] = ARGV[1]
end
return redis.call('SET', t[1], 'v')
