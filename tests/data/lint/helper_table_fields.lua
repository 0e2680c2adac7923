#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- Helpers kept as a table's fields (`function M.set`, `function M:get`, `M.del =
-- function`), the table a local declared `{}` and used only to define and call them: each
-- call is followed into its body with its own key.
local M = {}
function M.set(k)
  return redis.call('SET', k, 'v')
end
function M:get(k)
  return redis.call('GET', k)
end
M.del = function(k)
  return redis.call('DEL', k)
end
M.set(KEYS[1])
M:get(KEYS[1])
M.del(KEYS[1])
return M.set(ARGV[1])
