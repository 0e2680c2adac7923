-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A local given two values, one of them a fraction of a second: ARGV[2] is not given, so
-- `t` keeps `1.5` and every server refuses EXPIRE ("value is not an integer or out of
-- range"). The lint reads values per name, not per place, so it cannot tell which value
-- reaches the call: `depends`, never `runs`.
local t = '1.5'
if ARGV[2] then t = '10' end
return redis.call('EXPIRE', KEYS[1], t)
