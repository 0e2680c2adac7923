-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- Writes through locals that hold no read-only table when they run: `local k = KEYS` (the
-- call's own table), `local t = string` assigned a table of its own before the write.
local k = KEYS
k[2] = 'extra'
local t = string
t = {}
t.trim = function(s) return s end
return redis.call('SET', KEYS[1], t.trim('v'))
