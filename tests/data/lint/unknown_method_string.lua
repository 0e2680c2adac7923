-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `id:sbu(1, 8)` for `id:sub(1, 8)`: a string's methods are the functions of `string`,
-- which has no `sbu` ("attempt to call method 'sbu' (a nil value)").
local id = ARGV[1]
return redis.call('SET', KEYS[1], id:sbu(1, 8))
