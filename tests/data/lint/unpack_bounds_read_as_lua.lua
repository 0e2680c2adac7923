-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `unpack`'s bounds as Lua 5.1 reads them (`luaL_optint`): the string '1' is 1, and 1.5
-- is cut to 1, so the call gets one value from ARGV, `HSET KEYS[1] f`, which every server
-- refuses ("Wrong number of args calling Redis command from script").
return redis.call('HSET', KEYS[1], unpack(ARGV, '1', 1.5))
