#! lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A space after `#!`: Lua skips the line, but every server reads it as a shebang and refuses it.
return redis.call('GET', KEYS[1])
