-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `tostring(nil)` is the string "nil": the servers take it.
return redis.call('SET', KEYS[1], tostring(nil))
