#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `local KEYS = { ARGV[1] }` where its reads do not see it: an alias made before holds the
-- caller's table, and the local of a `do` block ends with the block. Both writes are of
-- the key declared.
local ks = KEYS
do
  local KEYS = { ARGV[1] }
end
redis.call('SET', KEYS[1], 'v')
local KEYS = { ARGV[1] }
return redis.call('SET', ks[1], 'v')
