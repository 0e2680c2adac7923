-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A typo: `tonumbr` for `tonumber`.
local ttl = tonumbr('60') or 60
return redis.call('SET', KEYS[1], 'v', 'EX', ttl)
