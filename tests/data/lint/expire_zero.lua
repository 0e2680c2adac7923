-- call: keys=1
-- EXPIRE takes 0 and below (the key is deleted), unlike SETEX and SET ... EX.
redis.call('SET', KEYS[1], 'v')
redis.call('PEXPIREAT', KEYS[1], -5)
return redis.call('EXPIRE', KEYS[1], 0)
