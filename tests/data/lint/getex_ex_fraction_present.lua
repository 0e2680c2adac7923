-- call: keys=1
-- GETEX ... EX 1.5 of a key that exists: every server refuses it ("value is not an integer
-- or out of range"); the lint, which does not follow whether the key exists, says that
-- Redis 7.0 and Valkey 8.0 depend on it.
redis.call('SET', KEYS[1], 'v')
return redis.call('GETEX', KEYS[1], 'EX', '1.5')
