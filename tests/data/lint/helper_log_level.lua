-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A log level past 3: refused ("Invalid debug level.", "Invalid log level.").
redis.log(99, 'x')
return redis.call('GET', KEYS[1])
