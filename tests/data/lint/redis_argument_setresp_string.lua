-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `redis.setresp` with a string that is no number: Lua reads it as 0, and the servers
-- refuse the call ("RESP version must be 2 or 3").
redis.setresp('x')
return redis.call('GET', KEYS[1])
