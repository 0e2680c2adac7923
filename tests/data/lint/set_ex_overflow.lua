-- call: keys=1 decided
-- SET ... EX with seconds that fit 64 bits as milliseconds (2^63-1 / 1000) but not once
-- the server adds its clock: every server refuses it ("invalid expire time in 'set'
-- command"), after the SET before it, whose time in milliseconds from 1970 fits.
redis.call('SET', KEYS[1], 'v', 'PXAT', '9223372036854775807')
return redis.call('SET', KEYS[1], 'v', 'EX', '9223372036854775')
