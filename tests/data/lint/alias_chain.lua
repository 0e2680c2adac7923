#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A chain of locals: `local s = r` after `local r = redis`, `local c = s.call`, `local d = c`.
local r = redis
local s = r
local c = s.call
local d = c
s.call('SET', KEYS[1], 'v')
return d('SET', ARGV[1], 'v')
