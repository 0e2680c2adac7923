-- call: keys=1
-- LINDEX reads its index only once the list exists: every server refuses `1.5` here ("value
-- is not an integer or out of range") after the RPUSH before it, and takes it on an empty
-- database. The lint, which does not follow whether the key exists, says `depends`.
redis.call('RPUSH', KEYS[1], 'x')
return redis.call('LINDEX', KEYS[1], '1.5')
