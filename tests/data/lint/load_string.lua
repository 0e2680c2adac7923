-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- Lua 5.1's `load` takes a function that gives the chunk; a string is `loadstring`'s.
-- Every server refuses `load` of a string ("bad argument #1 to 'load' (function
-- expected, got string)"), after the SET before it ran.
redis.call('SET', KEYS[1], 'v')
local f = load('return 1')
return f and f() or 0
