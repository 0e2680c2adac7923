-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- redis.status_reply of a number: refused, it takes a Lua string only.
redis.call('GET', KEYS[1])
return redis.status_reply(5)
