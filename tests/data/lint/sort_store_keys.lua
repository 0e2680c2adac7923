#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- SORT of a declared key stored in it: the last argument, whatever its value, moves no key
-- (a `STORE` there has nothing after it), so the keys are placed.
return redis.call('SORT', KEYS[1], 'STORE', KEYS[1])
