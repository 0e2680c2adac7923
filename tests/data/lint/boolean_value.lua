-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A boolean as a value: refused as an argument (Lua's true is no string).
return redis.call('SET', KEYS[1], true)
