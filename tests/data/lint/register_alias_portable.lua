#!lua name=corpus_reg_portable
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL reg_portable
-- The Valkey/Redis-portable form: Valkey 8 and 9 load it (`server` is there, a test of
-- it runs no command); Redis 7.0 refuses `server` in a library's body.
local register = server and server.register_function or redis.register_function
register('reg_portable', function(keys, args)
  return redis.call('GET', keys[1])
end)
