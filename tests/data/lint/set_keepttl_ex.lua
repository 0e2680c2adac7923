-- call: keys=1
-- SET keeping the TTL and giving one: every server refuses it ("syntax error").
return redis.call('SET', KEYS[1], 'v', 'KEEPTTL', 'EX', 10)
