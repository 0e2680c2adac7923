-- call: keys=1
-- EXPIRE with a fraction of a second (rq's TTL of 0.5 s through `tonumber`): every server
-- refuses it ("value is not an integer or out of range"), after the SET before it ran.
redis.call('SET', KEYS[1], 'v')
return redis.call('EXPIRE', KEYS[1], '0.5')
