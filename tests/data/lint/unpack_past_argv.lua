-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `unpack(ARGV, 1, 2)` where the call gives one value: the second is nil, which the
-- servers refuse as an argument.
return redis.call('HSET', KEYS[1], 'f', unpack(ARGV, 1, 2))
