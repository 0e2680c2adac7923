-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- redis.sha1hex() of nothing: refused ("wrong number of arguments").
return redis.call('SET', KEYS[1], redis.sha1hex())
