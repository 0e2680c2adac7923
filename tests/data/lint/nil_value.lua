-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A literal nil as an option's value, through a local: refused as an argument.
local ttl = nil
return redis.call('SET', KEYS[1], 1, 'EX', ttl)
