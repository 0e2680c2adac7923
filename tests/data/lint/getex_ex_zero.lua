-- call: keys=1
-- GETEX ... EX 0 of a key that does not exist: Valkey 9.1 refuses it ("invalid expire time
-- in 'getex' command"); Redis 7.0 and Valkey 8.0 read the time only once the key exists
-- and answer nil.
return redis.call('GETEX', KEYS[1], 'EX', 0)
