-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A RESP version the servers do not have: `redis.setresp` refuses it when the line runs.
redis.setresp(4)
return redis.call('GET', KEYS[1])
