-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A literal nil at a key position: refused as an argument.
return redis.call('GET', nil)
