-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A helper handed KEYS changes it through a parameter of another name: KEYS[1] read after
-- the call is ARGV[1]'s key, not the caller's.
local function put(t, v)
  t[1] = v
end
put(KEYS, ARGV[1])
return redis.call('SET', KEYS[1], 'x')
