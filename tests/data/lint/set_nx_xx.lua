-- call: keys=1
-- SET with NX and XX together: every server refuses it ("syntax error").
return redis.call('SET', KEYS[1], 'v', 'NX', 'XX')
