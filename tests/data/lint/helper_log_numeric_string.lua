-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A level written as a numeric string: Lua reads it as the number, taken.
redis.log('3', 'x')
return redis.call('GET', KEYS[1])
