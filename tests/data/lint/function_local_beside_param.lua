#!lua name=beside
-- call: keys=1 (keys[1]; args[1] is the second key), FCALL f decided
-- The callback's `local k` beside the helper's parameter `k`: two bindings.
local function touch(k, v) return redis.call('SET', k, v) end
redis.register_function('f', function(keys, args)
  local k = keys[1]
  touch(k, 'a')
  touch(args[1], 'b')
  return redis.call('GET', k)
end)
