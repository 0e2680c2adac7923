#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `redis.pcal` for `redis.pcall`: refused at the call, and its keys checked as
-- `redis.pcall`'s (ARGV[1] is a second slot of a shebang script).
redis.call('SET', KEYS[1], 'v')
return redis.pcal('SET', ARGV[1], 'v')
