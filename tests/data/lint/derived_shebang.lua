#!lua
-- call: keys=1 (KEYS[1])
-- The same derived key in a shebang script: one slot for the whole script.
redis.call('SET', KEYS[1], 'v')
return redis.call('SET', KEYS[1] .. ':x', 'v')
