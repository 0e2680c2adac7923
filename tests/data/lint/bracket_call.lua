#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `redis['call']` is `redis.call`: the second key on another slot is refused.
redis['call']('SET', KEYS[1], 'v')
return redis['call']('SET', ARGV[1], 'v')
