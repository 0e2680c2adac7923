-- call: keys=1
-- The same option twice is taken by every server (the last expire time wins).
redis.call('SET', KEYS[1], 'v', 'NX', 'NX')
return redis.call('SET', KEYS[1], 'w', 'EX', 10, 'EX', 20, 'GET')
