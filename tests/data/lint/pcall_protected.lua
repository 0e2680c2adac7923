#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `redis.pcall` and `pcall(redis.call, ...)`: a refused command is a value, the script goes on.
redis.pcall('SET', ARGV[1], 'v')
pcall(redis.call, 'SET', ARGV[1], 'w')
return redis.call('SET', KEYS[1], 'v')
