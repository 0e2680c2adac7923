#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `return redis.pcall(...)` of an ARGV key: where the server refuses it, pcall hands the
-- script the error, and the script returns it: the caller's reply is the error.
redis.call('SET', KEYS[1], 'v')
return redis.pcall('SET', ARGV[1], 'v')
