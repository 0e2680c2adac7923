-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `unpack` of a table the script writes gives its fields: one here, so `HSET KEYS[1] f`,
-- which every server refuses ("Wrong number of args calling Redis command from script").
return redis.call('HSET', KEYS[1], unpack({ARGV[1]}))
