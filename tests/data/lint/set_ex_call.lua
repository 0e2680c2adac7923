#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- An expire time computed by a call as SET's last argument (`'EX', math.ceil(t)`, as GCRA
-- rate limiters write it): the option has its value.
local t = 2.5
redis.call('SET', KEYS[1], 'v', 'EX', math.ceil(t))
return redis.call('SET', ARGV[1], 'v', 'PX', math.floor(t * 1000))
