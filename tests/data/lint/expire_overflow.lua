-- call: keys=1 decided
-- An expire time that overflows 64 bits once the server scales it to milliseconds or adds
-- its clock: every server refuses it ("invalid expire time in 'expire' command"). A time in
-- milliseconds from 1970 (PEXPIREAT) takes 2^63-1, and EXPIRE takes 0 and below while
-- they fit.
redis.call('PEXPIREAT', KEYS[1], '9223372036854775807')
redis.call('EXPIRE', KEYS[1], '-9223372036854775')
return redis.call('EXPIRE', KEYS[1], '9223372036854775807')
