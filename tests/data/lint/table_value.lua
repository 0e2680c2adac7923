-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A table as a value: refused as an argument (its elements are not spread).
return redis.call('SET', KEYS[1], {})
