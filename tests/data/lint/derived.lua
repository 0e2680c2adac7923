-- call: keys=1 (KEYS[1])
-- A key derived from KEYS[1]: on KEYS[1]'s slot while KEYS[1] carries a hashtag.
redis.call('SET', KEYS[1], 'v')
return redis.call('SET', KEYS[1] .. ':x', 'v')
