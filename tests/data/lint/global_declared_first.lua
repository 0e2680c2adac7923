#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `local touch` first, then `function touch(...)`; `M.mark = ...`, `function M.clear` and
-- a method's `self.last = ...` on a local table: no global is written.
local touch
function touch(key)
  return redis.call('SET', key, 'v')
end
local M = {}
M.mark = function(key) return redis.call('GET', key) end
function M.clear(key) return 1 end
function M:remember(key) self.last = key end
M:remember(KEYS[1])
return touch(KEYS[1]) and M.mark(KEYS[1])
