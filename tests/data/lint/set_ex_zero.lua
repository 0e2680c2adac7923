-- call: keys=1
-- SET with an expire time of 0: every server refuses it ("invalid expire time in 'set'
-- command").
return redis.call('SET', KEYS[1], 'v', 'EX', 0)
