-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- ARGV[2] where the call gives one value: nil as a value (not a key), which the servers
-- refuse as an argument ("Command arguments must be strings or integers").
return redis.call('SET', KEYS[1], ARGV[2])
