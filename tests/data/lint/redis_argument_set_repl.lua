-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- Replication flags past REPL_ALL (3): `redis.set_repl` refuses them when the line runs.
redis.set_repl(99)
return redis.call('SET', KEYS[1], 'v')
