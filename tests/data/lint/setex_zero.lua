-- call: keys=1
-- SETEX with an expire time of 0: every server refuses it ("invalid expire time in 'setex'
-- command"), as SET ... EX 0.
return redis.call('SETEX', KEYS[1], 0, 'v')
