-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `table.unpack`, Lua 5.2's name: the servers run Lua 5.1, whose `table` has no `unpack`
-- ("attempt to call field 'unpack' (a nil value)"); its `unpack` is a global.
local fields = { 'owner', ARGV[1], 'state', 'held' }
return redis.call('HSET', KEYS[1], table.unpack(fields))
