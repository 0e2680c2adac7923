-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `local r = redis`, then `r.cal(...)`: a typo through a local that holds the API, which
-- the servers refuse as they refuse `redis.cal` ("attempt to call field 'cal' (a nil value)").
local r = redis
return r.cal('GET', KEYS[1])
