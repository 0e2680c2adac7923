-- call: keys=1 decided
-- An infinite timeout: Valkey 8.0 and 9.1 refuse it ("timeout is out of range"); a
-- timeout of 0 they take; Redis 7.0 refuses BZPOPMIN in a script at all.
return redis.call('BZPOPMIN', KEYS[1], 'inf')
