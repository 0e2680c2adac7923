-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A log level called as a function: `redis.LOG_WARNING` is a number, every server refuses
-- the call ("attempt to call field 'LOG_WARNING' (a number value)").
redis.LOG_WARNING('x')
return redis.call('GET', KEYS[1])
