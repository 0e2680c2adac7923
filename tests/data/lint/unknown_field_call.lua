-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A typo in the API: `redis.cal` for `redis.call` ("attempt to call field 'cal'").
return redis.cal('GET', KEYS[1])
