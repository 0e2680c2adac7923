-- call: keys=2 (KEYS[1], KEYS[2])
-- Two declared keys: every server checks them before the script runs (CROSSSLOT).
redis.call('SET', KEYS[1], 'v')
return redis.call('SET', KEYS[2], 'v')
