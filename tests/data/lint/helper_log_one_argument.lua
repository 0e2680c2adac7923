-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- redis.log without a message: refused ("requires two arguments or more").
redis.log(redis.LOG_NOTICE)
return redis.call('GET', KEYS[1])
