-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A typo: `ARG[1]` for `ARGV[1]`, the value to set.
return redis.call('SET', KEYS[1], ARG[1])
