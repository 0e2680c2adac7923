-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- WATCH in a script (a script is atomic already): every server refuses it.
redis.call('WATCH', KEYS[1])
return redis.call('INCR', KEYS[1])
