-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `MOVE key 0` in a cluster: Redis 7.0 and Valkey 8.0 refuse MOVE, Valkey 9.1 a move to
-- the database the script is in ("source and destination objects are the same").
redis.call('SET', KEYS[1], 'v')
return redis.call('MOVE', KEYS[1], 0)
