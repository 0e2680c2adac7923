-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `unpack(ARGV)` after the script changes ARGV: the lint does not count what is left, so
-- the arity depends on it (here nothing is: `HSET KEYS[1]`, refused by every server,
-- "Wrong number of args calling Redis command from script"), never `runs`.
table.remove(ARGV)
return redis.call('HSET', KEYS[1], unpack(ARGV))
