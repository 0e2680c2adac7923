-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `redis.setresp` with no argument: the servers refuse the call ("requires one argument").
redis.setresp()
return redis.call('GET', KEYS[1])
