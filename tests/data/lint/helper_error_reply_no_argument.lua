-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- redis.error_reply() without its message: the reply is "wrong number or type of arguments".
redis.call('GET', KEYS[1])
return redis.error_reply()
