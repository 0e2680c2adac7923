-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A helper called before its `local function` line: a global there, and there is none.
local ttl = minutes(5)
local function minutes(n)
  return n * 60
end
return redis.call('SET', KEYS[1], 'v', 'EX', ttl)
