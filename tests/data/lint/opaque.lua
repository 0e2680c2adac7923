-- call: keys=1 (KEYS[1])
-- A key read from the data: no lint can place it before the call.
local target = redis.call('GET', KEYS[1])
if target then
  return redis.call('GET', target)
end
return false
