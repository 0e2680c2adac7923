-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- redis.set_repl() without flags: refused ("requires one argument"; Redis 7.0 says two).
redis.set_repl()
return redis.call('SET', KEYS[1], 1)
