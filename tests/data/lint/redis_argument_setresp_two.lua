-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `redis.setresp` with two arguments: the servers refuse the call ("requires one argument").
redis.setresp(3, 4)
return redis.call('GET', KEYS[1])
