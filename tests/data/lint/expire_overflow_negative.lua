-- call: keys=1 decided
-- EXPIRE below -2^63 / 1000 seconds overflows once scaled to milliseconds: every server
-- refuses it ("invalid expire time in 'expire' command"), though a time of 0 or below
-- that fits deletes the key.
redis.call('SET', KEYS[1], 'v')
return redis.call('EXPIRE', KEYS[1], '-9223372036854775808')
