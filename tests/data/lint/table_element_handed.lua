#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A local table handed to a function that may change it (`table.insert` puts the second
-- key first): `u[1]` is not known.
local u = {}
u[1] = KEYS[1]
table.insert(u, 1, ARGV[1])
return redis.call('SET', u[1], 'v')
