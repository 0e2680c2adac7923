-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- rq's `HSET KEYS[1] unpack(ARGV, i)` given one field and no value: with ARGV known, the
-- count is known, and every server refuses the call ("Wrong number of args").
return redis.call('HSET', KEYS[1], unpack(ARGV))
