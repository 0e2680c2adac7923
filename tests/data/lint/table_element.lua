#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local table's elements, each assigned once (`t[1] = KEYS[1]`, `t[2] = ARGV[1]`), read
-- after: the values followed (`SET t[2]` is the second key: one slot or another).
local t = {}
t[1] = KEYS[1]
t[2] = ARGV[1]
redis.call('GET', t[1])
return redis.call('SET', t[2], 'v')
