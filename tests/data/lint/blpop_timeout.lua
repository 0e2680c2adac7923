-- call: keys=1 decided
-- A blocking pop's timeout, read from the end of the call after its keys: Valkey 8.0 and
-- 9.1 run BLPOP in a script (it does not block there) but refuse ` 1` ("timeout is not a
-- float or out of range"); Redis 7.0 refuses BLPOP in a script at all.
return redis.call('BLPOP', KEYS[1], ' 1')
