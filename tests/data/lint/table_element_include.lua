#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A local table's element assigned again by an include placed after the declaration
-- (bullmq's `--- @include`, `v[1] = ARGV[1]`): `v[1]` is not known.
local v = {}
v[1] = KEYS[1]
--- @include "includes/table_change"
return redis.call('SET', v[1], 'v')
