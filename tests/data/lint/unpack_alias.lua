-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `unpack` through a local bound to it is counted as `unpack`: one value of ARGV, so
-- `HSET KEYS[1] f`, which every server refuses ("Wrong number of args calling Redis
-- command from script").
local u = unpack
return redis.call('HSET', KEYS[1], u(ARGV))
