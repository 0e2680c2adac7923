-- call: keys=1 (KEYS[1])
-- A key written in the script, on the slot of `{p}`.
redis.call('SET', KEYS[1], 'v')
return redis.call('INCR', '{p}counter')
