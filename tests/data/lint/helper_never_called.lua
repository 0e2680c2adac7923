-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local helper that is never called (a shared helper a script does not use): its body
-- never runs, so its `GET k` is no call of the script.
local function unused(k)
  return redis.call('GET', k)
end
return redis.call('GET', KEYS[1])
