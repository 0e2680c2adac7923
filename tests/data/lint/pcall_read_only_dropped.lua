#!lua flags=no-writes
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- Writes in a `no-writes` script, each protected and its error dropped (a statement of its
-- own): the servers refuse each, and the script goes on every time.
redis.pcall('SET', KEYS[1], 'v')
redis.pcall('PUBLISH', 'ch', 'm')
pcall(redis.call, 'SET', ARGV[1], 'v')
return redis.call('GET', KEYS[1])
