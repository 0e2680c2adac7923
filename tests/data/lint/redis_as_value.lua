#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `redis` as a value: the lint cannot follow `s.call`, so the script depends.
local s = server or redis
s.call('SET', KEYS[1], 'v')
return s.call('SET', ARGV[1], 'v')
